// The PSV0 part: what the D3D runtime checks a pipeline against. Runtime information in four
// versions told apart by size (0: stage info and wave sizes; 1: stage, signature counts and
// vectors; 2: thread group size; 3: entry name), resource bindings, the signature elements with
// their string and semantic-index tables, and the view-ID and input-to-output dependence masks.
#pragma once

#include "spire/dxil/Container.h"
#include "spire/dxil/ResourceKind.h"
#include "spire/dxil/Signature.h"

#include <array>
#include <optional>
#include <string_view>
#include <variant>
#include <vector>

namespace spire::dxil {

/// How PSV0 classifies a resource binding.
enum class PsvResourceType : uint32_t {
  Invalid = 0,
  Sampler = 1,
  CBV = 2,
  SRVTyped = 3,
  SRVRaw = 4,
  SRVStructured = 5,
  UAVTyped = 6,
  UAVRaw = 7,
  UAVStructured = 8,
  UAVStructuredWithCounter = 9,
};

/// DXIL's semantic kinds (the meaning of a signature element).
enum class SemanticKind : uint8_t {
  Arbitrary,
  VertexId,
  InstanceId,
  Position,
  RenderTargetArrayIndex,
  ViewportArrayIndex,
  ClipDistance,
  CullDistance,
  OutputControlPointId,
  DomainLocation,
  PrimitiveId,
  GSInstanceId,
  SampleIndex,
  IsFrontFace,
  Coverage,
  InnerCoverage,
  Target,
  Depth,
  DepthLessEqual,
  DepthGreaterEqual,
  StencilRef,
  DispatchThreadId,
  GroupId,
  GroupIndex,
  GroupThreadId,
  TessFactor,
  InsideTessFactor,
  ViewId,
  Barycentrics,
  ShadingRate,
  CullPrimitive,
  StartVertexLocation,
  StartInstanceLocation,
};

enum class InterpolationMode : uint8_t {
  Undefined,
  Constant,
  Linear,
  LinearCentroid,
  LinearNoperspective,
  LinearNoperspectiveCentroid,
  LinearSample,
  LinearNoperspectiveSample,
};

// Stage information of runtime info version 0, by stage.
struct PsvVertexInfo {
  bool outputPositionPresent = false;
};
struct PsvHullInfo {
  uint32_t inputControlPointCount = 0;
  uint32_t outputControlPointCount = 0;
  uint32_t tessellatorDomain = 0;          ///< see tessellatorDomainName
  uint32_t tessellatorOutputPrimitive = 0; ///< see tessellatorOutputPrimitiveName
};
struct PsvDomainInfo {
  uint32_t inputControlPointCount = 0;
  bool outputPositionPresent = false;
  uint32_t tessellatorDomain = 0;
};
struct PsvGeometryInfo {
  uint32_t inputPrimitive = 0; ///< see inputPrimitiveName
  uint32_t outputTopology = 0; ///< see primitiveTopologyName
  uint32_t outputStreamMask = 0;
  bool outputPositionPresent = false;
};
struct PsvPixelInfo {
  bool depthOutput = false;
  bool sampleFrequency = false;
};
struct PsvMeshInfo {
  uint32_t groupSharedBytesUsed = 0;
  uint32_t groupSharedBytesDependentOnViewId = 0;
  uint32_t payloadSizeInBytes = 0;
  uint16_t maxOutputVertices = 0;
  uint16_t maxOutputPrimitives = 0;
};
struct PsvAmplificationInfo {
  uint32_t payloadSizeInBytes = 0;
};
/// Empty for compute shaders, libraries and a version 0 part read without the program's kind.
using PsvStageInfo = std::variant<std::monostate, PsvVertexInfo, PsvHullInfo, PsvDomainInfo,
                                  PsvGeometryInfo, PsvPixelInfo, PsvMeshInfo, PsvAmplificationInfo>;

struct PsvResourceBinding {
  PsvResourceType type = PsvResourceType::Invalid;
  uint32_t space = 0;
  uint32_t lowerBound = 0;
  uint32_t upperBound = 0;                   ///< ~0u: unbounded
  ResourceKind kind = ResourceKind::Invalid; ///< binding records of 24 bytes and more
  uint32_t flags = 0;                        ///< bit 0: used by 64-bit atomics
};

struct PsvSignatureElement {
  std::string_view semanticName;         ///< views the container's bytes
  std::vector<uint32_t> semanticIndexes; ///< one per row
  uint8_t rows = 0;
  uint8_t startRow = 0;
  uint8_t cols = 0;
  uint8_t startCol = 0;
  bool allocated = false;
  SemanticKind semanticKind = SemanticKind::Arbitrary;
  ComponentType componentType = ComponentType::Unknown;
  InterpolationMode interpolationMode = InterpolationMode::Undefined;
  uint8_t dynamicIndexMask = 0;
  uint8_t outputStream = 0;
};

struct PipelineStateValidation {
  uint32_t runtimeInfoSize = 0; ///< as stored
  uint32_t version = 0;         ///< 0-3: the largest runtime info version the size holds

  // Version 0.
  std::array<uint8_t, 16> stageBytes{}; ///< the stage union as stored
  PsvStageInfo stage;                   ///< decoded for the stage, when known
  uint32_t minimumWaveLaneCount = 0;
  uint32_t maximumWaveLaneCount = 0;

  // Version 1.
  std::optional<ShaderKind> shaderStage; ///< version 1 and up, else the program's kind if given
  bool usesViewId = false;
  uint16_t maxVertexCount = 0;            ///< geometry shaders
  uint8_t sigPatchConstOrPrimVectors = 0; ///< hull (output), domain (input), mesh (primitives)
  uint8_t meshOutputTopology = 0;         ///< mesh shaders: see meshOutputTopologyName
  uint8_t sigInputElements = 0;
  uint8_t sigOutputElements = 0;
  uint8_t sigPatchConstOrPrimElements = 0;
  uint8_t sigInputVectors = 0;
  std::array<uint8_t, 4> sigOutputVectors{}; ///< per geometry stream

  // Version 2.
  std::array<uint32_t, 3> numThreads{};

  // Version 3.
  std::string_view entryName;

  uint32_t resourceBindingSize = 0; ///< bytes per binding record, when there are bindings
  std::vector<PsvResourceBinding> resources;

  std::string_view stringTable; ///< the raw table, NULs included
  std::vector<uint32_t> semanticIndexTable;
  uint32_t signatureElementSize = 0; ///< bytes per element record, when there are elements
  std::vector<PsvSignatureElement> inputElements;
  std::vector<PsvSignatureElement> outputElements;
  std::vector<PsvSignatureElement> patchConstOrPrimElements;

  /// Per stream (only stream 0 outside geometry shaders): one bit per output component that
  /// depends on the view ID. Present when usesViewId.
  std::array<std::vector<uint32_t>, 4> viewIdOutputMasks;
  std::vector<uint32_t> viewIdPatchConstOrPrimOutputMask; ///< hull and mesh shaders
  /// Per stream: for each input component, one bit per output component it flows into.
  std::array<std::vector<uint32_t>, 4> inputToOutputTables;
  std::vector<uint32_t> inputToPatchConstOutputTable; ///< hull shaders
  std::vector<uint32_t> patchConstInputToOutputTable; ///< domain shaders

  uint32_t trailingBytes = 0; ///< bytes after the last table (none in what DXC writes)
};

/// Reads a PSV0 part. The runtime info's size selects its version; bindings and signature
/// elements may use records larger than the ones known (the rest of each record is skipped).
/// `programKind` (the DXIL part's) decodes version 0's stage information, which does not say its
/// stage; later versions say it themselves.
Expected<PipelineStateValidation>
readPipelineStateValidation(const ContainerPart &part,
                            std::optional<ShaderKind> programKind = std::nullopt);

const char *psvResourceTypeName(PsvResourceType type);
const char *semanticKindName(SemanticKind kind);
const char *interpolationModeName(InterpolationMode mode);
const char *tessellatorDomainName(uint32_t domain);
const char *tessellatorOutputPrimitiveName(uint32_t primitive);
const char *inputPrimitiveName(uint32_t primitive);
const char *primitiveTopologyName(uint32_t topology);
const char *meshOutputTopologyName(uint32_t topology);

} // namespace spire::dxil
