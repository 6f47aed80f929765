#include "CallGraph.h"

#include "State.h"

#include <algorithm>
#include <unordered_map>

namespace spire::val {

// The module-scope variables that a constant names, through OpSpecConstantOp and composites of
// constants (an address a specialization constant operation computes from a variable refers to
// that variable; spirv-val asks the entry point's interface to list it). Memoized per id.
class CallGraph::ConstantGlobals {
public:
  explicit ConstantGlobals(const Module &m) : m_(m) {}

  const std::vector<uint32_t> &of(uint32_t id, int depth = 0) {
    if (auto it = memo_.find(id); it != memo_.end())
      return it->second;
    std::vector<uint32_t> found;
    const uint32_t def = m_.defIndex(id);
    if (def == kNoIndex)
      return memo_[id];
    const Instruction inst = m_.inst(def);
    if (!inst.isRaw() && depth < 64 &&
        (inst.opcode() == grammar::Op::SpecConstantOp ||
         inst.opcode() == grammar::Op::SpecConstantComposite ||
         inst.opcode() == grammar::Op::ConstantComposite))
      for (const binary::Operand &op : inst.operands()) {
        if (grammar::operandCategory(op.kind) != grammar::OperandCategory::Id ||
            op.kind == grammar::OperandKind::IdResult ||
            op.kind == grammar::OperandKind::IdResultType)
          continue;
        const uint32_t used = inst.word(op.offset), usedDef = m_.defIndex(used);
        if (usedDef != kNoIndex && m_.inst(usedDef).opcode() == grammar::Op::Variable)
          found.push_back(used);
        else {
          const std::vector<uint32_t> &inner = of(used, depth + 1);
          found.insert(found.end(), inner.begin(), inner.end());
        }
      }
    return memo_[id] = std::move(found);
  }

private:
  const Module &m_;
  std::unordered_map<uint32_t, std::vector<uint32_t>> memo_;
};

CallGraph::CallGraph(const State &s, ToFill)
    : constantGlobals_(std::make_unique<ConstantGlobals>(s.module())) {
  const Module &m = s.module();
  const auto fns = m.functions();
  for (uint32_t f = 0; f < fns.size(); ++f)
    index_[m.inst(fns[f].begin).resultId()] = f;
  nodes_.resize(fns.size());
}

CallGraph::~CallGraph() = default;

void CallGraph::addCall(uint32_t f, const Instruction &inst) {
  if (inst.opcode() == grammar::Op::FunctionCall && inst.wordCount() >= 4)
    if (uint32_t callee = function(inst.word(3)); callee != kNoIndex)
      nodes_[f].callees.push_back(callee);
}

void CallGraph::addUse(uint32_t f, uint32_t id, grammar::Op defOp) {
  Node &node = nodes_[f];
  if (defOp == grammar::Op::Variable) {
    node.globals.push_back(id);
  } else if (defOp == grammar::Op::SpecConstantOp || defOp == grammar::Op::SpecConstantComposite ||
             defOp == grammar::Op::ConstantComposite) {
    // (Only these name others; types and scalar constants name no variable.)
    const std::vector<uint32_t> &named = constantGlobals_->of(id);
    node.globals.insert(node.globals.end(), named.begin(), named.end());
  }
}

void CallGraph::finish() {
  for (Node &node : nodes_) {
    std::sort(node.globals.begin(), node.globals.end());
    node.globals.erase(std::unique(node.globals.begin(), node.globals.end()), node.globals.end());
  }
  constantGlobals_.reset();
}

CallGraph::CallGraph(const State &s) : CallGraph(s, ToFill{}) {
  const Module &m = s.module();
  const auto fns = m.functions();
  for (uint32_t f = 0; f < fns.size(); ++f) {
    for (uint32_t i = fns[f].begin; i < fns[f].end; ++i) {
      Instruction inst = m.inst(i);
      if (inst.isRaw())
        continue;
      addCall(f, inst);
      for (const binary::Operand &op : inst.operands()) {
        if (grammar::operandCategory(op.kind) != grammar::OperandCategory::Id ||
            op.kind == grammar::OperandKind::IdResult ||
            op.kind == grammar::OperandKind::IdResultType)
          continue;
        const uint32_t id = inst.word(op.offset);
        const uint32_t def = m.defIndex(id);
        if (def == kNoIndex || s.functionOf(def) != kNoIndex)
          continue;
        addUse(f, id, m.inst(def).opcode());
      }
    }
  }
  finish();
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
