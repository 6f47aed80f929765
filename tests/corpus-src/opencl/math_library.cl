// target-env: opencl2.0
// clang: -triple spir64-unknown-unknown -cl-std=CL2.0 -O2
// llvm-spirv: --spirv-max-version=1.0
// The OpenCL.std extended instruction set in use: trigonometric, exponential, power and root
// functions, native_ and half_ variants, common and geometric functions, integer min/max/clamp,
// classification, remainders, and a Black-Scholes option pricer and a spherical-harmonics
// evaluator built from them.

float cnd(float d) {
  const float A1 = 0.31938153f, A2 = -0.356563782f, A3 = 1.781477937f, A4 = -1.821255978f,
              A5 = 1.330274429f;
  float k = 1.0f / (1.0f + 0.2316419f * fabs(d));
  float poly = k * (A1 + k * (A2 + k * (A3 + k * (A4 + k * A5))));
  float c = 0.39894228040143267794f * exp(-0.5f * d * d) * poly;
  return d > 0 ? 1.0f - c : c;
}

kernel void black_scholes(global const float* spot, global const float* strike,
                          global const float* years, float riskFree, float volatility,
                          global float* call, global float* put) {
  size_t i = get_global_id(0);
  float s = spot[i], x = strike[i], t = years[i];
  float sqrtT = sqrt(t);
  float d1 = (log(s / x) + (riskFree + 0.5f * volatility * volatility) * t) / (volatility * sqrtT);
  float d2 = d1 - volatility * sqrtT;
  float expRT = exp(-riskFree * t);
  call[i] = s * cnd(d1) - x * expRT * cnd(d2);
  put[i] = x * expRT * (1.0f - cnd(d2)) - s * (1.0f - cnd(d1));
}

kernel void spherical_harmonics(global const float4* dirs, global float* coeffs) {
  size_t i = get_global_id(0);
  float3 d = normalize(dirs[i].xyz);
  float theta = acos(clamp(d.z, -1.0f, 1.0f));
  float phi = atan2(d.y, d.x);
  float st, ct = sincos(theta, &st);
  global float* c = coeffs + i * 9;
  c[0] = 0.282095f;
  c[1] = 0.488603f * st * sin(phi);
  c[2] = 0.488603f * ct;
  c[3] = 0.488603f * st * cos(phi);
  c[4] = 1.092548f * st * st * sinpi(2.0f * phi / M_PI_F) * 0.5f;
  c[5] = 1.092548f * st * ct * sin(phi);
  c[6] = 0.315392f * (3.0f * ct * ct - 1.0f);
  c[7] = 1.092548f * st * ct * cospi(phi / M_PI_F);
  c[8] = 0.546274f * st * st * cos(2.0f * phi);
}

kernel void function_zoo(global const float4* in, global float4* out, global int4* ints) {
  size_t i = get_global_id(0);
  float4 v = in[i];
  float4 a = pow(fabs(v), (float4)(1.5f)) + pown(v, 3) + powr(fabs(v) + 1.0f, (float4)(0.5f));
  float4 b = rootn(fabs(v) + 1.0f, 3) + cbrt(v) + rsqrt(fabs(v) + 1.0f) + hypot(v, v.wzyx);
  float4 c = native_sin(v) + native_exp(v * 0.1f) + half_cos(v) + half_recip(v + 4.0f);
  float4 d = tanh(v) + asinh(v) + expm1(v * 0.01f) + log1p(fabs(v)) + log2(fabs(v) + 1.0f) +
             exp10(v * 0.01f) + erf(v) + tgamma(fabs(v) * 0.1f + 1.0f);
  float4 e = fmin(v, v.yzwx) + fmax(v, 0.5f) + fdim(v, 1.0f) + copysign(v, -v) + fmod(v, 2.5f) +
             remainder(v, 1.5f) + trunc(v) + round(v) + rint(v) + ceil(v) + floor(v);
  float4 f = mix(v, v.wzyx, 0.25f) + step(0.0f, v) + smoothstep(-1.0f, 1.0f, v) + sign(v) +
             degrees(v) + radians(v) + clamp(v, -1.0f, 1.0f);
  float3 g = cross(v.xyz, v.yzx) + fast_normalize(v.xyz + 1.0f);
  float h = dot(v, v) + length(v) + distance(v, v.wzyx) + fast_length(v);
  float4 frac;
  float4 fractional = fract(v, &frac);
  int4 exps = ilogb(v + 2.0f);
  int4 iv = convert_int4(v * 100.0f);
  int4 imath = convert_int4(abs(iv)) + clamp(iv, -50, 50) + max(iv, iv.yzwx) + min(iv, 3) + mad24(iv, iv, 7) +
               mul24(iv, 5) + hadd(iv, iv.wzyx) + rhadd(iv, 1) + sub_sat(iv, iv.yxwz) +
               add_sat(iv, (int4)(INT_MAX - 10));
  int4 classes = isnan(v) + isinf(v) * 2 + isfinite(v) * 4 + signbit(v) * 8 + isnormal(v) * 16 +
                 isless(v, v.yzwx) + islessgreater(v, 0.0f);
  out[i] = a + b + c + d + e + f + (float4)(g, h) + fractional + frac + maxmag(v, -v) +
           minmag(v, 0.1f) + nextafter(v, 0.0f) + logb(v + 3.0f) + ldexp(v, exps);
  ints[i] = imath ^ classes ^ (int4)(any(v > 100.0f), all(v < 0.0f), bitselect(1, 2, 3),
                                     (int)(upsample((short)1, (ushort)2)));
}
