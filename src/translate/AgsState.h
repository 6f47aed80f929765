// The translator's state for AMD AGS shader intrinsics (TranslateAgs.cpp): which LLVM values are
// the magic UAV's handle, and the WMMA sequences in flight (operand registers given, results of
// the last operation, address phases seen).
#pragma once

#include "spire/dxil/LlvmModule.h"

#include <array>
#include <cstdint>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace spire::translate {

/// The register space of AMD's driver-intrinsics UAV (AmdExtD3DShaderIntrinsicsSpaceId).
inline constexpr uint32_t kAgsRegisterSpace = 0x7FFF0ADE;

struct AgsState {
  /// LLVM values that are handles of the magic UAV (createHandle*, annotateHandle results).
  std::unordered_set<dxil::ValueId> handles;
  /// A matrix held as 8 32-bit registers per lane (SPIR-V ids; 0: not given).
  using Registers = std::array<uint32_t, 8>;
  /// Operand registers given so far, by AGS opcode and register type (0: the operand of a
  /// one-matrix operation, 1: A / first, 2: B / second, 3: accumulator).
  std::map<uint32_t, std::array<Registers, 4>> inputs;
  /// The registers of the last result, by AGS opcode.
  std::map<uint32_t, Registers> outputs;
  /// Address phases: the phase-0 call's LLVM result -> its (offset, stride) LLVM operands.
  std::unordered_map<dxil::ValueId, std::pair<dxil::ValueId, dxil::ValueId>> doorbells;
  /// Registers made by unpacking a cooperative matrix: register id -> (matrix id, matrix type,
  /// register index), so that packing the same registers again reuses the matrix.
  struct Source {
    uint32_t matrix = 0, type = 0, index = 0;
  };
  std::unordered_map<uint32_t, Source> sources;
  /// The workgroup array through which WaveMatrixCopy changes a matrix's use (0: none yet).
  uint32_t scratch = 0;
};

} // namespace spire::translate
