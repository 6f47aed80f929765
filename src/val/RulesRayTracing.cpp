// Rules: the instructions of SPV_KHR_ray_tracing and SPV_KHR_ray_query (operand and result
// types; the execution models that may trace rays, call callables and report intersections are
// RulesModes').
//
// - OpTraceRayKHR and OpRayQueryInitializeKHR: an acceleration structure, 32-bit integer ray flags,
//   cull mask and shader binding table operands, 32-bit float three-component origin and direction
//   and scalar Tmin and Tmax; a trace's payload is an OpVariable in RayPayloadKHR or
//   IncomingRayPayloadKHR.
// - OpExecuteCallableKHR: a 32-bit unsigned shader binding table index and an OpVariable in
//   CallableDataKHR or IncomingCallableDataKHR. OpReportIntersectionKHR: a boolean from a 32-bit
//   float hit and a 32-bit unsigned hit kind. OpConvertUToAccelerationStructureKHR: an acceleration
//   structure from a 64-bit unsigned integer or two 32-bit unsigned integers.
// - OpRayQuery*: the ray query operand is a pointer to OpTypeRayQueryKHR, the Intersection operand
//   a 32-bit integer constant; each query gives the type its description names (booleans, 32-bit
//   integers and floats, two- and three-component float vectors, 4x3 float matrices).
// - Ray queries live in Private or Function variables and are not loaded, stored or copied
//   (SPV_KHR_ray_query's additions to OpTypePointer, OpLoad, OpStore, OpCopyMemory[Sized]);
//   spirv-val 2023.1 checks neither.
// - OpTraceNV and OpTraceMotionNV (SPV_NV_ray_tracing, SPV_NV_ray_tracing_motion_blur): the
//   operands of OpTraceRayKHR, a 32-bit float Time for the motion trace, and a Payload number
//   that is an integer constant (the Location of the payload). OpTraceRayMotionNV: OpTraceRayKHR's
//   operands and the Time. OpExecuteCallableNV: a 32-bit integer SBT index and an integer
//   constant Callable Data number.
// - Under Vulkan, a constant Ray Flags operand of OpTraceRayKHR, OpRayQueryInitializeKHR and
//   OpHitObjectTraceRay[Motion]NV sets at most one of OpaqueKHR, NoOpaqueKHR, CullOpaqueKHR and
//   CullNoOpaqueKHR, at most one of SkipTrianglesKHR, CullBackFacingTrianglesKHR and
//   CullFrontFacingTrianglesKHR, and not both SkipTrianglesKHR and SkipAABBsKHR (the RuntimeSpirv
//   rules of the Vulkan specification). spirv-val 2023.1 checks none of the rules of this item
//   and the one above.
// - The constant Payload number of OpTraceNV / OpTraceMotionNV and Callable Data number of
//   OpExecuteCallableNV name the Location of a (Incoming)RayPayload or (Incoming)CallableData
//   variable: a warning, as spirv-val checks nothing and glslang's tests trace with unlinked
//   numbers.
#include "OperandCheck.h"
#include "Rules.h"

#include <algorithm>
#include <bit>
#include <set>
#include <utility>

namespace spire::val {

namespace {

// By value: the grammar merges these with their NV aliases.
constexpr Op kTypeAccelerationStructure = static_cast<Op>(5341);
constexpr Op kTypeRayQuery = static_cast<Op>(4472);
constexpr uint32_t kStoragePrivate = uint32_t(grammar::StorageClass::Private),
                   kStorageFunction = uint32_t(grammar::StorageClass::Function);
constexpr uint32_t kStorageCallableData = uint32_t(grammar::StorageClass::CallableDataKHR),
                   kStorageIncomingCallableData =
                       uint32_t(grammar::StorageClass::IncomingCallableDataKHR),
                   kStorageRayPayload = uint32_t(grammar::StorageClass::RayPayloadKHR),
                   kStorageIncomingRayPayload =
                       uint32_t(grammar::StorageClass::IncomingRayPayloadKHR);

// What a ray query instruction gives.
enum class Gives { Nothing, Bool, Int32, Float32, Float32x2, Float32x3, Matrix4x3 };

struct RayQueryOp {
  uint32_t opcode;
  Gives gives;
  bool intersection; ///< takes an Intersection operand after the ray query
};

constexpr RayQueryOp kRayQueryOps[] = {
    {uint32_t(Op::RayQueryTerminateKHR), Gives::Nothing, false},
    {uint32_t(Op::RayQueryConfirmIntersectionKHR), Gives::Nothing, false},
    {uint32_t(Op::RayQueryProceedKHR), Gives::Bool, false},
    {uint32_t(Op::RayQueryGetIntersectionTypeKHR), Gives::Int32, true},
    {uint32_t(Op::RayQueryGetRayTMinKHR), Gives::Float32, false},
    {uint32_t(Op::RayQueryGetRayFlagsKHR), Gives::Int32, false},
    {uint32_t(Op::RayQueryGetIntersectionTKHR), Gives::Float32, true},
    {uint32_t(Op::RayQueryGetIntersectionInstanceCustomIndexKHR), Gives::Int32, true},
    {uint32_t(Op::RayQueryGetIntersectionInstanceIdKHR), Gives::Int32, true},
    {uint32_t(Op::RayQueryGetIntersectionInstanceShaderBindingTableRecordOffsetKHR), Gives::Int32,
     true},
    {uint32_t(Op::RayQueryGetIntersectionGeometryIndexKHR), Gives::Int32, true},
    {uint32_t(Op::RayQueryGetIntersectionPrimitiveIndexKHR), Gives::Int32, true},
    {uint32_t(Op::RayQueryGetIntersectionBarycentricsKHR), Gives::Float32x2, true},
    {uint32_t(Op::RayQueryGetIntersectionFrontFaceKHR), Gives::Bool, true},
    {uint32_t(Op::RayQueryGetIntersectionCandidateAABBOpaqueKHR), Gives::Bool, false},
    {uint32_t(Op::RayQueryGetIntersectionObjectRayDirectionKHR), Gives::Float32x3, true},
    {uint32_t(Op::RayQueryGetIntersectionObjectRayOriginKHR), Gives::Float32x3, true},
    {uint32_t(Op::RayQueryGetWorldRayDirectionKHR), Gives::Float32x3, false},
    {uint32_t(Op::RayQueryGetWorldRayOriginKHR), Gives::Float32x3, false},
    {uint32_t(Op::RayQueryGetIntersectionObjectToWorldKHR), Gives::Matrix4x3, true},
    {uint32_t(Op::RayQueryGetIntersectionWorldToObjectKHR), Gives::Matrix4x3, true},
};

/// The lowest and highest opcode of kRayQueryOps.
constexpr std::pair<uint32_t, uint32_t> kRayQueryOpcodes = [] {
  std::pair<uint32_t, uint32_t> range{~0u, 0u};
  for (const RayQueryOp &q : kRayQueryOps)
    range = {std::min(range.first, q.opcode), std::max(range.second, q.opcode)};
  return range;
}();

class RayTracingChecker {
public:
  explicit RayTracingChecker(State &s) : s_(s) {}

  void run() {
    constexpr uint32_t kCapabilityRayQuery = uint32_t(grammar::Capability::RayQueryKHR);
    const bool rayQueries = s_.hasCapability(kCapabilityRayQuery);
    static_assert(kRayQueryOpcodes.first >= 4096 && uint32_t(Op::TraceRayKHR) >= 4096);
    if (!rayQueries && !s_.extensionOpcodes())
      return; // the core instructions are checked for ray queries only
    forEachInstruction(s_, [&](const Instruction &inst, uint32_t op) {
      switch (op) {
      case 32: // OpTypePointer %result StorageClass %type
        // "If Type is OpTypeRayQueryKHR, Storage Class must be Private or Function."
        if (rayQueries && inst.wordCount() >= 4 && s_.defOpcode(inst.word(3)) == kTypeRayQuery &&
            inst.word(2) != kStoragePrivate && inst.word(2) != kStorageFunction)
          s_.error(inst.index(), "SPV_KHR_ray_query",
                   "a pointer to OpTypeRayQueryKHR must be in the Private or Function storage "
                   "class");
        break;
      case 61: // OpLoad %type %result %pointer
      case 62: // OpStore %pointer %object
      case 63: // OpCopyMemory %target %source
      case 64: // OpCopyMemorySized %target %source %size
        // "The Type operand to the OpTypePointer used for Pointer [Target or Source] must not be
        // OpTypeRayQueryKHR."
        if (rayQueries)
          rayQueryAccess(inst, op == 61 ? 3 : 1, op >= 63 ? 2 : op == 61 ? 3 : 1);
        break;
      case uint32_t(Op::TraceRayKHR):
        traceRay(inst);
        break;
      case uint32_t(Op::ExecuteCallableKHR): { // %sbtIndex %callableData
        OperandCheck c(s_, inst, "SPV_KHR_ray_tracing");
        c.operand(1, "SBT Index", "a 32-bit unsigned integer scalar",
                  [&](uint32_t t) { return c.unsignedInt32(t); }) &&
            variableIn(c, 2, "Callable Data", kStorageCallableData, kStorageIncomingCallableData,
                       "CallableDataKHR or IncomingCallableDataKHR");
        break;
      }
      case uint32_t(Op::ReportIntersectionKHR): { // %type %hit %hitKind (NV's name too)
        OperandCheck c(s_, inst, "SPV_KHR_ray_tracing", "OpReportIntersectionKHR");
        c.resultBool() && c.float32(3, "Hit") &&
            c.operand(4, "Hit Kind", "a 32-bit unsigned integer scalar",
                      [&](uint32_t t) { return c.unsignedInt32(t); });
        break;
      }
      case uint32_t(Op::ConvertUToAccelerationStructureKHR): { // %type %accel
        OperandCheck c(s_, inst, "SPV_KHR_ray_query");
        c.result("OpTypeAccelerationStructureKHR",
                 [&](uint32_t t) { return s_.defOpcode(t) == kTypeAccelerationStructure; }) &&
            c.operand(3, "Accel",
                      "a 64-bit unsigned integer scalar or a vector of two 32-bit unsigned "
                      "integers",
                      [&](uint32_t t) {
                        return !s_.isSignedInt(t) && (c.intScalar(t, 64) || c.intVector(t, 2, 32));
                      });
        break;
      }
      case uint32_t(Op::RayQueryInitializeKHR):
        rayQueryInitialize(inst);
        break;
      case uint32_t(Op::TraceNV):
      case uint32_t(Op::TraceMotionNV):
        traceNV(inst, op == uint32_t(Op::TraceMotionNV));
        break;
      case uint32_t(Op::TraceRayMotionNV):
        traceRayMotion(inst);
        break;
      case uint32_t(Op::ExecuteCallableNV): { // %sbtIndex %callableDataNumber
        OperandCheck c(s_, inst, "SPV_NV_ray_tracing");
        if (c.int32(1, "SBT Index") && locationNumber(c, 2, "Callable Data number"))
          linkedLocation(inst, 2, false);
        break;
      }
      case uint32_t(Op::HitObjectTraceRayNV):       // %hitObject %accel %rayFlags ...
      case uint32_t(Op::HitObjectTraceRayMotionNV): // (the VUIDs name both)
        rayFlags(inst, 3, "VUID-RuntimeSpirv-OpHitObjectTraceRayNV-07714",
                 "VUID-RuntimeSpirv-OpHitObjectTraceRayNV-07713",
                 "VUID-RuntimeSpirv-OpHitObjectTraceRayNV-07712");
        break;
      case uint32_t(Op::RayQueryGenerateIntersectionKHR): { // %rayQuery %hitT
        OperandCheck c(s_, inst, "SPV_KHR_ray_query");
        rayQuery(c, 1) && c.float32(2, "Hit T");
        break;
      }
      default:
        if (op < kRayQueryOpcodes.first || op > kRayQueryOpcodes.second)
          break; // no ray query instruction: most instructions end here
        for (const RayQueryOp &q : kRayQueryOps)
          if (q.opcode == op) {
            rayQueryGet(inst, q);
            break;
          }
        break;
      }
    });
  }

private:
  // The pointers at words `first` to `last` of a load, store or copy.
  void rayQueryAccess(const Instruction &inst, uint32_t first, uint32_t last) {
    for (uint32_t w = first; w <= last && w < inst.wordCount(); ++w)
      if (s_.defOpcode(s_.pointeeType(s_.typeOf(inst.word(w)))) == kTypeRayQuery) {
        s_.error(inst.index(), "SPV_KHR_ray_query",
                 State::opcodeName(inst.opcode()) +
                     " cannot access a ray query; ray queries are used through the OpRayQuery* "
                     "instructions only");
        return;
      }
  }

  bool accel(OperandCheck &c, uint32_t word) {
    return c.operand(word, "the acceleration structure", "of type OpTypeAccelerationStructureKHR",
                     [&](uint32_t t) { return s_.defOpcode(t) == kTypeAccelerationStructure; });
  }
  static bool float3(OperandCheck &c, uint32_t word, std::string_view what) {
    return c.operand(word, what, "a vector of three 32-bit floats",
                     [&](uint32_t t) { return c.floatVector(t, 3, 32); });
  }
  // The ray from `word` on: origin, Tmin, direction, Tmax.
  static bool ray(OperandCheck &c, uint32_t word) {
    return float3(c, word, "Ray Origin") && c.float32(word + 1, "Ray Tmin") &&
           float3(c, word + 2, "Ray Direction") && c.float32(word + 3, "Ray Tmax");
  }
  // An OpVariable in one of two storage classes.
  bool variableIn(OperandCheck &c, uint32_t word, std::string_view what, uint32_t storage,
                  uint32_t incoming, std::string_view names) {
    const uint32_t id = c.id(word);
    if (id == 0 || c.type(word) == 0)
      return true;
    if (s_.defOpcode(id) != Op::Variable)
      return c.fail(std::string(what) + " " + s_.name(id) + " must be the result of an OpVariable");
    const std::optional<uint32_t> sc = s_.storageClass(c.type(word));
    if (sc != storage && sc != incoming)
      return c.fail(std::string(what) + " " + s_.name(id) + " must be in the " +
                    std::string(names) + " storage class");
    return true;
  }

  // The operands the traces share from the acceleration structure at `word` on: Accel, Ray Flags,
  // Cull Mask, SBT Offset, SBT Stride, Miss Index, then the ray.
  bool traceOperands(OperandCheck &c, uint32_t word) {
    return accel(c, word) && c.int32(word + 1, "Ray Flags") && c.int32(word + 2, "Cull Mask") &&
           c.int32(word + 3, "SBT Offset") && c.int32(word + 4, "SBT Stride") &&
           c.int32(word + 5, "Miss Index") && ray(c, word + 6);
  }

  // OpTraceRayKHR %accel %rayFlags %cullMask %sbtOffset %sbtStride %missIndex %rayOrigin %rayTmin
  //   %rayDirection %rayTmax %payload
  void traceRay(const Instruction &inst) {
    OperandCheck c(s_, inst, "SPV_KHR_ray_tracing");
    traceOperands(c, 1) &&
        variableIn(c, 11, "Payload", kStorageRayPayload, kStorageIncomingRayPayload,
                   "RayPayloadKHR or IncomingRayPayloadKHR");
    rayFlags(inst, 2, "VUID-RuntimeSpirv-OpTraceRayKHR-06893",
             "VUID-RuntimeSpirv-OpTraceRayKHR-06892", "VUID-RuntimeSpirv-OpTraceRayKHR-06552");
  }

  // OpTraceRayMotionNV: OpTraceRayKHR's operands with %time before %payload. "Current Time must be
  // a 32-bit float type scalar." (SPV_NV_ray_tracing_motion_blur)
  void traceRayMotion(const Instruction &inst) {
    OperandCheck c(s_, inst, "SPV_NV_ray_tracing_motion_blur");
    traceOperands(c, 1) && c.float32(11, "Current Time") &&
        variableIn(c, 12, "Payload", kStorageRayPayload, kStorageIncomingRayPayload,
                   "RayPayloadKHR or IncomingRayPayloadKHR");
  }

  // "Payload number matches the declared location of the payload structure", "Callable Data
  // Number matches the declared location of the callable data": a Location, so an integer
  // constant.
  bool locationNumber(OperandCheck &c, uint32_t word, std::string_view what) {
    const uint32_t id = c.id(word);
    if (id == 0 || c.type(word) == 0)
      return true;
    const grammar::InstructionDesc *d = grammar::findInstruction(uint32_t(s_.defOpcode(id)));
    if (d != nullptr && d->cls == grammar::InstructionClass::ConstantCreation &&
        s_.isIntType(c.type(word)))
      return true;
    return c.fail(std::string(what) + " " + s_.name(id) +
                  " must be an integer constant (the Location of the data)");
  }

  // OpTraceNV %accel %rayFlags %cullMask %sbtOffset %sbtStride %missIndex %rayOrigin %rayTmin
  //   %rayDirection %rayTmax %payloadId; OpTraceMotionNV has %time before %payloadId.
  void traceNV(const Instruction &inst, bool motion) {
    OperandCheck c(s_, inst, motion ? "SPV_NV_ray_tracing_motion_blur" : "SPV_NV_ray_tracing");
    if (traceOperands(c, 1) && (!motion || c.float32(11, "Current Time")) &&
        locationNumber(c, motion ? 12 : 11, "Payload number"))
      linkedLocation(inst, motion ? 12 : 11, true);
  }

  // SPV_NV_ray_tracing, 3.20 Location: "Location also forms the linkage between OpTraceNV and the
  // RayPayloadKHR and IncomingRayPayloadKHR Storage Classes [and] OpExecuteCallableNV and the
  // CallableDataKHR and IncomingCallableDataKHR Storage Classes": the constant number at `word`
  // is the Location of such a variable. A warning: spirv-val 2023.1 does not check it, and
  // glslang's test shaders trace with payload number 1 where only location 0 is declared.
  void linkedLocation(const Instruction &inst, uint32_t word, bool payload) {
    constexpr uint32_t kCallableData = uint32_t(grammar::StorageClass::CallableDataKHR),
                       kIncomingCallableData =
                           uint32_t(grammar::StorageClass::IncomingCallableDataKHR),
                       kRayPayload = uint32_t(grammar::StorageClass::RayPayloadKHR),
                       kIncomingRayPayload = uint32_t(grammar::StorageClass::IncomingRayPayloadKHR);
    if (word >= inst.wordCount() || s_.defOpcode(inst.word(word)) != Op::Constant)
      return;
    const std::optional<uint64_t> number = s_.constantValue(inst.word(word));
    if (!number)
      return;
    std::set<uint64_t> &locations = payload ? payloadLocations_ : callableLocations_;
    if (!locationsCollected_) {
      locationsCollected_ = true;
      for (Instruction v : s_.instructions(State::Listed::Variables)) {
        if (v.isRaw() || v.opcode() != Op::Variable || v.wordCount() < 4)
          continue;
        const uint32_t sc = v.word(3);
        std::set<uint64_t> *into =
            sc == kRayPayload || sc == kIncomingRayPayload       ? &payloadLocations_
            : sc == kCallableData || sc == kIncomingCallableData ? &callableLocations_
                                                                 : nullptr;
        if (into == nullptr)
          continue;
        for (const AppliedDecoration &d : s_.decorations(v.resultId())) {
          const Instruction deco = s_.module().inst(d.inst);
          if (d.member == kNoIndex && !deco.isRaw() && deco.opcode() == Op::Decorate &&
              deco.wordCount() >= 4 && deco.word(2) == uint32_t(grammar::Decoration::Location))
            into->insert(deco.word(3));
        }
      }
    }
    if (locations.count(*number))
      return;
    s_.warning(inst.index(), "SPV_NV_ray_tracing",
               std::string(payload ? "Payload number " : "Callable Data number ") +
                   std::to_string(*number) + " is the Location of no " +
                   (payload ? "RayPayloadKHR or IncomingRayPayloadKHR"
                            : "CallableDataKHR or IncomingCallableDataKHR") +
                   " variable, so it links to no data");
  }

  // Under Vulkan, the bits of a constant Ray Flags operand at `word` (RuntimeSpirv rules; each
  // instruction has a VUID of its own for each rule).
  // Everywhere, each bit needs a capability the grammar lists for it (ForceOpacityMicromap2StateKHR
  // needs RayTracingOpacityMicromapKHR, the Skip flags RayTraversalPrimitiveCullingKHR), as an
  // enumerant operand would. glslang 12 sets SkipAABBsKHR without declaring
  // RayTraversalPrimitiveCullingKHR and spirv-val accepts it: for the Skip flags a warning.
  void rayFlags(const Instruction &inst, uint32_t word, std::string_view opaqueRule,
                std::string_view cullRule, std::string_view skipRule) {
    if (word >= inst.wordCount() || s_.defOpcode(inst.word(word)) != Op::Constant)
      return;
    const std::optional<uint64_t> v = s_.constantValue(inst.word(word));
    if (!v)
      return;
    for (uint64_t rest = *v & 0xFFFFFFFFu; rest != 0; rest &= rest - 1) {
      const grammar::EnumerantDesc *e = grammar::findEnumerant(
          grammar::OperandKind::RayFlags, static_cast<uint32_t>(rest & (~rest + 1)));
      if (e == nullptr || e->availability.capabilities.empty() ||
          std::any_of(e->availability.capabilities.begin(), e->availability.capabilities.end(),
                      [&](grammar::Capability c) { return s_.hasCapability(c); }))
        continue;
      const grammar::Capability needed = e->availability.capabilities.front();
      const std::string message =
          State::opcodeName(inst.opcode()) + ": the Ray Flags " + s_.name(inst.word(word)) +
          " set " + std::string(e->name) + ", which needs the " +
          State::enumerantName(grammar::OperandKind::Capability, uint32_t(needed)) + " capability";
      if (needed == grammar::Capability::RayTraversalPrimitiveCullingKHR) {
        s_.warning(inst.index(), "3.2.31 Ray Flags", message);
        continue;
      }
      s_.error(inst.index(), "3.2.31 Ray Flags", message);
      return;
    }
    if (!s_.isVulkan())
      return;
    constexpr uint64_t kOpaque = uint32_t(grammar::RayFlags::OpaqueKHR),
                       kNoOpaque = uint32_t(grammar::RayFlags::NoOpaqueKHR), kCullBack = 0x10,
                       kCullFront = 0x20, kCullOpaque = uint32_t(grammar::RayFlags::CullOpaqueKHR),
                       kCullNoOpaque = uint32_t(grammar::RayFlags::CullNoOpaqueKHR),
                       kSkipTriangles = uint32_t(grammar::RayFlags::SkipTrianglesKHR),
                       kSkipAABBs = uint32_t(grammar::RayFlags::SkipAABBsKHR);
    auto what = [&] { // named only on failure
      return State::opcodeName(inst.opcode()) + ": Ray Flags " + s_.name(inst.word(word)) + " (0x" +
             hex(*v) + ") ";
    };
    if (std::popcount(*v & (kOpaque | kNoOpaque | kCullOpaque | kCullNoOpaque)) > 1)
      s_.error(inst.index(), opaqueRule,
               what() + "sets more than one of OpaqueKHR, NoOpaqueKHR, CullOpaqueKHR and "
                        "CullNoOpaqueKHR");
    else if (std::popcount(*v & (kSkipTriangles | kCullBack | kCullFront)) > 1)
      s_.error(inst.index(), cullRule,
               what() + "sets more than one of SkipTrianglesKHR, CullBackFacingTrianglesKHR and "
                        "CullFrontFacingTrianglesKHR");
    else if ((*v & kSkipTriangles) != 0 && (*v & kSkipAABBs) != 0)
      s_.error(inst.index(), skipRule, what() + "sets both SkipTrianglesKHR and SkipAABBsKHR");
  }

  static std::string hex(uint64_t v) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out;
    do {
      out.insert(out.begin(), kDigits[v & 0xF]);
      v >>= 4;
    } while (v != 0);
    return out;
  }

  bool rayQuery(OperandCheck &c, uint32_t word) {
    return c.operand(word, "RayQuery", "a pointer to OpTypeRayQueryKHR",
                     [&](uint32_t t) { return c.pointerTo(t, kTypeRayQuery); });
  }

  // OpRayQueryInitializeKHR %rayQuery %accel %rayFlags %cullMask %rayOrigin %rayTMin
  //   %rayDirection %rayTMax
  void rayQueryInitialize(const Instruction &inst) {
    OperandCheck c(s_, inst, "SPV_KHR_ray_query");
    rayQuery(c, 1) && accel(c, 2) && c.int32(3, "Ray Flags") && c.int32(4, "Cull Mask") &&
        ray(c, 5);
    rayFlags(inst, 3, "VUID-RuntimeSpirv-OpRayQueryInitializeKHR-06891",
             "VUID-RuntimeSpirv-OpRayQueryInitializeKHR-06890",
             "VUID-RuntimeSpirv-OpRayQueryInitializeKHR-06889");
  }

  // %r = OpRayQueryGet... %type %rayQuery [%intersection], and the queries without results.
  void rayQueryGet(const Instruction &inst, const RayQueryOp &q) {
    OperandCheck c(s_, inst, "SPV_KHR_ray_query");
    bool ok = true;
    switch (q.gives) {
    case Gives::Nothing:
      rayQuery(c, 1);
      return;
    case Gives::Bool:
      ok = c.resultBool();
      break;
    case Gives::Int32:
      ok = c.resultInt32();
      break;
    case Gives::Float32:
      ok = c.result("a 32-bit float scalar", [&](uint32_t t) { return c.floatScalar(t, 32); });
      break;
    case Gives::Float32x2:
    case Gives::Float32x3: {
      const uint32_t n = q.gives == Gives::Float32x2 ? 2 : 3;
      ok = c.result("a vector of " + std::to_string(n) + " 32-bit floats",
                    [&](uint32_t t) { return c.floatVector(t, n, 32); });
      break;
    }
    case Gives::Matrix4x3:
      ok = c.result("a matrix of four columns of three 32-bit floats", [&](uint32_t t) {
        std::optional<Instruction> d = s_.def(t);
        return d && d->opcode() == Op::TypeMatrix && d->wordCount() >= 4 && d->word(3) == 4 &&
               c.floatVector(d->word(2), 3, 32);
      });
      break;
    }
    if (!ok || !rayQuery(c, 3) || !q.intersection)
      return;
    // "Intersection ... must be a 32-bit integer constant" (RayQueryCandidateIntersectionKHR or
    // RayQueryCommittedIntersectionKHR).
    const uint32_t t = c.type(4);
    if (t == 0)
      return;
    const grammar::InstructionDesc *d = grammar::findInstruction(uint32_t(s_.defOpcode(c.id(4))));
    const bool constant = d != nullptr && d->cls == grammar::InstructionClass::ConstantCreation;
    if (!c.intScalar(t, 32) || !constant)
      c.fail("Intersection " + s_.name(c.id(4)) + " must be a 32-bit integer constant");
  }

  State &s_;
  bool locationsCollected_ = false;
  std::set<uint64_t> payloadLocations_, callableLocations_;
};

} // namespace

void checkRayTracing(State &s) { RayTracingChecker(s).run(); }

} // namespace spire::val
