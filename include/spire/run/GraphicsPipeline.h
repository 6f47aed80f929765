// A graphics pipeline made from a vertex shader alone (rasterizer discard) or a vertex and a
// fragment shader, with Vulkan 1.3 dynamic rendering (no render pass): vertex attributes, colour
// attachments and a depth/stencil attachment whose formats match the shaders' interfaces.
#pragma once

#include "spire/run/ComputePipeline.h"
#include "spire/run/Reflection.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace spire::run {

struct VertexAttribute {
  uint32_t location = 0;
  VkFormat format = VK_FORMAT_UNDEFINED;
  uint32_t bytes = 0; ///< of one element
};

struct GraphicsPipelineDesc {
  std::span<const uint32_t> vertex;
  std::string vertexEntry = "main";
  std::span<const uint32_t> fragment; ///< empty: no fragment stage, rasterizer discard
  std::string fragmentEntry = "main";
  /// A mesh shader instead of the vertex stage (and no vertex input), with or without a task
  /// shader before it.
  std::span<const uint32_t> mesh, task;
  std::string meshEntry = "main", taskEntry = "main";
  std::span<const uint32_t> geometry; ///< empty: no geometry stage
  std::string geometryEntry = "main";
  /// Both or neither: the tessellation stages, and the patch size then (the topology is then
  /// VK_PRIMITIVE_TOPOLOGY_PATCH_LIST).
  std::span<const uint32_t> tessellationControl, tessellationEvaluation;
  std::string tessellationControlEntry = "main", tessellationEvaluationEntry = "main";
  uint32_t patchControlPoints = 3;
  /// The input assembly's; with a geometry shader, the one its input primitive takes.
  VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  std::vector<LayoutBinding> bindings;
  uint32_t pushConstantSize = 0;
  std::vector<VertexAttribute> attributes; ///< all from one vertex buffer binding
  std::vector<VkFormat> colorFormats;      ///< by location; VK_FORMAT_UNDEFINED: none there
  VkFormat depthFormat = VK_FORMAT_UNDEFINED, stencilFormat = VK_FORMAT_UNDEFINED;
};

/// The format of `components` components of a kind and width (R32G32_SFLOAT, R16_UINT, ...);
/// VK_FORMAT_UNDEFINED where none exists (bool, widths other than 8/16/32/64).
VkFormat vertexFormat(ComponentKind kind, uint32_t width, uint32_t components);

/// The vertex attributes of an entry point's inputs: one per location that a vector takes (array
/// elements and matrix columns one after the other; a 64-bit vector of three or four components
/// takes two locations and one attribute), inputs that share a location by Component in one
/// attribute with the components they use, with the matching format. Fails for inputs no
/// attribute can feed (types that differ at a location, overlaps, shapes reflection does not
/// describe).
Expected<std::vector<VertexAttribute>> vertexAttributes(const ModuleInterface &vertex,
                                                        const EntryPoint &entry);

/// The attributes, attachments and formats that match a vertex entry point (and a fragment
/// entry point, when given): an attribute per location that a vertex input occupies, a colour
/// attachment per fragment output location (32-bit float, SINT or UINT with as many components
/// as the outputs there use), depth and stencil attachments where the fragment shader writes
/// FragDepth or FragStencilRefEXT. Fails with why when a format is missing on the device or an
/// interface cannot be matched. Bindings and push constants come from layoutBindings().
Expected<GraphicsPipelineDesc> describeGraphicsPipeline(const VulkanContext &ctx,
                                                        const ModuleInterface &vertex,
                                                        const EntryPoint &vertexEntry,
                                                        const ModuleInterface *fragment,
                                                        const EntryPoint *fragmentEntry);

class GraphicsPipeline : public Pipeline {
public:
  static Expected<GraphicsPipeline> create(const VulkanContext &ctx,
                                           const GraphicsPipelineDesc &desc);

private:
  using Pipeline::Pipeline;
};

} // namespace spire::run
