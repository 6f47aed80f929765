// The AmberScript tokenizer's rules, each as amber's tokenizer applies it.
#include "spire/run/ScriptTokenizer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace spire::run {
namespace {

std::vector<Token> tokens(std::string_view text) {
  ScriptTokenizer tok(text);
  std::vector<Token> out;
  for (Token t = tok.next(); !t.isEnd(); t = tok.next())
    out.push_back(t);
  return out;
}

std::string kinds(std::string_view text) {
  std::string out;
  for (const Token &t : tokens(text)) {
    switch (t.kind) {
    case TokenKind::EndOfLine:
      out += "EOL ";
      break;
    case TokenKind::Identifier:
      out += "id(" + t.text + ") ";
      break;
    case TokenKind::String:
      out += "str(" + t.text + ") ";
      break;
    case TokenKind::Integer:
      out += "int(" + t.text + ") ";
      break;
    case TokenKind::Double:
      out += "dbl(" + t.text + ") ";
      break;
    case TokenKind::Hex:
      out += "hex(" + t.text + ") ";
      break;
    default:
      break;
    }
  }
  return out;
}

TEST(ScriptTokenizer, NewlinesAreTokensAndCommentsStartWhereATokenWould) {
  EXPECT_EQ(kinds("A B\nC # comment\n"), "id(A) id(B) EOL id(C) EOL ");
  EXPECT_EQ(kinds("1 2#x"), "int(1) int(2) ");
  EXPECT_EQ(kinds("END#x"), "id(END#x) ");
}

TEST(ScriptTokenizer, TabsSeparateTokensButDoNotEndIdentifiers) {
  EXPECT_EQ(kinds("EXPECT\tb"), "id(EXPECT\tb) ");
  EXPECT_EQ(kinds("1\t2"), "int(1) int(2) ");
  EXPECT_EQ(kinds("a(b,c)"), "id(a) id(() id(b) id(,) id(c) id()) ");
}

TEST(ScriptTokenizer, ALoneBackslashBeforeANewlineJoinsLines) {
  EXPECT_EQ(kinds("A \\\nB"), "id(A) id(B) ");
  EXPECT_EQ(kinds("A \\\r\nB"), "id(A) id(B) ");
  EXPECT_EQ(kinds("1\\\n2"), "int(1) int(2) ");
  EXPECT_EQ(kinds("A \\ \nB"), "id(A) id(\\) EOL id(B) ");
  EXPECT_EQ(kinds("ABC\\\nB"), "id(ABC\\) EOL id(B) ");
  ScriptTokenizer tok("A \\\nB\nC");
  tok.next();
  EXPECT_EQ(tok.next().line, 2u);
  tok.next();
  EXPECT_EQ(tok.next().line, 3u);
}

TEST(ScriptTokenizer, NumbersStopWhereStrtodStops) {
  EXPECT_EQ(kinds("0:1"), "int(0) id(:1) ");
  EXPECT_EQ(kinds("1e3"), "int(1) id(e3) ");
  EXPECT_EQ(kinds("1.5e3 .0001 -0.0"), "dbl(1.5e3) dbl(.0001) dbl(-0.0) ");
  EXPECT_EQ(kinds("0.01%"), "dbl(0.01) id(%) ");
  EXPECT_EQ(kinds("0x10 -0x10"), "hex(0x10) int(-0) id(x10) ");
  EXPECT_EQ(kinds("+1 inf -inf -12"), "id(+1) id(inf) id(-inf) int(-12) ");
  std::vector<Token> t = tokens("nan NaN -5 0xFFFFFFFF 1.5");
  EXPECT_TRUE(std::isnan(t[0].number));
  EXPECT_EQ(t[1].kind, TokenKind::Double);
  EXPECT_TRUE(t[2].negative);
  EXPECT_EQ(t[2].integer, uint64_t(-5));
  EXPECT_EQ(t[3].integer, 0xFFFFFFFFu);
  EXPECT_EQ(t[4].number, 1.5);
  EXPECT_EQ(t[2].value().asDouble(), -5.0);
  EXPECT_EQ(t[4].value().asBits(), 1u);
}

TEST(ScriptTokenizer, StringsDecodeEscapesAndMayRunToTheEnd) {
  EXPECT_EQ(kinds(R"("a b\tc\"d" x)"), "str(a b\tc\"d) id(x) ");
  EXPECT_EQ(kinds("\"open"), "str(open) ");
}

TEST(ScriptTokenizer, ExtractToTheFirstMarkerAnywhere) {
  ScriptTokenizer tok("SHADER x\nbody BACKEND more\nEND\n");
  tok.next();
  tok.next();
  tok.next();
  bool found = false;
  EXPECT_EQ(tok.extractTo("END", found), "body BACK");
  EXPECT_TRUE(found);
  EXPECT_EQ(tok.next().text, "END");
  EXPECT_EQ(tok.line(), 2u);
  ScriptTokenizer none("abc");
  EXPECT_EQ(none.extractTo("END", found), "abc");
  EXPECT_FALSE(found);
}

TEST(ScriptTokenizer, PeekDoesNotConsume) {
  ScriptTokenizer tok("A\nB");
  EXPECT_EQ(tok.peek().text, "A");
  EXPECT_EQ(tok.next().text, "A");
  EXPECT_TRUE(tok.peek().isEndOfLine());
  EXPECT_EQ(tok.line(), 1u);
}

} // namespace
} // namespace spire::run
