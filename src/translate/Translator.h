// The translator's state for one entry point: the module being built (types, constants and
// variables uniqued), the map from DXIL values to SPIR-V ids, and the function being emitted.
// Translator.cpp walks functions, blocks and LLVM instructions; the dx.op families live in files
// of their own (TranslateResources.cpp, TranslateOps.cpp, TranslateStageIO.cpp), each a set of
// Translator members.
#pragma once

#include "AgsState.h"
#include "NodeShader.h"
#include "StageIO.h"
#include "spire/dxil/DxilModule.h"
#include "spire/grammar/Grammar.h"
#include "spire/module/Builder.h"
#include "spire/translate/DxilToSpirv.h"

#include <array>
#include <deque>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace spire::translate {

using grammar::BuiltIn;
using grammar::Capability;
using grammar::Decoration;
using grammar::Op;
using grammar::StorageClass;

/// A resource handle: which descriptor variable, and the array element when it is an array.
struct Descriptor;
struct Handle {
  const dxil::DxilResource *resource = nullptr;
  const Descriptor *descriptor = nullptr; ///< the resource's variable and types
  uint32_t variable = 0;                  ///< the descriptor variable (or heap array)
  uint32_t arrayIndex = 0;                ///< an id; 0 when the variable is not an array
  bool nonUniform = false; ///< arrayIndex is decorated NonUniform (only with an index)
  dxil::ResourceClass resourceClass = dxil::ResourceClass::SRV;
  dxil::ResourceKind kind = dxil::ResourceKind::Invalid;
  uint32_t stride = 0;  ///< structured buffers
  uint32_t counter = 0; ///< the UAV counter variable, or 0
};

/// The descriptor variable made for one D3D resource range.
struct Descriptor {
  uint32_t variable = 0;
  uint32_t pointeeType = 0; ///< the variable's pointee: the element type or the array of them
  uint32_t elementType = 0; ///< one descriptor's type (the Block struct, the image, ...)
  StorageClass storage = StorageClass::UniformConstant;
  bool isArray = false;
  uint32_t counter = 0; ///< UAV counter variable (a storage buffer holding one uint)
  /// Where it is bound and how many descriptors it holds (0: a runtime array), for the views
  /// that alias it (TranslateBufferViews.cpp).
  uint32_t set = 0, binding = 0, arraySize = 1;
  bool nonWritable = false, coherent = false;
  /// A resource of a descriptor table read from the heap (its descriptor is the heap's): its
  /// range.
  const HeapTableRange *table = nullptr;
  /// A resource that root arguments give: root constants (storage PushConstant or
  /// ShaderRecordBufferKHR), a root descriptor's address (storage PhysicalStorageBuffer,
  /// `pointeeType` the buffer's block) or a descriptor table's start (`table`). `variable` is
  /// then the push constant block or shader record (in `argumentsIn`), `argumentMember` its
  /// member that holds them, and `argumentValues` the number of root constants.
  StorageClass argumentsIn = StorageClass::PushConstant;
  uint32_t argumentMember = 0, argumentValues = 0;
  bool isAddress() const { return storage == StorageClass::PhysicalStorageBuffer; }
};

/// The image type of a texture or typed buffer (raw/structured buffers: R32ui texel buffers),
/// and the sampled type of a typed resource (TranslateResources.cpp).
uint32_t imageTypeOf(class Translator &t, const dxil::DxilResource &r);
uint32_t sampledTypeOf(class Translator &t, const dxil::DxilResource &r);

class Translator {
public:
  Translator(const dxil::DxilModule &dx, const dxil::EntryPoint &entry,
             const DxilTranslateOptions &options);
  Expected<TranslatedShader> run();

  // ---- errors -----------------------------------------------------------------------------
  /// Records the first failure (with the current function, block and instruction); returns 0
  /// so that callers can `return fail(...)`.
  uint32_t fail(std::string message);
  bool failed() const { return failed_; }

  // ---- module-level -----------------------------------------------------------------------
  void capability(Capability c) { capabilities_.insert(uint32_t(c)); }
  void extension(std::string_view name) { extensions_.insert(std::string(name)); }
  uint32_t glslImport();
  uint32_t id() { return b_.newId(); }

  uint32_t typeVoid();
  uint32_t typeBool();
  uint32_t typeInt(uint32_t bits);
  uint32_t typeFloat(uint32_t bits);
  uint32_t typeVector(uint32_t element, uint32_t count);
  uint32_t typePointer(StorageClass sc, uint32_t pointee);
  uint32_t typeArray(uint32_t element, uint32_t length);
  uint32_t typeFunction(uint32_t result, const std::vector<uint32_t> &params);
  /// A type instruction uniqued by its operands (OpTypeImage, OpTypeSampler, ...).
  uint32_t typeUniqued(Op op, const std::vector<uint32_t> &operands);
  /// A type instruction of its own (never shared): types that carry layout decorations, which
  /// must not reach the Function, Private or Workgroup types built from the same operands.
  uint32_t freshType(Op op, const std::vector<uint32_t> &operands);
  /// Whether a type id is a float / int / bool scalar or vector, and its component width.
  bool isFloatType(uint32_t type) const;
  bool isBoolType(uint32_t type) const;
  uint32_t componentCount(uint32_t type) const;
  uint32_t componentType(uint32_t type) const;
  uint32_t scalarWidth(uint32_t type) const;
  /// A type made by typeUniqued or freshType: its opcode, then its operands after the result
  /// id; empty for an unknown id.
  std::span<const uint32_t> typeInstruction(uint32_t type) const;

  uint32_t constU32(uint32_t v);
  uint32_t constI(uint32_t type, uint64_t bits);
  uint32_t constF32(float v);
  uint32_t constBool(bool v);
  uint32_t constNull(uint32_t type);
  uint32_t constComposite(uint32_t type, const std::vector<uint32_t> &parts);
  uint32_t undef(uint32_t type);

  void decorate(uint32_t target, Decoration d, std::initializer_list<uint32_t> literals = {});
  void memberDecorate(uint32_t type, uint32_t member, Decoration d,
                      std::initializer_list<uint32_t> literals = {});
  void name(uint32_t target, std::string_view text);
  /// A module-scope variable (added to the entry point's interface).
  uint32_t globalVariable(uint32_t pointeeType, StorageClass sc, uint32_t initializer = 0);
  /// The render targets' sample count: a specialization constant (SpecId from the options,
  /// default 1), since a Vulkan shader cannot query it (TranslateTextures.cpp).
  uint32_t renderTargetSampleCount();
  /// The Input variable of a built-in, made once.
  uint32_t builtinInput(BuiltIn builtIn, uint32_t type);
  uint32_t builtinOutput(BuiltIn builtIn, uint32_t type);

  // ---- LLVM types and values --------------------------------------------------------------
  /// The SPIR-V type of an LLVM type (pointers: Function storage unless `sc` says otherwise).
  uint32_t llvmType(dxil::TypeId type, StorageClass sc = StorageClass::Function);
  /// The id of a value already translated, or a constant made now.
  uint32_t value(dxil::ValueId v);
  void setValue(dxil::ValueId v, uint32_t id) { values_[v] = id; }
  /// Constant integer operand of a dx.op call (opcode-like operands).
  bool constantInt(dxil::ValueId v, int64_t &out) const { return dx_.llvm->constantInt(v, out); }
  /// An undef or a constant (used for optional dx.op operands).
  bool isUndef(dxil::ValueId v) const;
  const dxil::LlvmModule &llvm() const { return *dx_.llvm; }

  // ---- function code ----------------------------------------------------------------------
  /// Emits an instruction with a result into the current block; returns the result id.
  uint32_t emit(Op op, uint32_t resultType, std::initializer_list<uint32_t> operands);
  uint32_t emit(Op op, uint32_t resultType, const std::vector<uint32_t> &operands);
  void emitVoid(Op op, std::initializer_list<uint32_t> operands);
  void emitVoid(Op op, const std::vector<uint32_t> &operands);
  /// GLSL.std.450 instruction by name.
  uint32_t glsl(std::string_view name, uint32_t resultType, std::initializer_list<uint32_t> args);
  /// A Function-storage variable of the current function.
  uint32_t functionVariable(uint32_t pointeeType);
  /// `value + k` for a 32-bit unsigned id (no instruction when k is 0).
  uint32_t addConstant(uint32_t value, uint32_t k) {
    return k ? emit(Op::IAdd, typeInt(32), {value, constU32(k)}) : value;
  }
  /// OpBitcast of `v` to `type` (the same number of bits).
  uint32_t bitcast(uint32_t type, uint32_t v);
  /// A number (or bool) of type `from` as type `to`: bool as 0/1, a bitcast between kinds of
  /// one width, FConvert / UConvert (SConvert when widening into a signed type) within a kind,
  /// both for a change of kind and width.
  uint32_t convertScalar(uint32_t v, uint32_t from, uint32_t to);
  /// Value of `type` (bool, 8, 16 or 32 bits) from a 32-bit word id: a bitcast, or its low
  /// bits; and back, zero-extended.
  uint32_t fromU32(uint32_t type, uint32_t word);
  uint32_t toU32(uint32_t v, uint32_t type);

  // ---- the dx.op families -----------------------------------------------------------------
  /// Translates one resolved dx.op call. `inst` is the call, `args` its operands after the
  /// opcode. Returns false after fail().
  bool translateOpCall(const dxil::DxilOpCall &call, const dxil::Instruction &inst,
                       std::span<const dxil::ValueId> args);
  bool translateResourceOp(const dxil::DxilOpCall &call, const dxil::Instruction &inst,
                           std::span<const dxil::ValueId> args, bool &handled);
  /// Operand `i` of a dx.op call (after the opcode): its id, or its constant value; both
  /// fail() naming the operation when the operand is missing (or not a constant).
  uint32_t opArgument(const dxil::DxilOpCall &call, std::span<const dxil::ValueId> args, size_t i);
  bool opConstant(const dxil::DxilOpCall &call, std::span<const dxil::ValueId> args, size_t i,
                  int64_t &out);
  bool translateStageOp(const dxil::DxilOpCall &call, const dxil::Instruction &inst,
                        std::span<const dxil::ValueId> args, bool &handled);
  bool translateTextureOp(const dxil::DxilOpCall &call, const dxil::Instruction &inst,
                          std::span<const dxil::ValueId> args, bool &handled);
  /// Implicit derivatives (implicit-LOD sampling, CalculateLOD, ddx/ddy) outside a pixel shader:
  /// declares the compute-derivative capability for the entry's numthreads (TranslateTextures.cpp).
  /// `quadOps`: for quad operations, whose quads follow numthreads from SM 6.6 on (earlier, and
  /// for shapes that form no quads, the layout is the implementation's: nothing is declared).
  void requireDerivatives(bool quadOps = false);
  /// The derivative group execution mode requireDerivatives() chose, if any.
  void addDerivativeGroupMode(uint32_t function);
  bool translateRayTracingOp(const dxil::DxilOpCall &call, const dxil::Instruction &inst,
                             std::span<const dxil::ValueId> args, bool &handled);
  bool translateRayQueryOp(const dxil::DxilOpCall &call, const dxil::Instruction &inst,
                           std::span<const dxil::ValueId> args, bool &handled);
  /// The components of an aggregate-valued call (ResRet, CBufRet, Dimensions...), for
  /// extractvalue.
  void setAggregate(dxil::ValueId v, std::vector<uint32_t> parts) {
    aggregates_[v] = std::move(parts);
  }
  /// The SPIR-V type of component `i` of a dx.types aggregate (its LLVM member).
  uint32_t memberType(dxil::TypeId aggregate, uint32_t i);

  /// The members of a dx.op result that extractvalue instructions read (bit i: member i).
  uint32_t extractMask(dxil::ValueId v) const {
    auto it = extractMasks_.find(v);
    return it == extractMasks_.end() ? 0 : it->second;
  }

  // Resources (TranslateResources.cpp).
  void declareResources();
  /// A resource that declareResources() found given by root arguments: where they are, and
  /// its descriptor, which declareRootArguments() completes.
  struct RootArgument {
    RootArguments where = RootArguments::PushConstants;
    uint32_t offset = 0; ///< bytes into the push constant block or shader record
    uint32_t values = 1; ///< 32-bit values (root constants; a table's start is one)
    Descriptor *descriptor = nullptr;
  };
  /// The block of the root arguments in `where` (the push constant block or the shader record)
  /// that `arguments` use: root constants, descriptor table starts and root descriptors'
  /// addresses, one member per offset.
  void declareRootArguments(RootArguments where, const std::vector<RootArgument> &arguments);
  /// The PhysicalStorageBuffer pointer to the buffer of root descriptor `d`, loaded from the
  /// shader record or push constant block.
  uint32_t rootAddress(const Descriptor &d);
  /// Whether handle `h` is root constants (read value by value, rootConstantValue).
  static bool isRootConstants(const Handle &h) {
    return h.descriptor && (h.descriptor->storage == StorageClass::PushConstant ||
                            h.descriptor->storage == StorageClass::ShaderRecordBufferKHR);
  }
  /// The heap index of descriptor table resource `d` at register `registerIndex` (an id).
  uint32_t heapTableIndex(const Descriptor &d, uint32_t registerIndex);
  /// A handle to the heap's descriptor `index` (an id) for resource `r` (a heap annotation's or
  /// a descriptor table's), its heap array declared on first use; a failure gives an empty one.
  Handle heapHandle(const dxil::DxilResource &r, uint32_t index, bool nonUniform);
  /// The 32-bit value `index` (an id; `constIndex` when it is a constant, else -1) of root
  /// constants `h`: a load from the push constant block (or shader record), undefined past
  /// its end.
  uint32_t rootConstantValue(const Handle &h, uint32_t index, int64_t constIndex);
  const Handle *handle(dxil::ValueId v);
  /// The handle of resource `r` through its descriptor `d`, element `index` of it when it is an
  /// array (an instruction's id when `nonUniform`: it is decorated NonUniform).
  Handle makeHandle(const dxil::DxilResource &r, const Descriptor &d, uint32_t index,
                    bool nonUniform);
  /// The byte address of a raw/structured buffer access.
  uint32_t bufferByteAddress(const Handle &h, dxil::ValueId index, dxil::ValueId offset);

  // Descriptor heaps (TranslateHeap.cpp): CreateHandleFromHeap and the AnnotateHandle that
  // gives its handle a resource kind.
  bool translateHeapOp(const dxil::DxilOpCall &call, const dxil::Instruction &inst,
                       std::span<const dxil::ValueId> args, bool &handled);
  // Buffer blocks and views (TranslateBufferViews.cpp).
  /// A descriptor variable of `pointee` bound where `where` says (set, binding), NonWritable and
  /// Coherent as it says.
  uint32_t descriptorVariable(uint32_t pointee, StorageClass sc, const Descriptor &where,
                              std::string_view name);
  /// The Block struct of a storage buffer of `bits`-wide unsigned integers (a runtime array).
  uint32_t storageBlockType(uint32_t bits);
  /// The Block struct of a constant buffer of `vec4s` 16-byte rows.
  uint32_t uniformBlockType(uint32_t vec4s);
  /// A pointer to element `index` of the `bits`-wide view of a raw/structured storage buffer
  /// (32: the descriptor itself; 16 and 64: a second variable aliasing its set and binding).
  uint32_t bufferElementPointer(const Handle &h, uint32_t bits, uint32_t index);
  /// The storage class of the pointers into the block of buffer handle `h`: Uniform,
  /// StorageBuffer, or PhysicalStorageBuffer for a root descriptor's address.
  StorageClass blockStorage(const Handle &h) const;
  /// A load or store through a pointer into the block of `h`, `alignment` bytes aligned (an
  /// address needs it said).
  uint32_t loadThrough(const Handle &h, uint32_t type, uint32_t pointer, uint32_t alignment);
  void storeThrough(const Handle &h, uint32_t pointer, uint32_t value, uint32_t alignment);
  /// A 32-bit word of a raw/structured buffer, read or written through the storage buffer or,
  /// with rawBuffersAsTexelBuffers, the R32ui texel buffer.
  uint32_t loadBufferWord(const Handle &h, uint32_t wordIndex);
  void storeBufferWord(const Handle &h, uint32_t wordIndex, uint32_t value);
  /// Stores the 16-bit `value` (an i16 id) at the byte address (2-aligned), without touching
  /// the other half of its word.
  void storeBufferHalf(const Handle &h, uint32_t byteAddress, uint32_t value);
  /// The pointer an atomic on word `wordIndex` (or, 64-bit, the 8-byte element) works on.
  uint32_t bufferAtomicPointer(const Handle &h, uint32_t bits, uint32_t byteAddress);
  /// The size of a raw/structured buffer in bytes.
  uint32_t bufferByteSize(const Handle &h);
  /// The descriptor image a texel-buffer handle names (loaded, NonUniform when it must be).
  uint32_t loadDescriptorImage(const Handle &h);
  /// The resources atomics work on (their texel pointers need an R32 / R64 image format) and
  /// the ones that are read, found before the descriptors are declared; and the format a storage
  /// image or texel buffer of a resource declares (R32ui for raw buffers, the R32 / R64 format
  /// of its component type for atomics' resources and, with typedUavReadsR32, for typed UAVs
  /// that are read; Unknown otherwise).
  void findResourceUses();
  /// Whether a typed resource's element is one component (RWBuffer<uint>, not <uint4>): from
  /// its HLSL class type, or a heap resource's annotation. False when unknown.
  bool singleComponent(const dxil::DxilResource &r) const;
  /// Where a handle comes from, walked back through annotateHandle: a bound resource
  /// (createHandle, or createHandleFromBinding with constant operands) as (class, range id), or
  /// a heap descriptor (createHandleFromHeap) with its annotation's properties words.
  struct HandleOrigin {
    std::optional<std::pair<uint32_t, uint32_t>> resource;
    std::optional<std::array<uint32_t, 2>> heapProperties;
  };
  HandleOrigin handleOrigin(dxil::ValueId handle) const;
  /// Whether a raw buffer stays a storage buffer where raw buffers are otherwise texel buffers
  /// (rawBuffersAsTexelBuffers): 64-bit atomics and AGS WMMA matrices need a pointer into it
  /// wider than an R32ui texel.
  bool keptAsStorageBuffer(const dxil::DxilResource &r) const;
  grammar::ImageFormat storageFormat(const dxil::DxilResource &r) const;
  /// The float-control execution modes of the entry's denormal mode (TranslateFloatControls.cpp).
  void addFloatControls(uint32_t entryFunction);
  // AMD AGS shader intrinsics (TranslateAgs.cpp): WMMA and float8 conversions.
  /// Finds the handles of the AGS UAV (register space 0x7FFF0ADE), which is not declared.
  void findAgsHandles();
  bool isAgsHandle(dxil::ValueId v) const;
  /// Translates a dx.op call that makes or uses an AGS handle (`handled`); others are left.
  bool translateAgsOp(const dxil::DxilOpCall &call, const dxil::Instruction &inst,
                      std::span<const dxil::ValueId> args, bool &handled);
  /// The groupshared read (atomicrmw add 0) at an AGS address: no atomic (true when it is one).
  bool translateAgsAddressRead(const dxil::Instruction &inst);
  uint32_t agsElementType(uint32_t format);
  uint32_t agsMatrixType(uint32_t format, uint32_t use, uint32_t shape);
  void agsUnpack(uint32_t matrix, uint32_t type, uint32_t format, AgsState::Registers &out);
  uint32_t agsChangeUse(uint32_t matrix, uint32_t to, uint32_t format);
  bool agsRegistersGiven(const AgsState::Registers &regs, uint32_t used, const std::string &what);
  uint32_t agsPack(const AgsState::Registers &regs, uint32_t type, uint32_t format,
                   const std::string &what);
  AgsState ags_;
  /// Math, packing, wave-matching, barrier and clock ops added beside TranslateOps.cpp's
  /// (TranslateMoreOps.cpp).
  bool translateMoreOp(const dxil::DxilOpCall &call, const dxil::Instruction &inst,
                       std::span<const dxil::ValueId> args, bool &handled);
  // Functions (TranslateFunctions.cpp).
  /// Translates the entry function and every function it calls (an OpFunction each).
  bool translateFunctions();
  /// The OpFunction header of a function and its parameters bound to values (the entry's:
  /// void(void), its ray tracing parameters bound to module variables).
  bool functionHeader(uint32_t functionIndex, bool isEntry, std::vector<uint32_t> &header);
  /// The SPIR-V id of a function of the module (made on first use).
  uint32_t functionId(uint32_t functionIndex);
  /// A call of a function defined in the module: OpFunctionCall, pointers copied in and out
  /// through Function variables when they are not variables of that class.
  bool translateFunctionCall(const dxil::Instruction &inst, const dxil::Function &callee);

  /// The location, first component and per-primitive flag of located input `el` (a patch
  /// constant when `patch`) where the previous stage writes its semantic
  /// (DxilTranslateOptions::previousStage); false after a failure.
  bool linkInput(const dxil::DxilSignatureElement &el, bool patch, uint32_t &location,
                 uint32_t &component, bool &perPrimitive);

  // Ray tracing and ray queries (TranslateRayTracing.cpp, TranslateRayQuery.cpp).
  /// The execution model of a ray tracing stage; false for other kinds.
  static bool rayTracingModel(dxil::ShaderKind kind, grammar::ExecutionModel &model);
  /// The module variable of a ray tracing storage class for one payload type (made once).
  uint32_t rayTracingVariable(StorageClass sc, uint32_t pointeeType);
  /// The loaded acceleration structure of a handle.
  uint32_t accelerationStructure(dxil::ValueId handleValue);
  /// Element (row, col) of a 4-column, 3-row float matrix held in `pointer` (a variable).
  uint32_t matrixElement(uint32_t pointer, StorageClass sc, dxil::ValueId row, dxil::ValueId col);
  /// The header's ray tracing part: capabilities an entry point needs or does not need.
  void finishRayTracingHeader();

  // Work graph node shaders (TranslateNodes.cpp): SPV_AMDX_shader_enqueue.
  /// Reads the node metadata and finds the record type of each input and output.
  void declareNodeShader();
  bool translateNodeOp(const dxil::DxilOpCall &call, const dxil::Instruction &inst,
                       std::span<const dxil::ValueId> args, bool &handled);
  /// The node's execution modes (launch, entry, recursion, index, workgroups).
  void addNodeModes(uint32_t function);
  /// The OpTypeNodePayloadArrayAMDX of an input or output record (made once).
  uint32_t nodePayloadArrayType(NodeRecordDecl &record, bool input);
  NodeShader node_;

  // Stage inputs and outputs (TranslateStageIO.cpp).
  void declareStageIO();
  void addExecutionModes(uint32_t function);
  /// HS: the SPIR-V entry calls the control point function, then (invocation 0, after a
  /// barrier) the patch constant function.
  bool translateHullEntry(uint32_t entryFunction);
  StageInterface stageIO_;

  const dxil::DxilModule &dx_;
  const dxil::EntryPoint &entry_;
  const DxilTranslateOptions &options_;
  ModuleBuilder b_;
  std::vector<DescriptorBinding> bindings_;

  /// Resource descriptors by (class, range id).
  std::map<std::pair<uint32_t, uint32_t>, Descriptor> descriptors_;
  std::unordered_map<dxil::ValueId, Handle> handles_;
  /// The entry point's name in the module and in messages: a library export's HLSL name.
  std::string entryName_;
  /// Every Input/Output/global variable, for the entry point's interface.
  std::vector<uint32_t> interface_;
  /// DerivativeGroupQuads/LinearNV for compute derivatives; 0: none.
  uint32_t derivativeGroupMode_ = 0;

  // Descriptor heaps and buffer views (TranslateHeap.cpp, TranslateBufferViews.cpp).
  struct HeapHandle {
    uint32_t index = 0; ///< the heap index id
    bool samplerHeap = false, nonUniform = false;
  };
  std::unordered_map<dxil::ValueId, HeapHandle> heapHandles_;
  /// The resources AnnotateHandle describes, by (sampler heap, properties words).
  std::map<std::array<uint32_t, 3>, uint32_t> heapResourceIndex_;
  std::deque<dxil::DxilResource> heapResources_;
  /// Heap variables by (binding, element type, class).
  std::map<std::array<uint32_t, 3>, uint32_t> heapVariables_;
  uint32_t heapCounters_ = 0;
  std::map<uint32_t, uint32_t> storageBlocks_, uniformBlocks_;     ///< bits / rows -> struct
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> bufferViews_;  ///< (variable, bits) -> view
  std::set<std::pair<uint32_t, uint32_t>> atomicResources_;        ///< (class, range id)
  std::set<std::array<uint32_t, 2>> atomicHeapProperties_;         ///< annotations of heap handles
  std::set<std::pair<uint32_t, uint32_t>> readResources_;          ///< (class, range id)
  std::set<std::array<uint32_t, 2>> readHeapProperties_;           ///< annotations of heap handles
  std::set<uint32_t> multiComponentHeapResources_;                 ///< their range ids
  std::set<std::pair<uint32_t, uint32_t>> storageBufferResources_; ///< keptAsStorageBuffer

  /// SPIR-V ids of LLVM functions, by index into LlvmModule::functions.
  std::unordered_map<uint32_t, uint32_t> functionIds_;
  /// Ray tracing variables by (storage class, pointee type).
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> rayTracingVariables_;
  /// Functions made of one terminator (OpIgnoreIntersectionKHR, OpTerminateRayKHR), by opcode:
  /// DXIL's IgnoreHit and AcceptHitAndEndSearch are calls that do not return.
  std::map<uint32_t, uint32_t> terminatorFunctions_;
  /// Ray query objects (a RayQueryKHR Function variable) by AllocateRayQuery result, with the
  /// ray flags fixed at allocation.
  struct RayQuery {
    uint32_t variable = 0;
    uint32_t flags = 0;
  };
  std::unordered_map<dxil::ValueId, RayQuery> rayQueries_;
  bool usesRayQuery_ = false;
  /// The Private table of D3D's standard sample positions (TranslateTextures.cpp; 0: not made).
  uint32_t samplePositions_ = 0;
  /// The specialization constant of the render targets' sample count (0: not made).
  uint32_t renderTargetSamples_ = 0;

  /// Emits a DXIL function without parameters as the SPIR-V function `spirvFunction`
  /// (void(void)): OpFunction, its variables and blocks, OpFunctionEnd.
  void setPointerClass(dxil::ValueId v, StorageClass sc) { pointerClass_[v] = sc; }
  /// Appends an OpLabel to the function being emitted: the rest of the DXIL block being
  /// translated continues there (after a terminator, or after a construct an instruction needs,
  /// such as the switch of a sample with a dynamic offset). A loop header split so keeps its
  /// OpLoopMerge in its first block, where the back edges go.
  void emitLabel(uint32_t label);

private:
  bool translateFunction(uint32_t functionIndex, bool isEntry);
  void emitTerminatorFunctions();
  bool translateInstruction(uint32_t index);
  bool translateCall(uint32_t index, const dxil::Instruction &inst);
  bool translateMemory(const dxil::Instruction &inst);
  uint32_t translateConstant(dxil::ValueId v);
  uint32_t translateConstantExpression(dxil::ValueId v, const dxil::Constant &c);
  uint32_t globalFor(dxil::ValueId v);
  uint32_t pointerFor(dxil::ValueId v);
  void finishHeader(uint32_t entryFunction);

  bool failed_ = false;
  Diagnostic error_;
  std::set<uint32_t> capabilities_;
  std::set<std::string> extensions_;
  uint32_t glslImport_ = 0;

  std::map<std::vector<uint32_t>, uint32_t> types_;     ///< opcode + operands -> id
  std::map<std::vector<uint32_t>, uint32_t> constants_; ///< opcode, type, operands -> id
  /// Type facts for the predicates: opcode and operands by id.
  std::unordered_map<uint32_t, std::vector<uint32_t>> typeInfo_;
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> builtins_; ///< (builtin, storage) -> var

  std::unordered_map<dxil::ValueId, uint32_t> values_;
  std::unordered_map<dxil::ValueId, std::vector<uint32_t>> aggregates_;
  std::unordered_map<dxil::ValueId, uint32_t> extractMasks_;
  /// The function's bitcast results that something other than a lifetime marker uses.
  std::unordered_set<dxil::ValueId> pointerCastsInUse_;
  /// LLVM pointers: the SPIR-V pointer's storage class (variables and access chains).
  std::unordered_map<dxil::ValueId, StorageClass> pointerClass_;
  std::unordered_map<dxil::ValueId, uint32_t> globals_;

  // The function being emitted.
  std::vector<uint32_t> variables_; ///< OpVariable Function words
  std::vector<uint32_t> code_;      ///< the blocks
  uint32_t currentFunction_ = dxil::kNoId;
  uint32_t currentBlock_ = dxil::kNoId;
  bool blockSplit_ = false; ///< emitLabel was called while translating the current block
  uint32_t currentInstruction_ = dxil::kNoId;
  std::vector<uint32_t> blockLabels_; ///< per input block of the function
  /// Phis of blocks with several predecessors: a Function variable each.
  std::unordered_map<dxil::ValueId, uint32_t> phiVariables_;
};

} // namespace spire::translate
