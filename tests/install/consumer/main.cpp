// Uses the installed spire as a library: assembles a module, validates it, reads it into the
// structured IR, runs a pass and prints it. Exits 0 when every step gives what it should.
#include "spire/asm/Assembler.h"
#include "spire/dialect/Serialization.h"
#include "spire/dialect/Text.h"
#include "spire/dialect/Verifier.h"
#include "spire/module/Module.h"
#include "spire/transforms/Pass.h"
#include "spire/val/Validator.h"

#include <cstdio>
#include <string>

int main() {
  const char *text = R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 1 1 1
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %main = OpFunction %void None %fn
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)";
  spire::Expected<std::vector<uint32_t>> words = spire::assemble(text);
  if (!words) {
    std::fprintf(stderr, "assemble: %s\n", words.error().format().c_str());
    return 1;
  }
  spire::Expected<spire::Module> module = spire::Module::fromWords(*words);
  if (!module) {
    std::fprintf(stderr, "read: %s\n", module.error().format().c_str());
    return 1;
  }
  spire::val::Report report = spire::val::validate(*module, {});
  if (!report.valid()) {
    std::fprintf(stderr, "validate: %s\n", report.problems.front().format().c_str());
    return 1;
  }
  spire::dialect::Context context;
  spire::Expected<spire::dialect::OwningOp> op = spire::dialect::deserialize(context, *module);
  if (!op || !spire::dialect::verify(**op)) {
    std::fprintf(stderr, "deserialize failed\n");
    return 1;
  }
  spire::transforms::PassManager passes;
  if (!passes.addPipeline("canonicalize") || !passes.run(**op, context)) {
    std::fprintf(stderr, "canonicalize failed\n");
    return 1;
  }
  std::string printed = spire::dialect::toString(**op);
  if (printed.find("spirv.module") == std::string::npos ||
      printed.find("spirv.func @main") == std::string::npos) {
    std::fprintf(stderr, "unexpected text:\n%s", printed.c_str());
    return 1;
  }
  std::printf("%s", printed.c_str());
  return 0;
}
