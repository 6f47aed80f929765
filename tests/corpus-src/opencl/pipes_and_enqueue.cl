// target-env: opencl2.0
// clang: -triple spir64-unknown-unknown -cl-std=CL2.0 -O2
// llvm-spirv: --spirv-max-version=1.0
// OpenCL 2.0 pipes and device-side enqueue: a producer kernel writing packets to a pipe with
// work-group reservations, a consumer reading them, pipe queries, and a kernel that enqueues
// a child block over the elements it could not process, with an event and a clk_event_t.

typedef struct {
  int key;
  float value;
} Packet;

kernel void producer(global const float* values, int n, write_only pipe Packet out,
                     global int* dropped) {
  int i = get_global_id(0);
  Packet p = {i, i < n ? values[i] : 0.0f};
  reserve_id_t rid = work_group_reserve_write_pipe(out, get_local_size(0));
  if (is_valid_reserve_id(rid)) {
    write_pipe(out, rid, get_local_id(0), &p);
    work_group_commit_write_pipe(out, rid);
  } else if (write_pipe(out, &p) != 0) {
    atomic_inc(dropped);
  }
}

kernel void consumer(read_only pipe Packet in, global int* fixedSums, global uint* stats) {
  Packet p;
  if (read_pipe(in, &p) == 0)
    atomic_add(&fixedSums[p.key & 255], (int)(p.value * 1024.0f));
  if (get_global_id(0) == 0) {
    stats[0] = get_pipe_num_packets(in);
    stats[1] = get_pipe_max_packets(in);
  }
}

kernel void scale_with_child(global float* data, int n, int processed, float factor) {
  int i = get_global_id(0);
  if (i < processed)
    data[i] *= factor;
  if (i != 0 || processed >= n)
    return;
  queue_t q = get_default_queue();
  ndrange_t range = ndrange_1D((size_t)(n - processed));
  clk_event_t done;
  int status = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_WAIT_KERNEL, range, 0, NULL, &done, ^{
    size_t j = get_global_id(0) + (size_t)processed;
    data[j] *= factor;
  });
  if (status == CLK_SUCCESS) {
    retain_event(done);
    release_event(done);
    release_event(done);
  }
}
