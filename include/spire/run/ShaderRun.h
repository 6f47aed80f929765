// Running one shader module without a script: its descriptor bindings come from the module's
// own reflection (buffers, texel buffers, images, samplers, acceleration structures), their data
// from buffer specifications given on the command line (a file, a seeded random fill, a series, a
// fill, values), and every binding is read back.
#pragma once

#include "spire/run/Device.h"
#include "spire/run/Reflection.h"
#include "spire/run/Resources.h"

#include <array>
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
  /// one buffer each, and reads back the same way. An image (the size imageExtent gives) takes
  /// the texels of level 0 from its part, tightly packed, zeros past its end; bytes beyond the
  /// image are not used. Samplers take no data. An acceleration structure takes triangles
  /// (three vertices of three floats, 36 bytes each; none: an empty scene), built as
  /// DeviceAccelerationStructure::create builds them, and is not read back. A multisampled
  /// image (kMultisampledImageSamples samples) takes no data: it starts cleared to zero and is
  /// not read back.
  std::map<std::pair<uint32_t, uint32_t>, std::vector<uint8_t>> buffers;
  /// The VkFormat of a texel buffer or image by (set, binding), where the module's is Unknown
  /// (or to view it otherwise); without one such a binding takes the four-component 32-bit
  /// format of its sampled type (R32G32B32A32_SFLOAT, _SINT or _UINT).
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> formats;
  /// Samplers (and the samplers of combined image samplers) other than the default one
  /// (nearest, repeat, normalized coordinates, no comparison).
  std::map<std::pair<uint32_t, uint32_t>, SamplerDesc> samplers;
  /// The descriptors bound to a runtime array of descriptors (0: such a module is refused).
  uint32_t runtimeArrayDescriptors = 0;
  std::vector<uint8_t> pushConstants;
  /// Buffers the shader reaches by their device addresses (root descriptors as addresses), by
  /// the push constant offset that holds each one's 8-byte address, with their data.
  std::map<uint32_t, std::vector<uint8_t>> addressBuffers;
  uint32_t groups[3] = {1, 1, 1};
  bool timed = false;
};

/// The samples of a multisampled image a shader run binds (D3D's usual MSAA count).
inline constexpr uint32_t kMultisampledImageSamples = 4;

/// The size of the image a shader run binds for an image resource: width, height, depth and
/// layers (1D 64 texels, 2D 16 x 16, 3D 8 x 8 x 8, cube 8 x 8 x 6; arrayed: 4 layers or cubes).
std::array<uint32_t, 4> imageExtent(const Resource &image);

/// The format a shader run gives a texel buffer or image: the request's, else the module's,
/// else the four-component 32-bit format of its sampled type.
uint32_t bindingFormat(const Resource &r, const ShaderRunRequest &request);

/// Why the device cannot bind a module's resources as a run of `request` would: a storage image
/// or texel buffer without a format in the module (which declares StorageImageReadWithoutFormat)
/// bound in a format the device cannot read without one; nothing when it can.
std::optional<std::string> unmetBindingRequirement(const VulkanContext &ctx,
                                                   const ModuleInterface &interface,
                                                   const ShaderRunRequest &request);

struct ShaderRunResult {
  /// The contents of every buffer, texel buffer and image binding after the dispatch
  /// (arrays: the elements in order; images: level 0 as imageExtent and the format give).
  std::map<std::pair<uint32_t, uint32_t>, std::vector<uint8_t>> buffers;
  /// The request's address buffers after the dispatch, by push constant offset.
  std::map<uint32_t, std::vector<uint8_t>> addressBuffers;
  double gpuMilliseconds = -1;
  std::vector<std::string> validationMessages;
};

Expected<ShaderRunResult> runShader(VulkanContext &ctx, const ModuleInterface &interface,
                                    const ShaderRunRequest &request);

} // namespace spire::run
