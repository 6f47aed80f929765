// Rules: the instructions of SPV_EXT_mesh_shader (operand types; that OpSetMeshOutputsEXT runs in
// MeshEXT and OpEmitMeshTasksEXT in TaskEXT entry points is RulesModes').
//
// - OpSetMeshOutputsEXT: 32-bit unsigned integer vertex and primitive counts.
// - OpEmitMeshTasksEXT: 32-bit unsigned integer group counts, and a payload that is an OpVariable
//   in TaskPayloadWorkgroupEXT.
#include "OperandCheck.h"
#include "Rules.h"

namespace spire::val {

namespace {

constexpr uint32_t kOpEmitMeshTasks = uint32_t(grammar::Op::EmitMeshTasksEXT),
                   kOpSetMeshOutputs = uint32_t(grammar::Op::SetMeshOutputsEXT);
constexpr uint32_t kStorageTaskPayloadWorkgroup =
    uint32_t(grammar::StorageClass::TaskPayloadWorkgroupEXT);
constexpr const char *kRule = "SPV_EXT_mesh_shader";

bool unsignedCount(OperandCheck &c, uint32_t word, std::string_view what) {
  return c.operand(word, what, "a 32-bit unsigned integer scalar",
                   [&](uint32_t t) { return c.unsignedInt32(t); });
}

// OpEmitMeshTasksEXT %groupCountX %groupCountY %groupCountZ [%payload]
void emitMeshTasks(State &s, const Instruction &inst) {
  OperandCheck c(s, inst, kRule);
  if (!unsignedCount(c, 1, "Group Count X") || !unsignedCount(c, 2, "Group Count Y") ||
      !unsignedCount(c, 3, "Group Count Z"))
    return;
  const uint32_t payload = c.id(4);
  if (payload == 0 || c.type(4) == 0)
    return;
  if (s.defOpcode(payload) != Op::Variable)
    c.fail("Payload " + s.name(payload) + " must be the result of an OpVariable");
  else if (s.storageClass(c.type(4)) != kStorageTaskPayloadWorkgroup)
    c.fail("Payload " + s.name(payload) + " must be in the TaskPayloadWorkgroupEXT storage class");
}

} // namespace

void checkMeshShading(State &s) {
  static_assert(kOpEmitMeshTasks >= 4096 && kOpSetMeshOutputs >= 4096);
  if (!s.extensionOpcodes())
    return; // OpEmitMeshTasksEXT and OpSetMeshOutputsEXT are an extension's
  forEachInstruction(s, [&](const Instruction &inst, uint32_t op) {
    if (op == kOpEmitMeshTasks) {
      emitMeshTasks(s, inst);
    } else if (op == kOpSetMeshOutputs) {
      // OpSetMeshOutputsEXT %vertexCount %primitiveCount
      OperandCheck c(s, inst, kRule);
      unsignedCount(c, 1, "Vertex Count") && unsignedCount(c, 2, "Primitive Count");
    }
  });
}

} // namespace spire::val
