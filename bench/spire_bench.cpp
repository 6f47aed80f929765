// spire_bench: the measuring half of `make bench` (bench/run.sh is the other half).
//   spire_bench measure ...  times spire (and SPIRV-Tools) in-process
//   spire_bench run ...      times programs from a job list, with peak memory and a time limit
//   spire_bench dxil ...     reads (and prints) DXIL programs in-process
//   spire_bench dxil-translate ...  translates DXIL programs to SPIR-V in-process
#include "CommandRunner.h"
#include "DxilBench.h"
#include "InProcessBench.h"

#include <cstdio>
#include <span>
#include <string_view>

int main(int argc, char **argv) {
  std::string_view command = argc > 1 ? argv[1] : "";
  std::span<char *const> rest(argv + (argc > 1 ? 2 : 1),
                              static_cast<size_t>(argc > 1 ? argc - 2 : 0));
  if (command == "measure")
    return spire::bench::runMeasure(rest);
  if (command == "run")
    return spire::bench::runCommands(rest);
  if (command == "dxil")
    return spire::bench::runDxil(rest);
  if (command == "dxil-translate")
    return spire::bench::runDxilTranslate(rest);
  std::FILE *out = command == "-h" || command == "--help" ? stdout : stderr;
  std::fputs("spire_bench - spire's benchmarks (driven by bench/run.sh)\n\n"
             "Usage: spire_bench measure [options] (--list <files.tsv> | <file.spv>...)\n"
             "       spire_bench run [options] <jobs.tsv>\n"
             "       spire_bench dxil [--passes N] <dir or .dxil files...>\n"
             "       spire_bench dxil-translate [--passes N] <dir or .dxil files...>\n\n"
             "Run 'spire_bench <command> --help' for the options.\n",
             out);
  return out == stdout ? 0 : 2;
}
