#include "spire/run/DataType.h"

#include <array>
#include <charconv>

namespace spire::run {

namespace {

std::optional<Component> amberScalar(std::string_view s) {
  struct Entry {
    std::string_view name;
    Component c;
  };
  static constexpr Entry kScalars[] = {
      {"int8", {NumberKind::Int, 8}},       {"int16", {NumberKind::Int, 16}},
      {"int32", {NumberKind::Int, 32}},     {"int64", {NumberKind::Int, 64}},
      {"uint8", {NumberKind::Uint, 8}},     {"uint16", {NumberKind::Uint, 16}},
      {"uint32", {NumberKind::Uint, 32}},   {"uint64", {NumberKind::Uint, 64}},
      {"float16", {NumberKind::Float, 16}}, {"float", {NumberKind::Float, 32}},
      {"double", {NumberKind::Float, 64}},
  };
  for (const Entry &e : kScalars)
    if (e.name == s)
      return e.c;
  return std::nullopt;
}

bool digitIn(char c, char lo, char hi) { return c >= lo && c <= hi; }

// The numeric suffixes of unpacked formats, in the order VkFormat numbers them within a family.
constexpr std::array<std::string_view, 7> kSuffixes8 = {"UNORM", "SNORM", "USCALED", "SSCALED",
                                                        "UINT",  "SINT",  "SRGB"};
constexpr std::array<std::string_view, 7> kSuffixes16 = {"UNORM", "SNORM", "USCALED", "SSCALED",
                                                         "UINT",  "SINT",  "SFLOAT"};
constexpr std::array<std::string_view, 3> kSuffixesWide = {"UINT", "SINT", "SFLOAT"};

std::optional<NumberKind> suffixKind(std::string_view s) {
  if (s == "UNORM")
    return NumberKind::Unorm;
  if (s == "SNORM")
    return NumberKind::Snorm;
  if (s == "USCALED")
    return NumberKind::Uscaled;
  if (s == "SSCALED")
    return NumberKind::Sscaled;
  if (s == "UINT")
    return NumberKind::Uint;
  if (s == "SINT")
    return NumberKind::Int;
  if (s == "SRGB")
    return NumberKind::Srgb;
  if (s == "SFLOAT")
    return NumberKind::Float;
  if (s == "UFLOAT")
    return NumberKind::Ufloat;
  return std::nullopt;
}

template <size_t N> int indexOf(const std::array<std::string_view, N> &list, std::string_view s) {
  for (size_t i = 0; i < N; ++i)
    if (list[i] == s)
      return static_cast<int>(i);
  return -1;
}

// The VkFormat of an unpacked format: channels ("RGBA", "BGR"...), bits per channel, suffix.
// VkFormat numbers these families regularly (see the Vulkan specification's format list).
uint32_t unpackedFormat(std::string_view channels, unsigned bits, std::string_view suffix) {
  if (bits == 8) {
    int s = indexOf(kSuffixes8, suffix);
    if (s < 0)
      return 0;
    static constexpr std::pair<std::string_view, uint32_t> kBase[] = {
        {"R", 9}, {"RG", 16}, {"RGB", 23}, {"BGR", 30}, {"RGBA", 37}, {"BGRA", 44}};
    for (auto [c, base] : kBase)
      if (c == channels)
        return base + static_cast<uint32_t>(s);
    return 0;
  }
  static constexpr std::pair<std::string_view, unsigned> kOrder[] = {
      {"R", 0}, {"RG", 1}, {"RGB", 2}, {"RGBA", 3}};
  int family = -1;
  for (auto [c, i] : kOrder)
    if (c == channels)
      family = static_cast<int>(i);
  if (family < 0)
    return 0;
  if (bits == 16) {
    int s = indexOf(kSuffixes16, suffix);
    return s < 0 ? 0 : 70 + 7 * static_cast<uint32_t>(family) + static_cast<uint32_t>(s);
  }
  int s = indexOf(kSuffixesWide, suffix);
  if (s < 0)
    return 0;
  if (bits == 32)
    return 98 + 3 * static_cast<uint32_t>(family) + static_cast<uint32_t>(s);
  if (bits == 64)
    return 110 + 3 * static_cast<uint32_t>(family) + static_cast<uint32_t>(s);
  return 0;
}

const char *kindSuffix(NumberKind k) {
  switch (k) {
  case NumberKind::Int:
    return "SINT";
  case NumberKind::Uint:
    return "UINT";
  case NumberKind::Float:
    return "SFLOAT";
  case NumberKind::Unorm:
    return "UNORM";
  case NumberKind::Snorm:
    return "SNORM";
  case NumberKind::Uscaled:
    return "USCALED";
  case NumberKind::Sscaled:
    return "SSCALED";
  case NumberKind::Srgb:
    return "SRGB";
  case NumberKind::Ufloat:
    return "UFLOAT";
  }
  return "";
}

} // namespace

uint32_t DataType::componentCount() const {
  if (isFormat())
    return static_cast<uint32_t>(formatComponents.size());
  return uint32_t(rows) * columns;
}

std::optional<DataType> parseAmberType(std::string_view text) {
  DataType t;
  t.name = std::string(text);
  std::string_view s = text;
  if (s.ends_with("[]")) {
    t.runtimeArray = true;
    s.remove_suffix(2);
  }
  if (auto c = amberScalar(s)) {
    t.scalar = *c;
    return t;
  }
  size_t lt = s.find('<');
  if (lt == std::string_view::npos || !s.ends_with(">"))
    return std::nullopt;
  std::string_view head = s.substr(0, lt), inner = s.substr(lt + 1, s.size() - lt - 2);
  auto c = amberScalar(inner);
  if (!c)
    return std::nullopt;
  t.scalar = *c;
  if (head.size() == 4 && head.starts_with("vec") && digitIn(head[3], '2', '4')) {
    t.rows = static_cast<uint8_t>(head[3] - '0');
    return t;
  }
  if (head.size() == 6 && head.starts_with("mat") && digitIn(head[3], '2', '4') && head[4] == 'x' &&
      digitIn(head[5], '2', '4')) {
    t.columns = static_cast<uint8_t>(head[3] - '0');
    t.rows = static_cast<uint8_t>(head[5] - '0');
    return t;
  }
  return std::nullopt;
}

std::optional<DataType> parseFormatName(std::string_view text) {
  size_t us = text.find('_');
  if (us == std::string_view::npos)
    return std::nullopt;
  std::string_view body = text.substr(0, us), suffix = text.substr(us + 1);
  auto kind = suffixKind(suffix);
  if (!kind)
    return std::nullopt;
  DataType t;
  t.name = std::string(text);
  std::string channels;
  unsigned bits = 0;
  size_t i = 0;
  while (i < body.size()) {
    char ch = body[i++];
    if (ch != 'R' && ch != 'G' && ch != 'B' && ch != 'A')
      return std::nullopt;
    size_t start = i;
    while (i < body.size() && digitIn(body[i], '0', '9'))
      ++i;
    unsigned b = 0;
    if (std::from_chars(body.data() + start, body.data() + i, b).ec != std::errc() ||
        (bits != 0 && b != bits))
      return std::nullopt;
    bits = b;
    channels += ch;
    t.formatComponents.push_back(Component{*kind, static_cast<uint8_t>(b)});
  }
  t.vkFormat = unpackedFormat(channels, bits, suffix);
  if (t.vkFormat == 0)
    return std::nullopt;
  return t;
}

std::optional<DataType> parseVkScriptType(std::string_view s) {
  DataType t;
  t.name = std::string(s);
  struct Scalar {
    std::string_view name;
    Component c;
  };
  static constexpr Scalar kScalars[] = {
      {"int", {NumberKind::Int, 32}},     {"uint", {NumberKind::Uint, 32}},
      {"int8_t", {NumberKind::Int, 8}},   {"uint8_t", {NumberKind::Uint, 8}},
      {"int16_t", {NumberKind::Int, 16}}, {"uint16_t", {NumberKind::Uint, 16}},
      {"int64_t", {NumberKind::Int, 64}}, {"uint64_t", {NumberKind::Uint, 64}},
      {"float", {NumberKind::Float, 32}}, {"double", {NumberKind::Float, 64}},
  };
  for (const Scalar &e : kScalars)
    if (e.name == s) {
      t.scalar = e.c;
      return t;
    }
  // Vector and matrix prefixes: the component type.
  static constexpr Scalar kPrefixes[] = {
      {"i8", {NumberKind::Int, 8}},   {"u8", {NumberKind::Uint, 8}},
      {"i16", {NumberKind::Int, 16}}, {"u16", {NumberKind::Uint, 16}},
      {"i64", {NumberKind::Int, 64}}, {"u64", {NumberKind::Uint, 64}},
      {"i", {NumberKind::Int, 32}},   {"u", {NumberKind::Uint, 32}},
      {"d", {NumberKind::Float, 64}}, {"", {NumberKind::Float, 32}},
  };
  for (const Scalar &p : kPrefixes) {
    if (!s.starts_with(p.name))
      continue;
    std::string_view rest = s.substr(p.name.size());
    if (rest.starts_with("vec")) {
      rest.remove_prefix(3);
      t.scalar = p.c;
      if (rest.empty()) {
        t.rows = 4;
        return t;
      }
      if (rest.size() == 1 && digitIn(rest[0], '2', '4')) {
        t.rows = static_cast<uint8_t>(rest[0] - '0');
        return t;
      }
      return std::nullopt;
    }
    if (rest.starts_with("mat") && (p.name.empty() || p.name == "d")) {
      rest.remove_prefix(3);
      t.scalar = p.c;
      if (rest.empty()) // amber reads a bare "mat" as 1x1
        return t;
      if (rest.size() == 1 && digitIn(rest[0], '2', '4')) {
        t.rows = t.columns = static_cast<uint8_t>(rest[0] - '0');
        return t;
      }
      if (rest.size() == 3 && digitIn(rest[0], '2', '4') && rest[1] == 'x' &&
          digitIn(rest[2], '2', '4')) {
        t.columns = static_cast<uint8_t>(rest[0] - '0');
        t.rows = static_cast<uint8_t>(rest[2] - '0');
        return t;
      }
      return std::nullopt;
    }
  }
  return std::nullopt;
}

uint32_t vkFormatOf(const DataType &type) {
  if (type.isFormat())
    return type.vkFormat;
  if (type.isMatrix())
    return 0;
  static constexpr std::string_view kChannels[] = {"", "R", "RG", "RGB", "RGBA"};
  return unpackedFormat(kChannels[type.rows], type.scalar.bits, kindSuffix(type.scalar.kind));
}

std::string_view formatName(uint32_t vkFormat) {
  static const std::vector<std::string> kNames = [] {
    std::vector<std::string> names(122);
    static constexpr std::string_view kChannelSets[] = {"R", "RG", "RGB", "BGR", "RGBA", "BGRA"};
    static constexpr unsigned kBits[] = {8, 16, 32, 64};
    static constexpr std::string_view kAll[] = {"UNORM", "SNORM", "USCALED", "SSCALED",
                                                "UINT",  "SINT",  "SRGB",    "SFLOAT"};
    for (std::string_view c : kChannelSets)
      for (unsigned b : kBits)
        for (std::string_view s : kAll) {
          uint32_t f = unpackedFormat(c, b, s);
          if (f == 0 || f >= names.size())
            continue;
          std::string n;
          for (char ch : c)
            n += ch + std::to_string(b);
          names[f] = n + "_" + std::string(s);
        }
    return names;
  }();
  return vkFormat < kNames.size() ? std::string_view(kNames[vkFormat]) : std::string_view();
}

uint32_t BufferFormat::componentsPerElement() const {
  uint32_t n = 0;
  for (const Segment &s : segments)
    n += s.padding ? 0 : 1;
  return n;
}

BufferFormat layoutOf(const DataType &type, Layout layout) {
  BufferFormat f;
  f.type = type;
  f.layout = layout;
  if (type.isFormat()) {
    for (const Component &c : type.formatComponents)
      f.segments.push_back(Segment{c, false});
  } else {
    bool padTo4 = layout == Layout::Std140 && (type.isMatrix() || type.runtimeArray);
    for (unsigned col = 0; col < type.columns; ++col) {
      for (unsigned r = 0; r < type.rows; ++r)
        f.segments.push_back(Segment{type.scalar, false});
      unsigned target = type.rows;
      if (type.rows == 3 || padTo4)
        target = 4;
      for (unsigned r = type.rows; r < target; ++r)
        f.segments.push_back(Segment{type.scalar, true});
    }
  }
  for (const Segment &s : f.segments)
    f.stride += s.component.bits / 8;
  return f;
}

} // namespace spire::run
