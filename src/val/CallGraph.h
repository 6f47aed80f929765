// Which function calls which, and which global variables each names: what the rules about an
// entry point's call tree (interfaces, execution-model restrictions, built-ins) walk.
#pragma once

#include "spire/module/Module.h"

#include <memory>
#include <span>
#include <unordered_map>
#include <vector>

namespace spire::val {

class State;

class CallGraph {
public:
  /// The graph of `s`'s module, from a walk over its functions' instructions.
  explicit CallGraph(const State &s);
  /// An empty graph of `s`'s functions, for a walk that sees every id operand anyway (the id
  /// rules') to fill with addCall() and addUse() in the module's order, then finish().
  struct ToFill {};
  CallGraph(const State &s, ToFill);
  ~CallGraph();
  CallGraph(const CallGraph &) = delete;
  CallGraph &operator=(const CallGraph &) = delete;
  /// Instruction `inst` of function `f` (not raw): its call, if it is one.
  void addCall(uint32_t f, const Instruction &inst);
  /// An id operand (not a result or result type) of function `f`'s instructions, defined at
  /// `def` by `defOp`, outside every function.
  void addUse(uint32_t f, uint32_t id, grammar::Op defOp);
  void finish();

  /// Index (into Module::functions()) of the function with result id `id`, or kNoIndex.
  uint32_t function(uint32_t id) const;
  std::span<const uint32_t> callees(uint32_t f) const { return nodes_[f].callees; }
  /// The module-scope variables function `f`'s instructions name, each once.
  std::span<const uint32_t> globals(uint32_t f) const { return nodes_[f].globals; }
  /// The functions reachable from `f` through calls, `f` first.
  std::vector<uint32_t> reachable(uint32_t f) const;

private:
  struct Node {
    std::vector<uint32_t> callees, globals;
  };
  class ConstantGlobals;
  std::unordered_map<uint32_t, uint32_t> index_;
  std::vector<Node> nodes_;
  std::unique_ptr<ConstantGlobals> constantGlobals_; ///< while it is being made
};

} // namespace spire::val
