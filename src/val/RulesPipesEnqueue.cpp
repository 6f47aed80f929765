// Rules: pipe instructions (SPIR-V 3.32.23) with the pipe storage ones (OpConstantPipeStorage,
// 3.32.7), and device-side enqueue instructions (3.32.22): operand and result types.
//
// - Pipes: a pipe operand of OpTypePipe with the access the instruction needs (ReadOnly to read,
//   WriteOnly to write, either for the packet counts), reserve ids of OpTypeReserveId, packet
//   pointers in Generic, and 32-bit integer packet counts, indexes, sizes and alignments; results
//   are 32-bit integers, reserve ids or booleans as each instruction says.
// - Device-side enqueue: queues of OpTypeQueue, events of OpTypeDeviceEvent and pointers to them,
//   32-bit integer counts, sizes and statuses; an ND range of OpBuildNDRange's structure (a 32-bit
//   integer and three arrays of three size_t integers), built from a size_t or an array of two or
//   three; an Invoke function returning void whose first parameter points to 8-bit integers and
//   whose others point to Workgroup, with one Local Size operand per such parameter.
//
// - Events traced within one function (through OpCopyObject, and through a Function variable
//   whose every write is known): OpSetUserEventStatus's event comes from OpCreateUserEvent (an
//   error otherwise); OpCaptureEventProfilingInfo's from OpEnqueueKernel or OpEnqueueMarker, and
//   its constant Profiling Info sets only Kernel Profiling Info bits (warnings: the OpenCL
//   translator captures user events).
//
// spirv-val 2023.1 checks none of these operands: every rule here is stricter than it, and each
// follows the sentence of the instruction's description that its comment quotes.
#include "OperandCheck.h"
#include "Rules.h"

namespace spire::val {

namespace {

constexpr uint32_t kAccessReadOnly = uint32_t(grammar::AccessQualifier::ReadOnly),
                   kAccessWriteOnly = uint32_t(grammar::AccessQualifier::WriteOnly);
constexpr uint32_t kStorageWorkgroup = uint32_t(grammar::StorageClass::Workgroup),
                   kStorageCrossWorkgroup = uint32_t(grammar::StorageClass::CrossWorkgroup),
                   kStorageGeneric = uint32_t(grammar::StorageClass::Generic);
constexpr uint32_t kAddressingPhysical32 = uint32_t(grammar::AddressingModel::Physical32),
                   kAddressingPhysical64 = uint32_t(grammar::AddressingModel::Physical64);

enum class Access { Read, Write, Either };

// Where an event value comes from, as far as one function shows.
enum class EventSource { Unknown, UserEvent, Enqueue, NoEvent };

class PipesEnqueueChecker {
public:
  explicit PipesEnqueueChecker(State &s) : s_(s) {}

  void run() {
    forEachInstruction(s_, [&](const Instruction &inst, uint32_t op) {
      if ((op >= uint32_t(Op::ReadPipe) && op <= uint32_t(Op::GroupCommitWritePipe)) ||
          op == uint32_t(Op::CreatePipeFromPipeStorage))
        pipe(inst, op);
      else if ((op >= uint32_t(Op::EnqueueMarker) && op <= uint32_t(Op::BuildNDRange)) ||
               op == uint32_t(Op::GetKernelLocalSizeForSubgroupCount) ||
               op == uint32_t(Op::GetKernelMaxNumSubgroups))
        enqueue(inst, op);
      else if (op == uint32_t(Op::ConstantPipeStorage)) {
        // "Result Type must be OpTypePipeStorage."
        OperandCheck c(s_, inst, "3.32.7");
        c.resultOfType(Op::TypePipeStorage);
      }
    });
  }

private:
  // --- Pipes -----------------------------------------------------------------------------------

  // "Pipe must have a type of OpTypePipe with ReadOnly [WriteOnly] access qualifier"; the packet
  // counts take "ReadOnly or WriteOnly".
  bool pipeOperand(OperandCheck &c, uint32_t word, Access access) {
    const uint32_t t = c.type(word);
    if (t == 0)
      return true;
    std::optional<Instruction> d = s_.def(t);
    const bool isPipe = d && d->opcode() == Op::TypePipe && d->wordCount() >= 3;
    const uint32_t qualifier = isPipe ? d->word(2) : ~0u;
    const bool ok = access == Access::Read    ? qualifier == kAccessReadOnly
                    : access == Access::Write ? qualifier == kAccessWriteOnly
                                              : qualifier <= kAccessWriteOnly;
    if (ok)
      return true;
    const char *want = access == Access::Read    ? "ReadOnly"
                       : access == Access::Write ? "WriteOnly"
                                                 : "ReadOnly or WriteOnly";
    return c.fail("Pipe " + s_.name(c.id(word)) + " must be an OpTypePipe with the " + want +
                  " access qualifier");
  }

  // "Packet Size must be a 32-bit integer type scalar ...", "Packet Alignment must be a 32-bit
  // integer type scalar ..."
  static bool packet(OperandCheck &c, uint32_t sizeWord) {
    return c.int32(sizeWord, "Packet Size") && c.int32(sizeWord + 1, "Packet Alignment");
  }

  // "Pointer must have a type of OpTypePointer with the same data type as Pipe and a Generic
  // Storage Class." (A pipe type names no data type: the pointer's storage class is checked.)
  bool packetPointer(OperandCheck &c, uint32_t word) {
    return c.operand(word, "Pointer", "a pointer in the Generic storage class", [&](uint32_t t) {
      return s_.isPointerType(t) && s_.storageClass(t) == kStorageGeneric;
    });
  }

  void pipe(const Instruction &inst, uint32_t op) {
    OperandCheck c(s_, inst, "3.32.23");
    const bool read =
        op == uint32_t(Op::ReadPipe) || op == uint32_t(Op::ReservedReadPipe) ||
        op == uint32_t(Op::ReserveReadPipePackets) || op == uint32_t(Op::CommitReadPipe) ||
        op == uint32_t(Op::GroupReserveReadPipePackets) || op == uint32_t(Op::GroupCommitReadPipe);
    const Access access = read ? Access::Read : Access::Write;
    switch (op) {
    case uint32_t(Op::ReadPipe): // %type %pipe %pointer %size %alignment
    case uint32_t(Op::WritePipe):
      // "Result Type must be a 32-bit integer type scalar."
      c.resultInt32() && pipeOperand(c, 3, access) && packetPointer(c, 4) && packet(c, 5);
      return;
    case uint32_t(Op::ReservedReadPipe): // %type %pipe %reserveId %index %pointer %size %alignment
    case uint32_t(Op::ReservedWritePipe):
      // "Reserve Id must have a type of OpTypeReserveId. Index must be a 32-bit integer type
      // scalar."
      c.resultInt32() && pipeOperand(c, 3, access) &&
          c.ofType(4, "Reserve Id", Op::TypeReserveId) && c.int32(5, "Index") &&
          packetPointer(c, 6) && packet(c, 7);
      return;
    case uint32_t(Op::ReserveReadPipePackets): // %type %pipe %numPackets %size %alignment
    case uint32_t(Op::ReserveWritePipePackets):
      // "Result Type must be an OpTypeReserveId." "Num Packets must be a 32-bit integer type
      // scalar."
      c.resultOfType(Op::TypeReserveId) && pipeOperand(c, 3, access) && c.int32(4, "Num Packets") &&
          packet(c, 5);
      return;
    case uint32_t(Op::CommitReadPipe): // %pipe %reserveId %size %alignment
    case uint32_t(Op::CommitWritePipe):
      pipeOperand(c, 1, access) && c.ofType(2, "Reserve Id", Op::TypeReserveId) && packet(c, 3);
      return;
    case uint32_t(Op::IsValidReserveId): // %type %reserveId
      // "Result Type must be a Boolean type. Reserve Id must have a type of OpTypeReserveId."
      c.resultBool() && c.ofType(3, "Reserve Id", Op::TypeReserveId);
      return;
    case uint32_t(Op::GetNumPipePackets): // %type %pipe %size %alignment
    case uint32_t(Op::GetMaxPipePackets):
      // "Result Type must be a 32-bit integer type scalar ..." "Pipe must have a type of
      // OpTypePipe with ReadOnly or WriteOnly access qualifier."
      c.resultInt32() && pipeOperand(c, 3, Access::Either) && packet(c, 4);
      return;
    // %type %scope %pipe %numPackets %size %alignment
    case uint32_t(Op::GroupReserveReadPipePackets):
    case uint32_t(Op::GroupReserveWritePipePackets):
      c.resultOfType(Op::TypeReserveId) && pipeOperand(c, 4, access) && c.int32(5, "Num Packets") &&
          packet(c, 6);
      return;
    case uint32_t(Op::GroupCommitReadPipe): // %scope %pipe %reserveId %size %alignment
    case uint32_t(Op::GroupCommitWritePipe):
      pipeOperand(c, 2, access) && c.ofType(3, "Reserve Id", Op::TypeReserveId) && packet(c, 4);
      return;
    case uint32_t(Op::CreatePipeFromPipeStorage): // %type %pipeStorage
      // "Result Type must be OpTypePipe. Pipe Storage must be a pipe-storage object created from
      // OpConstantPipeStorage."
      c.resultOfType(Op::TypePipe) && c.ofType(3, "Pipe Storage", Op::TypePipeStorage);
      return;
    default:
      return;
    }
  }

  // --- Device-side enqueue ---------------------------------------------------------------------

  /// The width of size_t under the addressing model, 0 when the model is Logical.
  uint32_t sizeWidth() const {
    return s_.addressingModel() == kAddressingPhysical32   ? 32
           : s_.addressingModel() == kAddressingPhysical64 ? 64
                                                           : 0;
  }
  bool sizeT(uint32_t t) const {
    return s_.isIntType(t) && (sizeWidth() == 0 || s_.bitWidth(t) == sizeWidth());
  }
  /// An OpTypeArray of size_t integers whose length is the constant `length` (0: 2 or 3).
  bool sizeArray(uint32_t t, uint32_t length) const {
    std::optional<Instruction> d = s_.def(t);
    if (!d || d->opcode() != Op::TypeArray || d->wordCount() < 4 || !sizeT(d->word(2)))
      return false;
    std::optional<uint64_t> n = s_.constantValue(d->word(3));
    if (!n)
      return s_.defOpcode(d->word(3)) != Op::Constant; // a specialization constant: not known
    return length != 0 ? *n == length : (*n == 2 || *n == 3);
  }

  // "The type of ND Range must be an OpTypeStruct whose members are as described by the Result
  // Type of OpBuildNDRange": a 32-bit integer, then three arrays of three size_t integers.
  bool ndRangeType(uint32_t t) const {
    std::optional<Instruction> d = s_.def(t);
    if (!d || d->opcode() != Op::TypeStruct || d->wordCount() != 6)
      return false;
    if (!s_.isIntType(d->word(2)) || s_.bitWidth(d->word(2)) != 32)
      return false;
    for (uint32_t w = 3; w < 6; ++w)
      if (!sizeArray(d->word(w), 3))
        return false;
    return true;
  }
  // The SPIR-V LLVM translator passes a pointer to the structure (a variable OpBuildNDRange's
  // result was stored to); spirv-val accepts that, and so does this rule.
  bool ndRange(OperandCheck &c, uint32_t word) {
    return c.operand(word, "ND Range",
                     "an OpTypeStruct of a 32-bit integer and three arrays of three size_t "
                     "integers (OpBuildNDRange's result) or a pointer to one",
                     [&](uint32_t t) {
                       return ndRangeType(t) ||
                              (s_.isPointerType(t) && ndRangeType(s_.pointeeType(t)));
                     });
  }

  // "Wait Events specifies the list of wait event objects and must be a pointer to
  // OpTypeDeviceEvent." "Ret Event ... must be a pointer to OpTypeDeviceEvent."
  static bool events(OperandCheck &c, uint32_t numWord) {
    return c.int32(numWord, "Num Events") &&
           c.operand(numWord + 1, "Wait Events", "a pointer to OpTypeDeviceEvent",
                     [&](uint32_t t) { return c.pointerTo(t, Op::TypeDeviceEvent); }) &&
           c.operand(numWord + 2, "Ret Event", "a pointer to OpTypeDeviceEvent",
                     [&](uint32_t t) { return c.pointerTo(t, Op::TypeDeviceEvent); });
  }

  // "Invoke must be an OpFunction whose OpTypeFunction operand has: Result Type must be
  // OpTypeVoid. The first parameter must have a type of OpTypePointer to an 8-bit OpTypeInt. An
  // optional list of parameters, each of which must have a type of OpTypePointer to the Workgroup
  // Storage Class." Gives the number of Workgroup parameters, or nothing when Invoke fails.
  std::optional<uint32_t> invoke(OperandCheck &c, uint32_t word) {
    const uint32_t id = c.id(word);
    std::optional<Instruction> f = s_.def(id);
    if (!f || f->opcode() != Op::Function || f->wordCount() < 5) {
      if (id != 0)
        c.fail("Invoke " + s_.name(id) + " must be an OpFunction");
      return std::nullopt;
    }
    std::optional<Instruction> type = s_.def(f->word(4));
    if (!type || type->opcode() != Op::TypeFunction || type->wordCount() < 3)
      return std::nullopt; // the functions family reports it
    if (!s_.isVoidType(type->word(2))) {
      c.fail("the function Invoke " + s_.name(id) + " must return OpTypeVoid");
      return std::nullopt;
    }
    const uint32_t first = type->wordCount() > 3 ? type->word(3) : 0;
    if (first == 0 || !s_.isPointerType(first) || !s_.isIntType(s_.pointeeType(first)) ||
        s_.bitWidth(s_.pointeeType(first)) != 8) {
      c.fail("the first parameter of the function Invoke " + s_.name(id) +
             " must be a pointer to an 8-bit integer");
      return std::nullopt;
    }
    for (uint32_t w = 4; w < type->wordCount(); ++w)
      if (!s_.isPointerType(type->word(w)) || s_.storageClass(type->word(w)) != kStorageWorkgroup) {
        c.fail("the parameters of the function Invoke " + s_.name(id) +
               " after the first must be pointers to Workgroup");
        return std::nullopt;
      }
    return type->wordCount() - 4;
  }

  // Invoke %invoke, Param %param, Param Size, Param Align from `word` on. "Param is the first
  // parameter of the function specified by Invoke and must be a pointer to an 8-bit integer type
  // scalar. Param Size ... must be a 32-bit integer type scalar. Param Align ... must be a 32-bit
  // integer type scalar."
  std::optional<uint32_t> invokeAndParam(OperandCheck &c, uint32_t word) {
    std::optional<uint32_t> locals = invoke(c, word);
    if (!locals)
      return std::nullopt;
    if (!c.operand(
            word + 1, "Param", "a pointer to an 8-bit integer scalar",
            [&](uint32_t t) { return s_.isPointerType(t) && c.intScalar(s_.pointeeType(t), 8); }) ||
        !c.int32(word + 2, "Param Size") || !c.int32(word + 3, "Param Align"))
      return std::nullopt;
    return locals;
  }

  void enqueue(const Instruction &inst, uint32_t op) {
    OperandCheck c(s_, inst, "3.32.22");
    switch (op) {
    case uint32_t(Op::EnqueueMarker): // %type %queue %numEvents %waitEvents %retEvent
      // "Result Type must be a 32-bit integer type scalar." "Queue must be of the type
      // OpTypeQueue." "Num Events ... must be a 32-bit integer type scalar"
      c.resultInt32() && c.ofType(3, "Queue", Op::TypeQueue) && events(c, 4);
      return;
    case uint32_t(Op::EnqueueKernel): {
      // %type %queue %flags %ndRange %numEvents %waitEvents %retEvent %invoke %param %paramSize
      // %paramAlign %localSize...
      // "Flags must be an integer type scalar."
      if (!c.resultInt32() || !c.ofType(3, "Queue", Op::TypeQueue) ||
          !c.operand(4, "Flags", "an integer scalar", [&](uint32_t t) { return c.intScalar(t); }) ||
          !ndRange(c, 5) || !events(c, 6))
        return;
      std::optional<uint32_t> locals = invokeAndParam(c, 9);
      if (!locals || inst.wordCount() < 13)
        return;
      // "Each Local Size operand corresponds (in order) to one OpTypePointer to Workgroup Storage
      // Class parameter to the Invoke function"
      if (inst.wordCount() - 13 != *locals)
        c.fail("the function Invoke " + s_.name(inst.word(9)) + " has " + std::to_string(*locals) +
               " Workgroup parameters but " + std::to_string(inst.wordCount() - 13) +
               " Local Size operands are given");
      return;
    }
    case uint32_t(Op::GetKernelNDrangeSubGroupCount): // %type %ndRange %invoke %param %size %align
    case uint32_t(Op::GetKernelNDrangeMaxSubGroupSize):
      c.resultInt32() && ndRange(c, 3) && invokeAndParam(c, 4);
      return;
    case uint32_t(Op::GetKernelWorkGroupSize): // %type %invoke %param %size %align
    case uint32_t(Op::GetKernelPreferredWorkGroupSizeMultiple):
    case uint32_t(Op::GetKernelMaxNumSubgroups):
      c.resultInt32() && invokeAndParam(c, 3);
      return;
    // %type %count %invoke %param %size %align
    case uint32_t(Op::GetKernelLocalSizeForSubgroupCount):
      // "Subgroup Count must be a 32-bit integer type scalar."
      c.resultInt32() && c.int32(3, "Subgroup Count") && invokeAndParam(c, 4);
      return;
    case uint32_t(Op::RetainEvent):  // %event
    case uint32_t(Op::ReleaseEvent): // %event
      // "Event must be an event that was produced by OpEnqueueKernel, OpEnqueueMarker or
      // OpCreateUserEvent": of OpTypeDeviceEvent.
      c.ofType(1, "Event", Op::TypeDeviceEvent);
      return;
    case uint32_t(Op::CreateUserEvent): // %type
      // "Result Type must be OpTypeDeviceEvent."
      c.resultOfType(Op::TypeDeviceEvent);
      return;
    case uint32_t(Op::IsValidEvent): // %type %event
      // "Result Type must be a Boolean type. Event must have a type of OpTypeDeviceEvent."
      c.resultBool() && c.ofType(3, "Event", Op::TypeDeviceEvent);
      return;
    case uint32_t(Op::SetUserEventStatus): { // %event %status
      // "Event must have a type of OpTypeDeviceEvent that was produced by OpCreateUserEvent.
      // Status must have a type of 32-bit OpTypeInt treated as a signed integer."
      if (!c.ofType(1, "Event", Op::TypeDeviceEvent) || !c.int32(2, "Status") ||
          inst.wordCount() < 3)
        return;
      const EventSource from = eventSource(inst.index(), inst.word(1));
      if (from == EventSource::Enqueue || from == EventSource::NoEvent)
        c.fail("Event " + s_.name(inst.word(1)) + " must be produced by OpCreateUserEvent; " +
               (from == EventSource::Enqueue ? "it is the event of an OpEnqueueKernel or "
                                               "OpEnqueueMarker"
                                             : "it is a null or undefined value"));
      return;
    }
    case uint32_t(Op::CaptureEventProfilingInfo): // %event %profilingInfo %value
      // "Event must have a type of OpTypeDeviceEvent ... Profiling Info must be an integer type
      // scalar. ... Value must be a pointer to a scalar 8-bit integer type in the CrossWorkgroup
      // Storage Class."
      if (c.ofType(1, "Event", Op::TypeDeviceEvent) &&
          c.operand(2, "Profiling Info", "an integer scalar",
                    [&](uint32_t t) { return c.intScalar(t); }) &&
          c.operand(3, "Value", "a pointer to an 8-bit integer scalar in CrossWorkgroup",
                    [&](uint32_t t) {
                      return s_.isPointerType(t) && c.intScalar(s_.pointeeType(t), 8) &&
                             s_.storageClass(t) == kStorageCrossWorkgroup;
                    }))
        if (inst.wordCount() >= 4)
          profilingInfo(inst);
      return;
    case uint32_t(Op::GetDefaultQueue): // %type
      // "Result Type must be an OpTypeQueue."
      c.resultOfType(Op::TypeQueue);
      return;
    case uint32_t(Op::BuildNDRange): // %type %globalWorkSize %localWorkSize %globalWorkOffset
      buildNDRange(c);
      return;
    default:
      return;
    }
  }

  // OpCaptureEventProfilingInfo: "Event must have a type of OpTypeDeviceEvent that was produced by
  // OpEnqueueKernel or OpEnqueueMarker." "The content of Profiling Info is interpreted as Kernel
  // Profiling Info mask." Warnings: spirv-val accepts both, and the OpenCL translator captures the
  // profiling information of user events.
  void profilingInfo(const Instruction &inst) {
    const std::string op = "OpCaptureEventProfilingInfo: ";
    const EventSource from = eventSource(inst.index(), inst.word(1));
    if (from == EventSource::UserEvent || from == EventSource::NoEvent)
      s_.warning(inst.index(), "3.32.22",
                 op + "Event " + s_.name(inst.word(1)) +
                     " should be produced by OpEnqueueKernel or OpEnqueueMarker; it is " +
                     (from == EventSource::UserEvent ? "a user event (OpCreateUserEvent)"
                                                     : "a null or undefined value"));
    constexpr uint64_t kCmdExecTime = uint32_t(grammar::KernelProfilingInfo::CmdExecTime);
    const std::optional<uint64_t> info =
        s_.defOpcode(inst.word(2)) == Op::Constant ? s_.constantValue(inst.word(2)) : std::nullopt;
    if (info && (*info & ~kCmdExecTime) != 0)
      s_.warning(inst.index(), "3.2.29",
                 op + "Profiling Info " + s_.name(inst.word(2)) + " is " + std::to_string(*info) +
                     ", which sets bits that are no Kernel Profiling Info (CmdExecTime is 0x1)");
  }

  // The event value `id` used by instruction `user`, traced back within the user's function:
  // through OpCopyObject, and through an OpLoad from a Function variable of that function whose
  // every other use is known (a store of a traced event, or the Ret Event of an enqueue).
  EventSource eventSource(uint32_t user, uint32_t id, int depth = 0) const {
    const uint32_t fn = s_.functionOf(user);
    for (int copies = 0; copies < 16; ++copies) {
      std::optional<Instruction> d = s_.def(id);
      if (!d || d->isRaw())
        return EventSource::Unknown;
      switch (d->opcode()) {
      case Op::CreateUserEvent:
        return EventSource::UserEvent;
      case Op::ConstantNull:
      case Op::Undef:
        return EventSource::NoEvent;
      case Op::CopyObject:
        if (d->wordCount() < 4 || s_.functionOf(d->index()) != fn)
          return EventSource::Unknown;
        id = d->word(3);
        continue;
      case Op::Load:
        return depth == 0 && d->wordCount() >= 4 && s_.functionOf(d->index()) == fn
                   ? variableEvents(d->word(3), fn)
                   : EventSource::Unknown;
      default:
        return EventSource::Unknown;
      }
    }
    return EventSource::Unknown;
  }

  // The one source of the events written to the Function variable `var` of function `fn`, or
  // Unknown when its writes differ or are not all known.
  EventSource variableEvents(uint32_t var, uint32_t fn) const {
    std::optional<Instruction> v = s_.def(var);
    constexpr uint32_t kStorageFunction = uint32_t(grammar::StorageClass::Function);
    // (A variable with an initializer holds it until the first write: not traced.)
    if (!v || v->opcode() != Op::Variable || v->wordCount() != 4 ||
        v->word(3) != kStorageFunction || s_.functionOf(v->index()) != fn)
      return EventSource::Unknown;
    EventSource source = EventSource::Unknown;
    for (const DefUse::Use &u : s_.defUse().uses(var)) {
      Instruction user = s_.module().inst(u.inst);
      if (user.isRaw())
        return EventSource::Unknown;
      if (s_.functionOf(u.inst) != fn) // names and decorations
        continue;
      EventSource written = EventSource::Unknown;
      const uint32_t op = static_cast<uint32_t>(user.opcode());
      if (user.opcode() == Op::Load && user.wordCount() >= 4 && user.word(3) == var)
        continue;
      if (user.opcode() == Op::Store && user.wordCount() >= 3 && user.word(1) == var)
        written = eventSource(u.inst, user.word(2), 1);
      else if ((op == uint32_t(Op::EnqueueKernel) && user.wordCount() > 8 && user.word(8) == var &&
                user.word(7) != var) || // OpEnqueueKernel's Ret Event
               (op == uint32_t(Op::EnqueueMarker) && user.wordCount() > 6 && user.word(6) == var &&
                user.word(5) != var)) // OpEnqueueMarker's Ret Event
        written = EventSource::Enqueue;
      if (written == EventSource::Unknown || (source != EventSource::Unknown && written != source))
        return EventSource::Unknown;
      source = written;
    }
    return source;
  }

  // "Result Type must be an OpTypeStruct with the following ordered list of members ...";
  // "GlobalWorkSize must be a scalar or an array with 2 or 3 components. Where the type of each
  // element in the array is 32-bit integer type scalar if the addressing model is Physical32 or
  // 64-bit integer type scalar if the addressing model is Physical64." "The type of LocalWorkSize
  // [GlobalWorkOffset] must be the same as GlobalWorkSize."
  void buildNDRange(OperandCheck &c) {
    const std::string sizeText =
        sizeWidth() == 0 ? "size_t" : std::to_string(sizeWidth()) + "-bit (size_t)";
    if (!c.result("an OpTypeStruct of a 32-bit integer and three arrays of three " + sizeText +
                      " integers",
                  [&](uint32_t t) { return ndRangeType(t); }) ||
        !c.operand(3, "GlobalWorkSize",
                   "a " + sizeText + " integer scalar or an array of two or three of them",
                   [&](uint32_t t) { return sizeT(t) || sizeArray(t, 0); }))
      return;
    const uint32_t global = c.type(3);
    if (global == 0)
      return;
    for (uint32_t w : {4u, 5u})
      if (!c.operand(
              w, w == 4 ? "LocalWorkSize" : "GlobalWorkOffset",
              [&] { return "of GlobalWorkSize's type " + s_.name(global); },
              [&](uint32_t t) { return t == global; }))
        return;
  }

  State &s_;
};

} // namespace

void checkPipesEnqueue(State &s) { PipesEnqueueChecker(s).run(); }

} // namespace spire::val
