// Reading whole files and writing them atomically; "-" means standard input or output.
#pragma once

#include "spire/support/Expected.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace spire {

Expected<std::vector<uint8_t>> readFile(const std::string &path);

/// Writes to a temporary file beside `path`, then renames it over `path`, so that a failure
/// never leaves a partial file. "-" writes to standard output.
Status writeFileAtomic(const std::string &path, std::span<const uint8_t> bytes);
Status writeFileAtomic(const std::string &path, std::string_view text);

} // namespace spire
