// target-env: opencl2.0
// clang: -triple spir64-unknown-unknown -cl-std=CL2.0 -O0
// llvm-spirv: --spirv-max-version=1.0
// Mandelbrot and Julia set renderer compiled without optimization (-O0): every local variable
// lives in Function-storage OpVariables with explicit loads and stores, plain for loops,
// short-circuit conditions, a color palette computed with a switch, and uchar4 output.

uchar4 palette(int iterations, int maxIterations, float smoothValue) {
  if (iterations >= maxIterations)
    return (uchar4)(0, 0, 0, 255);
  float t = smoothValue / (float)maxIterations;
  int band = (int)(t * 6.0f);
  float f = t * 6.0f - (float)band;
  uchar up = (uchar)(f * 255.0f), down = (uchar)((1.0f - f) * 255.0f);
  switch (band) {
  case 0: return (uchar4)(255, up, 0, 255);
  case 1: return (uchar4)(down, 255, 0, 255);
  case 2: return (uchar4)(0, 255, up, 255);
  case 3: return (uchar4)(0, down, 255, 255);
  case 4: return (uchar4)(up, 0, 255, 255);
  default: return (uchar4)(255, 0, down, 255);
  }
}

kernel void fractal(global uchar4* image, int width, int height, float2 center, float zoom,
                    int maxIterations, int julia, float2 juliaC) {
  int x = get_global_id(0);
  int y = get_global_id(1);
  if (x >= width || y >= height)
    return;
  float2 p = center + (float2)((float)x - width * 0.5f, (float)y - height * 0.5f) / (zoom * height);
  float2 z = julia ? p : (float2)(0.0f, 0.0f);
  float2 c = julia ? juliaC : p;
  int i;
  for (i = 0; i < maxIterations && dot(z, z) < 256.0f; i++) {
    z = (float2)(z.x * z.x - z.y * z.y, 2.0f * z.x * z.y) + c;
  }
  float smoothValue = (float)i;
  if (i < maxIterations)
    smoothValue = (float)i + 1.0f - log2(log2(dot(z, z)) * 0.5f);
  image[y * width + x] = palette(i, maxIterations, smoothValue);
}
