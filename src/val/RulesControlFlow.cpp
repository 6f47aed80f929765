// Rules: branches, OpPhi and structured control flow (SPIR-V 2.11, 2.16.1, 3.32.17).
//
// For every module: branch, merge and continue targets are labels of the same function;
// conditions, selectors and OpPhi are well typed and shaped; merge instructions sit right before
// their terminator; the entry block is no branch target; blocks follow their dominators.
// With the Shader capability, the structured rules of 2.11: merge blocks of one header each,
// headers dominate their merge blocks, conditional branches and switches are structured, back
// edges (one per loop, from its continue construct), construct entries and exits, and switch
// case fall-through. Constructs are computed with structural dominance: the dominance of the
// graph of the branches plus an edge from each header to its merge block and continue target.
//
// The layout rules have made sure that every block ends with a terminator and that functions are
// well nested, so Module's block index and the Cfg are meaningful here.
#include "Rules.h"
#include "spire/analysis/Dominators.h"

#include "spire/module/Opcodes.h"

#include <algorithm>
#include <bit>
#include <optional>
#include <span>
#include <string>
#include <unordered_set>
#include <vector>

namespace spire::val {

namespace {

std::string_view opName(Op op) {
  if (const grammar::InstructionDesc *d = grammar::findInstruction(static_cast<uint32_t>(op)))
    return d->name;
  return "an unknown instruction";
}

bool skippable(Op op) { return op == Op::Line || op == Op::NoLine; }

/// The structural graph of a function: its branches plus an edge from each header to its merge
/// block and continue target (SPIR-V 2.11 defines constructs by this "structural" dominance).
analysis::Graph structuralGraph(const Cfg &cfg) {
  analysis::GraphBuilder g(cfg.size());
  for (uint32_t b = 0; b < cfg.size(); ++b) {
    for (uint32_t t : cfg.successors(b))
      g.addEdge(b, t);
    for (uint32_t extra : {cfg.mergeBlock(b), cfg.continueBlock(b)})
      if (extra != kNoIndex)
        g.addEdge(b, extra);
  }
  return g.build(0);
}

/// Structural dominators, from the entry block.
class StructuralDominators {
public:
  explicit StructuralDominators(const Cfg &cfg) : graph_(structuralGraph(cfg)), dom_(graph_) {}

  bool reachable(uint32_t b) const { return dom_.inTree(b); }
  /// The immediate structural dominator, or kNoIndex for the entry and unreachable blocks.
  uint32_t idom(uint32_t b) const { return dom_.idom(b); }
  /// True when every structural path from the entry to `b` passes through `a` (a == b included).
  bool dominates(uint32_t a, uint32_t b) const { return dom_.dominates(a, b); }
  std::span<const uint32_t> successors(uint32_t b) const { return graph_.successors(b); }
  const analysis::Graph &graph() const { return graph_; }

private:
  analysis::Graph graph_;
  analysis::DominatorTree dom_;
};

/// Structural post-dominators, with a virtual exit after every block without successors.
/// Blocks that reach no exit are left out.
class StructuralPostDominators {
public:
  /// Over the structural graph `graph` (which must outlive it).
  explicit StructuralPostDominators(const analysis::Graph &graph)
      : dom_(graph, analysis::DominatorTree::Kind::PostDominators) {}
  /// True when every structural path from `b` to an exit passes through `a`; false when either
  /// reaches no exit.
  bool postDominates(uint32_t a, uint32_t b) const { return dom_.dominates(a, b); }

private:
  analysis::DominatorTree dom_;
};

class FunctionChecker {
public:
  FunctionChecker(State &s, uint32_t f)
      : s_(s), m_(s.module()), info_(m_.functions()[f]), cfg_(s.cfg(f)), dom_(s.dominators(f)),
        fnId_(m_.inst(info_.begin).resultId()) {}

  void run() {
    checkTargets();
    for (uint32_t b = 0; b < cfg_.size() && !s_.stopped(); ++b) {
      checkTerminator(b);
      checkMerge(b);
      checkPhis(b);
    }
    if (s_.stopped())
      return;
    checkEntryBlock();
    checkBlockOrder();
    // Merge instructions are only hints outside shaders: the structured rules need Shader.
    if (s_.hasCapability(grammar::Capability::Shader)) {
      checkMergeBlocksUnique();
      checkHeaderDominance();
      checkStructuredSelections();
      checkBackEdges();
      checkConstructEntries();
      checkConstructExits();
      checkSwitches();
      checkNestingDepth();
    }
  }

private:
  std::string blockName(uint32_t b) const { return s_.name(cfg_.labelId(b)); }

  // Branch, merge and continue targets: labels of this function.
  void checkTargets() {
    for (const Cfg::Dangling &d : cfg_.danglingTargets()) {
      if (s_.stopped())
        return;
      Instruction inst = m_.inst(d.inst);
      const Op op = inst.opcode();
      std::string role = "branch target";
      if (op == Op::SelectionMerge || op == Op::LoopMerge)
        role = inst.wordCount() > 1 && inst.word(1) == d.target ? "Merge Block" : "Continue Target";
      if (s_.defOpcode(d.target) == Op::Label)
        s_.error(d.inst, "2.16.1",
                 "the " + role + " " + s_.name(d.target) + " of " + std::string(opName(op)) +
                     " is a block of another function; control flow stays within " +
                     s_.name(fnId_));
      else
        s_.error(d.inst, "3.32.17 " + std::string(opName(op)),
                 "the " + role + " " + s_.name(d.target) + " of " + std::string(opName(op)) +
                     " must be an OpLabel of the same function");
    }
  }

  void checkTerminator(uint32_t b) {
    const uint32_t t = cfg_.terminator(b);
    if (t == kNoIndex)
      return;
    Instruction inst = m_.inst(t);
    if (inst.isRaw())
      return;
    if (inst.opcode() == Op::BranchConditional) {
      if (inst.wordCount() != 4 && inst.wordCount() != 6) {
        s_.error(
            t, "3.32.17 OpBranchConditional",
            "an OpBranchConditional takes a condition, two labels and either no branch weights "
            "or two");
        return;
      }
      if (m_.version() >= grammar::makeVersion(1, 6) && inst.word(2) == inst.word(3))
        s_.error(t, "3.32.17 OpBranchConditional",
                 "the True Label and the False Label are both " + s_.name(inst.word(2)) +
                     "; from SPIR-V 1.6 they must differ (use OpBranch)");
      const uint32_t cond = inst.word(1), type = s_.typeOf(cond);
      if (!s_.isBoolType(type))
        s_.error(t, "3.32.17 OpBranchConditional",
                 "the condition " + s_.name(cond) + " has type " + s_.name(type) +
                     "; a conditional branch needs a boolean scalar (OpTypeBool)");
    } else if (inst.opcode() == Op::Switch) {
      if (inst.wordCount() < 3)
        return;
      const uint32_t sel = inst.word(1), type = s_.typeOf(sel);
      if (!s_.isIntType(type)) {
        s_.error(t, "3.32.17 OpSwitch",
                 "the selector " + s_.name(sel) + " has type " + s_.name(type) +
                     "; OpSwitch needs an integer scalar selector");
        return;
      }
      // Duplicate case literals: only the first can ever be taken. spirv-val accepts them, so
      // this is a warning.
      std::vector<std::pair<uint64_t, uint32_t>> cases; // (value, target)
      const uint32_t width = s_.bitWidth(type) > 32 ? 2 : 1;
      for (uint32_t w = 3; w + width < inst.wordCount(); w += width + 1) {
        uint64_t v = inst.word(w);
        if (width == 2)
          v |= uint64_t(inst.word(w + 1)) << 32;
        cases.emplace_back(v, inst.word(w + width));
      }
      std::sort(cases.begin(), cases.end());
      for (size_t i = 1; i < cases.size(); ++i)
        if (cases[i].first == cases[i - 1].first) {
          s_.warning(t, "3.32.17 OpSwitch",
                     "the case literal " + std::to_string(cases[i].first) +
                         " appears more than once; each case value of an OpSwitch must be unique");
          break;
        }
    }
  }

  // OpSelectionMerge / OpLoopMerge: second-to-last in its block, before the right terminator.
  void checkMerge(uint32_t b) {
    const BlockInfo &blk = cfg_.blocks()[b];
    for (uint32_t i = blk.label + 1; i < blk.end; ++i) {
      Instruction inst = m_.inst(i);
      const Op op = inst.opcode();
      if (op != Op::SelectionMerge && op != Op::LoopMerge)
        continue;
      const uint32_t next = i + 1; // immediately: not even OpLine in between
      const Op nextOp = next < blk.end ? m_.inst(next).opcode() : kNoOp;
      const bool ok = op == Op::SelectionMerge
                          ? nextOp == Op::BranchConditional || nextOp == Op::Switch
                          : nextOp == Op::Branch || nextOp == Op::BranchConditional;
      if (!ok) {
        s_.error(i, "3.32.17 " + std::string(opName(op)),
                 std::string(opName(op)) + " must come right before the block's " +
                     (op == Op::SelectionMerge ? "OpBranchConditional or OpSwitch"
                                               : "OpBranch or OpBranchConditional") +
                     " terminator");
        continue;
      }
      if (inst.isRaw() || inst.wordCount() < 2)
        continue;
      const uint32_t merge = cfg_.blockOfLabel(inst.word(1));
      if (merge == b)
        s_.error(i, "2.11",
                 "the Merge Block of " + std::string(opName(op)) + " is its own header block " +
                     blockName(b) + "; the merge block must come after the construct");
      if (op == Op::LoopMerge && inst.wordCount() >= 3 && inst.word(1) == inst.word(2))
        s_.error(i, "2.11",
                 "the Merge Block and the Continue Target of OpLoopMerge are the same block " +
                     s_.name(inst.word(1)) + "; they must be different");
      if (op == Op::LoopMerge && inst.wordCount() >= 4)
        loopControl(inst);
    }
  }

  // 3.23 Loop Control: Unroll and DontUnroll exclude each other, and DontUnroll excludes PeelCount
  // and PartialCount; IterationMultiple "must be greater than 0". Operands follow the mask in the
  // order of its bits.
  void loopControl(const Instruction &inst) {
    constexpr uint32_t kUnroll = uint32_t(grammar::LoopControl::Unroll),
                       kDontUnroll = uint32_t(grammar::LoopControl::DontUnroll),
                       kDependencyLength = uint32_t(grammar::LoopControl::DependencyLength),
                       kMinIterations = uint32_t(grammar::LoopControl::MinIterations),
                       kMaxIterations = uint32_t(grammar::LoopControl::MaxIterations),
                       kIterationMultiple = uint32_t(grammar::LoopControl::IterationMultiple),
                       kPeelCount = uint32_t(grammar::LoopControl::PeelCount),
                       kPartialCount = uint32_t(grammar::LoopControl::PartialCount);
    const uint32_t mask = inst.word(3);
    auto fail = [&](const std::string &what) { s_.error(inst.index(), "3.23 Loop Control", what); };
    if ((mask & kUnroll) && (mask & kDontUnroll))
      fail("Unroll and DontUnroll cannot both be given");
    for (auto [bit, name] : {std::pair{kPeelCount, "PeelCount"}, {kPartialCount, "PartialCount"}})
      if ((mask & kDontUnroll) && (mask & bit))
        fail(std::string(name) + " cannot go with DontUnroll");
    if (mask & kIterationMultiple) {
      const uint32_t at =
          4 + std::popcount(mask & (kDependencyLength | kMinIterations | kMaxIterations));
      if (at < inst.wordCount() && inst.word(at) == 0)
        fail("IterationMultiple must be greater than 0");
    }
  }

  void checkPhis(uint32_t b) {
    const BlockInfo &blk = cfg_.blocks()[b];
    bool leading = true;
    auto preds = cfg_.predecessors(b);
    for (uint32_t i = blk.label + 1; i < blk.end; ++i) {
      Instruction inst = m_.inst(i);
      const Op op = inst.opcode();
      if (skippable(op))
        continue;
      if (op != Op::Phi) {
        leading = false;
        continue;
      }
      if (!leading) {
        s_.error(i, "3.32.17 OpPhi",
                 "the OpPhi " + s_.name(inst.resultId()) +
                     " follows other instructions of its block; OpPhi must come first in a block "
                     "(only OpLine and OpNoLine may be mixed in)");
        continue;
      }
      if (inst.isRaw() || inst.wordCount() < 3)
        continue;
      const uint32_t type = inst.word(1);
      if (s_.isVoidType(type)) {
        s_.error(i, "3.32.17 OpPhi", "the result type of OpPhi must not be OpTypeVoid");
        continue;
      }
      // 2.16.1: image, sampler and sampled image objects are not operands of OpPhi (spirv-val
      // holds images and samplers to it under Shader only; SPV_NV_bindless_texture lifts it).
      if (const Op typeOp = s_.defOpcode(type);
          !s_.hasCapability(grammar::Capability::BindlessTextureNV) &&
          (typeOp == Op::TypeSampledImage ||
           (s_.hasCapability(grammar::Capability::Shader) &&
            (typeOp == Op::TypeImage || typeOp == Op::TypeSampler)))) {
        s_.error(i, "2.16.1",
                 "an image, sampler or sampled image cannot be the result of OpPhi: " +
                     s_.name(inst.resultId()) + " has type " + s_.name(type));
        continue;
      }
      const uint32_t operands = inst.wordCount() - 3;
      if (operands % 2 != 0) {
        s_.error(i, "3.32.17 OpPhi",
                 "the OpPhi " + s_.name(inst.resultId()) +
                     " has an odd number of operands; they come in (value, parent block) pairs");
        continue;
      }
      if (operands / 2 != preds.size()) {
        s_.error(i, "3.32.17 OpPhi",
                 "the OpPhi " + s_.name(inst.resultId()) + " has " + std::to_string(operands / 2) +
                     " incoming pair(s), but its block " + blockName(b) + " has " +
                     std::to_string(preds.size()) +
                     " predecessor(s); it needs exactly one pair per predecessor");
        continue;
      }
      std::vector<uint32_t> parents;
      for (uint32_t w = 3; w + 1 < inst.wordCount(); w += 2) {
        const uint32_t value = inst.word(w), parent = inst.word(w + 1);
        if (std::find(parents.begin(), parents.end(), parent) != parents.end()) {
          s_.error(i, "3.32.17 OpPhi",
                   "the OpPhi " + s_.name(inst.resultId()) + " lists the parent block " +
                       s_.name(parent) + " more than once; each predecessor appears once");
          break;
        }
        parents.push_back(parent);
        const uint32_t vt = s_.typeOf(value);
        if (vt != 0 && vt != type)
          s_.error(i, "3.32.17 OpPhi",
                   "the incoming value " + s_.name(value) + " has type " + s_.name(vt) +
                       ", but OpPhi " + s_.name(inst.resultId()) + " has type " + s_.name(type));
        const uint32_t pb = cfg_.blockOfLabel(parent);
        if (pb == kNoIndex) {
          s_.error(i, "3.32.17 OpPhi",
                   "the parent " + s_.name(parent) + " of OpPhi " + s_.name(inst.resultId()) +
                       " is not a block (OpLabel) of this function");
        } else if (std::find(preds.begin(), preds.end(), pb) == preds.end()) {
          s_.error(i, "3.32.17 OpPhi",
                   "the parent " + s_.name(parent) + " of OpPhi " + s_.name(inst.resultId()) +
                       " is not a predecessor of its block " + blockName(b));
        } else if (cfg_.reachable(pb)) {
          // A value computed in this function must be available at the end of the parent.
          const uint32_t def = blockOfInstruction(m_.defIndex(value));
          if (def != kNoIndex && !dom_.dominates(def, pb))
            s_.error(i, "3.32.17 OpPhi",
                     "the value " + s_.name(value) + " of OpPhi " + s_.name(inst.resultId()) +
                         " is defined in block " + blockName(def) +
                         ", which does not dominate its parent " + blockName(pb));
        }
      }
    }
  }

  /// The block of this function that holds instruction `index`, or kNoIndex.
  uint32_t blockOfInstruction(uint32_t index) const {
    if (index == kNoIndex || index < info_.begin || index >= info_.end)
      return kNoIndex;
    auto blocks = cfg_.blocks();
    auto it = std::upper_bound(blocks.begin(), blocks.end(), index,
                               [](uint32_t i, const BlockInfo &b) { return i < b.label; });
    if (it == blocks.begin())
      return kNoIndex; // a parameter, before the first block
    --it;
    return index < it->end ? static_cast<uint32_t>(it - blocks.begin()) : kNoIndex;
  }

  void checkEntryBlock() {
    if (cfg_.size() == 0)
      return;
    auto preds = cfg_.predecessors(0);
    if (!preds.empty())
      s_.error(cfg_.terminator(preds[0]), "2.16.1",
               "the first block " + blockName(0) + " of " + s_.name(fnId_) +
                   " is a branch target; the entry block of a function must not be targeted");
  }

  // 2.16.1: blocks come before the blocks they dominate.
  void checkBlockOrder() {
    for (uint32_t b = 0; b < cfg_.size(); ++b) {
      const uint32_t d = dom_.idom(b);
      if (d != kNoIndex && d > b) {
        s_.error(cfg_.blocks()[b].label, "2.16.1",
                 "block " + blockName(b) + " comes before its dominator " + blockName(d) +
                     "; blocks must appear after the blocks that dominate them");
        return;
      }
    }
  }

  // 2.17, Table 3: the control-flow nesting depth is at most 1023 (spirv-val: "Maximum Control
  // Flow nesting depth exceeded"). A block's depth counts the selection and loop constructs of
  // other headers that contain it: structurally dominated by the header and not by its merge
  // block (nor, for a loop, by its continue target).
  void checkNestingDepth() {
    constexpr uint32_t kMaxDepth = 1023;
    uint32_t headers = 0;
    for (uint32_t b = 0; b < cfg_.size(); ++b)
      headers += cfg_.mergeBlock(b) != kNoIndex;
    if (headers <= kMaxDepth)
      return;
    const StructuralDominators &sdom = structural();
    for (uint32_t b = 0; b < cfg_.size(); ++b) {
      uint32_t depth = 0;
      for (uint32_t a = sdom.reachable(b) ? sdom.idom(b) : kNoIndex; a != kNoIndex;
           a = sdom.idom(a)) {
        const uint32_t merge = cfg_.mergeBlock(a), cont = cfg_.continueBlock(a);
        depth += merge != kNoIndex && !sdom.dominates(merge, b) &&
                 (cont == kNoIndex || !sdom.dominates(cont, b));
      }
      if (depth > kMaxDepth) {
        s_.error(cfg_.blocks()[b].label, "2.17",
                 "block " + blockName(b) + " is nested in " + std::to_string(depth) +
                     " constructs; the control-flow nesting depth is at most " +
                     std::to_string(kMaxDepth));
        return;
      }
    }
  }

  void checkMergeBlocksUnique() {
    std::vector<uint32_t> headerOf(cfg_.size(), kNoIndex);
    for (uint32_t b = 0; b < cfg_.size(); ++b) {
      const uint32_t merge = cfg_.mergeBlock(b);
      if (merge == kNoIndex)
        continue;
      if (headerOf[merge] != kNoIndex) {
        s_.error(cfg_.mergeInst(b), "2.11",
                 "block " + blockName(merge) + " is the merge block of both " +
                     blockName(headerOf[merge]) + " and " + blockName(b) +
                     "; a block can be the merge block of only one header");
        continue;
      }
      headerOf[merge] = b;
    }
  }

  // A header dominates its merge block and (for loops) its continue target, when they are
  // reachable.
  void checkHeaderDominance() {
    for (uint32_t b = 0; b < cfg_.size() && !s_.stopped(); ++b) {
      if (!cfg_.reachable(b))
        continue;
      const uint32_t merge = cfg_.mergeBlock(b), cont = cfg_.continueBlock(b);
      if (merge != kNoIndex && merge != b && cfg_.reachable(merge) && !dom_.dominates(b, merge))
        s_.error(cfg_.mergeInst(b), "2.11",
                 "the header " + blockName(b) + " does not dominate its merge block " +
                     blockName(merge));
      if (cont != kNoIndex && cfg_.reachable(cont) && !dom_.dominates(b, cont))
        s_.error(cfg_.mergeInst(b), "2.11",
                 "the loop header " + blockName(b) + " does not dominate its continue target " +
                     blockName(cont));
    }
  }

  // A construct (the blocks a header dominates, less those its merge block dominates) is entered
  // only through its header; a loop's continue target only from within the loop.
  void checkConstructEntries() {
    const uint32_t n = cfg_.size();
    const StructuralDominators &sdom = structural();
    std::vector<uint8_t> in(n, 0);
    std::vector<uint32_t> blocks, stack;
    for (uint32_t h = 0; h < n && !s_.stopped(); ++h) {
      const uint32_t merge = cfg_.mergeBlock(h);
      if (merge == kNoIndex || merge == h || !cfg_.reachable(h))
        continue;
      // The construct's blocks: what the header dominates and its merge block does not, all
      // reached from the header through such blocks.
      blocks.clear();
      stack.assign(1, h);
      while (!stack.empty()) {
        const uint32_t b = stack.back();
        stack.pop_back();
        if (in[b] || !sdom.dominates(h, b) || sdom.dominates(merge, b))
          continue;
        in[b] = 1;
        blocks.push_back(b);
        for (uint32_t t : sdom.successors(b))
          stack.push_back(t);
      }
      const bool loop = cfg_.continueBlock(h) != kNoIndex;
      bool reported = false;
      for (uint32_t b : blocks) {
        if (b == h || reported)
          continue;
        for (uint32_t p : cfg_.predecessors(b)) {
          if (!cfg_.reachable(p) || in[p])
            continue;
          s_.error(cfg_.terminator(p), "2.11",
                   "block " + blockName(p) + " branches into the " + (loop ? "loop" : "selection") +
                       " construct headed by " + blockName(h) + " at " + blockName(b) +
                       "; a construct may only be entered through its header");
          reported = true;
          break;
        }
      }
      const uint32_t cont = cfg_.continueBlock(h);
      if (cont != kNoIndex && cont != h && !reported) {
        for (uint32_t p : cfg_.predecessors(cont)) {
          if (in[p]) // unreachable blocks are outside every construct
            continue;
          s_.error(cfg_.terminator(p), "2.11",
                   "block " + blockName(p) + " branches to the continue target " + blockName(cont) +
                       " of the loop headed by " + blockName(h) +
                       ", but is not inside that loop; only blocks of the loop may continue it");
          break;
        }
      }
      for (uint32_t b : blocks)
        in[b] = 0;
    }
  }

  Op terminatorOp(uint32_t b) const {
    const uint32_t t = cfg_.terminator(b);
    return t == kNoIndex ? kNoOp : m_.inst(t).opcode();
  }
  Op mergeOp(uint32_t b) const {
    const uint32_t mi = cfg_.mergeInst(b);
    return mi == kNoIndex ? kNoOp : m_.inst(mi).opcode();
  }

  // The branches that leave a selection, loop or continue construct must be structured exits:
  // a selection may branch to its merge block, to the merge block or continue target of the
  // innermost loop around it, or to the merge block of the innermost switch around it; a loop to
  // its merge block or continue target; a continue construct back to its loop header or to the
  // loop's merge block.
  void checkConstructExits() {
    const uint32_t n = cfg_.size();
    const StructuralDominators &sdom = structural();
    std::vector<uint32_t> mergeHeader(n, kNoIndex);
    for (uint32_t h = 0; h < n; ++h) {
      const uint32_t merge = cfg_.mergeBlock(h);
      if (merge != kNoIndex && merge != h && mergeHeader[merge] == kNoIndex)
        mergeHeader[merge] = h;
    }
    // Going outwards: the header whose merge block this is, else the immediate dominator.
    auto next = [&](uint32_t b) -> uint32_t {
      const uint32_t h = mergeHeader[b];
      if (h != kNoIndex && sdom.dominates(h, b))
        return h;
      return sdom.idom(b);
    };
    auto selectionExit = [&](uint32_t header, uint32_t dest) {
      if (dest == cfg_.mergeBlock(header))
        return true;
      const bool headerIsSwitch = terminatorOp(header) == Op::Switch;
      bool seenSwitch = false;
      uint32_t steps = 0;
      for (uint32_t b = next(header); b != kNoIndex && steps <= n; b = next(b), ++steps) {
        const bool loop = mergeOp(b) == Op::LoopMerge;
        const bool outerSwitch =
            !headerIsSwitch && mergeOp(b) == Op::SelectionMerge && terminatorOp(b) == Op::Switch;
        if (!loop && !outerSwitch)
          continue;
        const uint32_t merge = cfg_.mergeBlock(b);
        if (merge != kNoIndex && sdom.dominates(merge, header))
          continue; // a construct that ends before this one
        if ((!seenSwitch || loop) && dest == merge)
          return true;
        if (loop && dest == cfg_.continueBlock(b))
          return true;
        if (terminatorOp(b) == Op::Switch)
          seenSwitch = true;
        if (loop)
          return false;
      }
      return false;
    };

    enum class Kind { Selection, Loop, Continue };
    std::vector<uint8_t> in(n, 0);
    std::vector<uint32_t> blocks, stack;
    auto check = [&](Kind kind, uint32_t header, uint32_t start, uint32_t merge, uint32_t cont) {
      auto include = [&](uint32_t b) {
        if (!sdom.dominates(start, b) || sdom.dominates(merge, b))
          return false;
        return kind != Kind::Loop || !sdom.dominates(cont, b);
      };
      blocks.clear();
      stack.assign(1, start);
      while (!stack.empty()) {
        const uint32_t b = stack.back();
        stack.pop_back();
        if (in[b] || !include(b))
          continue;
        in[b] = 1;
        blocks.push_back(b);
        for (uint32_t t : sdom.successors(b))
          stack.push_back(t);
      }
      const char *what = kind == Kind::Selection ? "selection"
                         : kind == Kind::Loop    ? "loop"
                                                 : "continue";
      bool reported = false;
      // A header inside the construct has its merge block inside it too.
      for (uint32_t b : blocks) {
        const uint32_t inner = cfg_.mergeBlock(b);
        if (b == start || inner == kNoIndex || inner == b || !sdom.reachable(inner) || in[inner])
          continue;
        s_.error(cfg_.mergeInst(b), "2.11",
                 "the header " + blockName(b) + " is inside the " + what + " construct headed by " +
                     blockName(start) + ", but its merge block " + blockName(inner) +
                     " is not; nested constructs must end inside the construct around them");
        reported = true;
        break;
      }
      for (uint32_t b : blocks) {
        for (uint32_t t : cfg_.successors(b)) {
          if (reported || in[t])
            continue;
          bool ok = false;
          switch (kind) {
          case Kind::Selection:
            ok = selectionExit(header, t);
            break;
          case Kind::Loop:
            ok = t == merge || t == cont;
            break;
          case Kind::Continue:
            ok = t == header || t == merge;
            break;
          }
          if (ok)
            continue;
          s_.error(cfg_.terminator(b), "2.11",
                   "block " + blockName(b) + " leaves the " + what + " construct headed by " +
                       blockName(start) + " for " + blockName(t) +
                       ", which is not a structured exit (the construct's merge block, or the "
                       "merge block or continue target of an enclosing loop, or the merge block "
                       "of an enclosing switch)");
          reported = true;
        }
      }
      for (uint32_t b : blocks)
        in[b] = 0;
    };
    for (uint32_t h = 0; h < n && !s_.stopped(); ++h) {
      const uint32_t merge = cfg_.mergeBlock(h);
      if (merge == kNoIndex || merge == h || !sdom.reachable(h))
        continue;
      const uint32_t cont = cfg_.continueBlock(h);
      if (mergeOp(h) == Op::SelectionMerge) {
        check(Kind::Selection, h, h, merge, kNoIndex);
      } else if (cont != kNoIndex) {
        if (cont != h)
          check(Kind::Loop, h, h, merge, cont);
        if (sdom.reachable(cont))
          check(Kind::Continue, h, cont, merge, cont);
      }
    }
  }

  // Case constructs of a structured OpSwitch: each is dominated by the switch header, falls
  // through to at most one other case, only to the case listed right after it, and no case is
  // the fall-through target of two others.
  void checkSwitches() {
    const uint32_t n = cfg_.size();
    const StructuralDominators *sdom = nullptr;
    for (uint32_t h = 0; h < n && !s_.stopped(); ++h) {
      const uint32_t t = cfg_.terminator(h);
      if (t == kNoIndex || mergeOp(h) != Op::SelectionMerge || cfg_.mergeBlock(h) == kNoIndex)
        continue;
      Instruction sw = m_.inst(t);
      if (sw.opcode() != Op::Switch || sw.isRaw() || sw.wordCount() < 3)
        continue;
      if (!sdom)
        sdom = &structural();
      if (!sdom->reachable(h))
        continue;
      const uint32_t merge = cfg_.mergeBlock(h);
      // Targets in operand order (the default first), as block indices.
      const uint32_t width = s_.bitWidth(s_.typeOf(sw.word(1))) > 32 ? 2 : 1;
      std::vector<uint32_t> targets = {cfg_.blockOfLabel(sw.word(2))};
      for (uint32_t w = 3 + width; w < sw.wordCount(); w += width + 1)
        targets.push_back(cfg_.blockOfLabel(sw.word(w)));
      if (std::find(targets.begin(), targets.end(), kNoIndex) != targets.end())
        continue; // reported as a dangling target
      std::vector<uint32_t> caseTargets;
      for (uint32_t b : targets)
        if (b != merge && std::find(caseTargets.begin(), caseTargets.end(), b) == caseTargets.end())
          caseTargets.push_back(b);
      const bool defaultRepeated =
          std::find(targets.begin() + 1, targets.end(), targets[0]) != targets.end();
      std::vector<std::pair<uint32_t, uint32_t>> fallInto; // (case, how many fall into it)
      std::vector<std::pair<uint32_t, uint32_t>> fallOf;   // (case target, its fall-through)
      uint32_t defaultFall = kNoIndex;
      bool failed = false;
      for (size_t i = 0; i < targets.size() && !failed; ++i) {
        const uint32_t target = targets[i];
        if (target == merge)
          continue;
        uint32_t fall = kNoIndex;
        auto seen = std::find_if(fallOf.begin(), fallOf.end(),
                                 [&](const auto &p) { return p.first == target; });
        if (seen != fallOf.end()) {
          fall = seen->second;
        } else {
          if (sdom->reachable(target) && !sdom->dominates(h, target)) {
            s_.error(t, "2.11",
                     "the switch header " + blockName(h) + " does not dominate its case " +
                         blockName(target) + "; every case construct must be entered from it");
            return;
          }
          if (!caseFallThrough(*sdom, target, merge, caseTargets, fall)) {
            failed = true;
            break;
          }
          auto into = std::find_if(fallInto.begin(), fallInto.end(),
                                   [&](const auto &p) { return p.first == fall; });
          if (fall != kNoIndex && into == fallInto.end())
            fallInto.emplace_back(fall, 1);
          else if (fall != kNoIndex && ++into->second == 2) {
            s_.error(t, "2.11",
                     "more than one case construct of the switch in " + blockName(h) +
                         " falls through to the case " + blockName(fall) +
                         "; at most one case may branch into another");
            failed = true;
            break;
          }
          fallOf.emplace_back(target, fall);
        }
        if (fall == targets[0] && !defaultRepeated)
          fall = defaultFall;
        if (fall == kNoIndex)
          continue;
        if (i == 0) {
          defaultFall = fall;
          continue;
        }
        // Cases with the same target listed together count as one.
        size_t j = i;
        while (j + 1 < targets.size() && targets[j + 1] == target)
          ++j;
        if (j + 1 >= targets.size() || targets[j + 1] != fall) {
          s_.error(t, "2.11",
                   "the case " + blockName(target) + " falls through to the case " +
                       blockName(fall) +
                       ", so it must come right before that case in the OpSwitch's target list");
          failed = true;
        }
      }
    }
  }

  // Follows the case construct of `target` (the blocks it dominates, up to the merge block) and
  // finds the other case it branches to, if any. Reports a case that branches to two others.
  bool caseFallThrough(const StructuralDominators &sdom, uint32_t target, uint32_t merge,
                       const std::vector<uint32_t> &caseTargets, uint32_t &fall) {
    std::vector<uint32_t> stack = {target};
    std::vector<uint32_t> visited;
    mark_.resize(cfg_.size(), 0);
    struct Unmark { // leaves mark_ all zero however this returns
      std::vector<uint8_t> &mark;
      std::vector<uint32_t> &visited;
      ~Unmark() {
        for (uint32_t b : visited)
          mark[b] = 0;
      }
    } unmark{mark_, visited};
    const bool targetReachable = sdom.reachable(target);
    while (!stack.empty()) {
      const uint32_t b = stack.back();
      stack.pop_back();
      if (b == merge || mark_[b])
        continue;
      mark_[b] = 1;
      visited.push_back(b);
      if (targetReachable && sdom.reachable(b) && sdom.dominates(target, b)) {
        for (uint32_t succ : cfg_.successors(b))
          stack.push_back(succ);
        continue;
      }
      if (std::find(caseTargets.begin(), caseTargets.end(), b) == caseTargets.end())
        continue; // leaving the switch (a break or continue of a loop): the exit rules judge it
      if (fall == kNoIndex) {
        if (b != target)
          fall = b;
      } else if (fall != b) {
        s_.error(cfg_.blocks()[target].label, "2.11",
                 "the case construct of " + blockName(target) + " branches to two other cases, " +
                     blockName(fall) + " and " + blockName(b) + "; a case may fall through to one");
        return false;
      }
    }
    return true;
  }

  // A conditional branch or switch without a selection merge must branch to a block already
  // named (as a merge or continue target, or a target of an earlier branch) in layout order.
  void checkStructuredSelections() {
    std::unordered_set<uint32_t> seen;
    for (uint32_t b = 0; b < cfg_.size() && !s_.stopped(); ++b) {
      const uint32_t mi = cfg_.mergeInst(b);
      Op mergeOp = kNoOp;
      if (mi != kNoIndex) {
        Instruction merge = m_.inst(mi);
        mergeOp = merge.opcode();
        if (!merge.isRaw() && merge.wordCount() >= 2) {
          seen.insert(merge.word(1));
          if (mergeOp == Op::LoopMerge && merge.wordCount() >= 3)
            seen.insert(merge.word(2));
        }
      }
      const uint32_t t = cfg_.terminator(b);
      if (t == kNoIndex)
        continue;
      Instruction term = m_.inst(t);
      if (term.isRaw())
        continue;
      if (term.opcode() == Op::BranchConditional && term.wordCount() >= 4) {
        const bool trueNew = seen.insert(term.word(2)).second;
        const bool falseNew = seen.insert(term.word(3)).second;
        if (mergeOp == kNoOp && trueNew && falseNew && term.word(2) != term.word(3))
          s_.error(t, "2.11",
                   "the conditional branch at the end of " + blockName(b) +
                       " is not structured: it needs an OpSelectionMerge, or one of its targets "
                       "must be a merge or continue target already declared");
      } else if (term.opcode() == Op::Switch) {
        if (mergeOp != Op::SelectionMerge)
          s_.error(t, "2.11",
                   "the OpSwitch at the end of " + blockName(b) +
                       " must be preceded by an OpSelectionMerge");
        for (uint32_t succ : cfg_.successors(b))
          seen.insert(cfg_.labelId(succ));
      } else if (term.opcode() == Op::Branch && term.wordCount() >= 2) {
        seen.insert(term.word(1));
      }
    }
  }

  // Back edges, found by a depth-first search of the structural graph (the branches plus an edge
  // from each header to its merge block and continue target, so that a continue construct that
  // cannot be reached still counts): each targets a loop header, and each loop header is the
  // target of exactly one.
  void checkBackEdges() {
    const uint32_t n = cfg_.size();
    if (n == 0)
      return;
    auto structural = [&](uint32_t b) {
      std::vector<uint32_t> out(cfg_.successors(b).begin(), cfg_.successors(b).end());
      for (uint32_t extra : {cfg_.mergeBlock(b), cfg_.continueBlock(b)})
        if (extra != kNoIndex && std::find(out.begin(), out.end(), extra) == out.end())
          out.push_back(extra);
      return out;
    };
    std::vector<uint8_t> state(n, 0); // 0 new, 1 on the stack, 2 done
    std::vector<uint32_t> backEdges(n, 0), backEdgeFrom(n, kNoIndex);
    std::vector<std::pair<uint32_t, uint32_t>> badEdges;
    struct Frame {
      uint32_t block;
      std::vector<uint32_t> succ;
      size_t next;
    };
    std::vector<Frame> stack;
    stack.push_back({0, structural(0), 0});
    state[0] = 1;
    while (!stack.empty()) {
      Frame &top = stack.back();
      if (top.next == top.succ.size()) {
        state[top.block] = 2;
        stack.pop_back();
        continue;
      }
      const uint32_t from = top.block, to = top.succ[top.next++];
      if (state[to] == 1) {
        auto real = cfg_.successors(from);
        if (std::find(real.begin(), real.end(), to) == real.end())
          continue; // a structural edge only
        if (cfg_.continueBlock(to) == kNoIndex)
          badEdges.emplace_back(from, to);
        else if (++backEdges[to] == 1)
          backEdgeFrom[to] = from;
      } else if (state[to] == 0) {
        state[to] = 1;
        stack.push_back({to, structural(to), 0});
      }
    }
    for (auto [from, to] : badEdges) {
      s_.error(cfg_.terminator(from), "2.11",
               "the branch from " + blockName(from) + " back to " + blockName(to) +
                   " is a back edge, but " + blockName(to) +
                   " is not a loop header (it has no OpLoopMerge)");
      return;
    }
    // The continue target dominates the back-edge block (both reachable).
    for (uint32_t b = 0; b < n && !s_.stopped(); ++b) {
      if (!cfg_.reachable(b))
        continue;
      for (uint32_t h : cfg_.successors(b)) {
        const uint32_t cont = cfg_.continueBlock(h);
        if (cont == kNoIndex || !cfg_.reachable(cont) || !dom_.dominates(h, b))
          continue;
        if (!dom_.dominates(cont, b))
          s_.error(cfg_.terminator(b), "2.11",
                   "the back edge from " + blockName(b) + " to the loop header " + blockName(h) +
                       " does not come from the continue construct: the continue target " +
                       blockName(cont) + " must dominate the back-edge block");
      }
    }
    // The back-edge block post-dominates the continue target (where both reach an exit).
    std::optional<StructuralPostDominators> pdom;
    for (uint32_t h = 0; h < n && !s_.stopped(); ++h) {
      const uint32_t cont = cfg_.continueBlock(h);
      if (cont == kNoIndex || backEdges[h] != 1 || backEdgeFrom[h] == kNoIndex)
        continue;
      if (!pdom)
        pdom.emplace(this->structural().graph());
      const uint32_t from = backEdgeFrom[h];
      if (pdom->postDominates(from, from) && pdom->postDominates(cont, cont) &&
          !pdom->postDominates(from, cont))
        s_.error(cfg_.terminator(from), "2.11",
                 "the back-edge block " + blockName(from) + " of the loop headed by " +
                     blockName(h) + " does not post-dominate its continue target " +
                     blockName(cont) +
                     "; every path through the continue construct must end at the back edge");
    }
    for (uint32_t h = 0; h < n && !s_.stopped(); ++h) {
      if (cfg_.continueBlock(h) == kNoIndex || !cfg_.reachable(h) || backEdges[h] == 1)
        continue;
      s_.error(cfg_.mergeInst(h), "2.11",
               "the loop header " + blockName(h) + " is the target of " +
                   std::to_string(backEdges[h]) + " back edges; a loop has exactly one");
    }
  }

  /// The function's structural dominators, made when a check first needs them and shared by
  /// the checks after it (nesting depth, construct entries and exits, switches).
  const StructuralDominators &structural() {
    if (!structural_)
      structural_.emplace(cfg_);
    return *structural_;
  }

  State &s_;
  const Module &m_;
  const FunctionInfo &info_;
  const Cfg &cfg_;
  const DominatorTree &dom_;
  std::optional<StructuralDominators> structural_;
  uint32_t fnId_;
  std::vector<uint8_t> mark_; // scratch for caseFallThrough, all zero between calls
};

} // namespace

void checkControlFlow(State &s) {
  const Module &m = s.module();
  const auto fns = m.functions();
  for (uint32_t f = 0; f < fns.size(); ++f) {
    if (s.stopped())
      return;
    if (fns[f].numBlocks == 0)
      continue;
    FunctionChecker(s, f).run();
  }
}

} // namespace spire::val
