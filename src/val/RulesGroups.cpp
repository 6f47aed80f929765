// Rules: group and non-uniform instructions (SPIR-V 3.32.21, 3.32.24).
//
// - Kernel group instructions: OpGroupAll / Any give a boolean from a boolean predicate,
//   OpGroupBroadcast a value of its operand's type (a scalar or vector) from a local id of one to
//   three integers, the group operations (with the KHR multiplications, bitwise and logical ones)
//   a value of their operand's type and of their kind. OpenCL limits their scope to Workgroup or
//   Subgroup.
// - The execution scope of a non-uniform instruction "must be Subgroup" (3.32.24; Vulkan's
//   VUID-StandaloneSpirv-None-04642 says the same); OpGroupNonUniformRotateKHR also takes
//   Workgroup outside Vulkan.
// - Elect, All, Any and AllEqual give a boolean; Ballot gives a four-component vector of 32-bit
//   integers from a boolean predicate, which InverseBallot, BallotBitExtract, BallotBitCount and
//   BallotFindLSB / MSB read.
// - Broadcasts, shuffles, quad operations and reductions give a value of their operand's type;
//   the reductions' kind (integer, float, boolean) is the instruction's, and ClusteredReduce names
//   a constant cluster size that is a power of two; the partitioned ones of
//   SPV_NV_shader_subgroup_partitioned name a ballot (a four-component integer vector) in its
//   place.
// - The KHR subgroup instructions (ballot, votes, first invocation, read invocation, rotate) and
//   the AMD non-uniform group operations (as the kernel group operations they mirror).
// - OpGroupAsyncCopy copies between pointers to the same numbers, one in Workgroup and one in
//   CrossWorkgroup, counts as wide as the addressing model, and gives an event;
//   OpGroupWaitEvents waits on a pointer to events, a 32-bit count of them.
#include "OperandCheck.h"
#include "Rules.h"
#include "spire/module/Opcodes.h"

namespace spire::val {

namespace {

constexpr const char *kRule = "3.32.24";
constexpr uint32_t kScopeWorkgroup = uint32_t(grammar::Scope::Workgroup),
                   kScopeSubgroup = uint32_t(grammar::Scope::Subgroup);
constexpr uint32_t kGroupOperationClusteredReduce =
    uint32_t(grammar::GroupOperation::ClusteredReduce);

bool isPartitioned(uint32_t operation) {
  using G = grammar::GroupOperation;
  return operation == uint32_t(G::PartitionedReduceNV) ||
         operation == uint32_t(G::PartitionedInclusiveScanNV) ||
         operation == uint32_t(G::PartitionedExclusiveScanNV);
}

enum : uint32_t {
  kElect = 333,
  kAll = 334,
  kAny = 335,
  kAllEqual = 336,
  kBroadcast = 337,
  kBroadcastFirst = 338,
  kBallot = 339,
  kInverseBallot = 340,
  kBallotBitExtract = 341,
  kBallotBitCount = 342,
  kBallotFindLSB = 343,
  kBallotFindMSB = 344,
  kShuffle = 345,
  kShuffleXor = 346,
  kShuffleDown = 348,
  kIAdd = 349,
  kLogicalXor = 364,
  kQuadBroadcast = 365,
  kQuadSwap = 366,
};

enum : uint32_t {
  kGroupAsyncCopy = uint32_t(grammar::Op::GroupAsyncCopy),
  kGroupWaitEvents = uint32_t(grammar::Op::GroupWaitEvents),
  kGroupAll = uint32_t(grammar::Op::GroupAll),
  kGroupAny = uint32_t(grammar::Op::GroupAny),
  kGroupBroadcast = uint32_t(grammar::Op::GroupBroadcast),
  kGroupSMax = uint32_t(grammar::Op::GroupSMax),
  kGroupIMulKHR = uint32_t(grammar::Op::GroupIMulKHR),
  kGroupFMulKHR = uint32_t(grammar::Op::GroupFMulKHR),
  kGroupLogicalAndKHR = uint32_t(grammar::Op::GroupLogicalAndKHR),
  kGroupLogicalXorKHR = uint32_t(grammar::Op::GroupLogicalXorKHR),
};

enum : uint32_t {
  kSubgroupBallotKHR = uint32_t(grammar::Op::SubgroupBallotKHR),
  kSubgroupFirstInvocationKHR = uint32_t(grammar::Op::SubgroupFirstInvocationKHR),
  kSubgroupAllKHR = uint32_t(grammar::Op::SubgroupAllKHR),
  kSubgroupAnyKHR = uint32_t(grammar::Op::SubgroupAnyKHR),
  kSubgroupAllEqualKHR = uint32_t(grammar::Op::SubgroupAllEqualKHR),
  kGroupNonUniformRotateKHR = uint32_t(grammar::Op::GroupNonUniformRotateKHR),
  kSubgroupReadInvocationKHR = uint32_t(grammar::Op::SubgroupReadInvocationKHR),
  kGroupIAddNonUniformAMD = uint32_t(grammar::Op::GroupIAddNonUniformAMD),
  kGroupSMaxNonUniformAMD = uint32_t(grammar::Op::GroupSMaxNonUniformAMD),
};

enum class Kind { Int, Float, Bool };

// The kind of value an OpGroup<Operation> (3.32.21, SPV_KHR_uniform_group_instructions) reduces.
Kind kernelGroupKind(uint32_t op) {
  switch (op) {
  case uint32_t(grammar::Op::GroupFAdd):
  case uint32_t(grammar::Op::GroupFMin):
  case uint32_t(grammar::Op::GroupFMax):
  case kGroupFMulKHR:
  case uint32_t(grammar::Op::GroupFAddNonUniformAMD):
  case uint32_t(grammar::Op::GroupFMinNonUniformAMD):
  case uint32_t(grammar::Op::GroupFMaxNonUniformAMD):
    return Kind::Float;
  default:
    return op >= kGroupLogicalAndKHR && op <= kGroupLogicalXorKHR ? Kind::Bool : Kind::Int;
  }
}

const char *kindText(Kind kind) {
  return kind == Kind::Int ? "n integer" : kind == Kind::Float ? " floating-point" : " boolean";
}

Kind reductionKind(uint32_t op) {
  switch (op) {
  case uint32_t(grammar::Op::GroupNonUniformFAdd):
  case uint32_t(grammar::Op::GroupNonUniformFMul):
  case uint32_t(grammar::Op::GroupNonUniformFMin):
  case uint32_t(grammar::Op::GroupNonUniformFMax):
    return Kind::Float;
  case uint32_t(grammar::Op::GroupNonUniformLogicalAnd):
  case uint32_t(grammar::Op::GroupNonUniformLogicalOr):
  case uint32_t(grammar::Op::GroupNonUniformLogicalXor):
    return Kind::Bool;
  default:
    return Kind::Int;
  }
}

class GroupsChecker {
public:
  explicit GroupsChecker(State &s) : s_(s) {}

  void run() {
    for (Instruction inst : s_.module()) {
      if (s_.stopped())
        return;
      const uint32_t op = static_cast<uint32_t>(inst.opcode());
      if (inst.isRaw() || inst.wordCount() < 4)
        continue;
      if (op >= kElect && op <= kQuadSwap)
        check(inst, op);
      else if ((op >= kGroupAll && op <= kGroupSMax) ||
               (op >= kGroupIMulKHR && op <= kGroupLogicalXorKHR) ||
               (op >= kGroupIAddNonUniformAMD && op <= kGroupSMaxNonUniformAMD))
        kernelGroup(inst, op);
      else if (op >= kSubgroupBallotKHR && op <= kSubgroupReadInvocationKHR)
        subgroupKHR(inst, op);
      else if (op == kGroupAsyncCopy)
        asyncCopy(inst);
      else if (op == kGroupWaitEvents)
        waitEvents(inst);
    }
  }

private:
  void check(const Instruction &inst, uint32_t op) {
    // %r = OpGroupNonUniformXxx %type %scope ...
    const uint32_t scope = inst.word(3);
    if (s_.defOpcode(scope) == Op::Constant) {
      if (std::optional<uint64_t> v = s_.constantValue(scope)) {
        if (*v != kScopeSubgroup)
          s_.error(inst.index(), s_.isVulkan() ? "VUID-StandaloneSpirv-None-04642" : kRule,
                   "the execution scope of a non-uniform instruction must be Subgroup");
      }
    }
    const uint32_t result = inst.typeId();
    switch (op) {
    case kElect:
    case kAll:
    case kAny:
    case kAllEqual:
      if (!s_.isBoolType(result))
        s_.error(inst.index(), kRule, "the result type must be a boolean scalar");
      if ((op == kAll || op == kAny) && inst.wordCount() >= 5 &&
          !s_.isBoolType(s_.typeOf(inst.word(4))))
        s_.error(inst.index(), kRule, "the predicate must be a boolean scalar");
      if (op == kAllEqual && inst.wordCount() >= 5) {
        const uint32_t t = s_.typeOf(inst.word(4));
        if (t != 0 && !s_.isScalarType(t) && !s_.isVectorType(t))
          s_.error(inst.index(), kRule,
                   "the value must be a scalar or vector of floating-point, integer or boolean "
                   "type");
      }
      return;
    case kBallot:
      // "a vector of four components of integer type scalar, whose Width operand is 32 and
      // whose Signedness operand is 0".
      if (!s_.isVectorType(result) || s_.componentCount(result) != 4 ||
          !s_.isIntType(s_.componentType(result)) || s_.bitWidth(result) != 32 ||
          s_.isSignedInt(result))
        s_.error(inst.index(), kRule,
                 "the result of a ballot must be a vector of four 32-bit unsigned integers");
      if (inst.wordCount() >= 5 && !s_.isBoolType(s_.typeOf(inst.word(4))))
        s_.error(inst.index(), kRule, "the predicate must be a boolean scalar");
      return;
    case kInverseBallot:
    case kBallotBitExtract:
    case kBallotBitCount:
    case kBallotFindLSB:
    case kBallotFindMSB: {
      // %r = OpGroupNonUniform<Ballot use> %type %scope [GroupOperation] %value [%index]: "Value
      // must be a vector of four components of integer type scalar, whose Width operand is 32
      // and whose Signedness operand is 0"; InverseBallot and BitExtract give a boolean scalar,
      // the count and finds "a scalar of integer type, whose Signedness operand is 0", and
      // BitExtract's Index is one too.
      const bool givesInt = op == kBallotBitCount || op == kBallotFindLSB || op == kBallotFindMSB;
      if (givesInt ? !s_.isIntType(result) : !s_.isBoolType(result)) {
        s_.error(inst.index(), kRule,
                 std::string("the result type must be ") +
                     (givesInt ? "an integer scalar" : "a boolean scalar"));
        return;
      }
      if (givesInt && s_.isSignedInt(result)) {
        s_.error(inst.index(), kRule,
                 "the result type of " + State::opcodeName(inst.opcode()) +
                     " must be an unsigned integer scalar (Signedness 0)");
        return;
      }
      const uint32_t valueWord = op == kBallotBitCount ? 5 : 4;
      if (inst.wordCount() <= valueWord)
        return;
      const uint32_t value = s_.typeOf(inst.word(valueWord));
      if (value != 0 && (!s_.isVectorType(value) || s_.componentCount(value) != 4 ||
                         !s_.isIntScalarOrVector(value) || s_.bitWidth(value) != 32)) {
        s_.error(inst.index(), kRule,
                 "Value " + s_.name(inst.word(valueWord)) +
                     " must be a ballot: a vector of four 32-bit integers");
        return;
      }
      if (value != 0 && s_.isSignedInt(value)) {
        s_.error(inst.index(), kRule,
                 "the ballot " + s_.name(inst.word(valueWord)) + " of " +
                     State::opcodeName(inst.opcode()) +
                     " must be of unsigned integers (Signedness 0)");
        return;
      }
      if (op == kBallotBitExtract && inst.wordCount() > 5) {
        const uint32_t index = s_.typeOf(inst.word(5));
        if (index != 0 && (!s_.isIntType(index) || s_.isSignedInt(index)))
          s_.error(inst.index(), kRule,
                   "Index " + s_.name(inst.word(5)) +
                       " must be an unsigned integer scalar (Signedness 0)");
      }
      return;
    }
    default:
      break;
    }
    const bool sameAsValue = op == kBroadcast || op == kBroadcastFirst ||
                             (op >= kShuffle && op <= kShuffleDown) || op == kQuadBroadcast ||
                             op == kQuadSwap;
    if (sameAsValue) {
      if (inst.wordCount() >= 5)
        sameType(inst, inst.word(4), result);
      if (op != kBroadcastFirst && inst.wordCount() >= 6)
        laneOperand(inst, op);
      return;
    }
    if (op < kIAdd || op > kLogicalXor || inst.wordCount() < 6)
      return;
    // %r = OpGroupNonUniform<Reduction> %type %scope GroupOperation %value [%clusterSize]
    const Kind kind = reductionKind(op);
    const bool ok = kind == Kind::Int     ? s_.isIntScalarOrVector(result)
                    : kind == Kind::Float ? s_.isFloatScalarOrVector(result)
                                          : s_.isBoolScalarOrVector(result);
    if (!ok || !scalarOrVector(result)) {
      s_.error(inst.index(), kRule,
               std::string("the result type must be a") + kindText(kind) + " scalar or vector");
      return;
    }
    // "The type of Value must be the same as Result Type", signedness included (spirv-val 2023.1
    // let integer reductions mix it; v2026.4 does not).
    sameType(inst, inst.word(5), result);
    if (isPartitioned(inst.word(4))) {
      // SPV_NV_shader_subgroup_partitioned: the operand after Value is the ballot of the
      // invocation's partition (what OpGroupNonUniformPartitionNV gives), a four-component
      // integer vector, and it must be there (spirv-val 2026.4 asks no width either).
      if (inst.wordCount() < 7) {
        s_.error(inst.index(), kRule, "a partitioned group operation needs its ballot operand");
        return;
      }
      const uint32_t type = s_.typeOf(inst.word(6));
      if (type != 0 && (!s_.isVectorType(type) || !s_.isIntType(s_.componentType(type)) ||
                        s_.componentCount(type) != 4))
        s_.error(inst.index(), kRule,
                 "the ballot " + s_.name(inst.word(6)) +
                     " of a partitioned group operation must be a four-component integer "
                     "vector, not of type " +
                     s_.name(type));
      return;
    }
    if (inst.word(4) == kGroupOperationClusteredReduce) {
      if (inst.wordCount() < 7) {
        s_.error(inst.index(), kRule, "ClusteredReduce needs a ClusterSize operand");
        return;
      }
      const uint32_t size = inst.word(6);
      std::optional<uint64_t> v =
          s_.defOpcode(size) == Op::Constant ? s_.constantValue(size) : std::nullopt;
      if (!v)
        s_.error(inst.index(), kRule, "ClusterSize must be an integer constant");
      else if (*v == 0 || (*v & (*v - 1)) != 0)
        s_.error(inst.index(), kRule,
                 "ClusterSize must be a power of two, not " + std::to_string(*v));
    }
  }

  // The Id of OpGroupNonUniformBroadcast and OpGroupNonUniformShuffle, the Mask, Delta, Index or
  // Direction of the others (3.32.24): "a scalar of integer type, whose Signedness operand is 0"
  // (spirv-val 2023.1 let signed ones through, v2026.4 does not). Before SPIR-V 1.5 the Id and
  // Index of the broadcasts come from a constant instruction, and QuadSwap's Direction always does
  // (OpenCL compilers emit SPIR-V 1.3 kernels that broadcast from a computed lane, clspv and
  // llvm-spirv: spirv-val 2023.1 accepted them, v2026.4 rejects them, as the text does).
  void laneOperand(const Instruction &inst, uint32_t op) {
    const uint32_t lane = inst.word(5), type = s_.typeOf(lane);
    const std::string what = op == kBroadcast || op == kShuffle ? "Id"
                             : op == kShuffleXor                ? "Mask"
                             : op == kQuadBroadcast             ? "Index"
                             : op == kQuadSwap                  ? "Direction"
                                                                : "Delta";
    if (type != 0 && (!s_.isIntType(type) || s_.isSignedInt(type)))
      s_.error(inst.index(), kRule,
               "the " + what + " " + s_.name(lane) +
                   " must be an unsigned integer scalar (Signedness 0), not of type " +
                   s_.name(type));
    const bool constantNeeded = op == kQuadSwap || ((op == kBroadcast || op == kQuadBroadcast) &&
                                                    s_.module().version() < 0x00010500u);
    if (!constantNeeded || isConstantCreation(s_.defOpcode(lane)))
      return;
    if (op == kQuadSwap)
      s_.error(inst.index(), kRule,
               "the Direction " + s_.name(lane) + " must come from a constant instruction");
    else
      s_.error(inst.index(), kRule,
               "the " + what + " " + s_.name(lane) +
                   " must come from a constant instruction before SPIR-V 1.5");
  }

  bool scalarOrVector(uint32_t type) const {
    return s_.isScalarType(type) || s_.isVectorType(type);
  }

  bool ofKind(uint32_t type, Kind kind) const {
    if (!scalarOrVector(type))
      return false;
    return kind == Kind::Int     ? s_.isIntScalarOrVector(type)
           : kind == Kind::Float ? s_.isFloatScalarOrVector(type)
                                 : s_.isBoolScalarOrVector(type);
  }

  // The group instructions of kernels (3.32.21): %r = OpGroupAll / Any %type %scope %predicate,
  // OpGroupBroadcast %type %scope %value %localId, OpGroup<Operation> %type %scope Operation %x.
  // SPV_KHR_shader_ballot, SPV_KHR_subgroup_vote and SPV_KHR_subgroup_rotate: OpSubgroupBallotKHR
  // gives four 32-bit integers from a boolean predicate, the votes a boolean (All and Any from a
  // boolean predicate), OpSubgroupFirstInvocationKHR and OpSubgroupReadInvocationKHR (from a
  // 32-bit integer index) a value of their operand's type; OpGroupNonUniformRotateKHR a scalar
  // or vector of its Value's type, rotated by an unsigned integer scalar Delta.
  void subgroupKHR(const Instruction &inst, uint32_t op) {
    const bool vote = op >= kSubgroupAllKHR && op <= kSubgroupAllEqualKHR;
    OperandCheck c(s_, inst, vote ? "SPV_KHR_subgroup_vote" : "SPV_KHR_shader_ballot");
    const uint32_t result = inst.typeId();
    auto boolean = [&](uint32_t t) { return s_.isBoolType(t); };
    switch (op) {
    case kSubgroupBallotKHR:
      c.result("a vector of four 32-bit integers",
               [&](uint32_t t) { return c.intVector(t, 4, 32); }) &&
          c.operand(3, "Predicate", "a boolean scalar", boolean);
      break;
    case kSubgroupAllKHR:
    case kSubgroupAnyKHR:
      c.resultBool() && c.operand(3, "Predicate", "a boolean scalar", boolean);
      break;
    case kSubgroupAllEqualKHR:
      c.resultBool() && c.operand(3, "Value", "a scalar or vector of integers, floats or booleans",
                                  [&](uint32_t t) { return scalarOrVector(t); });
      break;
    case kSubgroupFirstInvocationKHR:
    case kSubgroupReadInvocationKHR:
      c.operand(
          3, "Value", [&] { return "of the result type " + s_.name(result); },
          [&](uint32_t t) { return t == result; }) &&
          (op == kSubgroupFirstInvocationKHR || c.int32(4, "Index"));
      break;
    case kGroupNonUniformRotateKHR: {
      // %r = OpGroupNonUniformRotateKHR %type %scope %value %delta [%clusterSize]
      OperandCheck rotate(s_, inst, "SPV_KHR_subgroup_rotate");
      rotate.result("a scalar or vector of integers, floats or booleans",
                    [&](uint32_t t) { return scalarOrVector(t); }) &&
          rotate.operand(4, "Value", "of the result type " + s_.name(result),
                         [&](uint32_t t) { return t == result; }) &&
          rotate.operand(5, "Delta", "an unsigned integer scalar",
                         [&](uint32_t t) { return rotate.intScalar(t) && !s_.isSignedInt(t); }) &&
          rotate.operand(6, "ClusterSize", "an unsigned integer scalar",
                         [&](uint32_t t) { return rotate.intScalar(t) && !s_.isSignedInt(t); });
      break;
    }
    default:
      break;
    }
  }

  void kernelGroup(const Instruction &inst, uint32_t op) {
    const char *rule = "3.32.21";
    const uint32_t scope = inst.word(3);
    if (s_.isOpenCL() && s_.defOpcode(scope) == Op::Constant) {
      std::optional<uint64_t> v = s_.constantValue(scope);
      if (v && *v != kScopeWorkgroup && *v != kScopeSubgroup)
        s_.error(inst.index(), "OpenCL env 2.2",
                 "the execution scope of a group instruction is Workgroup or Subgroup");
    }
    const uint32_t result = inst.typeId();
    const std::string name = State::opcodeName(inst.opcode());
    if (op == kGroupAll || op == kGroupAny) {
      if (!s_.isBoolType(result))
        s_.error(inst.index(), rule, name + " gives a boolean scalar");
      else if (inst.wordCount() >= 5 && s_.typeOf(inst.word(4)) != 0 &&
               !s_.isBoolType(s_.typeOf(inst.word(4))))
        s_.error(inst.index(), rule, "the predicate of " + name + " must be a boolean scalar");
      return;
    }
    if (op == kGroupBroadcast) {
      if (!scalarOrVector(result)) {
        s_.error(inst.index(), rule,
                 "OpGroupBroadcast gives a scalar or vector of integers, floats or booleans");
        return;
      }
      if (inst.wordCount() < 6)
        return;
      sameType(inst, inst.word(4), result, rule);
      const uint32_t id = s_.typeOf(inst.word(5));
      const uint32_t n = s_.componentCount(id);
      if (id != 0 && (!s_.isIntScalarOrVector(id) || !scalarOrVector(id) || n == 4))
        s_.error(inst.index(), rule,
                 "the LocalId of OpGroupBroadcast must be an integer scalar or a vector of two "
                 "or three integers");
      return;
    }
    const Kind kind = kernelGroupKind(op);
    if (!ofKind(result, kind)) {
      s_.error(inst.index(), rule,
               name + " gives a" + kindText(kind) + " scalar or vector, not " + s_.name(result));
      return;
    }
    if (inst.wordCount() >= 6)
      sameType(inst, inst.word(5), result, rule);
  }

  // %r = OpGroupAsyncCopy %event %scope %destination %source %numElements %stride %event:
  // pointers to the same scalar or vector of integers or floats, one in Workgroup and the other
  // in CrossWorkgroup; counts of the addressing model's width (32 bits for Physical32, 64 for
  // Physical64); an event in and out.
  void asyncCopy(const Instruction &inst) {
    constexpr uint32_t kWorkgroup = uint32_t(grammar::StorageClass::Workgroup),
                       kCrossWorkgroup = uint32_t(grammar::StorageClass::CrossWorkgroup),
                       kPhysical32 = uint32_t(grammar::AddressingModel::Physical32),
                       kPhysical64 = uint32_t(grammar::AddressingModel::Physical64);
    OperandCheck c(s_, inst, "3.32.21");
    auto numbers = [&](uint32_t t) {
      return scalarOrVector(t) && (s_.isIntScalarOrVector(t) || s_.isFloatScalarOrVector(t));
    };
    const uint32_t model = s_.addressingModel();
    const uint32_t width = model == kPhysical32 ? 32 : model == kPhysical64 ? 64 : 0;
    auto count = [&](uint32_t t) { return c.intScalar(t, width); };
    const std::string countShape =
        width == 0 ? "an integer scalar" : "a " + std::to_string(width) + "-bit integer scalar";
    if (!c.resultOfType(Op::TypeEvent) ||
        !c.operand(4, "Destination",
                   "a pointer in Workgroup or CrossWorkgroup to a scalar or vector of integers "
                   "or floats",
                   [&](uint32_t t) {
                     return s_.isPointerType(t) && numbers(s_.pointeeType(t)) &&
                            (s_.storageClass(t) == kWorkgroup ||
                             s_.storageClass(t) == kCrossWorkgroup);
                   }) ||
        !c.operand(5, "Source", "a pointer to the Destination's type in the other storage class",
                   [&](uint32_t t) {
                     const uint32_t d = c.type(4);
                     return s_.isPointerType(t) && s_.pointeeType(t) == s_.pointeeType(d) &&
                            s_.storageClass(t) ==
                                (s_.storageClass(d) == kWorkgroup ? kCrossWorkgroup : kWorkgroup);
                   }) ||
        !c.operand(6, "Num Elements", countShape, count) ||
        !c.operand(7, "Stride", countShape, count))
      return;
    c.operand(8, "Event", "of type OpTypeEvent",
              [&](uint32_t t) { return s_.defOpcode(t) == Op::TypeEvent; });
  }

  // OpGroupWaitEvents %scope %numEvents %eventsList: a 32-bit integer count and a pointer to
  // events.
  void waitEvents(const Instruction &inst) {
    OperandCheck c(s_, inst, "3.32.21");
    c.int32(2, "Num Events") &&
        c.operand(3, "Events List", "a pointer to OpTypeEvent",
                  [&](uint32_t t) { return c.pointerTo(t, Op::TypeEvent); });
  }

  void sameType(const Instruction &inst, uint32_t value, uint32_t want, const char *rule = kRule) {
    const uint32_t t = s_.typeOf(value);
    if (t != 0 && want != 0 && t != want)
      s_.error(inst.index(), rule,
               "the operand " + s_.name(value) + " has type " + s_.name(t) +
                   ", not the result type " + s_.name(want));
  }

  State &s_;
};

} // namespace

void checkGroups(State &s) { GroupsChecker(s).run(); }

} // namespace spire::val
