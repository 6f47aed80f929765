// Folding an op as its record says (fold, Fold.h): the element-wise driver over scalar and
// vector constants, the op's simplifications after it, the folders attached to the records, and
// the scalar constants they work on.
#include "OpFolder.h"
#include "OpOverlay.h"

#include "spire/dialect/Attributes.h"
#include "spire/dialect/StructuralOps.h"
#include "spire/support/Half.h"

namespace spire::dialect {

namespace detail {

uint64_t maskOf(unsigned width) { return width >= 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1; }

int64_t signExtend(uint64_t bits, unsigned width) {
  if (width >= 64)
    return static_cast<int64_t>(bits);
  uint64_t sign = uint64_t(1) << (width - 1);
  bits &= maskOf(width);
  return static_cast<int64_t>((bits ^ sign) - sign);
}

double roundTo(double x, unsigned width) {
  if (width == 32)
    return static_cast<double>(static_cast<float>(x));
  if (width == 16) // to the nearest half-precision value, ties to even
    return halfToDouble(halfFromDouble(x));
  return x;
}

double roundTo(double x, Type t) { return floatOfBits(t, bitsOfFloat(t, x)); }

std::optional<FoldScalar> scalarOf(Attribute a) {
  if (!a)
    return std::nullopt;
  if (a.is(AttrKind::Bool))
    return FoldScalar{a.boolValue() ? 1u : 0u, 0};
  if (a.is(AttrKind::Integer))
    return FoldScalar{a.bits(), 0};
  if (a.is(AttrKind::Float))
    return FoldScalar{0, a.floatValue()};
  return std::nullopt;
}

Attribute scalarAttr(Context &ctx, Type t, const FoldScalar &s) {
  if (t.isBool())
    return attr::boolean(ctx, s.bits & 1);
  if (t.is(TypeKind::Integer))
    return attr::integer(ctx, t, static_cast<int64_t>(s.bits & maskOf(t.width())));
  return attr::floating(ctx, t, roundTo(s.f, t));
}

Type elementOf(Type t) { return t.is(TypeKind::Vector) ? t.elementType() : t; }

/// The element constants of a scalar or vector constant value.
std::optional<std::vector<FoldScalar>> elementsOf(Attribute a, Type t) {
  std::vector<FoldScalar> out;
  if (t.is(TypeKind::Vector)) {
    if (!a || !a.is(AttrKind::Dense) || a.elements().size() != t.count())
      return std::nullopt;
    for (Attribute e : a.elements()) {
      std::optional<FoldScalar> s = scalarOf(e);
      if (!s)
        return std::nullopt;
      out.push_back(*s);
    }
    return out;
  }
  std::optional<FoldScalar> s = scalarOf(a);
  if (!s)
    return std::nullopt;
  out.push_back(*s);
  return out;
}

Attribute valueAttr(Context &ctx, Type t, const std::vector<FoldScalar> &elems) {
  if (!t.is(TypeKind::Vector))
    return scalarAttr(ctx, t, elems.front());
  std::vector<Attribute> as;
  for (const FoldScalar &s : elems)
    as.push_back(scalarAttr(ctx, t.elementType(), s));
  return attr::dense(ctx, t, as);
}

/// The value of `v` when a spirv.Constant defines it.
Attribute constantOf(Value v) {
  Operation *def = v ? v.definingOp() : nullptr;
  if (!def || &def->info() != &ops::constant())
    return {};
  return def->attr("value");
}

void attachFolders(const OpRecords &records) {
  FolderTable t;
  declareElementFolders(t);
  declareRewrites(t);
  t.forEach([&](OpKey key, OpFolder &folder) {
    if (OpInfo *info = records.find(key)) {
      info->folder = &records.store().folders.emplace_back(std::move(folder));
    }
  });
}

namespace {

/// Element-wise folding of an op whose operands are all constants.
FoldResult foldElements(Operation &op, const OpFolder &folder, Context &ctx) {
  Type resultType = op.result().type();
  std::vector<std::vector<FoldScalar>> operands;
  for (uint32_t i = 0; i < op.numOperands(); ++i) {
    Value v = op.operand(i);
    std::optional<std::vector<FoldScalar>> es = elementsOf(constantOf(v), v.type());
    if (!es)
      return {};
    operands.push_back(std::move(*es));
  }
  if (folder.typedOperand >= op.numOperands())
    return {};
  size_t n = resultType.is(TypeKind::Vector) ? resultType.count() : 1;
  Type in = elementOf(op.operand(folder.typedOperand).type()), out = elementOf(resultType);
  std::vector<FoldScalar> results;
  for (size_t k = 0; k < n; ++k) {
    std::vector<FoldScalar> args;
    for (const auto &o : operands) {
      if (o.size() != n && o.size() != 1)
        return {};
      args.push_back(o.size() == 1 ? o[0] : o[k]);
    }
    // Operands of an integer op that are floats, or the reverse, mean a malformed op.
    if (!folder.anyElementType && !in.is(TypeKind::Integer) && !in.is(TypeKind::Float))
      return {};
    std::optional<FoldScalar> r = folder.element(args, in, out);
    if (!r)
      return {};
    results.push_back(*r);
  }
  return FoldResult::constantValue(valueAttr(ctx, resultType, results));
}

} // namespace

} // namespace detail

FoldResult fold(Operation &op, Context &context) {
  detail::attachFoldersOnce();
  const OpFolder *folder = op.info().folder;
  // An op of a result-typed instruction without its one result is malformed: left alone.
  if (!folder || (op.info().hasResultType() && op.numResults() != 1))
    return {};
  if (folder->element && op.numOperands() != 0)
    if (FoldResult r = detail::foldElements(op, *folder, context))
      return r;
  return folder->rewrite ? folder->rewrite(op, context) : FoldResult{};
}

} // namespace spire::dialect
