#include "DxilTestContainers.h"

#include "spire/dxil/ContainerSummary.h"

#include <gtest/gtest.h>

#include <sstream>

namespace spire::dxil {
namespace {

ContainerInfo everything(std::vector<uint8_t> &bytes) {
  bytes = test::buildContainer(test::everyPart());
  Expected<Container> c = readContainer(bytes);
  EXPECT_TRUE(c);
  Expected<ContainerInfo> info = readContainerInfo(*c);
  EXPECT_TRUE(info) << info.error().format();
  return *info;
}

std::vector<std::string> lines(const std::string &text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    out.push_back(line);
  return out;
}

bool has(const std::vector<std::string> &lines, const std::string &line) {
  return std::find(lines.begin(), lines.end(), line) != lines.end();
}

TEST(DxilSummary, PrintsEveryPartAsComments) {
  std::vector<uint8_t> bytes;
  ContainerInfo info = everything(bytes);
  std::string text;
  printContainerSummary(info, text);
  std::vector<std::string> l = lines(text);
  for (const std::string &line : l)
    ASSERT_TRUE(line == ";" || line.starts_with("; ")) << line;
  EXPECT_EQ(l[0], "; DXIL container 1.0, " + std::to_string(bytes.size()) + " bytes, 15 parts");
  EXPECT_TRUE(l[1].starts_with("; Digest: ") && l[1].ends_with(" (signed)")) << l[1];
  EXPECT_TRUE(has(l, "; Shader: ps_6_8 (pixel), DXIL 1.8, bitcode of 12 bytes at file offset " +
                         std::to_string(info.program->bitcodeFileOffset)));
  EXPECT_TRUE(has(l, "; Compiler: 1.8 \"1.8.2407.7\", commit \"416fab6b\", 4662 commits, debug "
                     "build"));
  EXPECT_TRUE(has(l, "; Debug name: \"shader.pdb\""));
  EXPECT_TRUE(has(l, "; Shader feature flags: 0x0000010000004001"));
  EXPECT_TRUE(has(l, ";   WaveOps"));
  // The input signature as an aligned table.
  EXPECT_TRUE(has(l, "; Name        Index Mask Register SysValue Format Used"));
  EXPECT_TRUE(has(l, "; ----------- ----- ---- -------- -------- ------ ----"));
  EXPECT_TRUE(has(l, "; SV_Position     0 xyzw        0      POS  float"));
  EXPECT_TRUE(has(l, "; TEXCOORD        1 xy          2     NONE  float x"));
  EXPECT_TRUE(has(l, "; SV_Target     0 xyzw        0   TARGET  float xyzw"));
  EXPECT_TRUE(has(l, "; Patch constant signature (PSG1): no elements"));
  EXPECT_TRUE(has(l, "; Pipeline runtime information (PSV0 version 3, 52 bytes):"));
  EXPECT_TRUE(has(l, ";   DepthOutput=1 SampleFrequency=0"));
  EXPECT_TRUE(has(l, ";   EntryFunctionName=\"main\""));
  EXPECT_TRUE(has(l, "; SRVTyped Texture2D     1     2 unbounded Atomics64"));
  EXPECT_TRUE(has(l, ";   Version 1.1, flags 0x1, 3 parameters, 1 static sampler"));
  EXPECT_TRUE(has(l, "; RDAT function \"nodeMain\":"));
  EXPECT_TRUE(has(l, ";     NumThreads=(8,1,1)"));
  EXPECT_TRUE(has(l, "; RDAT subobject \"hg\": HitGroup"));
  EXPECT_TRUE(has(l, ";   Source file \"a.hlsl\": 39 bytes"));
  EXPECT_TRUE(has(l, "; Parts spire does not decode (kept): PRIV (4 bytes)"));
  EXPECT_FALSE(has(l, "; The parts disagree:"));
}

TEST(DxilSummary, SaysWhenTheDigestIsCorrupt) {
  std::vector<uint8_t> bytes = test::buildContainer(test::everyPart());
  bytes[4] ^= 0xff;
  Expected<Container> c = readContainer(bytes);
  ASSERT_TRUE(c);
  Expected<ContainerInfo> info = readContainerInfo(*c);
  ASSERT_TRUE(info);
  std::string text;
  printContainerSummary(*info, text);
  EXPECT_NE(text.find("(corrupt; the bytes hash to " + digestHex(info->computedDigest) + ")"),
            std::string::npos);
}

/// A small JSON reader that only checks the syntax (RFC 8259) and counts the values.
class JsonChecker {
public:
  explicit JsonChecker(std::string_view s) : s_(s) {}
  bool document() {
    ws();
    if (!value())
      return false;
    ws();
    return i_ == s_.size();
  }
  size_t values = 0;

private:
  void ws() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\t' || s_[i_] == '\r'))
      ++i_;
  }
  bool literal(std::string_view w) {
    if (s_.substr(i_, w.size()) != w)
      return false;
    i_ += w.size();
    return true;
  }
  bool string() {
    if (!literal("\""))
      return false;
    while (i_ < s_.size() && s_[i_] != '"') {
      if (uint8_t(s_[i_]) < 0x20)
        return false;
      if (s_[i_] == '\\') {
        ++i_;
        if (i_ >= s_.size() || std::string_view("\"\\/bfnrtu").find(s_[i_]) == std::string::npos)
          return false;
        if (s_[i_] == 'u') {
          for (int k = 1; k <= 4; ++k)
            if (i_ + k >= s_.size() || !std::isxdigit(uint8_t(s_[i_ + k])))
              return false;
          i_ += 4;
        }
      }
      ++i_;
    }
    return literal("\"");
  }
  bool number() {
    size_t start = i_;
    literal("-");
    while (i_ < s_.size() && (std::isdigit(uint8_t(s_[i_])) || s_[i_] == '.' || s_[i_] == 'e' ||
                              s_[i_] == 'E' || s_[i_] == '+' || s_[i_] == '-'))
      ++i_;
    return i_ > start && std::isdigit(uint8_t(s_[i_ - 1]));
  }
  bool value() {
    ++values;
    if (i_ >= s_.size())
      return false;
    char c = s_[i_];
    if (c == '{' || c == '[') {
      char close = c == '{' ? '}' : ']';
      ++i_;
      ws();
      if (literal(std::string_view(&close, 1)))
        return true;
      for (;;) {
        ws();
        if (c == '{') {
          if (!string())
            return false;
          ws();
          if (!literal(":"))
            return false;
          ws();
        }
        if (!value())
          return false;
        ws();
        if (literal(std::string_view(&close, 1)))
          return true;
        if (!literal(","))
          return false;
      }
    }
    if (c == '"')
      return string();
    return literal("true") || literal("false") || literal("null") || number();
  }
  std::string_view s_;
  size_t i_ = 0;
};

TEST(DxilSummary, JsonHoldsTheSameFactsAndIsWellFormed) {
  std::vector<uint8_t> bytes;
  ContainerInfo info = everything(bytes);
  for (int indent : {0, 2}) {
    std::string json;
    printContainerJson(info, json, indent);
    JsonChecker check(json);
    EXPECT_TRUE(check.document()) << json;
    EXPECT_GT(check.values, 300u);
    EXPECT_EQ(json.find('\n') == json.size() - 1, indent == 0);
    std::string compact = json;
    compact.erase(std::remove_if(compact.begin(), compact.end(),
                                 [](char c) { return c == ' ' || c == '\n'; }),
                  compact.end());
    EXPECT_NE(compact.find("\"digestStatus\":\"signed\""), std::string::npos);
    EXPECT_NE(compact.find("\"shaderModel\":\"ps_6_8\""), std::string::npos);
    EXPECT_NE(compact.find("\"semanticName\":\"TEXCOORD\",\"semanticIndex\":1"), std::string::npos);
    EXPECT_NE(compact.find("\"names\":[\"Doubles\",\"WaveOps\",\"UsesDerivatives\"]"),
              std::string::npos);
    EXPECT_NE(compact.find("\"entryName\":\"main\""), std::string::npos);
    EXPECT_NE(compact.find("\"versionString\":\"1.8.2407.7\""), std::string::npos);
    EXPECT_NE(compact.find("\"launchTypeName\":\"Broadcasting\""), std::string::npos);
    EXPECT_NE(compact.find("\"content\":\"float4main():SV_Target{return1;}\""), std::string::npos);
    EXPECT_NE(compact.find("\"unknownParts\":[{\"index\":11,\"fourcc\":\"PRIV\",\"size\":4}]"),
              std::string::npos);
    EXPECT_NE(compact.find("\"inconsistencies\":[]"), std::string::npos);
  }
}

TEST(DxilSummary, NamesShaderModels) {
  ProgramHeader h;
  h.kind = ShaderKind::Library;
  h.shaderModelMajor = 6;
  h.shaderModelMinor = 3;
  EXPECT_EQ(shaderModelName(h), "lib_6_3");
  h.kind = ShaderKind::RayGeneration;
  EXPECT_EQ(shaderModelName(h), "raygeneration_6_3");
  h.kind = ShaderKind(40);
  EXPECT_EQ(shaderModelName(h), "40_6_3");
}

} // namespace
} // namespace spire::dxil

namespace spire::dxil {
namespace {

TEST(DxilSummary, BoundsLongNamesAndLists) {
  std::vector<test::TestPart> parts = test::everyPart();
  std::string longName(300, 'L');
  parts[2].data = test::signaturePart({{longName, 0, 64, 3, 0, 0xf, 0}});
  std::vector<uint8_t> debugName(308); // flags, length, the name, its NUL and the padding
  debugName[2] = 300 & 0xff;
  debugName[3] = 300 >> 8;
  std::copy(longName.begin(), longName.end(), debugName.begin() + 4);
  parts[8].data = debugName;
  std::vector<uint8_t> bytes = test::buildContainer(parts);
  Expected<Container> c = readContainer(bytes);
  ASSERT_TRUE(c);
  Expected<ContainerInfo> info = readContainerInfo(*c);
  ASSERT_TRUE(info) << info.error().format();
  std::string text;
  printContainerSummary(*info, text);
  std::vector<std::string> l = lines(text);
  EXPECT_TRUE(has(l, "; Debug name: \"" + std::string(120, 'L') + "\"... (300 bytes)"));
  EXPECT_TRUE(has(l, "; " + std::string(61, 'L') + "...     0 xyzw        0   TARGET  float xyzw"));
  std::string json;
  printContainerJson(*info, json);
  EXPECT_NE(json.find("\"semanticName\": \"" + longName + "\""), std::string::npos);
}

} // namespace
} // namespace spire::dxil
