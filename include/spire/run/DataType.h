// The data types of AmberScript and VkScript (scalars, vectors, matrices, Vulkan format names)
// and the byte layout amber gives a buffer of them in std430 or std140 (vec3 padded to four).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace spire::run {

/// How the bits of one component are read.
enum class NumberKind : uint8_t { Int, Uint, Float, Unorm, Snorm, Uscaled, Sscaled, Srgb, Ufloat };

struct Component {
  NumberKind kind = NumberKind::Uint;
  uint8_t bits = 32;
  bool operator==(const Component &) const = default;
  bool isFloat() const { return kind == NumberKind::Float || kind == NumberKind::Ufloat; }
  bool isSigned() const {
    return kind == NumberKind::Int || kind == NumberKind::Snorm || kind == NumberKind::Sscaled;
  }
};

/// A type a script names: an amber type (`uint32`, `vec3<float>`, `mat2x3<float16>`, `int8[]`)
/// or a Vulkan format name without its prefix (`R8G8B8A8_UNORM`), which is one element of
/// tightly packed components.
struct DataType {
  Component scalar;    ///< amber types: the component type
  uint8_t rows = 1;    ///< components of a vector, or of a matrix column
  uint8_t columns = 1; ///< matrix columns; 1 for scalars and vectors
  bool runtimeArray = false;
  std::vector<Component> formatComponents; ///< format names: R, G, B, A (or fewer) in order
  uint32_t vkFormat = 0;                   ///< the VkFormat this type is, 0 when none
  std::string name;                        ///< as written in the script

  bool isFormat() const { return !formatComponents.empty(); }
  bool isMatrix() const { return columns > 1; }
  /// Components of one element, padding excluded.
  uint32_t componentCount() const;
  bool operator==(const DataType &o) const {
    return scalar == o.scalar && rows == o.rows && columns == o.columns &&
           runtimeArray == o.runtimeArray && formatComponents == o.formatComponents &&
           vkFormat == o.vkFormat;
  }
};

/// `uint32`, `vec4<float>`, `mat3x2<double>`, `float16[]`...; nothing for other text.
std::optional<DataType> parseAmberType(std::string_view text);
/// A Vulkan format name without VK_FORMAT_ (`R32G32B32A32_SFLOAT`); nothing when unknown.
std::optional<DataType> parseFormatName(std::string_view text);
/// VkScript's datum types: `int`, `uint64_t`, `vec3`, `i8vec2`, `dmat2x3`, ...
std::optional<DataType> parseVkScriptType(std::string_view text);
/// The VkFormat of an element of this type (`vec4<int32>` is R32G32B32A32_SINT), 0 when none.
uint32_t vkFormatOf(const DataType &type);
/// The name of a VkFormat (`R32_SFLOAT`), empty when it is not one spire knows.
std::string_view formatName(uint32_t vkFormat);

enum class Layout : uint8_t { Std430, Std140 };

/// One component of an element, or padding of the same size.
struct Segment {
  Component component;
  bool padding = false;
  bool operator==(const Segment &) const = default;
};

/// A type laid out in buffer memory: one element is one pass over the segments.
struct BufferFormat {
  DataType type;
  Layout layout = Layout::Std430;
  std::vector<Segment> segments;
  uint32_t stride = 0; ///< bytes per element

  uint32_t componentsPerElement() const;
  bool operator==(const BufferFormat &o) const {
    return type == o.type && layout == o.layout && segments == o.segments;
  }
};

/// The layout amber gives `type`: vec3 and 3-row matrix columns take four components in both
/// layouts; std140 also pads matrix columns and the elements of `T[]` to four components.
BufferFormat layoutOf(const DataType &type, Layout layout = Layout::Std430);

} // namespace spire::run
