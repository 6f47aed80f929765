// A directed graph of nodes 0..n-1 with an entry node, in compressed rows of successors and
// predecessors: what the graph analyses (traversal orders, dominators, loops) read. Any IR makes
// one of its control flow (a SPIR-V function's blocks, a dialect region, a DXIL function).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace spire::analysis {

inline constexpr uint32_t kNoNode = ~0u;

class Graph {
public:
  Graph() = default;

  uint32_t size() const {
    return static_cast<uint32_t>(succBegin_.empty() ? 0 : succBegin_.size() - 1);
  }
  /// The node control enters at (kNoNode for an empty graph).
  uint32_t entry() const { return entry_; }
  uint32_t numEdges() const { return static_cast<uint32_t>(succs_.size()); }

  /// A node's successors, in the order they were added, each once.
  std::span<const uint32_t> successors(uint32_t node) const {
    return std::span<const uint32_t>(succs_).subspan(succBegin_[node],
                                                     succBegin_[node + 1] - succBegin_[node]);
  }
  /// A node's predecessors, in increasing order.
  std::span<const uint32_t> predecessors(uint32_t node) const {
    return std::span<const uint32_t>(preds_).subspan(predBegin_[node],
                                                     predBegin_[node + 1] - predBegin_[node]);
  }

private:
  friend class GraphBuilder;
  uint32_t entry_ = kNoNode;
  std::vector<uint32_t> succBegin_, succs_, predBegin_, preds_;
};

/// Collects edges, then builds a Graph. Edges keep their order per source node; an edge added
/// twice counts once.
class GraphBuilder {
public:
  explicit GraphBuilder(uint32_t numNodes) : numNodes_(numNodes) {}
  /// Adds `from -> to`; both must be below the node count.
  void addEdge(uint32_t from, uint32_t to) { edges_.push_back({from, to}); }
  Graph build(uint32_t entry) const;

private:
  struct Edge {
    uint32_t from, to;
  };
  uint32_t numNodes_;
  std::vector<Edge> edges_;
};

} // namespace spire::analysis
