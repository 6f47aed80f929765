#include "FuzzTargets.h"

#include "../src/asm/OpcodeRules.h"
#include "spire/asm/Assembler.h"
#include "spire/asm/Disassembler.h"
#include "spire/binary/Literal.h"
#include "spire/dialect/Serialization.h"
#include "spire/dialect/Text.h"
#include "spire/dialect/Verifier.h"
#include "spire/module/Module.h"
#include "spire/run/Script.h"
#include "spire/val/Validator.h"

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

bool extInstHasExtraOperands(const Module &m, const Instruction &inst) {
  auto ops = inst.operands();
  for (size_t k = 1; k < ops.size(); ++k) {
    if (ops[k].kind != grammar::OperandKind::LiteralExtInstInteger)
      continue;
    const grammar::ExtInstSetDesc *set = m.extInstImport(inst.word(ops[k - 1].offset)).set;
    const grammar::ExtInstDesc *ext =
        set == nullptr ? nullptr : grammar::findExtInst(*set, inst.word(ops[k].offset));
    if (ext == nullptr)
      return false;
    for (const grammar::OperandDesc &d : ext->operands)
      if (d.quantifier == grammar::Quantifier::Variadic)
        return false;
    return ops.size() - k - 1 > ext->operands.size();
  }
  return false;
}

// OpSpecConstantOp names an operation that spirv-as (and spire as) refuses there; spirv-dis (and
// spire dis) print it all the same.
bool specConstantOpRefused(const Instruction &inst) {
  if (inst.opcode() != grammar::Op::SpecConstantOp || inst.wordCount() < 4)
    return false;
  uint32_t op = inst.word(3);
  const grammar::InstructionDesc *d = op > 0xffff ? nullptr : grammar::findInstruction(op);
  if (d == nullptr || d->operands.size() < 2)
    return true;
  std::string_view name = d->name;
  return name.substr(0, 2) != "Op" || spvasm::specConstantOperation(name.substr(2)) != op;
}

// OpSwitch whose selector is not a value of an integer type defined before it: the assembler
// (like spirv-as) cannot tell the width of its case literals. Nor can it when the selector's
// definition may print as raw words (the instructions right before a raw one do).
bool switchWithoutIntegerSelector(const Module &m, const Instruction &inst, bool anyRaw) {
  if (inst.opcode() != grammar::Op::Switch || inst.wordCount() < 3)
    return false;
  const uint32_t def = m.defIndex(inst.word(1));
  if (anyRaw || def == kNoIndex || def > inst.index() ||
      m.defIndex(m.typeOf(inst.word(1))) > inst.index())
    return true;
  const binary::NumberType t = m.numberType(m.typeOf(inst.word(1)));
  return t.kind != binary::NumberKind::Signed && t.kind != binary::NumberKind::Unsigned;
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
  // With the header comments: a module without instructions prints only those, which the
  // assembler (like spirv-as) reads as a module without instructions; empty text it refuses.
  std::string text = disassemble(*m, raw);
  (void)disassemble(*m, {.offsets = true, .color = true});
  // The round trip holds for modules that encode their literals canonically (text cannot show
  // bits that SPIR-V 2.2.1 requires to be 0 or sign copies) and define each id once (2.2: the
  // assembler, like spirv-as, refuses a type declared twice).
  // Nor can it carry more operands on an extended instruction than the set's grammar gives it:
  // spirv-dis prints them (and so does spire dis), but spirv-as and spire as refuse them.
  bool anyRaw = false;
  for (Instruction inst : *m)
    anyRaw |= inst.isRaw();
  for (Instruction inst : *m) {
    if (inst.resultId() != 0 && m->defIndex(inst.resultId()) != inst.index())
      return;
    if (extInstHasExtraOperands(*m, inst) || specConstantOpRefused(inst) ||
        switchWithoutIntegerSelector(*m, inst, anyRaw))
      return;
    for (const binary::Operand &op : inst.operands()) {
      auto w = inst.operandWords(op);
      // Float constants of widths other than 16, 32 and 64 bits print as numbers that no
      // assembler reads back (spirv-as refuses them too).
      if (op.kind == grammar::OperandKind::TypedLiteralNumber &&
          op.number == binary::NumberKind::Float && op.bitWidth != 16 && op.bitWidth != 32 &&
          op.bitWidth != 64)
        return;
      if ((op.kind == grammar::OperandKind::LiteralString && !binary::isCanonicalString(w)) ||
          (op.kind == grammar::OperandKind::TypedLiteralNumber &&
           !binary::isCanonicalNumber(w, op.number == binary::NumberKind::Signed, op.bitWidth)))
        return;
    }
  }
  AssembleOptions options;
  options.version = m->version();
  options.preserveNumericIds = true;
  Expected<std::vector<uint32_t>> words = assemble(text, options);
  if (!words && words.error().message.find("needs SPIR-V") != std::string::npos) {
    // The module uses what its version lacks; the assembler, like spirv-as, gates by version.
    options.version = grammar::grammarVersion();
    words = assemble(text, options);
  }
  if (!words) {
    std::string line;
    size_t n = words.error().location.line, start = 0;
    for (size_t l = 1; l < n && start != std::string::npos; ++l)
      start = text.find('\n', start) == std::string::npos ? std::string::npos
                                                          : text.find('\n', start) + 1;
    if (start != std::string::npos)
      line = text.substr(start, text.find('\n', start) - start);
    std::fprintf(stderr, "%s\n  %s\n", words.error().format().c_str(), line.c_str());
    broken("raw-id disassembly does not assemble");
  }
  // The header's version (see above), generator and bound may differ; the instructions must not.
  auto a = m->words().subspan(binary::kHeaderWords);
  auto b = std::span<const uint32_t>(*words).subspan(binary::kHeaderWords);
  if (!std::equal(a.begin(), a.end(), b.begin(), b.end()))
    broken("assemble(disassemble(x)) changes the instructions");
}

} // namespace spire::fuzz

namespace spire::fuzz {

void validator(const uint8_t *data, size_t size) {
  // Both readings: the strict one (spire val's) and the recovering one, whose raw instructions
  // every rule family must survive.
  for (bool recover : {false, true}) {
    Expected<Module> m = Module::fromBytes(std::span<const uint8_t>(data, size),
                                           {.allowIdsPastBound = recover, .recover = recover});
    if (!m)
      continue;
    for (std::string_view env : {"spv1.6", "vulkan1.3", "opencl2.0", "level-zero"}) {
      val::Options options;
      options.env = *val::parseEnvironment(env);
      options.strict = env == "level-zero";
      val::Report all = val::validate(*m, options);
      for (const val::Problem &p : all.problems)
        if (p.message.empty() || p.rule.empty() || p.format().find('\n') != std::string::npos)
          broken("a problem without message or rule, or on more than one line");
      // Stopping at the first error keeps the verdict.
      options.maxErrors = 1;
      val::Report first = val::validate(*m, options);
      if (first.valid() != all.valid() || first.errorCount() > 1)
        broken("--max-errors 1 changes the verdict or reports more than one error");
    }
  }
}

void dialect(const uint8_t *data, size_t size) {
  Expected<Module> m = Module::fromBytes(std::span<const uint8_t>(data, size));
  if (!m)
    return;
  val::Options options;
  options.maxErrors = 1;
  if (!val::validate(*m, options).valid())
    return; // deserialization is defined on valid modules
  dialect::Context ctx;
  Expected<dialect::OwningOp> op = dialect::deserialize(ctx, *m);
  if (!op) {
    if (op.error().message.empty() || op.error().format().find('\n') != std::string::npos)
      broken("a deserialization error without message or on more than one line");
    return;
  }
  if (Status v = dialect::verify(**op); !v) {
    // The verifier keeps MLIR's rules where they are stricter than SPIR-V (the agreement
    // sweep's kStricterInMlir): an integer dot product's result holds all of an operand's bits.
    if (v.error().message.find("result type has insufficient bit-width") == std::string::npos)
      broken("the deserialized IR fails the verifier");
    return;
  }
  // Printed as spire translate prints it, each function as it is made and then erased: the
  // same text as the whole module's.
  {
    std::string streamed;
    dialect::ModuleTextStream text([&](std::string_view piece) { streamed += piece; }, {});
    dialect::Context streamCtx;
    dialect::DeserializeOptions streaming;
    streaming.bodyReady = [&](dialect::Operation &module) { text.printBody(module); };
    Expected<dialect::OwningOp> read = dialect::deserialize(streamCtx, *m, nullptr, streaming);
    if (!read)
      broken("a module that deserializes whole fails printed as it is read");
    text.finish(**read);
    if (streamed != dialect::toString(**op))
      broken("the module printed as it is read differs from its whole text");
  }
  Expected<std::vector<uint32_t>> words = dialect::serialize(**op);
  if (!words)
    return; // an op the serializer cannot encode: reported, not a crash
  if (!Module::fromWords(std::move(words).value()))
    broken("the serialized module does not read back");
}

void dialectText(const uint8_t *data, size_t size) {
  std::string_view text(reinterpret_cast<const char *>(data), size);
  dialect::Context ctx;
  Expected<dialect::OwningOp> op = dialect::parse(ctx, text);
  if (!op) {
    const Diagnostic &d = op.error();
    if (d.location.kind != Location::Kind::Text || d.location.line == 0 || d.location.column == 0 ||
        d.message.empty() || d.message.find('\n') != std::string::npos)
      broken("a dialect text error is one line with a line and column");
    return;
  }
  // What verifies serializes without crashing (spire translate --serialize-spirv), either to
  // words or to a one-line error.
  if (dialect::verify(**op)) {
    Expected<std::vector<uint32_t>> words = dialect::serialize(**op);
    if (!words && words.error().message.find('\n') != std::string::npos)
      broken("a serialization error on more than one line");
  }
  for (bool generic : {false, true}) {
    dialect::PrintOptions options;
    options.generic = generic;
    std::string once = dialect::toString(**op, options);
    dialect::Context ctx2;
    Expected<dialect::OwningOp> back = dialect::parse(ctx2, once);
    if (!back) {
      std::fprintf(stderr, "%s\n---\n%s\n", once.c_str(), back.error().format().c_str());
      broken("printed dialect text parses back");
    }
    std::string twice = dialect::toString(**back, options);
    if (twice != once) {
      std::fprintf(stderr, "%s\n---\n%s\n", once.c_str(), twice.c_str());
      broken("printed dialect text prints back the same");
    }
  }
}

void script(const uint8_t *data, size_t size) {
  std::string_view text(reinterpret_cast<const char *>(data), size);
  run::FileLoader loader = [](std::string_view name) -> Expected<std::vector<uint8_t>> {
    if (name.size() > 64)
      return makeError({}, "no such file");
    return std::vector<uint8_t>{'1', ' ', '2', '\n'};
  };
  size_t lines = 1;
  for (char c : text)
    lines += c == '\n';
  for (bool vk : {false, true}) {
    Expected<run::Script> s = vk ? run::parseVkScript(text) : run::parseAmberScript(text, loader);
    if (s)
      continue;
    const Diagnostic &d = s.error();
    if (d.message.empty() || d.message.find('\n') != std::string::npos ||
        d.location.line > lines + 1)
      std::abort();
  }
}

} // namespace spire::fuzz
