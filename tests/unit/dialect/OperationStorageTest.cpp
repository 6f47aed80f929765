// An op is one allocation with its results and operand slots; operands that outgrow the slots
// move to an array of their own and back. The use lists follow every move.
#include "spire/dialect/IR.h"
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

} // namespace
} // namespace spire::dialect
