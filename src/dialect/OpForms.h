// Which custom (pretty) syntax of mlir-translate-16 an op has, shared by the printer and the
// parser. Ops without one print in the generic form.
#pragma once

#include "spire/dialect/Ops.h"
#include "spire/dialect/Types.h"
#include "spire/support/Expected.h"

#include <cstdint>
#include <string_view>

namespace spire::dialect {

enum class Form : uint8_t {
  Generic,
  BinarySame,       ///< %a, %b {attrs} : T         (IAdd, FMul, GL.FMax, GL.Fma, CL.fmax ...)
  UnarySame,        ///< %a : T {attrs}             (Not, BitCount, GL.FAbs, CL.exp ...)
  UnaryAttrsFirst,  ///< %a {attrs} : T             (FNegate, SNegate)
  UnaryBool,        ///< %a : T {attrs}, result bool-shaped (IsNan, IsInf)
  Compare,          ///< %a, %b : T {attrs}, result bool-shaped (IEqual, FOrdLessThan, LogicalAnd)
  Convert,          ///< %a {attrs} : T to R
  ResultTyped,      ///< %a, %b {attrs} : R         (ISubBorrow, IAddCarry, SMulExtended ...)
  Atomic,           ///< "Scope" "Semantics"... %p, %v {attrs} : !spirv.ptr<...>
  GroupScoped,      ///< <Scope> %a, %b {attrs} : T0, T1 (GroupNonUniformBroadcast, Shuffle*)
  Elect,            ///< <Scope> {attrs} : R
  Ballot,           ///< <Scope> %p {attrs} : R
  PlainBallot,      ///< %p {attrs} : R              (KHR.SubgroupBallot)
  GroupArith,       ///< "Scope" "Op" %v [cluster_size(%c)] {attrs} : T
  Barrier,          ///< <Scope>, [<Scope>,] <Semantics> {attrs}
  Select,           ///< %c, %a, %b {attrs} : Tc, T
  TwoTypes,         ///< %a, %b {attrs} : T0, T1, result T0 (shifts, MatrixTimesScalar)
  BitField,         ///< %base, ...{attrs} : Tbase, Toffset, Tcount
  OperandsToResult, ///< %a, %b {attrs} : (T0, T1) -> R (VectorTimesScalar, CompositeConstruct)
  TypesToResult,    ///< %a, %b {attrs} : T0, T1 -> R (MatrixTimesMatrix)
  TypeToResult,     ///< %a {attrs} : T -> R (Transpose)
  SameTypeToResult, ///< %a, %b {attrs} : T -> R, both operands of type T (Dot)
  Printf,           ///< %format, %a, %b {attrs} : (Tformat, (Ta, Tb)) -> R (CL.printf)
  TypedOperands,    ///< {attrs} %a : T0, %b : T1 -> R (GL.FMix, GL.Ldexp, GL.FrexpStruct)
  Undef,            ///< {attrs} : R
  NoOperands,       ///< {attrs} (Return, Unreachable, mlir.merge, Kill)
  ReturnValue,      ///< %v {attrs} : T (ReturnValue, mlir.yield)
  VectorExtractDynamic,
  VectorInsertDynamic,
  VectorShuffle,
  CompositeExtract,
  CompositeInsert,
  AccessChain, ///< also PtrAccessChain, InBoundsPtrAccessChain
  Load,
  Store,
  Variable,
  CopyMemory,
  FunctionCall,
  Branch,
  BranchConditional,
  Module,
  Func,
  GlobalVariable,
  SpecConstant,
  SpecConstantComposite,
  SpecConstantOperation,
  EntryPoint,
  ExecutionMode,
  AddressOf,
  ReferenceOf,
  Constant,
  Selection,
  Loop,
  GroupReduce,      ///< <Scope> <Op> %x {attrs} : T (GroupIAdd, GroupFMax, KHR.GroupFMul ...)
  Image,            ///< {attrs} %si : !spirv.sampled_image<...>
  ImageDrefGather,  ///< %si : T, %c : T, %d : T ["Op"] (args : T) {attrs} -> R
  CoopMatrixLoad,   ///< %p, %stride, %colmajor : Tp as R (NV)
  CoopMatrixStore,  ///< %p, %m, %stride, %colmajor : Tp, Tm (NV)
  BlockRead,        ///< %p : R (INTEL.SubgroupBlockRead)
  BlockWrite,       ///< %p, %v : T (INTEL.SubgroupBlockWrite)
  AssumeTrue,       ///< %c {attrs}
  CoopMatrixLength, ///< {attrs} : !spirv.coopmatrix<...> (NV; the type is an attribute)
  MulAdd,           ///< %a, %b, %c {attrs} : Ta, Tb -> Tc (NV.CooperativeMatrixMulAdd)
  KhrCoopLoad,      ///< %p, %stride, <Layout>[, <Memory>] {attrs} : Tp, Ts -> R
  KhrCoopStore,     ///< %p, %m, %stride, <Layout>[, <Memory>] {attrs} : Tp, Tm, Ts
  KhrMulAdd,        ///< %a, %b, %c[, <Operands>] {attrs} : Ta, Tb -> Tc
};

Form formOf(const OpInfo &info);

/// Whether mlir-translate-16 prints the op in the generic form although it has a custom one
/// (MLIR 16 lacks the op, or its syntax): --mlir16 prints such ops generic.
bool customSyntaxNewerThanMlir16(const OpInfo &info);

/// The operand kind of an enum attribute named as in `#spirv.storage_class<...>`, or false.
bool enumKindByAttrName(std::string_view name, grammar::OperandKind &kind);

/// The type reached by indexing the composite `t` with `index` (a struct needs a `known`
/// constant index in range), or null.
Type indexType(Type t, int64_t index, bool known);

/// Parses a type at the start of `text`; `consumed` is how many characters it used. On failure
/// the error's column counts from the start of `text` (line 1).
Expected<Type> parseTypePrefix(Context &context, std::string_view text, size_t &consumed);

} // namespace spire::dialect
