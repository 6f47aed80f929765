#include "spire/analysis/Traversal.h"

#include <algorithm>
#include <utility>

namespace spire::analysis {

DepthFirst depthFirst(const Graph &graph) {
  const uint32_t n = graph.size();
  DepthFirst d;
  d.rpoIndex.assign(n, kNoNode);
  d.pre.assign(n, kNoNode);
  d.post.assign(n, kNoNode);
  if (n == 0)
    return d;
  // Iterative: a stack of (node, next successor to look at), so that deep graphs do not
  // overflow the call stack.
  uint32_t preCount = 0, postCount = 0;
  std::vector<std::pair<uint32_t, uint32_t>> stack;
  stack.reserve(n);
  d.pre[graph.entry()] = preCount++;
  stack.push_back({graph.entry(), 0});
  std::vector<uint32_t> postorder;
  postorder.reserve(n);
  while (!stack.empty()) {
    auto &[node, next] = stack.back();
    std::span<const uint32_t> succs = graph.successors(node);
    if (next < succs.size()) {
      const uint32_t s = succs[next++];
      if (d.pre[s] == kNoNode) {
        d.pre[s] = preCount++;
        stack.push_back({s, 0});
      }
      continue;
    }
    d.post[node] = postCount++;
    postorder.push_back(node);
    stack.pop_back();
  }
  d.reversePostOrder.assign(postorder.rbegin(), postorder.rend());
  for (uint32_t i = 0; i < d.reversePostOrder.size(); ++i)
    d.rpoIndex[d.reversePostOrder[i]] = i;
  return d;
}

} // namespace spire::analysis
