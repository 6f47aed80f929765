// The hand-written overlay of the op records: what the grammar does not say about an op (its
// custom syntax, its type rule, the checks of the dialect's own ops, its folder), attached by
// opcode to the records when the registry is made (Ops.cpp).
#pragma once

#include "OpFolder.h"
#include "OpFormat.h"

#include "spire/dialect/Ops.h"

#include <deque>
#include <functional>
#include <string>
#include <vector>

namespace spire::dialect::detail {

/// What the overlay makes and the records point to, owned by the registry.
struct OverlayStore {
  std::deque<OpSyntax> syntaxes;
  std::deque<OpFolder> folders;
  /// Declarations that do not compile (a unit test checks there are none).
  std::vector<std::string> problems;
};

/// The records being made: what the attach functions fill in.
class OpRecords {
public:
  OpRecords(std::function<OpInfo *(OpKey)> find, OverlayStore &store)
      : find_(std::move(find)), store_(store) {}
  /// The record of `key`, or null when the build's grammar lacks the instruction.
  OpInfo *find(OpKey key) const { return find_(key); }
  OverlayStore &store() const { return store_; }

private:
  std::function<OpInfo *(OpKey)> find_;
  OverlayStore &store_;
};

/// A verifier problem that starts with this character is the whole message (without the
/// "'op' op " in front), as MLIR's emitError words some (the character itself is dropped).
constexpr char kWholeMessage = '\x01';

/// VerifierTypes.cpp: OpInfo::typeRule.
void attachTypeRules(const OpRecords &records);
/// VerifierStructure.cpp: OpInfo::verify of the dialect's own ops.
void attachVerifiers(const OpRecords &records);
/// GraphOps.cpp: OpInfo::verify of spirv.ARM.Graph, GraphOutputs, GraphConstant, GraphEntryPoint
/// and spirv.ExperimentalML.Call (attached with the others by attachVerifiers).
std::string verifyGraph(const Operation &op);
/// SyntaxNonSemantic.cpp: OpInfo::verify of spirv.spire.NonSemanticGlobal and NonSemantic.
std::string verifyNonSemanticGlobal(const Operation &op);
std::string verifyNonSemantic(const Operation &op);
std::string verifyGraphOutputs(const Operation &op);
std::string verifyGraphConstant(const Operation &op);
std::string verifyGraphEntryPoint(const Operation &op);
std::string verifyExperimentalMlCall(const Operation &op);
/// OpSyntaxTable.cpp: OpInfo::syntax (its formats compile when first used).
void attachSyntax(const OpRecords &records);
/// Why the format of the op of `info` does not compile; empty when it does (or it has none).
std::string formatProblem(const OpInfo &info);
/// OpFolder.cpp: OpInfo::folder.
void attachFolders(const OpRecords &records);
/// Ops.cpp: the registry attaches the type rules and the folders when first asked: the readers
/// of OpInfo::typeRule and OpInfo::folder call these first.
void attachTypeRulesOnce();
void attachFoldersOnce();
/// TosaOps.cpp: the custom syntax and the verifier of TOSA.001000.1's ops.
void attachTosa(const OpRecords &records);
/// Why a TOSA op has no verifier rule (its table is built when first read, as a translation
/// without TOSA ops reads none of it); empty when it has one, or is no TOSA op.
std::string tosaProblem(const OpInfo &info);
/// The problems of the overlay's declarations (OverlayStore::problems, and the formats that do
/// not compile, which compiles them all).
const std::vector<std::string> &overlayProblems();

} // namespace spire::dialect::detail
