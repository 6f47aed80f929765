// Pipe instructions (3.32.23) with pipe storage, and device-side enqueue instructions (3.32.22):
// operand and result types. spirv-val 2023.1 checks none of them (see RulesPipesEnqueue.cpp).
#include "ValTestUtil.h"

namespace spire::val {
namespace {

// An OpenCL kernel taking pipes %rp (ReadOnly), %wp (WriteOnly), %rwp (ReadWrite), a Generic
// pointer %gp and a CrossWorkgroup pointer %cp; %invoke is a valid block function, %badInvoke one
// whose second parameter is not in Workgroup. BODY is the kernel's code.
constexpr const char *kKernel = R"(
OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpCapability Int8
OpCapability Pipes
OpCapability PipeStorage
OpCapability DeviceEnqueue
OpCapability GenericPointer
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
OpName %rp "rp"
OpName %wp "wp"
OpName %rwp "rwp"
OpName %gp "gp"
OpName %cp "cp"
OpName %fv "fv"
OpName %ev "ev"
OpName %ret "ret"
OpName %q "q"
OpName %nd "nd"
OpName %ue "ue"
OpName %rid0 "rid0"
OpName %invoke "invoke"
OpName %badInvoke "badInvoke"
OpName %k "k"
OpName %event "event"
OpName %arr3 "arr3"
OpName %arr2 "arr2"
OpName %a2 "a2"
OpName %ndrange "ndrange"
OpName %rid "rid"
%void = OpTypeVoid
%bool = OpTypeBool
%uchar = OpTypeInt 8 0
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%float = OpTypeFloat 32
%rpipe = OpTypePipe ReadOnly
%wpipe = OpTypePipe WriteOnly
%rwpipe = OpTypePipe ReadWrite
%pstorage = OpTypePipeStorage
%rid = OpTypeReserveId
%event = OpTypeDeviceEvent
%queue = OpTypeQueue
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
%uint_3 = OpConstant %uint 3
%uint_4 = OpConstant %uint 4
%ulong_1 = OpConstant %ulong 1
%psc = OpConstantPipeStorage %pstorage 4 4 16
%ptr_gen_uchar = OpTypePointer Generic %uchar
%ptr_fn_uchar = OpTypePointer Function %uchar
%ptr_cw_uchar = OpTypePointer CrossWorkgroup %uchar
%ptr_wg_uchar = OpTypePointer Workgroup %uchar
%ptr_fn_event = OpTypePointer Function %event
%arr3 = OpTypeArray %ulong %uint_3
%arr2 = OpTypeArray %ulong %uint_2
%ndrange = OpTypeStruct %uint %arr3 %arr3 %arr3
%a2 = OpConstantComposite %arr2 %ulong_1 %ulong_1
%invoke_fn = OpTypeFunction %void %ptr_gen_uchar %ptr_wg_uchar
%bad_fn = OpTypeFunction %void %ptr_gen_uchar %ptr_fn_uchar
%kfn = OpTypeFunction %void %rpipe %wpipe %rwpipe %ptr_gen_uchar %ptr_cw_uchar
%invoke = OpFunction %void None %invoke_fn
%ip = OpFunctionParameter %ptr_gen_uchar
%il = OpFunctionParameter %ptr_wg_uchar
%ie = OpLabel
OpReturn
OpFunctionEnd
%badInvoke = OpFunction %void None %bad_fn
%bp = OpFunctionParameter %ptr_gen_uchar
%bl = OpFunctionParameter %ptr_fn_uchar
%be = OpLabel
OpReturn
OpFunctionEnd
%k = OpFunction %void None %kfn
%rp = OpFunctionParameter %rpipe
%wp = OpFunctionParameter %wpipe
%rwp = OpFunctionParameter %rwpipe
%gp = OpFunctionParameter %ptr_gen_uchar
%cp = OpFunctionParameter %ptr_cw_uchar
%entry = OpLabel
%fv = OpVariable %ptr_fn_uchar Function
%ev = OpVariable %ptr_fn_event Function
%ret = OpVariable %ptr_fn_event Function
%q = OpGetDefaultQueue %queue
%nd = OpBuildNDRange %ndrange %ulong_1 %ulong_1 %ulong_1
%ue = OpCreateUserEvent %event
%rid0 = OpReserveReadPipePackets %rid %rp %uint_2 %uint_4 %uint_4
BODY
OpReturn
OpFunctionEnd
)";

Report kernel(std::string_view body) {
  return test::validateText(test::replaced(kKernel, "BODY", body), "spv1.4");
}

TEST(ValPipes, ReadsWritesAndReservations) {
  EXPECT_VALID(
      kernel("%a = OpReadPipe %uint %rp %gp %uint_4 %uint_4\n"
             "%b = OpWritePipe %uint %wp %gp %uint_4 %uint_4\n"
             "%r = OpReserveReadPipePackets %rid %rp %uint_2 %uint_4 %uint_4\n"
             "%v = OpIsValidReserveId %bool %r\n"
             "%c = OpReservedReadPipe %uint %rp %r %uint_0 %gp %uint_4 %uint_4\n"
             "OpCommitReadPipe %rp %r %uint_4 %uint_4\n"
             "%w = OpGroupReserveWritePipePackets %rid %uint_2 %wp %uint_2 %uint_4 %uint_4\n"
             "%d = OpReservedWritePipe %uint %wp %w %uint_1 %gp %uint_4 %uint_4\n"
             "OpGroupCommitWritePipe %uint_2 %wp %w %uint_4 %uint_4\n"
             "%n = OpGetNumPipePackets %uint %rp %uint_4 %uint_4\n"
             "%m = OpGetMaxPipePackets %uint %wp %uint_4 %uint_4"));
  EXPECT_ERROR(kernel("%a = OpReadPipe %float %rp %gp %uint_4 %uint_4"),
               "OpReadPipe: the result type %float must be a 32-bit integer scalar");
  EXPECT_ERROR(kernel("%a = OpReadPipe %uint %wp %gp %uint_4 %uint_4"),
               "OpReadPipe: Pipe %wp must be an OpTypePipe with the ReadOnly access qualifier");
  EXPECT_ERROR(kernel("%b = OpWritePipe %uint %rwp %gp %uint_4 %uint_4"),
               "OpWritePipe: Pipe %rwp must be an OpTypePipe with the WriteOnly access qualifier");
  EXPECT_ERROR(kernel("%a = OpReadPipe %uint %rp %fv %uint_4 %uint_4"),
               "OpReadPipe: Pointer %fv must be a pointer in the Generic storage class");
  EXPECT_ERROR(kernel("%a = OpReadPipe %uint %rp %gp %ulong_1 %uint_4"),
               "OpReadPipe: Packet Size %ulong_1 must be a 32-bit integer scalar");
  EXPECT_ERROR(kernel("%b = OpWritePipe %uint %wp %gp %uint_4 %ulong_1"),
               "OpWritePipe: Packet Alignment %ulong_1 must be a 32-bit integer scalar");
  EXPECT_ERROR(kernel("%r = OpReserveWritePipePackets %uint %wp %uint_2 %uint_4 %uint_4"),
               "OpReserveWritePipePackets: the result type %uint must be OpTypeReserveId");
  EXPECT_ERROR(kernel("%r = OpReserveReadPipePackets %rid %rp %ulong_1 %uint_4 %uint_4"),
               "OpReserveReadPipePackets: Num Packets %ulong_1 must be a 32-bit integer scalar");
  EXPECT_ERROR(kernel("%c = OpReservedReadPipe %uint %rp %uint_0 %uint_0 %gp %uint_4 %uint_4"),
               "OpReservedReadPipe: Reserve Id %uint_0 must be of type OpTypeReserveId");
  EXPECT_ERROR(kernel("%c = OpReservedReadPipe %uint %rp %rid0 %ulong_1 %gp %uint_4 %uint_4"),
               "OpReservedReadPipe: Index %ulong_1 must be a 32-bit integer scalar");
  EXPECT_ERROR(kernel("OpCommitWritePipe %rp %rid0 %uint_4 %uint_4"),
               "OpCommitWritePipe: Pipe %rp must be an OpTypePipe with the WriteOnly access");
  EXPECT_ERROR(kernel("%v = OpIsValidReserveId %uint %rid0"),
               "OpIsValidReserveId: the result type %uint must be a boolean scalar");
  EXPECT_ERROR(kernel("%v = OpIsValidReserveId %bool %uint_1"),
               "OpIsValidReserveId: Reserve Id %uint_1 must be of type OpTypeReserveId");
  EXPECT_ERROR(kernel("%n = OpGetNumPipePackets %uint %rwp %uint_4 %uint_4"),
               "OpGetNumPipePackets: Pipe %rwp must be an OpTypePipe with the ReadOnly or "
               "WriteOnly access qualifier");
  EXPECT_ERROR(kernel("%m = OpGetMaxPipePackets %ulong %rp %uint_4 %uint_4"),
               "OpGetMaxPipePackets: the result type %ulong must be a 32-bit integer scalar");
}

TEST(ValPipes, GroupReservationsAndPipeStorage) {
  EXPECT_VALID(
      kernel("%r = OpGroupReserveReadPipePackets %rid %uint_2 %rp %uint_2 %uint_4 %uint_4\n"
             "OpGroupCommitReadPipe %uint_2 %rp %r %uint_4 %uint_4\n"
             "%sp = OpCreatePipeFromPipeStorage %rpipe %psc"));
  EXPECT_ERROR(
      kernel("%r = OpGroupReserveReadPipePackets %rid %uint_2 %wp %uint_2 %uint_4 %uint_4"),
      "OpGroupReserveReadPipePackets: Pipe %wp must be an OpTypePipe with the ReadOnly access");
  EXPECT_ERROR(
      kernel("%r = OpGroupReserveWritePipePackets %bool %uint_2 %wp %uint_2 %uint_4 %uint_4"),
      "OpGroupReserveWritePipePackets: the result type %bool must be OpTypeReserveId");
  EXPECT_ERROR(kernel("OpGroupCommitReadPipe %uint_2 %rp %uint_1 %uint_4 %uint_4"),
               "OpGroupCommitReadPipe: Reserve Id %uint_1 must be of type OpTypeReserveId");
  EXPECT_ERROR(kernel("%sp = OpCreatePipeFromPipeStorage %uint %psc"),
               "OpCreatePipeFromPipeStorage: the result type %uint must be OpTypePipe");
  EXPECT_ERROR(kernel("%sp = OpCreatePipeFromPipeStorage %rpipe %uint_1"),
               "OpCreatePipeFromPipeStorage: Pipe Storage %uint_1 must be of type "
               "OpTypePipeStorage");
  const std::string text = test::replaced(kKernel, "%psc = OpConstantPipeStorage %pstorage",
                                          "%psc = OpConstantPipeStorage %uint");
  EXPECT_ERROR(test::validateText(test::replaced(text, "BODY", ""), "spv1.4"),
               "OpConstantPipeStorage: the result type %uint must be OpTypePipeStorage");
}

TEST(ValDeviceEnqueue, EnqueueAndKernelQueries) {
  EXPECT_VALID(
      kernel("%e = OpEnqueueKernel %uint %q %uint_0 %nd %uint_0 %ev %ev %invoke %gp %uint_1 "
             "%uint_1 %uint_4\n"
             "%mk = OpEnqueueMarker %uint %q %uint_0 %ev %ev\n"
             "%sg = OpGetKernelNDrangeSubGroupCount %uint %nd %invoke %gp %uint_1 %uint_1\n"
             "%ms = OpGetKernelNDrangeMaxSubGroupSize %uint %nd %invoke %gp %uint_1 %uint_1\n"
             "%ws = OpGetKernelWorkGroupSize %uint %invoke %gp %uint_1 %uint_1\n"
             "%pm = OpGetKernelPreferredWorkGroupSizeMultiple %uint %invoke %gp %uint_1 %uint_1"));
  const char *enqueue = "%e = OpEnqueueKernel %uint %q %uint_0 %nd %uint_0 %ev %ev %invoke %gp "
                        "%uint_1 %uint_1 %uint_4";
  auto with = [&](std::string_view from, std::string_view to) {
    return kernel(test::replaced(enqueue, from, to));
  };
  EXPECT_ERROR(with("OpEnqueueKernel %uint", "OpEnqueueKernel %ulong"),
               "OpEnqueueKernel: the result type %ulong must be a 32-bit integer scalar");
  EXPECT_ERROR(with("%q", "%ue"), "OpEnqueueKernel: Queue %ue must be of type OpTypeQueue");
  EXPECT_ERROR(with("%q %uint_0", "%q %ev"),
               "OpEnqueueKernel: Flags %ev must be an integer scalar");
  EXPECT_ERROR(with("%nd", "%uint_1"), "OpEnqueueKernel: ND Range %uint_1 must be an OpTypeStruct");
  EXPECT_ERROR(with("%nd %uint_0", "%nd %ulong_1"),
               "OpEnqueueKernel: Num Events %ulong_1 must be a 32-bit integer scalar");
  EXPECT_ERROR(with("%ev %ev", "%gp %ev"),
               "OpEnqueueKernel: Wait Events %gp must be a pointer to OpTypeDeviceEvent");
  EXPECT_ERROR(with("%ev %ev", "%ev %ue"),
               "OpEnqueueKernel: Ret Event %ue must be a pointer to OpTypeDeviceEvent");
  EXPECT_ERROR(with("%invoke", "%uint_1"), "OpEnqueueKernel: Invoke %uint_1 must be an OpFunction");
  EXPECT_ERROR(with("%invoke", "%badInvoke"),
               "the parameters of the function Invoke %badInvoke after the first must be "
               "pointers to Workgroup");
  EXPECT_ERROR(with("%invoke %gp", "%invoke %ev"),
               "OpEnqueueKernel: Param %ev must be a pointer to an 8-bit integer scalar");
  EXPECT_ERROR(with("%gp %uint_1", "%gp %ulong_1"),
               "OpEnqueueKernel: Param Size %ulong_1 must be a 32-bit integer scalar");
  EXPECT_ERROR(with("%uint_1 %uint_4", "%uint_1"),
               "the function Invoke %invoke has 1 Workgroup parameters but 0 Local Size operands "
               "are given");
  EXPECT_ERROR(kernel("%mk = OpEnqueueMarker %uint %uint_1 %uint_0 %ev %ev"),
               "OpEnqueueMarker: Queue %uint_1 must be of type OpTypeQueue");
  EXPECT_ERROR(kernel("%sg = OpGetKernelNDrangeSubGroupCount %uint %uint_1 %invoke %gp %uint_1 "
                      "%uint_1"),
               "OpGetKernelNDrangeSubGroupCount: ND Range %uint_1 must be an OpTypeStruct");
  EXPECT_ERROR(kernel("%ms = OpGetKernelNDrangeMaxSubGroupSize %bool %nd %invoke %gp %uint_1 "
                      "%uint_1"),
               "OpGetKernelNDrangeMaxSubGroupSize: the result type %bool must be a 32-bit "
               "integer scalar");
  EXPECT_ERROR(kernel("%ws = OpGetKernelWorkGroupSize %uint %invoke %gp %uint_1 %ulong_1"),
               "OpGetKernelWorkGroupSize: Param Align %ulong_1 must be a 32-bit integer scalar");
  EXPECT_ERROR(
      kernel("%pm = OpGetKernelPreferredWorkGroupSizeMultiple %uint %k %gp %uint_1 %uint_1"),
      "the first parameter of the function Invoke %k must be a pointer to an 8-bit integer");
}

TEST(ValDeviceEnqueue, EventsQueuesAndNDRanges) {
  EXPECT_VALID(kernel("%iv = OpIsValidEvent %bool %ue\n"
                      "OpRetainEvent %ue\n"
                      "OpSetUserEventStatus %ue %uint_0\n"
                      "OpCaptureEventProfilingInfo %ue %uint_1 %cp\n"
                      "OpReleaseEvent %ue\n"
                      "%n2 = OpBuildNDRange %ndrange %a2 %a2 %a2"));
  EXPECT_ERROR(kernel("%e = OpCreateUserEvent %uint"),
               "OpCreateUserEvent: the result type %uint must be OpTypeDeviceEvent");
  EXPECT_ERROR(kernel("%iv = OpIsValidEvent %uint %ue"),
               "OpIsValidEvent: the result type %uint must be a boolean scalar");
  EXPECT_ERROR(kernel("%iv = OpIsValidEvent %bool %q"),
               "OpIsValidEvent: Event %q must be of type OpTypeDeviceEvent");
  EXPECT_ERROR(kernel("OpRetainEvent %uint_1"),
               "OpRetainEvent: Event %uint_1 must be of type OpTypeDeviceEvent");
  EXPECT_ERROR(kernel("OpReleaseEvent %ev"),
               "OpReleaseEvent: Event %ev must be of type OpTypeDeviceEvent");
  EXPECT_ERROR(kernel("OpSetUserEventStatus %ue %ulong_1"),
               "OpSetUserEventStatus: Status %ulong_1 must be a 32-bit integer scalar");
  EXPECT_ERROR(kernel("OpCaptureEventProfilingInfo %ue %ev %cp"),
               "OpCaptureEventProfilingInfo: Profiling Info %ev must be an integer scalar");
  EXPECT_ERROR(kernel("OpCaptureEventProfilingInfo %ue %uint_1 %gp"),
               "OpCaptureEventProfilingInfo: Value %gp must be a pointer to an 8-bit integer "
               "scalar in CrossWorkgroup");
  EXPECT_ERROR(kernel("%dq = OpGetDefaultQueue %event"),
               "OpGetDefaultQueue: the result type %event must be OpTypeQueue");
  EXPECT_ERROR(kernel("%n2 = OpBuildNDRange %arr3 %ulong_1 %ulong_1 %ulong_1"),
               "OpBuildNDRange: the result type %arr3 must be an OpTypeStruct of a 32-bit "
               "integer and three arrays of three 64-bit (size_t) integers");
  EXPECT_ERROR(kernel("%n2 = OpBuildNDRange %ndrange %uint_1 %uint_1 %uint_1"),
               "OpBuildNDRange: GlobalWorkSize %uint_1 must be a 64-bit (size_t) integer scalar "
               "or an array of two or three of them");
  EXPECT_ERROR(kernel("%n2 = OpBuildNDRange %ndrange %a2 %ulong_1 %a2"),
               "OpBuildNDRange: LocalWorkSize %ulong_1 must be of GlobalWorkSize's type %arr2");
}

// "Event must have a type of OpTypeDeviceEvent that was produced by OpCreateUserEvent"
// (OpSetUserEventStatus), "... produced by OpEnqueueKernel or OpEnqueueMarker"
// (OpCaptureEventProfilingInfo), where one function shows where the event comes from. spirv-val
// 2023.1 checks neither; the second is a warning, since the OpenCL translator captures the
// profiling information of user events.
TEST(ValDeviceEnqueue, WhereEventsComeFrom) {
  const std::string marker = "%mk = OpEnqueueMarker %uint %q %uint_0 %ev %ret\n"
                             "%re = OpLoad %event %ret\n";
  EXPECT_VALID(kernel("OpStore %ret %ue\n%re = OpLoad %event %ret\n"
                      "%c = OpCopyObject %event %re\nOpSetUserEventStatus %c %uint_0"));
  // A variable written by both an enqueue and a store of a user event holds either.
  EXPECT_VALID(kernel("OpStore %ret %ue\n" + marker + "OpSetUserEventStatus %re %uint_0"));
  EXPECT_ERROR(kernel(marker + "OpSetUserEventStatus %re %uint_0"),
               " must be produced by OpCreateUserEvent; it is the event of an OpEnqueueKernel or "
               "OpEnqueueMarker");
  EXPECT_ERROR(kernel("%u = OpUndef %event\nOpSetUserEventStatus %u %uint_0"),
               " must be produced by OpCreateUserEvent; it is a null or undefined value");

  const Report fromEnqueue = kernel(marker + "OpCaptureEventProfilingInfo %re %uint_1 %cp");
  EXPECT_VALID(fromEnqueue);
  EXPECT_TRUE(fromEnqueue.problems.empty()) << test::describe(fromEnqueue);
  const Report userEvent = kernel("OpCaptureEventProfilingInfo %ue %uint_1 %cp");
  EXPECT_VALID(userEvent);
  EXPECT_TRUE(test::hasWarning(userEvent, "OpCaptureEventProfilingInfo: Event %ue should be "
                                          "produced by OpEnqueueKernel or OpEnqueueMarker; it is a "
                                          "user event (OpCreateUserEvent)"))
      << test::describe(userEvent);
  const Report info = kernel(marker + "OpCaptureEventProfilingInfo %re %uint_2 %cp");
  EXPECT_VALID(info);
  EXPECT_TRUE(test::hasWarning(info, "OpCaptureEventProfilingInfo: Profiling Info %uint_2 is 2, "
                                     "which sets bits that are no Kernel Profiling Info"))
      << test::describe(info);
}

} // namespace
} // namespace spire::val
