// DXIL -> SPIR-V: one Vulkan SPIR-V module per entry point of a DXIL program, with the binding
// model that maps D3D registers to Vulkan descriptor sets and bindings made explicit.
#pragma once

#include "spire/dxil/DxilModule.h"
#include "spire/dxil/RootSignature.h"
#include "spire/dxil/RuntimeData.h"
#include "spire/support/Expected.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace spire::translate {

/// Where a root signature's arguments are: the push constant block (the root signature all
/// stages share, applyRootSignature) or, for a ray tracing shader, its shader record: the local
/// root arguments that follow the shader group handle in the shader binding table, read through
/// `ShaderRecordBufferKHR` (a local root signature, applyLocalRootSignature).
enum class RootArguments : uint8_t { PushConstants, ShaderRecord };

/// A constant buffer whose values are a root signature's root constants (a Constants32Bit
/// parameter): read from the push constant block or the shader record instead of a uniform
/// buffer.
struct RootConstants {
  uint32_t space = 0, shaderRegister = 0; ///< the constant buffer's register b<n> and space
  uint32_t num32BitValues = 0;
  uint32_t offset = 0; ///< bytes into the push constant block (or shader record), a multiple of 4
  RootArguments where = RootArguments::PushConstants;
};

/// A root descriptor (a CBV, SRV or UAV parameter) as the buffer's device address
/// (VK_KHR_buffer_device_address, 8 bytes) in the shader record (a local root signature) or the
/// push constant block (applyRootSignature's `descriptorsAsAddresses`). A constant buffer is
/// read, and a raw or structured buffer read and written, through a PhysicalStorageBuffer
/// pointer; it has no size (GetDimensions is refused), as a D3D root descriptor has none.
struct RootDescriptorAddress {
  dxil::ResourceClass resourceClass = dxil::ResourceClass::CBuffer;
  uint32_t space = 0, shaderRegister = 0;
  uint32_t offset = 0; ///< bytes into the shader record or push constant block, a multiple of 8
  RootArguments where = RootArguments::ShaderRecord;
};

/// A range of a root signature's descriptor table whose descriptors are read from the descriptor
/// heap (BindingModel::heapTables): the table's first descriptor's index in the heap is a push
/// constant, set with the table (SetGraphicsRootDescriptorTable).
struct HeapTableRange {
  dxil::ResourceClass resourceClass = dxil::ResourceClass::SRV;
  uint32_t space = 0, baseRegister = 0;
  uint32_t count = 1;         ///< 0xFFFFFFFF: unbounded
  uint32_t offsetInTable = 0; ///< descriptors from the table's start
  /// Bytes into the push constant block (or the shader record) of the table's start: 4 bytes
  /// in the push constant block; in a shader record the 8 bytes of a descriptor handle, whose
  /// first 4 hold the heap index.
  uint32_t offset = 0;
  RootArguments where = RootArguments::PushConstants;
};

/// How D3D resources become Vulkan descriptors. The default: set = register space, binding =
/// register + the class's offset (so that t0, u0, b0 and s0 of one space do not collide), raw and
/// structured buffers as storage buffers, typed buffers as texel buffers, constant buffers as
/// uniform buffers.
struct BindingModel {
  /// Added to the register number per class (SRV, UAV, CBV, sampler).
  uint32_t srvOffset = 0, uavOffset = 1000, cbvOffset = 2000, samplerOffset = 3000;
  /// Raw and structured buffers as texel buffers (R32ui) instead of storage buffers.
  bool rawBuffersAsTexelBuffers = false;
  /// The descriptor set of UAV counters; their binding is the UAV's binding. The counters of a
  /// UAV array are an array of the same size.
  uint32_t counterSet = 7;
  /// SM 6.6 descriptor heaps (ResourceDescriptorHeap[i], SamplerDescriptorHeap[i]): runtime
  /// descriptor arrays in set `heapSet` indexed by the heap index, one binding per Vulkan
  /// descriptor type, counted from `heapBinding` in this order (HeapSlot): samplers, storage
  /// buffers, uniform buffers, sampled images, storage images, uniform texel buffers, storage
  /// texel buffers, acceleration structures, then the UAV counters of heap UAVs (storage
  /// buffers of one uint, at the UAV's index). Variables of different image types share their
  /// type's binding (aliased), as they share the D3D heap; raw and structured buffers follow
  /// `rawBuffersAsTexelBuffers`.
  uint32_t heapSet = 6, heapBinding = 0;
  /// Constant buffers that are root constants (applyRootSignature): a Block of `uint[n]` members at
  /// their offsets, in PushConstant storage; each constant buffer is its member. A value read
  /// past a member's end (a row of four that the root constants fill only in part) is undefined,
  /// as in D3D; a row index that is not a constant is clamped to the last value.
  std::vector<RootConstants> rootConstants;
  /// Resources in descriptor tables that are read from the heap (applyRootSignature with
  /// `tablesInHeap`, `--descriptor-tables-in-heap`): a resource whose registers lie in a range
  /// is the heap's descriptor (the SM 6.6 heap arrays above) at the table's start (a push
  /// constant) + the range's offset in the table + register - the range's base register (+ the
  /// index into a resource array), as vkd3d-proton binds descriptor tables.
  std::vector<HeapTableRange> heapTables;
  /// Root descriptors read through their addresses (applyLocalRootSignature; applyRootSignature
  /// with `descriptorsAsAddresses`).
  std::vector<RootDescriptorAddress> rootAddresses;
};

/// Lays a root signature's parameters out as one push constant block that all stages share, in
/// parameter order from offset 0: a Constants32Bit parameter's values (4 bytes each) into
/// `model.rootConstants`, the way the application's vkCmdPushConstants lays out the values of
/// SetGraphicsRoot32BitConstants; with `tablesInHeap`, a descriptor table's start in the heap (4
/// bytes) and its ranges into `model.heapTables`; with `descriptorsAsAddresses`, a root CBV, SRV
/// or UAV's buffer device address (8 bytes, 8-aligned) into `model.rootAddresses`, as
/// vkd3d-proton passes root descriptors when the device has buffer device addresses. Otherwise
/// root descriptors (and tables) stay descriptors. Fails on a range appended after an unbounded
/// one, a table that mixes samplers with other descriptors, or arguments beyond D3D12's 64
/// DWORDs.
Status applyRootSignature(const dxil::RootSignature &signature, bool tablesInHeap,
                          BindingModel &model, bool descriptorsAsAddresses = false);

/// Lays a local root signature's parameters out as a ray tracing shader's record (its local root
/// arguments, after the shader group handle), in parameter order from offset 0, each argument
/// aligned to its size as D3D12 lays out a shader record: a Constants32Bit parameter's values
/// (4 bytes each, 4-aligned) into `model.rootConstants`; a descriptor table (an 8-byte,
/// 8-aligned descriptor handle whose first 4 bytes are the heap index of the table's first
/// descriptor, as the heap arrays index it) into `model.heapTables`; a root CBV, SRV or UAV
/// (an 8-byte buffer device address, 8-aligned) into `model.rootAddresses`. The same errors
/// as applyRootSignature's.
Status applyLocalRootSignature(const dxil::RootSignature &signature, BindingModel &model);

/// The local root signature of some ray tracing entries (DxilTranslateOptions).
struct LocalRootSignature {
  /// The entries it applies to, by name (exported or mangled); empty: every ray tracing entry
  /// that no other names (a default association).
  std::vector<std::string> exports;
  dxil::RootSignature signature;
};

/// The local root signatures of a library's state subobjects (its RDAT part): each
/// LocalRootSignature subobject with the exports its SubobjectToExportsAssociation subobjects
/// name, those that name exports first; one that no association names, or one associated with
/// no export, is a default. Fails on a subobject whose root signature cannot be read.
Expected<std::vector<LocalRootSignature>> localRootSignaturesOf(const dxil::RuntimeData &rdat);

/// The heap bindings, added to BindingModel::heapBinding.
enum class HeapSlot : uint32_t {
  Sampler,
  StorageBuffer,
  UniformBuffer,
  SampledImage,
  StorageImage,
  UniformTexelBuffer,
  StorageTexelBuffer,
  AccelerationStructure,
  Counter,
};

/// One user-defined output of a stage, where its translation places it: for the next stage's
/// inputs (DxilTranslateOptions::previousStage). One per row of a signature element.
struct StageOutput {
  std::string semantic;       ///< upper case, without its index
  uint32_t semanticIndex = 0; ///< the row's
  uint32_t location = 0, component = 0;
  bool perPrimitive = false; ///< a mesh shader's primitive output
  bool perPatch = false;     ///< a hull shader's patch constant
};

/// The located outputs of an entry's translation (vertex, hull, domain, geometry (its stream
/// 0, the rasterized one) and mesh shaders; none for other stages).
std::vector<StageOutput> stageOutputs(const dxil::EntryPoint &entry);
/// The same of the one entry point of a container (or bare bitcode) with outputs; fails on a
/// program it cannot read or one with several such entries.
Expected<std::vector<StageOutput>> stageOutputsOf(std::span<const uint8_t> bytes);

struct DxilTranslateOptions {
  /// The entry point to translate; empty: every entry point.
  std::string entry;
  BindingModel bindings;
  /// Pixel shaders feed dual-source blending: SV_Target0 and SV_Target1 are the blend's two
  /// sources, Location 0 with Index 0 and 1 (in D3D the pipeline's blend state decides, which
  /// the shader does not know). A pixel shader writing another target is an error then.
  bool dualSourceBlending = false;
  /// Derivatives in compute shaders through SPV_KHR_compute_shader_derivatives (the Vulkan
  /// extension current drivers expose, Mesa's lavapipe among them) instead of the NV extension
  /// it was promoted from (which SPIRV-Tools 2023.1 knows and NVIDIA exposes). Mesh and task
  /// shaders always use the KHR one, the only one that allows them.
  bool khrComputeDerivatives = false;
  /// Typed UAVs that are read declare the R32 format of their component type (R32f, R32i,
  /// R32ui) instead of none, for devices that cannot read storage images without a format
  /// (shaderStorageImageReadWithoutFormat). D3D reads typed UAVs of those formats only, unless
  /// the shader sets the typed UAV load additional formats flag (it then keeps no format).
  bool typedUavReadsR32 = false;
  /// The SpecId of the specialization constant RenderTargetGetSampleCount reads (and
  /// RenderTargetGetSamplePosition picks its standard pattern by): the sample count of the
  /// render targets, which a Vulkan shader cannot query and the application knows at pipeline
  /// creation (its rasterizationSamples). Its default is 1.
  uint32_t renderTargetSampleCountSpecId = 0;
  /// Local root signatures of ray tracing entries: an entry's root constants, descriptor
  /// tables and root descriptors are then read from its shader record
  /// (applyLocalRootSignature). translateDxilBytes takes them from the container's state
  /// subobjects when this is empty. Other entries ignore them.
  std::vector<LocalRootSignature> localRootSignatures;
  /// The outputs of the stage before the translated ones (stageOutputs of its entry), when the
  /// pipeline is known: D3D links a stage's inputs to the previous stage's outputs by semantic,
  /// Vulkan by location and component, and DXC packs each signature on its own. Each located
  /// input then takes the location and component where the previous stage writes its semantic,
  /// and a pixel shader input that a mesh shader writes per primitive is PerPrimitiveEXT (which
  /// Vulkan needs and a D3D pixel shader cannot say). A user-defined input that the previous
  /// stage does not write is an error. Empty: each signature's own rows.
  std::vector<StageOutput> previousStage;
  /// Without `entry`: where the entries that fail go (one diagnostic each, naming the entry),
  /// while the others are translated; the translation then fails only when no entry is left.
  /// Null: the first entry that fails fails the whole program.
  std::vector<Diagnostic> *failedEntries = nullptr;
};

/// One descriptor the translated module declares: where the D3D resource went.
struct DescriptorBinding {
  dxil::ResourceClass resourceClass = dxil::ResourceClass::SRV;
  dxil::ResourceKind kind = dxil::ResourceKind::Invalid;
  std::string name;                ///< the HLSL name (may be empty)
  uint32_t space = 0;              ///< D3D register space
  uint32_t lowerBound = 0;         ///< D3D register
  uint32_t rangeSize = 1;          ///< 0xFFFFFFFF: unbounded
  uint32_t set = 0;                ///< Vulkan descriptor set
  uint32_t binding = 0;            ///< Vulkan binding
  std::string_view descriptorType; ///< "storage-buffer", "uniform-buffer", "sampled-image", ...
  bool counter = false;            ///< the UAV counter of the resource, not the resource
  bool heap = false; ///< a descriptor heap's array (name: the heap; space, register: 0)
  /// descriptorType "push-constant" (root constants): where its values are in the push
  /// constant block, `argumentSize` bytes from `argumentOffset` (set and binding mean nothing
  /// then). "heap-table" (a resource of
  /// a descriptor table read from the heap): where the table's start is in the push constant
  /// block, and the resource's first descriptor counted from the table's start; the heap's
  /// arrays are listed on their own (`heap`). "push-constant-address" (a root descriptor's
  /// buffer device address, 8 bytes): where it is in the push constant block.
  /// "shader-record-constants", "shader-record-heap-table" and "shader-record-address": the
  /// same in the shader record of a local root signature.
  uint32_t argumentOffset = 0, argumentSize = 0;
  uint32_t tableOffset = 0;
};

struct TranslatedShader {
  std::string entry;
  dxil::ShaderKind kind = dxil::ShaderKind::Compute;
  std::vector<uint32_t> words;
  std::vector<DescriptorBinding> bindings;
};

/// The name an application knows an entry by: a library export's mangled name
/// ("\x01?RayGen@@YAXXZ") is its HLSL name ("RayGen"); other names are kept. translateDxil names
/// modules and entry points so (the mangled name without "\x01" where two exports would share a
/// name), and `entry` may be given either way.
std::string exportName(std::string_view name);

/// Translates the entry points of a decoded DXIL program. The first failure is a one-line
/// diagnostic naming the entry, function, block and instruction; nothing is returned then.
Expected<std::vector<TranslatedShader>> translateDxil(const dxil::DxilModule &module,
                                                      const DxilTranslateOptions &options);

/// Reads a DXBC container (or bare DXIL bitcode), decodes its model and translates it.
Expected<std::vector<TranslatedShader>> translateDxilBytes(std::span<const uint8_t> bytes,
                                                           const DxilTranslateOptions &options);

/// The bindings as JSON: one object per descriptor (for the runner and for applications).
std::string bindingsJson(const TranslatedShader &shader);

} // namespace spire::translate
