#include "spire/dxil/DxilOps.h"
#include "DxilOpTokens.h"
#include "ShortText.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <type_traits>

namespace spire::dxil {

namespace {

// The tokens the table's rows are written in.
namespace tokens {
constexpr uint16_t V = overloadBit(Overload::Void), H = overloadBit(Overload::F16),
                   F = overloadBit(Overload::F32), D = overloadBit(Overload::F64),
                   I1 = overloadBit(Overload::I1), I8 = overloadBit(Overload::I8),
                   I16 = overloadBit(Overload::I16), I32 = overloadBit(Overload::I32),
                   I64 = overloadBit(Overload::I64), UDT = overloadBit(Overload::Udt),
                   OBJ = overloadBit(Overload::Obj);
constexpr uint32_t ALL = 0xffff; // the sixteen kinds, pixel to node
} // namespace tokens
using namespace tokens;

constexpr OpInfo kOps[] = {
#define S(kind) (1u << unsigned(ShaderKind::kind))
#define DXIL_OP(opcode, Name, Class, overloads, stages, smMajor, smMinor, translatable, dxilMinor, \
                attribute)                                                                         \
  {opcode,                                                                                         \
   #Name,                                                                                          \
   OpClass::Class,                                                                                 \
   uint16_t(overloads),                                                                            \
   uint32_t(stages),                                                                               \
   smMajor,                                                                                        \
   smMinor,                                                                                        \
   translatable != 0,                                                                              \
   1,                                                                                              \
   dxilMinor,                                                                                      \
   OpAttribute::attribute},
#include "spire/dxil/DxilOps.def"
#undef S
};

constexpr std::string_view kClassNames[] = {
#define DXIL_OP_CLASS(Class, functionName) #functionName,
#include "spire/dxil/DxilOps.def"
};

static_assert(std::size(kOps) == 258, "the table ends at StartInstanceLocation (257)");

constexpr OpSignature kClassSignatures[] = {
#define DXIL_OP_SIGNATURE(Class, result, parameters) {result, parameters},
#include "spire/dxil/DxilOps.def"
};
static_assert(std::size(kClassSignatures) == std::size(kClassNames),
              "every class has one signature row, in class order");

struct SignatureOverride {
  uint32_t opcode;
  OpSignature signature;
};
constexpr SignatureOverride kSignatureOverrides[] = {
#define DXIL_OP_SIGNATURE_OVERRIDE(opcode, result, parameters) {opcode, {result, parameters}},
#include "spire/dxil/DxilOps.def"
};

/// The union of the overloads each class's operations allow.
constexpr std::array<uint16_t, std::size(kClassNames)> kClassOverloads = [] {
  std::array<uint16_t, std::size(kClassNames)> t{};
  for (const OpInfo &op : kOps)
    t[size_t(op.opClass)] |= op.overloads;
  return t;
}();

} // namespace

std::span<const OpInfo> opTable() { return kOps; }

const OpInfo *opInfo(uint32_t opcode) { return opcode < std::size(kOps) ? &kOps[opcode] : nullptr; }

const OpInfo *opInfo(std::string_view name) {
  for (const OpInfo &op : kOps)
    if (op.name == name)
      return &op;
  return nullptr;
}

std::string_view opClassName(OpClass opClass) {
  size_t i = size_t(opClass);
  return i < std::size(kClassNames) ? kClassNames[i] : std::string_view();
}

namespace {

/// The class names in an open-addressed hash table (at most a third full), built when
/// compiling.
class ClassNameTable {
public:
  constexpr ClassNameTable() {
    slots_.fill(kEmpty);
    for (size_t c = 0; c < std::size(kClassNames); ++c) {
      size_t i = hash(kClassNames[c]) & (kSlots - 1);
      while (slots_[i] != kEmpty)
        i = (i + 1) & (kSlots - 1);
      slots_[i] = uint16_t(c);
    }
  }
  constexpr std::optional<OpClass> find(std::string_view name) const {
    for (size_t i = hash(name) & (kSlots - 1); slots_[i] != kEmpty; i = (i + 1) & (kSlots - 1))
      if (sameName(kClassNames[slots_[i]], name))
        return OpClass(slots_[i]);
    return std::nullopt;
  }

private:
  /// a == b; at run time a name of 4-16 characters (most class names) in two loads of each.
  static constexpr bool sameName(std::string_view a, std::string_view b) {
    if (std::is_constant_evaluated() || a.size() != b.size())
      return a == b;
    return detail::sameShortText(a.data(), b.data(), a.size());
  }
  static constexpr size_t kSlots = 1024;
  static constexpr uint16_t kEmpty = 0xFFFF;
  static_assert(std::size(kClassNames) * 3 <= kSlots);
  /// The length and four characters (the names are distinct enough there; the probe compares
  /// the whole name): a few instructions, not one per character.
  static constexpr uint32_t hash(std::string_view s) {
    const size_t n = s.size();
    uint32_t h = uint32_t(n) * 0x9E3779B1u;
    if (n)
      h ^= uint32_t(uint8_t(s[0])) | uint32_t(uint8_t(s[n - 1])) << 8 |
           uint32_t(uint8_t(s[n / 2])) << 16 | uint32_t(uint8_t(s[n * 3 / 4])) << 24;
    h *= 0x85EBCA6Bu;
    return h ^ (h >> 15);
  }
  std::array<uint16_t, kSlots> slots_{};
};

} // namespace

std::optional<OpClass> opClassFromName(std::string_view functionName) {
  static constexpr ClassNameTable kTable;
  return kTable.find(functionName);
}

size_t opClassCount() { return std::size(kClassNames); }

std::string_view overloadName(Overload o) {
  static constexpr std::string_view kNames[] = {"",    "f16", "f32", "f64", "i1", "i8",
                                                "i16", "i32", "i64", "udt", "obj"};
  return unsigned(o) < std::size(kNames) ? kNames[unsigned(o)] : std::string_view();
}

std::optional<Overload> overloadFromName(std::string_view suffix) {
  // "f16" ... "i64": two or three characters.
  if (suffix.size() == 2)
    return suffix == "i1"   ? std::optional(Overload::I1)
           : suffix == "i8" ? std::optional(Overload::I8)
                            : std::nullopt;
  if (suffix.size() != 3)
    return std::nullopt;
  unsigned tens = unsigned(suffix[1] - '0'), ones = unsigned(suffix[2] - '0');
  if (tens > 9 || ones > 9)
    return std::nullopt;
  unsigned bits = tens * 10 + ones;
  if (suffix[0] == 'f')
    return bits == 16   ? std::optional(Overload::F16)
           : bits == 32 ? std::optional(Overload::F32)
           : bits == 64 ? std::optional(Overload::F64)
                        : std::nullopt;
  if (suffix[0] == 'i')
    return bits == 16   ? std::optional(Overload::I16)
           : bits == 32 ? std::optional(Overload::I32)
           : bits == 64 ? std::optional(Overload::I64)
                        : std::nullopt;
  return std::nullopt;
}

OpSignature opSignature(const OpInfo &op) {
  for (const SignatureOverride &o : kSignatureOverrides)
    if (o.opcode == op.opcode)
      return o.signature;
  size_t i = size_t(op.opClass);
  return i < std::size(kClassSignatures) ? kClassSignatures[i] : OpSignature{"?", ""};
}

namespace {

/// How many tokens the signature loop takes from a parameter list.
constexpr size_t countSignatureTokens(std::string_view s) {
  size_t n = 0;
  while (!s.empty()) {
    size_t space = s.find(' ');
    s = space == std::string_view::npos ? std::string_view() : s.substr(space + 1);
    ++n;
  }
  return n;
}

constexpr SignatureToken compileToken(std::string_view text) {
  using K = SignatureTokenKind;
  SignatureToken t;
  t.text = text;
  if (text == "void") {
    t.kind = K::Void;
  } else if (text == "$o") {
    t.kind = K::Overload;
  } else if (text == "$o*") {
    t.kind = K::OverloadPointer;
  } else if (text.starts_with('%')) {
    size_t at = text.substr(1).find("$o");
    t.kind = at == std::string_view::npos ? K::Struct : K::StructOverload;
    t.overload = at == std::string_view::npos ? 0 : uint16_t(at);
  } else if (text == "f16" || text == "f32" || text == "f64") {
    t.kind = text == "f16" ? K::Half : text == "f32" ? K::Float : K::Double;
    t.scalarOverload = text == "f16"   ? Overload::F16
                       : text == "f32" ? Overload::F32
                                       : Overload::F64;
  } else if (text.size() >= 2 && text[0] == 'i') {
    uint32_t bits = 0;
    for (char c : text.substr(1))
      bits = c >= '0' && c <= '9' && bits < 1000 ? bits * 10 + uint32_t(c - '0') : ~0u;
    if (bits != ~0u) {
      t.kind = K::Integer;
      t.bits = uint16_t(bits);
      t.scalarOverload = bits == 1    ? Overload::I1
                         : bits == 8  ? Overload::I8
                         : bits == 16 ? Overload::I16
                         : bits == 32 ? Overload::I32
                         : bits == 64 ? Overload::I64
                                      : Overload::Void;
      // "i032" is 32 bits wide but not the name of the overload i32.
      if (text.size() > 1 && text[1] == '0')
        t.scalarOverload = Overload::Void;
    }
  }
  return t;
}

constexpr size_t signatureTokens(const OpSignature &s) {
  return s.result != "?" ? 1 + countSignatureTokens(s.parameters) : 0;
}

constexpr size_t kSignatureTokenCount = [] {
  size_t n = 0;
  for (const OpSignature &s : kClassSignatures)
    n += signatureTokens(s);
  for (const SignatureOverride &o : kSignatureOverrides)
    n += signatureTokens(o.signature);
  return n;
}();

struct TokenRange {
  uint16_t first = 0, count = 0;
};

/// Every signature's tokens, and per opcode where its own are.
struct CompiledSignatures {
  std::array<SignatureToken, kSignatureTokenCount> tokens{};
  std::array<TokenRange, std::size(kOps)> byOpcode{};
};

constexpr CompiledSignatures compileSignatures() {
  CompiledSignatures c;
  size_t next = 0;
  auto add = [&](const OpSignature &s) {
    TokenRange r{uint16_t(next), uint16_t(signatureTokens(s))};
    if (r.count == 0) // not checked
      return r;
    c.tokens[next++] = compileToken(s.result);
    std::string_view params = s.parameters;
    while (!params.empty()) {
      size_t space = params.find(' ');
      c.tokens[next++] = compileToken(params.substr(0, space));
      params = space == std::string_view::npos ? std::string_view() : params.substr(space + 1);
    }
    return r;
  };
  std::array<TokenRange, std::size(kClassSignatures)> byClass{};
  for (size_t i = 0; i < std::size(kClassSignatures); ++i)
    byClass[i] = add(kClassSignatures[i]);
  for (const OpInfo &op : kOps)
    c.byOpcode[op.opcode] = byClass[size_t(op.opClass)];
  for (const SignatureOverride &o : kSignatureOverrides)
    c.byOpcode[o.opcode] = add(o.signature);
  return c;
}

constexpr CompiledSignatures kCompiledSignatures = compileSignatures();

constexpr bool denseOpcodes() {
  for (size_t i = 0; i < std::size(kOps); ++i)
    if (kOps[i].opcode != i)
      return false;
  return true;
}
static_assert(denseOpcodes(), "kOps[opcode].opcode == opcode");

} // namespace

std::span<const SignatureToken> opSignatureTokens(const OpInfo &op) {
  if (op.opcode >= std::size(kOps)) [[unlikely]]
    return {};
  TokenRange r = kCompiledSignatures.byOpcode[op.opcode];
  return {kCompiledSignatures.tokens.data() + r.first, r.count};
}

bool classAllows(OpClass opClass, Overload o) {
  size_t i = size_t(opClass);
  return i < kClassOverloads.size() && kClassOverloads[i] & overloadBit(o);
}

std::optional<OpFunction> parseOpFunctionName(std::string_view name) {
  // The prefix by a compare of fixed size (inline, not a call).
  if (name.size() < 6 || std::memcmp(name.data(), "dx.op.", 6) != 0)
    return std::nullopt;
  name.remove_prefix(6);
  const void *at = std::memchr(name.data(), '.', name.size());
  const size_t dot = at ? size_t(static_cast<const char *>(at) - name.data()) : name.size();
  std::optional<OpClass> opClass = opClassFromName(name.substr(0, dot));
  if (!opClass)
    return std::nullopt;
  OpFunction f{*opClass, Overload::Void, {}};
  if (dot < name.size()) {
    f.suffix = name.substr(dot + 1);
    if (std::optional<Overload> scalar = overloadFromName(f.suffix))
      f.overload = *scalar;
    else if (classAllows(*opClass, Overload::Udt))
      f.overload = Overload::Udt; // a struct type's name: the class decides which kind
    else if (classAllows(*opClass, Overload::Obj))
      f.overload = Overload::Obj;
    else
      return std::nullopt;
  }
  if (!classAllows(*opClass, f.overload))
    return std::nullopt;
  return f;
}

} // namespace spire::dxil
