// `spire run` on scripts as a user runs it: one line per test and a summary; exit 0 when every
// test passed or was skipped (a device that lacks what a test needs skips it), exit 1 for a failed
// test, a script that does not parse (file:line: message) or a shader that does not load (one
// line), and one line with exit 1 when there is no Vulkan loader at all. The device tests skip
// without a Vulkan device; the no-Vulkan test runs everywhere.
#include "CorpusSupport.h"

#include <gtest/gtest.h>

#include <fstream>

using namespace spire::test;

namespace {

const std::string kSource = SPIRE_SOURCE_DIR;

std::string readText(const std::string &path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

size_t lineCount(const std::string &s) {
  return static_cast<size_t>(std::count(s.begin(), s.end(), '\n'));
}

TEST(AmberCommand, LinesAndExitStatusForEachOutcome) {
  ToolResult devices = runSpire({"run", "--list-devices"});
  if (devices.exitCode != 0)
    GTEST_SKIP() << "no Vulkan device: " << devices.err;
  TempDir t("spire-amber-command");
  // The GLSL example and its SPIR-V assembly twin, in one process.
  const std::string glsl = kSource + "/examples/scale.amber";
  const std::string asmScript = kSource + "/bench/amber/scale-spvasm.amber";
  ToolResult pass = runSpire({"run", glsl, asmScript});
  EXPECT_EQ(pass.exitCode, 0) << pass.out << pass.err;
  EXPECT_EQ(pass.out, "PASS " + glsl + "\nPASS " + asmScript + "\n2 passed, 0 failed, 0 skipped\n");

  // A wrong expectation: the first differing element, expected and got; exit 1.
  std::string text = readText(asmScript);
  const std::string expect = "EXPECT values IDX 0 EQ 0.5 3.5 6.5 9.5";
  size_t at = text.find(expect);
  ASSERT_NE(at, std::string::npos);
  const std::string wrong = t.path("wrong.amber");
  std::ofstream(wrong) << text.substr(0, at) << "EXPECT values IDX 0 EQ 0.5 3.5 6.5 9.25"
                       << text.substr(at + expect.size());
  const uint32_t line =
      static_cast<uint32_t>(std::count(text.begin(), text.begin() + at, '\n')) + 1;
  ToolResult fail = runSpire({"run", wrong});
  EXPECT_EQ(fail.exitCode, 1);
  EXPECT_EQ(fail.out, "FAIL " + wrong + ":" + std::to_string(line) +
                          ": values byte 12 (value 3): got 9.5, expected == 9.25\n"
                          "0 passed, 1 failed, 0 skipped\n");

  // What the device lacks, and OpenCL C: skipped with the reason, exit 0.
  const std::string lacks = t.path("lacks.amber");
  std::ofstream(lacks) << "#!amber\nDEVICE_EXTENSION VK_SPIRE_no_such_extension\n"
                       << text.substr(text.find("SHADER"));
  const std::string cl = t.path("cl.amber");
  std::ofstream(cl) << "#!amber\nSHADER compute k OPENCL-C\nkernel void f() {}\nEND\n"
                       "PIPELINE compute p\n  ATTACH k\nEND\n";
  ToolResult skip = runSpire({"run", "--format", "json", lacks, cl});
  EXPECT_EQ(skip.exitCode, 0) << skip.out << skip.err;
  EXPECT_EQ(lineCount(skip.out), 3u) << skip.out;
  EXPECT_NE(skip.out.find("\"status\":\"skip\",\"line\":0,\"message\":\""), std::string::npos);
  EXPECT_NE(skip.out.find("lacks VK_SPIRE_no_such_extension\""), std::string::npos) << skip.out;
  EXPECT_NE(skip.out.find("\"message\":\"OPENCL-C shader k needs clspv, which is not available\""),
            std::string::npos)
      << skip.out;
  EXPECT_NE(skip.out.find("{\"summary\":{\"passed\":0,\"failed\":0,\"skipped\":2,\"via\":\"\"}}\n"),
            std::string::npos)
      << skip.out;

  // A script that does not parse: file:line: message; exit 1.
  const std::string bad = t.path("bad.amber");
  std::ofstream(bad) << "#!amber\nBUFFER b DATA_TYPE uint32 SIZE x FILL 0\n";
  ToolResult parse = runSpire({"run", bad});
  EXPECT_EQ(parse.exitCode, 1);
  EXPECT_EQ(parse.out, "FAIL " + bad +
                           ":2: expected an element count after SIZE, got x\n"
                           "0 passed, 1 failed, 0 skipped\n");

  // A shader file that does not load: one line, exit 1, nothing run.
  const std::string shader = t.path("bad.spv");
  std::ofstream(shader) << "garbage";
  ToolResult load = runSpire({"run", shader, "--dump", "0:0"});
  EXPECT_EQ(load.exitCode, 1);
  EXPECT_EQ(load.out, "");
  EXPECT_EQ(lineCount(load.err), 1u) << load.err;
  EXPECT_EQ(load.err.rfind(shader + ": ", 0), 0u) << load.err;

  // "lavapipe" names lavapipe's device (llvmpipe), and loads its driver alone.
  if (devices.out.find("llvmpipe") != std::string::npos) {
    ToolResult lavapipe = runSpire({"run", "--device", "lavapipe", asmScript});
    EXPECT_EQ(lavapipe.exitCode, 0) << lavapipe.out << lavapipe.err;
    EXPECT_EQ(lavapipe.out, "PASS " + asmScript + "\n1 passed, 0 failed, 0 skipped\n");
  }
  ToolResult none = runSpire({"run", "--device", "no such device", asmScript});
  EXPECT_EQ(none.exitCode, 1);
  EXPECT_EQ(none.err, "spire run: no Vulkan device named like 'no such device'\n");
}

// A buffer the shader reaches by its device address (--address OFFSET=DATA puts the address in
// the push constants at OFFSET; --dump @OFFSET reads the buffer back): each invocation
// multiplies its word by the pushed factor.
TEST(AmberCommand, ABufferReachedByItsAddress) {
  ToolResult devices = runSpire({"run", "--list-devices"});
  if (devices.exitCode != 0)
    GTEST_SKIP() << "no Vulkan device: " << devices.err;
  TempDir t("spire-run-address-test");
  const std::string shader = t.path("scale.spvasm");
  std::ofstream(shader) << R"(; SPIR-V
; Version: 1.5
               OpCapability Shader
               OpCapability PhysicalStorageBufferAddresses
               OpMemoryModel PhysicalStorageBuffer64 GLSL450
               OpEntryPoint GLCompute %main "main" %push %id
               OpExecutionMode %main LocalSize 4 1 1
               OpDecorate %id BuiltIn GlobalInvocationId
               OpDecorate %words ArrayStride 4
               OpMemberDecorate %data 0 Offset 0
               OpDecorate %data Block
               OpMemberDecorate %args 0 Offset 0
               OpMemberDecorate %args 1 Offset 8
               OpDecorate %args Block
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
     %v3uint = OpTypeVector %uint 3
      %words = OpTypeRuntimeArray %uint
       %data = OpTypeStruct %words
    %ptr_psb = OpTypePointer PhysicalStorageBuffer %data
       %args = OpTypeStruct %uint %ptr_psb
   %ptr_args = OpTypePointer PushConstant %args
  %ptr_pc_ptr = OpTypePointer PushConstant %ptr_psb
  %ptr_pc_uint = OpTypePointer PushConstant %uint
 %ptr_psb_uint = OpTypePointer PhysicalStorageBuffer %uint
   %ptr_in_v3 = OpTypePointer Input %v3uint
       %push = OpVariable %ptr_args PushConstant
         %id = OpVariable %ptr_in_v3 Input
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
       %main = OpFunction %void None %fn
      %entry = OpLabel
        %gid = OpLoad %v3uint %id
          %x = OpCompositeExtract %uint %gid 0
         %pp = OpAccessChain %ptr_pc_ptr %push %uint_1
          %p = OpLoad %ptr_psb %pp
         %kp = OpAccessChain %ptr_pc_uint %push %uint_0
          %k = OpLoad %uint %kp
         %ep = OpAccessChain %ptr_psb_uint %p %uint_0 %x
          %v = OpLoad %uint %ep Aligned 4
          %w = OpIMul %uint %v %k
               OpStore %ep %w Aligned 4
               OpReturn
               OpFunctionEnd
)";
  ToolResult r = runSpire({"run", shader, "--push", "data:uint32:3", "--address",
                           "8=series:uint32:10:1:4", "--dump", "@8:uint32"});
  if (r.exitCode == 1 && r.err.find("bufferDeviceAddress") != std::string::npos)
    GTEST_SKIP() << r.err;
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.out, "address at push offset 8 (16 bytes) as uint32\n30\n33\n36\n39\n");
  // An address that is not 8-aligned, or outside the push constants.
  EXPECT_EQ(runSpire({"run", shader, "--address", "4=zero:16"}).exitCode, 2);
  r = runSpire({"run", shader, "--address", "16=zero:16"});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("outside the module's 16 bytes of push constants"), std::string::npos)
      << r.err;
}

TEST(AmberCommand, NoVulkanLoaderIsOneLine) {
  ToolResult r = runTool({"env", "SPIRE_VULKAN_LIBRARY=/nonexistent/libvulkan.so.1", SPIRE_TOOL,
                          "run", kSource + "/bench/amber/scale-spvasm.amber"});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "spire run: no Vulkan loader: cannot open /nonexistent/libvulkan.so.1 (install "
                   "libvulkan1 and a driver, e.g. mesa-vulkan-drivers)\n");
}

} // namespace
