// The VkScript parser: sections ([require], [compute shader ...], [test]) and the [test]
// commands compute scripts use (ssbo, uniform, compute, tolerance, probe ssbo), as amber reads
// them (docs/notes/amberscript.md, section 5).
#include "ScriptParserSupport.h"

#include "spire/run/DeviceFeatures.h"
#include "spire/run/Script.h"

#include <cctype>
#include <map>

namespace spire::run {

using detail::scriptError;

namespace {

struct Section {
  std::string name;
  std::string_view body;
  uint32_t headerLine = 0; ///< the line of "[name]"
};

struct BindingKey {
  uint32_t set, binding;
  bool operator<(const BindingKey &o) const {
    return set != o.set ? set < o.set : binding < o.binding;
  }
};

class VkParser {
public:
  Expected<Script> parse(std::string_view text);

private:
  Status parseRequire(const Section &s);
  Status parseTest(const Section &s);
  Status parseSsbo(ScriptTokenizer &tok, uint32_t line);
  Status parseUniform(ScriptTokenizer &tok, uint32_t line);
  Status parseProbe(ScriptTokenizer &tok, uint32_t line);
  Status parseCompute(ScriptTokenizer &tok, uint32_t line);
  Status parseTolerance(ScriptTokenizer &tok, uint32_t line);

  Expected<BindingKey> binding(ScriptTokenizer &tok);
  /// The buffer at a binding, made (untyped, bound as `kind`) when `create` says so.
  Expected<uint32_t> bufferAt(BindingKey key, DescriptorKind kind, bool create, uint32_t line);
  /// Gives a buffer its format, or checks that it has this one.
  Status settleFormat(uint32_t buffer, const BufferFormat &format, uint32_t line);
  Status values(ScriptTokenizer &tok, const DataType &type, std::vector<Value> &out,
                std::string_view command, uint32_t line);
  /// The rest of `ssbo N subdata` and `uniform [ubo N] <type>`: an offset, then the values, as
  /// a command that writes them into `buffer`. `command` and `offsetOf` name the command in
  /// messages, the way amber does.
  Status writeValues(ScriptTokenizer &tok, const DataType &type, const BufferFormat &format,
                     uint32_t buffer, std::string_view command, std::string_view offsetOf,
                     uint32_t line);

  Script s_;
  std::map<BindingKey, uint32_t> bindings_;
  std::vector<Tolerance> tolerances_;
  std::optional<BufferFormat> pushFormat_;
};

std::vector<Section> splitSections(std::string_view text, Status &status) {
  std::vector<Section> sections;
  uint32_t line = 1;
  size_t pos = 0;
  Section *current = nullptr;
  size_t bodyStart = 0;
  auto close = [&](size_t end) {
    if (!current)
      return;
    std::string_view body = text.substr(bodyStart, end - bodyStart);
    while (!body.empty() && (body.back() == '\n' || body.back() == '\r'))
      body.remove_suffix(1);
    current->body = body;
  };
  while (pos < text.size()) {
    size_t eol = text.find('\n', pos);
    size_t end = eol == std::string_view::npos ? text.size() : eol;
    std::string_view l = text.substr(pos, end - pos);
    if (!l.empty() && l[0] == '[') {
      close(pos);
      size_t closeBracket = l.rfind(']');
      if (closeBracket == std::string_view::npos || closeBracket == 0) {
        status = scriptError(line, "missing ']' in section header");
        return {};
      }
      sections.push_back(Section{std::string(l.substr(1, closeBracket - 1)), {}, line});
      current = &sections.back();
      bodyStart = eol == std::string_view::npos ? text.size() : eol + 1;
    } else if (!current && !l.empty() && l != "\r" && l[0] != '#') {
      status = scriptError(line, "Invalid character");
      return {};
    }
    pos = eol == std::string_view::npos ? text.size() : eol + 1;
    ++line;
  }
  close(text.size());
  return sections;
}

Expected<Script> VkParser::parse(std::string_view text) {
  s_.vkScript = true;
  Status status;
  std::vector<Section> sections = splitSections(text, status);
  if (!status)
    return status.error();
  ScriptPipeline pipeline;
  pipeline.name = "vk_pipeline";
  pipeline.line = 1;
  s_.pipelines.push_back(pipeline);
  // Shaders and requirements first: the [test] commands refer to the pipeline they make.
  for (const Section &sec : sections) {
    std::string_view n = sec.name;
    if (n == "require") {
      if (Status st = parseRequire(sec); !st)
        return st.error();
      continue;
    }
    if (n == "test" || n == "comment" || n == "indices" || n == "vertex data")
      continue;
    static const std::pair<std::string_view, ShaderStage> kStages[] = {
        {"compute", ShaderStage::Compute},
        {"vertex", ShaderStage::Vertex},
        {"fragment", ShaderStage::Fragment},
        {"geometry", ShaderStage::Geometry},
        {"tessellation control", ShaderStage::TessellationControl},
        {"tessellation evaluation", ShaderStage::TessellationEvaluation},
    };
    bool known = false;
    for (auto [prefix, stage] : kStages) {
      std::string head = std::string(prefix) + " shader";
      if (!n.starts_with(head))
        continue;
      std::string_view suffix = n.substr(head.size());
      ScriptShader sh;
      sh.stage = stage;
      sh.line = sec.headerLine;
      sh.name = "vk_shader_" + std::to_string(s_.shaders.size());
      if (suffix.empty())
        sh.format = ShaderFormat::Glsl;
      else if (suffix == " spirv")
        sh.format = ShaderFormat::SpirvAsm;
      else if (suffix == " spirv hex")
        sh.format = ShaderFormat::SpirvHex;
      else if (suffix == " passthrough")
        sh.format = ShaderFormat::SpirvAsm;
      else
        return scriptError(sec.headerLine, "unknown section: [" + sec.name + "]");
      sh.source = std::string(sec.body);
      if (!sh.source.empty())
        sh.source += '\n';
      if (stage != ShaderStage::Compute)
        s_.pipelines[0].compute = false;
      else {
        if (!s_.pipelines[0].shader)
          s_.pipelines[0].shader = PipelineShader{};
        s_.pipelines[0].shader->shader = static_cast<uint32_t>(s_.shaders.size());
      }
      s_.shaders.push_back(std::move(sh));
      known = true;
      break;
    }
    if (!known)
      return scriptError(sec.headerLine, "unknown section: [" + sec.name + "]");
  }
  for (const Section &sec : sections)
    if (sec.name == "test")
      if (Status st = parseTest(sec); !st)
        return st.error();
  return std::move(s_);
}

Status VkParser::parseRequire(const Section &sec) {
  ScriptTokenizer tok(sec.body, sec.headerLine + 1);
  for (;;) {
    Token t = tok.next();
    if (t.isEnd())
      return {};
    if (t.isEndOfLine())
      continue;
    if (!t.isIdentifier())
      return scriptError(t.line, "Unknown feature or extension: " + t.describe());
    if (t.text == "framebuffer" || t.text == "depthstencil" || t.text == "fbsize") {
      for (Token a = tok.next(); !a.endsCommand(); a = tok.next()) {
      }
      continue;
    }
    if (t.text == "fence_timeout") {
      Token v = tok.next();
      if (!v.isInteger())
        return scriptError(v.line, "fence_timeout needs an integer");
      s_.fenceTimeoutMs = static_cast<uint32_t>(v.integer);
    } else if (isKnownFeature(t.text)) {
      s_.requirements.features.push_back(t.text);
    } else {
      for (char c : t.text)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
          return scriptError(t.line, "Unknown feature or extension: " + t.text);
      if (t.text == "VK_KHR_get_physical_device_properties2")
        s_.requirements.instanceExtensions.push_back(t.text);
      else
        s_.requirements.deviceExtensions.push_back(t.text);
    }
    Token end = tok.next();
    if (!end.endsCommand())
      return scriptError(end.line, "Failed to parse requirements block: " + end.describe());
  }
}

Status VkParser::parseTest(const Section &sec) {
  ScriptTokenizer tok(sec.body, sec.headerLine + 1);
  for (;;) {
    Token t = tok.next();
    if (t.isEnd())
      return {};
    if (t.isEndOfLine())
      continue;
    Status st;
    if (t.is("ssbo"))
      st = parseSsbo(tok, t.line);
    else if (t.is("uniform"))
      st = parseUniform(tok, t.line);
    else if (t.is("probe"))
      st = parseProbe(tok, t.line);
    else if (t.is("compute"))
      st = parseCompute(tok, t.line);
    else if (t.is("tolerance"))
      st = parseTolerance(tok, t.line);
    else if (t.is("clear") || t.is("draw") || t.is("patch") || t.is("relative") ||
             t.is("clear color") || t.is("clear depth"))
      st = scriptError(t.line, t.text + " needs a graphics pipeline");
    else
      st = scriptError(t.line, "Unknown command: " + t.describe());
    if (!st)
      return st;
  }
}

Expected<BindingKey> VkParser::binding(ScriptTokenizer &tok) {
  Token t = tok.next();
  if (!t.isInteger() || t.negative)
    return scriptError(t.line, "invalid binding: " + t.describe());
  BindingKey key{0, static_cast<uint32_t>(t.integer)};
  Token p = tok.peek();
  if (p.isIdentifier() && p.text.starts_with(":")) {
    tok.next();
    std::string_view rest = std::string_view(p.text).substr(1);
    uint32_t b = 0;
    if (rest.empty())
      return scriptError(p.line, "invalid binding: " + t.text + p.text);
    for (char c : rest) {
      if (c < '0' || c > '9' || b > 100000000u)
        return scriptError(p.line, "invalid binding: " + t.text + p.text);
      b = b * 10 + static_cast<uint32_t>(c - '0');
    }
    key.set = key.binding;
    key.binding = b;
  }
  return key;
}

Expected<uint32_t> VkParser::bufferAt(BindingKey key, DescriptorKind kind, bool create,
                                      uint32_t line) {
  auto it = bindings_.find(key);
  if (it != bindings_.end())
    return it->second;
  if (!create)
    return scriptError(line, "unable to find buffer at binding " + std::to_string(key.set) + ":" +
                                 std::to_string(key.binding));
  uint32_t index = static_cast<uint32_t>(s_.buffers.size());
  ScriptBuffer b;
  b.name = "AutoBuf-" + std::to_string(index);
  b.line = line;
  s_.buffers.push_back(std::move(b));
  bindings_[key] = index;
  ScriptBinding sb;
  sb.kind = kind;
  sb.set = key.set;
  sb.binding = key.binding;
  sb.buffers = {index};
  sb.descriptorOffsets = {0};
  sb.descriptorRanges = {kWholeSize};
  s_.pipelines[0].bindings.push_back(std::move(sb));
  return index;
}

Status VkParser::settleFormat(uint32_t buffer, const BufferFormat &format, uint32_t line) {
  ScriptBuffer &b = s_.buffers[buffer];
  if (!b.format) {
    b.format = format;
    return {};
  }
  if (!(*b.format == format))
    return scriptError(line, "probe ssbo format does not match buffer format");
  return {};
}

Status VkParser::values(ScriptTokenizer &tok, const DataType &type, std::vector<Value> &out,
                        std::string_view command, uint32_t line) {
  for (Token t = tok.next(); !t.endsCommand(); t = tok.next()) {
    if (t.is(","))
      continue;
    bool ok = type.scalar.isFloat() ? (t.kind == TokenKind::Integer || t.kind == TokenKind::Double)
                                    : t.kind == TokenKind::Integer;
    if (!ok)
      return scriptError(t.line, "Invalid value provided to " + std::string(command) +
                                     " command: " + t.describe());
    out.push_back(t.value());
  }
  if (out.empty() || out.size() % type.rows != 0)
    return scriptError(line,
                       "Invalid number of values provided to " + std::string(command) + " command");
  return {};
}

Expected<DataType> datumType(ScriptTokenizer &tok) {
  Token t = tok.next();
  auto ty = t.isIdentifier() ? parseVkScriptType(t.text) : std::nullopt;
  if (!ty)
    return scriptError(t.line, "Invalid type provided: " + t.describe());
  return *ty;
}

Status VkParser::parseSsbo(ScriptTokenizer &tok, uint32_t line) {
  auto key = binding(tok);
  if (!key)
    return key.error();
  auto buf = bufferAt(*key, DescriptorKind::StorageBuffer, true, line);
  if (!buf)
    return buf.error();
  Token t = tok.next();
  if (t.isInteger()) {
    Token end = tok.next();
    if (!end.endsCommand())
      return scriptError(end.line, "extra parameters after ssbo command: " + end.describe());
    Command c;
    c.kind = Command::Kind::Resize;
    c.line = line;
    c.buffer = *buf;
    c.count = t.integer;
    s_.commands.push_back(std::move(c));
    return {};
  }
  if (!t.is("subdata"))
    return scriptError(t.line, "Invalid value for ssbo command: " + t.describe());
  auto type = datumType(tok);
  if (!type)
    return type.error();
  BufferFormat format = layoutOf(*type, Layout::Std430);
  if (Status st = settleFormat(*buf, format, line); !st)
    return st;
  return writeValues(tok, *type, format, *buf, "ssbo", "SSBO", line);
}

Status VkParser::parseUniform(ScriptTokenizer &tok, uint32_t line) {
  Token t = tok.peek();
  bool ubo = t.is("ubo");
  std::optional<uint32_t> buffer;
  if (ubo) {
    tok.next();
    auto key = binding(tok);
    if (!key)
      return key.error();
    auto buf = bufferAt(*key, DescriptorKind::UniformBuffer, true, line);
    if (!buf)
      return buf.error();
    buffer = *buf;
  }
  auto type = datumType(tok);
  if (!type)
    return type.error();
  BufferFormat format = layoutOf(*type, ubo ? Layout::Std140 : Layout::Std430);
  if (ubo) {
    if (Status st = settleFormat(*buffer, format, line); !st)
      return st;
  } else {
    // Push constants: one buffer, and every `uniform` command must use the same format.
    if (pushFormat_ && !(*pushFormat_ == format))
      return scriptError(line, "push constants must all have the same format");
    pushFormat_ = format;
    if (!s_.pipelines[0].pushConstants) {
      ScriptBuffer b;
      b.name = "AutoBuf-" + std::to_string(s_.buffers.size());
      b.line = line;
      b.format = format;
      s_.pipelines[0].pushConstants = static_cast<uint32_t>(s_.buffers.size());
      s_.buffers.push_back(std::move(b));
    }
    buffer = *s_.pipelines[0].pushConstants;
  }
  return writeValues(tok, *type, format, *buffer, "uniform", "uniform", line);
}

Status VkParser::writeValues(ScriptTokenizer &tok, const DataType &type, const BufferFormat &format,
                             uint32_t buffer, std::string_view command, std::string_view offsetOf,
                             uint32_t line) {
  Token off = tok.next();
  if (!off.isInteger() || off.negative)
    return scriptError(off.line, "Invalid offset for " + std::string(command) +
                                     " command: " + off.describe());
  if (off.integer % format.stride != 0)
    return scriptError(off.line, "offset for " + std::string(offsetOf) +
                                     " must be a multiple of the data size");
  std::vector<Value> vals;
  if (Status st = values(tok, type, vals, command, line); !st)
    return st;
  Command c;
  c.kind = Command::Kind::Write;
  c.line = line;
  c.buffer = buffer;
  c.offset = off.integer;
  detail::encodeValues(format, vals, c.bytes);
  c.bytes.resize(detail::encodedLength(format, vals.size()));
  s_.commands.push_back(std::move(c));
  return {};
}

Status VkParser::parseProbe(ScriptTokenizer &tok, uint32_t line) {
  Token what = tok.next();
  if (!what.is("ssbo"))
    return scriptError(what.line, "probe " + what.describe() + " needs a graphics pipeline");
  auto type = datumType(tok);
  if (!type)
    return type.error();
  auto key = binding(tok);
  if (!key)
    return key.error();
  auto buf = bufferAt(*key, DescriptorKind::StorageBuffer, false, line);
  if (!buf)
    return buf.error();
  ScriptBuffer &b = s_.buffers[*buf];
  BufferFormat format = layoutOf(*type, b.format ? b.format->layout : Layout::Std430);
  if (Status st = settleFormat(*buf, format, line); !st)
    return st;
  Token off = tok.next();
  if (!off.isInteger() || off.negative)
    return scriptError(off.line, "Invalid offset for probe command: " + off.describe());
  Token op = tok.next();
  static const std::pair<std::string_view, Comparator> kOps[] = {
      {"==", Comparator::Eq},     {"!=", Comparator::Ne}, {"<", Comparator::Lt},
      {"<=", Comparator::Le},     {">", Comparator::Gt},  {">=", Comparator::Ge},
      {"~=", Comparator::FuzzyEq}};
  Command c;
  c.kind = Command::Kind::Expect;
  c.line = line;
  c.buffer = *buf;
  c.offset = off.integer;
  bool found = false;
  for (auto [n, cmp] : kOps)
    if (op.is(n)) {
      c.comparator = cmp;
      found = true;
    }
  if (!found)
    return scriptError(op.line, "Invalid comparator: " + op.describe());
  if (c.comparator == Comparator::FuzzyEq)
    c.tolerances = tolerances_;
  if (Status st = values(tok, *type, c.values, "probe", line); !st)
    return st;
  s_.commands.push_back(std::move(c));
  return {};
}

Status VkParser::parseCompute(ScriptTokenizer &tok, uint32_t line) {
  Token t = tok.next();
  if (t.is("entrypoint")) {
    Token n = tok.next();
    if (!n.isIdentifier())
      return scriptError(n.line, "Invalid entrypoint: " + n.describe());
    if (!s_.pipelines[0].shader)
      return scriptError(line, "compute entrypoint without a compute shader");
    s_.pipelines[0].shader->entryPoint = n.text;
    Token end = tok.next();
    if (!end.endsCommand())
      return scriptError(end.line, "extra parameters after compute entrypoint");
    return {};
  }
  Command c;
  c.kind = Command::Kind::Run;
  c.line = line;
  for (unsigned i = 0; i < 3; ++i) {
    if (i > 0)
      t = tok.next();
    if (!t.isInteger() || t.negative || t.integer > 0xFFFFFFFFu)
      return scriptError(t.line, "Invalid value for compute command: " + t.describe());
    c.groups[i] = static_cast<uint32_t>(t.integer);
  }
  Token end = tok.next();
  if (!end.endsCommand())
    return scriptError(end.line, "extra parameters after compute command: " + end.describe());
  if (!s_.pipelines[0].compute || !s_.pipelines[0].shader)
    return scriptError(line, "compute needs a [compute shader] section");
  s_.commands.push_back(std::move(c));
  return {};
}

Status VkParser::parseTolerance(ScriptTokenizer &tok, uint32_t line) {
  std::vector<Tolerance> list;
  for (Token t = tok.next(); !t.endsCommand(); t = tok.next()) {
    if (t.is(","))
      continue;
    if (t.kind != TokenKind::Integer && t.kind != TokenKind::Double)
      return scriptError(t.line, "Invalid value for tolerance command: " + t.describe());
    Tolerance tv{t.value().asDouble(), false};
    if (tok.peek().is("%")) {
      tok.next();
      tv.percent = true;
    }
    list.push_back(tv);
  }
  if (list.size() != 1 && list.size() != 4)
    return scriptError(line, "tolerance takes one or four values");
  tolerances_ = std::move(list);
  return {};
}

} // namespace

Expected<Script> parseVkScript(std::string_view text) {
  VkParser p;
  return p.parse(text);
}

} // namespace spire::run
