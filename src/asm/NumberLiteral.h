// Numeric literal operands as spirv-as encodes them: the words a literal text takes for an
// integer or float of a given width, with spirv-as's range and sign rules.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace spire::spvasm {

struct LiteralType {
  enum class Kind : uint8_t { Unsigned, Signed, Float };
  Kind kind;
  uint32_t width; ///< in bits
  /// A float's FP Encoding operand (grammar::FPEncoding: bfloat16, the 8-bit floats), ~0u for
  /// IEEE floats.
  uint32_t encoding = ~0u;
};

struct LiteralWords {
  uint32_t words[2];
  uint8_t count;
};

/// Encodes `text` as a literal of `type`: one word up to 32 bits (signed integers sign-extended
/// to 32 bits, 16-bit floats zero-extended), two words (low first) up to 64 bits. On failure
/// returns false and sets `error` to a one-line message.
///
/// Integers: decimal, 0x hex, 0-prefixed octal, a sign; a negative value needs a signed type;
/// a hex value may set the sign bit of a signed type (it is then negative). Floats: see
/// readFloatBits; an integer text is a float too.
bool encodeNumericLiteral(std::string_view text, LiteralType type, LiteralWords &out,
                          std::string &error);

} // namespace spire::spvasm
