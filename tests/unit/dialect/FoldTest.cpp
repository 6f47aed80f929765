// Folding as the op records declare it (dialect::fold, OpInfo::folder): what each op folds to,
// found by its key, without a pass around it and without changing the IR except where it says.
#include "spire/dialect/Fold.h"
#include "spire/dialect/Builder.h"
#include "spire/dialect/GeneratedOps.h"
#include "spire/dialect/StructuralOps.h"
#include "spire/dialect/Text.h"

#include "dialect/OpOverlay.h"

#include <gtest/gtest.h>

namespace spire::dialect {
namespace {

using Op = grammar::Op;

/// A function body to build ops in, owned by a module.
struct Body {
  Context ctx;
  OpBuilder b{ctx};
  OwningOp module;
  Type i32 = ctx.integer(32), f32 = ctx.floating(32), i1 = ctx.boolean();
  FuncOp func;

  Body() {
    module = OwningOp(
        ModuleOp::create(b, grammar::AddressingModel::Logical, grammar::MemoryModel::GLSL450)
            .operation());
    b.setInsertionPointToEnd(ModuleOp(module.get()).body());
    Type params[] = {i32, i32};
    func = b.create<FuncOp>("f", ctx.function(params, {}));
    b.setInsertionPointToEnd(func.entryBlock());
  }
  Value constant(int64_t v) { return ConstantOp::integer(b, i32, v).result(); }
  size_t opsInBody() const {
    size_t n = 0;
    for (Operation *o = func.entryBlock()->front(); o; o = o->next())
      ++n;
    return n;
  }
};

TEST(DialectFold, TheRecordsCarryTheFoldersByOpcode) {
  // (fold() attaches them when first called; the records are read here directly.)
  detail::attachFoldersOnce();
  for (OpKey key :
       {OpKey(Op::IAdd), OpKey(Op::FOrdLessThan), OpKey(Op::Select), OpKey(Op::CompositeExtract),
        OpKey(Op::BranchConditional), OpKey(grammar::GlslStd450Inst::FClamp),
        OpKey(grammar::OpenclStd100Inst::s_abs)})
    EXPECT_NE(findOp(key)->folder, nullptr) << findOp(key)->name;
  for (OpKey key : {OpKey(Op::Load), OpKey(Op::Store), OpKey(grammar::GlslStd450Inst::Sin),
                    OpKey(DialectOp::Constant)})
    EXPECT_EQ(findOp(key)->folder, nullptr) << findOp(key)->name;
}

TEST(DialectFold, ConstantsFoldElementWiseWithoutTouchingTheIr) {
  Body t;
  IAddOp add = t.b.create<IAddOp>(t.i32, t.constant(40), t.constant(2));
  const size_t before = t.opsInBody();
  FoldResult r = fold(*add.operation(), t.ctx);
  ASSERT_EQ(r.kind, FoldResult::Kind::Constant);
  EXPECT_EQ(toString(r.constant), "42 : i32");
  EXPECT_EQ(t.opsInBody(), before);
  // Division by zero is undefined: nothing.
  SDivOp div = t.b.create<SDivOp>(t.i32, t.constant(1), t.constant(0));
  EXPECT_EQ(fold(*div.operation(), t.ctx).kind, FoldResult::Kind::None);
}

TEST(DialectFold, SimplificationsGiveAValueOrANewOp) {
  Body t;
  Value x = t.func.argument(0), y = t.func.argument(1);
  // x + 0 is x.
  IAddOp add = t.b.create<IAddOp>(t.i32, x, t.constant(0));
  FoldResult r = fold(*add.operation(), t.ctx);
  ASSERT_EQ(r.kind, FoldResult::Kind::Value);
  EXPECT_EQ(r.value, x);
  // x ^ x is a zero constant.
  BitwiseXorOp x0r = t.b.create<BitwiseXorOp>(t.i32, x, x);
  r = fold(*x0r.operation(), t.ctx);
  ASSERT_EQ(r.kind, FoldResult::Kind::Constant);
  EXPECT_EQ(toString(r.constant), "0 : i32");
  // !(x == y) is a new x != y right before it.
  Value eq = t.b.create<IEqualOp>(t.i1, x, y).result();
  LogicalNotOp negation = t.b.create<LogicalNotOp>(t.i1, eq);
  r = fold(*negation.operation(), t.ctx);
  ASSERT_EQ(r.kind, FoldResult::Kind::NewOp);
  EXPECT_EQ(r.newOp->info().key, OpKey(Op::INotEqual));
  EXPECT_EQ(r.newOp->next(), negation.operation());
  // Not constants, and nothing to simplify.
  EXPECT_EQ(fold(*eq.definingOp(), t.ctx).kind, FoldResult::Kind::None);
}

TEST(DialectFold, AMaskOverAZeroExtensionIsTheExtension) {
  Body t;
  Type i8 = t.ctx.integer(8);
  Value narrow = t.b.create<UndefOp>(i8).result();
  Value zext = t.b.create<UConvertOp>(t.i32, narrow).result();
  // The low 8 bits set, whatever the others (either operand order): the extension.
  for (int64_t mask : {0xFF, 0x12345FF}) {
    BitwiseAndOp masked = t.b.create<BitwiseAndOp>(t.i32, zext, t.constant(mask));
    FoldResult r = fold(*masked.operation(), t.ctx);
    ASSERT_EQ(r.kind, FoldResult::Kind::Value) << mask;
    EXPECT_EQ(r.value, zext);
    BitwiseAndOp swapped = t.b.create<BitwiseAndOp>(t.i32, t.constant(mask), zext);
    r = fold(*swapped.operation(), t.ctx);
    ASSERT_EQ(r.kind, FoldResult::Kind::Value) << mask;
    EXPECT_EQ(r.value, zext);
  }
  // A bit of the narrow value cleared: it stays.
  BitwiseAndOp clears = t.b.create<BitwiseAndOp>(t.i32, zext, t.constant(0xFE));
  EXPECT_EQ(fold(*clears.operation(), t.ctx).kind, FoldResult::Kind::None);
  // A sign extension is not a zero extension.
  Value sext = t.b.create<SConvertOp>(t.i32, narrow).result();
  BitwiseAndOp signExtended = t.b.create<BitwiseAndOp>(t.i32, sext, t.constant(0xFF));
  EXPECT_EQ(fold(*signExtended.operation(), t.ctx).kind, FoldResult::Kind::None);
}

} // namespace
} // namespace spire::dialect
