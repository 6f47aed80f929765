// target-env: vulkan1.3
// glslang: -V --target-env vulkan1.3
// A persistent-threads work queue under the Vulkan memory model: explicit scopes and
// acquire/release semantics on atomics, availability/visibility through coherent buffers,
// control barriers with memory semantics, and a spin with bounded retries.
#version 460
#extension GL_KHR_memory_scope_semantics : require
#pragma use_vulkan_memory_model

layout(local_size_x = 64) in;

struct Task {
  uint first;
  uint count;
  uint depth;
  uint parent;
};

layout(set = 0, binding = 0, std430) coherent buffer Queue {
  uint head;
  uint tail;
  uint published;
  uint completed;
  Task tasks[];
} queue;

layout(set = 0, binding = 1, std430) buffer Results { float results[]; };
layout(set = 0, binding = 2, std430) readonly buffer Inputs { float inputs[]; };

shared uint groupTask;
shared uint groupDone;

const uint SPLIT_THRESHOLD = 256u;
const uint MAX_SPINS = 1024u;

void main() {
  if (gl_LocalInvocationIndex == 0u)
    groupDone = 0u;
  controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsShared,
                 gl_SemanticsAcquireRelease);

  for (uint spin = 0u; spin < MAX_SPINS; ++spin) {
    if (gl_LocalInvocationIndex == 0u) {
      uint slot = atomicAdd(queue.head, 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer,
                            gl_SemanticsAcquire);
      uint ready = atomicLoad(queue.published, gl_ScopeDevice, gl_StorageSemanticsBuffer,
                              gl_SemanticsAcquire | gl_SemanticsMakeVisible);
      if (slot >= ready) {
        atomicAdd(queue.head, uint(-1), gl_ScopeDevice, gl_StorageSemanticsNone,
                  gl_SemanticsRelaxed);
        slot = 0xFFFFFFFFu;
      }
      groupTask = slot;
    }
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsShared,
                   gl_SemanticsAcquireRelease);
    uint slot = groupTask;
    if (slot == 0xFFFFFFFFu) {
      uint done = atomicLoad(queue.completed, gl_ScopeDevice, gl_StorageSemanticsBuffer,
                             gl_SemanticsAcquire);
      if (done >= atomicLoad(queue.published, gl_ScopeDevice, gl_StorageSemanticsBuffer,
                             gl_SemanticsAcquire))
        break;
      continue;
    }

    Task task = queue.tasks[slot];
    if (task.count > SPLIT_THRESHOLD && gl_LocalInvocationIndex == 0u) {
      uint half_ = task.count / 2u;
      uint at = atomicAdd(queue.tail, 2u, gl_ScopeDevice, gl_StorageSemanticsNone,
                          gl_SemanticsRelaxed);
      queue.tasks[at] = Task(task.first, half_, task.depth + 1u, slot);
      queue.tasks[at + 1u] = Task(task.first + half_, task.count - half_, task.depth + 1u, slot);
      atomicAdd(queue.published, 2u, gl_ScopeDevice, gl_StorageSemanticsBuffer,
                gl_SemanticsRelease | gl_SemanticsMakeAvailable);
    } else if (task.count <= SPLIT_THRESHOLD) {
      for (uint i = gl_LocalInvocationIndex; i < task.count; i += 64u) {
        float x = inputs[task.first + i];
        results[task.first + i] = x * x * 0.5 + float(task.depth);
      }
      memoryBarrier(gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelease);
    }
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeDevice, gl_StorageSemanticsBuffer,
                   gl_SemanticsAcquireRelease);
    if (gl_LocalInvocationIndex == 0u) {
      atomicAdd(queue.completed, 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer,
                gl_SemanticsRelease);
      atomicStore(groupDone, groupDone + 1u, gl_ScopeWorkgroup, gl_StorageSemanticsNone,
                  gl_SemanticsRelaxed);
    }
  }
}
