// target-env: opencl2.0
// clang: -triple spir64-unknown-unknown -cl-std=CL2.0 -O2
// llvm-spirv: --spirv-max-version=1.0
// Audio processing in half precision and small integers (cl_khr_fp16): 16-bit PCM (short)
// decoding, a biquad filter in half/half4 arithmetic, char and uchar gain tables, saturating
// conversions back to short, and vload_half/vstore_half for storage without fp16 arithmetic.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

typedef struct {
  half b0, b1, b2, a1, a2;
  half gain;
  char pan; // -128 left .. 127 right
  uchar mute;
} Biquad;

kernel void biquad_stereo(global const short2* pcm, global short2* outPcm,
                          constant Biquad* filters, int channelsFilter, int frames,
                          global half4* state) {
  int voice = get_global_id(0);
  Biquad f = filters[voice % channelsFilter];
  half4 s = state[voice]; // x1, x2, y1, y2 for the mono mix
  global const short2* in = pcm + voice * frames;
  global short2* out = outPcm + voice * frames;
  half panR = (half)((float)f.pan / 255.0f + 0.5f);
  half panL = (half)1.0f - panR;
  int i = 0;
  while (i < frames) {
    short2 sample = in[i];
    half x = (half)(((float)sample.x + (float)sample.y) * (0.5f / 32768.0f));
    half y = f.b0 * x + f.b1 * s.x + f.b2 * s.y - f.a1 * s.z - f.a2 * s.w;
    s = (half4)(x, s.x, y, s.z);
    half g = f.mute ? (half)0.0f : f.gain;
    half2 stereo = (half2)(y * panL, y * panR) * g;
    out[i] = convert_short2_sat_rte(convert_float2(stereo) * 32767.0f);
    ++i;
  }
  state[voice] = s;
}

kernel void gain_table(global const uchar* indices, constant char* table, global const float* in,
                       global half* out, uint n) {
  size_t i = get_global_id(0);
  if (i >= n)
    return;
  char db = table[indices[i] & 63];
  float linear = exp10((float)db / 20.0f);
  vstore_half_rte(in[i] * linear, i, out);
  float back = vload_half(i, out);
  short clipped = convert_short_sat(back * 32767.0f);
  uchar level = (uchar)(abs(clipped) >> 7);
  vstore_half(half_divide(back, (float)level + 1.0f), i, out);
}
