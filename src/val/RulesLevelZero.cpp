// Rules: the oneAPI Level Zero environment (../shared/docs/notes/levelzero.md, requirements
// LZ-A ... LZ-K). The device's properties come from Options::device; where the guide leaves a
// gap, the relaxed default follows what real OpenCL C compilers emit and Options::strict takes
// the guide literally (the note's policy section N).
#include "OpenCLRules.h"
#include "Rules.h"

#include <algorithm>

namespace spire::val {

namespace {

using grammar::Capability;

// Enumerant values used below.
namespace sc { // StorageClass
constexpr uint32_t UniformConstant = uint32_t(grammar::StorageClass::UniformConstant),
                   Workgroup = uint32_t(grammar::StorageClass::Workgroup),
                   CrossWorkgroup = uint32_t(grammar::StorageClass::CrossWorkgroup),
                   Function = uint32_t(grammar::StorageClass::Function),
                   Generic = uint32_t(grammar::StorageClass::Generic);
} // namespace sc
constexpr uint32_t kExecutionModelKernel = uint32_t(grammar::ExecutionModel::Kernel);
constexpr uint32_t kScopeWorkgroup = uint32_t(grammar::Scope::Workgroup),
                   kScopeSubgroup = uint32_t(grammar::Scope::Subgroup),
                   kScopeInvocation = uint32_t(grammar::Scope::Invocation);
constexpr uint32_t kDim1D = uint32_t(grammar::Dim::Dim1D), kDim2D = uint32_t(grammar::Dim::Dim2D),
                   kDim3D = uint32_t(grammar::Dim::Dim3D),
                   kDimBuffer = uint32_t(grammar::Dim::Buffer);
constexpr uint32_t kImageOperandsConstOffset = uint32_t(grammar::ImageOperands::ConstOffset);
constexpr uint32_t kDecorationBuiltIn = uint32_t(grammar::Decoration::BuiltIn),
                   kDecorationFuncParamAttr = uint32_t(grammar::Decoration::FuncParamAttr),
                   kDecorationFPRoundingMode = uint32_t(grammar::Decoration::FPRoundingMode);
constexpr uint32_t kFuncParamAttrByVal = uint32_t(grammar::FunctionParameterAttribute::ByVal);
constexpr uint32_t kBuiltInSubgroupEqMask = uint32_t(grammar::BuiltIn::SubgroupEqMask),
                   kBuiltInSubgroupLtMask = uint32_t(grammar::BuiltIn::SubgroupLtMask);
constexpr uint32_t kGroupOperationClusteredReduce =
    uint32_t(grammar::GroupOperation::ClusteredReduce);

bool hasZeExtension(const State &s, std::string_view name) {
  const auto &list = s.options().device.extensions;
  return list.empty() || std::find(list.begin(), list.end(), name) != list.end();
}

uint32_t api(const State &s) { return s.options().device.apiVersion; }
constexpr uint32_t apiVersion(uint32_t major, uint32_t minor) { return (major << 16) | minor; }

bool floatAtomicsAvailable(const State &s) {
  return api(s) >= apiVersion(1, 1) && hasZeExtension(s, "ZE_extension_float_atomics");
}
bool subgroupsAvailable(const State &s) {
  return api(s) >= apiVersion(1, 2) && hasZeExtension(s, "ZE_extension_subgroups");
}
bool linkonceOdrAvailable(const State &s) {
  return api(s) >= apiVersion(1, 2) && hasZeExtension(s, "ZE_extension_linkonce_odr");
}
bool bfloat16Available(const State &s) {
  return api(s) >= apiVersion(1, 5) && hasZeExtension(s, "ZE_extension_bfloat16_conversions");
}

/// Reports an error, or in the relaxed profile a warning, for what the guide does not allow but
/// does not forbid either.
void policy(State &s, uint32_t index, std::string_view rule, std::string message) {
  if (s.options().strict)
    s.error(index, rule, std::move(message));
  else
    s.warning(index, rule, std::move(message) + " (an error with --strict)");
}

// --- LZ-A3, LZ-B1: version and extended instruction sets -----------------------------------

void checkVersion(State &s) {
  const uint32_t have = s.module().version(), max = s.options().device.spirvVersion;
  if (have > max)
    s.error(kNoIndex, "LZ-A3",
            "the module is SPIR-V " + std::to_string(have >> 16) + "." +
                std::to_string((have >> 8) & 0xFF) + ", newer than the device's " +
                std::to_string(max >> 16) + "." + std::to_string((max >> 8) & 0xFF) +
                " (spirvVersionSupported)");
}

void checkImport(State &s, const Instruction &inst) {
  if (inst.operands().size() < 2)
    return;
  const std::string name = inst.stringOperand(inst.operands()[1]);
  if (name == "OpenCL.std")
    return;
  // Debug information and non-semantic sets change nothing the device runs.
  if (name.starts_with("NonSemantic.") || name == "OpenCL.DebugInfo.100") {
    if (s.options().strict)
      s.error(inst.index(), "LZ-B1",
              "the strict profile accepts only the OpenCL.std extended instruction set, not \"" +
                  name + "\"");
    return;
  }
  policy(s, inst.index(), "LZ-B1",
         "Level Zero supports the OpenCL.std extended instruction set, not \"" + name + "\"");
}

// --- LZ-H, LZ-J: capabilities and extensions ---------------------------------------------------

enum class Gate : uint8_t {
  Always,
  Images,
  Fp16,
  Fp64,
  Int64Atomics,
  IntelSubgroups,
  F16Add,
  F32Add,
  F64Add,
  F16MinMax,
  F32MinMax,
  F64MinMax,
  Subgroups,
  Bfloat16
};

struct CapabilityRule {
  grammar::Capability capability;
  Gate gate;
};

// The guide's capability tables (section H of the note).
constexpr CapabilityRule kCapabilities[] = {
    {Capability::Addresses, Gate::Always},
    {Capability::Linkage, Gate::Always},
    {Capability::Kernel, Gate::Always},
    {Capability::Vector16, Gate::Always},
    {Capability::Float16Buffer, Gate::Always},
    {Capability::Float16, Gate::Fp16},
    {Capability::Float64, Gate::Fp64},
    {Capability::Int64, Gate::Always},
    {Capability::Int64Atomics, Gate::Int64Atomics},
    {Capability::ImageBasic, Gate::Images},
    {Capability::ImageReadWrite, Gate::Images},
    {Capability::Groups, Gate::Always},
    {Capability::LiteralSampler, Gate::Images},
    {Capability::Int16, Gate::Always},
    {Capability::GenericPointer, Gate::Always},
    {Capability::Int8, Gate::Always},
    {Capability::Sampled1D, Gate::Images},
    {Capability::Image1D, Gate::Images},
    {Capability::SampledBuffer, Gate::Images},
    {Capability::ImageBuffer, Gate::Images},
    {Capability::GroupNonUniform, Gate::Subgroups},
    {Capability::GroupNonUniformVote, Gate::Subgroups},
    {Capability::GroupNonUniformArithmetic, Gate::Subgroups},
    {Capability::GroupNonUniformBallot, Gate::Subgroups},
    {Capability::GroupNonUniformShuffle, Gate::Subgroups},
    {Capability::GroupNonUniformShuffleRelative, Gate::Subgroups},
    {Capability::GroupNonUniformClustered, Gate::Subgroups},
    {Capability::SubgroupShuffleINTEL, Gate::IntelSubgroups},
    {Capability::SubgroupBufferBlockIOINTEL, Gate::IntelSubgroups},
    {Capability::SubgroupImageBlockIOINTEL, Gate::IntelSubgroups},
    {Capability::AtomicFloat32MinMaxEXT, Gate::F32MinMax},
    {Capability::AtomicFloat64MinMaxEXT, Gate::F64MinMax},
    {Capability::AtomicFloat16MinMaxEXT, Gate::F16MinMax},
    {Capability::AtomicFloat32AddEXT, Gate::F32Add},
    {Capability::AtomicFloat64AddEXT, Gate::F64Add},
    {Capability::AtomicFloat16AddEXT, Gate::F16Add},
    {Capability::BFloat16ConversionINTEL, Gate::Bfloat16},
    {Capability::GlobalVariableHostAccessINTEL, Gate::Always}, // (LZ-J6)
};

// Why a gate is closed, or empty when it is open.
std::string closedGate(const State &s, Gate g) {
  const LevelZeroDevice &d = s.options().device;
  switch (g) {
  case Gate::Always:
  case Gate::IntelSubgroups: // core already requires OpExtension "SPV_INTEL_subgroups"
    return {};
  case Gate::Images:
    return d.images ? "" : "the device does not support images";
  case Gate::Fp16:
    return d.fp16 ? "" : "the device lacks ZE_DEVICE_MODULE_FLAG_FP16";
  case Gate::Fp64:
    return d.fp64 ? "" : "the device lacks ZE_DEVICE_MODULE_FLAG_FP64";
  case Gate::Int64Atomics:
    return d.int64Atomics ? "" : "the device lacks ZE_DEVICE_MODULE_FLAG_INT64_ATOMICS";
  case Gate::F16Add:
  case Gate::F32Add:
  case Gate::F64Add:
  case Gate::F16MinMax:
  case Gate::F32MinMax:
  case Gate::F64MinMax: {
    if (!floatAtomicsAvailable(s))
      return "the driver does not report ZE_extension_float_atomics (API 1.1 and later)";
    const bool flag = g == Gate::F16Add      ? d.fp16AtomicAdd
                      : g == Gate::F32Add    ? d.fp32AtomicAdd
                      : g == Gate::F64Add    ? d.fp64AtomicAdd
                      : g == Gate::F16MinMax ? d.fp16AtomicMinMax
                      : g == Gate::F32MinMax ? d.fp32AtomicMinMax
                                             : d.fp64AtomicMinMax;
    return flag ? "" : "the device's float atomic flags do not include it";
  }
  case Gate::Subgroups:
    return subgroupsAvailable(s) ? ""
                                 : "the driver does not report ZE_extension_subgroups (API 1.2 "
                                   "and later)";
  case Gate::Bfloat16:
    return bfloat16Available(s) ? ""
                                : "the driver does not report ZE_extension_bfloat16_conversions "
                                  "(API 1.5 and later)";
  }
  return {};
}

void checkCapabilities(State &s) {
  // Every capability in force, implied ones included (LZ-H2), reported at the OpCapability that
  // brings it in.
  std::vector<uint32_t> declared, at; // each OpCapability's value and instruction index
  for (Instruction inst : s.module())
    if (inst.opcode() == Op::Capability && inst.wordCount() >= 2 && !inst.isRaw()) {
      declared.push_back(inst.word(1));
      at.push_back(inst.index());
    }
  for (const grammar::CapabilityInForce &c : grammar::capabilityClosure(declared)) {
    const uint32_t capability = c.capability, index = at[c.declaredBy];
    auto rule =
        std::find_if(std::begin(kCapabilities), std::end(kCapabilities),
                     [&](const CapabilityRule &r) { return uint32_t(r.capability) == capability; });
    if (rule == std::end(kCapabilities)) {
      policy(s, index, "LZ-H3",
             "capability " + State::enumerantName(grammar::OperandKind::Capability, capability) +
                 " is not among those a Level Zero environment supports");
      continue;
    }
    if (std::string why = closedGate(s, rule->gate); !why.empty())
      s.error(index, "LZ-H1",
              "capability " + State::enumerantName(grammar::OperandKind::Capability, capability) +
                  " needs " + why);
  }
}

void checkExtension(State &s, const Instruction &inst) {
  if (inst.operands().empty())
    return;
  const std::string name = inst.stringOperand(inst.operands()[0]);
  std::string why;
  if (name == "SPV_INTEL_subgroups" || name == "SPV_INTEL_global_variable_host_access")
    return; // LZ-J1.1, LZ-J6: always
  if (name == "SPV_EXT_shader_atomic_float_add" || name == "SPV_EXT_shader_atomic_float16_add" ||
      name == "SPV_EXT_shader_atomic_float_min_max") {
    if (!floatAtomicsAvailable(s))
      s.error(inst.index(), "LZ-J2",
              name + " needs ZE_extension_float_atomics, which the driver does not report");
    return;
  }
  if (name == "SPV_KHR_linkonce_odr") {
    if (!linkonceOdrAvailable(s))
      s.error(inst.index(), "LZ-J4.1",
              name + " needs ZE_extension_linkonce_odr, which the driver does not report");
    return;
  }
  if (name == "SPV_INTEL_bfloat16_conversion") {
    if (!bfloat16Available(s))
      s.error(inst.index(), "LZ-J5.1",
              name + " needs ZE_extension_bfloat16_conversions, which the driver does not report");
    return;
  }
  policy(s, inst.index(), "LZ-J",
         "extension " + name + " is not among those the Level Zero guide names");
}

// --- LZ-D, LZ-E: types ---------------------------------------------------------------------------

void checkTypes(State &s, const Instruction &inst) {
  const uint32_t i = inst.index();
  switch (inst.opcode()) {
  case Op::TypeInt:
    if (inst.wordCount() < 4)
      return;
    if (uint32_t w = inst.word(2); w != 8 && w != 16 && w != 32 && w != 64)
      s.error(i, "LZ-D3", "integer width " + std::to_string(w) + " (Level Zero: 8, 16, 32, 64)");
    if (inst.word(3) != 0)
      s.error(i, "LZ-I3", "integer types must have Signedness 0 in Level Zero");
    return;
  case Op::TypeFloat:
    if (inst.wordCount() < 3)
      return;
    if (uint32_t w = inst.word(2); w != 16 && w != 32 && w != 64)
      s.error(i, "LZ-D4", "float width " + std::to_string(w) + " (Level Zero: 16, 32, 64)");
    return;
  case Op::TypeVector:
    if (inst.wordCount() < 4)
      return;
    if (uint32_t n = inst.word(3); n != 2 && n != 3 && n != 4 && n != 8 && n != 16)
      s.error(i, "LZ-D5",
              "vectors have 2, 3, 4, 8 or 16 components in Level Zero, not " + std::to_string(n));
    return;
  case Op::TypeOpaque:
    policy(s, i, "LZ-D8", "OpTypeOpaque is not a type the Level Zero guide lists");
    return;
  case Op::TypeImage: {
    if (inst.wordCount() < 6)
      return;
    const uint32_t dim = inst.word(3), depth = inst.word(4), arrayed = inst.word(5);
    const bool ok = (dim == kDim1D && depth == 0) || (dim == kDim2D && depth <= 1) ||
                    (dim == kDim3D && depth == 0 && arrayed == 0) ||
                    (dim == kDimBuffer && depth == 0 && arrayed == 0);
    if (!ok)
      s.error(i, "LZ-E1",
              "image Dim/Depth/Arrayed combination is not one of the eight Level Zero supports "
              "(1D, 1D array, 2D, 2D depth, 2D array, 2D depth array, 3D, buffer)");
    return;
  }
  default:
    return;
  }
}

// --- LZ-F: kernels --------------------------------------------------------------------------

// Whether a kernel argument may have `type`; `why` says what is wrong otherwise.
bool kernelArgumentType(State &s, uint32_t type, uint32_t param, std::string &why, int depth = 0) {
  auto d = s.def(type);
  if (!d || depth > 16)
    return true;
  const bool strict = s.options().strict;
  switch (d->opcode()) {
  case Op::TypeInt:
    return true; // widths and signedness: LZ-D3 / LZ-I3
  case Op::TypeFloat:
    if (d->wordCount() >= 3 && d->word(2) == 64 && (strict || !s.hasCapability(10))) {
      why = "64-bit float arguments are not in the guide's list (LZ-F6)";
      return false;
    }
    return true;
  case Op::TypeVector:
    if (s.isBoolType(s.componentType(type)) && strict) {
      why = "bool vectors are not in the guide's list (LZ-F9)";
      return false;
    }
    return true;
  case Op::TypeSampler:
  case Op::TypeImage:
    return true;
  case Op::TypeStruct:
    for (uint32_t w = 2; w < d->wordCount(); ++w) {
      auto member = s.def(d->word(w));
      if (!member)
        continue;
      const Op op = member->opcode();
      if (op == Op::TypeArray && !strict)
        continue; // LZ-F7, relaxed: compilers put arrays in by-value structs
      if (op != Op::TypeInt && op != Op::TypeFloat && op != Op::TypeStruct &&
          op != Op::TypeVector && op != Op::TypePointer) {
        why = "a struct argument's members may be ints, floats, structs, vectors and pointers "
              "(LZ-F7), not " +
              std::string(member->desc() ? member->desc()->name : "this type");
        return false;
      }
      if (op == Op::TypeStruct && !kernelArgumentType(s, d->word(w), param, why, depth + 1))
        return false;
    }
    return true;
  case Op::TypePointer: {
    const uint32_t storage = d->wordCount() >= 3 ? d->word(2) : 0;
    if (storage == sc::CrossWorkgroup || storage == sc::Workgroup || storage == sc::UniformConstant)
      return true;
    if (storage == sc::Function && !strict && s.hasDecoration(param, kDecorationFuncParamAttr)) {
      // LZ-F8, relaxed: a by-value struct is passed as a Function pointer decorated ByVal.
      for (const AppliedDecoration &di : s.decorations(param)) {
        Instruction deco = s.module().inst(di.inst);
        if (di.member == kNoIndex && deco.opcode() == Op::Decorate && deco.wordCount() >= 4 &&
            deco.word(2) == kDecorationFuncParamAttr && deco.word(3) == kFuncParamAttrByVal)
          return true;
      }
    }
    why = "pointer arguments point to CrossWorkgroup, Workgroup or UniformConstant storage "
          "(LZ-F8)";
    return false;
  }
  default:
    why = std::string(d->desc() ? d->desc()->name : "this type") +
          " is not a type a kernel argument may have (LZ-F4)";
    return false;
  }
}

void checkEntryPoint(State &s, const Instruction &inst) {
  if (inst.wordCount() < 3)
    return;
  if (inst.word(1) != kExecutionModelKernel)
    s.error(inst.index(), "LZ-F2", "Level Zero entry points use the Kernel execution model");
  const uint32_t fnIndex = s.module().defIndex(inst.word(2));
  if (fnIndex == kNoIndex)
    return;
  Instruction fn = s.module().inst(fnIndex);
  if (fn.opcode() != Op::Function)
    return;
  if (!s.isVoidType(fn.typeId()))
    s.error(fnIndex, "LZ-F3", "a kernel's function must return OpTypeVoid");
  for (uint32_t p = fnIndex + 1; p < s.module().size(); ++p) {
    Instruction param = s.module().inst(p);
    if (param.opcode() != Op::FunctionParameter)
      break;
    std::string why;
    if (!kernelArgumentType(s, param.typeId(), param.resultId(), why))
      s.error(p, "LZ-F4", "kernel argument " + s.name(param.resultId()) + ": " + why);
  }
}

// --- LZ-I: instruction rules --------------------------------------------------------------------

/// The value of a scope operand: a constant's value, or a spec constant's default (LZ-I10).
std::optional<uint64_t> scopeValue(const State &s, uint32_t id) {
  if (auto v = s.constantValue(id))
    return v;
  auto d = s.def(id);
  if (d && d->opcode() == Op::SpecConstant && d->wordCount() >= 4)
    return d->word(3);
  return std::nullopt;
}

void checkScopes(State &s, const Instruction &inst) {
  const grammar::InstructionDesc *desc = inst.desc();
  if (desc == nullptr)
    return;
  auto ops = inst.operands();
  for (size_t k = 0; k < ops.size() && k < desc->operands.size(); ++k) {
    if (ops[k].kind != grammar::OperandKind::IdScope || ops[k].numWords != 1)
      continue;
    const uint32_t id = inst.word(ops[k].offset);
    std::optional<uint64_t> v = scopeValue(s, id);
    if (!v)
      continue;
    const bool execution = desc->operands[k].name.find("Execution") != std::string_view::npos;
    const Op op = inst.opcode();
    if (execution) {
      if (op == Op::GroupAsyncCopy || op == Op::GroupWaitEvents) {
        if (*v != kScopeWorkgroup)
          s.error(inst.index(), "LZ-I10",
                  "the Execution scope of " + std::string(desc->name) + " must be Workgroup");
      } else if (*v != kScopeWorkgroup && *v != kScopeSubgroup) {
        s.error(inst.index(), "LZ-I10",
                "an Execution scope must be Workgroup or Subgroup in Level Zero, not " +
                    std::to_string(*v));
      } else if (s.options().strict && *v != kScopeSubgroup &&
                 desc->name.starts_with("OpGroupNonUniform")) {
        s.error(inst.index(), "LZ-J3.11",
                "the strict profile runs non-uniform group operations at Subgroup scope only");
      }
    } else if (*v > kScopeInvocation) {
      s.error(inst.index(), "LZ-I11",
              "a Memory scope must be CrossDevice, Device, Workgroup, Subgroup or Invocation, "
              "not " +
                  std::to_string(*v));
    }
  }
}

void checkImageOperands(State &s, const Instruction &inst) {
  // OpImageRead %type %result %image %coordinate [operands]; OpImageSampleExplicitLod likewise.
  if (inst.wordCount() > 5 && (inst.word(5) & kImageOperandsConstOffset))
    s.error(inst.index(), "LZ-I6",
            std::string(inst.desc()->name) + " must not use the ConstOffset image operand");
}

void checkAtomic(State &s, const Instruction &inst) {
  const Op op = inst.opcode();
  const uint32_t v = static_cast<uint32_t>(op);
  // Flag test-and-set / clear: bool result, no value type.
  if (v == uint32_t(Op::AtomicFlagTestAndSet) || v == uint32_t(Op::AtomicFlagClear))
    return;
  const uint32_t pointer = atomicPointer(inst);
  const uint32_t type = v == uint32_t(Op::AtomicStore)
                            ? (inst.wordCount() > 4 ? s.typeOf(inst.word(4)) : 0)
                            : inst.typeId();
  if (pointer == 0 || type == 0)
    return;
  const LevelZeroDevice &d = s.options().device;
  const std::optional<uint32_t> storage = s.storageClass(s.typeOf(pointer));
  const uint32_t width = s.bitWidth(type);
  const bool isFloatOp = v == uint32_t(Op::AtomicFMinEXT) || v == uint32_t(Op::AtomicFMaxEXT) ||
                         v == uint32_t(Op::AtomicFAddEXT);
  const bool loadStoreExchange = v == uint32_t(Op::AtomicLoad) || v == uint32_t(Op::AtomicStore) ||
                                 v == uint32_t(Op::AtomicExchange);
  if (s.isIntType(type)) {
    if (width == 64 && !d.int64Atomics)
      s.error(inst.index(), "LZ-I7",
              "64-bit integer atomics need a device with ZE_DEVICE_MODULE_FLAG_INT64_ATOMICS");
    else if (width != 32 && width != 64)
      s.error(inst.index(), "LZ-I7",
              "atomics operate on 32-bit (or, with INT64_ATOMICS, 64-bit) integers, not " +
                  std::to_string(width) + "-bit ones");
  } else if (s.isFloatType(type) && (isFloatOp || loadStoreExchange)) {
    bool allowed;
    if (v == uint32_t(Op::AtomicFAddEXT))
      allowed = width == 16 ? d.fp16AtomicAdd : width == 32 ? d.fp32AtomicAdd : d.fp64AtomicAdd;
    else if (isFloatOp)
      allowed = width == 16   ? d.fp16AtomicMinMax
                : width == 32 ? d.fp32AtomicMinMax
                              : d.fp64AtomicMinMax;
    else if (width == 16)
      allowed = d.fp16AtomicLoadStore;
    else // N10: fp32/fp64 load, store and exchange are a gap in the guide
      allowed =
          !s.options().strict && (width == 32 ? d.fp32AtomicLoadStore : d.fp64AtomicLoadStore);
    if (!allowed || !floatAtomicsAvailable(s))
      s.error(inst.index(), "LZ-I7",
              std::to_string(width) + "-bit float " + std::string(inst.desc()->name) +
                  " is not allowed by the device's float atomic support");
    if (storage && *storage != sc::CrossWorkgroup && *storage != sc::Workgroup &&
        (s.options().strict || *storage != sc::Generic))
      s.error(inst.index(), "LZ-J2", "float atomics operate on CrossWorkgroup or Workgroup memory");
    return;
  } else {
    s.error(inst.index(), "LZ-I7",
            std::string(inst.desc() ? inst.desc()->name : "an atomic") +
                " operates on 32- or 64-bit integers (or floats as the float atomics allow), not "
                "on " +
                s.name(type));
  }
  if (storage && *storage != sc::Function && *storage != sc::Workgroup &&
      *storage != sc::CrossWorkgroup && *storage != sc::Generic)
    s.error(inst.index(), "LZ-I7",
            "atomics operate on Function, Workgroup, CrossWorkgroup or Generic memory");
}

// LZ-I8: no recursion in the call graph reachable from the entry points.
void checkRecursion(State &s) {
  const Module &m = s.module();
  const auto fns = m.functions();
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> calls(fns.size()); // (callee, inst)
  for (uint32_t f = 0; f < fns.size(); ++f)
    for (uint32_t i = fns[f].begin; i < fns[f].end; ++i) {
      Instruction inst = m.inst(i);
      if (inst.opcode() != Op::FunctionCall || inst.wordCount() < 4)
        continue;
      const uint32_t def = m.defIndex(inst.word(3));
      const uint32_t callee = def == kNoIndex ? kNoIndex : s.functionOf(def);
      if (callee != kNoIndex)
        calls[f].emplace_back(callee, i);
    }
  enum : uint8_t { White, Gray, Black };
  std::vector<uint8_t> color(fns.size(), White);
  for (uint32_t ep : s.entryPoints()) {
    Instruction e = m.inst(ep);
    if (e.wordCount() < 3)
      continue;
    const uint32_t def = m.defIndex(e.word(2));
    const uint32_t root = def == kNoIndex ? kNoIndex : s.functionOf(def);
    if (root == kNoIndex || color[root] != White)
      continue;
    // Iterative depth-first search: (function, next call to follow).
    std::vector<std::pair<uint32_t, size_t>> stack = {{root, 0}};
    color[root] = Gray;
    while (!stack.empty()) {
      auto &[f, next] = stack.back();
      if (next == calls[f].size()) {
        color[f] = Black;
        stack.pop_back();
        continue;
      }
      const auto [callee, at] = calls[f][next++];
      if (color[callee] == Gray) {
        s.error(at, "LZ-I8", "recursion: this call closes a cycle in the call graph");
        if (s.stopped())
          return;
      } else if (color[callee] == White) {
        color[callee] = Gray;
        stack.emplace_back(callee, 0);
      }
    }
  }
}

// LZ-I9 (strict only): irreducible control flow, an edge into a loop that bypasses its header.
void checkReducible(State &s) {
  const auto fns = s.module().functions();
  for (uint32_t f = 0; f < fns.size() && !s.stopped(); ++f) {
    if (fns[f].numBlocks == 0)
      continue;
    const Cfg &cfg = s.cfg(f);
    const DominatorTree &dom = s.dominators(f);
    for (uint32_t b : cfg.reversePostOrder())
      for (uint32_t t : cfg.successors(b))
        if (cfg.reachable(t) && cfg.rpoIndex(t) <= cfg.rpoIndex(b) && !dom.dominates(t, b)) {
          s.error(cfg.terminator(b) != kNoIndex ? cfg.terminator(b) : cfg.blocks()[b].label,
                  "LZ-I9",
                  "irreducible control flow: the edge to " + s.name(cfg.labelId(t)) +
                      " enters a loop other than through its header (rejected by --strict)");
          break;
        }
  }
}

// --- LZ-J: extension instructions ---------------------------------------------------------------

bool scalarIntOrFloat(const State &s, uint32_t type) {
  return s.isIntType(type) || s.isFloatType(type);
}
bool intOrFloatVectorOf(const State &s, uint32_t type, std::initializer_list<uint32_t> counts) {
  if (!s.isVectorType(type) || !scalarIntOrFloat(s, s.componentType(type)))
    return false;
  return std::find(counts.begin(), counts.end(), s.componentCount(type)) != counts.end();
}
bool isUint4(const State &s, uint32_t type) {
  return s.isVectorType(type) && s.componentCount(type) == 4 &&
         s.isIntType(s.componentType(type)) && s.bitWidth(type) == 32;
}

void checkGroupInstruction(State &s, const Instruction &inst) {
  const uint32_t v = static_cast<uint32_t>(inst.opcode());
  const uint32_t i = inst.index();
  auto typeAt = [&](uint32_t word) {
    return word < inst.wordCount() ? s.typeOf(inst.word(word)) : 0;
  };
  // Groups (LZ-J3.2/3): OpGroupBroadcast 263, IAdd ... SMax 264-271 (Value after the group
  // operation for the arithmetic ones).
  if (v == uint32_t(Op::GroupBroadcast)) {
    const uint32_t t = inst.typeId();
    if (!scalarIntOrFloat(s, t) && !intOrFloatVectorOf(s, t, {2, 3, 4, 8, 16}))
      s.error(i, "LZ-J3.3",
              "OpGroupBroadcast broadcasts an int or float scalar or vector of 2, 3, 4, 8 or 16");
    return;
  }
  if (v >= uint32_t(Op::GroupIAdd) && v <= uint32_t(Op::GroupSMax)) {
    if (!scalarIntOrFloat(s, inst.typeId()))
      s.error(i, "LZ-J3.2", std::string(inst.desc()->name) + " takes a scalar int or float");
    return;
  }
  if (v < uint32_t(Op::GroupNonUniformElect) || v > uint32_t(Op::GroupNonUniformQuadSwap))
    return;
  // Non-uniform group operations (LZ-J3.4 - J3.9).
  const uint32_t result = inst.typeId();
  switch (v) {
  case uint32_t(Op::GroupNonUniformAllEqual): // AllEqual: Value at word 4
    if (!scalarIntOrFloat(s, typeAt(4)))
      s.error(i, "LZ-J3.4", "OpGroupNonUniformAllEqual compares a scalar int or float");
    return;
  case uint32_t(Op::GroupNonUniformBroadcast): // Broadcast
    if (!scalarIntOrFloat(s, result) && !intOrFloatVectorOf(s, result, {2, 3, 4, 8, 16}))
      s.error(i, "LZ-J3.5",
              "OpGroupNonUniformBroadcast broadcasts an int or float scalar or vector of 2, 3, "
              "4, 8 or 16");
    return;
  case uint32_t(Op::GroupNonUniformBroadcastFirst): // BroadcastFirst
    if (!scalarIntOrFloat(s, result))
      s.error(i, "LZ-J3.5", "OpGroupNonUniformBroadcastFirst broadcasts a scalar int or float");
    return;
  case uint32_t(Op::GroupNonUniformBallot): // Ballot
    if (!isUint4(s, result))
      s.error(i, "LZ-J3.5", "OpGroupNonUniformBallot's result is a uint4");
    return;
  // InverseBallot, BitExtract, BitCount (Value after the group operation), FindLSB/MSB.
  case uint32_t(Op::GroupNonUniformInverseBallot):
  case uint32_t(Op::GroupNonUniformBallotBitExtract):
  case uint32_t(Op::GroupNonUniformBallotFindLSB):
  case uint32_t(Op::GroupNonUniformBallotFindMSB): {
    if (!isUint4(s, typeAt(4)))
      s.error(i, "LZ-J3.5", std::string(inst.desc()->name) + " takes a uint4 ballot");
    return;
  }
  case uint32_t(Op::GroupNonUniformBallotBitCount):
    if (!isUint4(s, typeAt(5)))
      s.error(i, "LZ-J3.5", "OpGroupNonUniformBallotBitCount takes a uint4 ballot");
    return;
  case uint32_t(Op::GroupNonUniformShuffle): // Shuffle, ShuffleXor, ShuffleUp, ShuffleDown
  case uint32_t(Op::GroupNonUniformShuffleXor):
  case uint32_t(Op::GroupNonUniformShuffleUp):
  case uint32_t(Op::GroupNonUniformShuffleDown):
    if (!scalarIntOrFloat(s, result))
      s.error(i, v <= uint32_t(Op::GroupNonUniformShuffleXor) ? "LZ-J3.7" : "LZ-J3.8",
              std::string(inst.desc()->name) + " shuffles a scalar int or float");
    return;
  default:
    break;
  }
  // Arithmetic, bitwise and logical scans and reductions.
  if (v >= uint32_t(Op::GroupNonUniformIAdd) && v <= uint32_t(Op::GroupNonUniformLogicalXor)) {
    const bool logical = v >= uint32_t(Op::GroupNonUniformLogicalAnd);
    if (logical ? !s.isBoolType(result) : !scalarIntOrFloat(s, result))
      s.error(i, "LZ-J3.6",
              std::string(inst.desc()->name) +
                  (logical ? " operates on OpTypeBool" : " operates on a scalar int or float"));
    // %type %result %scope GroupOperation %value [ClusterSize]
    if (inst.wordCount() > 6 && !s.hasCapability(67))
      s.error(i, "LZ-J3.9", "ClusterSize needs the GroupNonUniformClustered capability");
    if (inst.wordCount() > 4 && inst.word(4) == kGroupOperationClusteredReduce &&
        inst.wordCount() <= 6)
      s.error(i, "LZ-J3.9", "ClusteredReduce needs its ClusterSize operand");
  }
}

void checkIntelSubgroups(State &s, const Instruction &inst) {
  const uint32_t v = static_cast<uint32_t>(inst.opcode());
  const uint32_t i = inst.index();
  // Shuffles: the result is the data type.
  if (v >= uint32_t(Op::SubgroupShuffleINTEL) && v <= uint32_t(Op::SubgroupShuffleXorINTEL)) {
    const uint32_t t = inst.typeId();
    const uint32_t c = s.componentType(t), width = s.bitWidth(t);
    bool ok;
    if (s.isVectorType(t)) {
      const uint32_t n = s.componentCount(t);
      ok = (n == 2 || n == 4 || n == 8 || n == 16) &&
           ((s.isIntType(c) && width <= 32) || (s.isFloatType(c) && width == 32));
    } else {
      ok = s.isIntType(t) ||
           (s.isFloatType(t) && (width == 32 || (width == 16 && s.hasCapability(9)) ||
                                 (width == 64 && s.hasCapability(10))));
    }
    if (!ok)
      s.error(i, "LZ-J1.3",
              "subgroup shuffles take f32, i8, i16 or i32 scalars or vectors of 2, 4, 8 or 16, "
              "i64 scalars, and f16 / f64 scalars with their capabilities");
    return;
  }
  if (v < uint32_t(Op::SubgroupBlockReadINTEL) || v > uint32_t(Op::SubgroupImageBlockWriteINTEL))
    return;
  const bool read =
      v == uint32_t(Op::SubgroupBlockReadINTEL) || v == uint32_t(Op::SubgroupImageBlockReadINTEL);
  const bool image = v == uint32_t(Op::SubgroupImageBlockReadINTEL) ||
                     v == uint32_t(Op::SubgroupImageBlockWriteINTEL);
  // Reads: %type %result %ptr-or-image [%coordinate]; writes: %ptr-or-image [%coordinate] %data.
  const uint32_t data =
      read ? inst.typeId()
           : (inst.wordCount() > (image ? 3u : 2u) ? s.typeOf(inst.word(image ? 3 : 2)) : 0);
  const uint32_t target = inst.wordCount() > (read ? 3u : 1u) ? inst.word(read ? 3 : 1) : 0;
  if (data != 0) {
    const uint32_t n = s.componentCount(data), width = s.bitWidth(data);
    if (!s.isIntType(s.componentType(data)) || (width != 16 && width != 32) ||
        (n != 1 && n != 2 && n != 4 && n != 8))
      s.error(i, "LZ-J1.4",
              "subgroup block reads and writes move i16 or i32 scalars or vectors of 2, 4 or 8");
  }
  if (target == 0)
    return;
  if (!image) {
    if (s.storageClass(s.typeOf(target)) != sc::CrossWorkgroup)
      s.error(i, "LZ-J1.5", "subgroup block IO reads and writes CrossWorkgroup memory");
    return;
  }
  auto img = s.def(s.typeOf(target));
  if (img && img->opcode() == Op::TypeImage && img->wordCount() >= 7 &&
      (img->word(3) != kDim2D || img->word(4) != 0 || img->word(5) != 0 || img->word(6) != 0))
    s.error(i, "LZ-J1.6", "subgroup image block IO needs a 2D, non-depth, non-arrayed image");
  const uint32_t coordinate = inst.wordCount() > (read ? 4u : 2u) ? inst.word(read ? 4 : 2) : 0;
  const uint32_t ct = s.typeOf(coordinate);
  if (coordinate != 0 && !(s.isVectorType(ct) && s.componentCount(ct) == 2 &&
                           s.isIntType(s.componentType(ct)) && s.bitWidth(ct) == 32))
    s.error(i, "LZ-J1.7", "subgroup image block IO coordinates are an int2");
}

void checkBfloat16(State &s, const Instruction &inst) {
  const uint32_t v = static_cast<uint32_t>(inst.opcode());
  if ((v != uint32_t(Op::ConvertFToBF16INTEL) && v != uint32_t(Op::ConvertBF16ToFINTEL)) ||
      inst.wordCount() < 4)
    return;
  const uint32_t result = inst.typeId(), operand = s.typeOf(inst.word(3));
  const uint32_t n = s.componentCount(result);
  const bool countOk = n == 1 || n == 2 || n == 3 || n == 4 || n == 8 || n == 16;
  if (!countOk || n != s.componentCount(operand))
    s.error(inst.index(), "LZ-J5.3",
            "bfloat16 conversions take scalars or vectors of 2, 3, 4, 8 or 16 components, the "
            "same for operand and result");
}

// --- LZ-K, LZ-L -----------------------------------------------------------------------------

void checkVariable(State &s, const Instruction &inst) {
  for (const AppliedDecoration &di : s.decorations(inst.resultId())) {
    Instruction d = s.module().inst(di.inst);
    if (di.member != kNoIndex || d.opcode() != Op::Decorate || d.wordCount() < 4 ||
        d.word(2) != kDecorationBuiltIn)
      continue;
    const uint32_t builtin = d.word(3);
    if (builtin >= kBuiltInSubgroupEqMask && builtin <= kBuiltInSubgroupLtMask &&
        !isUint4(s, s.pointeeType(inst.typeId())))
      s.error(inst.index(), "LZ-K1", "the Subgroup*Mask built-ins are uint4 variables");
    // LZ-G3 (the note's recommendation, not the guide's): under Physical64 the size_t built-ins
    // (NumWorkgroups, WorkgroupSize, WorkgroupId, LocalInvocationId, GlobalInvocationId,
    // GlobalSize, EnqueuedWorkgroupSize, GlobalOffset, GlobalLinearId) are 64-bit, as OpenCL C
    // compilers declare them; a lint.
    constexpr uint32_t kSizeT[] = {24, 25, 26, 27, 28, 31, 32, 33, 34};
    const uint32_t pointee = s.pointeeType(inst.typeId());
    if (std::find(std::begin(kSizeT), std::end(kSizeT), builtin) != std::end(kSizeT) &&
        s.addressingModel() == uint32_t(grammar::AddressingModel::Physical64) &&
        s.isIntScalarOrVector(pointee) && s.bitWidth(pointee) != 64)
      s.warning(inst.index(), "LZ-G3",
                "the " + State::enumerantName(grammar::OperandKind::BuiltIn, builtin) +
                    " built-in is a size_t, 64-bit under Physical64, not " +
                    std::to_string(s.bitWidth(pointee)) + "-bit");
  }
}

void checkRoundingModes(State &s, const Instruction &inst) {
  // LZ-L2 (strict): FPRoundingMode decorates only the results of conversions.
  if (inst.wordCount() < 3 || inst.word(2) != kDecorationFPRoundingMode)
    return;
  const Op target = s.defOpcode(inst.word(1));
  if (target != kNoOp && target != Op::ConvertFToU && target != Op::ConvertFToS &&
      target != Op::ConvertSToF && target != Op::ConvertUToF && target != Op::FConvert)
    s.error(inst.index(), "LZ-L2",
            "FPRoundingMode decorates only the results of OpConvertFToU, OpConvertFToS, "
            "OpConvertSToF, OpConvertUToF and OpFConvert");
}

} // namespace

void checkLevelZero(State &s) {
  checkVersion(s);
  checkCapabilities(s);
  for (Instruction inst : s.module()) {
    if (s.stopped())
      return;
    if (inst.isRaw())
      continue;
    switch (inst.opcode()) {
    case Op::ExtInstImport:
      checkImport(s, inst);
      break;
    case Op::Extension:
      checkExtension(s, inst);
      break;
    case Op::EntryPoint:
      checkEntryPoint(s, inst);
      break;
    case Op::Variable:
      checkVariable(s, inst);
      break;
    case Op::ImageRead:
    case Op::ImageSampleExplicitLod:
      checkImageOperands(s, inst);
      break;
    case Op::Decorate:
      if (s.options().strict)
        checkRoundingModes(s, inst);
      break;
    default:
      checkTypes(s, inst);
      if (isAtomicInstruction(inst.opcode()))
        checkAtomic(s, inst);
      checkGroupInstruction(s, inst);
      checkIntelSubgroups(s, inst);
      checkBfloat16(s, inst);
      break;
    }
    checkScopes(s, inst);
  }
  if (!s.stopped())
    checkRecursion(s);
  if (!s.stopped() && s.options().strict)
    checkReducible(s);
}

} // namespace spire::val
