// The generated corpus's MANIFEST.tsv: each module the build compiled from tests/corpus-src, with
// the environment spirv-val must accept it in, and the kinds left out because a tool was missing.
#pragma once

#include "CorpusSupport.h"

#include "spire/support/Expected.h"

#include <map>
#include <string>
#include <vector>

namespace spire::test {

struct GeneratedModule {
  fs::path file;         ///< absolute path of the .spv
  std::string name;      ///< corpus-relative name ("glsl/pbr_forward.frag.spv")
  std::string kind;      ///< "glsl", "hlsl" or "opencl"
  std::string source;    ///< repository-relative source file
  std::string targetEnv; ///< spirv-val --target-env value ("vulkan1.2", "opencl2.0", ...)
  std::string command;   ///< how it was built, for messages
};

struct GeneratedCorpusManifest {
  std::vector<GeneratedModule> modules;
  /// Kinds the build left out, with the reason ("clang-15 not found").
  std::map<std::string, std::string> skippedKinds;

  std::vector<const GeneratedModule *> ofKind(std::string_view kind) const;
};

/// The kinds of source the generated corpus is built from, in manifest order.
inline constexpr std::string_view kGeneratedKinds[] = {"glsl", "hlsl", "opencl"};

/// Reads <corpus>/MANIFEST.tsv. Errors carry the line of the manifest.
Expected<GeneratedCorpusManifest> readGeneratedCorpusManifest(const fs::path &corpus);

} // namespace spire::test
