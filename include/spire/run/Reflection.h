// The interface of a SPIR-V module, read from the instruction-level module: entry points with
// their stage and local size, resources by set and binding with their descriptor kind, array
// size and block layout, push constants, specialization constants, capabilities and extensions.
// Nothing here assumes a compute shader.
#pragma once

#include "spire/module/Module.h"
#include "spire/run/Descriptor.h"

#include <cstdint>
#include <string>
#include <vector>

namespace spire::run {

/// A member of a block, or a block itself (name empty), with its explicit layout.
struct BlockMember {
  std::string name;
  std::string type;    ///< `uint32`, `vec4<float>`, `mat3x3<float>`, `float[4]`, `S[]`, `struct`
  uint32_t offset = 0; ///< bytes from the start of the block
  uint32_t size = 0;   ///< bytes; for a runtime array, one element's stride
  bool runtimeArray = false;
};

struct Resource {
  std::string name; ///< the variable's (or its block type's) name, when the module has one
  uint32_t set = 0, binding = 0;
  DescriptorKind kind = DescriptorKind::StorageBuffer;
  uint32_t count = 1;         ///< array size; 0: a runtime array of descriptors
  uint32_t blockSize = 0;     ///< buffers: bytes up to (not including) a trailing runtime array
  uint32_t runtimeStride = 0; ///< buffers: the stride of a trailing runtime array, 0 if none
  std::vector<BlockMember> members;
  uint32_t imageFormat = 0; ///< VkFormat of a storage image or texel buffer (0: unknown)
  uint32_t imageDim = 1;    ///< SPIR-V Dim of images (0 1D, 1 2D, 2 3D, 3 cube, 5 buffer)
  bool multisampled = false;
  bool arrayed = false; ///< an arrayed image (Texture2DArray)
  /// The sampled type of images and texel buffers: 'f' float, 'i' signed, 'u' unsigned
  /// integer (0: not an image).
  char sampledType = 0;
  uint32_t variable = 0;    ///< the OpVariable's id
  bool texelsRead = false;  ///< a storage image or texel buffer that OpImageRead reads
  bool nonWritable = false; ///< decorated NonWritable (or a uniform buffer)
};

struct SpecConstant {
  uint32_t id = 0;
  std::string name;
  std::string type;         ///< `bool`, `uint32`, `float`, ...
  uint64_t defaultBits = 0; ///< the default value's bits (bool: 0 or 1)
};

/// The numeric kind of a stage variable's components.
enum class ComponentKind : uint8_t { Float, Int, Uint, Bool, Other };

/// An Input or Output variable (built-ins too): where it is, its shape and its decorations.
/// The shape is an array (or arrays) of a matrix, vector or scalar; anything else (a struct,
/// such as a block of built-ins) is `other`.
struct StageVariable {
  uint32_t id = 0;
  std::string name;
  bool output = false;
  uint32_t location = ~0u; ///< ~0u: none (a built-in, or a block)
  uint32_t component = 0;
  uint32_t builtIn = ~0u; ///< SPIR-V BuiltIn of the variable (~0u: none)
  ComponentKind kind = ComponentKind::Other;
  uint32_t width = 32;                ///< bits per component
  uint32_t components = 1;            ///< of the vector (1: a scalar)
  uint32_t columns = 0;               ///< of a matrix (0: not a matrix)
  std::vector<uint32_t> arrayLengths; ///< outermost first (0: a runtime array)
  bool other = false;                 ///< a shape not described above
  bool flat = false, noPerspective = false, centroid = false, sample = false, patch = false;
  bool perVertex = false, perPrimitive = false;
};

struct EntryPoint {
  std::string name;
  std::string model;               ///< `GLCompute`, `Fragment`, ...
  std::vector<uint32_t> interface; ///< the ids of its interface variables
  std::vector<std::vector<uint32_t>>
      executionModes; ///< OpExecutionMode(Id): the mode, its operands
  uint32_t localSize[3] = {0, 0, 0};
  /// The spec constant ids that set the local size (LocalSizeId or a WorkgroupSize built-in
  /// made of spec constants); ~0u where the size is fixed.
  uint32_t localSizeSpecIds[3] = {~0u, ~0u, ~0u};
};

struct ModuleInterface {
  uint32_t version = 0; ///< header version word
  std::vector<EntryPoint> entryPoints;
  std::vector<Resource> resources; ///< sorted by set, then binding
  uint32_t pushConstantSize = 0;
  std::vector<BlockMember> pushConstantMembers;
  std::vector<SpecConstant> specConstants;
  std::vector<std::string> capabilities, extensions;
  std::vector<StageVariable> stageVariables; ///< every Input and Output variable

  const Resource *find(uint32_t set, uint32_t binding) const;
  /// The Input (or Output) variables of an entry point's interface.
  std::vector<const StageVariable *> stageVariablesOf(const EntryPoint &entry, bool output) const;
};

/// The interface of a module (one spire val accepts; on others it fails or reports what it can).
Expected<ModuleInterface> reflect(const Module &module);

/// The interface as text, one item per line, or as one JSON object.
std::string formatInterface(const ModuleInterface &interface);
std::string interfaceJson(const ModuleInterface &interface);

} // namespace spire::run
