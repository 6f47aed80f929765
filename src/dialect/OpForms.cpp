#include "OpForms.h"

#include "spire/dialect/Text.h"

#include "spire/dialect/Attributes.h"

#include <deque>
#include <initializer_list>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace spire::dialect {

namespace {

struct FormTable {
  std::unordered_map<std::string_view, Form> byName;
  std::deque<std::string> enumNames;
  std::unordered_map<std::string_view, grammar::OperandKind> enumKinds;
  /// Ops whose custom syntax mlir-translate-16 does not print.
  std::unordered_set<std::string_view> newerThanMlir16;

  void add(Form form, std::initializer_list<std::string_view> names) {
    for (std::string_view n : names)
      byName.emplace(n, form);
  }
  void addNewer(Form form, std::initializer_list<std::string_view> names) {
    add(form, names);
    newerThanMlir16.insert(names.begin(), names.end());
  }

  FormTable() {
    add(Form::BinarySame,
        {"spirv.FAdd", "spirv.FSub", "spirv.FMul", "spirv.FDiv", "spirv.FRem", "spirv.FMod",
         "spirv.IAdd", "spirv.ISub", "spirv.IMul", "spirv.SDiv", "spirv.UDiv", "spirv.SMod",
         "spirv.SRem", "spirv.UMod", "spirv.BitwiseAnd", "spirv.BitwiseOr", "spirv.BitwiseXor"});
    add(Form::UnarySame, {"spirv.Not", "spirv.BitCount", "spirv.BitReverse", "spirv.LogicalNot"});
    // MLIR 16 declares these two as arithmetic ops: their attributes come before the type.
    add(Form::UnaryAttrsFirst, {"spirv.FNegate", "spirv.SNegate"});
    add(Form::UnaryBool, {"spirv.IsNan", "spirv.IsInf"});
    add(Form::Compare, {"spirv.IEqual",
                        "spirv.INotEqual",
                        "spirv.SGreaterThan",
                        "spirv.SGreaterThanEqual",
                        "spirv.SLessThan",
                        "spirv.SLessThanEqual",
                        "spirv.UGreaterThan",
                        "spirv.UGreaterThanEqual",
                        "spirv.ULessThan",
                        "spirv.ULessThanEqual",
                        "spirv.FOrdEqual",
                        "spirv.FOrdNotEqual",
                        "spirv.FOrdLessThan",
                        "spirv.FOrdLessThanEqual",
                        "spirv.FOrdGreaterThan",
                        "spirv.FOrdGreaterThanEqual",
                        "spirv.FUnordEqual",
                        "spirv.FUnordNotEqual",
                        "spirv.FUnordLessThan",
                        "spirv.FUnordLessThanEqual",
                        "spirv.FUnordGreaterThan",
                        "spirv.FUnordGreaterThanEqual",
                        "spirv.LogicalAnd",
                        "spirv.LogicalOr",
                        "spirv.LogicalEqual",
                        "spirv.LogicalNotEqual",
                        "spirv.Ordered",
                        "spirv.Unordered"});
    add(Form::Convert,
        {"spirv.Bitcast", "spirv.ConvertFToS", "spirv.ConvertFToU", "spirv.ConvertSToF",
         "spirv.ConvertUToF", "spirv.FConvert", "spirv.SConvert", "spirv.UConvert",
         "spirv.GenericCastToPtr", "spirv.GenericCastToPtrExplicit", "spirv.PtrCastToGeneric"});
    add(Form::ResultTyped,
        {"spirv.IAddCarry", "spirv.ISubBorrow", "spirv.SMulExtended", "spirv.UMulExtended"});
    add(Form::Atomic,
        {"spirv.AtomicAnd", "spirv.AtomicIAdd", "spirv.AtomicIDecrement", "spirv.AtomicIIncrement",
         "spirv.AtomicISub", "spirv.AtomicOr", "spirv.AtomicSMax", "spirv.AtomicSMin",
         "spirv.AtomicUMax", "spirv.AtomicUMin", "spirv.AtomicXor", "spirv.AtomicExchange",
         "spirv.AtomicCompareExchange", "spirv.AtomicCompareExchangeWeak", "spirv.EXT.AtomicFAdd"});
    add(Form::GroupScoped, {"spirv.GroupNonUniformBroadcast", "spirv.GroupNonUniformShuffle",
                            "spirv.GroupNonUniformShuffleDown", "spirv.GroupNonUniformShuffleUp",
                            "spirv.GroupNonUniformShuffleXor"});
    add(Form::Elect, {"spirv.GroupNonUniformElect"});
    add(Form::Ballot, {"spirv.GroupNonUniformBallot"});
    add(Form::PlainBallot, {"spirv.KHR.SubgroupBallot"});
    add(Form::GroupArith,
        {"spirv.GroupNonUniformFAdd", "spirv.GroupNonUniformFMax", "spirv.GroupNonUniformFMin",
         "spirv.GroupNonUniformFMul", "spirv.GroupNonUniformIAdd", "spirv.GroupNonUniformIMul",
         "spirv.GroupNonUniformSMax", "spirv.GroupNonUniformSMin", "spirv.GroupNonUniformUMax",
         "spirv.GroupNonUniformUMin"});
    add(Form::Barrier, {"spirv.ControlBarrier", "spirv.MemoryBarrier"});
    add(Form::Select, {"spirv.Select"});
    add(Form::TwoTypes, {"spirv.ShiftLeftLogical", "spirv.ShiftRightArithmetic",
                         "spirv.ShiftRightLogical", "spirv.MatrixTimesScalar"});
    add(Form::BitField,
        {"spirv.BitFieldInsert", "spirv.BitFieldSExtract", "spirv.BitFieldUExtract"});
    add(Form::OperandsToResult, {"spirv.VectorTimesScalar", "spirv.CompositeConstruct"});
    add(Form::TypesToResult, {"spirv.MatrixTimesMatrix"});
    add(Form::TypeToResult, {"spirv.Transpose"});
    add(Form::TypedOperands, {"spirv.GL.FMix", "spirv.GL.Ldexp", "spirv.GL.FrexpStruct"});
    add(Form::Undef, {"spirv.Undef"});
    add(Form::NoOperands, {"spirv.Return", "spirv.Unreachable", "spirv.mlir.merge"});
    add(Form::ReturnValue, {"spirv.ReturnValue", "spirv.mlir.yield"});
    add(Form::VectorExtractDynamic, {"spirv.VectorExtractDynamic"});
    add(Form::VectorInsertDynamic, {"spirv.VectorInsertDynamic"});
    add(Form::VectorShuffle, {"spirv.VectorShuffle"});
    add(Form::CompositeExtract, {"spirv.CompositeExtract"});
    add(Form::CompositeInsert, {"spirv.CompositeInsert"});
    add(Form::AccessChain,
        {"spirv.AccessChain", "spirv.PtrAccessChain", "spirv.InBoundsPtrAccessChain"});
    add(Form::Load, {"spirv.Load"});
    add(Form::Store, {"spirv.Store"});
    add(Form::Variable, {"spirv.Variable"});
    add(Form::CopyMemory, {"spirv.CopyMemory"});
    add(Form::FunctionCall, {"spirv.FunctionCall"});
    add(Form::Branch, {"spirv.Branch"});
    add(Form::BranchConditional, {"spirv.BranchConditional"});
    add(Form::Module, {"spirv.module"});
    add(Form::Func, {"spirv.func"});
    add(Form::GlobalVariable, {"spirv.GlobalVariable"});
    add(Form::SpecConstant, {"spirv.SpecConstant"});
    add(Form::SpecConstantComposite, {"spirv.SpecConstantComposite"});
    add(Form::SpecConstantOperation, {"spirv.SpecConstantOperation"});
    add(Form::EntryPoint, {"spirv.EntryPoint"});
    add(Form::ExecutionMode, {"spirv.ExecutionMode"});
    add(Form::AddressOf, {"spirv.mlir.addressof"});
    add(Form::ReferenceOf, {"spirv.mlir.referenceof"});
    add(Form::Constant, {"spirv.Constant"});
    add(Form::Selection, {"spirv.mlir.selection"});
    add(Form::Loop, {"spirv.mlir.loop"});
    add(Form::GroupReduce,
        {"spirv.GroupIAdd", "spirv.GroupFAdd", "spirv.GroupFMin", "spirv.GroupUMin",
         "spirv.GroupSMin", "spirv.GroupFMax", "spirv.GroupUMax", "spirv.GroupSMax",
         "spirv.KHR.GroupIMul", "spirv.KHR.GroupFMul"});
    add(Form::GroupScoped, {"spirv.GroupBroadcast"});
    add(Form::OperandsToResult, {"spirv.SDot", "spirv.UDot", "spirv.SUDot", "spirv.SDotAccSat",
                                 "spirv.UDotAccSat", "spirv.SUDotAccSat"});
    add(Form::TypedOperands, {"spirv.ImageQuerySize"});
    add(Form::Image, {"spirv.Image"});
    add(Form::ImageDrefGather, {"spirv.ImageDrefGather"});
    add(Form::CoopMatrixLoad, {"spirv.NV.CooperativeMatrixLoad"});
    add(Form::CoopMatrixStore, {"spirv.NV.CooperativeMatrixStore"});
    add(Form::BlockRead, {"spirv.INTEL.SubgroupBlockRead"});
    add(Form::BlockWrite, {"spirv.INTEL.SubgroupBlockWrite"});
    add(Form::AssumeTrue, {"spirv.KHR.AssumeTrue"});
    add(Form::CoopMatrixLength,
        {"spirv.NV.CooperativeMatrixLength", "spirv.KHR.CooperativeMatrixLength"});
    addNewer(Form::KhrCoopLoad, {"spirv.KHR.CooperativeMatrixLoad"});
    addNewer(Form::KhrCoopStore, {"spirv.KHR.CooperativeMatrixStore"});
    addNewer(Form::KhrMulAdd, {"spirv.KHR.CooperativeMatrixMulAdd"});
    add(Form::MulAdd, {"spirv.NV.CooperativeMatrixMulAdd"});
    // The GL and CL ops MLIR 16 has: one operand, or several, all of the result's type.
    add(Form::UnarySame,
        {"spirv.GL.Round",       "spirv.GL.RoundEven", "spirv.GL.FAbs",  "spirv.GL.SAbs",
         "spirv.GL.FSign",       "spirv.GL.SSign",     "spirv.GL.Floor", "spirv.GL.Ceil",
         "spirv.GL.Sin",         "spirv.GL.Cos",       "spirv.GL.Tan",   "spirv.GL.Asin",
         "spirv.GL.Acos",        "spirv.GL.Atan",      "spirv.GL.Sinh",  "spirv.GL.Cosh",
         "spirv.GL.Tanh",        "spirv.GL.Exp",       "spirv.GL.Log",   "spirv.GL.Sqrt",
         "spirv.GL.InverseSqrt", "spirv.GL.FindUMsb",  "spirv.CL.ceil",  "spirv.CL.cos",
         "spirv.CL.erf",         "spirv.CL.exp",       "spirv.CL.fabs",  "spirv.CL.floor",
         "spirv.CL.log",         "spirv.CL.rint",      "spirv.CL.round", "spirv.CL.rsqrt",
         "spirv.CL.sin",         "spirv.CL.sqrt",      "spirv.CL.tanh",  "spirv.CL.s_abs"});
    // The seed's syntax for ops that MLIR 16 lacks or prints in the generic form only:
    // --mlir16 prints them generic.
    addNewer(Form::UnarySame,
             {"spirv.CL.acos", "spirv.CL.acosh", "spirv.CL.asin", "spirv.CL.asinh", "spirv.CL.atan",
              "spirv.CL.atanh", "spirv.CL.cosh", "spirv.CL.sinh", "spirv.CL.tan"});
    addNewer(Form::BinarySame, {"spirv.CL.atan2", "spirv.CL.mix"});
    addNewer(Form::Printf, {"spirv.CL.printf"});
    addNewer(Form::Convert, {"spirv.ConvertPtrToU", "spirv.ConvertUToPtr",
                             "spirv.INTEL.ConvertBF16ToF", "spirv.INTEL.ConvertFToBF16"});
    addNewer(Form::SameTypeToResult, {"spirv.Dot"});
    addNewer(Form::GroupArith,
             {"spirv.GroupNonUniformBitwiseAnd", "spirv.GroupNonUniformBitwiseOr",
              "spirv.GroupNonUniformBitwiseXor", "spirv.GroupNonUniformLogicalAnd",
              "spirv.GroupNonUniformLogicalOr", "spirv.GroupNonUniformLogicalXor"});
    add(Form::BinarySame,
        {"spirv.GL.Pow", "spirv.GL.FMin", "spirv.GL.UMin", "spirv.GL.SMin", "spirv.GL.FMax",
         "spirv.GL.UMax", "spirv.GL.SMax", "spirv.GL.FClamp", "spirv.GL.UClamp", "spirv.GL.SClamp",
         "spirv.GL.Fma", "spirv.CL.fma", "spirv.CL.fmax", "spirv.CL.fmin", "spirv.CL.pow",
         "spirv.CL.s_max", "spirv.CL.u_max", "spirv.CL.s_min", "spirv.CL.u_min"});

    for (unsigned k = 0; k < std::size(grammar::kOperandCategories); ++k) {
      auto kind = static_cast<grammar::OperandKind>(k);
      grammar::OperandCategory c = grammar::operandCategory(kind);
      if (c == grammar::OperandCategory::BitEnum || c == grammar::OperandCategory::ValueEnum)
        enumKinds.emplace(enumNames.emplace_back(enumAttrName(kind)), kind);
    }
  }
};

const FormTable &table() {
  // Never destroyed: a process needs it to the end, and tearing it down at exit costs time.
  static const FormTable &t = *new FormTable;
  return t;
}

} // namespace

Form formOf(const OpInfo &info) {
  const FormTable &t = table();
  auto it = t.byName.find(info.name);
  if (it != t.byName.end())
    return it->second;
  return Form::Generic;
}

bool customSyntaxNewerThanMlir16(const OpInfo &info) {
  return table().newerThanMlir16.count(info.name) != 0;
}

bool hasCustomSyntax(std::string_view opName) {
  const OpInfo *info = findOp(opName);
  return info && formOf(*info) != Form::Generic;
}

bool enumKindByAttrName(std::string_view name, grammar::OperandKind &kind) {
  const FormTable &t = table();
  auto it = t.enumKinds.find(name);
  if (it == t.enumKinds.end())
    return false;
  kind = it->second;
  return true;
}

/// The type reached by indexing `t` with constant `index` (struct members need it), or null.
Type indexType(Type t, int64_t index, bool known) {
  switch (t.kind()) {
  case TypeKind::Vector:
  case TypeKind::Array:
  case TypeKind::RuntimeArray:
  case TypeKind::Matrix:
  case TypeKind::CooperativeMatrix:
    return t.elementType();
  case TypeKind::Struct:
    if (!known || index < 0 || static_cast<size_t>(index) >= t.members().size())
      return {};
    return t.members()[static_cast<size_t>(index)].type;
  default:
    return {};
  }
}

} // namespace spire::dialect
