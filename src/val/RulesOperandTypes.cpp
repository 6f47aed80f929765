// Rules: the operand and result types of the instructions of the shared table
// (include/spire/grammar/OperandTypes.h: AVC motion estimation, NV hit objects), which the
// structured IR's verifier reads too, so that a module spire val accepts deserializes to IR that
// verifies. Type ids stand for the table's shapes here; what the table cannot say of values
// (a payload is an OpVariable, a VME image is made from its image's type, a hint comes with its
// bits) follows the row's check. Capabilities and extensions are availability's.
#include "OperandCheck.h"
#include "Rules.h"

#include "spire/grammar/OperandTypes.h"

namespace spire::val {

namespace {

using grammar::TypeConstraint;
using S = grammar::TypeShape;

/// The element type of an OpTypeArray of two elements, 0 for other types.
uint32_t pairElement(State &s, uint32_t t) {
  std::optional<Instruction> d = s.def(t);
  if (!d || d->opcode() != Op::TypeArray || d->wordCount() < 4)
    return 0;
  const std::optional<uint64_t> length = s.constantValue(d->word(3));
  return length == 2u ? d->word(2) : 0;
}

/// The type `t` has the shape `c` asks for (the variables' storage classes aside).
bool fits(const OperandCheck &c, const TypeConstraint &k, uint32_t t) {
  State &s = c.state();
  switch (k.shape) {
  case S::None:
  case S::RayPayload:
  case S::HitAttributes:
    return true;
  case S::Int:
    return c.intScalar(t);
  case S::Int8:
    return c.intScalar(t, 8);
  case S::Int16:
    return c.intScalar(t, 16);
  case S::Int32:
    return c.intScalar(t, 32);
  case S::Int64:
    return c.intScalar(t, 64);
  case S::Int8or16:
    return c.intScalar(t, 8) || c.intScalar(t, 16);
  case S::Int8or32:
    return c.intScalar(t, 8) || c.intScalar(t, 32);
  case S::UInt32:
    return c.unsignedInt32(t);
  case S::IntScalarOrVector:
    return s.isIntScalarOrVector(t);
  case S::Int32ScalarOrVector:
    return s.isIntScalarOrVector(t) && s.bitWidth(t) == 32;
  case S::LikeResult: {
    const uint32_t r = c.resultType();
    return t == r || (s.isIntScalarOrVector(t) && s.isIntScalarOrVector(r) &&
                      s.isVectorType(t) == s.isVectorType(r) &&
                      s.componentCount(t) == s.componentCount(r) && s.bitWidth(t) == s.bitWidth(r));
  }
  case S::IntPair:
    return s.isVectorType(t) && s.isIntScalarOrVector(t) && s.componentCount(t) == 2;
  case S::StorageImage: {
    std::optional<Instruction> d = s.def(t);
    return d && d->opcode() == Op::TypeImage && d->wordCount() >= 9 &&
           (d->word(7) == 0 || d->word(7) == 2);
  }
  case S::Int16x2:
    return c.intVector(t, 2, 16);
  case S::Int32x2:
    return c.intVector(t, 2, 32);
  case S::Bool:
    return s.isBoolType(t);
  case S::Float32:
    return c.floatScalar(t, 32);
  case S::Float32x3:
    return c.floatVector(t, 3, 32);
  case S::Float32Mat4x3: {
    std::optional<Instruction> d = s.def(t);
    return d && d->opcode() == Op::TypeMatrix && d->wordCount() >= 4 && d->word(3) == 4 &&
           c.floatVector(d->word(2), 3, 32);
  }
  case S::Float32Pair:
    return c.floatScalar(pairElement(s, t), 32);
  case S::Float32x3Pair:
    return c.floatVector(pairElement(s, t), 3, 32);
  case S::Type:
    return s.defOpcode(t) == k.type;
  case S::TypeOrAlt:
    return s.defOpcode(t) == k.type || s.defOpcode(t) == k.alt;
  case S::PointerToType:
    return c.pointerTo(t, k.type);
  }
  return true;
}

/// The operand at `word` is an OpVariable in storage class `storage` or `other` (`names` says
/// which).
bool variableIn(OperandCheck &c, uint32_t word, const std::string &what, uint32_t storage,
                uint32_t other, std::string_view names) {
  State &s = c.state();
  const uint32_t id = c.id(word);
  if (id == 0 || c.type(word) == 0)
    return true;
  if (s.defOpcode(id) != Op::Variable)
    return c.fail(what + " " + s.name(id) + " must be the result of an OpVariable");
  const std::optional<uint32_t> sc = s.storageClass(c.type(word));
  if (sc != storage && sc != other)
    return c.fail(what + " " + s.name(id) + " must be in the " + std::string(names) +
                  " storage class");
  return true;
}

bool operandFits(OperandCheck &c, const Instruction &inst, uint32_t word, const TypeConstraint &k) {
  const std::string what = k.name ? std::string(k.name) : operandName(inst, word);
  using SC = grammar::StorageClass;
  if (k.shape == S::RayPayload)
    return variableIn(c, word, what, uint32_t(SC::RayPayloadKHR),
                      uint32_t(SC::IncomingRayPayloadKHR),
                      "RayPayloadKHR or IncomingRayPayloadKHR");
  if (k.shape == S::HitAttributes)
    return variableIn(c, word, what, uint32_t(SC::HitObjectAttributeNV),
                      uint32_t(SC::HitObjectAttributeNV), "HitObjectAttributeNV");
  auto shape = [&] {
    return k.shape == S::LikeResult
               ? "of the result type " + c.state().name(c.resultType()) + ", signedness aside"
               : grammar::describe(k);
  };
  return c.operand(word, what, shape, [&](uint32_t t) { return fits(c, k, t); });
}

/// OpVmeImageINTEL: the VME image of the image's type.
void vmeImageOfItsImage(OperandCheck &c, const Instruction &inst, uint32_t imageWord) {
  State &s = c.state();
  std::optional<Instruction> vme = s.def(inst.typeId());
  const uint32_t image = c.type(imageWord);
  if (vme && vme->wordCount() >= 3 && image != 0 && vme->word(2) != image)
    c.fail("the result type " + s.name(inst.typeId()) + " must be the VME image of " +
           s.name(image) + ", the type of Image Type " + s.name(c.id(imageWord)));
}

void check(State &s, const Instruction &inst, const grammar::OperandTypeRule &row) {
  OperandCheck c(s, inst, row.extension);
  if (row.result.shape != S::None && !c.result([&] { return grammar::describe(row.result); },
                                               [&](uint32_t t) { return fits(c, row.result, t); }))
    return;
  const std::vector<uint32_t> words = idOperandWords(inst);
  for (size_t k = 0; k < words.size() && k < row.operands.size(); ++k)
    if (row.operands[k].shape != S::None && !operandFits(c, inst, words[k], row.operands[k]))
      return;
  switch (inst.opcode()) {
  case Op::VmeImageINTEL:
    if (!words.empty())
      vmeImageOfItsImage(c, inst, words[0]);
    break;
  case Op::ReorderThreadWithHitObjectNV:
    // "Hint and Bits are optional together i.e Either both Hint and Bits should be provided or
    // neither."
    if (inst.wordCount() == 3)
      c.fail("Hint " + s.name(c.id(2)) + " is given without Bits: give both or neither");
    break;
  default:
    break;
  }
}

} // namespace

std::vector<uint32_t> idOperandWords(const Instruction &inst) {
  std::vector<uint32_t> words;
  for (const binary::Operand &o : inst.operands())
    if (o.kind == grammar::OperandKind::IdRef && o.numWords == 1)
      words.push_back(o.offset);
  return words;
}

std::string operandName(const Instruction &inst, uint32_t word) {
  const grammar::InstructionDesc *d = inst.desc();
  auto ops = inst.operands();
  for (size_t i = 0; d != nullptr && i < ops.size() && i < d->operands.size(); ++i)
    if (ops[i].offset == word && !d->operands[i].name.empty()) {
      std::string_view name = d->operands[i].name;
      // One grammar name carries the "<id> " of the specification's layout.
      if (size_t gt = name.find("> "); gt != std::string_view::npos)
        name.remove_prefix(gt + 2);
      return std::string(name);
    }
  return "Operand " + std::to_string(word - (inst.typeId() != 0 ? 2 : 0));
}

void checkOperandTypes(State &s) {
  forEachInstruction(s, [&](const Instruction &inst, uint32_t op) {
    if (const grammar::OperandTypeRule *row = grammar::operandTypeRule(op))
      check(s, inst, *row);
  });
}

} // namespace spire::val
