#include "spire/support/TargetEnv.h"

namespace spire {

namespace {

struct EnvInfo {
  TargetEnv env;
  std::string_view name;
  uint32_t version;
};

constexpr uint32_t v(unsigned minor) { return 0x00010000u | (minor << 8); }

// The versions are those of the environments' specifications (Vulkan 1.1 consumes SPIR-V 1.3,
// Vulkan 1.2 1.5, Vulkan 1.3 1.6, OpenCL 2.2 1.2; OpenCL and OpenGL otherwise 1.0).
constexpr EnvInfo kEnvs[] = {
    {TargetEnv::Spv1_0, "spv1.0", v(0)},
    {TargetEnv::Spv1_1, "spv1.1", v(1)},
    {TargetEnv::Spv1_2, "spv1.2", v(2)},
    {TargetEnv::Spv1_3, "spv1.3", v(3)},
    {TargetEnv::Spv1_4, "spv1.4", v(4)},
    {TargetEnv::Spv1_5, "spv1.5", v(5)},
    {TargetEnv::Spv1_6, "spv1.6", v(6)},
    {TargetEnv::Vulkan1_0, "vulkan1.0", v(0)},
    {TargetEnv::Vulkan1_1, "vulkan1.1", v(3)},
    {TargetEnv::Vulkan1_1Spv1_4, "vulkan1.1spv1.4", v(4)},
    {TargetEnv::Vulkan1_2, "vulkan1.2", v(5)},
    {TargetEnv::Vulkan1_3, "vulkan1.3", v(6)},
    {TargetEnv::OpenCL1_2, "opencl1.2", v(0)},
    {TargetEnv::OpenCL1_2Embedded, "opencl1.2embedded", v(0)},
    {TargetEnv::OpenCL2_0, "opencl2.0", v(0)},
    {TargetEnv::OpenCL2_0Embedded, "opencl2.0embedded", v(0)},
    {TargetEnv::OpenCL2_1, "opencl2.1", v(0)},
    {TargetEnv::OpenCL2_1Embedded, "opencl2.1embedded", v(0)},
    {TargetEnv::OpenCL2_2, "opencl2.2", v(2)},
    {TargetEnv::OpenCL2_2Embedded, "opencl2.2embedded", v(2)},
    {TargetEnv::OpenGL4_0, "opengl4.0", v(0)},
    {TargetEnv::OpenGL4_1, "opengl4.1", v(0)},
    {TargetEnv::OpenGL4_2, "opengl4.2", v(0)},
    {TargetEnv::OpenGL4_3, "opengl4.3", v(0)},
    {TargetEnv::OpenGL4_5, "opengl4.5", v(0)},
};

} // namespace

std::optional<TargetEnv> parseTargetEnv(std::string_view name) {
  for (const EnvInfo &e : kEnvs)
    if (e.name == name)
      return e.env;
  return std::nullopt;
}

std::string_view targetEnvName(TargetEnv env) { return kEnvs[static_cast<unsigned>(env)].name; }

uint32_t targetEnvVersion(TargetEnv env) { return kEnvs[static_cast<unsigned>(env)].version; }

std::string targetEnvList() {
  std::string s;
  for (const EnvInfo &e : kEnvs) {
    if (!s.empty())
      s += '|';
    s += e.name;
  }
  return s;
}

} // namespace spire
