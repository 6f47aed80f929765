// The simplifications of the ops (OpFolder::rewrite), by opcode, as MLIR's folders and
// canonicalization patterns of the SPIR-V dialect make them where it has them: algebraic
// identities, involutions, the opposite comparison under a LogicalNot, bitcasts of constants
// and of bitcasts, composites of constants and extractions from constructs and inserts,
// chained access chains, and conditional branches on constants (except where structured control
// flow needs the conditional branch).
#include "OpFolder.h"

#include "spire/dialect/Attributes.h"
#include "spire/dialect/Builder.h"
#include "spire/dialect/StructuralOps.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <span>

namespace spire::dialect::detail {

namespace {

using Op = grammar::Op;

bool isSplat(Value v, uint64_t bits) {
  Attribute a = constantOf(v);
  if (!a)
    return false;
  std::optional<std::vector<FoldScalar>> es = elementsOf(a, v.type());
  if (!es)
    return false;
  unsigned w = elementOf(v.type()).width();
  for (const FoldScalar &s : *es)
    if ((s.bits & maskOf(w)) != (bits & maskOf(w)))
      return false;
  return true;
}

bool isIntOrBool(Type t) { return elementOf(t).is(TypeKind::Integer); }

/// Whether `v` is a constant each of whose elements has its low `n` bits set.
bool lowBitsSet(Value v, unsigned n) {
  Attribute a = constantOf(v);
  if (!a || n == 0 || n > 64)
    return false;
  std::optional<std::vector<FoldScalar>> es = elementsOf(a, v.type());
  if (!es)
    return false;
  for (const FoldScalar &s : *es)
    if ((s.bits & maskOf(n)) != maskOf(n))
      return false;
  return true;
}

/// The bits of a float of type `t` holding `v` (NaN payloads are not folded).
std::optional<uint64_t> floatBits(double v, Type t) {
  if (std::isnan(v))
    return std::nullopt;
  return bitsOfFloat(t, v);
}

std::optional<double> floatFromBits(uint64_t bits, Type t) {
  double v = floatOfBits(t, bits);
  if (std::isnan(v))
    return std::nullopt;
  return v;
}

/// `op` replaced by a new op `key` with the same result type and `operands`.
FoldResult withOp(Operation &op, OpKey key, std::vector<Value> operands) {
  OperationState st(findOp(key), op.location());
  st.resultTypes.push_back(op.result().type());
  st.operands = std::move(operands);
  Operation *n = Operation::create(std::move(st));
  op.block()->insertBefore(&op, n);
  return FoldResult::replaceWithOp(n);
}

FoldResult bitcast(Operation &op, Context &ctx) {
  Value x = op.operand(0);
  Type from = x.type(), to = op.result().type();
  if (from == to)
    return FoldResult::replaceWith(x);
  // bitcast(bitcast(y)) with y of the result's type is y.
  if (Operation *def = x.definingOp();
      def && def->info().key == Op::Bitcast && def->operand(0).type() == to)
    return FoldResult::replaceWith(def->operand(0));
  // A scalar constant of the same width.
  Attribute c = constantOf(x);
  if (!c || from.is(TypeKind::Vector) || to.is(TypeKind::Vector) ||
      !(from.is(TypeKind::Integer) || from.is(TypeKind::Float)) ||
      !(to.is(TypeKind::Integer) || to.is(TypeKind::Float)) || from.width() != to.width())
    return {};
  std::optional<FoldScalar> s = scalarOf(c);
  if (!s)
    return {};
  uint64_t bits = s->bits;
  if (from.is(TypeKind::Float)) {
    std::optional<uint64_t> b = floatBits(s->f, from);
    if (!b)
      return {};
    bits = *b;
  }
  FoldScalar r{bits & maskOf(to.width()), 0};
  if (to.is(TypeKind::Float)) {
    std::optional<double> f = floatFromBits(bits, to);
    if (!f)
      return {};
    r.f = *f;
  }
  return FoldResult::constantValue(scalarAttr(ctx, to, r));
}

/// CompositeConstruct of constants: scalars and vectors concatenated into a vector, or the
/// constituents of an array, struct or matrix.
FoldResult compositeConstruct(Operation &op, Context &ctx) {
  Type resultType = op.result().type();
  std::vector<Attribute> parts;
  for (uint32_t i = 0; i < op.numOperands(); ++i) {
    Attribute c = constantOf(op.operand(i));
    if (!c)
      return {};
    parts.push_back(c);
  }
  if (resultType.is(TypeKind::Vector)) {
    std::vector<Attribute> elems;
    for (Attribute p : parts) {
      if (p.is(AttrKind::Dense))
        elems.insert(elems.end(), p.elements().begin(), p.elements().end());
      else
        elems.push_back(p);
    }
    if (elems.size() != resultType.count())
      return {};
    return FoldResult::constantValue(attr::dense(ctx, resultType, elems));
  }
  if (resultType.is(TypeKind::Array) || resultType.is(TypeKind::Struct) ||
      resultType.is(TypeKind::Matrix))
    return FoldResult::constantValue(attr::array(ctx, parts));
  return {};
}

/// VectorExtractDynamic of constants (an index out of range is undefined: left alone).
FoldResult vectorExtractDynamic(Operation &op, Context &) {
  Attribute v = constantOf(op.operand(0)), i = constantOf(op.operand(1));
  if (!v || !i || !v.is(AttrKind::Dense) || !i.is(AttrKind::Integer))
    return {};
  uint64_t index = i.bits() & maskOf(i.type().width());
  if (index >= v.elements().size())
    return {}; // undefined
  return FoldResult::constantValue(v.elements()[index]);
}

/// The integer indices of a CompositeExtract / CompositeInsert, or nullopt.
std::optional<std::vector<uint64_t>> indicesOf(const Operation &op) {
  Attribute indices = op.attr("indices");
  if (!indices || !indices.is(AttrKind::Array) || indices.elements().empty())
    return std::nullopt;
  std::vector<uint64_t> out;
  for (Attribute index : indices.elements()) {
    if (!index.is(AttrKind::Integer))
      return std::nullopt;
    out.push_back(index.bits());
  }
  return out;
}

/// CompositeExtract of a CompositeInsert: the inserted object when the indices are the same,
/// the extraction from the insert's composite when they part (neither is a prefix of the
/// other).
FoldResult extractOfInsert(Operation &op) {
  Operation *insert = op.operand(0).definingOp();
  if (!insert || insert->info().key != Op::CompositeInsert || insert->numOperands() != 2)
    return {};
  std::optional<std::vector<uint64_t>> from = indicesOf(op), into = indicesOf(*insert);
  if (!from || !into)
    return {};
  if (*from == *into && insert->operand(0).type() == op.result().type())
    return FoldResult::replaceWith(insert->operand(0));
  const size_t common = std::min(from->size(), into->size());
  if (std::equal(from->begin(), from->begin() + static_cast<std::ptrdiff_t>(common), into->begin()))
    return {}; // one path contains the other
  op.setOperand(0, insert->operand(1));
  return FoldResult::inPlace();
}

FoldResult compositeExtract(Operation &op, Context &ctx) {
  Type resultType = op.result().type();
  Attribute indices = op.attr("indices");
  if (!indices || !indices.is(AttrKind::Array) || indices.elements().empty())
    return {};
  if (FoldResult r = extractOfInsert(op))
    return r;
  Value base = op.operand(0);
  if (Attribute c = constantOf(base)) {
    for (Attribute index : indices.elements()) {
      if (!index.is(AttrKind::Integer) || !(c.is(AttrKind::Dense) || c.is(AttrKind::Array)) ||
          index.bits() >= c.elements().size())
        return {};
      c = c.elements()[index.bits()];
    }
    return FoldResult::constantValue(c);
  }
  // Of a CompositeConstruct with one constituent per element: that constituent (then the
  // rest of the indices from there).
  Operation *def = base.definingOp();
  if (!def || def->info().key != Op::CompositeConstruct)
    return {};
  Type bt = base.type();
  uint32_t elements = bt.is(TypeKind::Struct)         ? static_cast<uint32_t>(bt.members().size())
                      : bt.is(TypeKind::RuntimeArray) ? 0u
                                                      : bt.count();
  Attribute first = indices.elements().front();
  if (def->numOperands() != elements || !first.is(AttrKind::Integer) || first.bits() >= elements)
    return {};
  Value part = def->operand(static_cast<uint32_t>(first.bits()));
  if (indices.elements().size() == 1)
    return FoldResult::replaceWith(part);
  OperationState st(&op.info(), op.location());
  st.resultTypes.push_back(resultType);
  st.operands.push_back(part);
  st.addAttribute(ctx, "indices", attr::array(ctx, indices.elements().subspan(1)));
  Operation *n = Operation::create(std::move(st));
  op.block()->insertBefore(&op, n);
  return FoldResult::replaceWithOp(n);
}

/// `c` (a composite constant) with the element at `path` replaced by `object`.
Attribute replaceElement(Context &ctx, Attribute c, std::span<const uint64_t> path,
                         Attribute object, Type type) {
  if (path.empty())
    return object;
  if (!c || !(c.is(AttrKind::Dense) || c.is(AttrKind::Array)) ||
      path.front() >= c.elements().size())
    return {};
  Type elementType =
      type.is(TypeKind::Struct) ? type.members()[path.front()].type
      : type.is(TypeKind::Matrix) || type.is(TypeKind::Vector) || type.is(TypeKind::Array)
          ? type.elementType()
          : Type();
  if (!elementType)
    return {};
  std::vector<Attribute> parts(c.elements().begin(), c.elements().end());
  parts[path.front()] =
      replaceElement(ctx, parts[path.front()], path.subspan(1), object, elementType);
  if (!parts[path.front()])
    return {};
  return c.is(AttrKind::Dense) ? attr::dense(ctx, type, parts) : attr::array(ctx, parts);
}

/// CompositeInsert of a constant into a constant is a constant.
FoldResult compositeInsert(Operation &op, Context &ctx) {
  std::optional<std::vector<uint64_t>> path = indicesOf(op);
  Attribute object = constantOf(op.operand(0)), base = constantOf(op.operand(1));
  if (!path || !object || !base || op.numOperands() != 2)
    return {};
  if (Attribute folded = replaceElement(ctx, base, *path, object, op.result().type()))
    return FoldResult::constantValue(folded);
  return {};
}

/// An AccessChain whose base is an AccessChain: one chain from the inner base.
FoldResult accessChain(Operation &op, Context &) {
  // Decorations (NonUniform, ...) are attributes of the ops: chains that carry any stay.
  Operation *inner = op.numOperands() > 0 ? op.operand(0).definingOp() : nullptr;
  if (!inner || inner->info().key != Op::AccessChain || inner->numOperands() == 0 ||
      !op.attributes().empty() || !inner->attributes().empty())
    return {};
  std::vector<Value> operands = inner->operandValues();
  for (uint32_t i = 1; i < op.numOperands(); ++i)
    operands.push_back(op.operand(i));
  return withOp(op, Op::AccessChain, std::move(operands));
}

/// Select on a constant condition, or between one value twice.
FoldResult select(Operation &op, Context &) {
  Attribute c = constantOf(op.operand(0));
  if (c && scalarOf(c))
    return FoldResult::replaceWith(op.operand((scalarOf(c)->bits & 1) ? 1 : 2));
  if (op.operand(1) == op.operand(2))
    return FoldResult::replaceWith(op.operand(1));
  return {};
}

/// An op that undoes itself (SNegate, Not, LogicalNot, FNegate) applied twice.
FoldResult involution(Operation &op, Context &) {
  Operation *inner = op.operand(0).definingOp();
  if (inner && inner->info().key == op.info().key)
    return FoldResult::replaceWith(inner->operand(0));
  return {};
}

/// LogicalNot: an involution, and of an equality comparison the opposite comparison.
FoldResult logicalNot(Operation &op, Context &ctx) {
  if (FoldResult r = involution(op, ctx))
    return r;
  static const std::pair<OpKey, OpKey> opposite[] = {{Op::IEqual, Op::INotEqual},
                                                     {Op::INotEqual, Op::IEqual},
                                                     {Op::LogicalEqual, Op::LogicalNotEqual},
                                                     {Op::LogicalNotEqual, Op::LogicalEqual}};
  Operation *inner = op.operand(0).definingOp();
  for (const auto &p : opposite)
    if (inner && inner->info().key == p.first)
      return withOp(op, p.second, {inner->operand(0), inner->operand(1)});
  return {};
}

/// MLIR's identities of the integer and boolean binary ops (x + 0, x * 1, x & x, ...).
FoldResult identities(Operation &op, Context &ctx) {
  const OpKey key = op.info().key;
  Type t = op.result().type();
  if (!isIntOrBool(t) || op.numOperands() != 2)
    return {};
  Value a = op.operand(0), b = op.operand(1);
  auto same = [](Value v) { return FoldResult::replaceWith(v); };
  auto zero = [&]() {
    std::vector<FoldScalar> zeros(t.is(TypeKind::Vector) ? t.count() : 1);
    return FoldResult::constantValue(valueAttr(ctx, t, zeros));
  };
  const uint64_t ones = ~uint64_t(0);
  if (key == Op::IAdd) {
    if (isSplat(b, 0))
      return same(a);
    if (isSplat(a, 0))
      return same(b);
  } else if (key == Op::ISub) {
    if (isSplat(b, 0))
      return same(a);
    if (a == b)
      return zero();
  } else if (key == Op::IMul) {
    if (isSplat(b, 1))
      return same(a);
    if (isSplat(a, 1))
      return same(b);
    if (isSplat(a, 0) || isSplat(b, 0))
      return zero();
  } else if (key == Op::UDiv || key == Op::SDiv) {
    if (isSplat(b, 1))
      return same(a);
  } else if (key == Op::ShiftLeftLogical || key == Op::ShiftRightLogical ||
             key == Op::ShiftRightArithmetic) {
    if (isSplat(b, 0))
      return same(a);
  } else if (key == Op::BitwiseAnd) {
    if (isSplat(b, ones))
      return same(a);
    if (isSplat(a, ones))
      return same(b);
    if (isSplat(a, 0) || isSplat(b, 0))
      return zero();
    if (a == b)
      return same(a);
    // A zero extension from N bits (UConvert) under a mask whose low N bits are set: the
    // extension, whose other bits are zeros already.
    for (auto [ext, mask] : {std::pair{a, b}, std::pair{b, a}})
      if (Operation *def = ext.definingOp();
          def && def->info().key == Op::UConvert && def->numOperands() == 1 &&
          lowBitsSet(mask, elementOf(def->operand(0).type()).width()))
        return same(ext);
  } else if (key == Op::BitwiseOr) {
    if (isSplat(b, 0))
      return same(a);
    if (isSplat(a, 0))
      return same(b);
    if (isSplat(a, ones))
      return same(a);
    if (isSplat(b, ones))
      return same(b);
    if (a == b)
      return same(a);
  } else if (key == Op::BitwiseXor) {
    if (isSplat(b, 0))
      return same(a);
    if (isSplat(a, 0))
      return same(b);
    if (a == b)
      return zero();
  } else if (key == Op::LogicalAnd) {
    if (isSplat(b, 1))
      return same(a);
    if (isSplat(a, 1))
      return same(b);
    if (isSplat(a, 0))
      return same(a);
    if (isSplat(b, 0))
      return same(b);
  } else if (key == Op::LogicalOr) {
    if (isSplat(b, 0))
      return same(a);
    if (isSplat(a, 0))
      return same(b);
    if (isSplat(a, 1))
      return same(a);
    if (isSplat(b, 1))
      return same(b);
  }
  return {};
}

/// Structured control flow fixes some conditional branches: a selection header's (its merge
/// instruction must precede a conditional branch or a switch) and a loop's back edge (a loop
/// has exactly one, even when it is never taken).
bool structurallyRequired(const Operation &op) {
  Block *block = op.block();
  for (const Operation *o = block->front(); o; o = o->next())
    if (o->info().key == Op::SelectionMerge || o->info().key == Op::LoopMerge)
      return true;
  const Operation *owner = block->parentOp();
  if (owner && &owner->info() == &ops::selection() && block == owner->region(0).front())
    return true;
  for (const Successor &succ : op.successors()) {
    const Block *target = succ.block;
    if (!target)
      continue;
    for (const Operation *o = target->front(); o; o = o->next())
      if (o->info().key == Op::LoopMerge)
        return true; // a back edge to a loop kept as blocks (or an entry to it)
    const Operation *loop = target->parentOp();
    if (loop && &loop->info() == &ops::loop() && !loop->region(0).empty()) {
      const Operation *entry = loop->region(0).front()->terminator();
      if (entry && !entry->successors().empty() && entry->successors()[0].block == target)
        return true; // a back edge to the header of a loop region
    }
  }
  return false;
}

/// spirv.BranchConditional on a constant: spirv.Branch to the target it takes.
FoldResult branchConditional(Operation &op, Context &ctx) {
  std::optional<FoldScalar> s = scalarOf(constantOf(op.operand(0)));
  if (!s || op.successors().size() != 2 || structurallyRequired(op))
    return {};
  uint32_t taken = (s->bits & 1) ? 0 : 1;
  std::vector<Value> args = op.successorOperands(taken);
  OpBuilder b(ctx);
  b.setInsertionPoint(&op);
  b.setLocation(op.location());
  return FoldResult::replaceWithOp(
      b.create<BranchOp>(op.successors()[taken].block, args).operation());
}

} // namespace

void declareRewrites(FolderTable &t) {
  t[Op::Bitcast].rewrite = bitcast;
  t[Op::CompositeConstruct].rewrite = compositeConstruct;
  t[Op::CompositeExtract].rewrite = compositeExtract;
  t[Op::VectorExtractDynamic].rewrite = vectorExtractDynamic;
  t[Op::CompositeInsert].rewrite = compositeInsert;
  t[Op::AccessChain].rewrite = accessChain;
  t[Op::Select].rewrite = select;
  for (OpKey key : {Op::SNegate, Op::Not, Op::FNegate})
    t[key].rewrite = involution;
  t[Op::LogicalNot].rewrite = logicalNot;
  for (OpKey key : {Op::IAdd, Op::ISub, Op::IMul, Op::UDiv, Op::SDiv, Op::ShiftLeftLogical,
                    Op::ShiftRightLogical, Op::ShiftRightArithmetic, Op::BitwiseAnd, Op::BitwiseOr,
                    Op::BitwiseXor, Op::LogicalAnd, Op::LogicalOr})
    t[key].rewrite = identities;
  t[Op::BranchConditional].rewrite = branchConditional;
}

} // namespace spire::dialect::detail
