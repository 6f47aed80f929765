// The comparisons of EXPECT and VkScript's probe as amber makes them: typed values at a byte
// offset (exact integers, floats within a relative 1e-8 or a tolerance, NaN matching NaN),
// whole buffers byte for byte, and image texels against an RGBA color.
#pragma once

#include "spire/run/Script.h"

#include <optional>
#include <string>

namespace spire::run {

/// Nothing when the expectation holds; otherwise what differed (the first differing value,
/// what was expected and what the buffer holds).
std::optional<std::string> checkExpectation(const Script &script, const Command &command);

} // namespace spire::run
