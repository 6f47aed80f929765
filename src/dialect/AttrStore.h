// The Context's attribute storage: every attribute once, found by a key made of its parameters.
#pragma once

#include "spire/dialect/Attributes.h"
#include "spire/dialect/IR.h"

#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace spire::dialect::detail {

/// What few attributes have (`#spirv.vce`, dictionaries, the ABI attributes), apart: an
/// attribute is 88 bytes, not 160 (a large module's symbols and strings are thousands).
struct AttrExtra {
  std::vector<uint32_t> caps;
  std::vector<std::string> exts;
  std::vector<NamedAttribute> dict;
};

struct AttrStorage {
  AttrKind kind = AttrKind::Unit;
  grammar::OperandKind enumKind{};
  Type type;
  uint64_t bits = 0; ///< bool, integer (low `width` bits), double bits, enum value, version
  std::string text;
  std::vector<Attribute> list;
  std::unique_ptr<AttrExtra> extra;

  const std::vector<uint32_t> &caps() const { return extra ? extra->caps : none().caps; }
  const std::vector<std::string> &exts() const { return extra ? extra->exts : none().exts; }
  const std::vector<NamedAttribute> &dict() const { return extra ? extra->dict : none().dict; }
  AttrExtra &more() {
    if (!extra)
      extra = std::make_unique<AttrExtra>();
    return *extra;
  }
  static const AttrExtra &none() {
    static const AttrExtra empty;
    return empty;
  }
};

/// A string hash that also takes string_views, so that lookups need no std::string.
/// The hash of a uniquing key (types' and attributes' keys are mostly 8-byte words: fields and
/// addresses), a word at a time: std::hash reads them a byte at a time, and the keys of a
/// module's types and attributes were a tenth of what making them cost.
struct KeyHash {
  size_t operator()(std::string_view k) const {
    uint64_t h = 0x9E3779B97F4A7C15ull ^ k.size();
    size_t i = 0;
    for (; i + 8 <= k.size(); i += 8) {
      uint64_t w;
      std::memcpy(&w, k.data() + i, 8);
      h = (h ^ w) * 0xFF51AFD7ED558CCDull;
      h ^= h >> 32;
    }
    uint64_t w = 0;
    std::memcpy(&w, k.data() + i, k.size() - i);
    h = (h ^ w) * 0xC4CEB9FE1A85EC53ull;
    return static_cast<size_t>(h ^ (h >> 29));
  }
};

struct NameHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

/// The key of a DebugLoc: its interned file name's address, line and column.
struct DebugLocKey {
  const char *file;
  size_t fileSize;
  uint32_t line, column;
  bool operator==(const DebugLocKey &) const = default;
};
struct DebugLocHash {
  size_t operator()(const DebugLocKey &k) const {
    size_t h = std::hash<const void *>{}(k.file) ^ (k.fileSize * 0x9E3779B97F4A7C15ull);
    return h ^ ((uint64_t(k.line) << 32 | k.column) * 0xC2B2AE3D27D4EB4Full);
  }
};

struct AttrStore {
  std::deque<AttrStorage> attrs;
  std::deque<DebugLoc> debugLocs; ///< fileLineCol's, each once
  std::unordered_map<DebugLocKey, const DebugLoc *, DebugLocHash> debugLocIndex;
  /// The attributes by their key's hash (open addressing, linear probing; a null attribute
  /// is a free slot): 16 bytes a slot where a map holding each key's copy took about 120 an
  /// attribute. A slot whose hash matches is compared by its attribute's key, made again.
  struct Slot {
    uint64_t hash;
    const AttrStorage *attr;
  };
  std::vector<Slot> slots;
  size_t count = 0;
  std::string otherKey; ///< unique()'s scratch: the key of an attribute a probe meets
  std::unordered_set<std::string, NameHash, std::equal_to<>> names;
  std::string key; ///< unique()'s scratch: the key of the attribute looked up, reused
};

} // namespace spire::dialect::detail
