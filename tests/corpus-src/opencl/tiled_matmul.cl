// target-env: opencl2.0
// clang: -triple spir64-unknown-unknown -cl-std=CL2.0 -O2
// llvm-spirv: --spirv-max-version=1.0
// Tiled single-precision matrix multiply: local memory tiles passed as kernel arguments and
// declared in the kernel (and passed as pointers to arrays to a helper function), work-group barriers, a required work-group size, register blocking
// with float4 accumulators, and a transpose kernel with padding against bank conflicts.

#define TILE 16
#define BLOCK 4

// One tile's contribution to a 4x1 block of C.
__attribute__((noinline)) float4 multiplyTile(local float (*tileA)[TILE + 1],
                                              local float (*tileB)[TILE], int row, int col,
                                              float4 acc) {
  int k = 0;
  do { // a do-while keeps llvm-spirv's block order valid (see README.md)
    float b = tileB[k][col];
    acc.x = fma(tileA[row + 0][k], b, acc.x);
    acc.y = fma(tileA[row + 1][k], b, acc.y);
    acc.z = fma(tileA[row + 2][k], b, acc.z);
    acc.w = fma(tileA[row + 3][k], b, acc.w);
  } while (++k < TILE);
  return acc;
}

__attribute__((reqd_work_group_size(TILE, TILE / BLOCK, 1)))
kernel void sgemm_tiled(int M, int N, int K, float alpha, float beta, global const float* A,
                        global const float* B, global float* C) {
  local float tileA[TILE][TILE + 1];
  local float tileB[TILE][TILE];
  const int row = get_local_id(1) * BLOCK;
  const int col = get_local_id(0);
  const int globalRow = get_group_id(1) * TILE + row;
  const int globalCol = get_group_id(0) * TILE + col;

  float4 acc = (float4)(0.0f);
  const int tiles = (K + TILE - 1) / TILE;
  for (int t = 0; t < tiles; ++t) {
    for (int r = 0; r < BLOCK; ++r) {
      int aRow = globalRow + r;
      int aCol = t * TILE + col;
      int bRow = t * TILE + row + r;
      tileA[row + r][col] = (aRow < M && aCol < K) ? A[aRow * K + aCol] : 0.0f;
      tileB[row + r][col] = (bRow < K && globalCol < N) ? B[bRow * N + globalCol] : 0.0f;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    acc = multiplyTile(tileA, tileB, row, col, acc);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  float results[BLOCK] = {acc.x, acc.y, acc.z, acc.w};
  for (int r = 0; r < BLOCK; ++r) {
    int outRow = globalRow + r;
    if (outRow < M && globalCol < N) {
      global float* c = &C[outRow * N + globalCol];
      *c = alpha * results[r] + beta * *c;
    }
  }
}

kernel void transpose(global const float* in, global float* out, int width, int height,
                      local float* scratch) {
  const int lx = get_local_id(0), ly = get_local_id(1);
  const int lw = get_local_size(0);
  int x = get_global_id(0), y = get_global_id(1);
  if (x < width && y < height)
    scratch[ly * (lw + 1) + lx] = in[y * width + x];
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  x = get_group_id(1) * get_local_size(1) + lx;
  y = get_group_id(0) * lw + ly;
  if (x < height && y < width)
    out[y * height + x] = scratch[lx * (lw + 1) + ly];
}
