// Word splitting of assembly text, as spirv-as splits it.
#include "../../../src/asm/Lexer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace spire::spvasm;

namespace {

std::vector<std::string> wordsOf(std::string_view text) {
  std::vector<std::string> words;
  Lexer::forEachWord(text, [&](std::string_view w) { words.emplace_back(w); });
  return words;
}

using Words = std::vector<std::string>;

} // namespace

TEST(AsLexer, BlanksCommentsQuotesAndEscapes) {
  EXPECT_EQ(wordsOf(" a\tb\r\nc ;comment d\n e;f"), (Words{"a", "b", "c", "e"}));
  EXPECT_EQ(wordsOf(R"(x "a b;c" y)"), (Words{"x", "\"a b;c\"", "y"}));
  EXPECT_EQ(wordsOf(R"(a\ b c\;d e)"), (Words{"a\\ b", "c\\;d", "e"}));
  EXPECT_EQ(wordsOf(R"("a\"b c" d)"), (Words{"\"a\\\"b c\"", "d"}));
  // Quoting toggles at each unescaped quote, wherever it is in the word.
  EXPECT_EQ(wordsOf(R"(a"b c"d e)"), (Words{"a\"b c\"d", "e"}));
  // A string may span lines.
  EXPECT_EQ(wordsOf("\"a\nb\" c"), (Words{"\"a\nb\"", "c"}));
  // Vertical tab and form feed are not blanks.
  EXPECT_EQ(wordsOf("a\vb\fc d"), (Words{"a\vb\fc", "d"}));
  // A NUL byte ends the text, even in a comment or a string.
  EXPECT_EQ(wordsOf(std::string_view("a b\0c d", 7)), (Words{"a", "b"}));
  EXPECT_EQ(wordsOf(std::string_view("a ;x\0\nb", 7)), (Words{"a"}));
  EXPECT_EQ(wordsOf(std::string_view("\"a\0b\" c", 7)), (Words{"\"a"}));
}

TEST(AsLexer, PositionsAndInstructionStarts) {
  Lexer lex("  %x = OpTypeInt 32 0\n\tOpNop \"a\nb\" c");
  ASSERT_TRUE(lex.skipBlanks());
  EXPECT_EQ(lex.position().column, 2u);
  TextPosition end;
  std::string_view w = lex.word(end);
  EXPECT_EQ(w, "%x");
  EXPECT_TRUE(lex.startsInstruction(w, end)); // an id followed by '='
  lex.moveTo(end);
  ASSERT_TRUE(lex.skipBlanks());
  w = lex.word(end);
  EXPECT_EQ(w, "=");
  EXPECT_FALSE(lex.startsInstruction(w, end));
  lex.moveTo(end);
  ASSERT_TRUE(lex.skipBlanks());
  EXPECT_TRUE(lex.atOpcode());
  // Skip to the second line.
  for (int i = 0; i < 4; ++i) {
    lex.word(end);
    lex.moveTo(end);
    ASSERT_TRUE(lex.skipBlanks());
  }
  EXPECT_EQ(lex.word(end), "\"a\nb\"");
  EXPECT_EQ(lex.position().line, 1u);
  EXPECT_EQ(lex.position().column, 7u);
  // Newlines inside a word count as lines.
  EXPECT_EQ(end.line, 2u);
  EXPECT_EQ(end.column, 2u);
  lex.moveTo(end);
  ASSERT_TRUE(lex.skipBlanks());
  EXPECT_EQ(Lexer::location(lex.position()).line, 3u);
  EXPECT_EQ(Lexer::location(lex.position()).column, 4u);
  w = lex.word(end);
  EXPECT_FALSE(lex.startsInstruction(w, end)); // "%c" with no '=' after it is not one either
  lex.moveTo(end);
  EXPECT_FALSE(lex.skipBlanks());
}
