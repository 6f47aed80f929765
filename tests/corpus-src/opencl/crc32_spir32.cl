// target-env: opencl2.0
// clang: -triple spir-unknown-unknown -cl-std=CL2.0 -O2
// llvm-spirv: --spirv-max-version=1.0
// CRC-32 and Adler-32 checksums of variable-length records on a 32-bit device (spir triple:
// Physical32 addressing, 32-bit size_t and pointers): a program-scope constant lookup table,
// byte-wise table-driven CRC, and 32-bit pointer arithmetic.

constant uint crcTable[16] = {
    0x00000000u, 0x1DB71064u, 0x3B6E20C8u, 0x26D930ACu, 0x76DC4190u, 0x6B6B51F4u,
    0x4DB26158u, 0x5005713Cu, 0xEDB88320u, 0xF00F9344u, 0xD6D6A3E8u, 0xCB61B38Cu,
    0x9B64C2B0u, 0x86D3D2D4u, 0xA00AE278u, 0xBDBDF21Cu};

uint crc32Update(uint crc, uchar byte) {
  crc = crcTable[(crc ^ byte) & 0x0Fu] ^ (crc >> 4);
  crc = crcTable[(crc ^ (byte >> 4)) & 0x0Fu] ^ (crc >> 4);
  return crc;
}

kernel void checksum_records(global const uchar* data, global const uint* offsets,
                             global uint2* sums, uint records) {
  size_t r = get_global_id(0);
  if (r >= records)
    return;
  global const uchar* p = data + offsets[r];
  global const uchar* end = data + offsets[r + 1];
  uint crc = 0xFFFFFFFFu;
  uint a = 1, b = 0;
  while (p != end) {
    uchar byte = *p++;
    crc = crc32Update(crc, byte);
    a = (a + byte) % 65521u;
    b = (b + a) % 65521u;
  }
  sums[r] = (uint2)(~crc, (b << 16) | a);
}
