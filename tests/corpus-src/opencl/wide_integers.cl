// target-env: opencl2.0
// clang: -triple spir64-unknown-unknown -cl-std=CL2.0 -O2
// llvm-spirv: --spirv-max-version=1.0
// 64-bit integers and double precision: 128-bit multiplication from 64-bit halves (mul_hi),
// Montgomery modular multiplication, bit manipulation built-ins (clz, ctz, popcount, rotate,
// upsample), double-precision compensated summation, fma, frexp/ldexp, and conversions.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

ulong mont_mul(ulong a, ulong b, ulong m, ulong mInv) {
  ulong lo = a * b;
  ulong hi = mul_hi(a, b);
  ulong q = lo * mInv;
  ulong qmHi = mul_hi(q, m);
  ulong r = hi - qmHi;
  return hi < qmHi ? r + m : r;
}

kernel void modpow(global const ulong* bases, global const ulong* exponents, ulong modulus,
                   ulong modulusInv, ulong oneMont, global ulong* out) {
  size_t i = get_global_id(0);
  ulong base = bases[i];
  ulong e = exponents[i];
  ulong result = oneMont;
  while (e != 0) {
    if (e & 1ul)
      result = mont_mul(result, base, modulus, modulusInv);
    base = mont_mul(base, base, modulus, modulusInv);
    e >>= 1;
  }
  out[i] = result;
}

kernel void bit_stats(global const ulong* words, global uint4* stats, global long* signedOut) {
  size_t i = get_global_id(0);
  ulong w = words[i];
  uint lz = (uint)clz(w);
  uint tz = (uint)ctz(w);
  uint pc = (uint)popcount(w);
  ulong rot = rotate(w, (ulong)(pc & 63u));
  uint hiWord = (uint)(rot >> 32), loWord = (uint)rot;
  ulong joined = upsample(hiWord, loWord);
  stats[i] = (uint4)(lz, tz, pc, (uint)(joined == rot));
  long s = (long)w;
  signedOut[i] = abs_diff(s, (long)rot) > 0x7fffffffffffffl ? s >> 7 : (long)mad_hi(s, s, 3l);
}

kernel void kahan_sum(global const double* values, uint n, global double* result) {
  double sum = 0.0;
  double c = 0.0;
  for (uint i = get_global_id(0); i < n; i += get_global_size(0)) {
    double y = values[i] - c;
    double t = sum + y;
    c = (t - sum) - y;
    sum = t;
  }
  int exponent;
  double mantissa = frexp(sum, &exponent);
  double rebuilt = ldexp(mantissa, exponent);
  double2 pair = (double2)(rebuilt, c);
  result[get_global_id(0)] = fma(pair.x, 1.0, -pair.y) + (double)convert_float_rtn(c) * 0.0;
}
