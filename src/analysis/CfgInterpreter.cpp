#include "spire/analysis/CfgInterpreter.h"

namespace spire::analysis {

namespace {

/// The successor index an input block takes, or kNoNode when it ends the run.
uint32_t decide(const Cfg &input, uint32_t node, std::vector<uint32_t> &visits,
                const BranchOracle &oracle, CfgTrace &trace) {
  trace.nodes.push_back(node);
  const Terminator t = input.terminators[node];
  if (t == Terminator::Return || t == Terminator::Unreachable) {
    trace.end = t == Terminator::Return ? CfgTrace::End::Return : CfgTrace::End::Unreachable;
    return kNoNode;
  }
  const uint32_t count = static_cast<uint32_t>(input.graph.successors(node).size());
  const uint32_t visit = visits[node]++;
  return count == 1 ? 0 : oracle(node, visit, count) % count;
}

} // namespace

CfgTrace interpret(const Cfg &input, const BranchOracle &oracle, uint32_t limit) {
  CfgTrace trace;
  std::vector<uint32_t> visits(input.graph.size(), 0);
  uint32_t node = input.graph.entry();
  while (trace.nodes.size() < limit) {
    const uint32_t pick = decide(input, node, visits, oracle, trace);
    if (pick == kNoNode)
      return trace;
    node = input.graph.successors(node)[pick];
  }
  trace.end = CfgTrace::End::Limit;
  return trace;
}

CfgTrace interpret(const Cfg &input, const StructuredCfg &structured, const BranchOracle &oracle,
                   uint32_t limit, std::vector<uint32_t> *blocks) {
  CfgTrace trace;
  std::vector<uint32_t> visits(input.graph.size(), 0);
  uint32_t node = structured.graph.entry();
  uint32_t selector = 0, sinceInput = 0;
  while (trace.nodes.size() < limit) {
    uint32_t pick = 0;
    if (blocks)
      blocks->push_back(node);
    switch (structured.kinds[node]) {
    case StructuredCfg::Kind::Original:
      sinceInput = 0;
      pick = decide(input, structured.origin[node], visits, oracle, trace);
      if (pick == kNoNode)
        return trace;
      break;
    case StructuredCfg::Kind::SetSelector:
      selector = structured.values[node];
      break;
    case StructuredCfg::Kind::Ladder:
      pick = selector == structured.values[node] ? 0 : 1;
      break;
    case StructuredCfg::Kind::Unreachable:
      trace.end = CfgTrace::End::Stuck;
      return trace;
    default:
      break;
    }
    // Between two input blocks a run passes each new block at most once.
    if (++sinceInput > structured.size() + 1) {
      trace.end = CfgTrace::End::Stuck;
      return trace;
    }
    node = structured.graph.successors(node)[pick];
  }
  trace.end = CfgTrace::End::Limit;
  return trace;
}

} // namespace spire::analysis
