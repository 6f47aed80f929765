// Rules: the cooperative matrix types and instructions of SPV_NV_cooperative_matrix and
// SPV_KHR_cooperative_matrix (the KHR ones by value: older grammars lack them, and a module that
// uses them is then read as unknown instructions, which availability reports).
//
// - Types: a numerical scalar component type; scope, rows and columns (and the KHR Use) are
//   constant instructions of integer type (32-bit for the scope, and for all of KHR's), and a
//   constant Use is a Cooperative Matrix Use.
// - Loads and stores: a cooperative matrix result or object of the extension's type; a pointer to
//   a scalar or vector, in Workgroup, StorageBuffer or PhysicalStorageBuffer (NV always, KHR under
//   Vulkan); an integer stride; NV's ColumnMajor is a boolean constant, KHR's MemoryLayout a
//   32-bit integer constant naming a Cooperative Matrix Layout, with a Stride for the row- and
//   column-major layouts.
// - MulAdd: A is MxK, B KxN, C and the result MxN, all of one scope (compared where the constants
//   are known); KHR's Uses are MatrixA, MatrixB and MatrixAccumulator for C and the result, and
//   the Matrix{A,B,C,Result}SignedComponentsKHR operands name integer matrices.
// - Length: a 32-bit unsigned integer from a cooperative matrix type.
// - Shader modules that declare CooperativeMatrixKHR declare VulkanMemoryModel.
// - Where cooperative matrices go (both extensions' edits to the core instructions): variables
//   holding them are in Function or Private; OpSNegate, OpFNegate, OpIAdd, OpFAdd, OpISub, OpFSub,
//   OpFDiv, OpSDiv and OpUDiv (and for KHR OpIMul and OpFMul) take operands of the result's
//   matrix type with components of their kind; OpMatrixTimesScalar a matrix of the result type
//   and a scalar of its component type (a KHR type "matches" another declared with the same
//   component type, scope, rows, columns and Use); conversions a matrix of the same scope, rows
//   and columns (and KHR Use) with components of the kinds they convert; KHR's OpBitcast a matrix
//   of the same scope, rows, columns and Use, both of integers of one width; OpCompositeConstruct,
//   OpConstantComposite and OpSpecConstantComposite one constituent of the component type;
//   OpCompositeExtract and OpCompositeInsert one index.
#include "OperandCheck.h"
#include "Rules.h"

#include <unordered_map>

namespace spire::val {

namespace {

enum : uint32_t {
  kTypeKHR = uint32_t(Op::TypeCooperativeMatrixKHR),
  kLoadKHR = uint32_t(Op::CooperativeMatrixLoadKHR),
  kStoreKHR = uint32_t(Op::CooperativeMatrixStoreKHR),
  kMulAddKHR = uint32_t(Op::CooperativeMatrixMulAddKHR),
  kLengthKHR = uint32_t(Op::CooperativeMatrixLengthKHR),
  kTypeNV = uint32_t(Op::TypeCooperativeMatrixNV),
  kLoadNV = uint32_t(Op::CooperativeMatrixLoadNV),
  kStoreNV = uint32_t(Op::CooperativeMatrixStoreNV),
  kMulAddNV = uint32_t(Op::CooperativeMatrixMulAddNV),
  kLengthNV = uint32_t(Op::CooperativeMatrixLengthNV),
};
constexpr uint32_t kStorageWorkgroup = uint32_t(grammar::StorageClass::Workgroup),
                   kStorageStorageBuffer = uint32_t(grammar::StorageClass::StorageBuffer),
                   kStoragePhysicalStorageBuffer =
                       uint32_t(grammar::StorageClass::PhysicalStorageBuffer);
constexpr uint32_t kUseMatrixA = uint32_t(grammar::CooperativeMatrixUse::MatrixAKHR),
                   kUseMatrixB = uint32_t(grammar::CooperativeMatrixUse::MatrixBKHR),
                   kUseAccumulator = 2;
constexpr uint32_t kStoragePrivate = uint32_t(grammar::StorageClass::Private),
                   kStorageFunction = uint32_t(grammar::StorageClass::Function);
constexpr uint32_t kCapabilityShader = uint32_t(grammar::Capability::Shader),
                   kCapabilityVulkanMemoryModel = uint32_t(grammar::Capability::VulkanMemoryModel),
                   kCapabilityCooperativeMatrixKHR =
                       uint32_t(grammar::Capability::CooperativeMatrixKHR);

// A cooperative matrix type's operands: component type, scope, rows, columns, use (the NV types
// have no use).
struct Matrix {
  uint32_t component = 0, scope = 0, rows = 0, columns = 0, use = 0;
};

class CooperativeMatrixChecker {
public:
  explicit CooperativeMatrixChecker(State &s) : s_(s) {}

  void run() {
    forEachInstruction(s_, [&](const Instruction &inst, uint32_t op) {
      if (inst.opcode() == Op::Capability && inst.wordCount() > 1 &&
          inst.word(1) == kCapabilityCooperativeMatrixKHR && s_.hasCapability(kCapabilityShader) &&
          !s_.hasCapability(kCapabilityVulkanMemoryModel))
        // "If the CooperativeMatrixKHR capability is declared then the VulkanMemoryModel
        // capability must be declared as well" (validation rules for shader capabilities).
        s_.error(inst.index(), "SPV_KHR_cooperative_matrix",
                 "a shader that declares CooperativeMatrixKHR must declare VulkanMemoryModel");
      if (inst.opcode() == Op::SpecConstantOp && inst.wordCount() >= 5 &&
          (inst.word(3) == kLengthKHR || inst.word(3) == kLengthNV)) {
        specConstantLength(inst, inst.word(3) == kLengthKHR);
        return;
      }
      const bool khr = op >= kTypeKHR && op <= kLengthKHR;
      if (!khr && !(op >= kTypeNV && op <= kLengthNV)) {
        coreInstruction(inst);
        return;
      }
      OperandCheck c(s_, inst, khr ? "SPV_KHR_cooperative_matrix" : "SPV_NV_cooperative_matrix");
      const uint32_t type = khr ? kTypeKHR : kTypeNV;
      switch (khr ? op - kTypeKHR : op - kTypeNV) {
      case 0:
        declaration(c, khr);
        break;
      case 1: // Load %type %pointer ...
        c.result(typeName(khr), [&](uint32_t t) { return isMatrix(t, type); }) &&
            loadStore(c, 3, 4, khr);
        break;
      case 2: // Store %pointer %object ...
        c.operand(2, "Object", typeName(khr), [&](uint32_t t) { return isMatrix(t, type); }) &&
            loadStore(c, 1, 3, khr);
        break;
      case 3:
        mulAdd(c, khr);
        break;
      case 4: // Length %type %matrixType
        c.result("a 32-bit unsigned integer scalar",
                 [&](uint32_t t) { return c.unsignedInt32(t); });
        if (c.id(3) != 0 && !isMatrix(c.id(3), type))
          c.fail("Type " + s_.name(c.id(3)) + " must be an " + typeName(khr));
        break;
      default:
        break;
      }
    });
  }

private:
  // OpSpecConstantOp %type %r CooperativeMatrixLength* %matrixType: the instruction's rules (the
  // agreement sweep found a value taken for the type).
  void specConstantLength(const Instruction &inst, bool khr) {
    OperandCheck c(s_, inst, khr ? "SPV_KHR_cooperative_matrix" : "SPV_NV_cooperative_matrix");
    c.result("a 32-bit unsigned integer scalar", [&](uint32_t t) { return c.unsignedInt32(t); });
    if (!isMatrix(inst.word(4), khr ? kTypeKHR : kTypeNV))
      c.fail("Type " + s_.name(inst.word(4)) + " must be an " + typeName(khr));
  }

  static std::string typeName(bool khr) {
    return khr ? "OpTypeCooperativeMatrixKHR" : "OpTypeCooperativeMatrixNV";
  }
  bool isMatrix(uint32_t type, uint32_t typeOpcode) const {
    return static_cast<uint32_t>(s_.defOpcode(type)) == typeOpcode;
  }
  /// A constant instruction (OpConstant*, OpSpecConstant*) of an integer scalar type of `width`
  /// bits (0: any).
  bool intConstant(uint32_t id, uint32_t width) const {
    const grammar::InstructionDesc *d = grammar::findInstruction(uint32_t(s_.defOpcode(id)));
    const uint32_t t = s_.typeOf(id);
    return d != nullptr && d->cls == grammar::InstructionClass::ConstantCreation &&
           s_.isIntType(t) && (width == 0 || s_.bitWidth(t) == width);
  }
  /// The value of an OpConstant (specialization constants have none).
  std::optional<uint64_t> known(uint32_t id) const {
    return s_.defOpcode(id) == Op::Constant ? s_.constantValue(id) : std::nullopt;
  }

  // OpTypeCooperativeMatrix* %result %componentType %scope %rows %columns [%use]
  void declaration(OperandCheck &c, bool khr) {
    const uint32_t component = c.id(2);
    if (component != 0 && !s_.isIntType(component) && !s_.isFloatType(component)) {
      c.fail("Component Type " + s_.name(component) + " must be a numerical scalar type");
      return;
    }
    // SPV_EXT_float8: a float8 (FP Encoding Float8E4M3EXT / Float8E5M2EXT) component type needs
    // Float8CooperativeMatrixEXT.
    if (const std::optional<Instruction> f = component ? s_.def(component) : std::nullopt;
        f && s_.isFloatType(component) && f->wordCount() > 3 &&
        (f->word(3) == uint32_t(grammar::FPEncoding::Float8E4M3EXT) ||
         f->word(3) == uint32_t(grammar::FPEncoding::Float8E5M2EXT)) &&
        !s_.hasCapability(uint32_t(grammar::Capability::Float8CooperativeMatrixEXT))) {
      c.fail("Component Type " + s_.name(component) +
             " is a float8 type, which needs the Float8CooperativeMatrixEXT capability "
             "(SPV_EXT_float8)");
      return;
    }
    // KHR: "Scope [Rows, Columns] must be a constant instruction with scalar 32-bit integer
    // type", "Use must be a constant instruction scalar 32-bit integer type"; NV: "Rows
    // [Columns] must be a constant instruction with scalar integer type", and the Scope <id> is a
    // 32-bit integer (3.27) from a constant instruction.
    static constexpr const char *kNames[] = {"Scope", "Rows", "Columns", "Use"};
    for (uint32_t w = 3; w < (khr ? 7u : 6u); ++w) {
      const uint32_t id = c.id(w);
      const uint32_t width = khr || w == 3 ? 32 : 0;
      if (id == 0 || intConstant(id, width))
        continue;
      c.fail(std::string(kNames[w - 3]) + " " + s_.name(id) +
             " must be a constant instruction of " + (width == 32 ? "a 32-bit" : "an") +
             " integer type");
      return;
    }
    if (khr) {
      const std::optional<uint64_t> use = known(c.id(6));
      if (use && *use > kUseAccumulator)
        c.fail("Use " + s_.name(c.id(6)) + " is " + std::to_string(*use) +
               ", which is no Cooperative Matrix Use (MatrixAKHR, MatrixBKHR, "
               "MatrixAccumulatorKHR)");
    }
  }

  // The pointer at `pointerWord`, then NV's Stride and ColumnMajor or KHR's MemoryLayout and
  // optional Stride from `word` on.
  bool loadStore(OperandCheck &c, uint32_t pointerWord, uint32_t word, bool khr) {
    const bool storageRule = !khr || s_.isVulkan();
    const bool pointerOk =
        c.operand(pointerWord, "Pointer",
                  storageRule ? "a pointer to a scalar or vector in Workgroup, StorageBuffer or "
                                "PhysicalStorageBuffer"
                              : "a pointer to a scalar or vector",
                  [&](uint32_t t) {
                    if (!s_.isPointerType(t))
                      return false;
                    const uint32_t pointee = s_.pointeeType(t);
                    if (!s_.isScalarType(pointee) && !s_.isVectorType(pointee))
                      return false;
                    const std::optional<uint32_t> sc = s_.storageClass(t);
                    return !storageRule || sc == kStorageWorkgroup || sc == kStorageStorageBuffer ||
                           sc == kStoragePhysicalStorageBuffer;
                  });
    if (!pointerOk)
      return false;
    auto stride = [&](uint32_t w) {
      return c.operand(w, "Stride", "an integer scalar",
                       [&](uint32_t t) { return c.intScalar(t); });
    };
    if (!khr) {
      if (!stride(word))
        return false;
      const uint32_t columnMajor = c.id(word + 1);
      const Op op = s_.defOpcode(columnMajor);
      if (columnMajor != 0 && op != Op::ConstantTrue && op != Op::ConstantFalse &&
          op != Op::SpecConstantTrue && op != Op::SpecConstantFalse)
        return c.fail("Column Major " + s_.name(columnMajor) + " must be a boolean constant");
      return true;
    }
    // "MemoryLayout ... must come from a 32-bit integer constant instruction whose value
    // corresponds to a Cooperative Matrix Layout"; RowMajorKHR and ColumnMajorKHR: "Rows [Columns]
    // are laid out with a fixed stride communicated via the Stride operand ... which must be
    // provided".
    const uint32_t layout = c.id(word);
    if (layout != 0 && !intConstant(layout, 32))
      return c.fail("MemoryLayout " + s_.name(layout) +
                    " must be a constant instruction of a 32-bit integer type");
    const std::optional<uint64_t> v = layout != 0 ? known(layout) : std::nullopt;
    if (v && *v != uint32_t(grammar::CooperativeMatrixLayout::RowMajorKHR) &&
        *v != uint32_t(grammar::CooperativeMatrixLayout::ColumnMajorKHR) &&
        *v != uint32_t(grammar::CooperativeMatrixLayout::RowBlockedInterleavedARM) &&
        *v != uint32_t(grammar::CooperativeMatrixLayout::ColumnBlockedInterleavedARM))
      return c.fail("MemoryLayout " + s_.name(layout) + " is " + std::to_string(*v) +
                    ", which is no Cooperative Matrix Layout");
    if (v && *v <= 1 && c.id(word + 1) == 0 && layout != 0)
      return c.fail("the RowMajorKHR and ColumnMajorKHR layouts need a Stride operand");
    return stride(word + 1);
  }

  /// 0 when `type` is no cooperative matrix type, else the opcode of its declaration.
  uint32_t matrixKind(uint32_t type) const {
    const uint32_t op = static_cast<uint32_t>(s_.defOpcode(type));
    return op == kTypeKHR || op == kTypeNV ? op : 0;
  }
  static const char *ruleOf(uint32_t kind) {
    return kind == kTypeKHR ? "SPV_KHR_cooperative_matrix" : "SPV_NV_cooperative_matrix";
  }
  /// Whether `type` is, or holds through arrays and structs, a cooperative matrix.
  bool holdsMatrix(uint32_t type) {
    return s_.holdsType(
        type, [&](uint32_t t) { return matrixKind(t) != 0; }, holds_);
  }

  // The core instructions that take cooperative matrices.
  void coreInstruction(const Instruction &inst) {
    switch (inst.opcode()) {
    case Op::Variable:
      variable(inst);
      return;
    case Op::SNegate:
    case Op::FNegate:
    case Op::IAdd:
    case Op::FAdd:
    case Op::ISub:
    case Op::FSub:
    case Op::IMul:
    case Op::FMul:
    case Op::UDiv:
    case Op::SDiv:
    case Op::FDiv:
    case Op::FRem:
    case Op::SRem:
    case Op::SMod:
    case Op::UMod:
    case Op::FMod:
      arithmetic(inst);
      return;
    case Op::MatrixTimesScalar:
      matrixTimesScalar(inst);
      return;
    case Op::ConvertFToU:
    case Op::ConvertFToS:
    case Op::ConvertSToF:
    case Op::ConvertUToF:
    case Op::UConvert:
    case Op::SConvert:
    case Op::FConvert:
      conversion(inst);
      return;
    case Op::CompositeConstruct:
    case Op::ConstantComposite:
    case Op::SpecConstantComposite:
      construct(inst);
      return;
    case Op::CompositeExtract:
    case Op::CompositeInsert:
      extractInsert(inst);
      return;
    case Op::Bitcast:
      bitcast(inst);
      return;
    default:
      return;
    }
  }

  // Two KHR matrix types that "match" (SPV_KHR_cooperative_matrix: arithmetic on "a pair of
  // cooperative matrices whose type must match"): the same type, or declarations with the same
  // component type and the same scope, rows, columns and Use as far as they are known constants.
  // `what` names what differs, for messages.
  bool sameMatrix(uint32_t a, uint32_t b, const char **what = nullptr) const {
    if (a == b)
      return true;
    const std::optional<Matrix> x = matrixOf(a, true), y = matrixOf(b, true);
    const char *differs = !x || !y                         ? "type"
                          : x->component != y->component   ? "component type"
                          : differ(x->scope, y->scope)     ? "scope"
                          : differ(x->rows, y->rows)       ? "number of rows"
                          : differ(x->columns, y->columns) ? "number of columns"
                          : differ(x->use, y->use)         ? "Use"
                                                           : nullptr;
    if (what != nullptr)
      *what = differs;
    return differs == nullptr;
  }

  // %r = OpBitcast %type %value on cooperative matrices: "Allow the use of OpBitcast on objects of
  // cooperative matrix type whose Component Type are integer types with the same Width. The result
  // type and value type must have the same Scope, number of Rows, number of Columns, and Use"
  // (SPV_KHR_cooperative_matrix, 3.42.11).
  void bitcast(const Instruction &inst) {
    if (inst.wordCount() < 4)
      return;
    const uint32_t type = inst.typeId(), value = s_.typeOf(inst.word(3));
    const bool resultMatrix = matrixKind(type) == kTypeKHR,
               valueMatrix = matrixKind(value) == kTypeKHR;
    if (!resultMatrix && !valueMatrix)
      return;
    OperandCheck c(s_, inst, "SPV_KHR_cooperative_matrix");
    if (!resultMatrix || !valueMatrix) {
      c.fail("a cooperative matrix is bitcast only to and from a cooperative matrix (" +
             s_.name(resultMatrix ? value : type) + " is none)");
      return;
    }
    const std::optional<Matrix> r = matrixOf(type, true), v = matrixOf(value, true);
    if (!r || !v)
      return;
    if (!s_.isIntType(r->component) || !s_.isIntType(v->component) ||
        s_.bitWidth(r->component) != s_.bitWidth(v->component)) {
      c.fail("the components of the value " + s_.name(inst.word(3)) + " and of the result type " +
             s_.name(type) + " must be integers of the same width");
      return;
    }
    const char *what = differ(v->scope, r->scope)       ? "scope"
                       : differ(v->rows, r->rows)       ? "number of rows"
                       : differ(v->columns, r->columns) ? "number of columns"
                       : differ(v->use, r->use)         ? "Use"
                                                        : nullptr;
    if (what != nullptr)
      c.fail("the value " + s_.name(inst.word(3)) + " and the result type " + s_.name(type) +
             " must have the same " + what);
  }

  // "Cooperative matrix types (or types containing them) can only be allocated in Function or
  // Private storage classes." (2.16.1 as both extensions modify it)
  void variable(const Instruction &inst) {
    if (inst.wordCount() < 4)
      return;
    const uint32_t pointee = s_.pointeeType(inst.typeId());
    const uint32_t sc = inst.word(3);
    if (pointee == 0 || sc == kStorageFunction || sc == kStoragePrivate || !holdsMatrix(pointee))
      return;
    uint32_t kind = matrixKind(s_.stripArrays(pointee));
    s_.error(inst.index(), ruleOf(kind == 0 ? kTypeNV : kind),
             "OpVariable: a variable of type " + s_.name(pointee) +
                 ", which holds a cooperative matrix, must be in the Function or Private storage "
                 "class, not " +
                 State::enumerantName(grammar::OperandKind::StorageClass, sc));
  }

  // The arithmetic instructions on cooperative matrices: "Binary arithmetic instructions operate
  // on the individual elements of a pair of cooperative matrices whose type must match", OpF* on
  // floating-point components, OpI*, OpS* and OpU* on integer ones; NV allows OpSNegate, OpFNegate,
  // OpIAdd, OpFAdd, OpISub, OpFSub, OpFDiv, OpSDiv and OpUDiv, KHR also OpIMul and OpFMul.
  void arithmetic(const Instruction &inst) {
    const uint32_t type = inst.typeId();
    uint32_t kind = matrixKind(type);
    for (uint32_t w = 3; w < inst.wordCount() && kind == 0; ++w)
      kind = matrixKind(s_.typeOf(inst.word(w)));
    if (kind == 0)
      return;
    OperandCheck c(s_, inst, ruleOf(kind));
    const Op op = inst.opcode();
    const bool multiply = op == Op::IMul || op == Op::FMul;
    const bool remainder =
        op == Op::FRem || op == Op::SRem || op == Op::SMod || op == Op::UMod || op == Op::FMod;
    if (remainder || (multiply && kind == kTypeNV)) {
      c.fail("not defined on " + typeName(kind == kTypeKHR) + " operands" +
             (multiply ? " (OpMatrixTimesScalar multiplies one by a scalar)" : ""));
      return;
    }
    if (matrixKind(type) == 0) {
      c.fail("the result type " + s_.name(type) + " must be the operands' cooperative matrix type");
      return;
    }
    const bool khr = kind == kTypeKHR;
    for (uint32_t w = 3; w < inst.wordCount(); ++w) {
      const char *what = nullptr;
      if (khr && matrixKind(c.type(w)) == kTypeKHR && !sameMatrix(c.type(w), type, &what)) {
        c.fail("operand " + s_.name(c.id(w)) + " must be of the result type " + s_.name(type) +
               " (its " + what + " differs)");
        return;
      }
      if (!c.operand(
              w, "operand", [&] { return "of the result type " + s_.name(type); },
              [&](uint32_t t) { return t == type || (khr && sameMatrix(t, type)); }))
        return;
    }
    const bool floats =
        op == Op::FNegate || op == Op::FAdd || op == Op::FSub || op == Op::FMul || op == Op::FDiv;
    const std::optional<Matrix> m = matrixOf(type, kind == kTypeKHR);
    if (m && (floats ? !s_.isFloatType(m->component) : !s_.isIntType(m->component)))
      c.fail("the cooperative matrix type " + s_.name(type) + " must have " +
             (floats ? "floating-point" : "integer") + " components");
  }

  // %r = OpMatrixTimesScalar %type %matrix %scalar with a cooperative matrix result: "Allow
  // cooperative matrix types for OpMatrixTimesScalar", with the core rules (the matrix of the
  // result type, the scalar of its component type).
  void matrixTimesScalar(const Instruction &inst) {
    const uint32_t type = inst.typeId();
    const uint32_t kind = matrixKind(type);
    if (kind == 0)
      return;
    OperandCheck c(s_, inst, ruleOf(kind));
    const bool khr = kind == kTypeKHR;
    const std::optional<Matrix> m = matrixOf(type, khr);
    const char *what = nullptr;
    if (khr && matrixKind(c.type(3)) == kTypeKHR && !sameMatrix(c.type(3), type, &what)) {
      c.fail("Matrix " + s_.name(c.id(3)) + " must be of the result type " + s_.name(type) +
             " (its " + what + " differs)");
      return;
    }
    c.operand(
        3, "Matrix", [&] { return "of the result type " + s_.name(type); },
        [&](uint32_t t) { return t == type || (khr && sameMatrix(t, type)); }) &&
        m &&c.operand(
            4, "Scalar", [&] { return "the matrix's component type " + s_.name(m->component); },
            [&](uint32_t t) { return t == m->component; });
  }

  // Conversions: "The result type and value type must have the same scope, number of rows, and
  // number of columns" (KHR: "and Use"), components of the kinds the instruction converts.
  void conversion(const Instruction &inst) {
    if (inst.wordCount() < 4)
      return;
    const uint32_t type = inst.typeId(), value = s_.typeOf(inst.word(3));
    const uint32_t kind = matrixKind(type) != 0 ? matrixKind(type) : matrixKind(value);
    if (kind == 0 || value == 0)
      return;
    OperandCheck c(s_, inst, ruleOf(kind));
    const bool khr = kind == kTypeKHR;
    const std::optional<Matrix> r = matrixOf(type, khr), v = matrixOf(value, khr);
    if (!r) {
      c.fail("the result type " + s_.name(type) + " must be an " + typeName(khr) +
             " as the value is one");
      return;
    }
    if (!v) {
      c.fail("the value " + s_.name(inst.word(3)) + " must be an " + typeName(khr) +
             " as the result is one");
      return;
    }
    const Op op = inst.opcode();
    const bool fromFloat = op == Op::ConvertFToU || op == Op::ConvertFToS || op == Op::FConvert;
    const bool toFloat = op == Op::ConvertSToF || op == Op::ConvertUToF || op == Op::FConvert;
    if (fromFloat ? !s_.isFloatType(v->component) : !s_.isIntType(v->component)) {
      c.fail("the value " + s_.name(inst.word(3)) + " must be a cooperative matrix of " +
             (fromFloat ? "floating-point" : "integer") + " components");
      return;
    }
    if (toFloat ? !s_.isFloatType(r->component) : !s_.isIntType(r->component)) {
      c.fail("the result type " + s_.name(type) + " must be a cooperative matrix of " +
             (toFloat ? "floating-point" : "integer") + " components");
      return;
    }
    const char *what = differ(v->scope, r->scope)       ? "scope"
                       : differ(v->rows, r->rows)       ? "number of rows"
                       : differ(v->columns, r->columns) ? "number of columns"
                       : khr && differ(v->use, r->use)  ? "Use"
                                                        : nullptr;
    if (what != nullptr)
      c.fail("the value " + s_.name(inst.word(3)) + " and the result type " + s_.name(type) +
             " must have the same " + what);
  }

  // "If the Result Type is a cooperative matrix type, then there must be only one Constituent,
  // with scalar type matching the cooperative matrix Component Type" (OpCompositeConstruct,
  // OpConstantComposite; specialization constant composites alike).
  void construct(const Instruction &inst) {
    const uint32_t type = inst.typeId();
    const uint32_t kind = matrixKind(type);
    if (kind == 0 || inst.wordCount() < 3)
      return;
    OperandCheck c(s_, inst, ruleOf(kind));
    const uint32_t count = inst.wordCount() - 3;
    if (count != 1) {
      c.fail("the cooperative matrix " + s_.name(type) + " takes exactly one constituent, " +
             std::to_string(count) + " are given");
      return;
    }
    if (const std::optional<Matrix> m = matrixOf(type, kind == kTypeKHR))
      c.operand(
          3, "Constituent",
          [&] { return "of the matrix's component type " + s_.name(m->component); },
          [&](uint32_t t) { return t == m->component; });
  }

  // A cooperative matrix "acts like a vector" as a composite: one index selects a component.
  void extractInsert(const Instruction &inst) {
    const bool extract = inst.opcode() == Op::CompositeExtract;
    const uint32_t first = extract ? 4 : 5;
    if (inst.wordCount() < first)
      return;
    const uint32_t composite = s_.typeOf(inst.word(first - 1));
    const uint32_t kind = matrixKind(composite);
    if (kind == 0 || inst.wordCount() == first + 1)
      return;
    OperandCheck c(s_, inst, ruleOf(kind));
    c.fail("the cooperative matrix " + s_.name(inst.word(first - 1)) +
           " is indexed by exactly one index, " + std::to_string(inst.wordCount() - first) +
           " are given");
  }

  // Two operands differ when both are known constants of different values.
  bool differ(uint32_t x, uint32_t y) const {
    const std::optional<uint64_t> vx = known(x), vy = known(y);
    return vx && vy && *vx != *vy;
  }

  std::optional<Matrix> matrixOf(uint32_t type, bool khr) const {
    std::optional<Instruction> d = s_.def(type);
    if (!d || static_cast<uint32_t>(d->opcode()) != (khr ? kTypeKHR : kTypeNV) ||
        d->wordCount() < (khr ? 7u : 6u))
      return std::nullopt;
    return Matrix{d->word(2), d->word(3), d->word(4), d->word(5), khr ? d->word(6) : 0};
  }

  // %r = OpCooperativeMatrixMulAdd* %type %a %b %c: "Result Type must be a cooperative matrix type
  // with M rows and N columns", A MxK, B KxN, C MxN, "A, B, C, and Result Type must have the same
  // scope"; KHR: "whose Use must be MatrixAKHR [MatrixBKHR, MatrixAccumulatorKHR]".
  void mulAdd(OperandCheck &c, bool khr) {
    static constexpr const char *kNames[] = {"the result type", "A", "B", "C"};
    std::optional<Matrix> m[4];
    for (uint32_t i = 0; i < 4; ++i) {
      const uint32_t t = i == 0 ? c.resultType() : c.type(2 + i);
      if (t == 0)
        return;
      m[i] = matrixOf(t, khr);
      if (!m[i]) {
        c.fail(std::string(kNames[i]) + " " + s_.name(i == 0 ? t : c.id(2 + i)) + " must be " +
               (i == 0 ? "an " : "of an ") + typeName(khr));
        return;
      }
    }
    const Matrix &r = *m[0], &a = *m[1], &b = *m[2], &cm = *m[3];
    if (differ(a.scope, r.scope) || differ(b.scope, r.scope) || differ(cm.scope, r.scope)) {
      c.fail("A, B, C and the result type must have the same scope");
      return;
    }
    if (differ(a.rows, r.rows) || differ(cm.rows, r.rows)) {
      c.fail("A, C and the result type must have the same number of rows (M)");
      return;
    }
    if (differ(b.columns, r.columns) || differ(cm.columns, r.columns)) {
      c.fail("B, C and the result type must have the same number of columns (N)");
      return;
    }
    if (differ(a.columns, b.rows)) {
      c.fail("A's columns and B's rows must be the same number (K)");
      return;
    }
    if (!khr)
      return;
    static constexpr uint32_t kUses[] = {kUseAccumulator, kUseMatrixA, kUseMatrixB,
                                         kUseAccumulator};
    static constexpr const char *kUseNames[] = {"MatrixAccumulatorKHR", "MatrixAKHR", "MatrixBKHR",
                                                "MatrixAccumulatorKHR"};
    for (uint32_t i = 0; i < 4; ++i) {
      const std::optional<uint64_t> use = known(m[i]->use);
      if (use && *use != kUses[i]) {
        c.fail("the Use of " + std::string(kNames[i]) + " must be " + kUseNames[i]);
        return;
      }
    }
    // "The Matrix{A,B,C,Result}SignedComponentsKHR Cooperative Matrix Operand can only be used
    // when the type of the corresponding matrix is an integer type."
    const uint32_t operands = c.id(6);
    static constexpr uint32_t kSigned[] = {0x8, 0x1, 0x2, 0x4}; // result, A, B, C
    static constexpr const char *kSignedNames[] = {"Result", "A", "B", "C"};
    for (uint32_t i = 0; i < 4; ++i)
      if ((operands & kSigned[i]) != 0 && !s_.isIntType(m[i]->component)) {
        c.fail(std::string("Matrix") + kSignedNames[i] +
               "SignedComponentsKHR needs a matrix of integers as " + kNames[i]);
        return;
      }
  }

  State &s_;
  std::unordered_map<uint32_t, bool> holds_;
};

} // namespace

void checkCoopMatrix(State &s) {
  static_assert(kTypeKHR >= 4096 && kLengthKHR >= 4096 && kTypeNV >= 4096 && kLengthNV >= 4096);
  // The instructions and types of both extensions are theirs (opcodes from 4096 on, through
  // OpSpecConstantOp too): without one, no core instruction has a cooperative matrix to check,
  // and only the capability's declaration is left.
  if (s.extensionOpcodes() || s.hasCapability(kCapabilityCooperativeMatrixKHR))
    CooperativeMatrixChecker(s).run();
}

} // namespace spire::val
