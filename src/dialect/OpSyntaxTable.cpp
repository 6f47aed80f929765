// The custom syntax of every op that has one, as mlir-translate-16 prints it: a format and a
// type signature (OpFormat.cpp says the notation), or the hooks of the ops no format can say.
// Adding an op's custom syntax is one line here. Ops without a line print and parse in the
// generic form only.
#include "OpFormat.h"
#include "OpOverlay.h"

#include <deque>
#include <initializer_list>
#include <mutex>

namespace spire::dialect {

namespace {

using Op = grammar::Op;
using GL = grammar::GlslStd450Inst;
using CL = grammar::OpenclStd100Inst;
using D = DialectOp;

/// A format and the signature of its types, with the infer hook of formats whose result is
/// `infer`.
struct Format {
  std::string_view format, signature;
  InferHook infer = nullptr;
};

// Arithmetic and logic.
constexpr Format kBinary{"%0... attr-dict : T", "(T*) -> T"};
constexpr Format kUnary{"%0 : T attr-dict", "(T) -> T"};
// MLIR 16 declares FNegate and SNegate as arithmetic ops: their attributes come before the type.
constexpr Format kNegate{"%0 attr-dict : T", "(T) -> T"};
constexpr Format kUnaryBool{"%0 : T attr-dict", "(T) -> bool(T)"};
constexpr Format kCompare{"%0, %1 : T attr-dict", "(T, T) -> bool(T)"};
constexpr Format kConvert{"%0 attr-dict : T to R", "(T) -> R"};
constexpr Format kResultStruct{"%0, %1 attr-dict : R", "(member0(R), member0(R)) -> R"};
constexpr Format kSelect{"%0, %1, %2 attr-dict : C, T", "(C, T, T) -> T"};
constexpr Format kTwoTypes{"%0, %1 attr-dict : T, U", "(T, U) -> T"};
constexpr Format kBitFieldInsert{"%0, %1, %2, %3 attr-dict : T, O, C", "(T, T, O, C) -> T"};
constexpr Format kBitFieldExtract{"%0, %1, %2 attr-dict : T, O, C", "(T, O, C) -> T"};
// MLIR 16 cannot read `spirv.CompositeConstruct : () -> T`: an empty one prints generic.
constexpr Format kToResult{"%0+ attr-dict : (Ts...) -> R", "(Ts...) -> R"};
constexpr Format kTwoToResult{"%0, %1 attr-dict : A, B -> R", "(A, B) -> R"};
constexpr Format kOneToResult{"%0 attr-dict : A -> R", "(A) -> R"};
constexpr Format kSameToResult{"%0, %1 attr-dict : T -> R", "(T, T) -> R"};
constexpr Format kPrintf{"%0... attr-dict : (F, (Ts...)) -> R", "(F, Ts...) -> R"};
constexpr Format kTyped1{"attr-dict %0 : A -> R", "(A) -> R"};
constexpr Format kTyped2{"attr-dict %0 : A, %1 : B -> R", "(A, B) -> R"};
constexpr Format kTyped3{"attr-dict %0 : A, %1 : B, %2 : C -> R", "(A, B, C) -> R"};
// Atomics: the scope and semantics in angle brackets (in quotes in MLIR 16, see
// Declaration::quotedInMlir16), the pointer's type.
constexpr Format kAtomic{"<$memory_scope> <$semantics> %0... attr-dict : P",
                         "(P, pointee(P)*) -> pointee(P)"};
constexpr Format kAtomicCompare{
    "<$memory_scope> <$equal_semantics> <$unequal_semantics> %0... attr-dict : P",
    "(P, pointee(P)*) -> pointee(P)"};
// Groups and barriers.
constexpr Format kGroupScoped{"<$execution_scope> %0, %1 attr-dict : T, U", "(T, U) -> T"};
constexpr Format kElect{"<$execution_scope> attr-dict : R", "() -> R"};
constexpr Format kBallot{"<$execution_scope> %0 attr-dict : R", "(i1) -> R"};
constexpr Format kPlainBallot{"%0 attr-dict : R", "(i1) -> R"};
// MLIR prints the result type; the operand's may differ (and is needed only when it is defined
// later).
constexpr Format kGroupArith{
    R"("$execution_scope" "$group_operation" %0 {cluster_size ( %1 )} attr-dict : R)",
    "(~R, ?) -> R"};
constexpr Format kGroupReduce{"<$execution_scope> <$group_operation> %0 attr-dict : T", "(T) -> T"};
constexpr Format kControlBarrier{
    "<$execution_scope>, <$memory_scope>, <$memory_semantics> attr-dict", "() -> ()"};
constexpr Format kMemoryBarrier{"<$memory_scope>, <$memory_semantics> attr-dict", "() -> ()"};
// Values, composites and pointers.
constexpr Format kUndef{"attr-dict : R", "() -> R"};
constexpr Format kNoOperands{"attr-dict", "() -> ()"};
constexpr Format kReturnValue{"%0 attr-dict : T", "(T) -> ()"};
constexpr Format kTwoOperands{"%0, %1 attr-dict : A, B", "(A, B) -> ()"};
constexpr Format kOperandsOwnTypes{"%0+ attr-dict : Ts...", "(Ts...) -> ()"};
constexpr Format kExtractDynamic{"%0[%1] attr-dict : V, I", "(V, I) -> elem(V)"};
constexpr Format kInsertDynamic{"%1, %0[%2] attr-dict : V, I", "(V, elem(V), I) -> V"};
constexpr Format kShuffle{"attr-dict $components %0 : A, %1 : B -> R", "(A, B) -> R"};
constexpr Format kExtract{"%0$indices : T", "(T) -> infer", syntax::inferExtract};
constexpr Format kInsert{"%0, %1$indices : O into T", "(O, T) -> infer", syntax::inferInsert};
// An access chain without indices (which SPIR-V allows) prints generic: MLIR's parser wants one.
constexpr Format kAccessChain{"%0[%1+] : P, Ts...", "(P, Ts...) -> infer",
                              syntax::inferAccessChain};
constexpr Format kAddressOf{"@$variable attr-dict : R", "() -> R"};
constexpr Format kReferenceOf{"@$spec_const attr-dict : R", "() -> R"};
constexpr Format kImage{"attr-dict %0 : S", "(S) -> image(S)"};
constexpr Format kAssume{"%0 attr-dict", "(i1) -> ()"};
constexpr Format kBlockRead{"%0 : R", "(?) -> R"};
constexpr Format kBlockWrite{"%0, %1 : T", "(?, T) -> ()"};
// Cooperative matrices.
constexpr Format kCoopLength{"attr-dict : !$cooperative_matrix_type", "() -> i32"};
// Today's MLIR shows the memory access in brackets (`["Volatile"]`) before the types.
constexpr Format kCoopLoadNV{R"(%0, %1, %2 {[ "$memory_access" ]} : P as R)", "(P, ?, ?) -> R"};
constexpr Format kCoopStoreNV{R"(%0, %1, %2, %3 {[ "$memory_access" ]} : P, M)",
                              "(P, M, ?, ?) -> ()"};
constexpr Format kMulAddNV{"%0, %1, %2 attr-dict : A, B -> C", "(A, B, C) -> C"};
constexpr Format kCoopLoadKHR{
    "%0, %1, <$matrix_layout> {, <$memory_operand>} attr-dict : P, S -> R", "(P, S) -> R"};
constexpr Format kCoopStoreKHR{
    "%0, %1, %2, <$matrix_layout> {, <$memory_operand>} attr-dict : P, M, S", "(P, M, S) -> ()"};
constexpr Format kMulAddKHR{"%0, %1, %2 {, <$matrix_operands>} attr-dict : A, B -> C",
                            "(A, B, C) -> C"};
// INTEL joint matrices (SPV_INTEL_joint_matrix): the scope and layout in angle brackets, the
// types as MLIR's declarative formats print them.
constexpr Format kJointLoad{"<$scope> <$layout> %0, %1 attr-dict : (P, S) -> R", "(P, S) -> R"};
constexpr Format kJointStore{"<$scope> <$layout> %0, %1, %2 attr-dict : (P, M, S)",
                             "(P, M, S) -> ()"};
constexpr Format kJointMad{"<$scope> %0, %1, %2 attr-dict : A, B -> C", "(A, B, C) -> C"};
constexpr Format kJointLength{"attr-dict : !$joint_matrix_type", "() -> i32"};

} // namespace

/// Ops that share a format; `newer`: the syntax is newer than MLIR 16, which prints the ops in
/// generic form.
struct detail::FormatDeclaration {
  std::initializer_list<OpKey> ops;
  Format format;
  bool newer = false;
  /// Today's MLIR writes ` -> <result type>` after the form (OpFormat::resultArrow).
  bool resultArrow = false;
  /// Read that arrow, but print without it.
  bool readsArrowOnly = false;
  /// MLIR 16 prints the enumerants in angle brackets in quotes instead (printed so with
  /// --mlir16; either spelling reads).
  bool quotedInMlir16 = false;
  /// OpFormat::parseCheckedOperand: MLIR's logical unary ops derive the result type from
  /// `operand`, whose type their parser checks.
  std::string_view parseCheckedOperand = {};
};

namespace {

using Declaration = detail::FormatDeclaration;

// clang-format off
const Declaration kFormats[] = {
    {{Op::FAdd, Op::FSub, Op::FMul, Op::FDiv, Op::FRem, Op::FMod, Op::IAdd, Op::ISub, Op::IMul,
      Op::SDiv, Op::UDiv, Op::SMod, Op::SRem, Op::UMod, Op::BitwiseAnd, Op::BitwiseOr,
      Op::BitwiseXor, GL::Pow, GL::FMin, GL::UMin, GL::SMin, GL::FMax, GL::UMax, GL::SMax,
      GL::FClamp, GL::UClamp, GL::SClamp, GL::Fma, CL::fma, CL::fmax, CL::fmin, CL::pow, CL::s_max,
      CL::u_max, CL::s_min, CL::u_min}, kBinary},
    {{CL::atan2, CL::mix}, kBinary, true},
    {{Op::LogicalNot}, kUnary, false, false, false, false, "operand"},
    {{Op::Not, Op::BitCount, Op::BitReverse, GL::Round, GL::RoundEven, GL::FAbs,
      GL::SAbs, GL::FSign, GL::SSign, GL::Floor, GL::Ceil, GL::Sin, GL::Cos, GL::Tan, GL::Asin,
      GL::Acos, GL::Atan, GL::Sinh, GL::Cosh, GL::Tanh, GL::Exp, GL::Log, GL::Sqrt,
      GL::InverseSqrt, GL::FindUMsb, CL::ceil, CL::cos, CL::erf, CL::exp, CL::fabs, CL::floor,
      CL::log, CL::rint, CL::round, CL::rsqrt, CL::sin, CL::sqrt, CL::tanh, CL::s_abs}, kUnary},
    {{CL::acos, CL::acosh, CL::asin, CL::asinh, CL::atan, CL::atanh, CL::cosh, CL::sinh, CL::tan},
     kUnary, true},
    {{Op::FNegate, Op::SNegate}, kNegate},
    {{Op::IsNan, Op::IsInf}, kUnaryBool, false, false, false, false, "operand"},
    {{Op::IEqual, Op::INotEqual, Op::SGreaterThan, Op::SGreaterThanEqual, Op::SLessThan,
      Op::SLessThanEqual, Op::UGreaterThan, Op::UGreaterThanEqual, Op::ULessThan,
      Op::ULessThanEqual, Op::FOrdEqual, Op::FOrdNotEqual, Op::FOrdLessThan,
      Op::FOrdLessThanEqual, Op::FOrdGreaterThan, Op::FOrdGreaterThanEqual, Op::FUnordEqual,
      Op::FUnordNotEqual, Op::FUnordLessThan, Op::FUnordLessThanEqual, Op::FUnordGreaterThan,
      Op::FUnordGreaterThanEqual, Op::LogicalAnd, Op::LogicalOr, Op::LogicalEqual,
      Op::LogicalNotEqual, Op::Ordered, Op::Unordered}, kCompare},
    {{Op::Bitcast, Op::ConvertFToS, Op::ConvertFToU, Op::ConvertSToF, Op::ConvertUToF,
      Op::FConvert, Op::SConvert, Op::UConvert, Op::GenericCastToPtr,
      Op::PtrCastToGeneric}, kConvert},
    {{Op::GenericCastToPtrExplicit}, kConvert},
    {{Op::ConvertPtrToU, Op::ConvertUToPtr, Op::ConvertBF16ToFINTEL, Op::ConvertFToBF16INTEL},
     kConvert, true},
    {{Op::IAddCarry, Op::ISubBorrow, Op::SMulExtended, Op::UMulExtended}, kResultStruct},
    {{Op::AtomicAnd, Op::AtomicIAdd, Op::AtomicIDecrement, Op::AtomicIIncrement, Op::AtomicISub,
      Op::AtomicOr, Op::AtomicSMax, Op::AtomicSMin, Op::AtomicUMax, Op::AtomicUMin,
      Op::AtomicXor, Op::AtomicExchange, Op::AtomicFAddEXT}, kAtomic, false, false, false, true},
    {{Op::AtomicCompareExchange, Op::AtomicCompareExchangeWeak}, kAtomicCompare, false, false,
     false, true},
    {{Op::GroupNonUniformBroadcast, Op::GroupNonUniformShuffle, Op::GroupNonUniformShuffleDown,
      Op::GroupNonUniformShuffleUp, Op::GroupNonUniformShuffleXor, Op::GroupBroadcast},
     kGroupScoped},
    {{Op::GroupNonUniformElect}, kElect},
    {{Op::GroupNonUniformBallot}, kBallot},
    {{Op::SubgroupBallotKHR}, kPlainBallot},
    {{Op::GroupNonUniformFAdd, Op::GroupNonUniformFMax, Op::GroupNonUniformFMin,
      Op::GroupNonUniformFMul, Op::GroupNonUniformIAdd, Op::GroupNonUniformIMul,
      Op::GroupNonUniformSMax, Op::GroupNonUniformSMin, Op::GroupNonUniformUMax,
      Op::GroupNonUniformUMin}, kGroupArith},
    {{Op::GroupNonUniformBitwiseAnd, Op::GroupNonUniformBitwiseOr, Op::GroupNonUniformBitwiseXor,
      Op::GroupNonUniformLogicalAnd, Op::GroupNonUniformLogicalOr,
      Op::GroupNonUniformLogicalXor}, kGroupArith, true},
    {{Op::GroupIAdd, Op::GroupFAdd, Op::GroupFMin, Op::GroupUMin, Op::GroupSMin, Op::GroupFMax,
      Op::GroupUMax, Op::GroupSMax, Op::GroupIMulKHR, Op::GroupFMulKHR}, kGroupReduce},
    {{Op::ControlBarrier}, kControlBarrier},
    {{Op::MemoryBarrier}, kMemoryBarrier},
    {{Op::Select}, kSelect},
    {{Op::ShiftLeftLogical, Op::ShiftRightArithmetic, Op::ShiftRightLogical}, kTwoTypes},
    {{Op::MatrixTimesScalar}, kTwoTypes, false, true},
    {{Op::BitFieldInsert}, kBitFieldInsert},
    {{Op::BitFieldSExtract, Op::BitFieldUExtract}, kBitFieldExtract},
    {{Op::VectorTimesScalar, Op::CompositeConstruct, Op::SDot, Op::UDot, Op::SUDot,
      Op::SDotAccSat, Op::UDotAccSat, Op::SUDotAccSat}, kToResult},
    {{Op::MatrixTimesMatrix}, kTwoToResult},
    {{Op::Transpose}, kOneToResult},
    {{Op::Dot}, kSameToResult, true},
    {{CL::printf}, kPrintf, true},
    {{GL::FrexpStruct, Op::ImageQuerySize}, kTyped1},
    {{GL::Ldexp}, kTyped2},
    {{GL::FMix}, kTyped3},
    {{Op::Undef}, kUndef},
    {{Op::Return, Op::Unreachable, D::Merge}, kNoOperands},
    // MLIR 16 has none of these (mlir-translate-16: "unhandled opcode").
    {{Op::Kill, Op::EmitVertex, Op::EndPrimitive}, kNoOperands, true},
    {{Op::ExpectKHR}, kBinary, true},
    {{Op::SetMeshOutputsEXT}, kTwoOperands, true},
    {{Op::EmitMeshTasksEXT}, kOperandsOwnTypes, true},
    {{Op::ReturnValue, D::Yield}, kReturnValue},
    {{Op::VectorExtractDynamic}, kExtractDynamic},
    {{Op::VectorInsertDynamic}, kInsertDynamic},
    {{Op::VectorShuffle}, kShuffle},
    {{Op::CompositeExtract}, kExtract},
    {{Op::CompositeInsert}, kInsert},
    // Today's MLIR writes `-> R` after an access chain too; spire reads it, and prints MLIR 16's
    // form (the result type inferred).
    {{Op::AccessChain, Op::PtrAccessChain, Op::InBoundsPtrAccessChain}, kAccessChain, false,
     false, true},
    {{D::AddressOf}, kAddressOf},
    {{D::ReferenceOf}, kReferenceOf},
    {{Op::Image}, kImage},
    {{Op::AssumeTrueKHR}, kAssume},
    {{Op::SubgroupBlockReadINTEL}, kBlockRead},
    {{Op::SubgroupBlockWriteINTEL}, kBlockWrite},
    {{Op::CooperativeMatrixLengthNV, Op::CooperativeMatrixLengthKHR}, kCoopLength},
    {{Op::CooperativeMatrixLoadNV}, kCoopLoadNV},
    {{Op::CooperativeMatrixStoreNV}, kCoopStoreNV},
    {{Op::CooperativeMatrixMulAddNV}, kMulAddNV},
    {{Op::CooperativeMatrixLoadKHR}, kCoopLoadKHR, true},
    {{Op::CooperativeMatrixStoreKHR}, kCoopStoreKHR, true},
    {{Op::CooperativeMatrixMulAddKHR}, kMulAddKHR, true},
    {{Op::JointMatrixLoadINTEL}, kJointLoad},
    {{Op::JointMatrixStoreINTEL}, kJointStore},
    {{Op::JointMatrixMadINTEL}, kJointMad},
    {{Op::JointMatrixWorkItemLengthINTEL}, kJointLength},
    // SPV_ARM_graph: the outputs, a graph constant.
    {{D::GraphOutputs}, kOperandsOwnTypes, true},
    {{Op::GraphConstantARM}, kUndef, true},
};

/// The ops whose syntax no format can say, with their hooks. A hook without `print` reads an op
/// that its format prints (older spellings the format cannot say as well).
struct Hooks {
  OpKey op;
  PrintHook print;
  ParseHook parse;
  bool printsName = false;
  bool newer = false; ///< MLIR 16 prints the op in generic form
};
const Hooks kHooks[] = {
    {D::Module, syntax::printModule, syntax::parseModule},
    {D::Func, syntax::printFunc, syntax::parseFunc},
    {D::GlobalVariable, syntax::printGlobalVariable, syntax::parseGlobalVariable},
    {D::SpecConstant, syntax::printSpecConstant, syntax::parseSpecConstant},
    {D::SpecConstantComposite, syntax::printSpecConstantComposite,
     syntax::parseSpecConstantComposite},
    {D::SpecConstantOperation, syntax::printSpecConstantOperation,
     syntax::parseSpecConstantOperation},
    {D::EntryPoint, syntax::printEntryPoint, syntax::parseEntryPoint},
    {D::ExecutionMode, syntax::printExecutionMode, syntax::parseExecutionMode, true},
    {D::Constant, syntax::printConstant, syntax::parseConstant},
    {D::Selection, syntax::printConstruct, syntax::parseConstruct},
    {D::Loop, syntax::printConstruct, syntax::parseConstruct},
    {Op::Load, syntax::printLoadStore, syntax::parseLoadStore},
    {Op::Store, syntax::printLoadStore, syntax::parseLoadStore},
    {Op::Variable, syntax::printVariable, syntax::parseVariable},
    {Op::CopyMemory, syntax::printCopyMemory, syntax::parseCopyMemory},
    {Op::FunctionCall, syntax::printFunctionCall, syntax::parseFunctionCall},
    {Op::Branch, syntax::printBranch, syntax::parseBranch},
    {Op::BranchConditional, syntax::printBranchConditional, syntax::parseBranchConditional},
    // MLIR 16 has no custom form of spirv.Switch.
    {Op::Switch, syntax::printSwitch, syntax::parseSwitch, false, true},
    {Op::ImageDrefGather, syntax::printImageDrefGather, syntax::parseImageDrefGather},
    {D::BuiltinModule, syntax::printBuiltinModule, syntax::parseBuiltinModule, true},
    {D::FuncFunc, syntax::printFuncFunc, syntax::parseFuncFunc, true},
    {D::FuncReturn, syntax::printFuncReturn, syntax::parseFuncReturn, true},
    {D::FuncCall, syntax::printFuncCall, syntax::parseFuncCall, true},
    {D::GpuModule, syntax::printGpuModule, syntax::parseGpuModule, true},
    {D::Graph, syntax::printGraph, syntax::parseGraph, false, true},
    {D::GraphEntryPoint, syntax::printGraphEntryPoint, syntax::parseGraphEntryPoint, false, true},
    {D::ExperimentalMlCall, syntax::printExperimentalMlCall, syntax::parseExperimentalMlCall, false,
     true},
    {D::ArithConstant, syntax::printArithConstant, syntax::parseArithConstant},
    {D::NonSemanticGlobal, syntax::printNonSemanticGlobal, syntax::parseNonSemanticGlobal, false,
     true},
    {D::NonSemantic, syntax::printNonSemantic, syntax::parseNonSemantic, false, true},
    {Op::SubgroupBlockReadINTEL, nullptr, syntax::parseBlockReadWrite},
    {Op::SubgroupBlockWriteINTEL, nullptr, syntax::parseBlockReadWrite},
};
// clang-format on

} // namespace

namespace detail {

void attachSyntax(const OpRecords &records) {
  OverlayStore &store = records.store();
  for (const Declaration &d : kFormats)
    for (OpKey key : d.ops) {
      OpInfo *info = records.find(key);
      if (!info)
        continue; // an instruction of a newer grammar
      OpSyntax &s = store.syntaxes.emplace_back();
      s.declaration = &d;
      s.infer = d.format.infer;
      s.newerThanMlir16 = d.newer;
      info->syntax = &s;
    }
  for (const Hooks &h : kHooks)
    if (OpInfo *info = records.find(h.op)) {
      OpSyntax &s = store.syntaxes.emplace_back();
      s.parse = h.parse;
      if (!h.print && info->syntax) {
        // The format prints; the hook reads.
        s.declaration = info->syntax->declaration;
        s.infer = info->syntax->infer;
        s.newerThanMlir16 = info->syntax->newerThanMlir16;
        info->syntax = &s;
        continue;
      }
      s.print = h.print;
      s.printsName = h.printsName;
      s.newerThanMlir16 = h.newer;
      info->syntax = &s;
    }
}

namespace {

/// Compiles the declaration of `s` for the op of `info` into `out`.
bool compileDeclaration(const OpInfo &info, const Declaration &d, OpFormat &out,
                        std::string &problem) {
  if (!compileFormat(info, d.format.format, d.format.signature, d.format.infer != nullptr, out,
                     problem))
    return false;
  out.infer = d.format.infer;
  out.resultArrow = d.resultArrow || d.readsArrowOnly;
  out.printsArrow = d.resultArrow;
  out.quotedInMlir16 = d.quotedInMlir16;
  out.parseCheckedOperand = d.parseCheckedOperand;
  return true;
}

} // namespace

std::string formatProblem(const OpInfo &info) {
  if (!info.syntax || !info.syntax->declaration)
    return {};
  OpFormat format;
  std::string problem;
  return compileDeclaration(info, *info.syntax->declaration, format, problem) ? std::string()
                                                                              : problem;
}

} // namespace detail

const OpFormat *OpSyntax::compile(const OpInfo &info) const {
  // Ops print and parse on several threads at once (spire run -j): one compiles at a time, and
  // the formats, like the registry, live to the end of the process.
  static std::mutex mutex;
  static std::deque<OpFormat> &formats = *new std::deque<OpFormat>;
  const std::lock_guard<std::mutex> lock(mutex);
  if (const OpFormat *f = compiled_.load(std::memory_order_relaxed))
    return f;
  OpFormat &format = formats.emplace_back();
  std::string problem;
  if (!detail::compileDeclaration(info, *declaration, format, problem)) {
    formats.pop_back();
    return nullptr;
  }
  compiled_.store(&format, std::memory_order_release);
  return &format;
}

} // namespace spire::dialect
