// The hand-written overlay of the op records: what the grammar does not say about an op (its
// custom syntax, its type rule, the checks of the dialect's own ops, its folder), attached by
// opcode to the records when the registry is made (Ops.cpp).
#pragma once

#include "spire/dialect/Ops.h"

#include <functional>

namespace spire::dialect::detail {

/// The records being made: what the attach functions fill in.
class OpRecords {
public:
  explicit OpRecords(std::function<OpInfo *(OpKey)> find) : find_(std::move(find)) {}
  /// The record of `key`, or null when the build's grammar lacks the instruction.
  OpInfo *find(OpKey key) const { return find_(key); }

private:
  std::function<OpInfo *(OpKey)> find_;
};

/// VerifierTypes.cpp: OpInfo::typeRule.
void attachTypeRules(const OpRecords &records);
/// VerifierStructure.cpp: OpInfo::verify of the dialect's own ops.
void attachVerifiers(const OpRecords &records);

} // namespace spire::dialect::detail
