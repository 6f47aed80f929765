// Test helper: the SPIR-V instruction an op of the dialect stands for, by name.
#pragma once

#include <string>
#include <string_view>

namespace spire::dialect::test {

/// "spirv.KHR.CooperativeMatrixLoad" or "KHR.CooperativeMatrixLoad" ->
/// "OpCooperativeMatrixLoadKHR"; "spirv.IAdd" -> "OpIAdd".
inline std::string instructionName(std::string_view op) {
  if (op.starts_with("spirv."))
    op.remove_prefix(std::string_view("spirv.").size());
  size_t dot = op.find('.');
  if (dot == std::string_view::npos)
    return "Op" + std::string(op);
  return "Op" + std::string(op.substr(dot + 1)) + std::string(op.substr(0, dot));
}

} // namespace spire::dialect::test
