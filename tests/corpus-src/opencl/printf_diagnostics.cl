// target-env: opencl2.0
// clang: -triple spir64-unknown-unknown -cl-std=CL2.0 -O2
// llvm-spirv: --spirv-max-version=1.0
// Device-side printf for diagnostics: format strings in the constant address space with
// integers, floats, doubles, strings, pointers, hex, characters, vectors (%v4f, %v2d) and
// field widths, printed conditionally from a validation kernel.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

typedef struct {
  float4 bounds;
  int id;
  uint flags;
} Item;

kernel void validate_items(global const Item* items, uint n, global int* errors) {
  size_t i = get_global_id(0);
  if (i >= n)
    return;
  Item it = items[i];
  if (it.bounds.x > it.bounds.z || it.bounds.y > it.bounds.w) {
    printf("item %d (index %zu): inverted bounds %v4hlf\n", it.id, i, it.bounds);
    atomic_inc(errors);
  }
  if (isnan(it.bounds.x) || isinf(it.bounds.y)) {
    printf("item %5d: non-finite coordinate x=%e y=%g\n", it.id, it.bounds.x, it.bounds.y);
    atomic_inc(errors);
  }
  if ((it.flags & 0xF0000000u) != 0) {
    printf("item %d: reserved flag bits 0x%08x at %p, marker '%c', kind %s\n", it.id, it.flags,
           (const global void*)&items[i], 'R', (it.flags & 1u) ? "dynamic" : "static");
    atomic_inc(errors);
  }
  if (i == 0) {
    double area = (double)(it.bounds.z - it.bounds.x) * (double)(it.bounds.w - it.bounds.y);
    printf("first item area %.6f, %v2lf, groups %u\n", area, (double2)(area, sqrt(area)),
           (uint)get_num_groups(0));
  }
}
