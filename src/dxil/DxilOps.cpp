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

std::optional<OpClass> opClassFromName(std::string_view functionName) {
  // The classes in name order, sorted when compiling: a binary search per name.
  static constexpr auto kByName = [] {
    std::array<uint16_t, std::size(kClassNames)> order{};
    for (size_t i = 0; i < order.size(); ++i)
      order[i] = uint16_t(i);
    std::sort(order.begin(), order.end(),
              [](uint16_t a, uint16_t b) { return kClassNames[a] < kClassNames[b]; });
    return order;
  }();
  auto it =
      std::lower_bound(kByName.begin(), kByName.end(), functionName,
                       [](uint16_t c, std::string_view name) { return kClassNames[c] < name; });
  if (it != kByName.end() && kClassNames[*it] == functionName)
    return OpClass(*it);
  return std::nullopt;
}

size_t opClassCount() { return std::size(kClassNames); }

std::string_view overloadName(Overload o) {
  static constexpr std::string_view kNames[] = {"",    "f16", "f32", "f64", "i1", "i8",
                                                "i16", "i32", "i64", "udt", "obj"};
  return unsigned(o) < std::size(kNames) ? kNames[unsigned(o)] : std::string_view();
}

std::optional<Overload> overloadFromName(std::string_view suffix) {
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
