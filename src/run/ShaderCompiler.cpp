#include "spire/run/ShaderCompiler.h"

#include "spire/asm/Assembler.h"
#include "spire/asm/Disassembler.h"
#include "spire/dialect/Serialization.h"
#include "spire/dialect/Text.h"
#include "spire/module/Module.h"
#include "spire/support/TargetEnv.h"
#include "spire/transforms/Pass.h"
#include "spire/val/Validator.h"

#include <cstdlib>
#include <memory>

namespace spire::run {

std::optional<Via> Via::parse(std::string_view text) {
  Via v;
  if (text == "asm")
    v.kind = Kind::Asm;
  else if (text == "roundtrip")
    v.kind = Kind::Roundtrip;
  else if (text.starts_with("opt=") && text.size() > 4) {
    v.kind = Kind::Opt;
    v.passes = std::string(text.substr(4));
  } else if (text == "none")
    v.kind = Kind::None;
  else
    return std::nullopt;
  return v;
}

std::string Via::name() const {
  switch (kind) {
  case Kind::None:
    return "none";
  case Kind::Asm:
    return "asm";
  case Kind::Roundtrip:
    return "roundtrip";
  case Kind::Opt:
    return "opt=" + passes;
  }
  return "";
}

Expected<std::vector<uint32_t>> parseSpirvHex(std::string_view text) {
  std::vector<uint8_t> bytes;
  std::string buf(text);
  const char *p = buf.c_str();
  for (;;) {
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\f' || *p == '\v')
      ++p;
    if (!*p)
      break;
    char *end = nullptr;
    unsigned long v = std::strtoul(p, &end, 16);
    if (end == p || v > 0xFF)
      return makeError({}, "invalid SPIRV-HEX byte near '" + std::string(p).substr(0, 12) + "'");
    bytes.push_back(static_cast<uint8_t>(v));
    p = end;
  }
  if (bytes.size() % 4 != 0 || bytes.empty())
    return makeError({}, "SPIRV-HEX has " + std::to_string(bytes.size()) +
                             " bytes, not a whole number of words");
  std::vector<uint32_t> words(bytes.size() / 4);
  for (size_t i = 0; i < words.size(); ++i)
    words[i] = uint32_t(bytes[4 * i]) | uint32_t(bytes[4 * i + 1]) << 8 |
               uint32_t(bytes[4 * i + 2]) << 16 | uint32_t(bytes[4 * i + 3]) << 24;
  return words;
}

Status validateModule(std::span<const uint32_t> words, std::string_view env) {
  auto e = val::parseEnvironment(env);
  if (!e)
    return makeError({}, "unknown target environment '" + std::string(env) + "'");
  auto m = Module::fromWords(std::vector<uint32_t>(words.begin(), words.end()));
  if (!m)
    return m.error();
  val::Options options;
  options.env = *e;
  options.maxErrors = 1;
  val::Report r = val::validate(*m, options);
  for (const val::Problem &p : r.problems)
    if (p.severity == Severity::Error)
      return makeError({}, "invalid SPIR-V for " + std::string(env) + ": " + p.message +
                               (p.instruction.empty() ? "" : " (" + p.instruction + ")"));
  return {};
}

Expected<std::vector<uint32_t>> applyVia(std::vector<uint32_t> words, const Via &via,
                                         std::string_view env) {
  if (via.kind == Via::Kind::None)
    return words;
  auto m = Module::fromWords(words);
  if (!m)
    return m.error();
  std::vector<uint32_t> out;
  if (via.kind == Via::Kind::Asm) {
    std::string text = disassemble(*m);
    AssembleOptions ao;
    ao.version = m->version();
    auto re = assemble(text, ao);
    if (!re)
      return makeError({}, "spire as of spire dis's text: " + re.error().format("<disassembly>"));
    out = std::move(*re);
  } else {
    auto ctx = std::make_unique<dialect::Context>();
    auto op = dialect::deserialize(*ctx, *m);
    if (!op)
      return makeError({}, "deserialize: " + op.error().message);
    dialect::OwningOp module = std::move(*op);
    if (via.kind == Via::Kind::Roundtrip) {
      std::string text = dialect::toString(*module);
      auto parsed = dialect::parse(*ctx, text);
      if (!parsed)
        return makeError({}, "parse of the printed IR: " + parsed.error().format("<ir>"));
      module = std::move(*parsed);
    } else {
      transforms::PassManager pm;
      if (Status s = pm.addPipeline(via.passes); !s)
        return s.error();
      if (Status s = pm.run(*module, *ctx); !s)
        return makeError({}, "passes " + via.passes + ": " + s.error().message);
    }
    auto ser = dialect::serialize(*module);
    if (!ser)
      return makeError({}, "serialize: " + ser.error().message);
    out = std::move(*ser);
  }
  if (!env.empty())
    if (Status s = validateModule(out, env); !s)
      return makeError({}, "after --via " + via.name() + ": " + s.error().message);
  return out;
}

namespace {

// The validator's environment for a shader's TARGET_ENV, as amber validates: the same
// environment; spvX.Y and the empty default are universal ones.
std::string validationEnv(std::string_view targetEnv) {
  if (targetEnv.empty())
    return "spv1.0";
  return std::string(targetEnv);
}

} // namespace

CompiledShader compileShader(const ScriptShader &shader, const CompileOptions &options) {
  CompiledShader out;
  std::string env = shader.targetEnv.empty() ? options.defaultTargetEnv : shader.targetEnv;
  auto fail = [&](std::string message) {
    out.outcome = CompiledShader::Outcome::Error;
    out.message = std::move(message);
    out.words.clear();
    return out;
  };
  switch (shader.format) {
  case ShaderFormat::OpenClC:
    out.outcome = CompiledShader::Outcome::Skip;
    out.message = "OPENCL-C shader " + shader.name + " needs clspv, which is not available";
    return out;
  case ShaderFormat::Hlsl:
    out.outcome = CompiledShader::Outcome::Skip;
    out.message = "HLSL shader " + shader.name + " needs dxc, which is not available";
    return out;
  case ShaderFormat::Glsl: {
    auto words = compileGlsl(shader.source, shader.stage, env);
    if (!words)
      return fail("shader " + shader.name + ": " + words.error().message);
    out.words = std::move(*words);
    break;
  }
  case ShaderFormat::SpirvAsm: {
    std::string_view asmEnv = env.empty() ? "spv1.0" : std::string_view(env);
    auto te = parseTargetEnv(asmEnv);
    if (!te)
      return fail("shader " + shader.name + ": unknown target environment '" + env + "'");
    AssembleOptions ao;
    ao.version = targetEnvVersion(*te);
    auto words = assemble(shader.source, ao);
    if (!words) {
      // Lines of the diagnostic count from the shader's first line.
      Diagnostic d = words.error();
      if (d.location.kind == Location::Kind::Text)
        d.location.line += shader.line;
      return fail("shader " + shader.name + ": " + d.message + " (script line " +
                  std::to_string(d.location.line) + ")");
    }
    out.words = std::move(*words);
    break;
  }
  case ShaderFormat::SpirvHex: {
    auto words = parseSpirvHex(shader.source);
    if (!words)
      return fail("shader " + shader.name + ": " + words.error().message);
    out.words = std::move(*words);
    break;
  }
  case ShaderFormat::SpirvBin: {
    if (shader.source.size() % 4 != 0 || shader.source.size() < 20)
      return fail("shader " + shader.name + ": the file is not a SPIR-V binary");
    auto m = Module::fromBytes(std::span<const uint8_t>(
        reinterpret_cast<const uint8_t *>(shader.source.data()), shader.source.size()));
    if (!m)
      return fail("shader " + shader.name + ": " + m.error().message);
    out.words.assign(m->words().begin(), m->words().end());
    break;
  }
  }
  std::string venv = validationEnv(env);
  if (options.validate)
    if (Status s = validateModule(out.words, venv); !s)
      return fail("shader " + shader.name + ": " + s.error().message);
  if (options.via.kind != Via::Kind::None) {
    auto via = applyVia(std::move(out.words), options.via, options.validate ? venv : "");
    if (!via)
      return fail("shader " + shader.name + ": " + via.error().message);
    out.words = std::move(*via);
  }
  return out;
}

} // namespace spire::run
