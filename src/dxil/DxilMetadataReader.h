// Typed access to an LlvmModule's metadata for the DXIL model's decoder: nodes, their operands,
// integer, float, string and value operands, each checked, with the first failure kept as a
// one-line diagnostic naming the metadata node and the named metadata it hangs from.
#pragma once

#include "spire/dxil/LlvmModule.h"
#include "spire/support/Diagnostic.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace spire::dxil {

class DxilMetadataReader {
public:
  explicit DxilMetadataReader(const LlvmModule &m) : m_(m) {}

  const LlvmModule &module() const { return m_; }
  /// The named metadata's operands (empty when absent); sets the context of later errors.
  std::span<const MetadataId> named(std::string_view name);
  bool hasNamed(std::string_view name) const;

  /// True for a node (uniqued or distinct); null and out-of-range ids are not nodes.
  bool isNode(MetadataId id) const;
  bool isNull(MetadataId id) const { return id == kNoId; }
  /// A node's operands; fails (and returns false) when `id` is not a node or has fewer than
  /// `minOperands` operands.
  bool node(MetadataId id, std::span<const MetadataId> &ops, size_t minOperands = 0);
  /// A node's operands, or nothing for null; fails on anything else.
  bool optionalNode(MetadataId id, std::span<const MetadataId> &ops);

  /// An integer constant operand (sign-extended); `what` names the field in the error.
  bool integer(MetadataId id, int64_t &out, std::string_view what);
  bool u32(MetadataId id, uint32_t &out, std::string_view what);
  /// A float or double constant operand.
  bool floating(MetadataId id, double &out, std::string_view what);
  bool string(MetadataId id, std::string &out, std::string_view what);
  /// A value operand (global, function, constant), or kNoId for null.
  bool value(MetadataId id, ValueId &out, std::string_view what);
  /// The global variable or function behind a value, through casts and constant
  /// expressions; kNoId when there is none.
  ValueId stripCasts(ValueId v) const;

  /// Records the first error (later ones are ignored) and returns false.
  bool fail(MetadataId id, std::string_view message);
  bool failed() const { return error_.has_value(); }
  const Diagnostic &error() const { return *error_; }

private:
  const LlvmModule &m_;
  std::string context_;
  std::optional<Diagnostic> error_;
};

} // namespace spire::dxil
