// SSA dominance in the structured IR: the verifier rejects a use its definition does not
// dominate, by MLIR's rules for regions.
#include "spire/dialect/Dominance.h"
#include "spire/dialect/Text.h"
#include "spire/dialect/Verifier.h"

#include <gtest/gtest.h>

#include <string>

using namespace spire;
using namespace spire::dialect;

namespace {

/// Parses a function body, lets `edit` move ops around (the parser itself refuses text whose
/// uses come before their definitions), and verifies: the verifier's message, or "".
std::string verifyEdited(std::string_view body, void (*edit)(Operation &fn)) {
  std::string text = "spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {\n"
                     "  spirv.func @f(%arg0: i32, %c: i1) \"None\" {\n" +
                     std::string(body) + "\n  }\n}\n";
  Context ctx;
  Expected<OwningOp> op = parse(ctx, text);
  if (!op)
    return "parse: " + op.error().message;
  if (!edit)
    return verify(**op) ? "" : verify(**op).error().message;
  if (!verify(**op))
    return "does not verify before the edit";
  edit(*(*op)->region().front()->front());
  Status s = verify(**op);
  return s ? "" : s.error().message;
}

Operation *nthOp(Block *b, int n) {
  Operation *op = b->front();
  while (n-- > 0)
    op = op->next();
  return op;
}

std::string verifyFunction(std::string_view body) { return verifyEdited(body, nullptr); }

TEST(DialectDominance, UsesSeeDefinitionsTheyFollowOrAreDominatedBy) {
  EXPECT_EQ(verifyFunction("    %0 = spirv.IAdd %arg0, %arg0 : i32\n"
                           "    %1 = spirv.IAdd %0, %0 : i32\n"
                           "    spirv.Return"),
            "");
  // A block argument and a value of a dominating block.
  EXPECT_EQ(verifyFunction("    %0 = spirv.IAdd %arg0, %arg0 : i32\n"
                           "    spirv.Branch ^bb1(%0 : i32)\n"
                           "  ^bb1(%x: i32):\n"
                           "    %1 = spirv.IAdd %x, %0 : i32\n"
                           "    spirv.Return"),
            "");
  // Inside a selection's region, the function's values are visible.
  EXPECT_EQ(verifyFunction("    %0 = spirv.IAdd %arg0, %arg0 : i32\n"
                           "    spirv.mlir.selection {\n"
                           "      spirv.BranchConditional %c, ^t, ^m\n"
                           "    ^t:\n"
                           "      %1 = spirv.IAdd %0, %0 : i32\n"
                           "      spirv.Branch ^m\n"
                           "    ^m:\n"
                           "      spirv.mlir.merge\n"
                           "    }\n"
                           "    spirv.Return"),
            "");
}

TEST(DialectDominance, UsesBeforeDefinitionsOrFromSiblingBranchesAreRejected) {
  const std::string rejected = "is not defined where the op can use it";
  // The definition moved after its use, in the same block.
  EXPECT_EQ(verifyEdited("    %0 = spirv.IAdd %arg0, %arg0 : i32\n"
                         "    %1 = spirv.IAdd %0, %0 : i32\n"
                         "    spirv.Return",
                         [](Operation &fn) {
                           Block *b = fn.region().front();
                           nthOp(b, 0)->moveBefore(nthOp(b, 2));
                         }),
            "'spirv.IAdd' op operand 0 " + rejected +
                " (its definition does not dominate the use)");
  // A definition moved into one arm of a branch, used in the join.
  EXPECT_NE(verifyEdited("    %0 = spirv.IAdd %arg0, %arg0 : i32\n"
                         "    spirv.BranchConditional %c, ^a, ^b\n"
                         "  ^a:\n"
                         "    spirv.Branch ^j\n"
                         "  ^b:\n"
                         "    spirv.Branch ^j\n"
                         "  ^j:\n"
                         "    %1 = spirv.IAdd %0, %0 : i32\n"
                         "    spirv.Return",
                         [](Operation &fn) {
                           Block *a = fn.region().front()->next();
                           fn.region().front()->front()->moveBefore(a->front());
                         })
                .find(rejected),
            std::string::npos);
  // A definition moved into a selection's region, used after it.
  EXPECT_NE(verifyEdited("    %0 = spirv.IAdd %arg0, %arg0 : i32\n"
                         "    spirv.mlir.selection {\n"
                         "      spirv.BranchConditional %c, ^t, ^m\n"
                         "    ^t:\n"
                         "      spirv.Branch ^m\n"
                         "    ^m:\n"
                         "      spirv.mlir.merge\n"
                         "    }\n"
                         "    %1 = spirv.IAdd %0, %0 : i32\n"
                         "    spirv.Return",
                         [](Operation &fn) {
                           Block *entry = fn.region().front();
                           Operation *selection = nthOp(entry, 1);
                           Block *t = selection->region().front()->next();
                           entry->front()->moveBefore(t->front());
                         })
                .find(rejected),
            std::string::npos);
}

TEST(DialectDominance, UnreachableBlocksSeeTheirRegion) {
  EXPECT_EQ(verifyFunction("    spirv.Return\n"
                           "  ^dead:\n"
                           "    %0 = spirv.IAdd %arg0, %arg0 : i32\n"
                           "    spirv.Branch ^dead2\n"
                           "  ^dead2:\n"
                           "    %1 = spirv.IAdd %0, %0 : i32\n"
                           "    spirv.Return"),
            "");
}

TEST(DialectDominance, RegionGraphFollowsTerminatorSuccessors) {
  Context ctx;
  Expected<OwningOp> op =
      parse(ctx, "spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {\n"
                 "  spirv.func @f(%c: i1) \"None\" {\n"
                 "    spirv.BranchConditional %c, ^a, ^b\n"
                 "  ^a:\n    spirv.Branch ^b\n"
                 "  ^b:\n    spirv.Return\n"
                 "  }\n}\n");
  ASSERT_TRUE(op) << op.error().format();
  Operation *fn = (*op)->region().front()->front();
  RegionGraph g(fn->region());
  ASSERT_EQ(g.graph().size(), 3u);
  EXPECT_EQ(g.graph().successors(0).size(), 2u);
  EXPECT_EQ(g.graph().predecessors(2).size(), 2u);
  DominanceInfo dom(*fn);
  EXPECT_TRUE(dom.dominates(g.block(0), g.block(2)));
  EXPECT_FALSE(dom.dominates(g.block(1), g.block(2)));
}

} // namespace
