// Words of the text as diagnostics show them: control bytes escaped, long words shortened, so
// that a message stays on one readable line.
#pragma once

#include <string>
#include <string_view>

namespace spire::spvasm {

/// `s` with control bytes escaped ("\n", "\x0b") and cut after 60 bytes ("...").
std::string printable(std::string_view s);
/// printable(s) in single quotes.
std::string quoted(std::string_view s);

} // namespace spire::spvasm
