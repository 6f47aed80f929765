#include "unit/analysis/StructuredSpirvText.h"

#include <algorithm>
#include <set>

namespace spire::analysis::test {

std::string structuredSpirvText(const Cfg &input, const StructuredCfg &cfg) {
  std::string body;
  std::set<uint64_t> constants = {0};
  auto label = [](uint32_t v) { return "%b" + std::to_string(v); };
  auto constant = [&](uint64_t value) {
    constants.insert(value);
    return "%c" + std::to_string(value);
  };
  uint32_t temp = 0;
  auto fresh = [&] { return "%t" + std::to_string(temp++); };
  for (uint32_t v : cfg.layout) {
    body += label(v) + " = OpLabel\n";
    if (v == cfg.layout.front())
      body += "%sel = OpVariable %ptr_fn_uint Function\n";
    auto succ = cfg.graph.successors(v);
    const MergeInfo &m = cfg.merges[v];
    std::string mergeLine;
    if (m.kind == MergeInfo::Kind::Selection)
      mergeLine = "OpSelectionMerge " + label(m.mergeBlock) + " None\n";
    else if (m.kind == MergeInfo::Kind::Loop)
      mergeLine = "OpLoopMerge " + label(m.mergeBlock) + " " + label(m.continueTarget) + " None\n";
    std::string value;
    switch (cfg.kinds[v]) {
    case StructuredCfg::Kind::Original: {
      const uint32_t origin = cfg.origin[v];
      const Terminator t = input.terminators[origin];
      if (t == Terminator::ConditionalBranch || t == Terminator::Switch) {
        const std::string ptr = fresh();
        value = fresh();
        body += ptr + " = OpAccessChain %ptr_sb_uint %buf " + constant(0) + " " + constant(origin) +
                "\n";
        body += value + " = OpLoad %uint " + ptr + "\n";
      }
      if (t == Terminator::Return) {
        body += "OpReturn\n";
      } else if (t == Terminator::Unreachable) {
        body += "OpUnreachable\n";
      } else if (t == Terminator::Branch) {
        body += mergeLine + "OpBranch " + label(succ[0]) + "\n";
      } else if (t == Terminator::ConditionalBranch) {
        const std::string cond = fresh();
        body += cond + " = OpINotEqual %bool " + value + " " + constant(0) + "\n";
        body += mergeLine + "OpBranchConditional " + cond + " " + label(succ[0]) + " " +
                label(succ[1]) + "\n";
      } else {
        body += mergeLine + "OpSwitch " + value + " " + label(succ[0]);
        for (const SwitchCase &c : input.casesOf(origin))
          body += " " + std::to_string(c.value) + " " + label(succ[c.successor]);
        body += "\n";
      }
      break;
    }
    case StructuredCfg::Kind::SetSelector:
      body += "OpStore %sel " + constant(cfg.values[v]) + "\n";
      body += mergeLine + "OpBranch " + label(succ[0]) + "\n";
      break;
    case StructuredCfg::Kind::Ladder: {
      const std::string load = fresh(), cond = fresh();
      body += load + " = OpLoad %uint %sel\n";
      body += cond + " = OpIEqual %bool " + load + " " + constant(cfg.values[v]) + "\n";
      body += mergeLine + "OpBranchConditional " + cond + " " + label(succ[0]) + " " +
              label(succ[1]) + "\n";
      break;
    }
    case StructuredCfg::Kind::Unreachable:
      body += "OpUnreachable\n";
      break;
    default:
      body += mergeLine + "OpBranch " + label(succ[0]) + "\n";
      break;
    }
  }
  std::string text = "OpCapability Shader\n"
                     "OpMemoryModel Logical GLSL450\n"
                     "OpEntryPoint GLCompute %main \"main\" %buf\n"
                     "OpExecutionMode %main LocalSize 1 1 1\n"
                     "OpDecorate %arr ArrayStride 4\n"
                     "OpMemberDecorate %Buf 0 Offset 0\n"
                     "OpDecorate %Buf Block\n"
                     "OpDecorate %buf DescriptorSet 0\n"
                     "OpDecorate %buf Binding 0\n"
                     "%void = OpTypeVoid\n"
                     "%fn = OpTypeFunction %void\n"
                     "%bool = OpTypeBool\n"
                     "%uint = OpTypeInt 32 0\n"
                     "%arr = OpTypeRuntimeArray %uint\n"
                     "%Buf = OpTypeStruct %arr\n"
                     "%ptr_sb_Buf = OpTypePointer StorageBuffer %Buf\n"
                     "%ptr_sb_uint = OpTypePointer StorageBuffer %uint\n"
                     "%ptr_fn_uint = OpTypePointer Function %uint\n"
                     "%buf = OpVariable %ptr_sb_Buf StorageBuffer\n";
  for (uint64_t c : constants)
    text += "%c" + std::to_string(c) + " = OpConstant %uint " + std::to_string(c) + "\n";
  text += "%main = OpFunction %void None %fn\n" + body + "OpFunctionEnd\n";
  return text;
}

} // namespace spire::analysis::test
