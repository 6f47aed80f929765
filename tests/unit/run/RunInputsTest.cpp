// What the runner reads besides scripts: buffer specifications of the command line, binding
// names, --via names, SPIRV-HEX text and the side file of a test suite's extra requirements.
#include "spire/run/ScriptRunner.h"
#include "spire/run/ShaderCompiler.h"
#include "spire/run/ShaderRun.h"

#include <gtest/gtest.h>

#include <cstring>

namespace spire::run {
namespace {

Expected<std::vector<uint8_t>> fromSpec(std::string_view spec) {
  return bufferFromSpec(spec, [](const std::string &path) -> Expected<std::vector<uint8_t>> {
    if (path == "data.bin")
      return std::vector<uint8_t>{1, 2, 3};
    return makeError({}, path + ": cannot open");
  });
}

template <class T> std::vector<T> as(const std::vector<uint8_t> &b) {
  std::vector<T> v(b.size() / sizeof(T));
  if (!v.empty())
    std::memcpy(v.data(), b.data(), v.size() * sizeof(T));
  return v;
}

TEST(BufferSpec, EachForm) {
  EXPECT_EQ(as<uint32_t>(*fromSpec("series:uint32:5:2:3")), (std::vector<uint32_t>{5, 7, 9}));
  EXPECT_EQ(as<float>(*fromSpec("series:float:0.5:0.25:3")),
            (std::vector<float>{0.5f, 0.75f, 1.0f}));
  EXPECT_EQ(as<float>(*fromSpec("fill:vec3<float>:2:2")),
            (std::vector<float>{2, 2, 2, 0, 2, 2, 2, 0}));
  EXPECT_EQ(as<int16_t>(*fromSpec("data:int16:-1,2,0x10")), (std::vector<int16_t>{-1, 2, 16}));
  EXPECT_EQ(fromSpec("zero:5")->size(), 5u);
  auto r1 = fromSpec("random:7:10"), r2 = fromSpec("random:7:10"), r3 = fromSpec("random:8:10");
  EXPECT_EQ(*r1, *r2);
  EXPECT_NE(*r1, *r3);
  EXPECT_EQ(fromSpec("data.bin")->size(), 3u);
  EXPECT_EQ(fromSpec("file:data.bin")->size(), 3u);
}

TEST(BufferSpec, Errors) {
  EXPECT_EQ(fromSpec("random:1").error().message, "buffer 'random:1': expected random:SEED:BYTES");
  EXPECT_EQ(fromSpec("zero:lots").error().message, "buffer 'zero:lots': a byte count up to 1 GiB");
  EXPECT_EQ(fromSpec("zero:99999999999").error().message,
            "buffer 'zero:99999999999': a byte count up to 1 GiB");
  EXPECT_EQ(fromSpec("series:uint33:0:1:4").error().message,
            "buffer 'series:uint33:0:1:4': unknown type uint33");
  EXPECT_EQ(
      fromSpec("data:vec2<float>:1,2,3").error().message,
      "buffer 'data:vec2<float>:1,2,3': the values do not fill whole elements of vec2<float>");
  EXPECT_EQ(fromSpec("data:float:1,x").error().message,
            "buffer 'data:float:1,x': 'x' is not a number");
  EXPECT_EQ(fromSpec("nothing.bin").error().message,
            "buffer 'nothing.bin': nothing.bin: cannot open");
}

TEST(BufferSpec, BindingNames) {
  EXPECT_EQ(parseBindingName("2:5"), std::make_pair(2u, 5u));
  EXPECT_EQ(parseBindingName("7"), std::make_pair(0u, 7u));
  EXPECT_FALSE(parseBindingName("1:2:3"));
  EXPECT_FALSE(parseBindingName("a:1"));
  EXPECT_FALSE(parseBindingName(""));
  EXPECT_FALSE(parseBindingName("99999999999"));
}

TEST(ShaderInputs, ViaNamesAndHexWords) {
  EXPECT_EQ(Via::parse("roundtrip")->kind, Via::Kind::Roundtrip);
  EXPECT_EQ(Via::parse("opt=canonicalize,update-vce")->passes, "canonicalize,update-vce");
  EXPECT_EQ(Via::parse("opt=canonicalize")->name(), "opt=canonicalize");
  EXPECT_FALSE(Via::parse("opt="));
  EXPECT_FALSE(Via::parse("sideways"));
  EXPECT_EQ(*parseSpirvHex("03 02 23 07\n00 00 01 00"),
            (std::vector<uint32_t>{0x07230203u, 0x00010000u}));
  EXPECT_EQ(parseSpirvHex("03 02 23").error().message,
            "SPIRV-HEX has 3 bytes, not a whole number of words");
  EXPECT_EQ(parseSpirvHex("03 zz").error().message, "invalid SPIRV-HEX byte near 'zz'");
  EXPECT_EQ(compileGlsl("void main() {}", ShaderStage::Compute, "opencl1.2").error().message,
            "Unrecognized environment opencl1.2");
}

TEST(ExtraRequirements, SideFileLines) {
  std::map<std::string, ExtraRequirements> m;
  ASSERT_TRUE(parseExtraRequirements("# comment\n\na.amber env=vulkan1.1spv1.4 extension=VK_X "
                                     "feature=shaderInt64\n"
                                     "b.amber skip-if-feature=F skip-on-device=llvmpipe "
                                     "skip-on-driver=22.3 note=it "
                                     "crashes # there\n",
                                     m)
                  .ok());
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m["a.amber"].targetEnv, "vulkan1.1spv1.4");
  EXPECT_EQ(m["a.amber"].deviceExtensions, (std::vector<std::string>{"VK_X"}));
  EXPECT_EQ(m["a.amber"].features, (std::vector<std::string>{"shaderInt64"}));
  EXPECT_EQ(m["b.amber"].skipIfFeatures, (std::vector<std::string>{"F"}));
  EXPECT_EQ(m["b.amber"].skipOnDevices, (std::vector<std::string>{"llvmpipe"}));
  EXPECT_EQ(m["b.amber"].skipOnDrivers, (std::vector<std::string>{"22.3"}));
  EXPECT_EQ(m["b.amber"].note, "it crashes");
  // A second file adds to the same entries.
  ASSERT_TRUE(parseExtraRequirements("a.amber extension=VK_Y\n", m).ok());
  EXPECT_EQ(m["a.amber"].deviceExtensions.size(), 2u);
  Status bad = parseExtraRequirements("a.amber\nb.amber colour=red\n", m);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().location.line, 2u);
  EXPECT_EQ(bad.error().message, "unknown key 'colour'");
  EXPECT_EQ(parseExtraRequirements("a.amber loose\n", m).error().message,
            "expected key=value, got 'loose'");
}

} // namespace
} // namespace spire::run
