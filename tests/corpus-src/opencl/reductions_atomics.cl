// target-env: opencl2.0
// clang: -triple spir64-unknown-unknown -cl-std=CL2.0 -O2
// llvm-spirv: --spirv-max-version=1.0
// Reductions and histograms with atomics: legacy atomic_* built-ins on global and local
// memory (add, inc, dec, min, max, and, or, xor, xchg, cmpxchg), OpenCL 2.0 C11-style atomics
// with explicit memory orders and scopes, atomic_flag spin locks, and fences.

kernel void histogram256(global const uchar* data, uint n, global uint* bins,
                         local uint* localBins) {
  uint lid = get_local_id(0);
  uint lsize = get_local_size(0);
  for (uint b = lid; b < 256; b += lsize)
    localBins[b] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);

  for (uint i = get_global_id(0); i < n; i += get_global_size(0))
    atomic_inc(&localBins[data[i]]);
  barrier(CLK_LOCAL_MEM_FENCE);

  for (uint b = lid; b < 256; b += lsize) {
    uint v = localBins[b];
    if (v != 0)
      atomic_add(&bins[b], v);
  }
}

typedef struct {
  int minimum;
  int maximum;
  uint andBits;
  uint orBits;
  uint xorBits;
  int lastSeen;
  int countDown;
  int casWinner;
} Stats;

kernel void integer_stats(global const int* values, uint n, global Stats* stats) {
  size_t i = get_global_id(0);
  if (i >= n)
    return;
  int v = values[i];
  atomic_min(&stats->minimum, v);
  atomic_max(&stats->maximum, v);
  atomic_and(&stats->andBits, (uint)v);
  atomic_or(&stats->orBits, (uint)v);
  atomic_xor(&stats->xorBits, (uint)v);
  atomic_xchg(&stats->lastSeen, (int)i);
  atomic_dec(&stats->countDown);
  atomic_cmpxchg(&stats->casWinner, -1, (int)i);
}

kernel void float_sum_c11(global const float* values, uint n, global atomic_int* ticket,
                          global atomic_uint* done, global float* partial, global float* total) {
  local float scratch[128];
  uint lid = get_local_id(0);
  size_t gid = get_global_id(0);
  scratch[lid] = gid < n ? values[gid] : 0.0f;
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  uint stride = get_local_size(0) / 2;
  while (stride > 0) {
    if (lid < stride)
      scratch[lid] += scratch[lid + stride];
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    stride /= 2;
  }
  if (lid != 0)
    return;
  int slot = atomic_fetch_add_explicit(ticket, 1, memory_order_relaxed, memory_scope_device);
  partial[slot] = scratch[0];
  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, memory_scope_device);
  uint finished = atomic_fetch_add_explicit(done, 1u, memory_order_acq_rel, memory_scope_device);
  if (finished + 1 == get_num_groups(0)) {
    float sum = 0.0f;
    int count = atomic_load_explicit(ticket, memory_order_acquire, memory_scope_device);
    for (int k = 0; k < count; ++k)
      sum += partial[k];
    *total = sum;
    atomic_store_explicit(done, 0u, memory_order_release, memory_scope_device);
    int expected = count;
    atomic_compare_exchange_strong_explicit(ticket, &expected, 0, memory_order_acq_rel,
                                            memory_order_relaxed, memory_scope_device);
  }
}

kernel void locked_append(global atomic_flag* lock, global int* list, global int* length,
                          int value) {
  if (get_global_id(0) % 16 != 0)
    return;
  while (atomic_flag_test_and_set_explicit(lock, memory_order_acquire, memory_scope_device))
    ;
  int len = *length;
  list[len] = value + (int)get_global_id(0);
  *length = len + 1;
  atomic_flag_clear_explicit(lock, memory_order_release, memory_scope_device);
}
