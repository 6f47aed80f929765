#include "spire/dxil/DxilOps.h"

#include <algorithm>
#include <array>

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
const std::array<uint16_t, std::size(kClassNames)> &classOverloads() {
  static const std::array<uint16_t, std::size(kClassNames)> table = [] {
    std::array<uint16_t, std::size(kClassNames)> t{};
    for (const OpInfo &op : kOps)
      t[size_t(op.opClass)] |= op.overloads;
    return t;
  }();
  return table;
}

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

/// The class names in an open-addressed hash table (FNV-1a; at most a third full), built when
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
      if (kClassNames[slots_[i]] == name)
        return OpClass(slots_[i]);
    return std::nullopt;
  }

private:
  static constexpr size_t kSlots = 1024;
  static constexpr uint16_t kEmpty = 0xFFFF;
  static_assert(std::size(kClassNames) * 3 <= kSlots);
  static constexpr uint32_t hash(std::string_view s) {
    uint32_t h = 2166136261u;
    for (char c : s)
      h = (h ^ uint8_t(c)) * 16777619u;
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
  if (suffix.size() < 2 || suffix.size() > 3 || (suffix[0] != 'f' && suffix[0] != 'i'))
    return std::nullopt;
  for (unsigned i = unsigned(Overload::F16); i <= unsigned(Overload::I64); ++i)
    if (overloadName(Overload(i)) == suffix)
      return Overload(i);
  return std::nullopt;
}

OpSignature opSignature(const OpInfo &op) {
  for (const SignatureOverride &o : kSignatureOverrides)
    if (o.opcode == op.opcode)
      return o.signature;
  size_t i = size_t(op.opClass);
  return i < std::size(kClassSignatures) ? kClassSignatures[i] : OpSignature{"?", ""};
}

bool classAllows(OpClass opClass, Overload o) {
  size_t i = size_t(opClass);
  return i < classOverloads().size() && classOverloads()[i] & overloadBit(o);
}

std::optional<OpFunction> parseOpFunctionName(std::string_view name) {
  constexpr std::string_view kPrefix = "dx.op.";
  if (!name.starts_with(kPrefix))
    return std::nullopt;
  name.remove_prefix(kPrefix.size());
  size_t dot = name.find('.');
  std::optional<OpClass> opClass = opClassFromName(name.substr(0, dot));
  if (!opClass)
    return std::nullopt;
  OpFunction f{*opClass, Overload::Void, {}};
  if (dot != std::string_view::npos) {
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
