// target-env: vulkan1.1
// glslang: -V --target-env vulkan1.1
// G-buffer conversion between storage image formats: float, normalized, packed and integer
// formats (including extended ones), 2D array, 3D, cube and multisampled storage images,
// size and sample queries, memory qualifiers, and integer image atomics (min, max, and, xor,
// compare-exchange) on signed and unsigned images.
#version 450

layout(local_size_x = 8, local_size_y = 8, local_size_z = 1) in;

layout(set = 0, binding = 0, rgba8) uniform readonly image2D albedoIn;
layout(set = 0, binding = 1, rgb10_a2) uniform readonly image2D normalIn;
layout(set = 0, binding = 2, r11f_g11f_b10f) uniform restrict writeonly image2D lightingOut;
layout(set = 0, binding = 3, rg16f) uniform writeonly image2DArray motionLayers;
layout(set = 0, binding = 4, rgba16_snorm) uniform writeonly image3D froxels;
layout(set = 0, binding = 5, rgba32i) uniform readonly iimage2D integerData;
layout(set = 0, binding = 6, r16ui) uniform writeonly uimage2D objectIds;
layout(set = 0, binding = 7, rgba8ui) uniform volatile uimageCube cubeTags;
layout(set = 0, binding = 8, rgba8) uniform readonly image2DMS msAlbedo;
layout(set = 0, binding = 9, r32i) uniform coherent iimage2D depthRange;
layout(set = 0, binding = 10, r32ui) uniform coherent uimage2D tileMasks;
layout(set = 0, binding = 11, rg8) uniform writeonly image2D roughMetal;
layout(set = 0, binding = 12, r16) uniform writeonly image2D ambientOcclusion;

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  ivec2 size = imageSize(albedoIn);
  if (any(greaterThanEqual(p, size)))
    return;

  vec4 albedo = imageLoad(albedoIn, p);
  vec4 msSum = vec4(0.0);
  int samples = imageSamples(msAlbedo);
  for (int s = 0; s < samples; ++s)
    msSum += imageLoad(msAlbedo, p, s);
  albedo = mix(albedo, msSum / float(samples), 0.5);

  vec3 n = imageLoad(normalIn, p).xyz * 2.0 - 1.0;
  ivec4 idata = imageLoad(integerData, p);
  float light = max(dot(normalize(n), normalize(vec3(0.3, 0.8, 0.5))), 0.0);

  imageStore(lightingOut, p, vec4(albedo.rgb * light, 1.0));
  imageStore(motionLayers, ivec3(p, idata.w & 1), vec4(vec2(idata.xy) / 1024.0, 0.0, 0.0));
  imageStore(objectIds, p, uvec4(uint(idata.z) & 0xFFFFu));
  imageStore(roughMetal, p, vec4(albedo.a, light, 0.0, 0.0));
  imageStore(ambientOcclusion, p, vec4(clamp(n.z, 0.0, 1.0)));

  ivec3 froxelSize = imageSize(froxels);
  ivec3 froxel = ivec3(p * froxelSize.xy / size, idata.z % max(froxelSize.z, 1));
  imageStore(froxels, froxel, vec4(n, light * 2.0 - 1.0));

  int face = int(gl_GlobalInvocationID.x) % 6;
  uvec4 tag = imageLoad(cubeTags, ivec3(p % imageSize(cubeTags).xy, face));
  imageStore(cubeTags, ivec3(p % imageSize(cubeTags).xy, face), tag + uvec4(1u));

  ivec2 tile = p / 8;
  int depthKey = int(idata.x);
  imageAtomicMin(depthRange, tile * ivec2(2, 1), depthKey);
  imageAtomicMax(depthRange, tile * ivec2(2, 1) + ivec2(1, 0), depthKey);
  uint bit = 1u << uint(gl_LocalInvocationIndex & 31u);
  imageAtomicAnd(tileMasks, tile, ~bit);
  imageAtomicXor(tileMasks, tile, bit);
  imageAtomicCompSwap(tileMasks, tile + ivec2(0, 1), 0u, bit);
}
