// The bodies of the fuzz targets, shared by the libFuzzer programs and the regression test that
// replays every input in fuzz/regressions/. Each returns normally or aborts on a broken property.
#pragma once

#include <cstddef>
#include <cstdint>

namespace spire::fuzz {

/// Reads bytes as a module (strict and recovering); what reads must write back unchanged.
void binaryReader(const uint8_t *data, size_t size);
/// Assembles bytes as text; what assembles must read back as a module.
void assembler(const uint8_t *data, size_t size);
/// Reads bytes as a module (leniently, as spire dis does) and disassembles it; with raw ids the
/// text must assemble back to the same instructions.
void disassembler(const uint8_t *data, size_t size);

/// Reads bytes as a module (strictly and leniently) and validates it for several environments:
/// no crash, no hang, one-line problems, and --max-errors 1 keeps the verdict.
void validator(const uint8_t *data, size_t size);

/// Reads bytes as a module; when spire val accepts it, deserializes it to the structured IR,
/// which must pass the IR verifier, and serializes that back to words that read as a module.
void dialect(const uint8_t *data, size_t size);

/// Parses bytes as the dialect's MLIR text: no crash, no hang, errors of one line with a line
/// and column; what parses prints (custom and generic form) to text that parses back and prints
/// the same, and what also verifies serializes without crashing.
void dialectText(const uint8_t *data, size_t size);

/// Reads bytes as LLVM bitcode (and, when they are a DXBC container, its program) and prints
/// what reads as LLVM assembly: no crash, no hang, errors of one line located in the bitcode,
/// and printing twice gives the same text.
void dxilBitcode(const uint8_t *data, size_t size);
/// Parses bytes as an AmberScript and as a VkScript file (every file they name reads as a few
/// bytes): no crash, no hang, errors of one line at a line of the text.
void script(const uint8_t *data, size_t size);

} // namespace spire::fuzz
