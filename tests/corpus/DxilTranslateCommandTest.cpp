// spire translate --dxil-to-spirv as a user runs it: a container to a file or a directory, the
// MLIR and assembly views, the binding map as JSON; bad input and unsupported programs are one
// line with exit status 1 and no output file.
#include "CorpusSupport.h"

#include "spire/dxil/ContainerInfo.h"
#include "spire/translate/DxilToSpirv.h"

#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <fstream>

namespace spire::test {
namespace {

std::optional<fs::path> corpusFile(const std::string &name) {
  std::optional<fs::path> corpus = sharedCorpus();
  if (!corpus || !fs::exists(*corpus / "dxil" / name))
    return std::nullopt;
  return *corpus / "dxil" / name;
}

size_t lines(const std::string &s) { return size_t(std::count(s.begin(), s.end(), '\n')); }

TEST(DxilTranslateCommand, WritesValidModulesInEachForm) {
  std::optional<fs::path> in = corpusFile("bindless__bindless_cbv.dxil");
  if (!in)
    GTEST_SKIP() << "no DXIL corpus (../shared/corpus/dxil)";
  TempDir t("spire-dxil-translate-test");
  ToolResult r = runSpire({"translate", "--dxil-to-spirv", in->string(), "-o", t.path("a.spv")});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(runSpire({"val", "--target-env", "vulkan1.3", t.path("a.spv")}).exitCode, 0);

  // A directory: one <entry>.<form> per entry point.
  r = runSpire(
      {"translate", "--dxil-to-spirv", in->string(), "-o", t.path("out") + "/", "--emit", "mlir"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const std::string mlir = readText(t.path("out/main.mlir"));
  EXPECT_NE(mlir.find("spirv.module Logical GLSL450"), std::string::npos) << mlir;
  EXPECT_NE(mlir.find("spirv.EntryPoint \"GLCompute\""), std::string::npos) << mlir;

  r = runSpire({"translate", "--dxil-to-spirv", in->string(), "--emit", "spvasm"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("OpEntryPoint GLCompute %main \"main\""), std::string::npos) << r.out;

  // The binding map: every descriptor with its D3D and Vulkan places.
  r = runSpire({"translate", "--dxil-to-spirv", in->string(), "-o", t.path("b.spv"), "--bindings",
                "json", "--binding-offsets", "0,10,20,30"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("\"entry\": \"main\""), std::string::npos) << r.out;
  // u0 in space 0 (+10), and an unbounded CBV array from b2 in space 1 (+20).
  EXPECT_NE(r.out.find(R"("class": "UAV",
      "kind": "RawBuffer",
      "name": "",
      "space": 0,
      "register": 0,
      "count": 1,
      "set": 0,
      "binding": 10,
      "type": "storage-buffer")"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(R"("space": 1,
      "register": 2,
      "count": "unbounded",
      "set": 1,
      "binding": 22,
      "type": "uniform-buffer")"),
            std::string::npos)
      << r.out;
}

/// A serialized root signature (version 1.0) of Constants32Bit parameters and root descriptors,
/// each (parameter type: 1 constants, 2 CBV, 3 SRV, 4 UAV; register; space; number of values),
/// visible to all stages.
std::vector<uint8_t> rootSignatureBlob(const std::vector<std::array<uint32_t, 4>> &parameters) {
  std::vector<uint32_t> w = {1, uint32_t(parameters.size()), 24, 0, 0, 0};
  uint32_t data = 24 + 12 * uint32_t(parameters.size());
  for (const auto &p : parameters) {
    w.insert(w.end(), {p[0], 0, data});
    data += p[0] == 1 ? 12 : 8;
  }
  for (const auto &p : parameters) {
    w.insert(w.end(), {p[1], p[2]});
    if (p[0] == 1)
      w.push_back(p[3]);
  }
  std::vector<uint8_t> bytes(w.size() * 4);
  std::memcpy(bytes.data(), w.data(), bytes.size());
  return bytes;
}

void writeFile(const std::string &path, const std::vector<uint8_t> &bytes) {
  std::ofstream f(path, std::ios::binary);
  f.write(reinterpret_cast<const char *>(bytes.data()), std::streamsize(bytes.size()));
}

TEST(DxilTranslateCommand, EntryNamesThatNoPathHoldsMakeSafeFileNames) {
  // A library (a fuzzer's mutation of a corpus container) whose closest hit entry's name holds a
  // NUL, control characters and bytes of no encoding: every entry is written, each to a file
  // named after it with what a path cannot hold as '_', and each module reads.
  const std::string in =
      std::string(SPIRE_SOURCE_DIR) + "/fuzz/regressions/dxil_bitcode/entry-name-with-nul";
  TempDir t("spire-dxil-entry-names-test");
  ToolResult r = runSpire({"translate", "--dxil-to-spirv", in, "-o", t.path("out/")});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  size_t files = 0, odd = 0;
  for (const auto &e : fs::directory_iterator(t.path("out"))) {
    ++files;
    const std::string name = e.path().filename().string();
    EXPECT_EQ(e.path().extension(), ".spv") << name;
    odd += name.starts_with("ClosestHi") && name != "ClosestHit.spv";
    EXPECT_EQ(std::count_if(name.begin(), name.end(), [](char c) { return uint8_t(c) < 0x20; }), 0)
        << name;
    EXPECT_EQ(runSpire({"dis", e.path().string(), "-o", t.path("x.spvasm")}).exitCode, 0) << name;
  }
  EXPECT_EQ(files, 4u);
  EXPECT_EQ(odd, 1u);
}

TEST(DxilTranslateCommand, RootConstantsFromARootSignatureArePushConstants) {
  std::optional<fs::path> in = corpusFile("command__cbv_hoisting.dxil");
  if (!in)
    GTEST_SKIP() << "no DXIL corpus (../shared/corpus/dxil)";
  TempDir t("spire-dxil-root-constants-test");
  // b1 of space 0 holds 4 root constants, after b5's 2 (which the shader does not use).
  const std::vector<uint8_t> blob = rootSignatureBlob({{1, 5, 0, 2}, {1, 1, 0, 4}});
  const std::string rts0 = t.path("root.rts0");
  writeFile(rts0, blob);
  ToolResult r = runSpire({"translate", "--dxil-to-spirv", in->string(), "--root-signature", rts0,
                           "-o", t.path("a.spv"), "--bindings", "json"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find(R"("register": 1,
      "count": 1,
      "offset": 8,
      "size": 16,
      "type": "push-constant")"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(runSpire({"val", "--target-env", "vulkan1.3", t.path("a.spv")}).exitCode, 0);
  r = runSpire({"dis", t.path("a.spv")});
  EXPECT_NE(r.out.find("PushConstant"), std::string::npos) << r.out;
  // b2 is an array of two: it cannot be root constants. A bad root signature is an error.
  writeFile(rts0, rootSignatureBlob({{1, 2, 0, 4}}));
  r = runSpire({"translate", "--dxil-to-spirv", in->string(), "--root-signature", rts0, "-o",
                t.path("b.spv")});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("is an array that holds root constants"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(t.path("b.spv")));
  r = runSpire({"translate", "--dxil-to-spirv", in->string(), "--root-signature", in->string(),
                "-o", t.path("c.spv")});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_EQ(lines(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find("no root signature"), std::string::npos) << r.err;
  // Descriptor tables in the heap need the root signature that has them.
  EXPECT_EQ(runSpire({"translate", "--dxil-to-spirv", in->string(), "--descriptor-tables-in-heap",
                      "-o", t.path("d.spv")})
                .exitCode,
            2);
}

TEST(DxilTranslateCommand, RootDescriptorsAsAddressesArePushConstants) {
  std::optional<fs::path> in = corpusFile("descriptors__root_descriptor_offset_sign.dxil");
  if (!in)
    GTEST_SKIP() << "no DXIL corpus (../shared/corpus/dxil)";
  TempDir t("spire-dxil-root-addresses-test");
  // One root constant, then t0, t1 and u0 as root descriptors: their addresses at 8, 16, 24.
  const std::string rts0 = t.path("root.rts0");
  writeFile(rts0, rootSignatureBlob({{1, 9, 0, 1}, {3, 0, 0, 0}, {3, 1, 0, 0}, {4, 0, 0, 0}}));
  ToolResult r =
      runSpire({"translate", "--dxil-to-spirv", in->string(), "--root-signature", rts0,
                "--root-descriptors-as-addresses", "-o", t.path("a.spv"), "--bindings", "json"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  for (const char *entry : {R"("register": 1,
      "count": 1,
      "offset": 16,
      "size": 8,
      "type": "push-constant-address")",
                            R"("class": "UAV",
      "kind": "StructuredBuffer",
      "name": "",
      "space": 0,
      "register": 0,
      "count": 1,
      "offset": 24,
      "size": 8,
      "type": "push-constant-address")"})
    EXPECT_NE(r.out.find(entry), std::string::npos) << entry << "\n" << r.out;
  r = runSpire({"dis", t.path("a.spv")});
  EXPECT_NE(r.out.find("OpMemoryModel PhysicalStorageBuffer64"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find(" Binding "), std::string::npos) << r.out;
  EXPECT_EQ(runSpire({"translate", "--dxil-to-spirv", in->string(),
                      "--root-descriptors-as-addresses", "-o", t.path("b.spv")})
                .exitCode,
            2)
      << "needs --root-signature";
}

TEST(DxilTranslateCommand, LocalRootArgumentsAreReadFromTheShaderRecord) {
  std::optional<fs::path> in = corpusFile("rt__default.dxil");
  if (!in)
    GTEST_SKIP() << "no DXIL corpus (../shared/corpus/dxil)";
  TempDir t("spire-dxil-local-root-test");
  // LocalConstants (b0, space 1): one root constant at 0; LocalConstants2 (b1, space 1): a root
  // CBV, its address 8-aligned at 8.
  const std::string lrs = t.path("local.rts0");
  writeFile(lrs, rootSignatureBlob({{1, 0, 1, 1}, {2, 1, 1, 0}}));
  ToolResult r = runSpire({"translate", "--dxil-to-spirv", in->string(), "--local-root-signature",
                           lrs, "-o", t.path("out/"), "--bindings", "json"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find(R"("register": 0,
      "count": 1,
      "offset": 0,
      "size": 4,
      "type": "shader-record-constants")"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(R"("register": 1,
      "count": 1,
      "offset": 8,
      "size": 8,
      "type": "shader-record-address")"),
            std::string::npos)
      << r.out;
  // The miss and closest hit shaders read them; every module is valid.
  size_t records = 0;
  for (const auto &e : fs::directory_iterator(t.path("out"))) {
    EXPECT_EQ(runSpire({"val", "--target-env", "vulkan1.3", e.path().string()}).exitCode, 0)
        << e.path();
    const std::string text = runSpire({"dis", e.path().string()}).out;
    records += text.find("OpAccessChain %_ptr_ShaderRecordBufferKHR") != std::string::npos;
  }
  EXPECT_EQ(records, 2u);
  // Without it, the constant buffers are uniform buffers.
  r = runSpire({"translate", "--dxil-to-spirv", in->string(), "--entry", "RayMiss", "-o",
                t.path("miss.spv")});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(runSpire({"dis", t.path("miss.spv")}).out.find("ShaderRecordBufferKHR"),
            std::string::npos);
  // A local root signature that is not one.
  writeFile(lrs, {1, 2, 3});
  r = runSpire({"translate", "--dxil-to-spirv", in->string(), "--local-root-signature", lrs, "-o",
                t.path("bad/")});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_EQ(lines(r.err), 1u) << r.err;
  EXPECT_FALSE(fs::exists(t.path("bad")));
  // A library's subobject serves as the file: one GlobalRootSignature; two LocalRootSignature
  // subobjects are one too many.
  std::optional<fs::path> grs =
      corpusFile("rt__embedded_root_signature_subobject_rt_conflict_mixed.dxil");
  std::optional<fs::path> lrs2 = corpusFile("workgraph__local_root_signature.dxil");
  ASSERT_TRUE(grs && lrs2);
  r = runSpire({"translate", "--dxil-to-spirv", grs->string(), "--root-signature", grs->string(),
                "--descriptor-tables-in-heap", "-o", t.path("grs/")});
  EXPECT_EQ(r.exitCode, 0) << r.err;
  r = runSpire({"translate", "--dxil-to-spirv", in->string(), "--local-root-signature",
                lrs2->string(), "-o", t.path("two/")});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("more than one LocalRootSignature subobject ('LRS0', 'LRS1')"),
            std::string::npos)
      << r.err;
}

TEST(DxilTranslateCommand, LocalRootSignaturesOfALibraryAreItsSubobjects) {
  std::optional<fs::path> in = corpusFile("workgraph__local_root_signature.dxil");
  if (!in)
    GTEST_SKIP() << "no DXIL corpus (../shared/corpus/dxil)";
  std::ifstream f(*in, std::ios::binary);
  const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(f)),
                                   std::istreambuf_iterator<char>());
  Expected<dxil::Container> container = dxil::readContainer(bytes);
  ASSERT_TRUE(container.ok());
  Expected<dxil::ContainerInfo> info = dxil::readContainerInfo(*container);
  ASSERT_TRUE(info.ok() && info->runtimeData);
  Expected<std::vector<translate::LocalRootSignature>> local =
      translate::localRootSignaturesOf(*info->runtimeData);
  ASSERT_TRUE(local.ok()) << local.error().message;
  // LRS0 associated with node A, LRS1 with B; each of three parameters, a UAV first.
  ASSERT_EQ(local->size(), 2u);
  EXPECT_EQ((*local)[0].exports, std::vector<std::string>{"A"});
  EXPECT_EQ((*local)[1].exports, std::vector<std::string>{"B"});
  for (const translate::LocalRootSignature &l : *local) {
    ASSERT_EQ(l.signature.parameters.size(), 3u);
    EXPECT_EQ(l.signature.parameters[0].type, dxil::RootParameterType::UAV);
  }
  EXPECT_EQ((*local)[1].signature.parameters[0].shaderRegister, 1u);
}

TEST(DxilTranslateCommand, APixelShaderAfterAMeshShaderReadsItsOutputsWhereItWritesThem) {
  std::optional<fs::path> ps = corpusFile("pso__ps_mismatch_ref.dxil");
  std::optional<fs::path> ms = corpusFile("pso__ms_mismatch.dxil");
  std::optional<fs::path> vs = corpusFile("pso__vs_mismatch.dxil");
  std::optional<fs::path> frog = corpusFile("pso__ps_mismatch_2.dxil");
  if (!ps || !ms || !vs || !frog)
    GTEST_SKIP() << "no DXIL corpus (../shared/corpus/dxil)";
  TempDir t("spire-dxil-previous-stage-test");
  // The mesh shader writes ARG0 and ARG2 per vertex (rows 1, 2) and ARG1 per primitive (after
  // the 3 vertex rows: location 3); the pixel shader reads ARG0, ARG1, ARG2 from rows 1, 2, 3.
  ToolResult r = runSpire({"translate", "--dxil-to-spirv", ps->string(), "--previous-stage",
                           ms->string(), "--emit", "spvasm", "-o", t.path("ps.spvasm")});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  std::ifstream f(t.path("ps.spvasm"));
  const std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  auto locationOf = [&](const std::string &variable) {
    const std::string key = "OpDecorate " + variable + " Location ";
    const size_t at = text.find(key);
    return at == std::string::npos ? -1 : std::atoi(text.c_str() + at + key.size());
  };
  std::vector<std::string> args; // the three ARG variables in signature order
  for (size_t at = text.find("OpName %"); at != std::string::npos;
       at = text.find("OpName %", at + 1)) {
    const size_t end = text.find(' ', at + 7);
    const std::string id = text.substr(at + 7, end - at - 7);
    if (text.compare(end + 1, 5, "\"ARG\"") == 0)
      args.push_back(id);
  }
  ASSERT_EQ(args.size(), 3u) << text;
  EXPECT_EQ(locationOf(args[0]), 1) << text;
  EXPECT_EQ(locationOf(args[1]), 3) << text;
  EXPECT_EQ(locationOf(args[2]), 2) << text;
  EXPECT_NE(text.find("OpDecorate " + args[1] + " PerPrimitiveEXT"), std::string::npos) << text;
  EXPECT_EQ(text.find("OpDecorate " + args[0] + " PerPrimitiveEXT"), std::string::npos) << text;
  // After the vertex shader, which writes them in the pixel shader's order: its own rows.
  r = runSpire({"translate", "--dxil-to-spirv", ps->string(), "--previous-stage", vs->string(),
                "-o", t.path("ps2.spv")});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  // FROG0 is no output of the mesh shader; a pixel shader is no previous stage.
  r = runSpire({"translate", "--dxil-to-spirv", frog->string(), "--previous-stage", ms->string(),
                "-o", t.path("frog.spv")});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_EQ(lines(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find("input FROG0 is not an output of the previous stage"), std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(t.path("frog.spv")));
  r = runSpire({"translate", "--dxil-to-spirv", ms->string(), "--previous-stage", ps->string(),
                "-o", t.path("x.spv")});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("no vertex, hull, domain, geometry or mesh shader"), std::string::npos)
      << r.err;
}

TEST(DxilTranslateCommand, BadInputIsOneLineAndNoOutput) {
  TempDir t("spire-dxil-translate-test");
  const std::string out = t.path("out.spv");
  // Not DXIL at all.
  {
    FILE *f = std::fopen(t.path("junk.dxil").c_str(), "wb");
    ASSERT_TRUE(f);
    std::fputs("DXBCnot really a container", f);
    std::fclose(f);
  }
  ToolResult r = runSpire({"translate", "--dxil-to-spirv", t.path("junk.dxil"), "-o", out});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_EQ(lines(r.err), 1u) << r.err;
  EXPECT_FALSE(fs::exists(out));

  // Usage errors.
  EXPECT_EQ(runSpire({"translate", "--dxil-to-spirv"}).exitCode, 2);
  EXPECT_EQ(runSpire({"translate", "--dxil-to-spirv", "x.dxil", "--emit", "text"}).exitCode, 2);
  EXPECT_EQ(
      runSpire({"translate", "--dxil-to-spirv", "x.dxil", "--binding-offsets", "1,2,3"}).exitCode,
      2);
  EXPECT_EQ(runSpire({"translate", "--dxil-to-spirv", "x.dxil", "--heap-set", "z"}).exitCode, 2);

  // An entry point that is not there.
  std::optional<fs::path> in = corpusFile("bindless__bindless_cbv.dxil");
  if (!in)
    GTEST_SKIP() << "no DXIL corpus (../shared/corpus/dxil)";
  r = runSpire({"translate", "--dxil-to-spirv", in->string(), "--entry", "nope", "-o", out});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("no entry point named 'nope'"), std::string::npos) << r.err;
  EXPECT_EQ(lines(r.err), 1u) << r.err;
  EXPECT_FALSE(fs::exists(out));
}

/// spire run takes a container too: translated first, then reflected (no device needed for
/// --reflect) or run.
TEST(DxilTranslateCommand, RunTranslatesAContainerFirst) {
  std::optional<fs::path> in = corpusFile("bindless__bindless_cbv.dxil");
  std::optional<fs::path> library = corpusFile("rt__default.dxil");
  if (!in || !library)
    GTEST_SKIP() << "no DXIL corpus (../shared/corpus/dxil)";
  ToolResult r = runSpire({"run", in->string(), "--reflect"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("entry point GLCompute main local size 64 1 1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("binding 0:1000 storage"), std::string::npos) << r.out;
  r = runSpire({"run", library->string(), "--reflect"});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("the program has no compute entry point"), std::string::npos) << r.err;
  EXPECT_EQ(lines(r.err), 1u) << r.err;
}

} // namespace
} // namespace spire::test
