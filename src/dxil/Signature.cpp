#include "spire/dxil/Signature.h"

#include "PartReader.h"

namespace spire::dxil {

namespace {
constexpr size_t kElementSize = 32;
} // namespace

Expected<ProgramSignature> readSignature(const ContainerPart &part) {
  detail::PartReader r(part);
  if (auto e = r.require(0, 8, "the signature header"))
    return *e;
  ProgramSignature sig;
  sig.fourcc = part.fourcc;
  uint32_t count = r.u32(0);
  uint32_t first = r.u32(4);
  if (auto e = r.requireArray(first, count, kElementSize, "the signature's elements"))
    return *e;
  sig.elements.reserve(count);
  detail::ResolveBudget budget(r.size());
  for (uint32_t i = 0; i < count; ++i) {
    uint64_t at = first + uint64_t(i) * kElementSize;
    SignatureElement el;
    el.stream = r.u32(at);
    uint32_t nameOffset = r.u32(at + 4);
    el.semanticIndex = r.u32(at + 8);
    el.systemValue = SystemValue(r.u32(at + 12));
    el.componentType = ComponentType(r.u32(at + 16));
    el.registerIndex = r.u32(at + 20);
    el.mask = r.u8(at + 24);
    el.readWriteMask = r.u8(at + 25);
    el.minPrecision = MinPrecision(r.u32(at + 28));
    if (nameOffset != 0) { // zero: no name
      Expected<std::string_view> name =
          r.cstring(nameOffset, "the semantic name of element " + std::to_string(i));
      if (!name)
        return name.error();
      if (!budget.take(name->size()))
        return r.error(at + 4, "the elements' semantic names add up to more than a part of " +
                                   std::to_string(r.size()) + " bytes can plausibly hold");
      el.semanticName = *name;
    }
    sig.elements.push_back(el);
  }
  return sig;
}

const char *systemValueName(SystemValue value) {
  switch (value) {
  case SystemValue::Undefined:
    return "NONE";
  case SystemValue::Position:
    return "POS";
  case SystemValue::ClipDistance:
    return "CLIPDST";
  case SystemValue::CullDistance:
    return "CULLDST";
  case SystemValue::RenderTargetArrayIndex:
    return "RTINDEX";
  case SystemValue::ViewportArrayIndex:
    return "VPINDEX";
  case SystemValue::VertexId:
    return "VERTID";
  case SystemValue::PrimitiveId:
    return "PRIMID";
  case SystemValue::InstanceId:
    return "INSTID";
  case SystemValue::IsFrontFace:
    return "FFACE";
  case SystemValue::SampleIndex:
    return "SAMPLE";
  case SystemValue::FinalQuadEdgeTessFactor:
    return "QUADEDGE";
  case SystemValue::FinalQuadInsideTessFactor:
    return "QUADINT";
  case SystemValue::FinalTriEdgeTessFactor:
    return "TRIEDGE";
  case SystemValue::FinalTriInsideTessFactor:
    return "TRIINT";
  case SystemValue::FinalLineDetailTessFactor:
    return "LINEDET";
  case SystemValue::FinalLineDensityTessFactor:
    return "LINEDEN";
  case SystemValue::Barycentrics:
    return "BARYCEN";
  case SystemValue::ShadingRate:
    return "SHDINGRT";
  case SystemValue::CullPrimitive:
    return "CULLPRIM";
  case SystemValue::Target:
    return "TARGET";
  case SystemValue::Depth:
    return "DEPTH";
  case SystemValue::Coverage:
    return "COVERAGE";
  case SystemValue::DepthGreaterEqual:
    return "DEPTHGE";
  case SystemValue::DepthLessEqual:
    return "DEPTHLE";
  case SystemValue::StencilRef:
    return "STENCILREF";
  case SystemValue::InnerCoverage:
    return "INNERCOV";
  }
  return nullptr;
}

const char *componentTypeName(ComponentType type) {
  switch (type) {
  case ComponentType::Unknown:
    return "unknown";
  case ComponentType::UInt32:
    return "uint";
  case ComponentType::SInt32:
    return "int";
  case ComponentType::Float32:
    return "float";
  case ComponentType::UInt16:
    return "uint16";
  case ComponentType::SInt16:
    return "int16";
  case ComponentType::Float16:
    return "fp16";
  case ComponentType::UInt64:
    return "uint64";
  case ComponentType::SInt64:
    return "int64";
  case ComponentType::Float64:
    return "double";
  }
  return nullptr;
}

const char *minPrecisionName(MinPrecision precision) {
  switch (precision) {
  case MinPrecision::Default:
    return "";
  case MinPrecision::Float16:
    return "min16f";
  case MinPrecision::Float2_8:
    return "min2_8f";
  case MinPrecision::Reserved:
    return "reserved";
  case MinPrecision::SInt16:
    return "min16i";
  case MinPrecision::UInt16:
    return "min16u";
  case MinPrecision::Any16:
    return "any16";
  case MinPrecision::Any10:
    return "any10";
  }
  return nullptr;
}

std::string maskLetters(uint8_t mask) {
  std::string s = "    ";
  for (int i = 0; i < 4; ++i)
    if (mask & (1u << i))
      s[i] = "xyzw"[i];
  return s;
}

} // namespace spire::dxil
