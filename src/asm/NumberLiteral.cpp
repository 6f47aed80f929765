#include "NumberLiteral.h"

#include "MessageText.h"
#include "NumberParser.h"

#include "spire/grammar/Grammar.h"

namespace spire::spvasm {

namespace {

const char *signedness(LiteralType type) {
  return type.kind == LiteralType::Kind::Signed ? "signed" : "unsigned";
}

// Whether `value` fits an integer of `type`. A hex text is read as the bit pattern of the value:
// it may fill the sign bit of a signed type, and is then sign-extended to 64 bits.
bool fitsInteger(uint64_t &value, bool negative, bool hex, LiteralType type) {
  uint64_t magnitudeMask = type.width >= 64 ? ~uint64_t(0) : (uint64_t(1) << type.width) - 1;
  const uint64_t overflowMask = ~magnitudeMask;
  uint64_t signMask = 0;
  if (negative || type.kind == LiteralType::Kind::Signed) {
    magnitudeMask >>= 1;
    signMask = magnitudeMask + 1;
  }
  if (negative) {
    if ((value & overflowMask) != overflowMask || (value & signMask) != signMask)
      return false;
  } else if (hex) {
    if ((value & overflowMask) != 0)
      return false;
  } else if ((value & magnitudeMask) != value) {
    return false;
  }
  if (hex && (value & signMask))
    value |= overflowMask;
  return true;
}

bool encodeInteger(std::string_view text, LiteralType type, LiteralWords &out, std::string &error) {
  if (type.width > 64) {
    error =
        std::to_string(type.width) + "-bit integer literals are not supported (at most 64 bits)";
    return false;
  }
  const bool negative = text[0] == '-';
  if (negative && type.kind != LiteralType::Kind::Signed) {
    error = "negative number " + quoted(text) + " for a " + std::to_string(type.width) +
            "-bit unsigned literal";
    return false;
  }
  const bool hex = text.size() >= 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
  uint64_t value;
  if (negative) {
    std::optional<int64_t> v = readSigned64(text);
    if (!v) {
      error = quoted(text) + " is not a signed integer literal (or is below -2^63)";
      return false;
    }
    value = static_cast<uint64_t>(*v);
  } else {
    std::optional<uint64_t> v = readUnsigned64(text);
    if (!v) {
      error = quoted(text) + " is not an integer literal (decimal, 0x hex or 0-prefixed octal, "
                             "below 2^64)";
      return false;
    }
    value = *v;
  }
  // "-0" is zero, not a negative value.
  const bool belowZero = negative && static_cast<int64_t>(value) < 0;
  if (!fitsInteger(value, belowZero, hex, type)) {
    error = "integer " + printable(text) + " does not fit in a " + std::to_string(type.width) +
            "-bit " + signedness(type) + " literal";
    return false;
  }
  out.words[0] = static_cast<uint32_t>(value);
  out.words[1] = static_cast<uint32_t>(value >> 32);
  out.count = type.width > 32 ? 2 : 1;
  return true;
}

// The format of a float literal's type: IEEE by its width, or its FP encoding.
std::optional<FloatFormat> floatFormatOf(LiteralType type, std::string &error) {
  if (type.encoding != ~0u) {
    const auto encoding = static_cast<grammar::FPEncoding>(type.encoding);
    if (encoding == grammar::FPEncoding::BFloat16KHR && type.width == 16)
      return FloatFormat::BFloat16;
    if (encoding == grammar::FPEncoding::Float8E4M3EXT && type.width == 8)
      return FloatFormat::Float8E4M3;
    if (encoding == grammar::FPEncoding::Float8E5M2EXT && type.width == 8)
      return FloatFormat::Float8E5M2;
    error = std::to_string(type.width) + "-bit float literals with FP encoding " +
            std::to_string(type.encoding) + " are not supported";
    return std::nullopt;
  }
  switch (type.width) {
  case 16:
    return FloatFormat::Half;
  case 32:
    return FloatFormat::Single;
  case 64:
    return FloatFormat::Double;
  default:
    error = std::to_string(type.width) +
            "-bit float literals are not supported (16, 32 and 64 bits are)";
    return std::nullopt;
  }
}

bool encodeFloat(std::string_view text, LiteralType type, LiteralWords &out, std::string &error) {
  std::optional<FloatFormat> format = floatFormatOf(type, error);
  if (!format)
    return false;
  std::optional<uint64_t> bits = readFloatBits(text, *format);
  if (!bits) {
    error = quoted(text) + " is not a " + floatFormatName(*format) +
            " literal (decimal or hex float, in range)";
    return false;
  }
  out.words[0] = static_cast<uint32_t>(*bits);
  out.words[1] = static_cast<uint32_t>(*bits >> 32);
  out.count = type.width > 32 ? 2 : 1;
  return true;
}

} // namespace

bool encodeNumericLiteral(std::string_view text, LiteralType type, LiteralWords &out,
                          std::string &error) {
  if (text.empty()) {
    error = "empty numeric literal";
    return false;
  }
  if (type.kind == LiteralType::Kind::Float)
    return encodeFloat(text, type, out, error);
  return encodeInteger(text, type, out, error);
}

} // namespace spire::spvasm
