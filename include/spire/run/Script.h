// A parsed AmberScript or VkScript test in the terms both formats share: requirements, buffers
// and images (each with its host copy), samplers, shaders, pipelines, and the commands to execute
// in order. The parsers make it; the interpreter runs it.
#pragma once

#include "spire/run/DataType.h"
#include "spire/run/Descriptor.h"
#include "spire/run/Value.h"
#include "spire/support/Expected.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace spire::run {

enum class ShaderFormat : uint8_t { Glsl, Hlsl, SpirvAsm, SpirvHex, SpirvBin, OpenClC };
enum class ShaderStage : uint8_t {
  Vertex,
  Fragment,
  Geometry,
  TessellationControl,
  TessellationEvaluation,
  Compute,
  RayTracing,
  Multi,
};

std::string_view shaderFormatName(ShaderFormat format);

struct ScriptShader {
  std::string name;
  ShaderStage stage = ShaderStage::Compute;
  ShaderFormat format = ShaderFormat::Glsl;
  std::string targetEnv; ///< TARGET_ENV; empty: the script's default
  std::string source;    ///< the inline body or the file's contents
  uint32_t line = 0;
};

enum class ImageDim : uint8_t { None, Dim1D, Dim2D, Dim3D };

/// A buffer or image of the script. Its host copy is the truth: every dispatch uploads it and
/// reads writable resources back into it; EXPECT compares it.
struct ScriptBuffer {
  std::string name;
  std::optional<BufferFormat> format; ///< VkScript buffers may stay untyped
  std::vector<uint8_t> bytes;
  ImageDim dim = ImageDim::None; ///< an IMAGE (or a WIDTH/HEIGHT buffer) when not None
  uint32_t width = 0, height = 0, depth = 1;
  uint32_t mipLevels = 1, samples = 1;
  uint32_t line = 0;

  bool isImage() const { return dim != ImageDim::None; }
  uint32_t stride() const { return format ? format->stride : 1; }
  uint64_t elementCount() const { return bytes.size() / stride(); }
};

struct ScriptSampler {
  std::string name;
  bool magLinear = false, minLinear = false;
  uint32_t addressU = 0, addressV = 0, addressW = 0; ///< VkSamplerAddressMode (0: repeat)
  uint32_t borderColor = 0;                          ///< VkBorderColor
  float minLod = 0, maxLod = 1;
  bool normalized = true;
  bool compare = false;
  uint32_t compareOp = 0; ///< VkCompareOp
  uint32_t line = 0;
};

inline constexpr uint64_t kWholeSize = ~uint64_t(0);

/// One BIND of a pipeline at a set and binding (OpenCL kernel arguments are not kept).
struct ScriptBinding {
  DescriptorKind kind = DescriptorKind::StorageBuffer;
  uint32_t set = 0, binding = 0;
  std::vector<uint32_t> buffers;  ///< indices into Script::buffers; several for BUFFER_ARRAY
  std::vector<uint32_t> samplers; ///< indices into Script::samplers
  std::vector<uint32_t> dynamicOffsets, descriptorOffsets;
  std::vector<uint64_t> descriptorRanges; ///< kWholeSize: to the end
  uint32_t baseMipLevel = 0;
};

inline constexpr uint32_t kSubgroupSizeMin = 0xFFFFFFFEu, kSubgroupSizeMax = 0xFFFFFFFFu;

struct PipelineShader {
  uint32_t shader = 0; ///< index into Script::shaders
  std::string entryPoint = "main";
  std::map<uint32_t, uint32_t> specialization; ///< constant id -> 32-bit value
  bool fullSubgroups = false, varyingSubgroupSize = false;
  uint32_t requiredSubgroupSize = 0; ///< 0: none; or kSubgroupSizeMin / kSubgroupSizeMax
  std::vector<std::string> compileOptions;
};

struct ScriptPipeline {
  std::string name;
  bool compute = true;
  std::optional<PipelineShader> shader;
  std::vector<ScriptBinding> bindings;
  std::optional<uint32_t> pushConstants; ///< index into Script::buffers
  uint32_t line = 0;
};

enum class Comparator : uint8_t { Eq, Ne, Lt, Le, Gt, Ge, FuzzyEq };
std::string_view comparatorSymbol(Comparator c);

struct Tolerance {
  double value = 0;
  bool percent = false;
};

struct Command {
  enum class Kind : uint8_t {
    Run,          ///< pipeline, groups
    Expect,       ///< buffer, offset, comparator, tolerances, values
    ExpectBuffer, ///< buffer == otherBuffer, byte for byte
    ExpectRgba,   ///< buffer, x y w h, values (r g b [a] in 0..255), tolerances
    Repeat,       ///< count, body
    Resize,       ///< buffer: `count` elements of its final format (VkScript `ssbo N`)
    Write,        ///< buffer: bytes at offset, growing it (VkScript subdata, uniform)
    Copy,         ///< the host bytes of buffer over otherBuffer (COPY)
  };
  Kind kind = Kind::Run;
  uint32_t line = 0;
  uint32_t pipeline = 0;
  uint32_t groups[3] = {1, 1, 1};
  uint32_t buffer = 0, otherBuffer = 0;
  uint64_t offset = 0;
  Comparator comparator = Comparator::Eq;
  std::vector<Tolerance> tolerances;
  std::vector<Value> values;
  bool hasAlpha = true;
  bool timed = false; ///< RUN TIMED_EXECUTION
  uint32_t x = 0, y = 0, width = 0, height = 0;
  uint64_t count = 0;
  std::vector<uint8_t> bytes;
  std::vector<Command> body;
};

/// What a script asks of the device: feature names as amber spells them
/// (`shaderInt64`, `Storage16BitFeatures.storageBuffer16BitAccess`), extension names, and
/// properties (`FloatControlsProperties.shaderDenormPreserveFloat16`).
struct Requirements {
  std::vector<std::string> features, deviceExtensions, instanceExtensions, properties;
};

struct Script {
  std::string path;
  bool vkScript = false;
  Requirements requirements;
  std::vector<ScriptBuffer> buffers;
  std::vector<ScriptSampler> samplers;
  std::vector<ScriptShader> shaders;
  std::vector<ScriptPipeline> pipelines;
  std::vector<Command> commands;
  uint32_t fenceTimeoutMs = 10000;
};

/// Reads a file a script names (a path relative to the script's folder).
using FileLoader = std::function<Expected<std::vector<uint8_t>>(std::string_view path)>;

/// An AmberScript file (the `#!amber` line is a comment to it). Errors carry the line
/// (Location::text(line, 0)) and amber's meaning.
Expected<Script> parseAmberScript(std::string_view text, const FileLoader &loader);
/// A VkScript file: [require], [compute shader], [compute shader spirv], [test], ...
Expected<Script> parseVkScript(std::string_view text);
/// Either, chosen as amber chooses: AmberScript when the first 7 bytes are `#!amber`.
Expected<Script> parseScript(std::string_view text, const FileLoader &loader);
/// A script file; the files it names are read from its folder (or, in a corpus that flattens
/// folders into names, from "<prefix>__<name>" beside it).
Expected<Script> parseScriptFile(const std::string &path);

} // namespace spire::run
