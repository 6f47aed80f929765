// target-env: spv1.3
// clang: -triple spir64-unknown-unknown -cl-std=CL2.0 -cl-ext=+cl_khr_subgroups,+cl_khr_subgroup_ballot,+cl_khr_subgroup_shuffle,+cl_khr_subgroup_shuffle_relative,+cl_khr_subgroup_non_uniform_arithmetic,+cl_khr_subgroup_clustered_reduce,+cl_khr_subgroup_non_uniform_vote -O2
// llvm-spirv: --spirv-max-version=1.3
// Non-uniform sub-group operations from the cl_khr_subgroup_* extensions (SPIR-V 1.3
// GroupNonUniform instructions): elect, ballots and bit counts, shuffles (indexed, xor, up,
// down), non-uniform and clustered reductions and scans, inside divergent control flow.
#pragma OPENCL EXTENSION cl_khr_subgroups : enable

kernel void sparse_rows(global const int* rowLengths, global const float* values,
                        global const int* rowStarts, global float* rowSums, global uint* stats) {
  size_t row = get_global_id(0);
  int len = rowLengths[row];
  float sum = 0.0f;
  global const float* v = values + rowStarts[row];
  global const float* end = v + len;
  while (v < end)
    sum += *v++;

  if (len > 0) {
    // Only rows with entries take part from here: the operations are non-uniform.
    float total = sub_group_non_uniform_reduce_add(sum);
    float running = sub_group_non_uniform_scan_inclusive_add(sum);
    int longest = sub_group_non_uniform_reduce_max(len);
    uint4 mask = sub_group_ballot(len > 8);
    uint longRows = sub_group_ballot_bit_count(mask);
    uint longBefore = sub_group_ballot_exclusive_scan(mask);
    uint firstLong = sub_group_ballot_find_lsb(mask);
    if (sub_group_elect()) {
      atomic_add(&stats[0], longRows);
      atomic_max(&stats[1], (uint)longest);
      atomic_add(&stats[2], sub_group_non_uniform_all(len < 1024) ? 1u : 0u);
    }
    rowSums[row] = sum / (total + 1.0f) + running * 0.0f + (float)(longBefore + firstLong) * 0.0f;
  } else {
    rowSums[row] = 0.0f;
  }
}

kernel void shuffle_transpose(global const float4* in, global float4* out) {
  size_t gid = get_global_id(0);
  uint lane = get_sub_group_local_id();
  float4 v = in[gid];
  float x = sub_group_shuffle(v.x, (lane + 1) % get_sub_group_size());
  float y = sub_group_shuffle_xor(v.y, 1u);
  float z = sub_group_shuffle_up(v.z, 1u);
  float w = sub_group_shuffle_down(v.w, 1u);
  float q = sub_group_clustered_reduce_add(v.x, 4u);
  int bits = sub_group_clustered_reduce_or((int)lane, 8u);
  out[gid] = (float4)(x + q, y, z, w + (float)bits);
}
