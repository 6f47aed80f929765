// Diagnostics: what went wrong and where, in one line a person can act on.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace spire {

enum class Severity : uint8_t { Note, Warning, Error };

/// Where a diagnostic points: a word of a binary, a line and column of a text, or nowhere.
struct Location {
  enum class Kind : uint8_t { None, Binary, Text };
  Kind kind = Kind::None;
  uint32_t wordOffset = 0; ///< binary: word offset from the start of the module
  uint32_t instIndex = 0;  ///< binary: index of the instruction, 0-based
  uint32_t line = 0;       ///< text: 1-based
  uint32_t column = 0;     ///< text: 1-based

  static Location binary(uint32_t wordOffset, uint32_t instIndex) {
    Location l;
    l.kind = Kind::Binary;
    l.wordOffset = wordOffset;
    l.instIndex = instIndex;
    return l;
  }
  static Location text(uint32_t line, uint32_t column) {
    Location l;
    l.kind = Kind::Text;
    l.line = line;
    l.column = column;
    return l;
  }
};

struct Diagnostic {
  Severity severity = Severity::Error;
  Location location;
  std::string message;

  /// One line: "<source>:<line>:<col>: error: <message>" for text,
  /// "<source>: error: word <w> (instruction <i>): <message>" for binaries.
  std::string format(std::string_view source = {}) const;
};

inline Diagnostic makeError(Location loc, std::string message) {
  return Diagnostic{Severity::Error, loc, std::move(message)};
}

} // namespace spire
