// Universal limits (2.17): past each limit, one error.
#include "ValTestUtil.h"

namespace spire::val {
namespace {

std::string repeated(std::string_view item, int n, std::string_view separator = " ") {
  std::string s;
  for (int i = 0; i < n; ++i) {
    if (i)
      s += separator;
    s += item;
  }
  return s;
}

const char *kHead = "OpCapability Shader\nOpCapability Linkage\nOpMemoryModel Logical GLSL450\n"
                    "%float = OpTypeFloat 32\n";

TEST(ValLimits, StructMembers) {
  EXPECT_VALID(test::validateText(std::string(kHead) + "%s = OpTypeStruct " +
                                  repeated("%float", 16383) + "\n"));
  EXPECT_ERROR(test::validateText(std::string(kHead) + "%s = OpTypeStruct " +
                                  repeated("%float", 16384) + "\n"),
               "16384 struct members, more than the universal limit of 16383");
}

TEST(ValLimits, FunctionParameters) {
  EXPECT_ERROR(test::validateText(std::string(kHead) + "%f = OpTypeFunction %float " +
                                  repeated("%float", 256) + "\n"),
               "256 function parameters");
}

TEST(ValLimits, StructNesting) {
  std::string text = kHead;
  text += "%s0 = OpTypeStruct %float\n";
  for (int i = 1; i < 256; ++i)
    text += "%s" + std::to_string(i) + " = OpTypeStruct %s" + std::to_string(i - 1) + "\n";
  EXPECT_ERROR(test::validateText(text), "levels of struct nesting");
  text.resize(text.rfind("%s255"));
  EXPECT_VALID(test::validateText(text));
}

TEST(ValLimits, StringLength) {
  EXPECT_ERROR(test::validateText(std::string(kHead) + "OpSourceExtension \"" +
                                  std::string(65536, 'x') + "\"\n"),
               "a literal string of more than 65535 characters");
}

// Control-flow nesting depth (Table 3): 1023 nested selections are fine, 1024 are not.
TEST(ValLimits, ControlFlowNestingDepth) {
  auto nested = [](int n) {
    std::string text = "OpCapability Shader\nOpCapability Linkage\nOpMemoryModel Logical GLSL450\n"
                       "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%bool = OpTypeBool\n"
                       "%t = OpConstantTrue %bool\n%f = OpFunction %void None %fn\n%e = OpLabel\n"
                       "OpBranch %h0\n";
    for (int i = 0; i < n; ++i)
      text += "%h" + std::to_string(i) + " = OpLabel\nOpSelectionMerge %m" + std::to_string(i) +
              " None\nOpBranchConditional %t %h" + std::to_string(i + 1) + " %m" +
              std::to_string(i) + "\n";
    text += "%h" + std::to_string(n) + " = OpLabel\nOpBranch %m" + std::to_string(n - 1) + "\n";
    for (int i = n - 1; i >= 0; --i)
      text += "%m" + std::to_string(i) + " = OpLabel\n" +
              (i > 0 ? "OpBranch %m" + std::to_string(i - 1) : std::string("OpReturn")) + "\n";
    return test::validateText(text + "OpFunctionEnd\n");
  };
  EXPECT_VALID(nested(1023));
  EXPECT_ERROR(nested(1024), "is nested in 1024 constructs; the control-flow nesting depth is "
                             "at most 1023");
}

TEST(ValLimits, IdBound) {
  AssembleOptions as;
  Expected<std::vector<uint32_t>> words = assemble(std::string(kHead), as);
  ASSERT_TRUE(bool(words));
  std::vector<uint32_t> w = std::move(words).value();
  w[3] = 0x400000;
  Expected<Module> m = Module::fromWords(std::move(w));
  ASSERT_TRUE(bool(m));
  EXPECT_ERROR(validate(*m, {}), "the id bound 4194304 is past the limit");
}

} // namespace
} // namespace spire::val
