// What the tests of spire val against the structured IR's verifier share: a module with one
// function parameter of each type of a pool (%p_<type>) and a slot for one instruction, and what
// spire val and the verifier say of the module with an instruction in the slot.
#pragma once

#include "ValTestUtil.h"
#include "spire/dialect/Serialization.h"
#include "spire/dialect/Verifier.h"
#include "spire/grammar/Grammar.h"

#include <cctype>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace spire::val::test {

/// What spire val and the verifier (after deserialization) say of one module.
struct Verdicts {
  bool valAccepts = false;
  bool deserialized = false;
  std::string verifier; ///< "" when the IR verifies
  bool verifies() const { return deserialized && verifier.empty(); }
};

inline Verdicts verdicts(const Module &m) {
  Verdicts v;
  Options options;
  options.maxErrors = 1;
  v.valAccepts = validate(m, options).valid();
  dialect::Context ctx;
  Expected<dialect::OwningOp> ir = dialect::deserialize(ctx, m);
  v.deserialized = bool(ir);
  if (ir) {
    Status s = dialect::verify(**ir);
    v.verifier = s ? std::string() : s.error().message;
  } else {
    v.verifier = ir.error().message;
  }
  return v;
}

/// The position a verifier message names: 0 for the result ("'spirv.X' op the result ...",
/// "result #0 must be ..."), k + 1 for operand k ("'spirv.X' op operand k ...", "operand #k must
/// be ..."); 0 for MLIR's messages of values that must have the result's type ("all of {base,
/// result} have same type", "the same type for all operands and results"): the result is the
/// value to change; -1 for none.
inline int namedPosition(const std::string &message) {
  const size_t op = message.find("' op ");
  const std::string rest = op == std::string::npos ? message : message.substr(op + 5);
  if (rest.starts_with("the result") || rest.starts_with("result #"))
    return 0;
  for (std::string_view prefix : {"operand ", "operand #"})
    if (rest.starts_with(prefix) && rest.size() > prefix.size() &&
        std::isdigit(static_cast<unsigned char>(rest[prefix.size()])))
      return std::stoi(rest.substr(prefix.size())) + 1;
  if ((rest.starts_with("failed to verify that all of {") &&
       rest.find(", result} have same") != std::string::npos) ||
      rest.starts_with("requires the same type for all operands and results"))
    return 0;
  return -1;
}

/// `text`, whose PARAMETER_TYPES and PARAMETERS stand in a function's type and parameters and
/// INST in its code, with a parameter %p_<t> of each of `types` (in order) and an OpNop, assembled
/// as SPIR-V 1.6 with its ids kept and split around the OpNop. Where INST is at module scope
/// (`moduleScope`), the placeholder is an OpLine of an OpString %slot_file the text declares.
class PoolModule {
public:
  PoolModule(std::string_view text, std::span<const char *const> types, bool moduleScope = false) {
    std::string typeList, params;
    for (std::string_view t : types) {
      typeList += " %" + std::string(t);
      params += "%p_" + std::string(t) + " = OpFunctionParameter %" + std::string(t) + "\n";
    }
    text_ = replaced(std::string(text), "PARAMETER_TYPES", typeList);
    text_ = replaced(text_, "PARAMETERS", params);
    text_ = replaced(text_, "INST", moduleScope ? "OpLine %slot_file 1 1" : "OpNop");
    const grammar::Op slot = moduleScope ? grammar::Op::Line : grammar::Op::Nop;
    AssembleOptions as;
    as.version = grammar::makeVersion(1, 6);
    as.preserveNumericIds = true;
    Expected<std::vector<uint32_t>> words = assemble(text_, as);
    EXPECT_TRUE(bool(words)) << (words ? "" : words.error().format("<pool>"));
    if (!words)
      return;
    Expected<Module> m = Module::fromWords(*words);
    EXPECT_TRUE(bool(m));
    if (!m)
      return;
    for (Instruction inst : *m)
      if (inst.opcode() == slot) {
        prefix_.assign(words->begin(), words->begin() + inst.wordOffset());
        suffix_.assign(words->begin() + inst.wordOffset() + inst.wordCount(), words->end());
      }
    module_.emplace(std::move(m).value());
    moduleScope_ = moduleScope;
    for (size_t at = 0; at < suffix_.size() && (suffix_[at] >> 16) != 0; at += suffix_[at] >> 16)
      if ((suffix_[at] & 0xFFFF) == uint32_t(grammar::Op::Return))
        returnAt_ = at;
  }

  /// The module with its OpNop, empty when it did not assemble.
  const std::optional<Module> &module() const { return module_; }
  const std::string &text() const { return text_; }
  /// The id an instruction in the slot may define.
  uint32_t freeId() const { return module_ ? module_->bound() : 0; }

  /// The verdicts on the module with instruction `opcode` of the operand words `operands` (the
  /// result type and freeId() first, where it has them) in the slot.
  Verdicts with(uint32_t opcode, const std::vector<uint32_t> &operands) const {
    Expected<Module> m = moduleWith(opcode, operands);
    EXPECT_TRUE(bool(m)) << opcode;
    return m ? verdicts(*m) : Verdicts{};
  }

  /// The module with that instruction in the slot. At module scope, a constant reaches the
  /// structured IR only where code uses it: the last function's OpReturn is preceded by an
  /// OpCopyObject of the slot's result.
  Expected<Module> moduleWith(uint32_t opcode, const std::vector<uint32_t> &operands) const {
    std::vector<uint32_t> words = prefix_;
    words.push_back(uint32_t(operands.size() + 1) << 16 | opcode);
    words.insert(words.end(), operands.begin(), operands.end());
    const size_t suffixAt = words.size();
    words.insert(words.end(), suffix_.begin(), suffix_.end());
    words[3] = freeId() + 1;
    if (moduleScope_ && operands.size() >= 2 && returnAt_ != 0) {
      const uint32_t copy[] = {4u << 16 | uint32_t(grammar::Op::CopyObject), operands[0],
                               freeId() + 1, operands[1]};
      words.insert(words.begin() + std::ptrdiff_t(suffixAt + returnAt_), std::begin(copy),
                   std::end(copy));
      words[3] = freeId() + 2;
    }
    return Module::fromWords(std::move(words));
  }

private:
  std::string text_;
  std::optional<Module> module_;
  std::vector<uint32_t> prefix_, suffix_;
  bool moduleScope_ = false;
  size_t returnAt_ = 0; ///< the offset in suffix_ of the last OpReturn (0: none)
};

} // namespace spire::val::test
