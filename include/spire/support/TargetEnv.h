// Target environments: the names spirv-as and spirv-val use, and the SPIR-V version each implies.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace spire {

enum class TargetEnv : uint8_t {
  Spv1_0,
  Spv1_1,
  Spv1_2,
  Spv1_3,
  Spv1_4,
  Spv1_5,
  Spv1_6,
  Vulkan1_0,
  Vulkan1_1,
  Vulkan1_1Spv1_4,
  Vulkan1_2,
  Vulkan1_3,
  OpenCL1_2,
  OpenCL1_2Embedded,
  OpenCL2_0,
  OpenCL2_0Embedded,
  OpenCL2_1,
  OpenCL2_1Embedded,
  OpenCL2_2,
  OpenCL2_2Embedded,
  OpenGL4_0,
  OpenGL4_1,
  OpenGL4_2,
  OpenGL4_3,
  OpenGL4_5,
};

std::optional<TargetEnv> parseTargetEnv(std::string_view name);
std::string_view targetEnvName(TargetEnv env);
/// The SPIR-V version word (0x00MMmm00) of modules for this environment.
uint32_t targetEnvVersion(TargetEnv env);
/// "vulkan1.0|vulkan1.1|...", for usage messages.
std::string targetEnvList();

} // namespace spire
