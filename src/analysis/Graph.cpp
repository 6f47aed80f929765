#include "spire/analysis/Graph.h"

namespace spire::analysis {

Graph GraphBuilder::build(uint32_t entry) const {
  Graph g;
  const uint32_t n = numNodes_;
  g.entry_ = n == 0 ? kNoNode : entry;
  // Successors: a counting sort of the edges by source keeps each source's edges in order;
  // a duplicate edge is dropped (the last edge seen per target is remembered per source).
  g.succBegin_.assign(n + 1, 0);
  for (const Edge &e : edges_)
    g.succBegin_[e.from + 1]++;
  for (uint32_t v = 0; v < n; ++v)
    g.succBegin_[v + 1] += g.succBegin_[v];
  std::vector<uint32_t> all(edges_.size());
  std::vector<uint32_t> fill(g.succBegin_.begin(), g.succBegin_.end() - 1);
  for (const Edge &e : edges_)
    all[fill[e.from]++] = e.to;
  std::vector<uint32_t> lastSource(n, kNoNode);
  g.succs_.reserve(all.size());
  std::vector<uint32_t> begin(n + 1, 0);
  for (uint32_t v = 0; v < n; ++v) {
    begin[v] = static_cast<uint32_t>(g.succs_.size());
    for (uint32_t i = g.succBegin_[v]; i < g.succBegin_[v + 1]; ++i) {
      const uint32_t to = all[i];
      if (lastSource[to] == v)
        continue;
      lastSource[to] = v;
      g.succs_.push_back(to);
    }
  }
  begin[n] = static_cast<uint32_t>(g.succs_.size());
  g.succBegin_ = std::move(begin);

  // Predecessors: the reverse edges, sorted by source because sources are visited in order.
  g.predBegin_.assign(n + 1, 0);
  for (uint32_t to : g.succs_)
    g.predBegin_[to + 1]++;
  for (uint32_t v = 0; v < n; ++v)
    g.predBegin_[v + 1] += g.predBegin_[v];
  g.preds_.resize(g.succs_.size());
  fill.assign(g.predBegin_.begin(), g.predBegin_.end() - 1);
  for (uint32_t v = 0; v < n; ++v)
    for (uint32_t to : g.successors(v))
      g.preds_[fill[to]++] = v;
  return g;
}

} // namespace spire::analysis
