#include "CallGraph.h"

#include "State.h"

#include <algorithm>

namespace spire::val {

CallGraph::CallGraph(const State &s) {
  const Module &m = s.module();
  const auto fns = m.functions();
  for (uint32_t f = 0; f < fns.size(); ++f)
    index_[m.inst(fns[f].begin).resultId()] = f;
  nodes_.resize(fns.size());
  for (uint32_t f = 0; f < fns.size(); ++f) {
    Node &node = nodes_[f];
    for (uint32_t i = fns[f].begin; i < fns[f].end; ++i) {
      Instruction inst = m.inst(i);
      if (inst.isRaw())
        continue;
      if (inst.opcode() == grammar::Op::FunctionCall && inst.wordCount() >= 4)
        if (uint32_t callee = function(inst.word(3)); callee != kNoIndex)
          node.callees.push_back(callee);
      for (const binary::Operand &op : inst.operands()) {
        if (grammar::operandCategory(op.kind) != grammar::OperandCategory::Id ||
            op.kind == grammar::OperandKind::IdResult ||
            op.kind == grammar::OperandKind::IdResultType)
          continue;
        const uint32_t id = inst.word(op.offset);
        const uint32_t def = m.defIndex(id);
        if (def != kNoIndex && m.inst(def).opcode() == grammar::Op::Variable &&
            s.functionOf(def) == kNoIndex)
          node.globals.push_back(id);
      }
    }
    std::sort(node.globals.begin(), node.globals.end());
    node.globals.erase(std::unique(node.globals.begin(), node.globals.end()), node.globals.end());
  }
}

uint32_t CallGraph::function(uint32_t id) const {
  auto it = index_.find(id);
  return it == index_.end() ? kNoIndex : it->second;
}

std::vector<uint32_t> CallGraph::reachable(uint32_t f) const {
  std::vector<uint8_t> visited(nodes_.size(), 0);
  std::vector<uint32_t> order{f}, stack{f};
  visited[f] = 1;
  while (!stack.empty()) {
    const uint32_t g = stack.back();
    stack.pop_back();
    for (uint32_t c : nodes_[g].callees)
      if (!visited[c]) {
        visited[c] = 1;
        order.push_back(c);
        stack.push_back(c);
      }
  }
  return order;
}

} // namespace spire::val
