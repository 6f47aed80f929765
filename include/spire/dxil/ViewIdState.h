// The view ID state of a DXIL program (dx.viewIdState's i32 array): which outputs depend on the
// view ID and which inputs flow into which outputs, per geometry stream and for the patch
// constants or mesh primitives, the same facts PSV0 stores in its tables.
#pragma once

#include "spire/dxil/Container.h"
#include "spire/support/Expected.h"

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace spire::dxil {

struct ViewIdState {
  uint32_t inputScalars = 0;               ///< input signature components (vectors * 4)
  uint32_t streams = 1;                    ///< 4 in a geometry shader
  std::array<uint32_t, 4> outputScalars{}; ///< per stream
  /// Whether the tables of outputs depending on the view ID are there: the array does not say;
  /// it is the only reading whose size matches (false when both match: then they are empty).
  bool usesViewId = false;
  /// Per stream: one bit per output component that depends on the view ID (usesViewId only).
  std::array<std::vector<uint32_t>, 4> outputsDependentOnViewId;
  /// Per stream: for each input component, (outputScalars + 31) / 32 words, one bit per output
  /// component it flows into.
  std::array<std::vector<uint32_t>, 4> inputsContributingToOutputs;

  /// Hull, domain and mesh shaders: the patch constant (mesh: primitive) components.
  bool hasPatchConstOrPrim = false;
  uint32_t patchConstOrPrimScalars = 0;
  std::vector<uint32_t> patchConstOrPrimDependentOnViewId;     ///< hull, mesh (usesViewId only)
  std::vector<uint32_t> inputsContributingToPatchConstOrPrim;  ///< hull, mesh
  std::vector<uint32_t> patchConstInputsContributingToOutputs; ///< domain
};

/// Decodes the words for a shader of `kind`. Counts are checked against the words there are
/// before anything is allocated; words left over are an error.
Expected<ViewIdState> decodeViewIdState(std::span<const uint32_t> words, ShaderKind kind);

} // namespace spire::dxil
