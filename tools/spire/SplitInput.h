// How mlir-translate and mlir-opt run their test files, for spire translate and spire opt:
// `--split-input-file` (each `// -----` chunk on its own, outputs joined by `// -----`) and
// `--verify-diagnostics` (the diagnostics a chunk produces must be exactly its
// `expected-error` / `expected-warning` / `expected-note` / `expected-remark` annotations).
#pragma once

#include "spire/support/Diagnostic.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace spire::tool {

/// One chunk of an input: its text, with as many newlines in front as there are lines before it
/// in the file, so that line numbers in its diagnostics are the file's.
struct InputChunk {
  std::string text;
  uint32_t firstLine = 1; ///< the file line the chunk starts at (1-based)
};

/// The chunks of `text`: one (the whole text) unless `split`, else the text between lines that
/// start with `// -----` (blanks before it allowed).
std::vector<InputChunk> splitInput(std::string_view text, bool split);

/// One annotation: `// expected-error@+1 {{message}}` and its kinds and placements (`@+N`, `@-N`,
/// `@N`, `@above`, `@below`, none: the annotation's own line); `-re` forms take `{{regex}}` parts.
struct ExpectedDiagnostic {
  Severity severity = Severity::Error;
  bool remark = false;
  uint32_t line = 0;           ///< the line the diagnostic must point at
  uint32_t annotationLine = 0; ///< where the annotation is written
  std::string message;         ///< a substring the diagnostic's message must contain
  bool regex = false;
  bool seen = false;
};

/// The annotations in a chunk. Malformed ones (no `{{...}}`, a line before the first) are
/// reported through `problem` as they are found.
std::vector<ExpectedDiagnostic>
expectedDiagnostics(std::string_view chunk, const std::function<void(const Diagnostic &)> &problem);

/// Checks what a chunk produced against its annotations, as MLIR's verifier handler does: each
/// produced diagnostic must match an unseen annotation of its severity on its line; every
/// annotation must be matched. Prints each mismatch to standard error ("<source>:<line>: error:
/// unexpected error: ..." / "expected error \"...\" was not produced"); true when none.
bool checkExpectedDiagnostics(std::vector<ExpectedDiagnostic> &expected,
                              const std::vector<Diagnostic> &produced, std::string_view source);

/// What a command does with one chunk: parse it and run, appending its output to `out`;
/// diagnostics go to `diagnose`. False when the chunk failed.
using ChunkAction = std::function<bool(const InputChunk &chunk, std::string &out,
                                       const std::function<void(const Diagnostic &)> &diagnose)>;

/// Runs `action` on every chunk of `text` and joins the outputs of the chunks that succeeded
/// into `out`, `separator` between two chunks (a failed chunk's output is left out, its
/// separators are not). Without `verifyDiagnostics` a chunk's diagnostics are
/// printed to standard error as they come; with it, they are checked against the chunk's
/// annotations, and a chunk whose diagnostics all matched counts as a success. Returns false
/// when some chunk failed.
bool runChunks(std::string_view text, std::string_view source, bool split, bool verifyDiagnostics,
               const ChunkAction &action, std::string_view separator, std::string &out);

} // namespace spire::tool
