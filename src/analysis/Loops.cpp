#include "spire/analysis/Loops.h"

#include "spire/analysis/Traversal.h"

#include <algorithm>

namespace spire::analysis {

LoopNest::LoopNest(const Graph &graph, const DominatorTree &dominators) {
  const uint32_t n = graph.size();
  innermost_.assign(n, kNoNode);
  const DepthFirst dfs = depthFirst(graph);

  // Back edges by header, and the retreating edges that are not back edges.
  std::vector<std::vector<uint32_t>> latches(n);
  for (uint32_t v = 0; v < n; ++v) {
    if (!dfs.reached(v))
      continue;
    for (uint32_t s : graph.successors(v)) {
      if (dominators.dominates(s, v))
        latches[s].push_back(v);
      else if (dfs.retreats(v, s))
        irreducible_.push_back({v, s});
    }
  }

  // Each header's natural loop: the header and every node that reaches a latch without going
  // through the header. Headers in reverse post-order put outer loops before inner ones.
  std::vector<uint32_t> mark(n, kNoNode), work;
  for (uint32_t h : dfs.reversePostOrder) {
    if (latches[h].empty())
      continue;
    Loop loop;
    loop.header = h;
    loop.latches = latches[h];
    std::sort(loop.latches.begin(), loop.latches.end());
    const uint32_t id = static_cast<uint32_t>(loops_.size());
    mark[h] = id;
    loop.nodes.push_back(h);
    for (uint32_t l : loop.latches)
      if (mark[l] != id) {
        mark[l] = id;
        loop.nodes.push_back(l);
        work.push_back(l);
      }
    while (!work.empty()) {
      const uint32_t v = work.back();
      work.pop_back();
      for (uint32_t p : graph.predecessors(v))
        if (mark[p] != id && dfs.reached(p)) {
          mark[p] = id;
          loop.nodes.push_back(p);
          work.push_back(p);
        }
    }
    std::sort(loop.nodes.begin(), loop.nodes.end());
    loops_.push_back(std::move(loop));
  }

  // Nesting: a loop's parent is the innermost other loop holding its header. Outer loops come
  // first and inner loops are subsets, so the last loop seen holding a node is its innermost.
  for (uint32_t id = 0; id < loops_.size(); ++id) {
    Loop &loop = loops_[id];
    loop.parent = innermost_[loop.header];
    loop.depth = loop.parent == kNoNode ? 1 : loops_[loop.parent].depth + 1;
    for (uint32_t v : loop.nodes)
      innermost_[v] = id;
  }
  for (Loop &loop : loops_) {
    for (uint32_t v : loop.nodes)
      for (uint32_t s : graph.successors(v))
        if (!std::binary_search(loop.nodes.begin(), loop.nodes.end(), s))
          loop.exits.push_back(s);
    std::sort(loop.exits.begin(), loop.exits.end());
    loop.exits.erase(std::unique(loop.exits.begin(), loop.exits.end()), loop.exits.end());
  }
}

uint32_t LoopNest::loopHeadedBy(uint32_t node) const {
  const uint32_t id = innermost_[node];
  return id != kNoNode && loops_[id].header == node ? id : kNoNode;
}

} // namespace spire::analysis
