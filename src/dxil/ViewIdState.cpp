// The view ID state: see ViewIdState.h.
#include "spire/dxil/ViewIdState.h"
#include "ViewIdStateReader.h"

#include <string>

namespace spire::dxil {

Expected<ViewIdState> decodeViewIdState(std::span<const uint32_t> words, ShaderKind kind) {
  // Read in place, and every path returns `result` (no moves of the state).
  Expected<ViewIdState> result{ViewIdState()};
  std::string error;
  if (!detail::readViewIdState(words, kind, *result, error))
    result = makeError(Location(), "view ID state: " + error);
  return result;
}

} // namespace spire::dxil
