// Typed access to an LlvmModule's metadata for the DXIL model's decoder: nodes, their operands,
// integer, float, string and value operands, each checked, with the first failure kept as a
// one-line diagnostic naming the metadata node and the named metadata it hangs from.
#pragma once

#include "spire/dxil/LlvmModule.h"
#include "spire/support/Diagnostic.h"

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace spire::dxil {

class DxilMetadataReader {
public:
  explicit DxilMetadataReader(const LlvmModule &m)
      : m_(m), metadata_(m.metadata.data()), values_(m.values.data()),
        constants_(m.constants.data()), types_(m.types.data()),
        metadataOperands_(m.metadataOperands.data()), numMetadata_(m.metadata.size()),
        numValues_(m.values.size()), numConstants_(m.constants.size()), numTypes_(m.types.size()),
        numMetadataOperands_(m.metadataOperands.size()) {}

  const LlvmModule &module() const { return m_; }
  /// The named metadata's operands (empty when absent); sets the context of later errors
  /// (`name` is kept: a literal, or a string that outlives the reader).
  std::span<const MetadataId> named(std::string_view name);
  bool hasNamed(std::string_view name) const;
  static constexpr size_t kMaxNamed = 8;
  /// The names findNamed() looks for (literals, in an array that outlives the reader: it is
  /// kept; at most kMaxNamed), indexed by size when compiling: bySize[s] has bit i set for a
  /// names[i] of s characters (sizes from kNamedBySize up share the last entry).
  static constexpr size_t kNamedBySize = 32;
  struct NamedSet {
    const std::string_view *names = nullptr;
    size_t count = 0;
    std::array<uint8_t, kNamedBySize + 1> bySize{};
  };
  static constexpr NamedSet namedSet(std::span<const std::string_view> names) {
    NamedSet set;
    set.names = names.data();
    set.count = names.size() < kMaxNamed ? names.size() : kMaxNamed;
    for (size_t i = 0; i < set.count; ++i)
      set.bySize[names[i].size() < kNamedBySize ? names[i].size() : kNamedBySize] |=
          uint8_t(1u << i);
    return set;
  }
  /// Finds the named metadata of each of the set's names in one pass over the module's list,
  /// the first of each name as named() finds it; namedAt(i) then gives names[i]'s operands as
  /// named(names[i]) would.
  void findNamed(const NamedSet &set);
  std::span<const MetadataId> namedAt(size_t i) {
    context_ = namedNames_[i];
    return {namedFound_[i].data, namedFound_[i].size};
  }

  /// True for a node (uniqued or distinct); null and out-of-range ids are not nodes.
  bool isNode(MetadataId id) const;
  bool isNull(MetadataId id) const { return id == kNoId; }
  /// A node's operands; fails (and returns false) when `id` is not a node or has fewer than
  /// `minOperands` operands.
  /// Inline: the common node, the failures out of line.
  [[gnu::always_inline]] bool node(MetadataId id, std::span<const MetadataId> &ops,
                                   size_t minOperands = 0) {
    if (id < numMetadata_) [[likely]] {
      const Metadata &md = metadata_[id];
      if ((md.kind == MetadataKind::Node || md.kind == MetadataKind::DistinctNode) &&
          uint64_t(md.firstOperand) + md.numOperands <= numMetadataOperands_ &&
          md.numOperands >= minOperands) [[likely]] {
        ops = {metadataOperands_ + md.firstOperand, md.numOperands};
        return true;
      }
    }
    return nodeSlow(id, ops, minOperands);
  }
  /// A node's operands, or nothing for null; fails on anything else.
  [[gnu::always_inline]] bool optionalNode(MetadataId id, std::span<const MetadataId> &ops) {
    ops = {};
    return id == kNoId || node(id, ops);
  }

  /// An integer constant operand (sign-extended); `what` names the field in the error.
  /// Inline: the decoder reads a few thousand of them per program, nearly all good.
  [[gnu::always_inline]] bool integer(MetadataId id, int64_t &out, std::string_view what) {
    if (fastInteger(id, out)) [[likely]]
      return true;
    return integerSlow(id, out, what);
  }
  [[gnu::always_inline]] bool u32(MetadataId id, uint32_t &out, std::string_view what) {
    int64_t v = 0;
    if (fastInteger(id, v) && v >= INT32_MIN && v <= int64_t(UINT32_MAX)) [[likely]] {
      out = uint32_t(v);
      return true;
    }
    return u32Slow(id, out, what);
  }
  /// A float or double constant operand.
  bool floating(MetadataId id, double &out, std::string_view what);
  bool string(MetadataId id, std::string &out, std::string_view what);
  /// A string operand as a view of the module's strings (no copy). Inline: the common operand.
  [[gnu::always_inline]] bool text(MetadataId id, std::string_view &out, std::string_view what) {
    if (id < numMetadata_ && metadata_[id].kind == MetadataKind::String) [[likely]] {
      out = m_.str(metadata_[id].string);
      return true;
    }
    return textSlow(id, out, what);
  }
  /// A value operand (global, function, constant), or kNoId for null.
  /// Inline: the common operand (null and failures out of line).
  [[gnu::always_inline]] bool value(MetadataId id, ValueId &out, std::string_view what) {
    if (id < numMetadata_) [[likely]] {
      const Metadata &md = metadata_[id];
      if (md.kind == MetadataKind::Value && md.value < numValues_) [[likely]] {
        out = md.value;
        return true;
      }
    }
    return valueSlow(id, out, what);
  }
  /// The global variable or function behind a value, through casts and constant
  /// expressions; kNoId when there is none.
  ValueId stripCasts(ValueId v) const;

  /// Records the first error (later ones are ignored) and returns false.
  bool fail(MetadataId id, std::string_view message);
  bool failed() const { return error_.has_value(); }
  const Diagnostic &error() const { return *error_; }

private:
  /// integer() for the common operand, with no call: an integer constant of at most 64 bits, or
  /// an integer null; false for anything else (integerSlow() decides).
  [[gnu::always_inline]] bool fastInteger(MetadataId id, int64_t &out) {
    // The few integer nodes a program's records share (i32 0, i32 1, ...) are looked up again
    // and again: the last one found in each slot is remembered (the module does not change).
    const unsigned slot = id & (kIntegerSlots - 1);
    if (integerKeys_[slot] == id) {
      out = integerValues_[slot];
      return true;
    }
    if (id >= numMetadata_)
      return false;
    const Metadata &md = metadata_[id];
    if (md.kind != MetadataKind::Value || md.value >= numValues_)
      return false;
    const Value &v = values_[md.value];
    if (v.kind != ValueKind::Constant || v.index >= numConstants_)
      return false;
    const Constant &c = constants_[v.index];
    if ((c.kind != ConstantKind::Integer && c.kind != ConstantKind::Null) || c.type >= numTypes_)
      return false;
    const Type &t = types_[c.type];
    if (t.kind != TypeKind::Integer || t.bits - 1 >= 64)
      return false;
    uint64_t bits = c.kind == ConstantKind::Integer ? c.bits : 0; // Null: zero
    if (t.bits < 64 && (bits >> (t.bits - 1)) & 1)
      bits |= ~uint64_t(0) << t.bits;
    out = int64_t(bits);
    integerKeys_[slot] = id;
    integerValues_[slot] = out;
    return true;
  }
  [[gnu::noinline]] bool nodeSlow(MetadataId id, std::span<const MetadataId> &ops,
                                  size_t minOperands);
  [[gnu::noinline]] bool textSlow(MetadataId id, std::string_view &out, std::string_view what);
  [[gnu::cold, gnu::noinline]] bool stringSlow(MetadataId id, std::string_view what);
  [[gnu::noinline]] bool valueSlow(MetadataId id, ValueId &out, std::string_view what);
  [[gnu::noinline]] bool u32Slow(MetadataId id, uint32_t &out, std::string_view what);
  [[gnu::noinline]] bool integerSlow(MetadataId id, int64_t &out, std::string_view what);
  [[gnu::cold, gnu::noinline]] bool outOfRange(MetadataId id, std::string_view what);

  const LlvmModule &m_;
  // The module's arrays, as integer() reads them (the module does not change while it is read).
  const Metadata *metadata_;
  const Value *values_;
  const Constant *constants_;
  const Type *types_;
  const MetadataId *metadataOperands_;
  size_t numMetadata_, numValues_, numConstants_, numTypes_, numMetadataOperands_;
  std::string_view context_; ///< the named metadata being read (callers name it by a literal)
  const std::string_view *namedNames_ = nullptr; ///< findNamed()'s names (the caller's)
  /// and their operands, set by findNamed() (not before: nothing to clear for each program)
  struct Found {
    const MetadataId *data;
    size_t size;
  } namedFound_[kMaxNamed];
  std::optional<Diagnostic> error_;
  static constexpr unsigned kIntegerSlots = 64;
  /// A remembered integer node's id. Slot s starts with s + 1, an id that never falls in it
  /// (ids fall in slot id % kIntegerSlots): empty.
  static constexpr std::array<MetadataId, kIntegerSlots> kNoIntegers = [] {
    std::array<MetadataId, kIntegerSlots> keys{};
    for (unsigned s = 0; s < kIntegerSlots; ++s)
      keys[s] = s + 1;
    return keys;
  }();
  std::array<MetadataId, kIntegerSlots> integerKeys_ = kNoIntegers;
  int64_t integerValues_[kIntegerSlots];
};

} // namespace spire::dxil
