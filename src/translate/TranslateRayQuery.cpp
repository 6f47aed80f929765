// Inline ray queries (SPV_KHR_ray_query), in any stage: a RayQueryKHR Function variable per
// AllocateRayQuery, TraceRayInline / Proceed / Abort / the commits, and the state getters.
#include "Translator.h"

namespace spire::translate {

using dxil::DxOp;

namespace {

enum class Shape : uint8_t { Scalar, Vector, Matrix };

/// A state getter: its SPIR-V instruction, which intersection it reads (-1: none, 0: the
/// candidate, 1: the committed one), the shape of the SPIR-V result, whether it is negated.
struct Getter {
  Op op;
  int intersection;
  Shape shape;
  bool negate = false;
};

bool getter(DxOp op, Getter &g) {
  switch (op) {
  case DxOp::RayQuery_CommittedStatus: // D3D's COMMITTED_STATUS numbers as Vulkan's types do
    g = {Op::RayQueryGetIntersectionTypeKHR, 1, Shape::Scalar};
    return true;
  case DxOp::RayQuery_CandidateType: // CANDIDATE_TYPE: triangle 0, procedural 1, as Vulkan
    g = {Op::RayQueryGetIntersectionTypeKHR, 0, Shape::Scalar};
    return true;
  case DxOp::RayQuery_CandidateObjectToWorld3x4:
    g = {Op::RayQueryGetIntersectionObjectToWorldKHR, 0, Shape::Matrix};
    return true;
  case DxOp::RayQuery_CandidateWorldToObject3x4:
    g = {Op::RayQueryGetIntersectionWorldToObjectKHR, 0, Shape::Matrix};
    return true;
  case DxOp::RayQuery_CommittedObjectToWorld3x4:
    g = {Op::RayQueryGetIntersectionObjectToWorldKHR, 1, Shape::Matrix};
    return true;
  case DxOp::RayQuery_CommittedWorldToObject3x4:
    g = {Op::RayQueryGetIntersectionWorldToObjectKHR, 1, Shape::Matrix};
    return true;
  case DxOp::RayQuery_CandidateProceduralPrimitiveNonOpaque:
    g = {Op::RayQueryGetIntersectionCandidateAABBOpaqueKHR, -1, Shape::Scalar, true};
    return true;
  case DxOp::RayQuery_CandidateTriangleFrontFace:
    g = {Op::RayQueryGetIntersectionFrontFaceKHR, 0, Shape::Scalar};
    return true;
  case DxOp::RayQuery_CommittedTriangleFrontFace:
    g = {Op::RayQueryGetIntersectionFrontFaceKHR, 1, Shape::Scalar};
    return true;
  case DxOp::RayQuery_CandidateTriangleBarycentrics:
    g = {Op::RayQueryGetIntersectionBarycentricsKHR, 0, Shape::Vector};
    return true;
  case DxOp::RayQuery_CommittedTriangleBarycentrics:
    g = {Op::RayQueryGetIntersectionBarycentricsKHR, 1, Shape::Vector};
    return true;
  case DxOp::RayQuery_RayFlags:
    g = {Op::RayQueryGetRayFlagsKHR, -1, Shape::Scalar};
    return true;
  case DxOp::RayQuery_WorldRayOrigin:
    g = {Op::RayQueryGetWorldRayOriginKHR, -1, Shape::Vector};
    return true;
  case DxOp::RayQuery_WorldRayDirection:
    g = {Op::RayQueryGetWorldRayDirectionKHR, -1, Shape::Vector};
    return true;
  case DxOp::RayQuery_RayTMin:
    g = {Op::RayQueryGetRayTMinKHR, -1, Shape::Scalar};
    return true;
  case DxOp::RayQuery_CandidateTriangleRayT:
    g = {Op::RayQueryGetIntersectionTKHR, 0, Shape::Scalar};
    return true;
  case DxOp::RayQuery_CommittedRayT:
    g = {Op::RayQueryGetIntersectionTKHR, 1, Shape::Scalar};
    return true;
  case DxOp::RayQuery_CandidateInstanceIndex:
    g = {Op::RayQueryGetIntersectionInstanceIdKHR, 0, Shape::Scalar};
    return true;
  case DxOp::RayQuery_CommittedInstanceIndex:
    g = {Op::RayQueryGetIntersectionInstanceIdKHR, 1, Shape::Scalar};
    return true;
  case DxOp::RayQuery_CandidateInstanceID:
    g = {Op::RayQueryGetIntersectionInstanceCustomIndexKHR, 0, Shape::Scalar};
    return true;
  case DxOp::RayQuery_CommittedInstanceID:
    g = {Op::RayQueryGetIntersectionInstanceCustomIndexKHR, 1, Shape::Scalar};
    return true;
  case DxOp::RayQuery_CandidateGeometryIndex:
    g = {Op::RayQueryGetIntersectionGeometryIndexKHR, 0, Shape::Scalar};
    return true;
  case DxOp::RayQuery_CommittedGeometryIndex:
    g = {Op::RayQueryGetIntersectionGeometryIndexKHR, 1, Shape::Scalar};
    return true;
  case DxOp::RayQuery_CandidatePrimitiveIndex:
    g = {Op::RayQueryGetIntersectionPrimitiveIndexKHR, 0, Shape::Scalar};
    return true;
  case DxOp::RayQuery_CommittedPrimitiveIndex:
    g = {Op::RayQueryGetIntersectionPrimitiveIndexKHR, 1, Shape::Scalar};
    return true;
  case DxOp::RayQuery_CandidateObjectRayOrigin:
    g = {Op::RayQueryGetIntersectionObjectRayOriginKHR, 0, Shape::Vector};
    return true;
  case DxOp::RayQuery_CommittedObjectRayOrigin:
    g = {Op::RayQueryGetIntersectionObjectRayOriginKHR, 1, Shape::Vector};
    return true;
  case DxOp::RayQuery_CandidateObjectRayDirection:
    g = {Op::RayQueryGetIntersectionObjectRayDirectionKHR, 0, Shape::Vector};
    return true;
  case DxOp::RayQuery_CommittedObjectRayDirection:
    g = {Op::RayQueryGetIntersectionObjectRayDirectionKHR, 1, Shape::Vector};
    return true;
  case DxOp::RayQuery_CandidateInstanceContributionToHitGroupIndex:
    g = {Op::RayQueryGetIntersectionInstanceShaderBindingTableRecordOffsetKHR, 0, Shape::Scalar};
    return true;
  case DxOp::RayQuery_CommittedInstanceContributionToHitGroupIndex:
    g = {Op::RayQueryGetIntersectionInstanceShaderBindingTableRecordOffsetKHR, 1, Shape::Scalar};
    return true;
  default:
    return false;
  }
}

/// The number of components of a vector getter's result (barycentrics: 2, rays: 3).
uint32_t vectorSize(Op op) { return op == Op::RayQueryGetIntersectionBarycentricsKHR ? 2 : 3; }

bool isRayQueryOp(DxOp op) {
  return uint32_t(op) >= uint32_t(DxOp::AllocateRayQuery) &&
         uint32_t(op) <= uint32_t(DxOp::RayQuery_CommittedInstanceContributionToHitGroupIndex) &&
         op != DxOp::GeometryIndex;
}

} // namespace

bool Translator::translateRayQueryOp(const dxil::DxilOpCall &call, const dxil::Instruction &inst,
                                     std::span<const dxil::ValueId> args, bool &handled) {
  const DxOp op = DxOp(call.op->opcode);
  handled = isRayQueryOp(op);
  if (!handled)
    return true;
  usesRayQuery_ = true;
  capability(Capability::RayQueryKHR);
  extension("SPV_KHR_ray_query");
  const std::string opName = "dx.op." + std::string(call.op->name);
  auto arg = [&](size_t i) { return opArgument(call, args, i); };
  const uint32_t u32 = typeInt(32), f32 = typeFloat(32);
  if (op == DxOp::AllocateRayQuery) {
    int64_t flags = 0;
    if (args.empty() || !constantInt(args[0], flags))
      return fail(opName + "'s ray flags must be a constant");
    const uint32_t var = functionVariable(typeUniqued(Op::TypeRayQueryKHR, {}));
    rayQueries_[inst.value] = {var, uint32_t(flags)};
    // The handle is no number: a use other than a ray query operation finds an undef.
    setValue(inst.value, undef(u32));
    return true;
  }
  if (args.empty())
    return fail(opName + " has too few operands");
  auto found = rayQueries_.find(args[0]);
  if (found == rayQueries_.end())
    return fail("a ray query handle that does not come straight from AllocateRayQuery (through "
                "a phi, a select or a function argument)");
  const RayQuery query = found->second;
  switch (op) {
  case DxOp::RayQuery_TraceRayInline: {
    // query, acceleration structure, flags, instance mask, origin xyz, tmin, direction xyz, tmax.
    if (args.size() < 12)
      return fail(opName + " has too few operands");
    const uint32_t accel = accelerationStructure(args[1]);
    uint32_t flags = arg(2);
    // The flags in force are the allocation's and the call's together.
    if (query.flags)
      flags = emit(Op::BitwiseOr, u32, {flags, constU32(query.flags)});
    const uint32_t vec3 = typeVector(f32, 3);
    const uint32_t origin = emit(Op::CompositeConstruct, vec3, {arg(4), arg(5), arg(6)});
    const uint32_t direction = emit(Op::CompositeConstruct, vec3, {arg(8), arg(9), arg(10)});
    if (failed_)
      return false;
    emitVoid(Op::RayQueryInitializeKHR,
             {query.variable, accel, flags, arg(3), origin, arg(7), direction, arg(11)});
    return !failed_;
  }
  case DxOp::RayQuery_Proceed:
    setValue(inst.value, emit(Op::RayQueryProceedKHR, typeBool(), {query.variable}));
    return !failed_;
  case DxOp::RayQuery_Abort:
    emitVoid(Op::RayQueryTerminateKHR, {query.variable});
    return !failed_;
  case DxOp::RayQuery_CommitNonOpaqueTriangleHit:
    emitVoid(Op::RayQueryConfirmIntersectionKHR, {query.variable});
    return !failed_;
  case DxOp::RayQuery_CommitProceduralPrimitiveHit:
    emitVoid(Op::RayQueryGenerateIntersectionKHR, {query.variable, arg(1)});
    return !failed_;
  default:
    break;
  }
  Getter g;
  if (!getter(op, g))
    return fail("unsupported: " + opName + " is not translated yet");
  const uint32_t type = llvmType(inst.type);
  if (failed_)
    return false;
  std::vector<uint32_t> operands{query.variable};
  if (g.intersection >= 0)
    operands.push_back(constU32(uint32_t(g.intersection)));
  switch (g.shape) {
  case Shape::Scalar: {
    const bool isBool = g.op == Op::RayQueryGetIntersectionFrontFaceKHR ||
                        g.op == Op::RayQueryGetIntersectionCandidateAABBOpaqueKHR;
    uint32_t r = emit(g.op, isBool ? typeBool() : type, operands);
    if (g.negate)
      r = emit(Op::LogicalNot, typeBool(), {r});
    setValue(inst.value, r);
    return !failed_;
  }
  case Shape::Vector: {
    const uint32_t vector = emit(g.op, typeVector(f32, vectorSize(g.op)), operands);
    int64_t c = 0;
    if (args.size() < 2)
      return fail(opName + " has too few operands");
    setValue(inst.value, constantInt(args[1], c) && c >= 0 && c < vectorSize(g.op)
                             ? emit(Op::CompositeExtract, f32, {vector, uint32_t(c)})
                             : emit(Op::VectorExtractDynamic, f32, {vector, arg(1)}));
    return !failed_;
  }
  case Shape::Matrix: {
    if (args.size() < 3)
      return fail(opName + " has too few operands");
    const uint32_t matrix = typeUniqued(Op::TypeMatrix, {typeVector(f32, 3), 4});
    const uint32_t m = emit(g.op, matrix, operands);
    int64_t row = 0, col = 0;
    if (constantInt(args[1], row) && constantInt(args[2], col) && row >= 0 && row < 3 && col >= 0 &&
        col < 4) {
      setValue(inst.value, emit(Op::CompositeExtract, f32, {m, uint32_t(col), uint32_t(row)}));
      return !failed_;
    }
    const uint32_t var = functionVariable(matrix);
    emitVoid(Op::Store, {var, m});
    setValue(inst.value, matrixElement(var, StorageClass::Function, args[1], args[2]));
    return !failed_;
  }
  }
  return !failed_;
}

} // namespace spire::translate
