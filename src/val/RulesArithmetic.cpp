// Rules: arithmetic, bit, logical, relational, conversion and composite instructions
// (SPIR-V 3.32.11 to 3.32.15): operand and result types, component counts, composite indexes.
#include "Composite.h"
#include "InstView.h"
#include "Rules.h"

namespace spire::val {

namespace {

enum class Scalar { Int, Float, Bool };

class ArithmeticChecker {
public:
  explicit ArithmeticChecker(State &s) : s_(s) {}

  void run() {
    for (Instruction inst : s_.module()) {
      if (s_.stopped())
        return;
      if (inst.isRaw())
        continue;
      if (s_.functionOf(inst.index()) != kNoIndex)
        check(InstView(inst));
      else if (inst.opcode() == Op::SpecConstantOp && inst.wordCount() >= 4)
        check(InstView::embeddedIn(inst));
    }
    if (!s_.stopped())
      smallTypeUses();
    if (!s_.stopped())
      float8Uses();
  }

private:
  void check(const InstView &inst) {
    switch (inst.opcode()) {
    case Op::CompositeExtract:
      compositeExtract(inst);
      break;
    case Op::CompositeInsert:
      compositeInsert(inst);
      break;
    case Op::VectorShuffle:
      vectorShuffle(inst);
      break;
    case Op::VectorExtractDynamic:
    case Op::VectorInsertDynamic:
      vectorDynamic(inst);
      break;
    case Op::CompositeConstruct:
      compositeConstruct(inst);
      break;
    case Op::ShiftRightLogical:
    case Op::ShiftRightArithmetic:
    case Op::ShiftLeftLogical:
      shift(inst);
      break;
    case Op::BitwiseOr:
    case Op::BitwiseXor:
    case Op::BitwiseAnd:
    case Op::Not:
    case Op::BitReverse:
      integerOperands(inst);
      break;
    case Op::BitFieldInsert:
    case Op::BitFieldSExtract:
    case Op::BitFieldUExtract:
      bitField(inst);
      break;
    case Op::BitCount:
      bitCount(inst);
      break;
    case Op::Any:
    case Op::All:
      anyAll(inst);
      break;
    case Op::IsNan:
    case Op::IsInf:
    case Op::IsFinite:
    case Op::IsNormal:
    case Op::SignBitSet:
      floatClass(inst);
      break;
    case Op::Select:
      select(inst);
      break;
    case Op::Dot:
      dot(inst);
      break;
    case Op::VectorTimesScalar:
      vectorTimesScalar(inst);
      break;
    case Op::CopyObject:
      if (inst.wordCount() >= 4)
        if (uint32_t t = s_.typeOf(inst.word(3)); t != 0 && t != inst.typeId())
          s_.error(inst.index(), "3.32.12",
                   "OpCopyObject's result type " + s_.name(inst.typeId()) +
                       " is not its operand's type " + s_.name(t));
      break;
    case Op::CopyLogical:
      // The two must logically match (3.32.12): arrays or structs of the same shape, and of two
      // types (a copy to the operand's own type is OpCopyObject).
      if (inst.wordCount() >= 4)
        if (uint32_t t = s_.typeOf(inst.word(3)); t != 0) {
          auto aggregate = [&](uint32_t type) {
            const Op o = s_.defOpcode(type);
            return o == Op::TypeArray || o == Op::TypeStruct;
          };
          if (!aggregate(t) || !aggregate(inst.typeId()))
            s_.error(inst.index(), "3.32.12",
                     "OpCopyLogical copies an array or struct into another of the same shape, "
                     "not " +
                         s_.name(t) + " into " + s_.name(inst.typeId()));
          else if (t == inst.typeId())
            s_.error(inst.index(), "3.32.12",
                     "OpCopyLogical's result type must not be its operand's type (" + s_.name(t) +
                         ")");
          else if (!logicallyMatch(t, inst.typeId(), 0))
            s_.error(inst.index(), "3.32.12",
                     "OpCopyLogical: " + s_.name(t) + " does not logically match the result type " +
                         s_.name(inst.typeId()));
        }
      break;
    case Op::DPdx:
    case Op::DPdy:
    case Op::Fwidth:
    case Op::DPdxFine:
    case Op::DPdyFine:
    case Op::FwidthFine:
    case Op::DPdxCoarse:
    case Op::DPdyCoarse:
    case Op::FwidthCoarse:
      sameAsResult(inst, Scalar::Float);
      // "The component width must be 32 bits."
      if (s_.isFloatScalarOrVector(inst.typeId()) && s_.bitWidth(inst.typeId()) != 32)
        s_.error(inst.index(), "3.32.16",
                 "the result type of a derivative must have 32-bit components, not " +
                     s_.name(inst.typeId()));
      break;
    case Op::MatrixTimesVector:
    case Op::VectorTimesMatrix:
    case Op::MatrixTimesScalar:
    case Op::MatrixTimesMatrix:
      matrixProduct(inst);
      break;
    case Op::ConvertFToU:
    case Op::ConvertFToS:
      conversion(inst, Scalar::Float, Scalar::Int);
      break;
    case Op::ConvertSToF:
    case Op::ConvertUToF:
      conversion(inst, Scalar::Int, Scalar::Float);
      break;
    case Op::FConvert:
      conversion(inst, Scalar::Float, Scalar::Float);
      break;
    case Op::UConvert:
    case Op::SConvert:
      conversion(inst, Scalar::Int, Scalar::Int);
      break;
    case Op::Bitcast:
      bitcast(inst);
      break;
    case Op::ConvertPtrToU:
    case Op::ConvertUToPtr:
      pointerConversion(inst);
      break;
    case Op::SatConvertSToU:
    case Op::SatConvertUToS:
      saturatingConversion(inst);
      break;
    case Op::QuantizeToF16:
      quantizeToF16(inst);
      break;
    case Op::Transpose:
      transpose(inst);
      break;
    case Op::OuterProduct:
      outerProduct(inst);
      break;
    case Op::FNegate:
    case Op::FAdd:
    case Op::FSub:
    case Op::FMul:
    case Op::FDiv:
    case Op::FRem:
    case Op::FMod:
      sameAsResult(inst, Scalar::Float);
      break;
    case Op::IAddCarry:
    case Op::ISubBorrow:
    case Op::UMulExtended:
      extended(inst, true);
      break;
    case Op::SMulExtended:
      extended(inst, false);
      break;
    case Op::SNegate:
    case Op::IAdd:
    case Op::ISub:
    case Op::IMul:
    case Op::SDiv:
    case Op::UDiv:
    case Op::SRem:
    case Op::SMod:
    case Op::UMod:
      integerOperands(inst);
      break;
    case Op::LogicalAnd:
    case Op::LogicalOr:
    case Op::LogicalNot:
    case Op::LogicalEqual:
    case Op::LogicalNotEqual:
      sameAsResult(inst, Scalar::Bool);
      break;
    case Op::IEqual:
    case Op::INotEqual:
    case Op::UGreaterThan:
    case Op::SGreaterThan:
    case Op::UGreaterThanEqual:
    case Op::SGreaterThanEqual:
    case Op::ULessThan:
    case Op::SLessThan:
    case Op::ULessThanEqual:
    case Op::SLessThanEqual:
      comparison(inst, Scalar::Int);
      break;
    case Op::FOrdEqual:
    case Op::FUnordEqual:
    case Op::FOrdNotEqual:
    case Op::FUnordNotEqual:
    case Op::FOrdLessThan:
    case Op::FUnordLessThan:
    case Op::FOrdGreaterThan:
    case Op::FUnordGreaterThan:
    case Op::FOrdLessThanEqual:
    case Op::FUnordLessThanEqual:
    case Op::FOrdGreaterThanEqual:
    case Op::FUnordGreaterThanEqual:
    case Op::LessOrGreater:
    case Op::Ordered:
    case Op::Unordered:
      comparison(inst, Scalar::Float);
      break;
    default:
      break;
    }
  }

  // In shaders, 8- and 16-bit types declared through storage capabilities alone (no Int8, Int16
  // or Float16) only move data: loaded, stored, copied and converted to other widths (2.16.1).
  bool isRestrictedSmall(uint32_t type) const {
    constexpr uint32_t kFloat16 = uint32_t(grammar::Capability::Float16),
                       kInt16 = uint32_t(grammar::Capability::Int16),
                       kInt8 = uint32_t(grammar::Capability::Int8);
    const uint32_t c = s_.componentType(type);
    const uint32_t width = s_.bitWidth(c);
    if (s_.isIntType(c))
      return (width == 8 && !s_.hasCapability(kInt8)) || (width == 16 && !s_.hasCapability(kInt16));
    if (s_.isFloatType(c))
      return width == 16 && !s_.hasCapability(kFloat16);
    return false;
  }

  static bool movesData(Op op) {
    switch (op) {
    case Op::Store:
    case Op::CopyObject:
    case Op::UConvert:
    case Op::SConvert:
    case Op::FConvert:
    case Op::Name:
    case Op::Decorate:
      return true;
    default:
      return false;
    }
  }

  void smallTypeUses() {
    constexpr uint32_t kCapabilityKernel =
        uint32_t(grammar::Capability::Kernel); // kernels compute on half with Float16Buffer
    if (s_.hasCapability(kCapabilityKernel))
      return;
    // With Int8, Int16 and Float16 no type is restricted (isRestrictedSmall): no walk.
    if (s_.hasCapability(uint32_t(grammar::Capability::Int8)) &&
        s_.hasCapability(uint32_t(grammar::Capability::Int16)) &&
        s_.hasCapability(uint32_t(grammar::Capability::Float16)))
      return;
    for (Instruction inst : s_.module()) {
      if (s_.stopped())
        return;
      if (inst.isRaw() || s_.functionOf(inst.index()) == kNoIndex || inst.typeId() == 0 ||
          inst.resultId() == 0 || !isRestrictedSmall(inst.typeId()))
        continue;
      if (inst.opcode() == Op::VectorShuffle) {
        s_.error(inst.index(), "2.16.1",
                 "vectors of 8- or 16-bit components cannot be shuffled without the Int8, "
                 "Int16 or Float16 capability");
        continue;
      }
      for (const DefUse::Use &u : s_.defUse().uses(inst.resultId())) {
        Instruction user = s_.module().inst(u.inst);
        if (user.isRaw() || movesData(user.opcode()))
          continue;
        s_.error(u.inst, "2.16.1",
                 "the 8- or 16-bit value " + s_.name(inst.resultId()) +
                     " can only be stored, copied or converted: the module declares its type "
                     "through a storage capability, without Int8, Int16 or Float16");
        break;
      }
    }
  }

  /// Whether `type` is or includes a float8 type (SPV_EXT_float8's FP encodings).
  bool includesFloat8(uint32_t type, int depth = 0) const {
    std::optional<Instruction> d = s_.def(type);
    if (!d || depth > 16)
      return false;
    switch (d->opcode()) {
    case Op::TypeFloat:
      return d->wordCount() > 3 && (d->word(3) == uint32_t(grammar::FPEncoding::Float8E4M3EXT) ||
                                    d->word(3) == uint32_t(grammar::FPEncoding::Float8E5M2EXT));
    case Op::TypeVector:
    case Op::TypeArray:
    case Op::TypeRuntimeArray:
    case Op::TypeCooperativeMatrixKHR:
      return d->wordCount() > 2 && includesFloat8(d->word(2), depth + 1);
    case Op::TypeStruct:
      for (uint32_t w = 2; w < d->wordCount(); ++w)
        if (includesFloat8(d->word(w), depth + 1))
          return true;
      return false;
    default:
      return false;
    }
  }

  // SPV_EXT_float8: "Objects with a type that is or includes a floating-point type with the
  // Float8E4M3EXT or Float8E5M2EXT FP Encoding must only be used with" constant creation,
  // memory, function, conversion, composite, annotation, debug, miscellaneous, extension and
  // mode-setting instructions, OpSelect, OpPhi, OpReturnValue, OpLifetimeStart/Stop and
  // OpCooperativeMatrixMulAddKHR.
  void float8Uses() {
    using grammar::InstructionClass;
    if (!s_.hasCapability(uint32_t(grammar::Capability::Float8EXT)))
      return;
    for (Instruction inst : s_.module()) {
      if (s_.stopped())
        return;
      if (inst.isRaw() || s_.functionOf(inst.index()) == kNoIndex || inst.typeId() == 0 ||
          inst.resultId() == 0 || !includesFloat8(inst.typeId()))
        continue;
      for (const DefUse::Use &u : s_.defUse().uses(inst.resultId())) {
        Instruction user = s_.module().inst(u.inst);
        const grammar::InstructionDesc *d =
            user.isRaw() ? nullptr : grammar::findInstruction(uint32_t(user.opcode()));
        if (!d)
          continue;
        const Op op = user.opcode();
        const InstructionClass c = d->cls;
        if (c == InstructionClass::ConstantCreation || c == InstructionClass::Memory ||
            c == InstructionClass::Function || c == InstructionClass::Conversion ||
            c == InstructionClass::Composite || c == InstructionClass::Annotation ||
            c == InstructionClass::Debug || c == InstructionClass::Miscellaneous ||
            c == InstructionClass::Extension || c == InstructionClass::ModeSetting ||
            op == Op::Select || op == Op::Phi || op == Op::ReturnValue || op == Op::LifetimeStart ||
            op == Op::LifetimeStop || op == Op::CooperativeMatrixMulAddKHR)
          continue;
        s_.error(u.inst, "SPV_EXT_float8",
                 "the float8 value " + s_.name(inst.resultId()) + " cannot be an operand of " +
                     std::string(d->name) +
                     ": float8 values are only converted, moved, selected and multiplied in "
                     "cooperative matrices");
        break;
      }
    }
  }

  /// "an integer", "a floating-point", "a boolean".
  static const char *scalarName(Scalar k) {
    return k == Scalar::Int ? "an integer" : k == Scalar::Float ? "a floating-point" : "a boolean";
  }

  bool isScalarOrVectorOf(uint32_t type, Scalar k) const {
    switch (k) {
    case Scalar::Int:
      return s_.isIntScalarOrVector(type);
    case Scalar::Float:
      return s_.isFloatScalarOrVector(type);
    case Scalar::Bool:
      return s_.isBoolScalarOrVector(type);
    }
    return false;
  }

  // Only scalars and vectors are checked: cooperative matrices and other extension types that
  // these instructions accept have rules of their own.
  bool scalarOrVector(uint32_t type) const {
    return s_.isScalarType(type) || s_.isVectorType(type);
  }

  // 2.2.2 "Logically match": arrays of the same length whose elements logically match, structs
  // of as many members that pairwise logically match, or one and the same type.
  bool logicallyMatch(uint32_t a, uint32_t b, int depth) const {
    if (a == b)
      return true;
    std::optional<Instruction> da = s_.def(a), db = s_.def(b);
    if (!da || !db || da->opcode() != db->opcode() || da->wordCount() != db->wordCount() ||
        depth > 64)
      return false;
    if (da->opcode() == Op::TypeArray)
      return da->wordCount() == 4 && s_.constantValue(da->word(3)).has_value() &&
             s_.constantValue(da->word(3)) == s_.constantValue(db->word(3)) &&
             logicallyMatch(da->word(2), db->word(2), depth + 1);
    if (da->opcode() != Op::TypeStruct)
      return false;
    for (uint32_t w = 2; w < da->wordCount(); ++w)
      if (!logicallyMatch(da->word(w), db->word(w), depth + 1))
        return false;
    return true;
  }

  // Whether the result type is a scalar or vector to check further. Any other type (a pointer, a
  // struct, an acceleration structure, ...) is an error here; unknown ids are reported elsewhere,
  // and cooperative matrices have rules of their own.
  bool resultShapeChecked(const InstView &inst, uint32_t type, const std::string &what) {
    if (scalarOrVector(type))
      return true;
    const Op op = s_.defOpcode(type);
    if (op != kNoOp && !s_.isCooperativeType(type))
      s_.error(inst.index(), "3.32", "the result type must be " + what);
    return false;
  }

  void expect(const InstView &inst, bool ok, const std::string &what) {
    if (!ok)
      s_.error(inst.index(), "3.32", what);
  }

  // %r = OpVectorExtractDynamic %scalar %vector %index
  // %r = OpVectorInsertDynamic %vector %vector %component %index (3.32.12): the vector of the
  // scalar's type (or of the result's type), the index a scalar integer.
  void vectorDynamic(const InstView &inst) {
    const bool extract = inst.opcode() == Op::VectorExtractDynamic;
    if (inst.wordCount() < (extract ? 5u : 6u))
      return;
    const uint32_t type = inst.typeId(), vector = s_.typeOf(inst.word(3));
    const uint32_t index = s_.typeOf(inst.word(extract ? 4 : 5));
    const char *name = extract ? "OpVectorExtractDynamic" : "OpVectorInsertDynamic";
    if (vector != 0 && s_.defOpcode(vector) != kNoOp && !s_.isCooperativeType(vector) &&
        !s_.isVectorType(vector)) {
      s_.error(inst.index(), "3.32.12",
               std::string("the vector of ") + name + " must be of a vector type, not " +
                   s_.name(vector));
      return;
    }
    if (vector == 0 || !s_.isVectorType(vector))
      return;
    if (extract && type != s_.componentType(vector))
      s_.error(inst.index(), "3.32.12",
               "the result type must be the vector's component type " +
                   s_.name(s_.componentType(vector)));
    if (!extract) {
      const uint32_t component = s_.typeOf(inst.word(4));
      if (type != vector)
        s_.error(inst.index(), "3.32.12", "the vector must have the result type");
      else if (component != 0 && component != s_.componentType(type))
        s_.error(inst.index(), "3.32.12",
                 "the component must have the vector's component type " +
                     s_.name(s_.componentType(type)));
    }
    if (index != 0 && !(s_.isIntType(index)))
      s_.error(inst.index(), "3.32.12", "the index must be a scalar integer");
  }

  // %r = OpIAddCarry / OpISubBorrow / OpUMulExtended / OpSMulExtended %struct %a %b (3.32.13):
  // a struct of two members of one integer scalar or vector type (unsigned but for
  // OpSMulExtended), which both operands have.
  void extended(const InstView &inst, bool unsignedMembers) {
    const uint32_t type = inst.typeId();
    std::optional<Instruction> def = s_.def(type);
    if (!def)
      return; // reported where ids are checked
    const std::string member = unsignedMembers ? "an unsigned integer" : "an integer";
    if (def->opcode() != Op::TypeStruct || def->wordCount() != 4 || def->word(2) != def->word(3) ||
        !s_.isIntScalarOrVector(def->word(2)) ||
        (unsignedMembers && s_.isSignedInt(s_.componentType(def->word(2))))) {
      s_.error(inst.index(), "3.32.13",
               "the result type must be a struct of two members of one type, " + member +
                   " scalar or vector");
      return;
    }
    for (uint32_t w = 3; w < inst.wordCount(); ++w)
      if (uint32_t t = s_.typeOf(inst.word(w)); t != 0 && t != def->word(2))
        s_.error(inst.index(), "3.32.13",
                 "operand " + s_.name(inst.word(w)) + " has type " + s_.name(t) +
                     ", not the type of the result's members " + s_.name(def->word(2)));
  }

  // %r = OpXxx %type %a [%b]: operands of the result type.
  void sameAsResult(const InstView &inst, Scalar k) {
    const uint32_t type = inst.typeId();
    if (!resultShapeChecked(inst, type, std::string(scalarName(k)) + " scalar or vector"))
      return;
    if (!isScalarOrVectorOf(type, k)) {
      s_.error(inst.index(), "3.32",
               std::string("the result type must be ") + scalarName(k) + " scalar or vector");
      return;
    }
    for (uint32_t w = 3; w < inst.wordCount(); ++w)
      if (uint32_t t = s_.typeOf(inst.word(w)); t != 0 && t != type)
        s_.error(inst.index(), "3.32",
                 "operand " + s_.name(inst.word(w)) + " has type " + s_.name(t) +
                     ", not the result type " + s_.name(type));
  }

  // %r = OpShift... %type %base %shift: the base as wide as the result, both with its
  // component count; the shift of any integer width.
  void shift(const InstView &inst) {
    const uint32_t type = inst.typeId();
    if (inst.wordCount() < 5 || !resultShapeChecked(inst, type, "an integer scalar or vector"))
      return;
    if (!s_.isIntScalarOrVector(type)) {
      s_.error(inst.index(), "3.32.15",
               "the result type of a shift must be an integer scalar or "
               "vector");
      return;
    }
    const uint32_t base = s_.typeOf(inst.word(3)), amount = s_.typeOf(inst.word(4));
    if (base != 0 &&
        (!s_.isIntScalarOrVector(base) || s_.componentCount(base) != s_.componentCount(type) ||
         s_.bitWidth(base) != s_.bitWidth(type)))
      s_.error(inst.index(), "3.32.15",
               "the shifted value must be an integer of the result's size and component count");
    else if (amount != 0 && (!s_.isIntScalarOrVector(amount) ||
                             s_.componentCount(amount) != s_.componentCount(type)))
      s_.error(inst.index(), "3.32.15",
               "the shift amount must be an integer with the result's component count");
  }

  // %r = OpBitFieldInsert %type %base %insert %offset %count, OpBitField[SU]Extract %type %base
  // %offset %count: base (and insert) of the result type, offset and count integer scalars.
  void bitField(const InstView &inst) {
    const uint32_t type = inst.typeId();
    const bool insert = inst.opcode() == Op::BitFieldInsert;
    const uint32_t firstScalar = insert ? 5 : 4;
    if (inst.wordCount() < firstScalar + 2 ||
        !resultShapeChecked(inst, type, "an integer scalar or vector"))
      return;
    if (!s_.isIntScalarOrVector(type)) {
      s_.error(inst.index(), "3.32.15", "bit field instructions work on integers");
      return;
    }
    for (uint32_t w = 3; w < firstScalar; ++w)
      if (uint32_t t = s_.typeOf(inst.word(w)); t != 0 && t != type)
        s_.error(inst.index(), "3.32.15",
                 "operand " + s_.name(inst.word(w)) + " must be of the result type " +
                     s_.name(type));
    for (uint32_t w = firstScalar; w < firstScalar + 2; ++w)
      if (uint32_t t = s_.typeOf(inst.word(w)); t != 0 && !s_.isIntType(t))
        s_.error(inst.index(), "3.32.15",
                 "the offset and count must be integer scalars, not " + s_.name(t));
  }

  // %r = OpBitCount %type %base
  void bitCount(const InstView &inst) {
    const uint32_t type = inst.typeId();
    if (inst.wordCount() < 4 || !resultShapeChecked(inst, type, "an integer scalar or vector"))
      return;
    const uint32_t base = s_.typeOf(inst.word(3));
    if (!s_.isIntScalarOrVector(type) ||
        (base != 0 &&
         (!s_.isIntScalarOrVector(base) || s_.componentCount(base) != s_.componentCount(type))))
      s_.error(inst.index(), "3.32.15",
               "OpBitCount counts the bits of integers into integers of the same component "
               "count");
  }

  // %r = OpAny / OpAll %bool %vector
  void anyAll(const InstView &inst) {
    if (inst.wordCount() < 4)
      return;
    const uint32_t v = s_.typeOf(inst.word(3));
    if (!s_.isBoolType(inst.typeId()))
      s_.error(inst.index(), "3.32.15", "OpAny and OpAll give a boolean scalar");
    else if (v != 0 && !(s_.isVectorType(v) && s_.isBoolType(s_.componentType(v))))
      s_.error(inst.index(), "3.32.15", "OpAny and OpAll take a vector of booleans");
  }

  // %r = OpIsNan ... %bool(s) %x
  void floatClass(const InstView &inst) {
    const uint32_t type = inst.typeId();
    if (inst.wordCount() < 4 || !resultShapeChecked(inst, type, "a boolean scalar or vector"))
      return;
    const uint32_t x = s_.typeOf(inst.word(3));
    if (!s_.isBoolScalarOrVector(type))
      s_.error(inst.index(), "3.32.15", "the result type must be a boolean scalar or vector");
    else if (x != 0 && s_.defOpcode(x) != kNoOp && !s_.isCooperativeType(x) &&
             (!s_.isFloatScalarOrVector(x) || s_.componentCount(x) != s_.componentCount(type)))
      s_.error(inst.index(), "3.32.15",
               "the operand must be a floating-point scalar or vector with the result's "
               "component count");
  }

  // %r = OpSelect %type %condition %object1 %object2
  void select(const InstView &inst) {
    if (inst.wordCount() < 6)
      return;
    const uint32_t type = inst.typeId(), cond = s_.typeOf(inst.word(3));
    for (uint32_t w = 4; w < 6; ++w)
      if (uint32_t t = s_.typeOf(inst.word(w)); t != 0 && t != type) {
        s_.error(inst.index(), "3.32.15",
                 "OpSelect's object " + s_.name(inst.word(w)) + " is not of the result type " +
                     s_.name(type));
        return;
      }
    if (const Op typeOp = s_.defOpcode(type);
        (typeOp == Op::TypeImage || typeOp == Op::TypeSampler || typeOp == Op::TypeSampledImage) &&
        !s_.hasCapability(grammar::Capability::BindlessTextureNV)) {
      // 2.16.1: image, sampler and sampled image objects are not operands of OpSelect, except
      // with SPV_NV_bindless_texture.
      s_.error(inst.index(), "2.16.1",
               "OpSelect cannot choose between images, samplers or sampled images (without "
               "BindlessTextureNV)");
      return;
    }
    if (cond == 0)
      return;
    const bool vectorCondition = s_.isVectorType(cond) && s_.isBoolType(s_.componentType(cond)) &&
                                 s_.isVectorType(type) &&
                                 s_.componentCount(cond) == s_.componentCount(type);
    if (!s_.isBoolType(cond) && !vectorCondition)
      s_.error(inst.index(), "3.32.15",
               "OpSelect's condition must be a boolean, or a vector of booleans as long as the "
               "result vector");
    // "Before version 1.4, results are only computed per component": a vector is chosen by a
    // vector condition of as many components (SPIR-V 1.3: "It must have the same number of
    // components as Result Type").
    else if (!vectorCondition && s_.isVectorType(type) &&
             s_.module().version() < grammar::makeVersion(1, 4))
      s_.error(inst.index(), "3.32.15",
               "before SPIR-V 1.4 OpSelect chooses a vector by a vector condition of as many "
               "components, not by a boolean scalar");
  }

  // %r = OpDot %float %vector1 %vector2
  void dot(const InstView &inst) {
    if (inst.wordCount() < 5)
      return;
    const uint32_t type = inst.typeId(), a = s_.typeOf(inst.word(3)), b = s_.typeOf(inst.word(4));
    if (a == 0 || b == 0)
      return;
    if (!s_.isFloatType(type))
      s_.error(inst.index(), "3.32.14", "OpDot gives a floating-point scalar");
    else if (a != b || !s_.isVectorType(a) || s_.componentType(a) != type)
      s_.error(inst.index(), "3.32.14",
               "OpDot's operands must be two vectors of the same type, with the result as their "
               "component type");
  }

  // %r = OpVectorTimesScalar %vector %vector %scalar
  void vectorTimesScalar(const InstView &inst) {
    if (inst.wordCount() < 5)
      return;
    const uint32_t type = inst.typeId(), v = s_.typeOf(inst.word(3)), k = s_.typeOf(inst.word(4));
    if (!s_.isVectorType(type) || !s_.isFloatScalarOrVector(type))
      s_.error(inst.index(), "3.32.14", "OpVectorTimesScalar gives a floating-point vector");
    else if (v != 0 && v != type)
      s_.error(inst.index(), "3.32.14", "the vector must be of the result type");
    else if (k != 0 && k != s_.componentType(type))
      s_.error(inst.index(), "3.32.14", "the scalar must be the result's component type");
  }

  // Integer arithmetic: integer operands with the result's component count and width (their
  // signedness may differ).
  void integerOperands(const InstView &inst) {
    const uint32_t type = inst.typeId();
    if (!resultShapeChecked(inst, type, "an integer scalar or vector"))
      return;
    if (!s_.isIntScalarOrVector(type)) {
      s_.error(inst.index(), "3.32", "the result type must be an integer scalar or vector");
      return;
    }
    for (uint32_t w = 3; w < inst.wordCount(); ++w) {
      const uint32_t t = s_.typeOf(inst.word(w));
      if (t == 0)
        continue;
      if (!s_.isIntScalarOrVector(t) || s_.componentCount(t) != s_.componentCount(type) ||
          s_.bitWidth(t) != s_.bitWidth(type))
        s_.error(inst.index(), "3.32",
                 "operand " + s_.name(inst.word(w)) + " of type " + s_.name(t) +
                     " must be an integer scalar or vector with the result's component count "
                     "and width");
    }
  }

  // %r = OpXxx %bool %a %b
  void comparison(const InstView &inst, Scalar k) {
    const uint32_t type = inst.typeId();
    if (!resultShapeChecked(inst, type, "a boolean scalar or vector"))
      return;
    if (!s_.isBoolScalarOrVector(type)) {
      s_.error(inst.index(), "3.32",
               "the result type of a comparison must be a boolean scalar "
               "or vector");
      return;
    }
    for (uint32_t w = 3; w < inst.wordCount(); ++w) {
      const uint32_t t = s_.typeOf(inst.word(w));
      if (t == 0)
        continue;
      // A pointer, a composite or an opaque value is no scalar or vector of any kind.
      if (!scalarOrVector(t) || !isScalarOrVectorOf(t, k) ||
          s_.componentCount(t) != s_.componentCount(type)) {
        s_.error(inst.index(), "3.32",
                 "operand " + s_.name(inst.word(w)) + " must be " + scalarName(k) +
                     " scalar or vector with as many components as the result");
        return;
      }
    }
    // Integer comparisons: "They must have the same component width" (3.32.15).
    if (k == Scalar::Int && inst.wordCount() >= 5)
      if (uint32_t x = s_.typeOf(inst.word(3)), y = s_.typeOf(inst.word(4));
          x != 0 && y != 0 && s_.bitWidth(s_.componentType(x)) != s_.bitWidth(s_.componentType(y)))
        s_.error(inst.index(), "3.32.15",
                 State::opcodeName(inst.opcode()) + ": " + s_.name(inst.word(3)) + " and " +
                     s_.name(inst.word(4)) + " must have the same component width");
    // Floating-point comparisons: "y must have the same type as x" (3.32.15).
    if (k == Scalar::Float && inst.wordCount() >= 5)
      if (uint32_t x = s_.typeOf(inst.word(3)), y = s_.typeOf(inst.word(4));
          x != 0 && y != 0 && x != y)
        s_.error(inst.index(), "3.32.15",
                 State::opcodeName(inst.opcode()) + ": y " + s_.name(inst.word(4)) +
                     " must have the type of x " + s_.name(x));
  }

  // %r = OpConvertPtrToU %int %pointer, OpConvertUToPtr %pointer %int (3.32.11): "Result Type
  // [Integer Value] must be a scalar of integer type, whose Signedness operand is 0", "Pointer
  // [Result Type] must be a physical pointer type": under Physical32 / Physical64 every pointer,
  // under PhysicalStorageBuffer64 those to PhysicalStorageBuffer, under Logical none.
  void pointerConversion(const InstView &inst) {
    if (inst.wordCount() < 4)
      return;
    const bool toInteger = inst.opcode() == Op::ConvertPtrToU;
    const uint32_t integer = toInteger ? inst.typeId() : s_.typeOf(inst.word(3));
    const uint32_t pointer = toInteger ? s_.typeOf(inst.word(3)) : inst.typeId();
    if (integer == 0 || pointer == 0)
      return;
    // Named only on failure.
    const std::string op = State::opcodeName(inst.opcode()) + ": ";
    auto integerWhat = [&] {
      return toInteger ? "the result type " + s_.name(integer)
                       : "Integer Value " + s_.name(inst.word(3));
    };
    auto pointerWhat = [&] {
      return toInteger ? "Pointer " + s_.name(inst.word(3)) : "the result type " + s_.name(pointer);
    };
    if (!s_.isIntType(integer) || s_.isSignedInt(integer)) {
      s_.error(inst.index(), "3.32.11",
               op + integerWhat() + " must be an unsigned integer scalar (Signedness 0)");
      return;
    }
    if (!s_.isPointerType(pointer)) {
      s_.error(inst.index(), "3.32.11", op + pointerWhat() + " must be a physical pointer");
      return;
    }
    constexpr uint32_t kLogical = uint32_t(grammar::AddressingModel::Logical),
                       kPhysicalStorageBuffer64 =
                           uint32_t(grammar::AddressingModel::PhysicalStorageBuffer64),
                       kStoragePhysicalStorageBuffer =
                           uint32_t(grammar::StorageClass::PhysicalStorageBuffer);
    const uint32_t model = s_.addressingModel();
    if (model == kLogical)
      s_.error(inst.index(), "3.32.11",
               op + pointerWhat() +
                   " must be a physical pointer, and the Logical addressing model has none");
    else if (model == kPhysicalStorageBuffer64 &&
             s_.storageClass(pointer) != kStoragePhysicalStorageBuffer)
      s_.error(inst.index(), "3.32.11",
               op + pointerWhat() +
                   " must be a physical pointer: under PhysicalStorageBuffer64 only pointers to "
                   "PhysicalStorageBuffer are");
  }

  // %r = OpSatConvertSToU / OpSatConvertUToS %type %value (3.32.11): "Result Type must be a scalar
  // or vector of integer type", the value "a scalar or vector of integer type. It must have the
  // same number of components as Result Type."
  void saturatingConversion(const InstView &inst) {
    if (inst.wordCount() < 4)
      return;
    const uint32_t type = inst.typeId(), value = s_.typeOf(inst.word(3));
    const std::string op = State::opcodeName(inst.opcode()) + ": ";
    if (!resultShapeChecked(inst, type, "an integer scalar or vector"))
      return;
    if (!s_.isIntScalarOrVector(type))
      s_.error(inst.index(), "3.32.11",
               op + "the result type " + s_.name(type) + " must be an integer scalar or vector");
    else if (value != 0 && (!scalarOrVector(value) || !s_.isIntScalarOrVector(value)))
      s_.error(inst.index(), "3.32.11",
               op + "the value " + s_.name(inst.word(3)) + " must be an integer scalar or vector");
    else if (value != 0 && s_.componentCount(value) != s_.componentCount(type))
      s_.error(inst.index(), "3.32.11",
               op + "the value " + s_.name(inst.word(3)) +
                   " must have as many components as the result");
  }

  // %r = OpQuantizeToF16 %type %value (3.32.11): "Result Type must be a scalar or vector of
  // floating-point type. The component width must be 32 bits. The type of Value must be the same
  // as Result Type."
  void quantizeToF16(const InstView &inst) {
    const uint32_t type = inst.typeId();
    if (inst.wordCount() < 4 || !resultShapeChecked(inst, type, "a 32-bit float scalar or vector"))
      return;
    if (!s_.isFloatScalarOrVector(type) || s_.bitWidth(type) != 32) {
      s_.error(inst.index(), "3.32.11",
               "OpQuantizeToF16: the result type " + s_.name(type) +
                   " must be a 32-bit float scalar or vector");
      return;
    }
    if (uint32_t t = s_.typeOf(inst.word(3)); t != 0 && t != type)
      s_.error(inst.index(), "3.32.11",
               "OpQuantizeToF16: Value " + s_.name(inst.word(3)) + " must have the result type " +
                   s_.name(type));
  }

  // %r = OpTranspose %matrix %matrix (3.32.14): "Result Type must be an OpTypeMatrix. Matrix must
  // be an object of type OpTypeMatrix. The number of columns and the column size of Matrix must
  // be the reverse of those in Result Type. The types of the scalar components in Matrix and
  // Result Type must be the same."
  void transpose(const InstView &inst) {
    if (inst.wordCount() < 4)
      return;
    const uint32_t type = inst.typeId(), matrix = s_.typeOf(inst.word(3));
    auto report = [&](const std::string &what) {
      s_.error(inst.index(), "3.32.14", "OpTranspose: " + what);
    };
    auto out = matrixShape(type);
    if (!out) {
      if (s_.def(type))
        report("the result type " + s_.name(type) + " must be a matrix");
      return;
    }
    if (matrix == 0)
      return;
    auto in = matrixShape(matrix);
    if (!in)
      report("Matrix " + s_.name(inst.word(3)) + " must be a matrix");
    else if (s_.componentType(s_.def(matrix)->word(2)) != s_.componentType(s_.def(type)->word(2)))
      report("Matrix " + s_.name(inst.word(3)) + " must have the result's component type");
    else if (in->first != out->second || in->second != out->first)
      report("Matrix " + s_.name(inst.word(3)) + " has " + std::to_string(in->first) +
             " columns of " + std::to_string(in->second) + "; the result must have " +
             std::to_string(in->second) + " columns of " + std::to_string(in->first) + ", not " +
             std::to_string(out->first) + " of " + std::to_string(out->second));
  }

  // %r = OpOuterProduct %matrix %vector1 %vector2 (3.32.14): "Result Type must be an OpTypeMatrix
  // whose Column Type is a vector of floating-point type. Vector 1 must have the same type as the
  // Column Type in Result Type. Vector 2 must be a vector with the same Component Type as the
  // Component Type in Result Type. Its number of components must equal the number of columns in
  // Result Type."
  void outerProduct(const InstView &inst) {
    if (inst.wordCount() < 5)
      return;
    const uint32_t type = inst.typeId();
    auto report = [&](const std::string &what) {
      s_.error(inst.index(), "3.32.14", "OpOuterProduct: " + what);
    };
    auto shape = matrixShape(type);
    if (!shape || !s_.isFloatScalarOrVector(s_.def(type)->word(2))) {
      if (s_.def(type))
        report("the result type " + s_.name(type) + " must be a matrix of floats");
      return;
    }
    const uint32_t column = s_.def(type)->word(2);
    const uint32_t v1 = s_.typeOf(inst.word(3)), v2 = s_.typeOf(inst.word(4));
    if (v1 != 0 && v1 != column)
      report("Vector 1 " + s_.name(inst.word(3)) + " must be of the result's column type " +
             s_.name(column));
    else if (v2 != 0 && (!s_.isVectorType(v2) || s_.componentType(v2) != s_.componentType(column)))
      report("Vector 2 " + s_.name(inst.word(4)) +
             " must be a vector of the result's component "
             "type " +
             s_.name(s_.componentType(column)));
    else if (v2 != 0 && s_.componentCount(v2) != shape->first)
      report("Vector 2 " + s_.name(inst.word(4)) +
             " must have as many components as the result "
             "has columns (" +
             std::to_string(shape->first) + ")");
  }

  // %r = OpConvertXxx %type %value
  void conversion(const InstView &inst, Scalar from, Scalar to) {
    if (inst.wordCount() < 4)
      return;
    const uint32_t type = inst.typeId(), input = s_.typeOf(inst.word(3));
    // Cooperative matrices convert by rules of their own.
    if (input == 0 || s_.defOpcode(input) == kNoOp || s_.isCooperativeType(input) ||
        s_.isCooperativeType(type))
      return;
    if (!isScalarOrVectorOf(type, to))
      s_.error(inst.index(), "3.32.11",
               std::string("the result type must be ") + scalarName(to) + " scalar or vector");
    else if (!isScalarOrVectorOf(input, from))
      s_.error(inst.index(), "3.32.11",
               "the value " + s_.name(inst.word(3)) + " must be " + scalarName(from) +
                   " scalar or vector");
    else if (s_.componentCount(input) != s_.componentCount(type))
      s_.error(inst.index(), "3.32.11",
               "the value and the result must have the same number of components");
    else if (from == to && s_.bitWidth(input) == s_.bitWidth(type))
      s_.error(inst.index(), "3.32.11",
               "a conversion within integers or within floats changes the width; both are " +
                   std::to_string(s_.bitWidth(type)) + "-bit");
    // OpConvertFToU and OpUConvert: "Result Type must be a scalar or vector of integer type,
    // whose Signedness operand is 0."
    else if ((inst.opcode() == Op::ConvertFToU || inst.opcode() == Op::UConvert) &&
             s_.isSignedInt(type))
      s_.error(inst.index(), "3.32.11",
               State::opcodeName(inst.opcode()) + " gives unsigned integers (Signedness 0), not " +
                   s_.name(type));
  }

  // The width of pointers of type `type`, 0 when the addressing model does not say.
  uint32_t pointerWidth(uint32_t type) const {
    constexpr uint32_t kPhysical32 = uint32_t(grammar::AddressingModel::Physical32),
                       kPhysical64 = uint32_t(grammar::AddressingModel::Physical64),
                       kPhysicalStorageBuffer64 =
                           uint32_t(grammar::AddressingModel::PhysicalStorageBuffer64),
                       kStoragePhysicalStorageBuffer =
                           uint32_t(grammar::StorageClass::PhysicalStorageBuffer);
    switch (s_.addressingModel()) {
    case kPhysical32:
      return 32;
    case kPhysical64:
      return 64;
    case kPhysicalStorageBuffer64:
      return s_.storageClass(type) == kStoragePhysicalStorageBuffer ? 64 : 0;
    default:
      return 0;
    }
  }

  // %r = OpBitcast %type %value (3.32.11, 2.16.1): pointers or numeric scalars and vectors,
  // keeping the total size. A pointer becomes a pointer of its storage class or an integer
  // scalar (from 1.5 also a vector of 32-bit integers), and the other way round.
  void bitcast(const InstView &inst) {
    if (inst.wordCount() < 4)
      return;
    const uint32_t type = inst.typeId(), input = s_.typeOf(inst.word(3));
    auto numeric = [&](uint32_t t) {
      return (s_.isScalarType(t) || s_.isVectorType(t)) && !s_.isBoolScalarOrVector(t);
    };
    const char *rule = "3.32.11";
    if (input == 0 || type == 0)
      return;
    const bool resultPointer = s_.isPointerType(type), inputPointer = s_.isPointerType(input);
    // KHR cooperative matrices are RulesCooperativeMatrix's; untyped pointers (SPV_KHR_untyped_
    // pointers) are left alone.
    constexpr uint32_t kOpTypeUntypedPointerKHR = uint32_t(grammar::Op::TypeUntypedPointerKHR),
                       kOpTypeCooperativeMatrixKHR =
                           uint32_t(grammar::Op::TypeCooperativeMatrixKHR);
    auto elsewhere = [&](uint32_t t) {
      const uint32_t op = static_cast<uint32_t>(s_.defOpcode(t));
      return op == kOpTypeUntypedPointerKHR || op == kOpTypeCooperativeMatrixKHR;
    };
    if (elsewhere(type) || elsewhere(input))
      return;
    if (!resultPointer && !numeric(type)) {
      s_.error(inst.index(), rule,
               "the result type of OpBitcast must be a pointer or a numerical scalar or vector");
      return;
    }
    if (!inputPointer && !numeric(input)) {
      s_.error(inst.index(), rule,
               "the operand of OpBitcast must be a pointer or a numerical scalar or vector");
      return;
    }
    if (resultPointer || inputPointer) {
      const uint32_t other = resultPointer ? input : type;
      const char *which = resultPointer ? "operand" : "result";
      const bool vectors = s_.module().version() >= grammar::makeVersion(1, 5) ||
                           s_.hasExtension(grammar::Extension::SPV_KHR_physical_storage_buffer);
      if (resultPointer && inputPointer) {
        if (s_.storageClass(type) != s_.storageClass(input))
          s_.error(inst.index(), rule, "OpBitcast between pointers keeps the storage class");
        return;
      }
      const bool intScalar = s_.isIntType(other);
      const bool intVector32 = s_.isVectorType(other) && s_.isIntType(s_.componentType(other)) &&
                               s_.bitWidth(other) == 32;
      if (!intScalar && !(vectors && intVector32)) {
        s_.error(inst.index(), "2.16.1",
                 std::string("when OpBitcast converts a pointer, the ") + which +
                     " must be a pointer or an integer scalar" +
                     (vectors ? " or a vector of 32-bit integers" : ""));
        return;
      }
      const uint32_t width = pointerWidth(resultPointer ? type : input);
      const uint64_t bits = uint64_t(s_.componentCount(other)) * s_.bitWidth(other);
      if (width != 0 && bits != width)
        s_.error(inst.index(), rule,
                 "OpBitcast keeps the total size: pointers are " + std::to_string(width) +
                     "-bit with this addressing model, the " + which + " has " +
                     std::to_string(bits) + " bits");
      return;
    }
    const uint64_t bits = uint64_t(s_.componentCount(type)) * s_.bitWidth(type),
                   inputBits = uint64_t(s_.componentCount(input)) * s_.bitWidth(input);
    if (bits != inputBits)
      s_.error(inst.index(), rule,
               "OpBitcast keeps the total size: the value has " + std::to_string(inputBits) +
                   " bits, the result type " + std::to_string(bits));
  }

  // Walks literal indexes from word `first` into `type`; 0 when the walk fails (reported).
  uint32_t walk(const InstView &inst, uint32_t type, uint32_t first) {
    for (uint32_t w = first; w < inst.wordCount(); ++w) {
      ElementType e = elementType(s_, type, inst.word(w), Bounds::All);
      if (!e.error.empty()) {
        s_.error(inst.index(), "3.32.12", State::opcodeName(inst.opcode()) + ": " + e.error);
        return 0;
      }
      if (e.type == 0)
        return 0;
      type = e.type;
    }
    return type;
  }

  // %r = OpCompositeExtract %type %composite %index...
  void compositeExtract(const InstView &inst) {
    if (inst.wordCount() < 4)
      return;
    // The indexes select an element: at least one (spirv-val: "Expected at least one index").
    if (inst.wordCount() == 4) {
      s_.error(inst.index(), "3.32.12", "OpCompositeExtract needs at least one index");
      return;
    }
    const uint32_t composite = s_.typeOf(inst.word(3));
    if (composite == 0)
      return;
    const uint32_t element = walk(inst, composite, 4);
    if (element != 0 && element != inst.typeId())
      s_.error(inst.index(), "3.32.12",
               "OpCompositeExtract: the result type " + s_.name(inst.typeId()) +
                   " is not the selected element's " + s_.name(element));
  }

  // %r = OpCompositeInsert %type %object %composite %index...
  void compositeInsert(const InstView &inst) {
    if (inst.wordCount() < 5)
      return;
    if (inst.wordCount() == 5) {
      s_.error(inst.index(), "3.32.12", "OpCompositeInsert needs at least one index");
      return;
    }
    const uint32_t composite = s_.typeOf(inst.word(4)), object = s_.typeOf(inst.word(3));
    if (composite == 0)
      return;
    if (composite != inst.typeId())
      s_.error(inst.index(), "3.32.12",
               "the result type " + s_.name(inst.typeId()) + " is not the composite's type " +
                   s_.name(composite));
    const uint32_t element = walk(inst, composite, 5);
    if (element != 0 && object != 0 && element != object)
      s_.error(inst.index(), "3.32.12",
               "the object's type " + s_.name(object) + " is not the selected element's " +
                   s_.name(element));
  }

  // %r = OpVectorShuffle %type %v1 %v2 %component...
  void vectorShuffle(const InstView &inst) {
    if (inst.wordCount() < 5)
      return;
    const uint32_t type = inst.typeId(), v1 = s_.typeOf(inst.word(3)), v2 = s_.typeOf(inst.word(4));
    if (!s_.isVectorType(type) || !s_.isVectorType(v1) || !s_.isVectorType(v2)) {
      s_.error(inst.index(), "3.32.12",
               "OpVectorShuffle's result and both operands must be vectors");
      return;
    }
    if (s_.componentType(v1) != s_.componentType(type) ||
        s_.componentType(v2) != s_.componentType(type))
      s_.error(inst.index(), "3.32.12",
               "the operands' component type must be the result's component type");
    const uint32_t components = inst.wordCount() - 5;
    if (components != s_.componentCount(type))
      s_.error(inst.index(), "3.32.12",
               "the result has " + std::to_string(s_.componentCount(type)) + " components but " +
                   std::to_string(components) + " are selected");
    const uint64_t total = uint64_t(s_.componentCount(v1)) + s_.componentCount(v2);
    for (uint32_t w = 5; w < inst.wordCount(); ++w)
      if (inst.word(w) != 0xFFFFFFFFu && inst.word(w) >= total) {
        s_.error(inst.index(), "3.32.12",
                 "component " + std::to_string(inst.word(w)) +
                     " is out of bounds: the two vectors have " + std::to_string(total) +
                     " components");
        return;
      }
  }

  // Matrix columns and rows: (columns, rows) of an OpTypeMatrix, or nothing.
  std::optional<std::pair<uint32_t, uint32_t>> matrixShape(uint32_t type) const {
    std::optional<Instruction> d = s_.def(type);
    if (!d || d->opcode() != Op::TypeMatrix || d->wordCount() < 4)
      return std::nullopt;
    return std::make_pair(d->word(3), s_.componentCount(d->word(2)));
  }

  // %r = OpMatrixTimesVector %vec %matrix %vector, OpVectorTimesMatrix %vec %vector %matrix,
  // OpMatrixTimesScalar %mat %matrix %scalar, OpMatrixTimesMatrix %mat %left %right.
  void matrixProduct(const InstView &inst) {
    if (inst.wordCount() < 5)
      return;
    const uint32_t result = inst.typeId(), a = s_.typeOf(inst.word(3)), b = s_.typeOf(inst.word(4));
    if (a == 0 || b == 0)
      return;
    const Op op = inst.opcode();
    auto report = [&](const std::string &what) { s_.error(inst.index(), "3.32.14", what); };
    if (op == Op::MatrixTimesScalar) {
      // Cooperative matrices have rules of their own.
      if (s_.isCooperativeType(result))
        return;
      // "Result Type must be a matrix type with a float component type."
      if (!matrixShape(result) || !s_.isFloatScalarOrVector(s_.def(result)->word(2)))
        report("the result type " + s_.name(result) +
               " of OpMatrixTimesScalar must be a matrix "
               "of floats");
      else if (a != result)
        report("the matrix must be of the result type " + s_.name(result));
      else if (!s_.isFloatType(b) || b != s_.componentType(s_.def(a)->word(2)))
        report("the scalar must be the matrix's component type");
      return;
    }
    if (op == Op::MatrixTimesMatrix) {
      auto left = matrixShape(a), right = matrixShape(b), out = matrixShape(result);
      if (!left || !right || !out)
        report("OpMatrixTimesMatrix multiplies matrices into a matrix");
      else if (left->first != right->second)
        report("the left matrix has " + std::to_string(left->first) +
               " columns but the right one " + std::to_string(right->second) + " rows");
      else if (out->first != right->first || out->second != left->second)
        report("the result must have the right matrix's columns and the left matrix's rows");
      else if (!s_.isFloatScalarOrVector(s_.def(result)->word(2)))
        report("OpMatrixTimesMatrix gives a matrix of floats");
      else if (s_.def(a)->word(2) != s_.def(result)->word(2) ||
               matrixComponent(b) != matrixComponent(result))
        report("the matrices must have the result's component type " +
               s_.name(matrixComponent(result)));
      return;
    }
    const bool matrixFirst = op == Op::MatrixTimesVector;
    auto shape = matrixShape(matrixFirst ? a : b);
    const uint32_t vector = matrixFirst ? b : a;
    if (!shape || !s_.isVectorType(vector) || !s_.isVectorType(result)) {
      report("the operands must be a matrix and a vector, the result a vector");
      return;
    }
    const uint32_t inner = matrixFirst ? shape->first : shape->second,
                   outer = matrixFirst ? shape->second : shape->first;
    if (s_.componentCount(vector) != inner)
      report("the vector has " + std::to_string(s_.componentCount(vector)) +
             " components; the matrix needs " + std::to_string(inner));
    else if (s_.componentCount(result) != outer)
      report("the result must have " + std::to_string(outer) + " components");
    else if (!s_.isFloatScalarOrVector(result))
      report("the result must be a vector of floats");
    else if (s_.componentType(vector) != s_.componentType(result) ||
             matrixComponent(matrixFirst ? a : b) != s_.componentType(result))
      report("the matrix and the vector must have the result's component type " +
             s_.name(s_.componentType(result)));
  }

  // The component type of a matrix (of its column vectors).
  uint32_t matrixComponent(uint32_t matrix) const {
    std::optional<Instruction> d = s_.def(matrix);
    return d && d->wordCount() > 2 ? s_.componentType(d->word(2)) : 0;
  }

  // %r = OpCompositeConstruct %type %constituent...
  void compositeConstruct(const InstView &inst) {
    const uint32_t type = inst.typeId();
    std::optional<Instruction> d = s_.def(type);
    if (!d || d->isRaw())
      return;
    const uint32_t count = inst.wordCount() - 3;
    auto constituentType = [&](uint32_t i) { return s_.typeOf(inst.word(3 + i)); };
    switch (d->opcode()) {
    case Op::TypeVector: {
      // "For constructing a vector, there must be at least two Constituent operands."
      if (count < 2) {
        s_.error(inst.index(), "3.32.12",
                 "OpCompositeConstruct of a vector takes at least two constituents");
        return;
      }
      const uint32_t component = s_.componentType(type);
      uint32_t total = 0;
      for (uint32_t i = 0; i < count; ++i) {
        const uint32_t t = constituentType(i);
        if (t == 0)
          return;
        if (s_.componentType(t) != component || !scalarOrVector(t)) {
          s_.error(inst.index(), "3.32.12",
                   "constituent " + s_.name(inst.word(3 + i)) +
                       " must be a scalar or vector of the result's component type " +
                       s_.name(component));
          return;
        }
        total += s_.componentCount(t);
      }
      if (total != s_.componentCount(type))
        s_.error(inst.index(), "3.32.12",
                 "the constituents have " + std::to_string(total) +
                     " components in all, the result " + std::to_string(s_.componentCount(type)));
      return;
    }
    case Op::TypeMatrix:
    case Op::TypeArray:
    case Op::TypeStruct: {
      uint32_t expected = 0;
      if (d->opcode() == Op::TypeStruct) {
        expected = d->wordCount() - 2;
      } else if (d->wordCount() >= 4) {
        if (d->opcode() == Op::TypeMatrix)
          expected = d->word(3);
        else if (std::optional<uint64_t> n = s_.constantValue(d->word(3)))
          expected = static_cast<uint32_t>(*n);
        else
          return; // a specialization-constant length
      }
      if (count != expected) {
        s_.error(inst.index(), "3.32.12",
                 "the result " + s_.name(type) + " has " + std::to_string(expected) +
                     " elements but " + std::to_string(count) + " constituents are given");
        return;
      }
      for (uint32_t i = 0; i < count; ++i) {
        const uint32_t want = d->opcode() == Op::TypeStruct ? d->word(2 + i) : d->word(2);
        const uint32_t t = constituentType(i);
        if (t != 0 && t != want) {
          s_.error(inst.index(), "3.32.12",
                   "constituent " + s_.name(inst.word(3 + i)) + " has type " + s_.name(t) +
                       ", the result's element type is " + s_.name(want));
          return;
        }
      }
      return;
    }
    default:
      // "Result Type must be a composite type, whose top-level members/elements/components/columns
      // have the same type as the types of the operands" (3.32.12). Cooperative matrices have
      // rules of their own.
      if (s_.isType(type) && !s_.isCooperativeType(type))
        s_.error(inst.index(), "3.32.12",
                 "OpCompositeConstruct: the result type " + s_.name(type) +
                     " must be a composite type (a vector, matrix, array or struct)");
      return;
    }
  }

  State &s_;
};

} // namespace

void checkArithmetic(State &s) { ArithmeticChecker(s).run(); }

} // namespace spire::val
