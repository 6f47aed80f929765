#include "FuzzTargets.h"

#include "spire/asm/Assembler.h"
#include "spire/asm/Disassembler.h"
#include "spire/module/Module.h"

#include <cstdio>
#include <cstdlib>
#include <span>
#include <string_view>

namespace spire::fuzz {

namespace {

[[noreturn]] void broken(const char *property) {
  std::fprintf(stderr, "fuzz property broken: %s\n", property);
  std::abort();
}

} // namespace

void binaryReader(const uint8_t *data, size_t size) {
  std::span<const uint8_t> bytes(data, size);
  for (binary::DecodeOptions options :
       {binary::DecodeOptions{},
        binary::DecodeOptions{.allowIdsPastBound = true, .recover = true}}) {
    Expected<Module> m = Module::fromBytes(bytes, options);
    if (!m) {
      if (m.error().message.empty())
        broken("an error without a message");
      continue;
    }
    std::vector<uint8_t> out = m->toBytes();
    if (out.size() != size || !std::equal(out.begin(), out.end(), data))
      broken("read then write is not exact");
    // Walk the index the way consumers do.
    for (Instruction inst : *m)
      for (const binary::Operand &op : inst.operands())
        if (op.offset + op.numWords > inst.wordCount())
          broken("an operand runs past its instruction");
  }
}

void assembler(const uint8_t *data, size_t size) {
  std::string_view text(reinterpret_cast<const char *>(data), size);
  Expected<std::vector<uint32_t>> words = assemble(text);
  if (!words) {
    if (words.error().location.kind != Location::Kind::Text)
      broken("an assembler error without a line and column");
    return;
  }
  // Raw words (!<integer>) can spell anything, so the result need not decode; reading it must
  // simply not misbehave.
  (void)Module::fromWords(std::move(words).value(), {.allowIdsPastBound = true, .recover = true});
}

void disassembler(const uint8_t *data, size_t size) {
  Expected<Module> m = Module::fromBytes(std::span<const uint8_t>(data, size),
                                         {.allowIdsPastBound = true, .recover = true});
  if (!m)
    return;
  (void)disassemble(*m);
  DisassembleOptions raw;
  raw.friendlyNames = false;
  raw.header = false;
  std::string text = disassemble(*m, raw);
  (void)disassemble(*m, {.offsets = true, .color = true});
  AssembleOptions options;
  options.version = m->version();
  options.preserveNumericIds = true;
  Expected<std::vector<uint32_t>> words = assemble(text, options);
  if (!words)
    broken("raw-id disassembly does not assemble");
  // The header's generator and bound may differ; the instructions must not.
  auto a = m->words().subspan(binary::kHeaderWords);
  auto b = std::span<const uint32_t>(*words).subspan(binary::kHeaderWords);
  if (!std::equal(a.begin(), a.end(), b.begin(), b.end()))
    broken("assemble(disassemble(x)) changes the instructions");
}

} // namespace spire::fuzz
