// The RDAT part: runtime data of libraries (and of shaders from validator 1.8 on). A header and a
// list of sub-parts: a string buffer, index arrays, raw bytes, and tables of records (resources,
// functions, subobjects, work graph nodes) whose records refer to one another by index.
#pragma once

#include "spire/dxil/Container.h"
#include "spire/dxil/ResourceKind.h"

#include <array>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace spire::dxil {

/// The types of RDAT's sub-parts.
enum class RdatPartType : uint32_t {
  Invalid = 0,
  StringBuffer = 1,
  IndexArrays = 2,
  ResourceTable = 3,
  FunctionTable = 4,
  RawBytes = 5,
  SubobjectTable = 6,
  NodeIdTable = 7,
  NodeShaderIOAttribTable = 8,
  NodeShaderFuncAttribTable = 9,
  IONodeTable = 10,
  NodeShaderInfoTable = 11,
  SignatureElementTable = 13,
  VSInfoTable = 14,
  PSInfoTable = 15,
  HSInfoTable = 16,
  DSInfoTable = 17,
  GSInfoTable = 18,
  CSInfoTable = 19,
  MSInfoTable = 20,
  ASInfoTable = 21,
};

/// One sub-part as stored. Tables (every type but the string buffer, the index arrays and the raw
/// bytes) start with a record count and a record stride.
struct RdatPart {
  RdatPartType type = RdatPartType::Invalid;
  uint32_t size = 0;       ///< bytes after the sub-part's 8-byte header
  uint64_t fileOffset = 0; ///< where the sub-part's header is in the file
  bool isTable = false;
  uint32_t recordCount = 0;
  uint32_t recordStride = 0;
  bool decoded = false; ///< false: a type spire keeps as it is (experimental tables)
};

struct RdatResource {
  ResourceClass resourceClass = ResourceClass::SRV;
  ResourceKind kind = ResourceKind::Invalid;
  uint32_t id = 0;
  uint32_t space = 0;
  uint32_t lowerBound = 0;
  uint32_t upperBound = 0; ///< ~0u: unbounded
  std::string_view name;
  uint32_t flags =
      0; ///< globally coherent 1, counter 2, ROV 4, dynamic indexing 8, 64-bit atomics 16
};

struct RdatFunction {
  std::string_view name; ///< mangled
  std::string_view unmangledName;
  std::vector<uint32_t> resources;            ///< indices into RuntimeData::resources
  std::vector<std::string_view> dependencies; ///< names of the functions it calls
  ShaderKind shaderKind = ShaderKind::Library;
  uint32_t payloadSizeInBytes = 0;
  uint32_t attributeSizeInBytes = 0;
  uint64_t featureFlags = 0;     ///< SFI0's bits, for this function
  uint32_t shaderStageFlags = 0; ///< bit n: may be called from a shader of kind n
  uint32_t minShaderTarget = 0;  ///< (kind << 16) | (major << 4) | minor
  // Records of 52 bytes and more (validator 1.8).
  bool hasVersion2 = false;
  uint8_t minimumExpectedWaveLaneCount = 0;
  uint8_t maximumExpectedWaveLaneCount = 0;
  uint16_t shaderFlags = 0;           ///< bit 0: a work graph's program entry node
  uint32_t stageInfoRef = ~0u;        ///< as stored: a record of the table of its kind
  std::optional<uint32_t> nodeShader; ///< node shaders: index into RuntimeData::nodeShaders
};

/// A state subobject of a library (DXR and work graph state).
struct RdatSubobject {
  uint32_t kind = 0; ///< see subobjectKindName
  std::string_view name;
  std::array<uint32_t, 4> raw{}; ///< the kind's fields as stored
  // Decoded by kind:
  uint32_t stateObjectFlags = 0;                     ///< StateObjectConfig
  std::span<const uint8_t> rootSignature;            ///< Global/LocalRootSignature: serialized RTS0
  std::string_view associatedSubobject;              ///< SubobjectToExportsAssociation
  std::vector<std::string_view> exports;             ///< SubobjectToExportsAssociation
  uint32_t maxPayloadSizeInBytes = 0;                ///< RaytracingShaderConfig
  uint32_t maxAttributeSizeInBytes = 0;              ///< RaytracingShaderConfig
  uint32_t maxTraceRecursionDepth = 0;               ///< RaytracingPipelineConfig(1)
  uint32_t pipelineFlags = 0;                        ///< RaytracingPipelineConfig1
  uint32_t hitGroupType = 0;                         ///< HitGroup: 0 triangle, 1 procedural
  std::string_view anyHit, closestHit, intersection; ///< HitGroup
};

struct RdatNodeId {
  std::string_view name;
  uint32_t index = 0;
};

/// An attribute of a node's input or output (see nodeIOAttribKindName).
struct RdatNodeIOAttrib {
  uint32_t kind = 0;
  uint32_t value = 0;               ///< as stored
  std::optional<uint32_t> outputId; ///< OutputID: index into RuntimeData::nodeIds
  // RecordDispatchGrid: where the record holds its SV_DispatchGrid.
  uint16_t dispatchGridByteOffset = 0;
  uint8_t dispatchGridComponents = 0;
  uint16_t dispatchGridComponentType = 0; ///< see dxilComponentTypeName
};

/// An attribute of a node shader (see nodeFuncAttribKindName).
struct RdatNodeFuncAttrib {
  uint32_t kind = 0;
  uint32_t value = 0;             ///< as stored
  std::optional<uint32_t> nodeId; ///< ID, ShareInputOf: index into RuntimeData::nodeIds
  std::vector<uint32_t> values;   ///< NumThreads, DispatchGrid, MaxDispatchGrid
};

struct RdatIONode {
  uint32_t ioFlagsAndKind = 0;
  std::vector<uint32_t> attribs; ///< indices into RuntimeData::nodeIOAttribs
};

struct RdatNodeShader {
  uint32_t launchType = 0; ///< see nodeLaunchTypeName
  uint32_t groupSharedBytesUsed = 0;
  std::vector<uint32_t> attribs; ///< indices into RuntimeData::nodeFuncAttribs
  std::vector<uint32_t> outputs; ///< indices into RuntimeData::ioNodes
  std::vector<uint32_t> inputs;  ///< indices into RuntimeData::ioNodes
};

struct RuntimeData {
  uint32_t version = 0;        ///< 0x10
  std::vector<RdatPart> parts; ///< every sub-part, in order, known or not
  std::string_view strings;
  std::vector<uint32_t> indexArrays;
  std::span<const uint8_t> rawBytes;
  std::vector<RdatResource> resources;
  std::vector<RdatFunction> functions;
  std::vector<RdatSubobject> subobjects;
  std::vector<RdatNodeId> nodeIds;
  std::vector<RdatNodeIOAttrib> nodeIOAttribs;
  std::vector<RdatNodeFuncAttrib> nodeFuncAttribs;
  std::vector<RdatIONode> ioNodes;
  std::vector<RdatNodeShader> nodeShaders;
};

/// Reads an RDAT part: every sub-part inside the part, every table's records inside its
/// sub-part (records may be larger than the ones known, not smaller), and every string offset,
/// index array and record index the records hold inside what it refers to (~0u refers to
/// nothing). The experimental stage-information tables are kept undecoded.
Expected<RuntimeData> readRuntimeData(const ContainerPart &part);

const char *rdatPartTypeName(RdatPartType type);
const char *subobjectKindName(uint32_t kind);
/// The subobject kinds (D3D12_STATE_SUBOBJECT_TYPE) that root signatures come in.
inline constexpr uint32_t kGlobalRootSignatureSubobject = 1, kLocalRootSignatureSubobject = 2,
                          kSubobjectToExportsAssociation = 8;
const char *nodeLaunchTypeName(uint32_t launchType);
const char *nodeFuncAttribKindName(uint32_t kind);
const char *nodeIOAttribKindName(uint32_t kind);
/// DXIL's component type names ("u32", "f16", "snorm_f32"), or null.
const char *dxilComponentTypeName(uint32_t type);
/// The node I/O kind of an IONode's low bits ("DispatchNodeInputRecord"), or null.
const char *nodeIOKindName(uint32_t ioFlagsAndKind);

} // namespace spire::dxil
