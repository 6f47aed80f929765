// target-env: vulkan1.0
// glslang: -V --target-env vulkan1.0 -D -e CSMain -S comp
// Blelloch work-efficient exclusive prefix sum in HLSL: groupshared memory with bank-conflict
// padding, GroupMemoryBarrierWithGroupSync, up-sweep and down-sweep loops, RWStructuredBuffer
// outputs, and InterlockedAdd/InterlockedMax to publish block totals.
#define GROUP_SIZE 256
#define ELEMENTS (GROUP_SIZE * 2)
#define PAD(i) ((i) + ((i) >> 5))

StructuredBuffer<uint> Input : register(t0);
RWStructuredBuffer<uint> Output : register(u0);
RWStructuredBuffer<uint> BlockSums : register(u1);
RWByteAddressBuffer Stats : register(u2);

cbuffer ScanConstants : register(b0) {
  uint ElementCount;
  uint BlockCount;
};

groupshared uint Temp[PAD(ELEMENTS) + 1];

[numthreads(GROUP_SIZE, 1, 1)]
void CSMain(uint3 groupId : SV_GroupID, uint3 threadId : SV_GroupThreadID,
            uint3 dispatchId : SV_DispatchThreadID) {
  uint t = threadId.x;
  uint base = groupId.x * ELEMENTS;
  uint ai = t, bi = t + GROUP_SIZE;
  Temp[PAD(ai)] = base + ai < ElementCount ? Input[base + ai] : 0;
  Temp[PAD(bi)] = base + bi < ElementCount ? Input[base + bi] : 0;

  uint offset = 1;
  [loop] for (uint d = ELEMENTS >> 1; d > 0; d >>= 1) {
    GroupMemoryBarrierWithGroupSync();
    if (t < d) {
      uint a = offset * (2 * t + 1) - 1;
      uint b = offset * (2 * t + 2) - 1;
      Temp[PAD(b)] += Temp[PAD(a)];
    }
    offset <<= 1;
  }

  if (t == 0) {
    uint total = Temp[PAD(ELEMENTS - 1)];
    BlockSums[groupId.x] = total;
    Temp[PAD(ELEMENTS - 1)] = 0;
    uint previousMax;
    Stats.InterlockedMax(0, total, previousMax);
    uint previousSum;
    Stats.InterlockedAdd(4, total, previousSum);
  }

  [loop] for (uint d2 = 1; d2 < ELEMENTS; d2 <<= 1) {
    offset >>= 1;
    GroupMemoryBarrierWithGroupSync();
    if (t < d2) {
      uint a = offset * (2 * t + 1) - 1;
      uint b = offset * (2 * t + 2) - 1;
      uint x = Temp[PAD(a)];
      Temp[PAD(a)] = Temp[PAD(b)];
      Temp[PAD(b)] += x;
    }
  }
  GroupMemoryBarrierWithGroupSync();

  if (base + ai < ElementCount)
    Output[base + ai] = Temp[PAD(ai)];
  if (base + bi < ElementCount)
    Output[base + bi] = Temp[PAD(bi)];
  if (dispatchId.x == 0) {
    uint old;
    InterlockedAdd(BlockSums[BlockCount], 1, old);
  }
}
