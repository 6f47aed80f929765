// Running one shader module without a script: its descriptor bindings come from the module's
// own reflection, their data from buffer specifications given on the command line (a file, a
// seeded random fill, a series, a fill, values), and chosen bindings are read back.
#pragma once

#include "spire/run/Device.h"
#include "spire/run/Reflection.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace spire::run {

/// The bytes a specification describes:
///   `random:SEED:BYTES`            deterministic pseudo-random bytes
///   `zero:BYTES`                   zeros
///   `series:TYPE:START:STEP:COUNT` COUNT elements START, START+STEP, ... (`series:uint32:0:1:64`)
///   `fill:TYPE:VALUE:COUNT`        COUNT elements of VALUE
///   `data:TYPE:V1,V2,...`          the values (`data:float:1.5,2,-3`)
///   `file:PATH` or `PATH`          the file's bytes (read through `loader`)
/// TYPE is an amber type (`uint32`, `vec4<float>`, `float16`), laid out as std430.
Expected<std::vector<uint8_t>>
bufferFromSpec(std::string_view spec,
               const std::function<Expected<std::vector<uint8_t>>(const std::string &)> &loader);

/// `SET:BINDING`, or `BINDING` (set 0).
std::optional<std::pair<uint32_t, uint32_t>> parseBindingName(std::string_view text);

struct ShaderRunRequest {
  std::span<const uint32_t> words;
  std::string entryPoint; ///< empty: the first entry point
  std::map<uint32_t, uint32_t> specialization;
  /// Data for bindings by (set, binding); a buffer binding not named is zero-filled to its
  /// block size (a runtime array needs data). An array of N descriptors takes N equal parts,
  /// one buffer each, and reads back the same way.
  std::map<std::pair<uint32_t, uint32_t>, std::vector<uint8_t>> buffers;
  std::vector<uint8_t> pushConstants;
  uint32_t groups[3] = {1, 1, 1};
  bool timed = false;
};

struct ShaderRunResult {
  /// The contents of every buffer binding after the dispatch (arrays: the elements in order).
  std::map<std::pair<uint32_t, uint32_t>, std::vector<uint8_t>> buffers;
  double gpuMilliseconds = -1;
  std::vector<std::string> validationMessages;
};

Expected<ShaderRunResult> runShader(VulkanContext &ctx, const ModuleInterface &interface,
                                    const ShaderRunRequest &request);

} // namespace spire::run
