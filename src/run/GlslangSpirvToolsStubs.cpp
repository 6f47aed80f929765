// Debian's glslang (libSPIRV.a) was built to call SPIRV-Tools for its optional optimize,
// validate, disassemble and strip-debug steps, so its GlslangToSpv object refers to these four
// functions even though they run only when SpvOptions asks for those steps. spire never asks
// (its own validator checks the result), so it defines them here and links no SPIRV-Tools:
// the oracle stays out of the product. Each one stops the program if it is ever reached.
#include <cstdio>
#include <cstdlib>
#include <ostream>
#include <vector>

namespace spv {
class SpvBuildLogger;
}

namespace glslang {

class TIntermediate;
struct SpvOptions;

[[noreturn]] static void unreachableSpirvTools(const char *what) {
  std::fprintf(stderr, "spire: glslang asked for SPIRV-Tools (%s), which spire does not link\n",
               what);
  std::abort();
}

void SpirvToolsValidate(const TIntermediate &, std::vector<unsigned int> &, spv::SpvBuildLogger *,
                        bool) {
  unreachableSpirvTools("validate");
}

void SpirvToolsTransform(const TIntermediate &, std::vector<unsigned int> &, spv::SpvBuildLogger *,
                         const SpvOptions *) {
  unreachableSpirvTools("optimize");
}

void SpirvToolsDisassemble(std::ostream &, const std::vector<unsigned int> &) {
  unreachableSpirvTools("disassemble");
}

void SpirvToolsStripDebugInfo(const TIntermediate &, std::vector<unsigned int> &,
                              spv::SpvBuildLogger *) {
  unreachableSpirvTools("strip debug info");
}

} // namespace glslang

namespace spire::run::detail {
// Called by the GLSL compiler so that the linker takes this object (and the definitions above)
// from the archive before it reaches glslang's own.
void keepGlslangStubs() {}
} // namespace spire::run::detail
