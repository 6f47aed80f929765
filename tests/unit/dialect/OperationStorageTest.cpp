// An op is one allocation with its results, operand slots and attributes; operands that outgrow
// the slots move to an array of their own and back, attributes added past those the op was made
// with to an array of their own. The use lists follow every move; results find their op and
// arguments their block.
#include "spire/dialect/IR.h"
#include "spire/dialect/Ops.h"
#include "spire/dialect/Text.h"
#include "spire/dialect/Verifier.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace spire::dialect {
namespace {

size_t usesOf(Value v) {
  size_t n = 0;
  for (OpOperand *u = v.firstUse(); u; u = u->nextUse())
    ++n;
  return n;
}

TEST(DialectOperationStorage, OperandsGrowPastTheirSlotsAndShrinkBack) {
  constexpr std::string_view kText = R"(spirv.module Logical GLSL450 {
  spirv.func @f(%arg0: f32, %arg1: f32) -> f32 "None" {
    %0 = spirv.FAdd %arg0, %arg1 : f32
    spirv.ReturnValue %0 : f32
  }
}
)";
  Context ctx;
  Expected<OwningOp> module = parse(ctx, kText);
  ASSERT_TRUE(bool(module)) << module.error().format();
  Block *entry = (*module)->region().front()->front()->region().front();
  Operation *add = entry->front();
  ASSERT_EQ(add->name(), "spirv.FAdd");
  Value a = entry->argument(0), b = entry->argument(1);
  EXPECT_EQ(add->location().kind, Location::Kind::Text);
  EXPECT_EQ(add->location().line, 3u);

  std::vector<Value> five = {a, b, a, b, a};
  add->setOperands(five);
  EXPECT_EQ(add->numOperands(), 5u);
  EXPECT_EQ(usesOf(a), 3u);
  EXPECT_EQ(usesOf(b), 2u);
  for (uint32_t i = 0; i < 5; ++i) {
    EXPECT_EQ(add->operand(i), five[i]);
    EXPECT_EQ(add->operandSlot(i).owner(), add);
    EXPECT_EQ(add->operandSlot(i).index(), i);
  }
  std::vector<Value> one = {b};
  add->setOperands(one);
  EXPECT_EQ(usesOf(a), 0u);
  EXPECT_EQ(usesOf(b), 1u);
  std::vector<Value> two = {a, b};
  add->setOperands(two);
  EXPECT_EQ(usesOf(a), 1u);
  EXPECT_EQ(usesOf(b), 1u);
  EXPECT_TRUE(bool(verify(**module)));
  EXPECT_EQ(toString(**module), kText);

  // Erasing the op after its result's use is gone releases its operands' uses.
  Operation *ret = add->next();
  std::vector<Value> arg = {a};
  ret->setOperands(arg);
  add->erase();
  EXPECT_EQ(usesOf(a), 1u);
  EXPECT_EQ(usesOf(b), 0u);
}

std::vector<std::string_view> attrNames(const Operation &op) {
  std::vector<std::string_view> names;
  for (const NamedAttribute &a : op.attributes())
    names.push_back(a.name);
  return names;
}

TEST(DialectOperationStorage, AttributesStaySortedAsTheyAreAddedAndRemoved) {
  Context ctx;
  const OpInfo *info = findOp("spirv.Constant");
  ASSERT_NE(info, nullptr);
  Type i32 = ctx.integer(32);
  OperationState st(info);
  st.resultTypes.push_back(i32);
  st.addAttribute(ctx, "value", attr::integer(ctx, i32, 7));
  st.addAttribute(ctx, "b", attr::integer(ctx, i32, 2));
  OwningOp op(Operation::create(std::move(st)));
  EXPECT_EQ(attrNames(*op), (std::vector<std::string_view>{"b", "value"}));
  // Replacing a value keeps the op's attributes where they are.
  op->setAttr(ctx, "b", attr::integer(ctx, i32, 3));
  EXPECT_EQ(op->attr("b"), attr::integer(ctx, i32, 3));
  // Added ones go past the two it was made with, in name order, and keep the values before.
  for (std::string_view name : {"e", "a", "d", "c", "f"})
    op->setAttr(ctx, name, attr::string(ctx, name));
  EXPECT_EQ(attrNames(*op), (std::vector<std::string_view>{"a", "b", "c", "d", "e", "f", "value"}));
  EXPECT_EQ(op->attr("value"), attr::integer(ctx, i32, 7));
  EXPECT_EQ(op->attr("d"), attr::string(ctx, "d"));
  op->removeAttr("c");
  op->removeAttr("value");
  op->removeAttr("missing");
  EXPECT_EQ(attrNames(*op), (std::vector<std::string_view>{"a", "b", "d", "e", "f"}));
  EXPECT_FALSE(bool(op->attr("value")));
  op->setAttr(ctx, "value", attr::integer(ctx, i32, 9));
  EXPECT_EQ(attrNames(*op), (std::vector<std::string_view>{"a", "b", "d", "e", "f", "value"}));
  EXPECT_EQ(op->attr("value"), attr::integer(ctx, i32, 9));

  // An op made without attributes takes its first one.
  OperationState bare(info);
  bare.resultTypes.push_back(i32);
  OwningOp other(Operation::create(std::move(bare)));
  EXPECT_TRUE(other->attributes().empty());
  other->setAttr(ctx, "value", attr::integer(ctx, i32, 1));
  EXPECT_EQ(attrNames(*other), (std::vector<std::string_view>{"value"}));
}

TEST(DialectOperationStorage, ResultsFindTheirOpAndArgumentsTheirBlock) {
  Context ctx;
  Type i32 = ctx.integer(32), f32 = ctx.floating(32);
  Region region;
  Block *block = region.addBlock();
  Value arg0 = block->addArgument(i32), arg1 = block->addArgument(f32);
  OperationState st(findOp("spirv.Constant"));
  st.resultTypes = {i32, f32, i32};
  st.operands = {arg1, arg0};
  st.addAttribute(ctx, "value", attr::integer(ctx, i32, 1));
  Operation *op = Operation::create(std::move(st));
  block->push_back(op);
  for (uint32_t i = 0; i < 3; ++i) {
    Value r = op->result(i);
    EXPECT_EQ(r.definingOp(), op);
    EXPECT_FALSE(r.isBlockArgument());
    EXPECT_EQ(r.ownerBlock(), nullptr);
    EXPECT_EQ(r.index(), i);
  }
  EXPECT_EQ(op->result(1).type(), f32);
  EXPECT_EQ(op->operand(0), arg1);
  EXPECT_EQ(op->attr("value"), attr::integer(ctx, i32, 1));
  EXPECT_TRUE(arg1.isBlockArgument());
  EXPECT_EQ(arg1.ownerBlock(), block);
  EXPECT_EQ(arg1.definingOp(), nullptr);
  EXPECT_EQ(arg1.index(), 1u);
  EXPECT_EQ(usesOf(arg0), 1u);
  // Growing the operands past the slots keeps the results and attributes as they were.
  std::vector<Value> three = {arg0, arg0, arg1};
  op->setOperands(three);
  EXPECT_EQ(usesOf(arg0), 2u);
  EXPECT_EQ(op->result(2).definingOp(), op);
  EXPECT_EQ(op->attr("value"), attr::integer(ctx, i32, 1));
  op->erase();
  EXPECT_EQ(usesOf(arg0), 0u);
  block->eraseArgument(0);
  EXPECT_EQ(arg1.index(), 0u);
  EXPECT_EQ(block->argument(0).ownerBlock(), block);
}

} // namespace
} // namespace spire::dialect
