// AMD AGS shader intrinsics (TranslateAgs.cpp) on small programs written the way AMD's
// ags_shader_intrinsics_dx12.hlsl encodes them: atomicCompareExchange on the UAV in register
// space 2147420894, instruction word 5 << 28 | phase << 24 | data << 8 | opcode. WMMA loads,
// multiply-adds, stores, element access and float8 conversions become cooperative matrix and
// SPV_EXT_float8 instructions; malformed sequences are refused with one line.
#include "unit/translate/DxilTranslateTestSupport.h"

#include <gtest/gtest.h>

#include <regex>

namespace spire::translate::test {
namespace {

#define REQUIRE_LLVM_AS()                                                                          \
  if (!haveLlvmAs())                                                                               \
  GTEST_SKIP() << "llvm-as-14 not installed (Debian package llvm-14)"

bool has(const Translation &t, const std::string &text) {
  return t.spvasm.find(text) != std::string::npos;
}

size_t count(const Translation &t, const std::string &text) {
  size_t n = 0;
  for (size_t at = t.spvasm.find(text); at != std::string::npos; at = t.spvasm.find(text, at + 1))
    ++n;
  return n;
}

// Driver opcodes and matrix properties (format | use << 4 | colMajor << 7).
constexpr uint32_t kMulAcc = 0x28, kUavLoad = 0x29, kUavStore = 0x2a, kLdsLoad = 0x2d,
                   kLdsStore = 0x2e, kElementFill = 0x2f, kElementExtract = 0x30, kCopy = 0x32,
                   kFloat8Conversion = 0x36;
constexpr uint32_t kF16A = 0x04, kF16B = 0x14, kF32C = 0x26, kFP8B = 0x1a, kFP8C = 0x2a;

uint32_t code(uint32_t opcode, uint32_t phase, uint32_t data) {
  return 5u << 28 | phase << 24 | data << 8 | opcode;
}

/// One intrinsic: `%result = ` (when given) atomicCompareExchange on %ags.
std::string ags(const std::string &result, uint32_t word, const std::string &arg0,
                const std::string &arg1) {
  return "  " + (result.empty() ? std::string() : "%" + result + " = ") +
         "call i32 @dx.op.atomicCompareExchange.i32(i32 79, %dx.types.Handle %ags, i32 " +
         std::to_string(word) + ", i32 undef, i32 undef, i32 " + arg0 + ", i32 " + arg1 + ")\n";
}

/// The 8 result registers of `opcode` (phase `phase`) as %<name>0 .. %<name>7.
std::string results(const std::string &name, uint32_t opcode, uint32_t phase) {
  std::string text;
  for (uint32_t r = 0; r < 8; ++r)
    text += ags(name + std::to_string(r), code(opcode, phase, (r & 3) | (r >> 2) << 4), "0", "0");
  return text;
}

/// Operand registers (regType) from `regs` (8 names or constants), two per call.
std::string operands(uint32_t opcode, uint32_t phase, uint32_t regType,
                     const std::vector<std::string> &regs) {
  std::string text;
  for (uint32_t pair = 0; pair < 4; ++pair) {
    const uint32_t channel = pair & 1, second = pair >> 1;
    text += ags("", code(opcode, phase, channel | second << 4 | regType << 8),
                regs[second * 4 + channel * 2], regs[second * 4 + channel * 2 + 1]);
  }
  return text;
}

std::vector<std::string> names(const std::string &name, uint32_t used = 8) {
  std::vector<std::string> regs;
  for (uint32_t r = 0; r < 8; ++r)
    regs.push_back(r < used ? "%" + name + std::to_string(r) : "0");
  return regs;
}

/// A WMMA load of `props` from %<buffer> at (offset, stride) into %<name>0..7.
std::string load(const std::string &name, const std::string &buffer, uint32_t props,
                 uint32_t offset, uint32_t stride) {
  return ags(name + ".bell", code(kUavLoad, 0, 0), std::to_string(offset), std::to_string(stride)) +
         "  %" + name + ".ld = call %dx.types.ResRet.i32 @dx.op.rawBufferLoad.i32(i32 139, " +
         "%dx.types.Handle %" + buffer + ", i32 %" + name + ".bell, i32 undef, i8 1, i32 4)\n" +
         "  %" + name + ".hook = extractvalue %dx.types.ResRet.i32 %" + name + ".ld, 0\n" +
         ags("", code(kUavLoad, 1, props), "%" + name + ".hook", "0") + results(name, kUavLoad, 2);
}

/// A WMMA store of the registers `regs` (`props`) to %out at (offset, stride).
std::string store(const std::string &name, const std::vector<std::string> &regs, uint32_t props,
                  uint32_t offset, uint32_t stride) {
  return ags(name + ".bell", code(kUavStore, 0, 0), std::to_string(offset),
             std::to_string(stride)) +
         "  %" + name + ".ld = call %dx.types.ResRet.i32 @dx.op.rawBufferLoad.i32(i32 139, " +
         "%dx.types.Handle %out, i32 %" + name + ".bell, i32 undef, i8 1, i32 4)\n" + "  %" + name +
         ".hook = extractvalue %dx.types.ResRet.i32 %" + name + ".ld, 0\n" +
         operands(kUavStore, 1, 0, regs) +
         ags("", code(kUavStore, 2, props), "%" + name + ".hook", "0");
}

/// A compute shader (SM 6.2, 8 threads) with t0 (%in) and u0 (%out) raw buffers and the AGS
/// UAV (%ags); `body` runs between the handles and `ret void`.
std::string program(const std::string &body) {
  const std::string declarations = R"(
@lds = addrspace(3) global [512 x i32] undef, align 4
%dx.types.ResRet.i32 = type { i32, i32, i32, i32, i32 }
%struct.ByteAddressBuffer = type { i32 }
%struct.RWByteAddressBuffer = type { i32 }
declare %dx.types.Handle @dx.op.createHandle(i32, i8, i32, i32, i1)
declare i32 @dx.op.threadId.i32(i32, i32)
declare i32 @dx.op.atomicCompareExchange.i32(i32, %dx.types.Handle, i32, i32, i32, i32, i32)
declare %dx.types.ResRet.i32 @dx.op.rawBufferLoad.i32(i32, %dx.types.Handle, i32, i32, i8, i32)
declare void @dx.op.rawBufferStore.i32(i32, %dx.types.Handle, i32, i32, i32, i32, i32, i32, i8, i32)
)";
  const std::string text = "entry:\n"
                           "  %ags = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 1, "
                           "i32 1, i32 0, i1 false)\n"
                           "  %in = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 0, i32 "
                           "0, i32 0, i1 false)\n"
                           "  %out = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 1, i32 "
                           "0, i32 0, i1 false)\n" +
                           body + "  ret void\n";
  const std::string metadata =
      "!10 = !{!12}\n!11 = !{!13, !14}\n"
      "!12 = !{i32 0, %struct.ByteAddressBuffer* undef, !\"in\", i32 0, i32 0, i32 1, i32 11, "
      "i32 0, null}\n"
      "!13 = !{i32 0, %struct.RWByteAddressBuffer* undef, !\"out\", i32 0, i32 0, i32 1, i32 "
      "11, i1 false, i1 false, i1 false, null}\n"
      "!14 = !{i32 1, %struct.RWByteAddressBuffer* undef, !\"ags\", i32 2147420894, i32 0, i32 "
      "1, i32 11, i1 false, i1 false, i1 false, null}\n";
  return computeShader(declarations, text, "!{!10, !11, null, null}", metadata);
}

/// The AGS UAV never reaches the module: no descriptor in its space, no atomics.
void expectNoMagicUav(const Translation &t) {
  EXPECT_FALSE(has(t, "DescriptorSet 2147420894")) << t.spvasm;
  EXPECT_FALSE(has(t, "OpAtomicCompareExchange")) << t.spvasm;
  EXPECT_FALSE(has(t, "\"ags\"")) << t.spvasm;
}

TEST(DxilTranslateAgs, MatrixLoadAndStoreAreCooperativeMatrixLoadAndStore) {
  REQUIRE_LLVM_AS();
  // An f32 accumulator from t0 (offset 64, stride 64 bytes) stored to u0 (offset 0, stride 64).
  Translation t =
      translateLl(program(load("c", "in", kF32C, 64, 64) + store("s", names("c"), kF32C, 0, 64)));
  ASSERT_EQ(t.error, "");
  EXPECT_TRUE(has(t, "OpCapability CooperativeMatrixKHR")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpMemoryModel Logical Vulkan")) << t.spvasm;
  EXPECT_TRUE(std::regex_search(
      t.spvasm, std::regex("= OpTypeCooperativeMatrixKHR %float %uint_3 %uint_16 %uint_16 "
                           "%uint_2")))
      << t.spvasm;
  // The load reads the 8-bit view at byte 64, row major, a 64-byte stride; the store writes the
  // loaded matrix itself (its registers are not repacked).
  EXPECT_TRUE(
      std::regex_search(t.spvasm, std::regex("(%\\w+) = OpAccessChain %_ptr_StorageBuffer_uchar "
                                             "%\\w+ %uint_0 %uint_64\\n.*(%\\w+) = "
                                             "OpCooperativeMatrixLoadKHR %\\w+ \\1 %uint_0 "
                                             "%uint_64 NonPrivatePointer")))
      << t.spvasm;
  EXPECT_TRUE(std::regex_search(t.spvasm, std::regex("OpCooperativeMatrixStoreKHR %\\w+ %\\w+ "
                                                     "%uint_0 %uint_64 NonPrivatePointer")))
      << t.spvasm;
  EXPECT_FALSE(has(t, "OpCompositeInsert")) << t.spvasm;
  // The program's reads at the returned addresses only name the buffers: nothing loads a word.
  EXPECT_FALSE(has(t, "OpLoad")) << t.spvasm;
  expectNoMagicUav(t);
}

TEST(DxilTranslateAgs, MulAccIsCooperativeMatrixMulAdd) {
  REQUIRE_LLVM_AS();
  // D = A * B + C, F32_16X16X16_F16 (WMMA opcode 5): A and B are f16 (4 registers each).
  std::string body = load("a", "in", kF16A, 0, 32) + load("b", "in", kF16B, 512, 32) +
                     load("c", "in", kF32C, 1024, 64);
  body += operands(kMulAcc, 0, 1, names("a", 4)) + operands(kMulAcc, 0, 2, names("b", 4)) +
          operands(kMulAcc, 0, 3, names("c")) + ags("", code(kMulAcc, 1, 5), "0", "0") +
          results("d", kMulAcc, 2) + store("s", names("d"), kF32C, 0, 64);
  Translation t = translateLl(program(body));
  ASSERT_EQ(t.error, "");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(
      t.spvasm, m,
      std::regex("(%\\w+) = OpCooperativeMatrixMulAddKHR (%\\w+) (%\\w+) (%\\w+) (%\\w+)")))
      << t.spvasm;
  // A (use 0) and B (use 1) of f16, C and the result (use 2) of f32, the matrices loaded.
  for (const auto &[operand, use] :
       std::vector<std::pair<std::string, std::string>>{{m[3], "0"}, {m[4], "1"}, {m[5], "2"}}) {
    std::smatch def;
    ASSERT_TRUE(std::regex_search(t.spvasm, def,
                                  std::regex(operand + " = OpCooperativeMatrixLoadKHR (%\\w+) ")))
        << operand << "\n"
        << t.spvasm;
    EXPECT_TRUE(std::regex_search(
        t.spvasm,
        std::regex(std::string(def[1]) + " = OpTypeCooperativeMatrixKHR %" +
                   (use == "2" ? "float" : "half") + " %uint_3 %uint_16 %uint_16 %uint_" + use)))
        << operand << " use " << use << "\n"
        << t.spvasm;
  }
  // B's row-major AGS layout is SPIR-V's column major.
  EXPECT_TRUE(std::regex_search(t.spvasm, std::regex(std::string(m[4]) +
                                                     " = OpCooperativeMatrixLoadKHR %\\w+ %\\w+ "
                                                     "%uint_1 %uint_32")))
      << t.spvasm;
  EXPECT_TRUE(std::regex_search(t.spvasm, std::regex("OpCooperativeMatrixStoreKHR %\\w+ " +
                                                     std::string(m[1]) + " %uint_0 %uint_64")))
      << t.spvasm;
  expectNoMagicUav(t);
}

TEST(DxilTranslateAgs, RegistersOfTheProgramArePackedIntoAMatrix) {
  REQUIRE_LLVM_AS();
  // The registers of an f32 accumulator come from a plain buffer load: the store packs them.
  std::string body = "  %tid = call i32 @dx.op.threadId.i32(i32 93, i32 0)\n"
                     "  %addr = shl i32 %tid, 5\n"
                     "  %w = call %dx.types.ResRet.i32 @dx.op.rawBufferLoad.i32(i32 139, "
                     "%dx.types.Handle %in, i32 %addr, i32 undef, i8 15, i32 4)\n";
  for (int r = 0; r < 8; ++r)
    body += "  %r" + std::to_string(r) + " = extractvalue %dx.types.ResRet.i32 %w, " +
            std::to_string(r % 4) + "\n";
  body += store("s", names("r"), kF32C, 0, 64);
  Translation t = translateLl(program(body));
  ASSERT_EQ(t.error, "");
  EXPECT_EQ(count(t, "OpCompositeInsert"), 8u) << t.spvasm; // 8 f32 elements per lane
  EXPECT_TRUE(has(t, "OpCooperativeMatrixStoreKHR")) << t.spvasm;
  expectNoMagicUav(t);
}

TEST(DxilTranslateAgs, Float8ConversionsAreFConvertOnFloat8) {
  REQUIRE_LLVM_AS();
  // Scalar: F32 -> FP8 saturating (op 2 | 1 << 8) and BF8 -> F32 (op 1).
  std::string body = "  %tid = call i32 @dx.op.threadId.i32(i32 93, i32 0)\n" +
                     ags("f8", code(kFloat8Conversion, 0, 2 | 1 << 8), "%tid", "0") +
                     ags("f32", code(kFloat8Conversion, 0, 1), "%tid", "0") +
                     "  call void @dx.op.rawBufferStore.i32(i32 140, %dx.types.Handle %out, i32 "
                     "%tid, i32 undef, i32 %f8, i32 %f32, i32 0, i32 0, i8 3, i32 4)\n";
  // Matrix: an f32 accumulator quantized to FP8 with saturation (WaveMatrixCopy).
  body += load("c", "in", kF32C, 0, 64) + ags("", code(kCopy, 0, 0), "0", "0") +
          operands(kCopy, 0, 0, names("c")) +
          ags("", code(kCopy, 1, kF32C), std::to_string(kFP8C), "1") + results("q", kCopy, 2) +
          store("s", names("q", 2), kFP8C, 0, 16);
  Translation t = translateLl(program(body));
  ASSERT_EQ(t.error, "");
  EXPECT_TRUE(has(t, "OpCapability Float8EXT")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpCapability Float8CooperativeMatrixEXT")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpTypeFloat 8 Float8E4M3EXT")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpTypeFloat 8 Float8E5M2EXT")) << t.spvasm;
  // Two saturating narrowings (the scalar and the matrix), one widening.
  EXPECT_EQ(count(t, "SaturatedToLargestFloat8NormalConversionEXT"), 2u) << t.spvasm;
  EXPECT_EQ(count(t, "OpFConvert"), 3u) << t.spvasm;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(t.spvasm, m,
                                std::regex("(%\\w+) = OpTypeCooperativeMatrixKHR %\\w+ %uint_3 "
                                           "%uint_16 %uint_16 %uint_2\\n")))
      << t.spvasm;
  EXPECT_TRUE(std::regex_search(t.spvasm, std::regex("= OpFConvert %\\w+ %\\w+\\n")));
  expectNoMagicUav(t);
}

TEST(DxilTranslateAgs, UnusedMagicUavIsNotDeclared) {
  REQUIRE_LLVM_AS();
  Translation t = translateLl(program(""));
  ASSERT_EQ(t.error, "");
  expectNoMagicUav(t);
  EXPECT_FALSE(has(t, "CooperativeMatrix")) << t.spvasm;
}

TEST(DxilTranslateAgs, WmmaBuffersAreStorageBuffersWhenRawBuffersAreTexelBuffers) {
  REQUIRE_LLVM_AS();
  DxilTranslateOptions options;
  options.bindings.rawBuffersAsTexelBuffers = true;
  Translation t = translateLl(
      program(load("c", "in", kF32C, 0, 64) + store("s", names("c"), kF32C, 0, 64)), options);
  ASSERT_EQ(t.error, "");
  EXPECT_TRUE(has(t, "OpCooperativeMatrixLoadKHR")) << t.spvasm;
  EXPECT_FALSE(has(t, "OpTypeImage")) << t.spvasm; // no texel buffer left
}

/// The groupshared address phase of `opcode`: %<name>.hook read at @lds[offset].
std::string groupsharedAddress(const std::string &name, uint32_t opcode, uint32_t offset,
                               uint32_t stride) {
  return ags(name + ".bell", code(opcode, 0, 0), std::to_string(offset), std::to_string(stride)) +
         "  %" + name + ".ptr = getelementptr [512 x i32], [512 x i32] addrspace(3)* @lds, " +
         "i32 0, i32 %" + name + ".bell\n" + "  %" + name +
         ".hook = atomicrmw add i32 addrspace(3)* %" + name + ".ptr, i32 0 seq_cst\n";
}

TEST(DxilTranslateAgs, GroupsharedLoadAndStoreGoThroughTheArray) {
  REQUIRE_LLVM_AS();
  // An accumulator stored to @lds (offset 32, stride 16 elements), loaded back, stored to u0.
  std::string body = load("c", "in", kF32C, 0, 64) + groupsharedAddress("w", kLdsStore, 32, 16) +
                     operands(kLdsStore, 1, 0, names("c")) +
                     ags("", code(kLdsStore, 2, kF32C), "%w.hook", "0") +
                     groupsharedAddress("r", kLdsLoad, 32, 16) +
                     ags("", code(kLdsLoad, 1, kF32C), "%r.hook", "0") + results("g", kLdsLoad, 2) +
                     store("s", names("g"), kF32C, 0, 64);
  Translation t = translateLl(program(body));
  ASSERT_EQ(t.error, "");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(
      t.spvasm, m, std::regex("(%\\w+) = OpAccessChain %_ptr_Workgroup_uint %lds %uint_32")))
      << t.spvasm;
  EXPECT_TRUE(
      std::regex_search(t.spvasm, std::regex("OpCooperativeMatrixStoreKHR " + std::string(m[1]) +
                                             " %\\w+ %uint_0 "
                                             "%uint_16 NonPrivatePointer")))
      << t.spvasm;
  EXPECT_TRUE(std::regex_search(t.spvasm, std::regex("= OpCooperativeMatrixLoadKHR %\\w+ %\\w+ "
                                                     "%uint_0 %uint_16 NonPrivatePointer")))
      << t.spvasm;
  // A subgroup barrier after the store and before the load, making memory available/visible.
  EXPECT_EQ(count(t, "OpControlBarrier %uint_3 %uint_3"), 2u) << t.spvasm;
  EXPECT_TRUE(has(t, "%uint_24840"))
      << t.spvasm; // AcquireRelease|Workgroup|MakeAvailable|MakeVisible
  // The atomic adds of 0 at the returned addresses only name the element: no atomic.
  EXPECT_FALSE(has(t, "OpAtomic")) << t.spvasm;
  expectNoMagicUav(t);
}

TEST(DxilTranslateAgs, ElementExtractAndFillWorkOnTheRegisters) {
  REQUIRE_LLVM_AS();
  // Element %tid of an f16 A matrix (4 registers, two elements each), then element 3 set to
  // 0x3C00 (1.0) and the matrix stored.
  std::string body = "  %tid = call i32 @dx.op.threadId.i32(i32 93, i32 0)\n" +
                     load("a", "in", kF16A, 0, 32) +
                     operands(kElementExtract, 0, 0, names("a", 4)) +
                     ags("e", code(kElementExtract, 1, kF16A), "%tid", "0") +
                     "  call void @dx.op.rawBufferStore.i32(i32 140, %dx.types.Handle %out, i32 "
                     "%tid, i32 undef, i32 %e, i32 0, i32 0, i32 0, i8 1, i32 4)\n" +
                     operands(kElementFill, 0, 0, names("a", 4)) +
                     ags("", code(kElementFill, 1, kF16A), "3", "15360") +
                     results("f", kElementFill, 2) + store("s", names("f", 4), kF16A, 0, 32);
  Translation t = translateLl(program(body));
  ASSERT_EQ(t.error, "");
  // The element's register chosen by index / 2, its half by (index & 1) * 16.
  EXPECT_TRUE(std::regex_search(t.spvasm, std::regex("OpShiftRightLogical %uint (%\\w+) %uint_1\\n"
                                                     ".*OpBitwiseAnd %uint \\1 %uint_1\\n")))
      << t.spvasm;
  EXPECT_GE(count(t, "OpSelect %uint"), 3u + 4u) << t.spvasm;
  // The filled registers are no loaded matrix: the store packs them (8 halves per lane).
  EXPECT_EQ(count(t, "OpCompositeInsert"), 8u) << t.spvasm;
  expectNoMagicUav(t);
}

TEST(DxilTranslateAgs, CopyToAnotherUseGoesThroughWorkgroupMemory) {
  REQUIRE_LLVM_AS();
  // An f32 accumulator copied (saturating) to an FP8 B matrix and stored.
  std::string body = load("c", "in", kF32C, 0, 64) + operands(kCopy, 0, 0, names("c")) +
                     ags("", code(kCopy, 1, kF32C), std::to_string(kFP8B), "1") +
                     results("q", kCopy, 2) + store("s", names("q", 2), kFP8B, 0, 16);
  Translation t = translateLl(program(body));
  ASSERT_EQ(t.error, "");
  EXPECT_TRUE(has(t, "SaturatedToLargestFloat8NormalConversionEXT")) << t.spvasm;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(t.spvasm, m,
                                std::regex("(%\\w+) = OpAccessChain %_ptr_Workgroup_uint "
                                           "%ags_scratch %uint_0")))
      << t.spvasm;
  // Stored row major with a 16-byte row (4 words), loaded back as the B matrix.
  EXPECT_TRUE(std::regex_search(t.spvasm, std::regex("OpCooperativeMatrixStoreKHR " +
                                                     std::string(m[1]) + " %\\w+ %uint_0 %uint_4")))
      << t.spvasm;
  EXPECT_TRUE(std::regex_search(t.spvasm, std::regex("= OpCooperativeMatrixLoadKHR %\\w+ " +
                                                     std::string(m[1]) + " %uint_0 %uint_4")))
      << t.spvasm;
  expectNoMagicUav(t);
}

TEST(DxilTranslateAgs, MalformedSequencesAreRefused) {
  REQUIRE_LLVM_AS();
  const std::vector<std::pair<std::string, std::string>> cases = {
      // A driver opcode with no Vulkan mapping here (WaveMatrixGlobalLoad).
      {ags("x", code(0x2b, 0, 0), "0", "0"), "unsupported: AMD AGS intrinsic WaveMatrixGlobalLoad"},
      // No magic code in the instruction word.
      {ags("x", 0x12345678, "0", "0"), "has no AGS magic code"},
      // An instruction word that is not a constant.
      {"  %tid = call i32 @dx.op.threadId.i32(i32 93, i32 0)\n"
       "  %x = call i32 @dx.op.atomicCompareExchange.i32(i32 79, %dx.types.Handle %ags, i32 "
       "%tid, i32 undef, i32 undef, i32 0, i32 0)\n",
       "instruction word is not a constant"},
      // A multiply-add without its accumulator operand.
      {load("a", "in", kF16A, 0, 32) + load("b", "in", kF16B, 512, 32) +
           operands(kMulAcc, 0, 1, names("a", 4)) + operands(kMulAcc, 0, 2, names("b", 4)) +
           ags("", code(kMulAcc, 1, 5), "0", "0"),
       "WaveMatrixMulAcc without its matrix register 0"},
      // A result read before its operation.
      {results("d", kMulAcc, 2), "reads a result before its operation"},
      // A load whose memory operand is not the program's load at the address.
      {ags("", code(kUavLoad, 1, kF32C), "7", "0"), "whose memory operand is not a buffer load"},
      // The magic UAV used by something other than an intrinsic.
      {"  call void @dx.op.rawBufferStore.i32(i32 140, %dx.types.Handle %ags, i32 0, i32 "
       "undef, i32 1, i32 1, i32 1, i32 1, i8 15, i32 4)\n",
       "used by RawBufferStore"},
      // A groupshared load whose address is read by something other than an atomic add.
      {ags("", code(kLdsLoad, 1, kF32C), "0", "0"), "is not a groupshared atomic add"},
      // Bfloat16 WMMA.
      {ags("", code(kMulAcc, 1, 0), "0", "0"), "WMMA opcode 0"},
  };
  for (const auto &[body, message] : cases) {
    Translation t = translateLl(program(body));
    EXPECT_NE(t.error.find(message), std::string::npos) << message << "\n" << t.error;
    EXPECT_EQ(t.error.find('\n'), std::string::npos) << t.error; // one line
  }
}

} // namespace
} // namespace spire::translate::test
