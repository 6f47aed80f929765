// The DXIL model: a DXIL program's named metadata decoded into typed records (shader model, entry
// points with their signatures, resources and properties, type annotations, view ID state) and
// every dx.op call resolved to its operation and checked. It refers into the LlvmModule it was
// decoded from (ValueIds, TypeIds, MetadataIds, instruction indices); keep both.
#pragma once

#include "spire/dxil/Container.h"
#include "spire/dxil/DxilOps.h"
#include "spire/dxil/LlvmModule.h"
#include "spire/dxil/PipelineStateValidation.h"
#include "spire/dxil/ResourceKind.h"
#include "spire/dxil/ViewIdState.h"
#include "spire/support/Expected.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace spire::dxil {

/// DXIL's component types in metadata (signature elements, typed resources, annotations); the
/// container signatures' ComponentType (Signature.h) numbers differently.
enum class DxilComponentType : uint8_t {
  Invalid,
  I1,
  I16,
  U16,
  I32,
  U32,
  I64,
  U64,
  F16,
  F32,
  F64,
  SNormF16,
  UNormF16,
  SNormF32,
  UNormF32,
  SNormF64,
  UNormF64,
  PackedS8x32,
  PackedU8x32,
};
/// "f32", "snorm_f16"...; "" for a value outside the enumeration.
std::string_view dxilComponentTypeName(DxilComponentType type);

// SemanticKind and InterpolationMode: PipelineStateValidation.h (PSV0 numbers them as DXIL does).

enum class SamplerKind : uint8_t { Default, Comparison, Mono };

/// A tag/value pair the decoder does not interpret (or interprets and keeps): the value is the
/// metadata operand after the tag, kNoId for null.
struct RawTag {
  uint32_t tag = 0;
  MetadataId value = kNoId;
};

/// A signature element's semantic indices, one per row: up to kInline of them (most elements)
/// inside the element, no allocation; more on the heap. A read-only sequence of uint32_t.
class SemanticIndices {
public:
  using value_type = uint32_t;
  using size_type = size_t;
  using iterator = const uint32_t *;
  using const_iterator = const uint32_t *;
  static constexpr uint32_t kInline = 5;

  SemanticIndices() = default;
  SemanticIndices(std::initializer_list<uint32_t> indices) {
    std::copy(indices.begin(), indices.end(), resize(uint32_t(indices.size())));
  }
  SemanticIndices(const SemanticIndices &other) {
    std::copy(other.begin(), other.end(), resize(other.size_));
  }
  SemanticIndices(SemanticIndices &&other) noexcept
      : size_(other.size_), heap_(std::move(other.heap_)) {
    std::copy(std::begin(other.inline_), std::end(other.inline_), inline_);
    other.size_ = 0;
  }
  SemanticIndices &operator=(const SemanticIndices &other) {
    if (this != &other)
      std::copy(other.begin(), other.end(), resize(other.size_));
    return *this;
  }
  SemanticIndices &operator=(SemanticIndices &&other) noexcept {
    size_ = other.size_;
    heap_ = std::move(other.heap_);
    std::copy(std::begin(other.inline_), std::end(other.inline_), inline_);
    other.size_ = 0;
    return *this;
  }

  /// Room for `n` indices (the old ones dropped), to be written through the pointer returned.
  uint32_t *resize(uint32_t n) {
    size_ = n;
    if (n <= kInline) {
      heap_.reset();
      return inline_;
    }
    heap_.reset(new uint32_t[n]());
    return heap_.get();
  }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const uint32_t *data() const { return size_ <= kInline ? inline_ : heap_.get(); }
  const uint32_t *begin() const { return data(); }
  const uint32_t *end() const { return data() + size_; }
  uint32_t operator[](size_t i) const { return data()[i]; }

  friend bool operator==(const SemanticIndices &a, const SemanticIndices &b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }
  friend bool operator==(const SemanticIndices &a, const std::vector<uint32_t> &b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }

private:
  uint32_t size_ = 0;
  uint32_t inline_[kInline] = {};
  std::unique_ptr<uint32_t[]> heap_; ///< when size_ > kInline
};

/// One element of an input, output or patch-constant/primitive signature.
struct DxilSignatureElement {
  /// Every field from its initializer (a constructor of our own: value-initialization, as in a
  /// vector's resize, then sets each field once, not after zeroing the whole record).
  DxilSignatureElement() {}
  uint32_t id = 0; ///< the element id loadInput/storeOutput use
  std::string name;
  DxilComponentType componentType = DxilComponentType::Invalid;
  SemanticKind semanticKind = SemanticKind::Arbitrary;
  SemanticIndices semanticIndices; ///< one per row
  InterpolationMode interpolation = InterpolationMode::Undefined;
  uint32_t rows = 0;
  uint32_t cols = 0;
  int32_t startRow = -1; ///< -1: not allocated (placed by the driver)
  int32_t startCol = -1;
  std::optional<uint32_t> outputStream;     ///< tag 0 (GS)
  std::optional<uint32_t> dynamicIndexMask; ///< tag 2
  std::optional<uint32_t> usageMask;        ///< tag 3
  std::vector<RawTag> otherTags;            ///< tags not listed above
  MetadataId node = kNoId;
};

struct Signatures {
  std::vector<DxilSignatureElement> inputs, outputs;
  std::vector<DxilSignatureElement> patchConstants; ///< HS/DS patch constants; MS primitives
};

/// One SRV, UAV, CBV or sampler range.
struct DxilResource {
  /// Every field from its initializer (a constructor of our own: value-initialization, as in a
  /// vector's resize, then sets each field once, not after zeroing the whole record).
  DxilResource() {}
  ResourceClass resourceClass = ResourceClass::SRV;
  uint32_t id = 0;        ///< the range id createHandle names (its position in its list)
  ValueId symbol = kNoId; ///< the global symbol operand as written (often a constant expression)
  ValueId global = kNoId; ///< the global variable behind it (casts stripped), or kNoId
  std::string name;       ///< the HLSL name (empty when stripped)
  uint32_t space = 0;
  uint32_t lowerBound = 0;
  uint32_t rangeSize = 0;                    ///< 0xFFFFFFFF: unbounded
  ResourceKind kind = ResourceKind::Invalid; ///< SRV/UAV shape; CBuffer; Sampler
  uint32_t sampleCount = 0;                  ///< SRV
  bool globallyCoherent = false, hasCounter = false, rasterizerOrdered = false; ///< UAV
  uint32_t cbufferSize = 0;                                                     ///< CBV: bytes
  SamplerKind samplerKind = SamplerKind::Default;                               ///< sampler
  std::optional<DxilComponentType> elementType; ///< tag 0: typed buffers and textures
  std::optional<uint32_t> stride;               ///< tag 1: structured buffers
  std::optional<uint32_t> samplerFeedbackKind;  ///< tag 2
  bool atomic64Use = false;                     ///< tag 3
  std::vector<RawTag> otherTags;
  MetadataId node = kNoId;
};

/// The four resource lists of dx.resources or of an entry, each in id order.
struct ResourceLists {
  std::vector<DxilResource> srvs, uavs, cbvs, samplers;
  MetadataId node = kNoId; ///< the !{SRVs, UAVs, CBVs, Samplers} node (entries often share it)
  const std::vector<DxilResource> &list(ResourceClass c) const;
  /// The resource with this class and range id, or null.
  const DxilResource *find(ResourceClass c, uint32_t id) const;
  size_t size() const { return srvs.size() + uavs.size() + cbvs.size() + samplers.size(); }
};

struct GsState {
  uint32_t inputPrimitive = 0, maxVertexCount = 0, activeStreamMask = 0, outputTopology = 0,
           instanceCount = 0;
};
struct DsState {
  uint32_t domain = 0, inputControlPoints = 0;
};
struct HsState {
  ValueId patchConstantFunction = kNoId;
  uint32_t inputControlPoints = 0, outputControlPoints = 0, domain = 0, partitioning = 0,
           outputPrimitive = 0;
  float maxTessFactor = 0;
};
struct MsState {
  std::array<uint32_t, 3> numThreads{};
  uint32_t maxVertexCount = 0, maxPrimitiveCount = 0, outputTopology = 0, payloadSize = 0;
};
struct AsState {
  std::array<uint32_t, 3> numThreads{};
  uint32_t payloadSize = 0;
};
struct WaveSize {
  uint32_t min = 0, max = 0, preferred = 0; ///< the one-value form: min only
};

/// A work graph node's name: {name, array index}.
struct NodeId {
  std::string name;
  uint32_t index = 0;
};
/// A node's input or output (an entry of tags 20 / 21): its tag/value list decoded.
struct NodeIo {
  uint32_t flags = 0;      ///< tag 1: NodeIOFlags (input, output, read-write, array, ...)
  uint32_t recordSize = 0; ///< tag 2's record type, its tag 0: the record's size in bytes
  /// tag 2's record type, its tag 1: SV_DispatchGrid's byte offset, component type, count.
  std::optional<std::array<uint32_t, 3>> dispatchGrid;
  uint32_t maxRecords = 0;                      ///< tag 3
  std::optional<uint32_t> maxRecordsSharedWith; ///< tag 4: the output sharing the limit
  std::optional<uint32_t> arraySize;            ///< tag 5 (0xFFFFFFFF: unbounded)
  bool allowSparse = false;                     ///< tag 6
  NodeId target;                                ///< tag 0 (outputs): the node written to
};
/// A work graph node shader's properties (entry tags 13-22).
struct NodeProperties {
  uint32_t launch = 0;       ///< tag 13: 1 broadcasting, 2 coalescing, 3 thread, 4 mesh
  bool programEntry = false; ///< tag 14
  std::optional<NodeId> id;  ///< tag 15
  std::optional<uint32_t> localRootArgumentsTableIndex;   ///< tag 16
  std::optional<NodeId> sharesInputOf;                    ///< tag 17
  std::optional<std::array<uint32_t, 3>> dispatchGrid;    ///< tag 18
  std::optional<uint32_t> maxRecursionDepth;              ///< tag 19
  std::vector<NodeIo> inputs, outputs;                    ///< tags 20, 21
  std::optional<std::array<uint32_t, 3>> maxDispatchGrid; ///< tag 22
};

/// An entry's property list, decoded by tag. Tags not decoded (the entry root signature...)
/// are kept raw in `otherTags`, in order.
struct EntryProperties {
  std::optional<uint64_t> shaderFlags;               ///< tag 0
  std::optional<GsState> gs;                         ///< tag 1
  std::optional<DsState> ds;                         ///< tag 2
  std::optional<HsState> hs;                         ///< tag 3
  std::optional<std::array<uint32_t, 3>> numThreads; ///< tag 4
  std::optional<uint32_t> autoBindingSpace;          ///< tag 5
  std::optional<uint32_t> rayPayloadSize;            ///< tag 6
  std::optional<uint32_t> rayAttributeSize;          ///< tag 7
  std::optional<ShaderKind> shaderKind;              ///< tag 8 (library entries)
  std::optional<MsState> ms;                         ///< tag 9
  std::optional<AsState> as;                         ///< tag 10
  std::optional<WaveSize> waveSize;                  ///< tag 11 (one value) or 23 (range)
  std::optional<NodeProperties> node;                ///< tags 13-22 (work graph nodes)
  std::vector<RawTag> otherTags;
};

struct EntryPoint {
  /// Every field from its initializer (a constructor of our own: value-initialization, as in a
  /// vector's resize, then sets each field once, not after zeroing the whole record).
  EntryPoint() {}
  ValueId function = kNoId; ///< the entry function's value; kNoId: a library's no-entry record
  uint32_t functionIndex = kNoId; ///< into LlvmModule::functions
  std::string name;
  ShaderKind kind = ShaderKind::Library; ///< the shader model's kind, or tag 8 in a library
  Signatures signatures;
  ResourceLists resources; ///< the entry's own lists (libraries), usually empty
  EntryProperties properties;
  MetadataId node = kNoId;
};

/// A struct field's or function parameter's annotation (tag/value list).
struct FieldAnnotation {
  std::string name;                               ///< tag 6
  std::optional<uint32_t> cbufferOffset;          ///< tag 3
  std::optional<DxilComponentType> componentType; ///< tag 7
  std::optional<std::array<uint32_t, 3>>
      matrix; ///< tag 2: rows, columns, orientation (1 row-, 2 column-major)
  std::optional<std::string> semantic;                ///< tag 4
  std::optional<InterpolationMode> interpolation;     ///< tag 5
  bool snorm = false, unorm = false, precise = false; ///< tags 0, 1, 8
  std::optional<uint32_t> cbUsed;                     ///< tag 9
  std::vector<RawTag> otherTags;
};
struct StructAnnotation {
  TypeId type = kNoId;
  uint32_t sizeInBytes = 0;
  std::vector<FieldAnnotation> fields;
};
struct ParameterAnnotation {
  uint32_t inputOutput = 0; ///< 0 in, 1 out, 2 inout, 3 input patch, 4 output patch...
  FieldAnnotation field;
  std::vector<uint32_t> semanticIndices;
};
struct FunctionAnnotation {
  ValueId function = kNoId;
  std::vector<ParameterAnnotation> parameters; ///< the return value first
};

/// A dx.op call resolved: the operation, its overload and where its operands are.
struct DxilOpCall {
  uint32_t instruction = 0; ///< into LlvmModule::instructions
  uint32_t function = 0;    ///< the caller, into LlvmModule::functions
  const OpInfo *op = nullptr;
  Overload overload = Overload::Void;
  TypeId overloadType = kNoId; ///< the type `$o` stands for (kNoId for Void)
};

struct DxilModule {
  /// Every field from its initializer (a constructor of our own: value-initialization, as in a
  /// vector's resize, then sets each field once, not after zeroing the whole record).
  DxilModule() {}
  const LlvmModule *llvm = nullptr;
  uint32_t dxilMajor = 0, dxilMinor = 0;                   ///< dx.version
  std::optional<std::array<uint32_t, 2>> validatorVersion; ///< dx.valver
  ShaderKind kind = ShaderKind::Pixel;                     ///< dx.shaderModel
  uint32_t shaderModelMajor = 0, shaderModelMinor = 0;
  std::vector<EntryPoint> entryPoints;
  ResourceLists resources; ///< dx.resources
  std::vector<StructAnnotation> structAnnotations;
  std::vector<FunctionAnnotation> functionAnnotations;
  std::vector<MetadataId> otherTypeAnnotations; ///< dx.typeAnnotations records of other kinds
  std::vector<uint32_t> viewIdState;            ///< dx.viewIdState's words, as stored
  std::optional<ViewIdState> viewId;            ///< the same words decoded, when there are some
  std::optional<MetadataId> rootSignature;      ///< dx.rootSignature's node, kept raw
  std::vector<DxilOpCall> opCalls;              ///< in instruction order
  std::vector<uint32_t> opCallIndex;            ///< per instruction: into opCalls, or kNoId

  bool isLibrary() const { return kind == ShaderKind::Library; }
  /// The resolved call at an instruction, or null when it is not a dx.op call.
  const DxilOpCall *opCallAt(uint32_t instruction) const {
    return instruction < opCallIndex.size() && opCallIndex[instruction] != kNoId
               ? &opCalls[opCallIndex[instruction]]
               : nullptr;
  }
  /// A call's operands after the opcode (the callee is not one of them).
  std::span<const ValueId> opArguments(const DxilOpCall &call) const;
  /// The entry whose function is `functionIndex`, or null.
  const EntryPoint *entryOf(uint32_t functionIndex) const;
};

/// What the container says beside the program, when the bitcode came from one.
struct DxilContainerInfo {
  ShaderKind kind = ShaderKind::Pixel;
  uint8_t shaderModelMajor = 0, shaderModelMinor = 0;
};

/// Decodes the named metadata and resolves every dx.op call. A malformed record or a call that
/// does not resolve is a one-line diagnostic naming the metadata node or the function and
/// instruction. `container`: the program header's kind and shader model, checked against
/// dx.shaderModel.
Expected<DxilModule> decodeDxil(const LlvmModule &module,
                                std::optional<DxilContainerInfo> container = std::nullopt);

} // namespace spire::dxil
