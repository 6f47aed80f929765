// Work graph node shaders (SM 6.8) as SPV_AMDX_shader_enqueue GLCompute entry points: the launch
// (broadcasting: a static or payload-given workgroup count; coalescing and thread: CoalescingAMDX)
// and the node's name, index, entry and recursion as execution modes; the input record as the
// NodePayloadAMDX payload array variable; each output as an OpTypeNodePayloadArrayAMDX decorated
// with its node's name, base index, array size and record limit; the node dx.ops (238-253) as
// allocations, access chains and enqueues of payloads.
#include "Translator.h"

namespace spire::translate {

using dxil::DxOp;
using dxil::TypeKind;
using grammar::ExecutionMode;

namespace {

constexpr uint32_t kLaunchBroadcasting = 1, kLaunchCoalescing = 2, kLaunchThread = 3;

uint32_t roundUp(uint32_t v, uint32_t align) { return (v + align - 1) / align * align; }

/// A type laid out for the payload storage class (Offset and ArrayStride decorations).
struct Laid {
  uint32_t type = 0, size = 0, align = 1;
};

Laid layOut(Translator &t, dxil::TypeId type);

/// The members of an LLVM struct laid out in order, each at its alignment: their types and
/// offsets, and the struct's size and alignment (false: a member cannot be laid out).
bool layOutMembers(Translator &t, dxil::TypeId type, std::vector<uint32_t> &members,
                   std::vector<uint32_t> &offsets, uint32_t &size, uint32_t &align) {
  uint32_t offset = 0;
  align = 1;
  for (dxil::TypeId member : t.llvm().elements(type)) {
    const Laid laid = layOut(t, member);
    if (!laid.type)
      return false;
    offset = roundUp(offset, laid.align);
    members.push_back(laid.type);
    offsets.push_back(offset);
    offset += laid.size;
    align = std::max(align, laid.align);
  }
  size = roundUp(offset, align);
  return true;
}

Laid layOut(Translator &t, dxil::TypeId type) {
  const dxil::LlvmModule &m = t.llvm();
  const dxil::Type &ty = m.type(type);
  switch (ty.kind) {
  case TypeKind::Integer:
    if (ty.bits != 8 && ty.bits != 16 && ty.bits != 32 && ty.bits != 64)
      break;
    return {t.typeInt(ty.bits), ty.bits / 8, ty.bits / 8};
  case TypeKind::Half:
    return {t.typeFloat(16), 2, 2};
  case TypeKind::Float:
    return {t.typeFloat(32), 4, 4};
  case TypeKind::Double:
    return {t.typeFloat(64), 8, 8};
  case TypeKind::Array: {
    const Laid element = layOut(t, m.elementType(type));
    if (!element.type || ty.count == 0 || ty.count > 0xFFFF)
      break;
    const uint32_t stride = roundUp(element.size, element.align);
    const uint32_t array =
        t.freshType(Op::TypeArray, {element.type, t.constU32(uint32_t(ty.count))});
    t.decorate(array, Decoration::ArrayStride, {stride});
    return {array, stride * uint32_t(ty.count), element.align};
  }
  case TypeKind::Struct: {
    if (ty.packed)
      break;
    std::vector<uint32_t> members, offsets;
    uint32_t size = 0, align = 1;
    if (!layOutMembers(t, type, members, offsets, size, align))
      return {};
    const uint32_t s = t.freshType(Op::TypeStruct, members);
    for (uint32_t i = 0; i < offsets.size(); ++i)
      t.memberDecorate(s, i, Decoration::Offset, {offsets[i]});
    return {s, size, align};
  }
  default:
    break;
  }
  t.fail("unsupported: a node record member of LLVM type kind " +
         std::to_string(uint32_t(ty.kind)));
  return {};
}

} // namespace

// ---- metadata ---------------------------------------------------------------------------------

void Translator::declareNodeShader() {
  capability(Capability::ShaderEnqueueAMDX);
  extension("SPV_AMDX_shader_enqueue");
  auto bad = [&](const std::string &what) { fail("node metadata: " + what); };
  const dxil::NodeProperties none; // a node entry without node tags: no launch type
  const dxil::NodeProperties &p = entry_.properties.node ? *entry_.properties.node : none;
  node_.launch = p.launch;
  node_.programEntry = p.programEntry;
  node_.id = p.id;
  node_.sharesInputOf = p.sharesInputOf;
  node_.dispatchGrid = p.dispatchGrid;
  node_.maxDispatchGrid = p.maxDispatchGrid;
  node_.maxRecursion = p.maxRecursionDepth;
  for (const auto &[from, to] : {std::pair(&p.inputs, &node_.inputs), {&p.outputs, &node_.outputs}})
    for (const dxil::NodeIo &io : *from)
      to->push_back(NodeRecordDecl{io});
  if (node_.launch < kLaunchBroadcasting || node_.launch > kLaunchThread)
    return bad("launch type " + std::to_string(node_.launch) +
               " (only broadcasting, coalescing "
               "and thread launches exist)");
  if (node_.inputs.size() > 1)
    return bad("more than one input record");
  if (node_.launch == kLaunchBroadcasting && !node_.dispatchGrid && !node_.maxDispatchGrid)
    return bad("a broadcasting node without a dispatch grid or a maximum one");

  // The LLVM struct each record is read as, from the getNodeRecordPtr calls of the entry.
  const dxil::LlvmModule &m = llvm();
  for (const dxil::DxilOpCall &call : dx_.opCalls) {
    if (call.function != entry_.functionIndex || DxOp(call.op->opcode) != DxOp::GetNodeRecordPtr)
      continue;
    auto args = dx_.opArguments(call);
    dxil::ValueId v = args.empty() ? dxil::kNoId : args[0];
    NodeRecordDecl *record = nullptr;
    for (int depth = 0; depth < 16 && !record && v < m.values.size(); ++depth) {
      const dxil::Value &val = m.values[v];
      const dxil::DxilOpCall *c =
          val.kind == dxil::ValueKind::Instruction ? dx_.opCallAt(val.index) : nullptr;
      if (!c)
        break;
      auto a = dx_.opArguments(*c);
      int64_t index = 0;
      switch (DxOp(c->op->opcode)) {
      case DxOp::CreateNodeInputRecordHandle:
        record = node_.inputs.empty() ? nullptr : &node_.inputs[0];
        break;
      case DxOp::CreateNodeOutputHandle:
        if (!a.empty() && constantInt(a[0], index) && index >= 0 &&
            size_t(index) < node_.outputs.size())
          record = &node_.outputs[size_t(index)];
        v = dxil::kNoId;
        break;
      case DxOp::AnnotateNodeHandle:
      case DxOp::AnnotateNodeRecordHandle:
      case DxOp::IndexNodeHandle:
      case DxOp::AllocateNodeOutputRecords:
        v = a.empty() ? dxil::kNoId : a[0];
        break;
      default:
        v = dxil::kNoId;
        break;
      }
      if (v == dxil::kNoId && !record)
        break;
    }
    if (!record)
      continue; // translating the call says what is wrong with its handle
    const dxil::TypeId type = m.elementType(m.instructions[call.instruction].type);
    if (record->recordType != dxil::kNoId && record->recordType != type)
      return bad("a node record read as two different types");
    record->recordType = type;
  }
  // The input payload is declared even when nothing reads it: without a declaration AMDX
  // assumes an empty payload or a bare uvec3 grid, not the record D3D lays out.
  if (!node_.inputs.empty()) {
    const uint32_t array = nodePayloadArrayType(node_.inputs[0], true);
    if (array)
      node_.inputVariable = globalVariable(array, StorageClass::NodePayloadAMDX);
  }
}

// ---- payload types ----------------------------------------------------------------------------

uint32_t Translator::nodePayloadArrayType(NodeRecordDecl &record, bool input) {
  if (record.arrayType)
    return record.arrayType;
  const dxil::LlvmModule &m = llvm();
  // The record struct: the LLVM struct laid out, or (never read) the record's size in words.
  // SV_DispatchGrid becomes a vector member; an input that gives the dispatch size decorates it.
  const bool dispatchIndirect = input && node_.launch == kLaunchBroadcasting && !node_.dispatchGrid;
  if (dispatchIndirect && !record.dispatchGrid)
    return fail("unsupported: broadcasting node '" + entryName_ +
                "' without a fixed dispatch grid reads no SV_DispatchGrid from its record");
  std::vector<uint32_t> members, offsets;
  uint32_t size = 0;
  if (record.recordType != dxil::kNoId) {
    if (m.type(record.recordType).kind != TypeKind::Struct || m.type(record.recordType).packed)
      return fail("unsupported: a node record that is not a struct");
    uint32_t align = 1;
    if (!layOutMembers(*this, record.recordType, members, offsets, size, align))
      return 0;
  } else if (!(record.flags & node_io::EmptyRecord)) {
    if (record.recordSize % 4)
      return fail("unsupported: a node record of " + std::to_string(record.recordSize) +
                  " bytes that the shader never reads");
    for (uint32_t offset = 0; offset < record.recordSize; offset += 4) {
      members.push_back(typeInt(32));
      offsets.push_back(offset);
    }
    size = record.recordSize;
  }
  if (!(record.flags & node_io::EmptyRecord) && size != record.recordSize)
    return fail("unsupported: a node record laid out in " + std::to_string(size) +
                " bytes where the metadata says " + std::to_string(record.recordSize));
  uint32_t gridMember = ~0u;
  if (record.dispatchGrid) {
    const auto [gridOffset, componentType, count] = *record.dispatchGrid;
    // DXIL component types: 3 U16 (2 I16), 5 U32 (4 I32).
    const uint32_t bits = componentType == 2 || componentType == 3   ? 16
                          : componentType == 4 || componentType == 5 ? 32
                                                                     : 0;
    auto at = std::find(offsets.begin(), offsets.end(), gridOffset);
    if (!bits || count < 1 || count > 3 || at == offsets.end())
      return fail("unsupported: SV_DispatchGrid of node '" + entryName_ + "' (offset " +
                  std::to_string(gridOffset) + ", component type " + std::to_string(componentType) +
                  ", " + std::to_string(count) + " components)");
    gridMember = uint32_t(at - offsets.begin());
    const uint32_t component = typeInt(bits);
    const uint32_t wanted = count == 1 ? component : typeVector(component, count);
    // The member as read (an array or the scalar) or the words of a record never read.
    const auto array = typeInstruction(members[gridMember]);
    const bool asArray =
        array.size() == 3 && array[0] == uint32_t(Op::TypeArray) && array[1] == component;
    if (members[gridMember] != wanted && !asArray && !(bits == 32 && count > 1))
      return fail("unsupported: SV_DispatchGrid of node '" + entryName_ +
                  "' does not match its record member");
    if (members[gridMember] != wanted && !asArray) {
      // Consecutive words of a record never read: one vector member replaces them.
      if (gridMember + count > members.size())
        return fail("unsupported: SV_DispatchGrid past the end of the record");
      members.erase(members.begin() + gridMember + 1, members.begin() + gridMember + count);
      offsets.erase(offsets.begin() + gridMember + 1, offsets.begin() + gridMember + count);
    }
    members[gridMember] = wanted;
  }
  const uint32_t recordStruct = freshType(Op::TypeStruct, members);
  for (uint32_t i = 0; i < offsets.size(); ++i)
    memberDecorate(recordStruct, i, Decoration::Offset, {offsets[i]});
  if (dispatchIndirect)
    memberDecorate(recordStruct, gridMember, Decoration::PayloadDispatchIndirectAMDX);
  // A node sharing another's input must not write it (NonWritable: spirv-val takes it on the
  // members, not on a NodePayloadAMDX variable).
  if (input && node_.sharesInputOf)
    for (uint32_t i = 0; i < members.size(); ++i)
      memberDecorate(recordStruct, i, Decoration::NonWritable);
  if (record.flags & node_io::TrackRWInputSharing)
    decorate(recordStruct, Decoration::TrackFinishWritingAMDX);

  // The decorations' operands before the array type's instruction.
  auto decorateId = [&](uint32_t target, Decoration d, uint32_t operand) {
    b_.add(Section::Annotation, Op::DecorateId).id(target).literal(uint32_t(d)).id(operand);
  };
  uint32_t maxRecords = input ? 1 : record.maxRecords;
  if (input && node_.launch == kLaunchCoalescing)
    maxRecords = std::max(1u, record.maxRecords);
  uint32_t sharesWith = 0;
  if (!input && record.maxRecordsSharedWith) {
    const uint32_t other = *record.maxRecordsSharedWith;
    if (other >= node_.outputs.size() || &node_.outputs[other] == &record ||
        node_.outputs[other].maxRecordsSharedWith)
      return fail("unsupported: node output '" + record.target.name +
                  "' shares its record limit with output " + std::to_string(other));
    sharesWith = nodePayloadArrayType(node_.outputs[other], false);
    if (!sharesWith)
      return 0;
    if (!maxRecords)
      maxRecords = node_.outputs[other].maxRecords;
  }
  const uint32_t maxId = constU32(maxRecords);
  uint32_t nameId = 0;
  if (!input) {
    nameId = id();
    b_.add(Section::Global, Op::ConstantStringAMDX).id(nameId).string(record.target.name);
  }
  const bool isArray = record.flags & node_io::NodeArray;
  const bool bounded = !isArray || (record.arraySize && *record.arraySize != 0xFFFFFFFFu);
  if (!input && !bounded && !record.allowSparse)
    return fail("unsupported: node output array '" + record.target.name + "' without a size");
  const uint32_t arraySizeId = bounded ? constU32(isArray ? *record.arraySize : 1) : 0;
  const uint32_t baseIndexId = record.target.index ? constU32(record.target.index) : 0;
  const uint32_t array = freshType(Op::TypeNodePayloadArrayAMDX, {recordStruct});
  decorateId(array, Decoration::NodeMaxPayloadsAMDX, maxId);
  if (!input) {
    decorateId(array, Decoration::PayloadNodeNameAMDX, nameId);
    if (baseIndexId)
      decorateId(array, Decoration::PayloadNodeBaseIndexAMDX, baseIndexId);
    if (arraySizeId)
      decorateId(array, Decoration::PayloadNodeArraySizeAMDX, arraySizeId);
    if (record.allowSparse)
      decorate(array, Decoration::PayloadNodeSparseArrayAMDX);
    if (sharesWith)
      decorateId(array, Decoration::NodeSharesPayloadLimitsWithAMDX, sharesWith);
  }
  record.arrayType = array;
  return array;
}

// ---- execution modes --------------------------------------------------------------------------

void Translator::addNodeModes(uint32_t function) {
  // Every operand id first: they are constants of the global section.
  // D3D makes any node that no other node targets an entry, declared or not: IsApiEntryAMDX
  // (true when absent) is false only where AMDX requires it, for a node sharing another's input.
  const uint32_t apiEntry = node_.sharesInputOf  ? constBool(false)
                            : node_.programEntry ? constBool(true)
                                                 : 0;
  const uint32_t index = node_.id ? constU32(node_.id->index) : 0;
  const uint32_t recursion = node_.maxRecursion ? constU32(*node_.maxRecursion) : 0;
  std::array<uint32_t, 3> grid{};
  const auto &g = node_.dispatchGrid ? node_.dispatchGrid : node_.maxDispatchGrid;
  if (node_.launch == kLaunchBroadcasting && g)
    for (int i = 0; i < 3; ++i)
      grid[i] = constU32(std::max(1u, (*g)[i]));
  uint32_t sharedName = 0, sharedIndex = 0;
  if (node_.sharesInputOf) {
    sharedName = id();
    b_.add(Section::Global, Op::ConstantStringAMDX)
        .id(sharedName)
        .string(node_.sharesInputOf->name);
    sharedIndex = constU32(node_.sharesInputOf->index);
  }
  auto modeId = [&](ExecutionMode mode, std::initializer_list<uint32_t> ids) {
    b_.add(Section::ExecutionMode, Op::ExecutionModeId)
        .id(function)
        .literal(uint32_t(mode))
        .ids(std::vector<uint32_t>(ids));
  };
  if (node_.launch == kLaunchBroadcasting)
    modeId(node_.dispatchGrid ? ExecutionMode::StaticNumWorkgroupsAMDX
                              : ExecutionMode::MaxNumWorkgroupsAMDX,
           {grid[0], grid[1], grid[2]});
  else // coalescing; thread launch: coalescing groups of one invocation (numthreads 1,1,1)
    b_.add(Section::ExecutionMode, Op::ExecutionMode)
        .id(function)
        .literal(uint32_t(ExecutionMode::CoalescingAMDX));
  if (apiEntry)
    modeId(ExecutionMode::IsApiEntryAMDX, {apiEntry});
  if (index)
    modeId(ExecutionMode::ShaderIndexAMDX, {index});
  if (recursion)
    modeId(ExecutionMode::MaxNodeRecursionAMDX, {recursion});
  if (sharedName)
    modeId(ExecutionMode::SharesInputWithAMDX, {sharedName, sharedIndex});
}

// ---- the node operations ----------------------------------------------------------------------

bool Translator::translateNodeOp(const dxil::DxilOpCall &call, const dxil::Instruction &inst,
                                 std::span<const dxil::ValueId> args, bool &handled) {
  const DxOp op = DxOp(call.op->opcode);
  handled = true;
  // Barriers on node record memory (NODE_INPUT_MEMORY 4, NODE_OUTPUT_MEMORY 8): no memory
  // semantics bit names payload memory, so they are refused rather than dropped.
  int64_t memoryTypes = 0;
  if (entry_.kind == dxil::ShaderKind::Node && op == DxOp::BarrierByMemoryType && !args.empty() &&
      constantInt(args[0], memoryTypes) && (memoryTypes & 0xC))
    return fail("unsupported: dx.op.BarrierByMemoryType on node record memory (memory types " +
                std::to_string(memoryTypes) + ")");
  switch (op) {
  case DxOp::AllocateNodeOutputRecords:
  case DxOp::GetNodeRecordPtr:
  case DxOp::IncrementOutputCount:
  case DxOp::OutputComplete:
  case DxOp::GetInputRecordCount:
  case DxOp::FinishedCrossGroupSharing:
  case DxOp::BarrierByNodeRecordHandle:
  case DxOp::CreateNodeOutputHandle:
  case DxOp::IndexNodeHandle:
  case DxOp::AnnotateNodeHandle:
  case DxOp::CreateNodeInputRecordHandle:
  case DxOp::AnnotateNodeRecordHandle:
  case DxOp::NodeOutputIsValid:
  case DxOp::GetRemainingRecursionLevels:
    break;
  default:
    handled = false;
    return true;
  }
  const std::string opName = "dx.op." + std::string(call.op->name);
  if (entry_.kind != dxil::ShaderKind::Node)
    return fail(opName + " outside a node shader");
  if (args.empty() && op != DxOp::GetRemainingRecursionLevels)
    return fail(opName + " has too few operands");
  const uint32_t u32 = typeInt(32);
  auto outputHandle = [&](dxil::ValueId v) -> const NodeShader::OutputHandle * {
    auto it = node_.outputHandles.find(v);
    if (it == node_.outputHandles.end()) {
      fail(opName + ": a node handle that is not one of the entry's outputs");
      return nullptr;
    }
    return &it->second;
  };
  auto recordHandle = [&](dxil::ValueId v) -> const NodeShader::RecordHandle * {
    auto it = node_.recordHandles.find(v);
    if (it == node_.recordHandles.end()) {
      fail(opName + ": a record handle that is not the entry's input or an allocation");
      return nullptr;
    }
    return &it->second;
  };
  auto inputVariable = [&]() -> uint32_t {
    if (!node_.inputVariable)
      return fail(opName + ": node '" + entryName_ + "' has no input record");
    return node_.inputVariable;
  };
  // Allocates `count` payloads of an output (per thread or for the group).
  auto allocate = [&](const NodeShader::OutputHandle &h, dxil::ValueId countValue,
                      dxil::ValueId perThreadValue) -> uint32_t {
    int64_t perThread = 0;
    if (!constantInt(perThreadValue, perThread))
      return fail(opName + ": whether records are per thread must be a constant");
    const uint32_t array = nodePayloadArrayType(node_.outputs[h.output], false);
    if (!array)
      return 0;
    const uint32_t pointer = typePointer(StorageClass::NodePayloadAMDX, array);
    const uint32_t scope =
        constU32(uint32_t(perThread ? grammar::Scope::Invocation : grammar::Scope::Workgroup));
    const uint32_t count = value(countValue);
    const uint32_t nodeIndex = h.nodeIndex ? h.nodeIndex : constU32(0);
    if (failed())
      return 0;
    return emit(Op::AllocateNodePayloadsAMDX, pointer, {scope, count, nodeIndex});
  };

  switch (op) {
  case DxOp::CreateNodeOutputHandle: {
    int64_t index = 0;
    if (!opConstant(call, args, 0, index))
      return false;
    if (index < 0 || size_t(index) >= node_.outputs.size())
      return fail(opName + ": output " + std::to_string(index) + " is not declared");
    node_.outputHandles[inst.value] = {uint32_t(index), 0};
    return true;
  }
  case DxOp::IndexNodeHandle: {
    const NodeShader::OutputHandle *h = outputHandle(args[0]);
    const uint32_t index = opArgument(call, args, 1);
    if (!h || failed())
      return false;
    NodeShader::OutputHandle indexed = *h;
    indexed.nodeIndex = h->nodeIndex ? emit(Op::IAdd, u32, {h->nodeIndex, index}) : index;
    node_.outputHandles[inst.value] = indexed;
    return true;
  }
  case DxOp::AnnotateNodeHandle: {
    const NodeShader::OutputHandle *h = outputHandle(args[0]);
    if (!h)
      return false;
    node_.outputHandles[inst.value] = *h;
    return true;
  }
  case DxOp::CreateNodeInputRecordHandle: {
    int64_t index = 0;
    if (!opConstant(call, args, 0, index))
      return false;
    if (index != 0)
      return fail(opName + ": input " + std::to_string(index) + " (a node has one input)");
    const uint32_t variable = inputVariable();
    if (!variable)
      return false;
    node_.recordHandles[inst.value] = {variable, dxil::kNoId};
    return true;
  }
  case DxOp::AnnotateNodeRecordHandle: {
    const NodeShader::RecordHandle *h = recordHandle(args[0]);
    if (!h)
      return false;
    node_.recordHandles[inst.value] = *h;
    return true;
  }
  case DxOp::AllocateNodeOutputRecords: {
    const NodeShader::OutputHandle *h = outputHandle(args[0]);
    if (!h || args.size() < 3)
      return h ? fail(opName + " has too few operands") : false;
    const uint32_t output = h->output;
    const uint32_t payloads = allocate(*h, args[1], args[2]);
    if (!payloads)
      return false;
    node_.recordHandles[inst.value] = {payloads, output};
    return true;
  }
  case DxOp::GetNodeRecordPtr: {
    const NodeShader::RecordHandle *h = recordHandle(args[0]);
    const uint32_t index = opArgument(call, args, 1);
    if (!h || failed())
      return false;
    NodeRecordDecl &record = h->output == dxil::kNoId ? node_.inputs[0] : node_.outputs[h->output];
    if (record.recordType != llvm().elementType(inst.type))
      return fail(opName + ": the record is read as another type than its other reads");
    const auto array = typeInstruction(record.arrayType);
    if (array.size() != 2)
      return fail(opName + ": the record's payload type is missing");
    const uint32_t pointer = typePointer(StorageClass::NodePayloadAMDX, array[1]);
    setValue(inst.value, emit(Op::AccessChain, pointer, {h->payloads, index}));
    setPointerClass(inst.value, StorageClass::NodePayloadAMDX);
    return true;
  }
  case DxOp::OutputComplete: {
    const NodeShader::RecordHandle *h = recordHandle(args[0]);
    if (!h)
      return false;
    if (h->output == dxil::kNoId)
      return fail(opName + " of the input record");
    emitVoid(Op::EnqueueNodePayloadsAMDX, {h->payloads});
    return true;
  }
  case DxOp::IncrementOutputCount: {
    // Empty records: as many as the count, allocated and enqueued at once.
    const NodeShader::OutputHandle *h = outputHandle(args[0]);
    if (!h || args.size() < 3)
      return h ? fail(opName + " has too few operands") : false;
    const uint32_t payloads = allocate(*h, args[1], args[2]);
    if (!payloads)
      return false;
    emitVoid(Op::EnqueueNodePayloadsAMDX, {payloads});
    return true;
  }
  case DxOp::GetInputRecordCount: {
    const NodeShader::RecordHandle *h = recordHandle(args[0]);
    if (!h)
      return false;
    if (h->output != dxil::kNoId)
      return fail(opName + " of an output record");
    setValue(inst.value, emit(Op::NodePayloadArrayLengthAMDX, u32, {h->payloads}));
    return true;
  }
  case DxOp::FinishedCrossGroupSharing: {
    const NodeShader::RecordHandle *h = recordHandle(args[0]);
    if (!h)
      return false;
    if (h->output != dxil::kNoId || !(node_.inputs[0].flags & node_io::TrackRWInputSharing))
      return fail(opName + " of a record without [NodeTrackRWInputSharing]");
    setValue(inst.value, emit(Op::FinishWritingNodePayloadAMDX, typeBool(), {h->payloads}));
    return true;
  }
  case DxOp::NodeOutputIsValid: {
    // D3D creates a work graph only when every node an output without [AllowSparseNodes] names
    // exists (for an array output, each index below its size), so validity is known here: true,
    // or for an array whether the index is inside the array. A sparse output's nodes are known
    // only when the graph is created; OpIsNodePayloadValidAMDX would ask the device, but it names
    // the payload array *type* as its operand, and spirv-val (2026.4) rejects a type there.
    const NodeShader::OutputHandle *h = outputHandle(args[0]);
    if (!h)
      return false;
    const NodeRecordDecl &output = node_.outputs[h->output];
    if (output.allowSparse)
      return fail("unsupported: " + opName + " of the sparse output '" + output.target.name +
                  "' in node '" + entryName_ +
                  "' (OpIsNodePayloadValidAMDX takes a type operand, which spirv-val rejects)");
    const bool isArray = output.flags & node_io::NodeArray;
    if (!isArray || !h->nodeIndex || !output.arraySize) {
      setValue(inst.value, constBool(true));
      return true;
    }
    const uint32_t size = constU32(*output.arraySize);
    setValue(inst.value, emit(Op::ULessThan, typeBool(), {h->nodeIndex, size}));
    return true;
  }
  case DxOp::GetRemainingRecursionLevels: {
    const uint32_t variable = builtinInput(BuiltIn::RemainingRecursionLevelsAMDX, u32);
    setValue(inst.value, emit(Op::Load, u32, {variable}));
    return true;
  }
  case DxOp::BarrierByNodeRecordHandle:
    return fail("unsupported: " + opName +
                " (SPIR-V has no memory semantics naming node payload memory)");
  default:
    break;
  }
  return fail("unsupported: " + opName);
}

} // namespace spire::translate
