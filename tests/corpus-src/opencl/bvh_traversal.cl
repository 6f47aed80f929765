// target-env: opencl2.0
// clang: -triple spir64-unknown-unknown -cl-std=CL2.0 -O2
// llvm-spirv: --spirv-max-version=1.0
// Ray/BVH traversal over structs in global memory: nested structs with arrays, pointer
// arithmetic and pointer comparison, generic address space pointers (OpenCL 2.0) taken from
// private, local and global memory, a private traversal stack, struct returns, and
// program-scope global variables.

typedef struct {
  float3 lo;
  float3 hi;
} Aabb;

typedef struct {
  Aabb bounds;
  int leftOrFirst; // interior: left child index; leaf: first triangle
  int count;       // 0 for interior nodes
} BvhNode;

typedef struct {
  float3 v[3];
  int material;
} Triangle;

typedef struct {
  float t;
  float u, v;
  int triangle;
} Hit;

global int traversalSteps = 0;

float slab(float3 origin, float3 invDir, Aabb box, float tMax) {
  float3 t0 = (box.lo - origin) * invDir;
  float3 t1 = (box.hi - origin) * invDir;
  float3 tmin = fmin(t0, t1), tmax = fmax(t0, t1);
  float enter = fmax(fmax(tmin.x, tmin.y), fmax(tmin.z, 0.0f));
  float exit = fmin(fmin(tmax.x, tmax.y), fmin(tmax.z, tMax));
  return enter <= exit ? enter : INFINITY;
}

bool intersectTriangle(float3 o, float3 d, const global Triangle* tri, Hit* hit) {
  float3 e1 = tri->v[1] - tri->v[0];
  float3 e2 = tri->v[2] - tri->v[0];
  float3 p = cross(d, e2);
  float det = dot(e1, p);
  if (fabs(det) < 1e-8f)
    return false;
  float inv = 1.0f / det;
  float3 s = o - tri->v[0];
  float u = dot(s, p) * inv;
  float3 q = cross(s, e1);
  float v = dot(d, q) * inv;
  float t = dot(e2, q) * inv;
  if (u < 0.0f || v < 0.0f || u + v > 1.0f || t <= 0.0f || t >= hit->t)
    return false;
  hit->t = t;
  hit->u = u;
  hit->v = v;
  return true;
}

void countSteps(generic int* counter, int steps) { *counter += steps; }

Hit traverse(float3 o, float3 d, const global BvhNode* nodes, const global Triangle* tris,
             generic int* steps) {
  Hit hit = {INFINITY, 0.0f, 0.0f, -1};
  float3 invDir = 1.0f / d;
  int stack[32];
  int* top = stack;
  *top++ = 0;
  int visited = 0;
  while (top != stack) {
    const global BvhNode* node = nodes + *--top;
    ++visited;
    if (slab(o, invDir, node->bounds, hit.t) == INFINITY)
      continue;
    if (node->count > 0) {
      const global Triangle* first = tris + node->leftOrFirst;
      for (const global Triangle* t = first; t < first + node->count; ++t)
        if (intersectTriangle(o, d, t, &hit))
          hit.triangle = (int)(t - tris);
      continue;
    }
    if (top - stack < 30) {
      *top++ = node->leftOrFirst;
      *top++ = node->leftOrFirst + 1;
    }
  }
  countSteps(steps, visited);
  return hit;
}

kernel void trace_rays(global const float8* rays, global const BvhNode* nodes,
                       global const Triangle* tris, global Hit* hits, global int* materials,
                       local int* groupSteps) {
  size_t i = get_global_id(0);
  if (get_local_id(0) == 0)
    *groupSteps = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  float8 r = rays[i];
  int steps = 0;
  Hit h = traverse(r.s012, normalize(r.s456), nodes, tris, &steps);
  hits[i] = h;
  materials[i] = h.triangle >= 0 ? tris[h.triangle].material : -1;
  atomic_add(groupSteps, steps);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0)
    atomic_add(&traversalSteps, *groupSteps);
}
