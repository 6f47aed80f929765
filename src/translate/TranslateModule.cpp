// Module-level pieces of the translation: types and constants (uniqued), decorations, names,
// module variables and built-ins, and the LLVM type and constant mapping.
#include "Translator.h"

#include "spire/support/Half.h"

#include <cstring>

namespace spire::translate {

using dxil::ConstantKind;
using dxil::TypeKind;

uint32_t Translator::fail(std::string message) {
  if (failed_)
    return 0;
  failed_ = true;
  std::string where = "entry '" + entryName_ + "'";
  if (currentFunction_ != dxil::kNoId) {
    const dxil::Function &f = llvm().functions[currentFunction_];
    where += ", function '" + std::string(llvm().name(f.value)) + "'";
    if (currentBlock_ != dxil::kNoId)
      where += ", block " + std::to_string(currentBlock_);
    if (currentInstruction_ != dxil::kNoId) {
      const dxil::Instruction &inst = llvm().instructions[currentInstruction_];
      where += ", instruction " + std::to_string(currentInstruction_ - f.firstInstruction) + " (" +
               std::string(dxil::opcodeName(inst.opcode));
      if (inst.opcode == dxil::Opcode::Call)
        if (const dxil::Function *callee = llvm().calledFunction(inst))
          where += " @" + std::string(llvm().name(callee->value));
      where += ")";
    }
  }
  error_ = makeError({}, where + ": " + message);
  return 0;
}

uint32_t Translator::glslImport() {
  if (!glslImport_) {
    glslImport_ = id();
    b_.add(Section::ExtInstImport, Op::ExtInstImport).id(glslImport_).string("GLSL.std.450");
  }
  return glslImport_;
}

// ---- types ----------------------------------------------------------------------------------

uint32_t Translator::typeUniqued(Op op, const std::vector<uint32_t> &operands) {
  std::vector<uint32_t> key;
  key.reserve(operands.size() + 1);
  key.push_back(uint32_t(op));
  key.insert(key.end(), operands.begin(), operands.end());
  auto [it, inserted] = types_.emplace(key, 0);
  if (!inserted)
    return it->second;
  it->second = id();
  b_.add(Section::Global, op).id(it->second).ids(operands);
  typeInfo_[it->second] = std::move(key);
  return it->second;
}

uint32_t Translator::freshType(Op op, const std::vector<uint32_t> &operands) {
  const uint32_t type = id();
  b_.add(Section::Global, op).id(type).ids(operands);
  std::vector<uint32_t> info{uint32_t(op)};
  info.insert(info.end(), operands.begin(), operands.end());
  typeInfo_[type] = std::move(info);
  return type;
}

uint32_t Translator::typeVoid() { return typeUniqued(Op::TypeVoid, {}); }
uint32_t Translator::typeBool() { return typeUniqued(Op::TypeBool, {}); }
uint32_t Translator::typeInt(uint32_t bits) {
  if (bits == 8)
    capability(Capability::Int8);
  else if (bits == 16)
    capability(Capability::Int16);
  else if (bits == 64)
    capability(Capability::Int64);
  return typeUniqued(Op::TypeInt, {bits, 0});
}
uint32_t Translator::typeFloat(uint32_t bits) {
  if (bits == 16)
    capability(Capability::Float16);
  else if (bits == 64)
    capability(Capability::Float64);
  return typeUniqued(Op::TypeFloat, {bits});
}
uint32_t Translator::typeVector(uint32_t element, uint32_t count) {
  return count == 1 ? element : typeUniqued(Op::TypeVector, {element, count});
}
uint32_t Translator::typePointer(StorageClass sc, uint32_t pointee) {
  return typeUniqued(Op::TypePointer, {uint32_t(sc), pointee});
}
uint32_t Translator::typeArray(uint32_t element, uint32_t length) {
  return typeUniqued(Op::TypeArray, {element, constU32(length)});
}
uint32_t Translator::typeFunction(uint32_t result, const std::vector<uint32_t> &params) {
  std::vector<uint32_t> ops{result};
  ops.insert(ops.end(), params.begin(), params.end());
  return typeUniqued(Op::TypeFunction, ops);
}

bool Translator::isFloatType(uint32_t type) const {
  auto it = typeInfo_.find(componentType(type));
  return it != typeInfo_.end() && it->second[0] == uint32_t(Op::TypeFloat);
}
bool Translator::isBoolType(uint32_t type) const {
  auto it = typeInfo_.find(componentType(type));
  return it != typeInfo_.end() && it->second[0] == uint32_t(Op::TypeBool);
}
uint32_t Translator::componentCount(uint32_t type) const {
  auto it = typeInfo_.find(type);
  return it != typeInfo_.end() && it->second[0] == uint32_t(Op::TypeVector) ? it->second[2] : 1;
}
uint32_t Translator::componentType(uint32_t type) const {
  auto it = typeInfo_.find(type);
  return it != typeInfo_.end() && it->second[0] == uint32_t(Op::TypeVector) ? it->second[1] : type;
}
uint32_t Translator::scalarWidth(uint32_t type) const {
  auto it = typeInfo_.find(componentType(type));
  if (it == typeInfo_.end())
    return 0;
  if (it->second[0] == uint32_t(Op::TypeInt) || it->second[0] == uint32_t(Op::TypeFloat))
    return it->second[1];
  return it->second[0] == uint32_t(Op::TypeBool) ? 1 : 0;
}

std::span<const uint32_t> Translator::typeInstruction(uint32_t type) const {
  auto it = typeInfo_.find(type);
  if (it == typeInfo_.end())
    return {};
  return it->second;
}

/// DXIL's `half` is a native 16-bit float only under the native low-precision data layout;
/// otherwise it is min precision, carried as 32 bits.
static bool nativeLowPrecision(const dxil::LlvmModule &m) {
  return m.dataLayout.find("f16:16") != std::string::npos;
}

uint32_t Translator::llvmType(dxil::TypeId t, StorageClass sc) {
  if (t >= llvm().types.size()) // an opaque pointer's pointee, say
    return fail("a type the translator cannot see (an opaque pointer's pointee)");
  const dxil::Type &type = llvm().type(t);
  switch (type.kind) {
  case TypeKind::Void:
    return typeVoid();
  case TypeKind::Half:
    return typeFloat(nativeLowPrecision(llvm()) ? 16 : 32);
  case TypeKind::Float:
    return typeFloat(32);
  case TypeKind::Double:
    return typeFloat(64);
  case TypeKind::Integer:
    if (type.bits == 1)
      return typeBool();
    if (type.bits == 16 && !nativeLowPrecision(llvm()))
      return typeInt(32);
    if (type.bits == 8 || type.bits == 16 || type.bits == 32 || type.bits == 64)
      return typeInt(type.bits);
    return fail("integers of " + std::to_string(type.bits) + " bits have no SPIR-V type");
  case TypeKind::Vector:
    return typeVector(llvmType(llvm().elementType(t), sc), uint32_t(type.count));
  case TypeKind::Array:
    if (type.count == 0 || type.count > 0xFFFFFFFFull)
      return fail("an array of " + std::to_string(type.count) + " elements has no SPIR-V type");
    return typeArray(llvmType(llvm().elementType(t), sc), uint32_t(type.count));
  case TypeKind::Struct: {
    std::vector<uint32_t> members;
    for (dxil::TypeId m : llvm().elements(t))
      members.push_back(llvmType(m, sc));
    if (members.empty())
      return fail("an empty struct has no SPIR-V type");
    return typeUniqued(Op::TypeStruct, members);
  }
  case TypeKind::Pointer:
    return typePointer(sc, llvmType(llvm().elementType(t), sc));
  default:
    return fail("this LLVM type has no SPIR-V equivalent here");
  }
}

uint32_t Translator::memberType(dxil::TypeId aggregate, uint32_t i) {
  auto members = llvm().elements(aggregate);
  if (i >= members.size())
    return fail("a dx.types aggregate has no member " + std::to_string(i));
  return llvmType(members[i]);
}

// ---- constants ------------------------------------------------------------------------------

namespace {
std::vector<uint32_t> constantKey(Op op, uint32_t type, std::initializer_list<uint32_t> words) {
  std::vector<uint32_t> key{uint32_t(op), type};
  key.insert(key.end(), words.begin(), words.end());
  return key;
}
} // namespace

uint32_t Translator::constI(uint32_t type, uint64_t bits) {
  if (isBoolType(type))
    return constBool(bits & 1);
  const uint32_t width = scalarWidth(type);
  std::vector<uint32_t> key{uint32_t(Op::Constant), type, uint32_t(bits)};
  if (width == 64)
    key.push_back(uint32_t(bits >> 32));
  else if (width < 32)
    key[2] &= (1u << width) - 1; // narrow literals are zero-extended (unsigned types)
  auto [it, inserted] = constants_.emplace(key, 0);
  if (inserted) {
    it->second = id();
    b_.add(Section::Global, Op::Constant)
        .id(type)
        .id(it->second)
        .words(std::span<const uint32_t>(key).subspan(2));
  }
  return it->second;
}
uint32_t Translator::constU32(uint32_t v) { return constI(typeInt(32), v); }
uint32_t Translator::constF32(float v) {
  uint32_t bits;
  std::memcpy(&bits, &v, 4);
  return constI(typeFloat(32), bits);
}
uint32_t Translator::constBool(bool v) {
  const Op op = v ? Op::ConstantTrue : Op::ConstantFalse;
  auto [it, inserted] = constants_.emplace(constantKey(op, typeBool(), {}), 0);
  if (inserted) {
    it->second = id();
    b_.add(Section::Global, op).id(typeBool()).id(it->second);
  }
  return it->second;
}
uint32_t Translator::constNull(uint32_t type) {
  auto [it, inserted] = constants_.emplace(constantKey(Op::ConstantNull, type, {}), 0);
  if (inserted) {
    it->second = id();
    b_.add(Section::Global, Op::ConstantNull).id(type).id(it->second);
  }
  return it->second;
}
uint32_t Translator::undef(uint32_t type) {
  auto [it, inserted] = constants_.emplace(constantKey(Op::Undef, type, {}), 0);
  if (inserted) {
    it->second = id();
    b_.add(Section::Global, Op::Undef).id(type).id(it->second);
  }
  return it->second;
}
uint32_t Translator::constComposite(uint32_t type, const std::vector<uint32_t> &parts) {
  std::vector<uint32_t> key{uint32_t(Op::ConstantComposite), type};
  key.insert(key.end(), parts.begin(), parts.end());
  auto [it, inserted] = constants_.emplace(key, 0);
  if (inserted) {
    it->second = id();
    b_.add(Section::Global, Op::ConstantComposite).id(type).id(it->second).ids(parts);
  }
  return it->second;
}

bool Translator::isUndef(dxil::ValueId v) const {
  const dxil::Constant *c = llvm().constant(v);
  return c && (c->kind == ConstantKind::Undef || c->kind == ConstantKind::Poison);
}

/// A scalar constant of an LLVM type from its bits as the bitcode stores them.
static uint64_t convertFloatBits(const dxil::Type &from, uint32_t toWidth, uint64_t bits) {
  if (from.kind == TypeKind::Half && toWidth == 32) {
    float f = float(halfToDouble(uint16_t(bits)));
    uint32_t out;
    std::memcpy(&out, &f, 4);
    return out;
  }
  return bits;
}

uint32_t Translator::translateConstant(dxil::ValueId v) {
  const dxil::Constant &c = *llvm().constant(v);
  const uint32_t type = llvmType(c.type);
  if (!type)
    return 0;
  const dxil::Type &lt = llvm().type(c.type);
  switch (c.kind) {
  case ConstantKind::Integer:
  case ConstantKind::Float:
    return constI(type, convertFloatBits(lt, scalarWidth(type), c.bits));
  case ConstantKind::Null:
    if (lt.kind == TypeKind::Integer || lt.kind == TypeKind::Half || lt.kind == TypeKind::Float ||
        lt.kind == TypeKind::Double)
      return constI(type, 0);
    return constNull(type);
  case ConstantKind::Undef:
  case ConstantKind::Poison:
    return undef(type);
  case ConstantKind::Aggregate: {
    std::vector<uint32_t> parts;
    for (dxil::ValueId e : llvm().operandsOf(c))
      parts.push_back(value(e));
    return failed() ? 0 : constComposite(type, parts);
  }
  case ConstantKind::Data: {
    const dxil::TypeId elementLlvm = llvm().elementType(c.type);
    const uint32_t element = llvmType(elementLlvm);
    std::vector<uint32_t> parts;
    for (uint64_t w : llvm().wordsOf(c))
      parts.push_back(
          constI(element, convertFloatBits(llvm().type(elementLlvm), scalarWidth(element), w)));
    return constComposite(type, parts);
  }
  case ConstantKind::Expr:
    return translateConstantExpression(v, c);
  default:
    return fail("this kind of constant has no SPIR-V equivalent");
  }
}

// ---- decorations, names, variables ----------------------------------------------------------

void Translator::decorate(uint32_t target, Decoration d, std::initializer_list<uint32_t> literals) {
  b_.add(Section::Annotation, Op::Decorate).id(target).literal(uint32_t(d)).words(literals);
}
void Translator::memberDecorate(uint32_t type, uint32_t member, Decoration d,
                                std::initializer_list<uint32_t> literals) {
  b_.add(Section::Annotation, Op::MemberDecorate)
      .id(type)
      .literal(member)
      .literal(uint32_t(d))
      .words(literals);
}
void Translator::name(uint32_t target, std::string_view text) {
  if (!text.empty())
    b_.add(Section::DebugName, Op::Name).id(target).string(text);
}

uint32_t Translator::globalVariable(uint32_t pointeeType, StorageClass sc, uint32_t initializer) {
  const uint32_t var = id();
  const uint32_t pointer = typePointer(sc, pointeeType); // declared before the variable starts
  auto w = b_.add(Section::Global, Op::Variable);
  w.id(pointer).id(var).literal(uint32_t(sc));
  if (initializer)
    w.id(initializer);
  interface_.push_back(var);
  return var;
}

uint32_t Translator::builtinInput(BuiltIn builtIn, uint32_t type) {
  auto [it, inserted] = builtins_.emplace(std::pair{uint32_t(builtIn), 0u}, 0);
  if (inserted) {
    it->second = globalVariable(type, StorageClass::Input);
    decorate(it->second, Decoration::BuiltIn, {uint32_t(builtIn)});
    // A fragment shader's integer and 64-bit inputs are flat, built-ins too (Vulkan's
    // VUID-StandaloneSpirv-Flat-04744).
    const uint32_t width = scalarWidth(type);
    if (entry_.kind == dxil::ShaderKind::Pixel && width &&
        (width == 64 || (!isFloatType(type) && !isBoolType(type))))
      decorate(it->second, Decoration::Flat);
  }
  return it->second;
}
uint32_t Translator::builtinOutput(BuiltIn builtIn, uint32_t type) {
  auto [it, inserted] = builtins_.emplace(std::pair{uint32_t(builtIn), 1u}, 0);
  if (inserted) {
    it->second = globalVariable(type, StorageClass::Output);
    decorate(it->second, Decoration::BuiltIn, {uint32_t(builtIn)});
  }
  return it->second;
}

} // namespace spire::translate
