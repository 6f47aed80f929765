// Translated compute shaders run on a Vulkan device (lavapipe without a GPU): the dx.ops whose
// DXIL semantics SPIR-V leaves undefined or orders differently (FirstbitHi, Ibfe/Ubfe/Bfi edges,
// Saturate of NaN, FMin/FMax with NaN, UDiv by zero, the hi/lo order of IMul/UMul, UAddc/USubb
// carries) compute what DXIL.rst says, checked against host references written from its text.
// Each program reads four words per thread from a raw buffer and writes four results after them.
#include "unit/translate/DxilTranslateTestSupport.h"
#include "unit/translate/RuntimeDescriptorArrays.h"

#include "spire/module/Module.h"
#include "spire/run/Device.h"
#include "spire/run/Reflection.h"
#include "spire/run/ShaderRun.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <map>
#include <memory>

namespace spire::translate::test {
namespace {

using Words = std::array<uint32_t, 4>;

constexpr uint32_t kOutputOffset = 4096; // bytes: inputs before, results after
constexpr uint32_t kThreadsPerGroup = 8; // computeShader()'s numthreads

const std::string kDeclarations = rawBufferDeclarations() + R"(
%dx.types.twoi32 = type { i32, i32 }
%dx.types.i32c = type { i32, i1 }
declare i32 @dx.op.unaryBits.i32(i32, i32)
declare i32 @dx.op.tertiary.i32(i32, i32, i32, i32)
declare i32 @dx.op.quaternary.i32(i32, i32, i32, i32, i32)
declare float @dx.op.unary.f32(i32, float)
declare float @dx.op.binary.f32(i32, float, float)
declare %dx.types.twoi32 @dx.op.binaryWithTwoOuts.i32(i32, i32, i32)
declare %dx.types.i32c @dx.op.binaryWithCarryOrBorrow.i32(i32, i32, i32)
)";

/// u0 in space 0: a RWByteAddressBuffer (set 0, binding 1000 under the default offsets).
const char *kResources = "!{null, !{!10}, null, null}";
const char *kResourceMetadata =
    "!10 = !{i32 0, %struct.RWByteAddressBuffer* @buf, !\"buf\", i32 0, i32 0, i32 1, i32 11, "
    "i1 false, i1 false, i1 false, null}\n";

/// @main around `body`, which computes i32 %r0..%r3 from the thread's inputs %a, %b, %c, %d
/// (and their float views %fa, %fb).
std::string program(const std::string &body) {
  return computeShader(kDeclarations,
                       R"(entry:
  %h = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 1, i32 0, i32 0, i1 false)
  %tid = call i32 @dx.op.threadId.i32(i32 93, i32 0)
  %in = shl i32 %tid, 4
  %ld = call %dx.types.ResRet.i32 @dx.op.rawBufferLoad.i32(i32 139, %dx.types.Handle %h, i32 %in, i32 undef, i8 15, i32 4)
  %a = extractvalue %dx.types.ResRet.i32 %ld, 0
  %b = extractvalue %dx.types.ResRet.i32 %ld, 1
  %c = extractvalue %dx.types.ResRet.i32 %ld, 2
  %d = extractvalue %dx.types.ResRet.i32 %ld, 3
  %fa = bitcast i32 %a to float
  %fb = bitcast i32 %b to float
)" + body + R"(
  %out = add i32 %in, )" + std::to_string(kOutputOffset) +
                           R"(
  call void @dx.op.rawBufferStore.i32(i32 140, %dx.types.Handle %h, i32 %out, i32 undef, i32 %r0, i32 %r1, i32 %r2, i32 %r3, i8 15, i32 4)
  ret void
)",
                       kResources, kResourceMetadata);
}

/// One Vulkan device for the whole suite (nullptr, with the reason, when there is none).
run::VulkanContext *device(std::string &why) {
  static std::string error;
  static std::unique_ptr<run::VulkanContext> ctx = [] {
    run::DeviceOptions options;
    options.validation = true;
    auto c = run::VulkanContext::create(options);
    if (!c) {
      error = c.error().message;
      return std::unique_ptr<run::VulkanContext>();
    }
    return std::move(*c);
  }();
  why = error;
  return ctx.get();
}

class DxilExecution : public ::testing::Test {
protected:
  void SetUp() override {
    if (!haveLlvmAs())
      GTEST_SKIP() << "llvm-as-14 not installed (Debian package llvm-14)";
    std::string why;
    ctx_ = device(why);
    if (!ctx_)
      GTEST_SKIP() << "no Vulkan device: " << why;
  }

  /// Translates `body` in the program above and runs it, one thread per input; the results.
  std::vector<Words> run(const std::string &body, const std::vector<Words> &inputs) {
    return runProgram(program(body), inputs);
  }

  /// The same for a whole program (u0 as in program()), translated with `options`, run with
  /// these push constants and more buffers; runtime arrays of descriptors (heaps) made arrays
  /// of `runtimeArrayDescriptors` (fixRuntimeDescriptorArrays); buffers reached by address
  /// (by the push constant offset of their address) given and read back in `addressBuffers`.
  std::vector<Words>
  runProgram(const std::string &text, const std::vector<Words> &inputs,
             const DxilTranslateOptions &options = {},
             const std::vector<uint8_t> &pushConstants = {},
             const std::map<std::pair<uint32_t, uint32_t>, std::vector<uint8_t>> &moreBuffers = {},
             uint32_t runtimeArrayDescriptors = 0,
             std::map<uint32_t, std::vector<uint8_t>> *addressBuffers = nullptr) {
    Translation t = translateLl(text, options);
    EXPECT_EQ(t.error, "");
    if (!t.error.empty() || inputs.size() * 16 > kOutputOffset)
      return {};
    if (runtimeArrayDescriptors) // llvmpipe has no runtime arrays of descriptors
      fixRuntimeDescriptorArrays(t.words, runtimeArrayDescriptors);
    Expected<Module> module = Module::fromWords(t.words);
    Expected<run::ModuleInterface> mi =
        module ? run::reflect(*module) : Expected<run::ModuleInterface>(module.error());
    EXPECT_TRUE(bool(mi));
    if (!mi)
      return {};
    run::ShaderRunRequest request;
    request.words = t.words;
    std::vector<uint8_t> data(2 * kOutputOffset, 0);
    std::memcpy(data.data(), inputs.data(), inputs.size() * 16);
    request.buffers[{0, 1000}] = data;
    request.groups[0] = uint32_t(inputs.size() + kThreadsPerGroup - 1) / kThreadsPerGroup;
    request.pushConstants = pushConstants;
    for (const auto &[where, bytes] : moreBuffers)
      request.buffers[where] = bytes;
    request.runtimeArrayDescriptors = runtimeArrayDescriptors;
    if (addressBuffers)
      request.addressBuffers = *addressBuffers;
    Expected<run::ShaderRunResult> result = run::runShader(*ctx_, *mi, request);
    EXPECT_TRUE(bool(result)) << (result ? "" : result.error().message);
    if (!result)
      return {};
    if (addressBuffers)
      *addressBuffers = result->addressBuffers;
    for (const std::string &m : result->validationMessages)
      ADD_FAILURE() << "validation: " << m;
    const std::vector<uint8_t> &after = result->buffers.at({0, 1000});
    std::vector<Words> out(inputs.size());
    std::memcpy(out.data(), after.data() + kOutputOffset, inputs.size() * 16);
    return out;
  }

  /// Runs and compares every result with `reference(input)`; where `floats`, any NaN equals any
  /// NaN.
  template <typename Reference>
  void check(const std::string &body, const std::vector<Words> &inputs, Reference reference,
             bool floats = false) {
    std::vector<Words> got = run(body, inputs);
    if (got.size() != inputs.size())
      return;
    for (size_t i = 0; i < inputs.size(); ++i) {
      const Words want = reference(inputs[i]);
      for (int k = 0; k < 4; ++k) {
        if (floats && std::isnan(std::bit_cast<float>(want[k])) &&
            std::isnan(std::bit_cast<float>(got[i][k])))
          continue;
        EXPECT_EQ(got[i][k], want[k])
            << "result " << k << " for inputs 0x" << std::hex << inputs[i][0] << ", 0x"
            << inputs[i][1] << ", 0x" << inputs[i][2] << ", 0x" << inputs[i][3];
      }
    }
  }

  run::VulkanContext *ctx_ = nullptr;
};

uint32_t bits(float f) { return std::bit_cast<uint32_t>(f); }

/// Inputs (a, b, 0, 0) for every a and b.
std::vector<Words> pairsOf(std::initializer_list<uint32_t> as, std::initializer_list<uint32_t> bs) {
  std::vector<Words> inputs;
  for (uint32_t a : as)
    for (uint32_t b : bs)
      inputs.push_back({a, b, 0, 0});
  return inputs;
}

TEST_F(DxilExecution, FirstbitCountsFromTheMostSignificantBit) {
  // FirstbitHi: the first set bit from the MSB (0x10000000 -> 3); FirstbitSHi: the first bit
  // that differs from the sign; FirstbitLo from the LSB. 0xFFFFFFFF when there is none.
  const std::string body = R"(
  %r0 = call i32 @dx.op.unaryBits.i32(i32 33, i32 %a)
  %r1 = call i32 @dx.op.unaryBits.i32(i32 34, i32 %a)
  %r2 = call i32 @dx.op.unaryBits.i32(i32 32, i32 %a)
  %r3 = add i32 0, 0)";
  std::vector<Words> inputs;
  for (uint32_t a : {0u, 1u, 0x10000000u, 0x80000000u, 0xFFFFFFFFu, 0x7FFFFFFFu, 0xFFFF0000u,
                     0x00010000u, 0xFFFFFFFEu, 0x40000001u})
    inputs.push_back({a, 0, 0, 0});
  check(body, inputs, [](const Words &in) -> Words {
    const uint32_t a = in[0];
    const uint32_t s = int32_t(a) < 0 ? ~a : a;
    return {a ? uint32_t(std::countl_zero(a)) : ~0u, s ? uint32_t(std::countl_zero(s)) : ~0u,
            a ? uint32_t(std::countr_zero(a)) : ~0u, 0};
  });
}

TEST_F(DxilExecution, BitfieldExtractAndInsertEdges) {
  // Width and offset are masked to 5 bits; width 0 gives 0 (Ibfe, Ubfe) or the base (Bfi); a
  // field that runs past bit 31 stops there.
  const std::string body = R"(
  %r0 = call i32 @dx.op.tertiary.i32(i32 51, i32 %a, i32 %b, i32 %c)
  %r1 = call i32 @dx.op.tertiary.i32(i32 52, i32 %a, i32 %b, i32 %c)
  %r2 = call i32 @dx.op.quaternary.i32(i32 53, i32 %a, i32 %b, i32 %c, i32 %d)
  %r3 = add i32 0, 0)";
  std::vector<Words> inputs;
  for (uint32_t width : {0u, 1u, 5u, 16u, 31u, 32u, 33u, 0xFFFFFFFFu})
    for (uint32_t offset : {0u, 1u, 16u, 28u, 31u, 32u, 40u})
      inputs.push_back({width, offset, width & 1 ? 0x80000001u : 0xDEADBEEFu, 0x12345678u});
  check(body, inputs, [](const Words &in) -> Words {
    const uint32_t w = in[0] & 31, o = in[1] & 31, v = in[2], base = in[3];
    auto extract = [&](bool sign) -> uint32_t {
      if (w == 0)
        return 0;
      if (w + o < 32) {
        const uint32_t shifted = v << (32 - (w + o));
        return sign ? uint32_t(int32_t(shifted) >> (32 - w)) : shifted >> (32 - w);
      }
      return sign ? uint32_t(int32_t(v) >> o) : v >> o;
    };
    const uint32_t mask = uint32_t((((uint64_t(1) << w) - 1) << o) & 0xFFFFFFFFu);
    return {extract(true), extract(false), ((v << o) & mask) | (base & ~mask), 0};
  });
}

TEST_F(DxilExecution, SaturateAndMinMaxWithNaN) {
  // Saturate(NaN) is 0; FMin and FMax return the other operand when one is NaN.
  const std::string body = R"(
  %s = call float @dx.op.unary.f32(i32 7, float %fa)
  %mx = call float @dx.op.binary.f32(i32 35, float %fa, float %fb)
  %mn = call float @dx.op.binary.f32(i32 36, float %fa, float %fb)
  %r0 = bitcast float %s to i32
  %r1 = bitcast float %mx to i32
  %r2 = bitcast float %mn to i32
  %r3 = add i32 0, 0)";
  const float nan = std::nanf(""), inf = INFINITY;
  std::vector<Words> inputs;
  for (float a : {nan, -nan, inf, -inf, 0.5f, 2.0f, -3.0f, 1.0f})
    for (float b : {nan, 1.5f, -inf})
      inputs.push_back({bits(a), bits(b), 0, 0});
  check(
      body, inputs,
      [](const Words &in) -> Words {
        const float a = std::bit_cast<float>(in[0]), b = std::bit_cast<float>(in[1]);
        const float sat = std::isnan(a) ? 0.0f : std::min(1.0f, std::max(0.0f, a));
        auto pick = [&](bool max) {
          if (std::isnan(a))
            return b;
          if (std::isnan(b))
            return a;
          return max ? std::max(a, b) : std::min(a, b);
        };
        return {bits(sat), bits(pick(true)), bits(pick(false)), 0};
      },
      /*floats=*/true);
}

TEST_F(DxilExecution, UnsignedDivideByZeroGivesAllOnes) {
  const std::string body = R"(
  %q = call %dx.types.twoi32 @dx.op.binaryWithTwoOuts.i32(i32 43, i32 %a, i32 %b)
  %r0 = extractvalue %dx.types.twoi32 %q, 0
  %r1 = extractvalue %dx.types.twoi32 %q, 1
  %r2 = add i32 0, 0
  %r3 = add i32 0, 0)";
  const std::vector<Words> inputs =
      pairsOf({0u, 7u, 0xFFFFFFFFu, 0x80000000u}, {0u, 1u, 2u, 0xFFFFFFFFu});
  check(body, inputs, [](const Words &in) -> Words {
    const uint32_t a = in[0], b = in[1];
    return {b ? a / b : ~0u, b ? a % b : ~0u, 0, 0};
  });
}

TEST_F(DxilExecution, MultiplyGivesHighWordFirst) {
  // %dx.types.twoi32 of IMul and UMul: (high 32 bits, low 32 bits).
  const std::string body = R"(
  %s = call %dx.types.twoi32 @dx.op.binaryWithTwoOuts.i32(i32 41, i32 %a, i32 %b)
  %u = call %dx.types.twoi32 @dx.op.binaryWithTwoOuts.i32(i32 42, i32 %a, i32 %b)
  %r0 = extractvalue %dx.types.twoi32 %s, 0
  %r1 = extractvalue %dx.types.twoi32 %s, 1
  %r2 = extractvalue %dx.types.twoi32 %u, 0
  %r3 = extractvalue %dx.types.twoi32 %u, 1)";
  const std::vector<Words> inputs = pairsOf({0u, 2u, 0xFFFFFFFFu, 0x80000000u, 0x12345678u},
                                            {2u, 0xFFFFFFFFu, 0x80000000u, 0x9ABCDEF0u});
  check(body, inputs, [](const Words &in) -> Words {
    const int64_t s = int64_t(int32_t(in[0])) * int64_t(int32_t(in[1]));
    const uint64_t u = uint64_t(in[0]) * uint64_t(in[1]);
    return {uint32_t(uint64_t(s) >> 32), uint32_t(s), uint32_t(u >> 32), uint32_t(u)};
  });
}

TEST_F(DxilExecution, AddWithCarryAndSubtractWithBorrow) {
  const std::string body = R"(
  %add = call %dx.types.i32c @dx.op.binaryWithCarryOrBorrow.i32(i32 44, i32 %a, i32 %b)
  %sub = call %dx.types.i32c @dx.op.binaryWithCarryOrBorrow.i32(i32 45, i32 %a, i32 %b)
  %r0 = extractvalue %dx.types.i32c %add, 0
  %carry = extractvalue %dx.types.i32c %add, 1
  %r1 = zext i1 %carry to i32
  %r2 = extractvalue %dx.types.i32c %sub, 0
  %borrow = extractvalue %dx.types.i32c %sub, 1
  %r3 = zext i1 %borrow to i32)";
  const std::vector<Words> inputs =
      pairsOf({0u, 1u, 0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFFu}, {0u, 1u, 0x80000000u, 0xFFFFFFFFu});
  check(body, inputs, [](const Words &in) -> Words {
    const uint32_t a = in[0], b = in[1];
    return {a + b, uint32_t(a + b < a), a - b, uint32_t(a < b)};
  });
}

/// b1 and b2 of space 0 read with cbufferLoadLegacy: b2's row 0 (.y), its row 1 (.x, the only
/// value of that row the root constants hold), its row %a (.x) and b1's row 0 (.z).
std::string rootConstantsProgram() {
  const std::string declarations = kDeclarations + R"(
%dx.types.CBufRet.i32 = type { i32, i32, i32, i32 }
%cb.first = type { [3 x i32] }
%cb.second = type { [5 x i32] }
@first = external constant %cb.first
@second = external constant %cb.second
declare %dx.types.CBufRet.i32 @dx.op.cbufferLoadLegacy.i32(i32, %dx.types.Handle, i32)
)";
  const std::string body = R"(entry:
  %h = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 1, i32 0, i32 0, i1 false)
  %c1 = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 2, i32 0, i32 1, i1 false)
  %c2 = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 2, i32 1, i32 2, i1 false)
  %tid = call i32 @dx.op.threadId.i32(i32 93, i32 0)
  %in = shl i32 %tid, 4
  %ld = call %dx.types.ResRet.i32 @dx.op.rawBufferLoad.i32(i32 139, %dx.types.Handle %h, i32 %in, i32 undef, i8 15, i32 4)
  %a = extractvalue %dx.types.ResRet.i32 %ld, 0
  %row0 = call %dx.types.CBufRet.i32 @dx.op.cbufferLoadLegacy.i32(i32 59, %dx.types.Handle %c2, i32 0)
  %r0 = extractvalue %dx.types.CBufRet.i32 %row0, 1
  %row1 = call %dx.types.CBufRet.i32 @dx.op.cbufferLoadLegacy.i32(i32 59, %dx.types.Handle %c2, i32 1)
  %r1 = extractvalue %dx.types.CBufRet.i32 %row1, 0
  %rowa = call %dx.types.CBufRet.i32 @dx.op.cbufferLoadLegacy.i32(i32 59, %dx.types.Handle %c2, i32 %a)
  %r2 = extractvalue %dx.types.CBufRet.i32 %rowa, 0
  %first = call %dx.types.CBufRet.i32 @dx.op.cbufferLoadLegacy.i32(i32 59, %dx.types.Handle %c1, i32 0)
  %r3 = extractvalue %dx.types.CBufRet.i32 %first, 2
  %out = add i32 %in, )" + std::to_string(kOutputOffset) +
                           R"(
  call void @dx.op.rawBufferStore.i32(i32 140, %dx.types.Handle %h, i32 %out, i32 undef, i32 %r0, i32 %r1, i32 %r2, i32 %r3, i8 15, i32 4)
  ret void
)";
  return computeShader(declarations, body, "!{null, !{!10}, !{!11, !12}, null}",
                       std::string(kResourceMetadata) +
                           "!11 = !{i32 0, %cb.first* @first, !\"first\", i32 0, i32 1, i32 1, "
                           "i32 12, null}\n"
                           "!12 = !{i32 1, %cb.second* @second, !\"second\", i32 0, i32 2, i32 "
                           "1, i32 20, null}\n");
}

/// A root signature: 3 root constants at b1, a descriptor table, 5 root constants at b2.
DxilTranslateOptions rootConstantsOptions() {
  dxil::RootSignature signature;
  dxil::RootParameter first, table, second;
  first.type = second.type = dxil::RootParameterType::Constants32Bit;
  first.shaderRegister = 1;
  first.num32BitValues = 3;
  second.shaderRegister = 2;
  second.num32BitValues = 5;
  table.type = dxil::RootParameterType::DescriptorTable;
  signature.parameters = {first, table, second};
  DxilTranslateOptions options;
  EXPECT_TRUE(applyRootSignature(signature, false, options.bindings).ok());
  return options;
}

TEST(DxilTranslateRootConstants, ConstantBuffersOfRootConstantsArePushConstants) {
  if (!haveLlvmAs())
    GTEST_SKIP() << "llvm-as-14 not installed (Debian package llvm-14)";
  const DxilTranslateOptions options = rootConstantsOptions();
  ASSERT_EQ(options.bindings.rootConstants.size(), 2u);
  EXPECT_EQ(options.bindings.rootConstants[1].offset, 12u) << "after b1's three values";
  Translation t = translateLl(rootConstantsProgram(), options);
  ASSERT_EQ(t.error, "");
  EXPECT_NE(t.spvasm.find("OpVariable %_ptr_PushConstant_"), std::string::npos) << t.spvasm;
  EXPECT_NE(t.spvasm.find("OpMemberDecorate %_struct_"), std::string::npos) << t.spvasm;
  EXPECT_NE(t.spvasm.find(" 1 Offset 12"), std::string::npos) << t.spvasm;
  EXPECT_EQ(t.spvasm.find("Uniform"), std::string::npos) << "no uniform buffer is left";
  // --bindings json: each constant buffer's place in the block.
  std::string error;
  std::vector<uint8_t> bitcode = assemble(rootConstantsProgram(), error);
  Expected<std::vector<TranslatedShader>> shaders = translateDxilBytes(bitcode, options);
  ASSERT_TRUE(shaders.ok());
  const std::string json = bindingsJson(shaders->front());
  EXPECT_NE(json.find("\"offset\": 12,\n      \"size\": 20,\n      \"type\": \"push-constant\""),
            std::string::npos)
      << json;
  // An array of constant buffers cannot be root constants.
  DxilTranslateOptions arrayed = options;
  arrayed.bindings.rootConstants = {{0, 0, 4, 0}};
  const std::string program = rootConstantsProgram();
  std::string text = program;
  text.replace(text.find("i32 0, i32 1, i32 1, i32 12"), 27, "i32 0, i32 0, i32 2, i32 12");
  Translation bad = translateLl(text, arrayed);
  EXPECT_NE(bad.error.find("is an array that holds root constants"), std::string::npos)
      << bad.error;
}

TEST_F(DxilExecution, RootConstantsAreReadFromPushConstants) {
  std::vector<uint8_t> push(32);
  const uint32_t values[8] = {10, 11, 12, 20, 21, 22, 23, 24}; // b1's 3, then b2's 5
  std::memcpy(push.data(), values, sizeof values);
  const std::vector<Words> inputs = {{0, 0, 0, 0}, {1, 0, 0, 0}, {7, 0, 0, 0}};
  std::vector<Words> got = runProgram(rootConstantsProgram(), inputs, rootConstantsOptions(), push);
  ASSERT_EQ(got.size(), inputs.size());
  // Row %a of b2: row 0 starts with 20, row 1 with 24; a row past the end is clamped to the
  // last value.
  const uint32_t rowA[3] = {20, 24, 24};
  for (size_t i = 0; i < inputs.size(); ++i) {
    EXPECT_EQ(got[i][0], 21u);
    EXPECT_EQ(got[i][1], 24u);
    EXPECT_EQ(got[i][2], rowA[i]) << "row " << inputs[i][0];
    EXPECT_EQ(got[i][3], 12u);
  }
}

/// Root descriptors read through their addresses: b0 (a root CBV; row 1's .y), t0 (a root SRV,
/// a raw buffer: the word at 4 * %a) and u1 (a root UAV: an atomic add of the thread's %b at
/// word 0, and the word at 8 + 4 * thread set to %a + 1).
std::string rootAddressProgram() {
  const std::string declarations = kDeclarations + R"(
%dx.types.CBufRet.i32 = type { i32, i32, i32, i32 }
%cb.params = type { [8 x i32] }
%struct.ByteAddressBuffer = type { i32 }
@params = external constant %cb.params
@src = external constant %struct.ByteAddressBuffer
@dst = external global %struct.RWByteAddressBuffer
declare %dx.types.CBufRet.i32 @dx.op.cbufferLoadLegacy.i32(i32, %dx.types.Handle, i32)
declare i32 @dx.op.atomicBinOp.i32(i32, %dx.types.Handle, i32, i32, i32, i32, i32)
)";
  const std::string body = R"(entry:
  %h = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 1, i32 0, i32 0, i1 false)
  %p = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 2, i32 0, i32 0, i1 false)
  %s = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 0, i32 0, i32 0, i1 false)
  %u = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 1, i32 1, i32 1, i1 false)
  %tid = call i32 @dx.op.threadId.i32(i32 93, i32 0)
  %in = shl i32 %tid, 4
  %ld = call %dx.types.ResRet.i32 @dx.op.rawBufferLoad.i32(i32 139, %dx.types.Handle %h, i32 %in, i32 undef, i8 15, i32 4)
  %a = extractvalue %dx.types.ResRet.i32 %ld, 0
  %b = extractvalue %dx.types.ResRet.i32 %ld, 1
  %row = call %dx.types.CBufRet.i32 @dx.op.cbufferLoadLegacy.i32(i32 59, %dx.types.Handle %p, i32 1)
  %r0 = extractvalue %dx.types.CBufRet.i32 %row, 1
  %at = shl i32 %a, 2
  %sl = call %dx.types.ResRet.i32 @dx.op.rawBufferLoad.i32(i32 139, %dx.types.Handle %s, i32 %at, i32 undef, i8 1, i32 4)
  %r1 = extractvalue %dx.types.ResRet.i32 %sl, 0
  %r2 = call i32 @dx.op.atomicBinOp.i32(i32 78, %dx.types.Handle %u, i32 0, i32 0, i32 undef, i32 undef, i32 %b)
  %mine = shl i32 %tid, 2
  %slot = add i32 %mine, 8
  %a1 = add i32 %a, 1
  call void @dx.op.rawBufferStore.i32(i32 140, %dx.types.Handle %u, i32 %slot, i32 undef, i32 %a1, i32 undef, i32 undef, i32 undef, i8 1, i32 4)
  %out = add i32 %in, )" + std::to_string(kOutputOffset) +
                           R"(
  call void @dx.op.rawBufferStore.i32(i32 140, %dx.types.Handle %h, i32 %out, i32 undef, i32 %r0, i32 %r1, i32 %r2, i32 0, i8 15, i32 4)
  ret void
)";
  return computeShader(declarations, body, "!{!{!12}, !{!10, !13}, !{!11}, null}",
                       std::string(kResourceMetadata) +
                           "!11 = !{i32 0, %cb.params* @params, !\"params\", i32 0, i32 0, i32 "
                           "1, i32 32, null}\n"
                           "!12 = !{i32 0, %struct.ByteAddressBuffer* @src, !\"src\", i32 0, i32 "
                           "0, i32 1, i32 11, i32 0, null}\n"
                           "!13 = !{i32 1, %struct.RWByteAddressBuffer* @dst, !\"dst\", i32 0, "
                           "i32 1, i32 1, i32 11, i1 false, i1 false, i1 false, null}\n");
}

/// A root signature of root constants (2 values), then b0, t0 and u1 as root descriptors: with
/// `descriptorsAsAddresses` their addresses at 8, 16 and 24 of the push constant block.
DxilTranslateOptions rootAddressOptions(bool asAddresses = true) {
  dxil::RootSignature signature;
  dxil::RootParameter constants, cbv, srv, uav;
  constants.type = dxil::RootParameterType::Constants32Bit;
  constants.shaderRegister = 7;
  constants.num32BitValues = 2;
  cbv.type = dxil::RootParameterType::CBV;
  srv.type = dxil::RootParameterType::SRV;
  uav.type = dxil::RootParameterType::UAV;
  uav.shaderRegister = 1;
  signature.parameters = {constants, cbv, srv, uav};
  DxilTranslateOptions options;
  EXPECT_TRUE(applyRootSignature(signature, false, options.bindings, asAddresses).ok());
  return options;
}

TEST_F(DxilExecution, RootDescriptorsAreReadThroughTheirAddresses) {
  const DxilTranslateOptions options = rootAddressOptions();
  ASSERT_EQ(options.bindings.rootAddresses.size(), 3u);
  EXPECT_EQ(options.bindings.rootAddresses[0].offset, 8u);
  EXPECT_EQ(options.bindings.rootAddresses[2].offset, 24u);
  // Without the option they stay descriptors.
  Translation plain = translateLl(rootAddressProgram(), rootAddressOptions(false));
  ASSERT_EQ(plain.error, "");
  EXPECT_EQ(plain.spvasm.find("PhysicalStorageBuffer"), std::string::npos) << plain.spvasm;
  Translation t = translateLl(rootAddressProgram(), options);
  ASSERT_EQ(t.error, "");
  EXPECT_NE(t.spvasm.find("OpMemoryModel PhysicalStorageBuffer64"), std::string::npos);
  EXPECT_EQ(t.spvasm.find("OpDecorate %dst Binding"), std::string::npos) << t.spvasm;

  // b0 holds 100, 101, ...; t0 1000, 1003, ...; u1 zeros.
  auto words = [](uint32_t count, uint32_t first, uint32_t step) {
    std::vector<uint8_t> bytes(4 * count);
    for (uint32_t i = 0; i < count; ++i) {
      const uint32_t v = first + step * i;
      std::memcpy(bytes.data() + 4 * i, &v, 4);
    }
    return bytes;
  };
  std::map<uint32_t, std::vector<uint8_t>> addressed = {
      {8, words(8, 100, 1)}, {16, words(16, 1000, 3)}, {24, words(16, 0, 0)}};
  const std::vector<Words> inputs = {{0, 1, 0, 0}, {5, 2, 0, 0}, {15, 4, 0, 0}};
  std::vector<Words> got = runProgram(rootAddressProgram(), inputs, options, {}, {}, 0, &addressed);
  ASSERT_EQ(got.size(), inputs.size());
  uint32_t sum = 0;
  std::vector<uint32_t> before;
  for (size_t i = 0; i < inputs.size(); ++i) {
    EXPECT_EQ(got[i][0], 105u) << "b0's row 1, .y";
    EXPECT_EQ(got[i][1], 1000u + 3 * inputs[i][0]) << "t0's word " << inputs[i][0];
    before.push_back(got[i][2]);
    sum += inputs[i][1];
  }
  // The atomic adds, in some order: each thread saw the sum of the ones before it.
  std::sort(before.begin(), before.end());
  EXPECT_EQ(before.front(), 0u);
  ASSERT_EQ(addressed[24].size(), 64u);
  uint32_t u1[16];
  std::memcpy(u1, addressed[24].data(), 64);
  EXPECT_EQ(u1[0], sum) << "u1's word 0 after the atomics";
  for (size_t i = 0; i < inputs.size(); ++i)
    EXPECT_EQ(u1[2 + i], inputs[i][0] + 1) << "u1's word " << 2 + i;
}

/// t1 and t2 of space 0 (an SRV array of raw buffers) read through a descriptor table in the
/// heap: each thread loads the first word of t1 + (thread & 1).
std::string heapTableProgram() {
  const std::string declarations = kDeclarations + R"(
%struct.ByteAddressBuffer = type { i32 }
@srv = external constant [2 x %struct.ByteAddressBuffer]
)";
  const std::string body = R"(entry:
  %h = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 1, i32 0, i32 0, i1 false)
  %tid = call i32 @dx.op.threadId.i32(i32 93, i32 0)
  %odd = and i32 %tid, 1
  %reg = add i32 %odd, 1
  %t = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 0, i32 0, i32 %reg, i1 false)
  %ld = call %dx.types.ResRet.i32 @dx.op.rawBufferLoad.i32(i32 139, %dx.types.Handle %t, i32 0, i32 undef, i8 1, i32 4)
  %r0 = extractvalue %dx.types.ResRet.i32 %ld, 0
  %in = shl i32 %tid, 4
  %out = add i32 %in, )" + std::to_string(kOutputOffset) +
                           R"(
  call void @dx.op.rawBufferStore.i32(i32 140, %dx.types.Handle %h, i32 %out, i32 undef, i32 %r0, i32 %reg, i32 0, i32 0, i8 15, i32 4)
  ret void
)";
  return computeShader(declarations, body, "!{!{!13}, !{!10}, null, null}",
                       std::string(kResourceMetadata) +
                           "!13 = !{i32 0, [2 x %struct.ByteAddressBuffer]* @srv, !\"srv\", i32 "
                           "0, i32 1, i32 2, i32 11, i32 0, null}\n");
}

/// Two root constants, then a table whose SRV range t0..t3 starts 3 descriptors into it, then
/// u0 as a root descriptor (a binding as always).
DxilTranslateOptions heapTableOptions(bool tablesInHeap = true) {
  dxil::RootSignature signature;
  dxil::RootParameter constants, table, uav;
  constants.type = dxil::RootParameterType::Constants32Bit;
  constants.num32BitValues = 2;
  table.type = dxil::RootParameterType::DescriptorTable;
  dxil::DescriptorRange range;
  range.rangeType = 0; // SRV
  range.numDescriptors = 4;
  range.offsetInDescriptorsFromTableStart = 3;
  table.ranges = {range};
  uav.type = dxil::RootParameterType::UAV;
  signature.parameters = {constants, table, uav};
  DxilTranslateOptions options;
  EXPECT_TRUE(applyRootSignature(signature, tablesInHeap, options.bindings).ok());
  return options;
}

TEST(DxilTranslateRootConstants, DescriptorTablesInTheHeapStartAtAPushConstant) {
  if (!haveLlvmAs())
    GTEST_SKIP() << "llvm-as-14 not installed (Debian package llvm-14)";
  const DxilTranslateOptions options = heapTableOptions();
  ASSERT_EQ(options.bindings.heapTables.size(), 1u);
  EXPECT_EQ(options.bindings.heapTables[0].offset, 8u) << "after the two root constants";
  EXPECT_EQ(options.bindings.heapTables[0].offsetInTable, 3u);
  Translation t = translateLl(heapTableProgram(), options);
  ASSERT_EQ(t.error, "");
  EXPECT_NE(t.spvasm.find("OpDecorate %srv DescriptorSet 6"), std::string::npos) << t.spvasm;
  EXPECT_NE(t.spvasm.find("OpVariable %_ptr_PushConstant_"), std::string::npos) << t.spvasm;
  EXPECT_NE(t.spvasm.find(" 0 Offset 8"), std::string::npos) << t.spvasm;
  std::string error;
  Expected<std::vector<TranslatedShader>> shaders =
      translateDxilBytes(assemble(heapTableProgram(), error), options);
  ASSERT_TRUE(shaders.ok());
  const std::string json = bindingsJson(shaders->front());
  EXPECT_NE(json.find("\"offset\": 8,\n      \"table-offset\": 4,\n      \"type\": \"heap-table\""),
            std::string::npos)
      << json;
  // Without the option the table's resources stay bindings.
  Translation plain = translateLl(heapTableProgram(), heapTableOptions(false));
  ASSERT_EQ(plain.error, "");
  EXPECT_EQ(plain.spvasm.find("PushConstant"), std::string::npos) << plain.spvasm;

  // A range appended after an unbounded one has no place; a table mixing samplers and SRVs.
  dxil::RootSignature bad;
  dxil::RootParameter table;
  table.type = dxil::RootParameterType::DescriptorTable;
  dxil::DescriptorRange unbounded, appended;
  unbounded.numDescriptors = 0xFFFFFFFFu;
  appended.offsetInDescriptorsFromTableStart = 0xFFFFFFFFu;
  table.ranges = {unbounded, appended};
  bad.parameters = {table};
  BindingModel model;
  Status s = applyRootSignature(bad, true, model);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("appended after an unbounded"), std::string::npos);
  appended.rangeType = 3;
  appended.offsetInDescriptorsFromTableStart = 8;
  bad.parameters[0].ranges = {unbounded, appended};
  s = applyRootSignature(bad, true, model);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("samplers and other descriptors"), std::string::npos);
}

TEST_F(DxilExecution, DescriptorTablesAreReadFromTheHeap) {
  // The table starts at heap descriptor 2: t1 is descriptor 2 + 3 + 1 = 6, t2 is 7. Each heap
  // buffer holds 100 + its index.
  std::vector<uint8_t> push(12, 0);
  const uint32_t start = 2;
  std::memcpy(push.data() + 8, &start, 4);
  constexpr uint32_t kHeap = 8, kPart = 16;
  std::vector<uint8_t> heap(kHeap * kPart, 0);
  for (uint32_t k = 0; k < kHeap; ++k) {
    const uint32_t v = 100 + k;
    std::memcpy(heap.data() + k * kPart, &v, 4);
  }
  const std::vector<Words> inputs(4, Words{0, 0, 0, 0});
  std::vector<Words> got =
      runProgram(heapTableProgram(), inputs, heapTableOptions(), push, {{{6, 1}, heap}}, kHeap);
  ASSERT_EQ(got.size(), inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    EXPECT_EQ(got[i][1], 1 + (i & 1)) << "thread " << i << " reads t" << got[i][1];
    EXPECT_EQ(got[i][0], 106 + (i & 1)) << "thread " << i;
  }
}

} // namespace
} // namespace spire::translate::test
