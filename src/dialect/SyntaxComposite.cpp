// What the custom syntax of composites and pointers infers: the result of a CompositeExtract
// from its indices, the composite a CompositeInsert fills, the pointer an access chain gives
// (its constant indices select struct members). And the custom syntax of ImageDrefGather,
// whose image operands and spacing no format says.
#include "OpSyntax.h"
#include "TextParser.h"
#include "TextPrinter.h"

#include <string>

namespace spire::dialect {

uint32_t InferQuery::numOperands() const {
  return op ? op->numOperands() : static_cast<uint32_t>(values.size());
}

Value InferQuery::operand(uint32_t i) const { return op ? op->operand(i) : values[i]; }

Attribute InferQuery::attr(std::string_view name) const {
  if (op)
    return op->attr(name);
  for (const NamedAttribute &a : attributes)
    if (a.name == name)
      return a.attr();
  return {};
}

bool InferQuery::fail(std::string why, int use, int type) {
  problem = std::move(why);
  blameUse = use;
  blameType = type;
  return false;
}

namespace syntax {

namespace {

using grammar::OperandKind;

/// The type indexing the composite `t` with `index` selects (a struct member needs a `known`
/// constant index in range); null, saying why, when there is none.
Type indexType(Type t, int64_t index, bool known, std::string &why) {
  switch (t.kind()) {
  case TypeKind::Vector:
  case TypeKind::Array:
  case TypeKind::RuntimeArray:
  case TypeKind::Matrix:
  case TypeKind::CooperativeMatrix:
    return t.elementType();
  case TypeKind::Struct:
    if (!known)
      why = "a struct index must be a constant";
    else if (index < 0 || static_cast<size_t>(index) >= t.members().size())
      why = "struct index out of range";
    else
      return t.members()[static_cast<size_t>(index)].type;
    return {};
  default:
    if (isNodePayloadArray(t)) // an access chain into node payloads
      return t.elementType();
    why = "cannot index into " + toString(t);
    return {};
  }
}

/// The type the `indices` attribute selects in `t`.
Type walkIndices(InferQuery &q, Type t) {
  Attribute indices = q.attr("indices");
  if (!indices.is(AttrKind::Array)) {
    q.fail("expected the indices");
    return {};
  }
  for (Attribute e : indices.elements()) {
    if (!e.is(AttrKind::Integer)) {
      q.fail("indices are integers");
      return {};
    }
    std::string why;
    if (!(t = indexType(t, e.intValue(), true, why))) {
      q.fail(why);
      return {};
    }
  }
  return t;
}

} // namespace

bool inferExtract(const OpInfo &, InferQuery &q) {
  Type t = walkIndices(q, q.operand(0).type());
  if (!t)
    return false;
  if (q.context)
    q.result = t;
  return t == q.result;
}

bool inferInsert(const OpInfo &, InferQuery &q) {
  Type composite = q.operand(1).type();
  if (!walkIndices(q, composite))
    return false;
  if (q.context)
    q.result = composite;
  return composite == q.result;
}

/// AccessChain walks all its indices; PtrAccessChain and InBoundsPtrAccessChain skip the first
/// (the element of the base pointer). The messages are MLIR's (its parser words the bounds
/// check as the op's own).
bool inferAccessChain(const OpInfo &info, InferQuery &q) {
  Type base = q.operand(0).type();
  if (!base.is(TypeKind::Pointer))
    return q.fail("expected a pointer to composite type, but provided '" + toString(base) + "'", -1,
                  0);
  uint32_t first = info.key == grammar::Op::AccessChain ? 1 : 2;
  Type pointee = base.elementType();
  int64_t lastStructIndex = 0;
  for (uint32_t i = first; i < q.numOperands(); ++i) {
    // (Only a struct's index is looked at: the others select the one element type.)
    int64_t index = 0;
    switch (pointee.kind()) {
    case TypeKind::Vector:
    case TypeKind::Array:
    case TypeKind::RuntimeArray:
    case TypeKind::Matrix:
    case TypeKind::CooperativeMatrix:
      pointee = pointee.elementType();
      break;
    case TypeKind::Struct:
      if (!InferQuery::constantIndex(q.operand(i), index)) {
        // As MLIR words it: naming the op that gives the index, when one does.
        const Operation *def = q.operand(i).definingOp();
        return q.fail("index must be an integer spirv.Constant to access element of spirv.struct" +
                          (def && &def->info() != &ops::constant()
                               ? ", but provided " + std::string(def->name())
                               : std::string()),
                      static_cast<int>(i));
      }
      if (index < 0 || static_cast<size_t>(index) >= pointee.members().size())
        return q.fail("'" + std::string(info.name) + "' op index " + std::to_string(index) +
                          " out of bounds for '" + toString(pointee) + "'",
                      static_cast<int>(i));
      lastStructIndex = index;
      pointee = pointee.members()[static_cast<size_t>(index)].type;
      break;
    default:
      return q.fail("cannot extract from non-composite type '" + toString(pointee) +
                        "' with index " + std::to_string(lastStructIndex),
                    static_cast<int>(i));
    }
  }
  // The custom form infers a pointer without an ArrayStride.
  if (q.context) {
    q.result = q.context->pointer(pointee, base.storageClass());
    return true;
  }
  return q.result.is(TypeKind::Pointer) && q.result.elementType() == pointee &&
         q.result.storageClass() == base.storageClass() && q.result.stride() == 0;
}

/// `%si : T, %c : T, %d : T ["Op"] (%args : Ts) {attrs} -> R`, spaced as MLIR 16 prints it.
bool printImageDrefGather(const Operation &op, TextPrinter &p, unsigned) {
  Attribute io = op.attr("imageoperands");
  uint32_t n = op.numOperands();
  if (!plain(op) || n < 3 || op.numResults() != 1 ||
      (io && (!io.is(AttrKind::Enum) || io.enumKind() != OperandKind::ImageOperands)) ||
      (n > 3 && !io))
    return false;
  std::string &out = p.out();
  for (uint32_t i = 0; i < 3; ++i) {
    out += i ? ", " : " ";
    p.use(op.operand(i));
    out += " : ";
    p.type(op.operand(i).type());
  }
  out += ' ';
  if (io)
    out += "[\"" + enumText(OperandKind::ImageOperands, io.enumValue()) + "\"]";
  if (n > 3) {
    out += " (";
    p.operands(op, 3, n);
    out += " : ";
    p.types(op, 3, n);
    out += ')';
  }
  p.attrDict(op, {"imageoperands"});
  out += " -> ";
  p.type(op.result(0).type());
  return true;
}

Operation *parseImageDrefGather(const OpInfo &info, TextParser &p, size_t at) {
  OperationState st(&info);
  for (int i = 0; i < 3; ++i) {
    Use u;
    Type t;
    if ((i && !p.expect(',')) || !p.use(u) || !p.expect(':') || !(t = p.type()))
      return nullptr;
    Value v = p.resolve(u, t);
    if (!v)
      return nullptr;
    st.operands.push_back(v);
  }
  if (p.accept('[')) {
    Attribute io = p.enumAttr(OperandKind::ImageOperands, false);
    if (!io || !p.expect(']'))
      return nullptr;
    p.addAttr(st, "imageoperands", io);
    if (p.accept('(')) {
      std::vector<Use> us;
      std::vector<Type> ts;
      if (!p.uses(us) || !p.expect(':') || !p.typeList(ts) || !p.expect(')'))
        return nullptr;
      if (ts.size() != us.size()) {
        p.failAt(at, "the image operands and their types differ in number");
        return nullptr;
      }
      if (!p.resolveEach(us, ts, st.operands))
        return nullptr;
    }
  }
  Type r;
  if (!p.optionalAttrDict(st) || !p.expect("->") || !(r = p.type()))
    return nullptr;
  st.resultTypes.push_back(r);
  return p.finish(st);
}

} // namespace syntax

bool InferQuery::constantIndex(Value v, int64_t &out) {
  Operation *def = v.definingOp();
  if (!def || &def->info() != &ops::constant())
    return false;
  Attribute a = def->attr("value");
  if (!a.is(AttrKind::Integer))
    return false;
  out = a.intValue();
  return true;
}

} // namespace spire::dialect
