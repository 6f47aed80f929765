// target-env: opencl2.0
// clang: -triple spir64-unknown-unknown -cl-std=CL2.0 -cl-ext=+cl_khr_subgroups -O2
// llvm-spirv: --spirv-max-version=1.0
// Work-group and sub-group collective functions (OpenCL 2.0 and cl_khr_subgroups): reductions,
// inclusive/exclusive scans, broadcasts, any/all votes, sub-group barriers and queries, used
// for radix-sort digit counting and stream compaction.
#pragma OPENCL EXTENSION cl_khr_subgroups : enable

kernel void radix_digit_offsets(global const uint* keys, uint n, uint shift,
                                global uint* digitCounts, global uint* localRanks) {
  size_t gid = get_global_id(0);
  uint key = gid < n ? keys[gid] : 0xFFFFFFFFu;
  uint digit = (key >> shift) & 0xFu;
  uint rank = 0;
  uint d = 0;
  do { // a do-while keeps llvm-spirv's block order valid (see README.md)
    uint match = digit == d ? 1u : 0u;
    uint before = work_group_scan_exclusive_add(match);
    uint total = work_group_reduce_add(match);
    if (match)
      rank = before;
    if (get_local_id(0) == 0)
      digitCounts[get_group_id(0) * 16 + d] = total;
  } while (++d < 16);
  if (gid < n)
    localRanks[gid] = rank;
}

kernel void compact_positive(global const float* in, uint n, global float* out,
                             global uint* outCount) {
  size_t gid = get_global_id(0);
  float v = gid < n ? in[gid] : -1.0f;
  int keep = v > 0.0f;
  if (!work_group_any(keep))
    return;
  uint slot = sub_group_scan_exclusive_add((uint)keep);
  uint subTotal = sub_group_reduce_add((uint)keep);
  uint base = 0;
  if (get_sub_group_local_id() == 0)
    base = atomic_add(outCount, subTotal);
  base = sub_group_broadcast(base, 0);
  if (keep)
    out[base + slot] = v;
  sub_group_barrier(CLK_GLOBAL_MEM_FENCE);
}

kernel void group_stats(global const int* in, global int4* out, global float2* fout) {
  size_t gid = get_global_id(0);
  int v = in[gid];
  int lo = work_group_reduce_min(v);
  int hi = work_group_reduce_max(v);
  int runningMax = work_group_scan_inclusive_max(v);
  int subMin = sub_group_reduce_min(v);
  int subScanMin = sub_group_scan_inclusive_min(v);
  int allPositive = work_group_all(v > 0);
  int anyNegative = sub_group_any(v < 0);
  int allSmall = sub_group_all(v < 1000);
  int first = work_group_broadcast(v, 0);
  float f = (float)v * 0.5f;
  float fsum = work_group_reduce_add(f);
  float fscan = sub_group_scan_exclusive_max(f);
  if (get_local_id(0) == 0)
    out[get_group_id(0)] = (int4)(lo, hi, first, allPositive);
  out[get_num_groups(0) + gid] = (int4)(runningMax, subMin + subScanMin, anyNegative, allSmall);
  fout[gid] = (float2)(fsum, fscan) + (float2)(get_sub_group_size(), get_num_sub_groups()) +
              (float2)(get_sub_group_id(), get_max_sub_group_size());
}
