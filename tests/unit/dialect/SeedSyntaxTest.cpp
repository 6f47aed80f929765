// The seed's 261 ops (docs/notes/mlir_spirv_ops_reference.md, one entry per op of MLIR's SPIR-V
// dialect) must each have their custom syntax in spire, not only the generic form; the few that
// cannot are listed with the reason.
#include "spire/dialect/Ops.h"
#include "spire/dialect/Text.h"
#include "spire/grammar/Grammar.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <map>
#include <string>
#include <string_view>
#include <vector>

using namespace spire::dialect;

namespace {

constexpr std::array<std::string_view, 261> kSeedOps = {
    "spirv.AccessChain",
    "spirv.AtomicAnd",
    "spirv.AtomicCompareExchange",
    "spirv.AtomicCompareExchangeWeak",
    "spirv.AtomicExchange",
    "spirv.AtomicIAdd",
    "spirv.AtomicIDecrement",
    "spirv.AtomicIIncrement",
    "spirv.AtomicISub",
    "spirv.AtomicOr",
    "spirv.AtomicSMax",
    "spirv.AtomicSMin",
    "spirv.AtomicUMax",
    "spirv.AtomicUMin",
    "spirv.AtomicXor",
    "spirv.BitCount",
    "spirv.BitFieldInsert",
    "spirv.BitFieldSExtract",
    "spirv.BitFieldUExtract",
    "spirv.BitReverse",
    "spirv.Bitcast",
    "spirv.BitwiseAnd",
    "spirv.BitwiseOr",
    "spirv.BitwiseXor",
    "spirv.Branch",
    "spirv.BranchConditional",
    "spirv.CL.acos",
    "spirv.CL.acosh",
    "spirv.CL.asin",
    "spirv.CL.asinh",
    "spirv.CL.atan",
    "spirv.CL.atan2",
    "spirv.CL.atanh",
    "spirv.CL.ceil",
    "spirv.CL.cos",
    "spirv.CL.cosh",
    "spirv.CL.erf",
    "spirv.CL.exp",
    "spirv.CL.fabs",
    "spirv.CL.floor",
    "spirv.CL.fma",
    "spirv.CL.fmax",
    "spirv.CL.fmin",
    "spirv.CL.log",
    "spirv.CL.mix",
    "spirv.CL.pow",
    "spirv.CL.printf",
    "spirv.CL.rint",
    "spirv.CL.round",
    "spirv.CL.rsqrt",
    "spirv.CL.s_abs",
    "spirv.CL.s_max",
    "spirv.CL.s_min",
    "spirv.CL.sin",
    "spirv.CL.sinh",
    "spirv.CL.sqrt",
    "spirv.CL.tan",
    "spirv.CL.tanh",
    "spirv.CL.u_max",
    "spirv.CL.u_min",
    "spirv.CompositeConstruct",
    "spirv.CompositeExtract",
    "spirv.CompositeInsert",
    "spirv.Constant",
    "spirv.ControlBarrier",
    "spirv.ConvertFToS",
    "spirv.ConvertFToU",
    "spirv.ConvertPtrToU",
    "spirv.ConvertSToF",
    "spirv.ConvertUToF",
    "spirv.ConvertUToPtr",
    "spirv.CopyMemory",
    "spirv.Dot",
    "spirv.EXT.AtomicFAdd",
    "spirv.EntryPoint",
    "spirv.ExecutionMode",
    "spirv.FAdd",
    "spirv.FConvert",
    "spirv.FDiv",
    "spirv.FMod",
    "spirv.FMul",
    "spirv.FNegate",
    "spirv.FOrdEqual",
    "spirv.FOrdGreaterThan",
    "spirv.FOrdGreaterThanEqual",
    "spirv.FOrdLessThan",
    "spirv.FOrdLessThanEqual",
    "spirv.FOrdNotEqual",
    "spirv.FRem",
    "spirv.FSub",
    "spirv.FUnordEqual",
    "spirv.FUnordGreaterThan",
    "spirv.FUnordGreaterThanEqual",
    "spirv.FUnordLessThan",
    "spirv.FUnordLessThanEqual",
    "spirv.FUnordNotEqual",
    "spirv.FunctionCall",
    "spirv.GL.Acos",
    "spirv.GL.Asin",
    "spirv.GL.Atan",
    "spirv.GL.Ceil",
    "spirv.GL.Cos",
    "spirv.GL.Cosh",
    "spirv.GL.Exp",
    "spirv.GL.FAbs",
    "spirv.GL.FClamp",
    "spirv.GL.FMax",
    "spirv.GL.FMin",
    "spirv.GL.FMix",
    "spirv.GL.FSign",
    "spirv.GL.FindUMsb",
    "spirv.GL.Floor",
    "spirv.GL.Fma",
    "spirv.GL.FrexpStruct",
    "spirv.GL.InverseSqrt",
    "spirv.GL.Ldexp",
    "spirv.GL.Log",
    "spirv.GL.Pow",
    "spirv.GL.Round",
    "spirv.GL.RoundEven",
    "spirv.GL.SAbs",
    "spirv.GL.SClamp",
    "spirv.GL.SMax",
    "spirv.GL.SMin",
    "spirv.GL.SSign",
    "spirv.GL.Sin",
    "spirv.GL.Sinh",
    "spirv.GL.Sqrt",
    "spirv.GL.Tan",
    "spirv.GL.Tanh",
    "spirv.GL.UClamp",
    "spirv.GL.UMax",
    "spirv.GL.UMin",
    "spirv.GenericCastToPtr",
    "spirv.GenericCastToPtrExplicit",
    "spirv.GlobalVariable",
    "spirv.GroupBroadcast",
    "spirv.GroupFAdd",
    "spirv.GroupFMax",
    "spirv.GroupFMin",
    "spirv.GroupIAdd",
    "spirv.GroupNonUniformBallot",
    "spirv.GroupNonUniformBitwiseAnd",
    "spirv.GroupNonUniformBitwiseOr",
    "spirv.GroupNonUniformBitwiseXor",
    "spirv.GroupNonUniformBroadcast",
    "spirv.GroupNonUniformElect",
    "spirv.GroupNonUniformFAdd",
    "spirv.GroupNonUniformFMax",
    "spirv.GroupNonUniformFMin",
    "spirv.GroupNonUniformFMul",
    "spirv.GroupNonUniformIAdd",
    "spirv.GroupNonUniformIMul",
    "spirv.GroupNonUniformLogicalAnd",
    "spirv.GroupNonUniformLogicalOr",
    "spirv.GroupNonUniformLogicalXor",
    "spirv.GroupNonUniformSMax",
    "spirv.GroupNonUniformSMin",
    "spirv.GroupNonUniformShuffle",
    "spirv.GroupNonUniformShuffleDown",
    "spirv.GroupNonUniformShuffleUp",
    "spirv.GroupNonUniformShuffleXor",
    "spirv.GroupNonUniformUMax",
    "spirv.GroupNonUniformUMin",
    "spirv.GroupSMax",
    "spirv.GroupSMin",
    "spirv.GroupUMax",
    "spirv.GroupUMin",
    "spirv.IAdd",
    "spirv.IAddCarry",
    "spirv.IEqual",
    "spirv.IMul",
    "spirv.INTEL.ConvertBF16ToF",
    "spirv.INTEL.ConvertFToBF16",
    "spirv.INTEL.JointMatrixLoad",
    "spirv.INTEL.JointMatrixMad",
    "spirv.INTEL.JointMatrixStore",
    "spirv.INTEL.JointMatrixWorkItemLength",
    "spirv.INTEL.SubgroupBlockRead",
    "spirv.INTEL.SubgroupBlockWrite",
    "spirv.INotEqual",
    "spirv.ISub",
    "spirv.ISubBorrow",
    "spirv.Image",
    "spirv.ImageDrefGather",
    "spirv.ImageQuerySize",
    "spirv.InBoundsPtrAccessChain",
    "spirv.IsInf",
    "spirv.IsNan",
    "spirv.KHR.AssumeTrue",
    "spirv.KHR.CooperativeMatrixLength",
    "spirv.KHR.CooperativeMatrixLoad",
    "spirv.KHR.CooperativeMatrixMulAdd",
    "spirv.KHR.CooperativeMatrixStore",
    "spirv.KHR.GroupFMul",
    "spirv.KHR.GroupIMul",
    "spirv.KHR.SubgroupBallot",
    "spirv.Load",
    "spirv.LogicalAnd",
    "spirv.LogicalEqual",
    "spirv.LogicalNot",
    "spirv.LogicalNotEqual",
    "spirv.LogicalOr",
    "spirv.MatrixTimesMatrix",
    "spirv.MatrixTimesScalar",
    "spirv.MemoryBarrier",
    "spirv.Not",
    "spirv.Ordered",
    "spirv.PtrAccessChain",
    "spirv.PtrCastToGeneric",
    "spirv.Return",
    "spirv.ReturnValue",
    "spirv.SConvert",
    "spirv.SDiv",
    "spirv.SDot",
    "spirv.SDotAccSat",
    "spirv.SGreaterThan",
    "spirv.SGreaterThanEqual",
    "spirv.SLessThan",
    "spirv.SLessThanEqual",
    "spirv.SMod",
    "spirv.SMulExtended",
    "spirv.SNegate",
    "spirv.SRem",
    "spirv.SUDot",
    "spirv.SUDotAccSat",
    "spirv.Select",
    "spirv.ShiftLeftLogical",
    "spirv.ShiftRightArithmetic",
    "spirv.ShiftRightLogical",
    "spirv.SpecConstant",
    "spirv.SpecConstantComposite",
    "spirv.SpecConstantOperation",
    "spirv.Store",
    "spirv.Transpose",
    "spirv.UConvert",
    "spirv.UDiv",
    "spirv.UDot",
    "spirv.UDotAccSat",
    "spirv.UGreaterThan",
    "spirv.UGreaterThanEqual",
    "spirv.ULessThan",
    "spirv.ULessThanEqual",
    "spirv.UMod",
    "spirv.UMulExtended",
    "spirv.Undef",
    "spirv.Unordered",
    "spirv.Unreachable",
    "spirv.Variable",
    "spirv.VectorExtractDynamic",
    "spirv.VectorInsertDynamic",
    "spirv.VectorShuffle",
    "spirv.VectorTimesScalar",
    "spirv.func",
    "spirv.mlir.addressof",
    "spirv.mlir.loop",
    "spirv.mlir.merge",
    "spirv.mlir.referenceof",
    "spirv.mlir.selection",
    "spirv.mlir.yield",
    "spirv.module",
};

/// Seed ops spire knows but prints in the generic form, with the reason.
const std::map<std::string_view, std::string_view> kGenericOnly = {};

/// "spirv.KHR.CooperativeMatrixLoad" -> "OpCooperativeMatrixLoadKHR", "spirv.IAdd" -> "OpIAdd".
std::string instructionName(std::string_view op) {
  op.remove_prefix(std::string_view("spirv.").size());
  size_t dot = op.find('.');
  if (dot == std::string_view::npos)
    return "Op" + std::string(op);
  return "Op" + std::string(op.substr(dot + 1)) + std::string(op.substr(0, dot));
}

} // namespace

TEST(SeedSyntax, EverySeedOpIsKnownAndHasItsCustomSyntax) {
  std::vector<std::string_view> unknown, generic, notInGrammar;
  for (std::string_view name : kSeedOps) {
    if (!findOp(name)) {
      // Ops of instructions newer than the build's grammar (KHR cooperative matrices with the
      // system grammar of SPIR-V 1.6 revision 1) or of none (INTEL joint matrices): counted.
      if (name.starts_with("spirv.GL.") || name.starts_with("spirv.CL.") ||
          spire::grammar::findInstruction(instructionName(name)))
        unknown.push_back(name);
      else
        notInGrammar.push_back(name);
    } else if (!hasCustomSyntax(name) && !kGenericOnly.count(name))
      generic.push_back(name);
  }
  std::string u, g, n;
  for (std::string_view x : notInGrammar)
    (n += ' ') += x;
  if (!notInGrammar.empty())
    std::printf("seed ops whose instruction the build's grammar lacks (%zu):%s\n",
                notInGrammar.size(), n.c_str());
  for (std::string_view n : unknown)
    (u += ' ') += n;
  for (std::string_view n : generic)
    (g += ' ') += n;
  EXPECT_TRUE(unknown.empty()) << "seed ops spire does not know:" << u;
  EXPECT_TRUE(generic.empty()) << "seed ops without their custom syntax:" << g;
  for (const auto &[name, reason] : kGenericOnly)
    EXPECT_FALSE(hasCustomSyntax(name)) << name << " is listed as generic-only but has a syntax";
}
