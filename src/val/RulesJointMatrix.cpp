// Rules: the INTEL joint matrix types and instructions (SPV_INTEL_joint_matrix as spire's grammar
// supplement gives it: src/grammar/supplement/README.md), what the extension's text and MLIR's op
// definitions say of them, so that a module spire val accepts deserializes to IR the dialect's
// verifier accepts.
//
// - Types: a numerical scalar Component Type; Rows, Columns, Layout and Scope constant
//   instructions of 32-bit integer type; rows and columns not 0; a known Layout one of the Joint
//   Matrix Layouts, a known Scope Workgroup or Subgroup.
// - Loads and stores: a joint matrix result or Object; a pointer to a scalar or vector in
//   Workgroup or CrossWorkgroup memory (MLIR's verifier); an integer scalar Stride; a Layout as
//   the type's.
// - Mad: A is MxK, B KxN, C and the result MxN, all joint matrices of one scope; C has the result
//   type and A and B one component type (MLIR's verifier).
// - WorkItemLength: a 32-bit integer result from a joint matrix type.
// - Variables holding joint matrices are in Function or Private ("Joint matrix types (or types
//   containing them) can only be allocated in Function or Private Storage Class").
#include "OperandCheck.h"
#include "Rules.h"

#include <unordered_map>

namespace spire::val {

namespace {

constexpr const char *kRule = "SPV_INTEL_joint_matrix";

constexpr uint32_t kStorageWorkgroup = uint32_t(grammar::StorageClass::Workgroup),
                   kStorageCrossWorkgroup = uint32_t(grammar::StorageClass::CrossWorkgroup),
                   kStorageFunction = uint32_t(grammar::StorageClass::Function),
                   kStoragePrivate = uint32_t(grammar::StorageClass::Private);
constexpr uint32_t kScopeWorkgroup = uint32_t(grammar::Scope::Workgroup),
                   kScopeSubgroup = uint32_t(grammar::Scope::Subgroup);

// A joint matrix type's operands, those that are OpConstants known.
struct Matrix {
  uint32_t component = 0;
  std::optional<uint64_t> rows, columns, scope;
};

class JointMatrixChecker {
public:
  explicit JointMatrixChecker(State &s) : s_(s) {}

  void run() {
    forEachInstruction(s_, [&](const Instruction &inst, uint32_t) {
      OperandCheck c(s_, inst, kRule);
      switch (inst.opcode()) {
      case Op::TypeJointMatrixINTEL:
        declaration(c);
        break;
      case Op::JointMatrixLoadINTEL: // %r = Load %type %pointer %stride %layout %scope
        c.result("an OpTypeJointMatrixINTEL", [&](uint32_t t) { return isMatrix(t); }) &&
            pointerStrideLayout(c, 3);
        break;
      case Op::JointMatrixStoreINTEL: // Store %pointer %object %stride %layout %scope
        c.operand(2, "Object", "an OpTypeJointMatrixINTEL",
                  [&](uint32_t t) { return isMatrix(t); }) &&
            pointerStrideLayout(c, 1);
        break;
      case Op::JointMatrixMadINTEL:
        mad(c);
        break;
      case Op::JointMatrixWorkItemLengthINTEL: // %r = WorkItemLength %type %matrixType
        // MLIR's op definition: "Result Type must be an 32-bit unsigned integer type scalar"
        // (its constraint: a 32-bit integer).
        c.resultInt32();
        if (c.id(3) != 0 && !isMatrix(c.id(3)))
          c.fail("Type " + s_.name(c.id(3)) + " must be an OpTypeJointMatrixINTEL");
        break;
      case Op::Variable:
        variable(inst);
        break;
      default:
        break;
      }
    });
  }

private:
  bool isMatrix(uint32_t type) const { return s_.defOpcode(type) == Op::TypeJointMatrixINTEL; }

  /// A constant instruction of a 32-bit integer scalar type.
  bool int32Constant(uint32_t id) const {
    const grammar::InstructionDesc *d = grammar::findInstruction(uint32_t(s_.defOpcode(id)));
    const uint32_t t = s_.typeOf(id);
    return d != nullptr && d->cls == grammar::InstructionClass::ConstantCreation &&
           s_.isIntType(t) && s_.bitWidth(t) == 32;
  }
  /// The value of an OpConstant (specialization constants have none).
  std::optional<uint64_t> known(uint32_t id) const {
    return s_.defOpcode(id) == Op::Constant ? s_.constantValue(id) : std::nullopt;
  }

  std::optional<Matrix> matrixOf(uint32_t type) const {
    const std::optional<Instruction> d = s_.def(type);
    if (!d || d->isRaw() || d->opcode() != Op::TypeJointMatrixINTEL || d->wordCount() < 7)
      return std::nullopt;
    return Matrix{d->word(2), known(d->word(3)), known(d->word(4)), known(d->word(6))};
  }

  /// A Layout operand: a 32-bit integer constant whose known value is a Joint Matrix Layout.
  bool layout(OperandCheck &c, uint32_t word) {
    const uint32_t id = c.id(word);
    if (id == 0)
      return true;
    if (!int32Constant(id))
      return c.fail("Layout " + s_.name(id) +
                    " must be a constant instruction of a 32-bit integer type");
    const std::optional<uint64_t> v = known(id);
    if (v && (*v > 0xFFFFFFFFu ||
              !grammar::findEnumerant(grammar::OperandKind::JointMatrixLayoutINTEL, uint32_t(*v))))
      return c.fail("Layout " + s_.name(id) + " is " + std::to_string(*v) +
                    ", which is no Joint Matrix Layout (RowMajor, ColumnMajor, PackedA, PackedB)");
    return true;
  }

  // OpTypeJointMatrixINTEL %result %componentType %rows %columns %layout %scope
  void declaration(OperandCheck &c) {
    const uint32_t component = c.id(2);
    if (component != 0 && !s_.isIntType(component) && !s_.isFloatType(component)) {
      c.fail("Component Type " + s_.name(component) + " must be a numerical scalar type");
      return;
    }
    static constexpr const char *kNames[] = {"Rows", "Columns"};
    for (uint32_t w = 3; w < 5; ++w) {
      const uint32_t id = c.id(w);
      if (id == 0)
        continue;
      if (!int32Constant(id)) {
        c.fail(std::string(kNames[w - 3]) + " " + s_.name(id) +
               " must be a constant instruction of a 32-bit integer type");
        return;
      }
      // "It is invalid for Column Count to be 0 or OpConstantNull."
      if (known(id) == 0u || s_.defOpcode(id) == Op::ConstantNull) {
        c.fail(std::string(kNames[w - 3]) + " " + s_.name(id) + " must not be 0");
        return;
      }
    }
    if (!layout(c, 5))
      return;
    const uint32_t scope = c.id(6);
    if (scope == 0)
      return;
    if (!int32Constant(scope)) {
      c.fail("Scope " + s_.name(scope) +
             " must be a constant instruction of a 32-bit integer type");
      return;
    }
    // "Its value must be either Workgroup or Subgroup."
    if (const std::optional<uint64_t> v = known(scope);
        v && *v != kScopeWorkgroup && *v != kScopeSubgroup)
      c.fail("Scope " + s_.name(scope) + " must be Workgroup or Subgroup");
  }

  // The pointer at `pointerWord`, then after the Object (stores) the Stride and the Layout.
  bool pointerStrideLayout(OperandCheck &c, uint32_t pointerWord) {
    const uint32_t pointer = c.type(pointerWord);
    if (pointer != 0) {
      // As MLIR's verifier says it.
      const uint32_t pointee = s_.isPointerType(pointer) ? s_.pointeeType(pointer) : 0;
      if (pointee == 0 || (!s_.isScalarType(pointee) && !s_.isVectorType(pointee)))
        return c.fail("Pointer " + s_.name(c.id(pointerWord)) +
                      " must point to a scalar or vector type");
      const std::optional<uint32_t> sc = s_.storageClass(pointer);
      if (sc != kStorageWorkgroup && sc != kStorageCrossWorkgroup)
        return c.fail("Pointer storage class must be Workgroup or CrossWorkgroup");
    }
    const uint32_t strideWord = pointerWord == 1 ? 3 : 4;
    return c.operand(strideWord, "Stride", "an integer scalar", [&](uint32_t t) {
      return c.intScalar(t);
    }) && layout(c, strideWord + 1);
  }

  // %r = OpJointMatrixMadINTEL %type %a %b %c %scope
  void mad(OperandCheck &c) {
    auto matrix = [&](uint32_t t) { return isMatrix(t); };
    if (!c.result("an OpTypeJointMatrixINTEL", matrix) ||
        !c.operand(3, "A", "an OpTypeJointMatrixINTEL", matrix) ||
        !c.operand(4, "B", "an OpTypeJointMatrixINTEL", matrix) ||
        !c.operand(
            5, "C", [&] { return "of the result type " + s_.name(c.resultType()); },
            [&](uint32_t t) { return t == c.resultType(); }))
      return;
    const std::optional<Matrix> a = matrixOf(c.type(3)), b = matrixOf(c.type(4)),
                                r = matrixOf(c.resultType());
    if (!a || !b || !r)
      return;
    // Compared where the constants are known.
    auto differ = [](std::optional<uint64_t> x, std::optional<uint64_t> y) {
      return x && y && *x != *y;
    };
    if (differ(a->rows, r->rows) || differ(a->columns, b->rows) || differ(b->columns, r->columns))
      c.fail("A (MxK) times B (KxN) must give the result's shape (MxN)");
    else if (differ(a->scope, r->scope) || differ(b->scope, r->scope))
      c.fail("A, B and the result must have the same scope");
    else if (a->component != b->component)
      c.fail("A and B must have the same component type");
  }

  /// Whether `type` is, or holds through arrays and structs, a joint matrix.
  bool holdsMatrix(uint32_t type) {
    return s_.holdsType(
        type, [&](uint32_t t) { return isMatrix(t); }, holds_);
  }

  void variable(const Instruction &inst) {
    if (inst.wordCount() < 4)
      return;
    const uint32_t pointee = s_.pointeeType(inst.typeId());
    const uint32_t sc = inst.word(3);
    if (pointee == 0 || sc == kStorageFunction || sc == kStoragePrivate || !holdsMatrix(pointee))
      return;
    s_.error(inst.index(), kRule,
             "OpVariable: a variable of type " + s_.name(pointee) +
                 ", which holds a joint matrix, must be in the Function or Private storage "
                 "class, not " +
                 State::enumerantName(grammar::OperandKind::StorageClass, sc));
  }

  State &s_;
  std::unordered_map<uint32_t, bool> holds_;
};

} // namespace

void checkJointMatrix(State &s) {
  // Its instructions are an extension's, and a variable holds a joint matrix only if a type
  // (OpTypeJointMatrixINTEL, also an extension's) declares one.
  if (s.extensionOpcodes())
    JointMatrixChecker(s).run();
}

} // namespace spire::val
