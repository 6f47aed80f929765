// The body of the structurizer fuzz target, shared by the libFuzzer program and the regression
// test that replays fuzz/regressions/structurizer/. It returns normally or aborts on a broken
// property.
#pragma once

#include <cstddef>
#include <cstdint>

namespace spire::fuzz {

/// Reads bytes as a control flow graph (any graph, reducible or not) and structures it: an
/// irreducible or malformed graph is a one-line error; a structured result passes the
/// structured-rules checker, has a size linear in the input's, and runs the input's blocks in
/// the input's order for several decision sequences.
void structurizer(const uint8_t *data, size_t size);

} // namespace spire::fuzz
