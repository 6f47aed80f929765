// Which function calls which, and which global variables each names: what the rules about an
// entry point's call tree (interfaces, execution-model restrictions, built-ins) walk.
#pragma once

#include "spire/module/Module.h"

#include <span>
#include <unordered_map>
#include <vector>

namespace spire::val {

class State;

class CallGraph {
public:
  explicit CallGraph(const State &s);

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
  std::unordered_map<uint32_t, uint32_t> index_;
  std::vector<Node> nodes_;
};

} // namespace spire::val
