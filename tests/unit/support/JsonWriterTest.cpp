#include "spire/support/JsonWriter.h"

#include <gtest/gtest.h>

namespace spire {
namespace {

std::string quoted(std::string_view s) {
  std::string out;
  appendJsonString(out, s);
  return out;
}

TEST(JsonWriter, EscapesStrings) {
  EXPECT_EQ(quoted("plain"), "\"plain\"");
  EXPECT_EQ(quoted("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(quoted("\n\r\t\b\f"), "\"\\n\\r\\t\\b\\f\"");
  EXPECT_EQ(quoted(std::string_view("\x01\x1f\0", 3)), "\"\\u0001\\u001f\\u0000\"");
  EXPECT_EQ(quoted("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"),
            "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");                // valid UTF-8 stays
  EXPECT_EQ(quoted("\xff"), "\"\\ufffd\"");                                  // never valid
  EXPECT_EQ(quoted("\xc3"), "\"\\ufffd\"");                                  // cut short
  EXPECT_EQ(quoted("\xc0\xaf"), "\"\\ufffd\\ufffd\"");                       // overlong
  EXPECT_EQ(quoted("\xed\xa0\x80"), "\"\\ufffd\\ufffd\\ufffd\"");            // a surrogate
  EXPECT_EQ(quoted("\xf4\x90\x80\x80"), "\"\\ufffd\\ufffd\\ufffd\\ufffd\""); // past U+10FFFF
}

TEST(JsonWriter, WritesNestedValuesCompactAndIndented) {
  std::string out;
  JsonWriter w(out);
  w.beginObject()
      .field("n", 1)
      .field("big", uint64_t(1) << 63)
      .field("neg", int64_t(-5))
      .field("s", "x")
      .field("b", true)
      .field("d", 0.5);
  w.key("a").beginArray().value(1u).null().beginObject().endObject().beginArray().endArray();
  w.endArray().endObject();
  EXPECT_TRUE(w.complete());
  EXPECT_EQ(out, "{\"n\":1,\"big\":9223372036854775808,\"neg\":-5,\"s\":\"x\",\"b\":true,"
                 "\"d\":0.5,\"a\":[1,null,{},[]]}");

  std::string pretty;
  JsonWriter p(pretty, 2);
  p.beginObject().key("a").beginArray().value(1).value(2).endArray().field("e", "").endObject();
  EXPECT_EQ(pretty, "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"e\": \"\"\n}");
}

TEST(JsonWriter, WritesNonFiniteNumbersAsNull) {
  std::string out;
  JsonWriter w(out);
  w.beginArray().value(1.0 / 0.0).value(0.1).endArray();
  EXPECT_EQ(out, "[null,0.1]");
}

} // namespace
} // namespace spire
