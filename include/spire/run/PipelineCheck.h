// Creating the pipeline of every entry point of a module, as a check that the driver and the
// validation layers accept the module: a compute pipeline, a vertex shader alone (rasterizer
// discard), a fragment shader with a generated vertex shader (PassThroughVertexShader.h) or a
// given one.
#pragma once

#include "spire/run/Device.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace spire::run {

struct PipelineCheck {
  std::string entry, model; ///< the entry point's name and execution model (`GLCompute`, ...)
  enum class Outcome : uint8_t { Accepted, Rejected, Skipped } outcome = Outcome::Accepted;
  /// Skipped: why (a device without what the module needs, a stage without a pipeline here);
  /// Rejected: the failure when creation did not return VK_SUCCESS or could not start.
  std::string reason;
  std::vector<std::string> messages; ///< the validation layers' messages (any rejects)
};

struct PipelineCheckOptions {
  /// Before each pipeline, replace the logical device by one with exactly the extensions and
  /// features the module's SPIR-V extensions and capabilities need, and the pipeline itself
  /// (ModuleRequirements.h), so that the layers check that the module declares what it uses.
  /// Otherwise the context's device (every supported feature) serves every pipeline.
  bool exactFeatures = false;
  /// The vertex shader (a module with a Vertex entry point) that feeds fragment entry points;
  /// empty: one generated for each (PassThroughVertexShader.h). With it the layers check the
  /// interface between the two stages as the application's pipeline would have it.
  std::span<const uint32_t> vertexShader;
};

/// Creates the pipelines of the module's entry points (of `entry` alone when it is not empty)
/// on the device and reports each. Fails when the module cannot be read or has no such entry.
/// An entry point whose needs the device lacks, or whose layout goes beyond its limits, is
/// skipped with the reason; other stages than compute, vertex and fragment too.
Expected<std::vector<PipelineCheck>> checkPipelines(VulkanContext &ctx,
                                                    std::span<const uint32_t> words,
                                                    const std::string &entry = {},
                                                    const PipelineCheckOptions &options = {});

/// "ok", "skipped: <reason>", or "rejected: <reason>" and the messages, one per line after it.
std::string describeCheck(const PipelineCheck &check);

} // namespace spire::run
