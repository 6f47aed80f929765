// The body of the DXIL container fuzz target, shared by the libFuzzer program and the regression
// test that replays fuzz/regressions/dxil_container/. It returns normally or aborts on a broken
// property.
#pragma once

#include <cstddef>
#include <cstdint>

namespace spire::fuzz {

/// Reads bytes as a container and decodes every part (and the bytes themselves as each kind of
/// part): no crash, no hang, errors of one line that name a part and byte; what decodes prints a
/// summary whose every line is a comment, and JSON whose brackets balance.
void dxilContainer(const uint8_t *data, size_t size);

} // namespace spire::fuzz
