// Ray tracing stages (SPV_KHR_ray_tracing): the execution models of the library entry kinds, the
// system values as built-ins, TraceRay / ReportHit / CallShader with their payload, attribute
// and callable-data variables copied in and out, and IgnoreHit / AcceptHitAndEndSearch.
#include "Translator.h"

namespace spire::translate {

using dxil::DxOp;
using grammar::ExecutionModel;

bool Translator::rayTracingModel(dxil::ShaderKind kind, ExecutionModel &model) {
  switch (kind) {
  case dxil::ShaderKind::RayGeneration:
    model = ExecutionModel::RayGenerationKHR;
    return true;
  case dxil::ShaderKind::Intersection:
    model = ExecutionModel::IntersectionKHR;
    return true;
  case dxil::ShaderKind::AnyHit:
    model = ExecutionModel::AnyHitKHR;
    return true;
  case dxil::ShaderKind::ClosestHit:
    model = ExecutionModel::ClosestHitKHR;
    return true;
  case dxil::ShaderKind::Miss:
    model = ExecutionModel::MissKHR;
    return true;
  case dxil::ShaderKind::Callable:
    model = ExecutionModel::CallableKHR;
    return true;
  default:
    return false;
  }
}

void Translator::finishRayTracingHeader() {
  ExecutionModel model;
  if (!rayTracingModel(entry_.kind, model))
    return;
  capability(Capability::RayTracingKHR);
  extension("SPV_KHR_ray_tracing");
  // An acceleration structure declares RayQueryKHR (TranslateResources.cpp); a ray tracing
  // stage that makes no ray query has RayTracingKHR for it and must not ask for ray queries.
  if (!usesRayQuery_) {
    capabilities_.erase(uint32_t(Capability::RayQueryKHR));
    extensions_.erase("SPV_KHR_ray_query");
  }
}

uint32_t Translator::rayTracingVariable(StorageClass sc, uint32_t pointeeType) {
  auto [it, inserted] = rayTracingVariables_.emplace(std::pair{uint32_t(sc), pointeeType}, 0);
  if (!inserted)
    return it->second;
  // Vulkan allows one hit attribute, incoming payload and incoming callable data variable per
  // entry point.
  if (sc == StorageClass::HitAttributeKHR || sc == StorageClass::IncomingRayPayloadKHR ||
      sc == StorageClass::IncomingCallableDataKHR)
    for (const auto &[key, var] : rayTracingVariables_)
      if (key.first == uint32_t(sc) && key.second != pointeeType) {
        rayTracingVariables_.erase(it);
        return fail(std::string("unsupported: ") +
                    (sc == StorageClass::HitAttributeKHR ? "hit attributes" : "incoming payloads") +
                    " of two different types in one entry point");
      }
  it->second = globalVariable(pointeeType, sc);
  return it->second;
}

uint32_t Translator::accelerationStructure(dxil::ValueId handleValue) {
  const Handle *h = handle(handleValue);
  if (!h)
    return 0;
  if (h->kind != dxil::ResourceKind::RTAccelerationStructure)
    return fail("the handle is not an acceleration structure");
  const uint32_t type = typeUniqued(Op::TypeAccelerationStructureKHR, {});
  uint32_t pointer = h->variable;
  if (h->arrayIndex)
    pointer = emit(Op::AccessChain, typePointer(StorageClass::UniformConstant, type),
                   {h->variable, h->arrayIndex});
  return emit(Op::Load, type, {pointer});
}

uint32_t Translator::matrixElement(uint32_t pointer, StorageClass sc, dxil::ValueId row,
                                   dxil::ValueId col) {
  // DXIL's 3x4 (row, column) is column `col`, component `row` of SPIR-V's 4 columns of 3.
  auto index = [&](dxil::ValueId v) {
    int64_t i = 0;
    return constantInt(v, i) ? constU32(uint32_t(i)) : value(v);
  };
  const uint32_t c = index(col), r = index(row);
  if (failed_)
    return 0;
  const uint32_t f32 = typeFloat(32);
  return emit(Op::Load, f32, {emit(Op::AccessChain, typePointer(sc, f32), {pointer, c, r})});
}

void Translator::emitTerminatorFunctions() {
  for (const auto &[op, fn] : terminatorFunctions_) {
    const uint32_t type = typeFunction(typeVoid(), {});
    const uint32_t label = id();
    b_.add(Section::FunctionDefinition, Op::Function).id(typeVoid()).id(fn).literal(0).id(type);
    b_.add(Section::FunctionDefinition, Op::Label).id(label);
    b_.add(Section::FunctionDefinition, Op(op));
    b_.add(Section::FunctionDefinition, Op::FunctionEnd);
  }
}

namespace {

struct SystemValue {
  BuiltIn builtIn;
  uint32_t components; ///< 1: a scalar; 3: a vector read by component
  bool isFloat;
};

bool systemValue(DxOp op, SystemValue &out) {
  switch (op) {
  case DxOp::DispatchRaysIndex:
    out = {BuiltIn::LaunchIdKHR, 3, false};
    return true;
  case DxOp::DispatchRaysDimensions:
    out = {BuiltIn::LaunchSizeKHR, 3, false};
    return true;
  case DxOp::WorldRayOrigin:
    out = {BuiltIn::WorldRayOriginKHR, 3, true};
    return true;
  case DxOp::WorldRayDirection:
    out = {BuiltIn::WorldRayDirectionKHR, 3, true};
    return true;
  case DxOp::ObjectRayOrigin:
    out = {BuiltIn::ObjectRayOriginKHR, 3, true};
    return true;
  case DxOp::ObjectRayDirection:
    out = {BuiltIn::ObjectRayDirectionKHR, 3, true};
    return true;
  case DxOp::RayTMin:
    out = {BuiltIn::RayTminKHR, 1, true};
    return true;
  case DxOp::RayTCurrent:
    out = {BuiltIn::RayTmaxKHR, 1, true};
    return true;
  case DxOp::RayFlags:
    out = {BuiltIn::IncomingRayFlagsKHR, 1, false};
    return true;
  case DxOp::HitKind:
    out = {BuiltIn::HitKindKHR, 1, false};
    return true;
  case DxOp::InstanceID: // the user's 24-bit instance id
    out = {BuiltIn::InstanceCustomIndexKHR, 1, false};
    return true;
  case DxOp::InstanceIndex: // the instance's index in the top-level structure
    out = {BuiltIn::InstanceId, 1, false};
    return true;
  case DxOp::PrimitiveIndex:
    out = {BuiltIn::PrimitiveId, 1, false};
    return true;
  case DxOp::GeometryIndex:
    out = {BuiltIn::RayGeometryIndexKHR, 1, false};
    return true;
  default:
    return false;
  }
}

} // namespace

bool Translator::translateRayTracingOp(const dxil::DxilOpCall &call, const dxil::Instruction &inst,
                                       std::span<const dxil::ValueId> args, bool &handled) {
  const DxOp op = DxOp(call.op->opcode);
  handled = true;
  auto arg = [&](size_t i) { return opArgument(call, args, i); };
  const uint32_t f32 = typeFloat(32), u32 = typeInt(32);
  SystemValue sv;
  if (systemValue(op, sv)) {
    const uint32_t scalar = sv.isFloat ? f32 : u32;
    const uint32_t type = typeVector(scalar, sv.components);
    const uint32_t var = builtinInput(sv.builtIn, type);
    uint32_t r = 0;
    if (sv.components == 1) {
      r = emit(Op::Load, type, {var});
    } else {
      int64_t c = 0;
      if (args.empty())
        return fail("dx.op." + std::string(call.op->name) + " has too few operands");
      if (constantInt(args[0], c) && c >= 0 && c < 3)
        r = emit(Op::Load, scalar,
                 {emit(Op::AccessChain, typePointer(StorageClass::Input, scalar),
                       {var, constU32(uint32_t(c))})});
      else
        r = emit(Op::VectorExtractDynamic, scalar, {emit(Op::Load, type, {var}), arg(0)});
    }
    setValue(inst.value, r);
    return !failed_;
  }
  // Copies the pointee of operand `i` into a ray tracing variable, runs `body`, copies back.
  auto throughVariable = [&](size_t i, StorageClass sc, bool copyBack, auto body) {
    if (i >= args.size())
      return fail("dx.op." + std::string(call.op->name) + " has too few operands") != 0;
    const dxil::TypeId pointerType = llvm().typeOf(args[i]);
    if (llvm().type(pointerType).kind != dxil::TypeKind::Pointer)
      return fail("operand " + std::to_string(i + 1) + " of dx.op." + std::string(call.op->name) +
                  " is not a pointer") != 0;
    const uint32_t type = llvmType(llvm().elementType(pointerType));
    const uint32_t pointer = value(args[i]);
    const uint32_t var = failed_ ? 0 : rayTracingVariable(sc, type);
    if (!var)
      return false;
    emitVoid(Op::Store, {var, emit(Op::Load, type, {pointer})});
    body(var);
    if (copyBack)
      emitVoid(Op::Store, {pointer, emit(Op::Load, type, {var})});
    return !failed_;
  };
  switch (op) {
  case DxOp::ObjectToWorld:
  case DxOp::WorldToObject: {
    if (args.size() < 2)
      return fail("dx.op." + std::string(call.op->name) + " has too few operands");
    const uint32_t matrix = typeUniqued(Op::TypeMatrix, {typeVector(f32, 3), 4});
    const uint32_t var = builtinInput(
        op == DxOp::ObjectToWorld ? BuiltIn::ObjectToWorldKHR : BuiltIn::WorldToObjectKHR, matrix);
    setValue(inst.value, matrixElement(var, StorageClass::Input, args[0], args[1]));
    return !failed_;
  }
  case DxOp::TraceRay: {
    // handle, flags, instance mask, hit group offset, geometry stride, miss index, origin xyz,
    // tmin, direction xyz, tmax, payload.
    if (args.size() < 15)
      return fail("dx.op.traceRay has too few operands");
    const uint32_t accel = accelerationStructure(args[0]);
    std::vector<uint32_t> operands{accel};
    for (size_t i = 1; i <= 5; ++i)
      operands.push_back(arg(i));
    const uint32_t vec3 = typeVector(f32, 3);
    operands.push_back(emit(Op::CompositeConstruct, vec3, {arg(6), arg(7), arg(8)}));
    operands.push_back(arg(9));
    operands.push_back(emit(Op::CompositeConstruct, vec3, {arg(10), arg(11), arg(12)}));
    operands.push_back(arg(13));
    if (failed_)
      return false;
    return throughVariable(14, StorageClass::RayPayloadKHR, true, [&](uint32_t payload) {
      operands.push_back(payload);
      emitVoid(Op::TraceRayKHR, operands);
    });
  }
  case DxOp::CallShader: {
    const uint32_t index = arg(0);
    if (failed_)
      return false;
    return throughVariable(1, StorageClass::CallableDataKHR, true, [&](uint32_t data) {
      emitVoid(Op::ExecuteCallableKHR, {index, data});
    });
  }
  case DxOp::ReportHit: {
    const uint32_t t = arg(0), kind = arg(1);
    if (failed_)
      return false;
    return throughVariable(2, StorageClass::HitAttributeKHR, false, [&](uint32_t) {
      setValue(inst.value, emit(Op::ReportIntersectionKHR, typeBool(), {t, kind}));
    });
  }
  case DxOp::IgnoreHit:
  case DxOp::AcceptHitAndEndSearch: {
    // Terminators in SPIR-V, calls that do not return in DXIL: a function of one terminator,
    // called here (what follows the call in this block is never reached).
    const Op terminator = op == DxOp::IgnoreHit ? Op::IgnoreIntersectionKHR : Op::TerminateRayKHR;
    auto [it, inserted] = terminatorFunctions_.emplace(uint32_t(terminator), 0);
    if (inserted)
      it->second = id();
    emit(Op::FunctionCall, typeVoid(), {it->second});
    return true;
  }
  default:
    handled = false;
    return true;
  }
}

} // namespace spire::translate
