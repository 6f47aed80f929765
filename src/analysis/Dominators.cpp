#include "spire/analysis/Dominators.h"

#include "spire/analysis/Traversal.h"

#include <algorithm>
#include <utility>

namespace spire::analysis {

namespace {

// The graph post-dominators are computed on: the reverse graph with a virtual exit (node n)
// whose edges lead to every node without successors.
Graph reverseWithExit(const Graph &graph) {
  const uint32_t n = graph.size();
  GraphBuilder b(n + 1);
  for (uint32_t v = 0; v < n; ++v) {
    if (graph.successors(v).empty())
      b.addEdge(n, v);
    for (uint32_t p : graph.predecessors(v))
      b.addEdge(v, p);
  }
  return b.build(n);
}

} // namespace

DominatorTree::DominatorTree(const Graph &input, Kind kind) : kind_(kind) {
  const bool post = kind == Kind::PostDominators;
  const uint32_t n = input.size();
  idom_.assign(n, kNoNode);
  pre_.assign(n, kNoNode);
  post_.assign(n, kNoNode);
  depth_.assign(n, kNoNode);
  childBegin_.assign(n + 1, 0);
  if (n == 0)
    return;
  Graph reversed;
  if (post)
    reversed = reverseWithExit(input);
  const Graph &graph = post ? reversed : input;
  const uint32_t nodes = graph.size();
  const uint32_t root = graph.entry();

  // Cooper, Harvey and Kennedy's iterative algorithm over a reverse post-order.
  const DepthFirst order = depthFirst(graph);
  const std::vector<uint32_t> &rpo = order.reversePostOrder;
  std::vector<uint32_t> dom(nodes, kNoNode);
  dom[root] = root;
  auto intersect = [&](uint32_t a, uint32_t b) {
    while (a != b) {
      while (order.rpoIndex[a] > order.rpoIndex[b])
        a = dom[a];
      while (order.rpoIndex[b] > order.rpoIndex[a])
        b = dom[b];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 1; i < rpo.size(); ++i) {
      const uint32_t v = rpo[i];
      uint32_t best = kNoNode;
      for (uint32_t p : graph.predecessors(v)) {
        if (dom[p] == kNoNode)
          continue;
        best = best == kNoNode ? p : intersect(p, best);
      }
      if (best != dom[v]) {
        dom[v] = best;
        changed = true;
      }
    }
  }

  // The tree over the input's nodes: the virtual exit is left out, its children are roots.
  std::vector<uint32_t> roots;
  for (uint32_t v = 0; v < n; ++v) {
    if (dom[v] == kNoNode)
      continue;
    if (v == root || (post && dom[v] == root))
      roots.push_back(v);
    else
      idom_[v] = dom[v];
  }
  for (uint32_t v = 0; v < n; ++v)
    if (idom_[v] != kNoNode)
      childBegin_[idom_[v] + 1]++;
  for (uint32_t v = 0; v < n; ++v)
    childBegin_[v + 1] += childBegin_[v];
  children_.resize(childBegin_[n]);
  std::vector<uint32_t> fill(childBegin_.begin(), childBegin_.end() - 1);
  for (uint32_t v = 0; v < n; ++v)
    if (idom_[v] != kNoNode)
      children_[fill[idom_[v]]++] = v;

  // Number the tree depth-first so that dominance is an interval test.
  uint32_t counter = 0;
  std::vector<std::pair<uint32_t, uint32_t>> stack;
  for (uint32_t r : roots) {
    pre_[r] = counter++;
    depth_[r] = 0;
    stack.push_back({r, childBegin_[r]});
    while (!stack.empty()) {
      auto &[v, next] = stack.back();
      if (next < childBegin_[v + 1]) {
        const uint32_t c = children_[next++];
        pre_[c] = counter++;
        depth_[c] = depth_[v] + 1;
        stack.push_back({c, childBegin_[c]});
        continue;
      }
      post_[v] = counter++;
      stack.pop_back();
    }
  }
}

bool DominatorTree::dominates(uint32_t a, uint32_t b) const {
  if (pre_[a] == kNoNode || pre_[b] == kNoNode)
    return false;
  return pre_[a] <= pre_[b] && post_[b] <= post_[a];
}

uint32_t DominatorTree::nearestCommonDominator(uint32_t a, uint32_t b) const {
  if (!inTree(a) || !inTree(b))
    return kNoNode;
  while (depth_[a] > depth_[b])
    a = idom_[a];
  while (depth_[b] > depth_[a])
    b = idom_[b];
  while (a != b) {
    a = idom_[a];
    b = idom_[b];
    if (a == kNoNode || b == kNoNode)
      return kNoNode; // two roots of the post-dominator tree
  }
  return a;
}

DominanceFrontiers::DominanceFrontiers(const Graph &graph, const DominatorTree &dominators) {
  // Cytron et al., as Cooper, Harvey and Kennedy put it: for each node, walk up from each
  // predecessor to the node's immediate dominator. (A node with one predecessor adds nothing,
  // unless it is the entry, which a back edge may reach.)
  const uint32_t n = graph.size();
  std::vector<std::vector<uint32_t>> df(n);
  for (uint32_t v = 0; v < n; ++v) {
    if (!dominators.inTree(v))
      continue;
    for (uint32_t p : graph.predecessors(v)) {
      for (uint32_t runner = p;
           runner != kNoNode && dominators.inTree(runner) && runner != dominators.idom(v);
           runner = dominators.idom(runner)) {
        if (df[runner].empty() || df[runner].back() != v)
          df[runner].push_back(v);
      }
    }
  }
  begin_.assign(n + 1, 0);
  for (uint32_t v = 0; v < n; ++v) {
    std::sort(df[v].begin(), df[v].end());
    df[v].erase(std::unique(df[v].begin(), df[v].end()), df[v].end());
    begin_[v + 1] = begin_[v] + static_cast<uint32_t>(df[v].size());
    nodes_.insert(nodes_.end(), df[v].begin(), df[v].end());
  }
}

std::vector<uint32_t> DominanceFrontiers::iterated(std::span<const uint32_t> nodes) const {
  const uint32_t n = static_cast<uint32_t>(begin_.size() - 1);
  std::vector<uint8_t> inResult(n, 0), queued(n, 0);
  std::vector<uint32_t> work(nodes.begin(), nodes.end()), result;
  for (uint32_t v : work)
    queued[v] = 1;
  while (!work.empty()) {
    const uint32_t v = work.back();
    work.pop_back();
    for (uint32_t f : of(v)) {
      if (!inResult[f]) {
        inResult[f] = 1;
        result.push_back(f);
      }
      if (!queued[f]) {
        queued[f] = 1;
        work.push_back(f);
      }
    }
  }
  std::sort(result.begin(), result.end());
  return result;
}

} // namespace spire::analysis
