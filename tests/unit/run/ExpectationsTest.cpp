// EXPECT and probe comparisons as amber makes them, on host copies written in the test.
#include "spire/run/Expectations.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

namespace spire::run {
namespace {

template <class T> Script withBuffer(std::string_view type, std::vector<T> data) {
  Script s;
  ScriptBuffer b;
  b.name = "buf";
  auto t = parseAmberType(type);
  if (!t)
    t = parseFormatName(type);
  b.format = layoutOf(*t);
  b.bytes.resize(data.size() * sizeof(T));
  if (!data.empty())
    std::memcpy(b.bytes.data(), data.data(), b.bytes.size());
  s.buffers.push_back(b);
  return s;
}

Command expect(Comparator op, std::vector<Value> values, uint64_t offset = 0,
               std::vector<Tolerance> tolerances = {}) {
  Command c;
  c.kind = Command::Kind::Expect;
  c.comparator = tolerances.empty() ? op : Comparator::FuzzyEq;
  c.values = std::move(values);
  c.offset = offset;
  c.tolerances = std::move(tolerances);
  return c;
}

std::string check(const Script &s, const Command &c) {
  auto r = checkExpectation(s, c);
  return r ? *r : "ok";
}

Value i(int64_t v) { return Value::integer(static_cast<uint64_t>(v), v < 0); }
Value d(double v) { return Value::real(v); }

TEST(Expectations, IntegersCompareExactlyInTheirType) {
  Script s = withBuffer<uint32_t>("uint32", {1, 0xFFFFFFFFu, 5});
  EXPECT_EQ(check(s, expect(Comparator::Eq, {i(1), i(-1), i(5)})), "ok");
  EXPECT_EQ(check(s, expect(Comparator::Eq, {i(6)}, 8)),
            "buf byte 8 (value 0): got 5, expected == 6");
  EXPECT_EQ(check(s, expect(Comparator::Ne, {i(6)}, 8)), "ok");
  EXPECT_EQ(check(s, expect(Comparator::Gt, {i(4)}, 8)), "ok");
  EXPECT_EQ(check(s, expect(Comparator::Lt, {i(5)}, 8)),
            "buf byte 8 (value 0): got 5, expected < 5");
  Script si = withBuffer<int8_t>("int8", {-3, 4});
  EXPECT_EQ(check(si, expect(Comparator::Lt, {i(0), i(5)})), "ok");
  EXPECT_EQ(check(si, expect(Comparator::Eq, {i(-3), i(5)})),
            "buf byte 1 (value 1): got 4, expected == 5");
}

TEST(Expectations, FloatsCompareWithinARelativeHairOrATolerance) {
  Script s = withBuffer<float>("float", {1.0f, 100000.0f, std::nanf(""), -0.0f});
  EXPECT_EQ(check(s, expect(Comparator::Eq, {d(1.0), i(100000)})), "ok");
  EXPECT_EQ(check(s, expect(Comparator::Eq, {d(100000.001)}, 4)), "ok");
  EXPECT_NE(check(s, expect(Comparator::Eq, {d(100000.01)}, 4)), "ok");
  EXPECT_EQ(check(s, expect(Comparator::Eq, {d(std::nan(""))}, 8)), "ok");
  EXPECT_NE(check(s, expect(Comparator::Eq, {d(1.0)}, 8)), "ok");
  EXPECT_EQ(check(s, expect(Comparator::Eq, {d(0.0)}, 12)), "ok");
  EXPECT_EQ(check(s, expect(Comparator::Lt, {d(0.0)}, 8)), "ok"); // NaN passes ordered tests
  // Only the first tolerance counts; a percentage is of the expected value.
  EXPECT_EQ(check(s, expect(Comparator::Eq, {d(1.1), d(100500)}, 0,
                            {Tolerance{0.2, false}, Tolerance{0, false}})),
            "buf byte 4 (value 1): got 100000, expected ~= 100500 (tolerance 0.2)");
  EXPECT_EQ(check(s, expect(Comparator::Eq, {d(1.001), d(100500)}, 0, {Tolerance{1, true}})), "ok");
}

TEST(Expectations, Float16ReadsAsAmberReadsIt) {
  Script s = withBuffer<uint16_t>("float16", {0x40CC, 0x2E66});
  EXPECT_EQ(check(s, expect(Comparator::Eq, {d(2.3984375)})), "ok");
  // EQ compares with the float, not the half, of the expected value: 0.1 fails.
  EXPECT_NE(check(s, expect(Comparator::Eq, {d(0.1)}, 2)), "ok");
  EXPECT_EQ(check(s, expect(Comparator::Eq, {d(0.1)}, 2, {Tolerance{0.001, false}})), "ok");
}

TEST(Expectations, OffsetsAndBoundsAreChecked) {
  Script s = withBuffer<float>("vec3<float>", {1, 2, 3, 0, 4, 5, 6, 0});
  EXPECT_EQ(check(s, expect(Comparator::Eq, {d(4), d(5), d(6)}, 16)), "ok");
  EXPECT_EQ(check(s, expect(Comparator::Eq, {d(2)}, 4)),
            "given offset (4) is not multiple of element size (16)");
  EXPECT_EQ(check(s, expect(Comparator::Eq, {d(1), d(2), d(3), d(4), d(5), d(6)}, 16)),
            "request to access to byte 48 would read outside buffer of size 32 bytes");
  Script empty = withBuffer<float>("float", {});
  EXPECT_EQ(check(empty, expect(Comparator::Eq, {d(1)})),
            "actual data is empty while expected data is not");
}

TEST(Expectations, WholeBuffersCompareByteForByte) {
  Script s = withBuffer<uint32_t>("uint32", {1, 2, 3});
  Script o = withBuffer<uint32_t>("uint32", {1, 2, 300});
  s.buffers.push_back(o.buffers[0]);
  s.buffers[1].name = "other";
  Command c;
  c.kind = Command::Kind::ExpectBuffer;
  c.buffer = 0;
  c.otherBuffer = 1;
  EXPECT_EQ(check(s, c), "2 bytes of buf differ from other, first at byte 8: 3 != 44 (element "
                         "2: got 3, expected 300)");
  c.otherBuffer = 0;
  EXPECT_EQ(check(s, c), "ok");
}

TEST(Expectations, ImageTexelsAgainstAColor) {
  Script s = withBuffer<uint8_t>("R8G8B8A8_UNORM",
                                 {0, 255, 0, 255, 0, 255, 0, 255, 0, 255, 0, 255, 255, 0, 0, 255});
  s.buffers[0].width = 2;
  s.buffers[0].height = 2;
  Command c;
  c.kind = Command::Kind::ExpectRgba;
  c.width = 2;
  c.height = 1;
  c.values = {i(0), i(255), i(0), i(255)};
  EXPECT_EQ(check(s, c), "ok");
  c.height = 2;
  EXPECT_EQ(check(s, c),
            "buf texel (1, 1): got 255 0 0 255, expected 0 255 0 255 (1 texels differ)");
  c.width = 3;
  EXPECT_EQ(check(s, c), "the probed rectangle is out of the image's scope");
}

} // namespace
} // namespace spire::run
