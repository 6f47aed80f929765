// The type rules of the dialect's ops, for the verifier (Verifier.cpp): what each op's operand
// and result types must be, after MLIR's op definitions (docs/notes/mlir_spirv_ops_reference.md)
// and, for ops MLIR does not define, the SPIR-V specification. Most rules are rows of a table
// (VerifierTypes.cpp); the ops whose types depend on attributes, symbols or each other in more
// involved ways (composites, access chains, calls, constants) have a function each.
#pragma once

#include "spire/dialect/IR.h"

#include <string>
#include <string_view>
#include <unordered_map>

namespace spire::dialect {

/// Checks ops one at a time during one verification; keeps the symbols of the module it last
/// looked into (callees, global variables, specialization constants).
class TypeVerifier {
public:
  /// Empty when `op`'s operand and result types follow its definition; else the first problem,
  /// one line, without the op's name.
  std::string check(const Operation &op);

  /// The op defining `name` in the module around `op`, or null.
  const Operation *symbol(const Operation &op, std::string_view name);

private:
  const Operation *module_ = nullptr;
  std::unordered_map<std::string_view, const Operation *> symbols_;
};

} // namespace spire::dialect
