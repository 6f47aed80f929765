#include "unit/translate/DxilTranslateTestSupport.h"

#include "spire/asm/Disassembler.h"
#include "spire/module/Module.h"
#include "spire/val/Validator.h"

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace spire::translate::test {

namespace fs = std::filesystem;

namespace {

std::string readAll(const fs::path &p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

fs::path scratchDirectory() {
  static std::atomic<unsigned> counter{0};
  fs::path dir = fs::temp_directory_path() / ("spire-translate-" + std::to_string(::getpid()) +
                                              "-" + std::to_string(counter++));
  fs::create_directories(dir);
  return dir;
}

bool haveTool(const char *command) { return std::system(command) == 0; }

} // namespace

bool haveLlvmAs() {
  static const bool have = haveTool("llvm-as-14 --version > /dev/null 2>&1");
  return have;
}

std::vector<uint8_t> assemble(const std::string &llvmText, std::string &error) {
  const fs::path dir = scratchDirectory();
  {
    std::ofstream f(dir / "m.ll", std::ios::binary);
    f << llvmText;
  }
  const std::string cd = "cd '" + dir.string() + "' && ";
  std::vector<uint8_t> bytes;
  if (std::system((cd + "llvm-as-14 m.ll -o m.bc 2> err.txt").c_str()) != 0) {
    error = "llvm-as-14: " + readAll(dir / "err.txt");
  } else {
    const std::string bc = readAll(dir / "m.bc");
    bytes.assign(bc.begin(), bc.end());
  }
  fs::remove_all(dir);
  return bytes;
}

std::string dxilPrelude(bool native16Bit) {
  std::string text = "target datalayout = \"e-m:e-p:32:32-i1:32-i8:";
  text += native16Bit ? "8-i16:16-i32:32-i64:64-f16:16" : "32-i16:32-i32:32-i64:64-f16:32";
  text += "-f32:32-f64:64-n8:16:32:64\"\n"
          "target triple = \"dxil-ms-dx\"\n\n"
          "%dx.types.Handle = type { i8* }\n";
  return text;
}

std::string rawBufferDeclarations() {
  return R"(
%dx.types.ResRet.i32 = type { i32, i32, i32, i32, i32 }
%struct.RWByteAddressBuffer = type { i32 }
@buf = external constant %struct.RWByteAddressBuffer
declare %dx.types.Handle @dx.op.createHandle(i32, i8, i32, i32, i1)
declare i32 @dx.op.threadId.i32(i32, i32)
declare %dx.types.ResRet.i32 @dx.op.rawBufferLoad.i32(i32, %dx.types.Handle, i32, i32, i8, i32)
declare void @dx.op.rawBufferStore.i32(i32, %dx.types.Handle, i32, i32, i32, i32, i32, i32, i8, i32)
)";
}

std::string computeShader(const std::string &declarations, const std::string &body,
                          const std::string &resources, const std::string &extraMetadata) {
  std::string text = dxilPrelude() + declarations + "\ndefine void @main() {\n" + body + "}\n\n";
  text += "!dx.version = !{!0}\n!0 = !{i32 1, i32 2}\n"
          "!dx.shaderModel = !{!1}\n!1 = !{!\"cs\", i32 6, i32 2}\n";
  if (!resources.empty())
    text += "!dx.resources = !{!2}\n!2 = " + resources + "\n";
  text += "!dx.entryPoints = !{!3}\n!3 = !{void ()* @main, !\"main\", null, " +
          std::string(resources.empty() ? "null" : "!2") +
          ", !4}\n!4 = !{i32 4, !5}\n!5 = !{i32 8, i32 1, i32 1}\n" + extraMetadata;
  return text;
}

Translation translateLl(const std::string &llvmText, const DxilTranslateOptions &options) {
  Translation t;
  std::vector<uint8_t> bitcode = assemble(llvmText, t.error);
  if (bitcode.empty())
    return t;
  Expected<std::vector<TranslatedShader>> shaders = translateDxilBytes(bitcode, options);
  if (!shaders) {
    t.error = shaders.error().message;
    return t;
  }
  if (shaders->size() != 1) {
    t.error = std::to_string(shaders->size()) + " entry points translated";
    return t;
  }
  t.words = std::move(shaders->front().words);
  Expected<Module> module = Module::fromWords(t.words);
  if (!module) {
    t.error = "unreadable module: " + module.error().message;
    return t;
  }
  t.spvasm = disassemble(*module);
  val::Options vo;
  vo.env = *val::parseEnvironment("vulkan1.3");
  val::Report report = val::validate(*module, vo);
  if (!report.valid()) {
    t.error = "spire val: " + report.problems.front().format() + "\n" + t.spvasm;
    return t;
  }
  // The newest SPIRV-Tools (../shared/tools, as the corpus tests use) when it is there: the
  // distribution's may not know the capabilities (cooperative matrices, float8) a module uses.
  static const std::string spirvVal = [] {
    const fs::path shared = fs::path(SPIRE_SOURCE_DIR) / ".." / "shared" / "tools" / "spirv-tools" /
                            "bin" / "spirv-val";
    return ::access(shared.c_str(), X_OK) == 0 ? "'" + shared.string() + "'"
                                               : std::string("spirv-val");
  }();
  if (haveTool((spirvVal + " --version > /dev/null 2>&1").c_str())) {
    const fs::path dir = scratchDirectory();
    {
      std::ofstream f(dir / "m.spv", std::ios::binary);
      f.write(reinterpret_cast<const char *>(t.words.data()), std::streamsize(t.words.size() * 4));
    }
    const std::string cd = "cd '" + dir.string() + "' && ";
    if (std::system((cd + spirvVal + " --target-env vulkan1.3 m.spv > err.txt 2>&1").c_str()) != 0)
      t.error = "spirv-val: " + readAll(dir / "err.txt") + "\n" + t.spvasm;
    fs::remove_all(dir);
  }
  return t;
}

} // namespace spire::translate::test
