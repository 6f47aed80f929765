#include "spire/support/Diagnostic.h"

#include <gtest/gtest.h>

namespace spire {
namespace {

TEST(Diagnostic, FormatsEachKindOfLocationOnOneLine) {
  EXPECT_EQ(makeError(Location::text(3, 7), "bad\ntoken").format("a.spvasm"),
            "a.spvasm:3:7: error: bad token");
  EXPECT_EQ(makeError(Location::binary(12, 4), "no such id").format("a.spv"),
            "a.spv: error: word 12 (instruction 4): no such id");
  EXPECT_EQ(makeError(Location::container("DXIL", 96), "truncated").format("a.dxil"),
            "a.dxil: error: part DXIL, byte 96: truncated");
  EXPECT_EQ(makeError(Location::container("", 4), "bad magic").format("a.dxil"),
            "a.dxil: error: byte 4: bad magic");
  EXPECT_EQ(makeError(Location::bitcode("FUNCTION_BLOCK", 12, 4567), "bad operand").format("a.bc"),
            "a.bc: error: FUNCTION_BLOCK record 12 (bit 4567): bad operand");
  EXPECT_EQ(makeError({}, "plain").format(), "<input>: error: plain");
}

TEST(Diagnostic, NotesFollowOnLinesOfTheirOwn) {
  Diagnostic d = makeError(Location::text(3, 7), "use of value '%x' expects another type");
  d.attachNote(Location::text(2, 5), "prior use here");
  EXPECT_EQ(d.format("a.mlir"), "a.mlir:3:7: error: use of value '%x' expects another type");
  EXPECT_EQ(d.formatWithNotes("a.mlir"), "a.mlir:3:7: error: use of value '%x' expects another "
                                         "type\na.mlir:2:5: note: prior use here");
  ASSERT_EQ(d.notes.size(), 1u);
  EXPECT_EQ(d.note(0).severity, Severity::Note);
  EXPECT_EQ(d.note(0).location.line, 2u);
  EXPECT_EQ(makeError({}, "plain").formatWithNotes(), "<input>: error: plain");
}

TEST(Diagnostic, LongScopesAreTruncatedNotOverrun) {
  Location l = Location::bitcode("A_VERY_LONG_BLOCK_NAME_INDEED_YES", 0, 0);
  EXPECT_EQ(l.scopeName().size(), sizeof(l.scope) - 1);
}

} // namespace
} // namespace spire
