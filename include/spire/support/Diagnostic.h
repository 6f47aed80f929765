// Diagnostics: what went wrong and where, in one line a person can act on.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace spire {

enum class Severity : uint8_t { Note, Warning, Error };

/// Where a diagnostic points: a word of a binary, a line and column of a text, a byte of a
/// container part, a record of a bitcode block, or nowhere.
struct Location {
  enum class Kind : uint8_t { None, Binary, Text, Container, Bitcode };
  Kind kind = Kind::None;
  uint32_t wordOffset = 0; ///< binary: word offset from the start of the module
  uint32_t instIndex = 0;  ///< binary: index of the instruction, 0-based; bitcode: record index
  uint32_t line = 0;       ///< text: 1-based
  uint32_t column = 0;     ///< text: 1-based
  uint64_t offset = 0; ///< container: byte offset in the file; bitcode: bit offset in the stream
  /// Container: the part's four-character code ("DXIL"), empty for the container header.
  /// Bitcode: the block's name ("FUNCTION_BLOCK"), empty outside any block. Truncated to fit.
  char scope[23] = {};

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
  /// A byte of a DXBC container, inside `part` (empty: the header or the part table).
  static Location container(std::string_view part, uint64_t byteOffset) {
    Location l;
    l.kind = Kind::Container;
    l.setScope(part);
    l.offset = byteOffset;
    return l;
  }
  /// A record of an LLVM bitstream: the enclosing block's name, the record's index in that block
  /// (0-based) and the bit offset where the record starts.
  static Location bitcode(std::string_view block, uint32_t recordIndex, uint64_t bitOffset) {
    Location l;
    l.kind = Kind::Bitcode;
    l.setScope(block);
    l.instIndex = recordIndex;
    l.offset = bitOffset;
    return l;
  }
  std::string_view scopeName() const { return std::string_view(scope); }

private:
  void setScope(std::string_view s) {
    size_t n = s.size() < sizeof(scope) - 1 ? s.size() : sizeof(scope) - 1;
    for (size_t i = 0; i < n; ++i)
      scope[i] = s[i];
  }
};

/// A note attached to a diagnostic: more about it, at a place of its own ("prior use here"); or
/// a second diagnostic of the same cause (MLIR reports a bad enum keyword as two errors).
struct DiagnosticNote {
  Location location;
  std::string message;
  Severity severity = Severity::Note;
};

struct Diagnostic {
  Severity severity = Severity::Error;
  Location location;
  std::string message;
  /// Attached notes, in order: printed after the diagnostic, one line each, as MLIR prints them.
  std::vector<DiagnosticNote> notes = {};

  Diagnostic &attachNote(Location at, std::string note, Severity noteSeverity = Severity::Note) {
    notes.push_back({at, std::move(note), noteSeverity});
    return *this;
  }
  /// Note `i` as a diagnostic of its own (of its severity: Note, unless attached as another).
  Diagnostic note(size_t i) const {
    return Diagnostic{notes[i].severity, notes[i].location, notes[i].message, {}};
  }

  /// One line: "<source>:<line>:<col>: error: <message>" for text,
  /// "<source>: error: word <w> (instruction <i>): <message>" for binaries. Notes left out.
  std::string format(std::string_view source = {}) const;
  /// format() and then one line per note ("<source>:<line>:<col>: note: <message>"), joined by
  /// newlines.
  std::string formatWithNotes(std::string_view source = {}) const;
};

inline Diagnostic makeError(Location loc, std::string message) {
  return Diagnostic{Severity::Error, loc, std::move(message), {}};
}

} // namespace spire
