// Small DXIL programs for the translator's tests: LLVM assembly (typed pointers, dx.op calls,
// DXIL metadata) assembled with llvm-as-14 at test time, translated, and the SPIR-V checked with
// spire val (and spirv-val, when installed) for vulkan1.3 and read as text.
#pragma once

#include "spire/translate/DxilToSpirv.h"

#include <string>
#include <vector>

namespace spire::translate::test {

/// Whether llvm-as-14 is installed (tests skip without it).
bool haveLlvmAs();

/// Assembles `llvmText` into bitcode; empty when llvm-as-14 rejects it (with its message in
/// `error`).
std::vector<uint8_t> assemble(const std::string &llvmText, std::string &error);

/// The data layout and triple every test program starts with, then %dx.types.Handle.
std::string dxilPrelude(bool native16Bit = false);

/// Declarations for programs over a raw buffer: a RWByteAddressBuffer @buf, %dx.types.ResRet.i32,
/// and the dx.op functions createHandle, threadId and the i32 rawBufferLoad and rawBufferStore.
std::string rawBufferDeclarations();

/// A compute shader: `body` is the text of @main's blocks (from its first label), `declarations`
/// the dx.op functions and other module-level text it uses, `resources` the operand of
/// !dx.resources (e.g. "!{null, !{!10}, null, null}") or empty, `extraMetadata` numbered
/// metadata (from !10 up) the resources refer to. shader model 6.2, numthreads 8x1x1.
std::string computeShader(const std::string &declarations, const std::string &body,
                          const std::string &resources = "", const std::string &extraMetadata = "");

struct Translation {
  std::string error;  ///< the translator's or a validator's message; empty on success
  std::string spvasm; ///< the module disassembled (friendly names)
  std::vector<uint32_t> words;
};

/// Assembles, translates (one entry point expected) and validates with spire val and, when
/// installed, spirv-val for vulkan1.3. A test asserts `error` is empty, then looks at `spvasm`.
Translation translateLl(const std::string &llvmText, const DxilTranslateOptions &options = {});

} // namespace spire::translate::test
