// The AmberScript parser: the commands of google/amber's docs/amber_script.md that compute
// scripts use, read as amber reads them (see docs/notes/amberscript.md).
#include "ScriptParserSupport.h"

#include "spire/run/DeviceFeatures.h"
#include "spire/run/Script.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <map>

namespace spire::run {

using detail::scriptError;

namespace {

class AmberParser {
public:
  AmberParser(std::string_view text, const FileLoader &loader) : tok_(text), loader_(loader) {}

  Expected<Script> parse();

private:
  Status parseShader();
  Status parseVirtualFile();
  Status parseBuffer();
  Status parseImage();
  Status parseSampler();
  Status parsePipeline(bool derive);
  Status parsePipelineBody(ScriptPipeline &p);
  Status parseAttach(ScriptPipeline &p);
  Status parseBind(ScriptPipeline &p);
  Status parseSubgroup(ScriptPipeline &p);
  Status parseShaderOptionBlock(ScriptPipeline &p, bool compileOptions);
  Status parseCommand(const Token &t, std::vector<Command> &out, bool inRepeat);
  Status parseRun(std::vector<Command> &out);
  Status parseExpect(std::vector<Command> &out);
  Status parseCopy(std::vector<Command> &out);
  Status parseRepeat(std::vector<Command> &out);
  Status parseSet();
  Status parseRequirement(const Token &t);

  /// Reads the initializer of a buffer or image (FILL, SERIES_FROM, DATA, FILE).
  Status parseInitializer(ScriptBuffer &b, const Token &t, uint64_t count, bool haveCount);
  Status parseDataValues(ScriptBuffer &b, ScriptTokenizer &tok, bool untilEnd, uint32_t line);
  Status parseValueList(const BufferFormat &format, std::vector<Value> &values,
                        std::string_view what);

  Status endOfCommand(std::string_view command);
  Expected<uint32_t> integer(std::string_view what);
  Expected<std::string> name(std::string_view what);
  Expected<uint32_t> lookup(const std::map<std::string, uint32_t> &m, const Token &t,
                            std::string_view what);
  Status addName(std::map<std::string, uint32_t> &m, const std::string &n, uint32_t index,
                 std::string_view what, uint32_t line);

  ScriptTokenizer tok_;
  const FileLoader &loader_;
  Script s_;
  std::map<std::string, uint32_t> buffers_, shaders_, pipelines_, samplers_;
  std::map<std::string, std::string> virtualFiles_;
};

Diagnostic unexpected(const Token &t, std::string_view what) {
  return scriptError(t.line, "expected " + std::string(what) + ", got " + t.describe());
}

Status AmberParser::endOfCommand(std::string_view command) {
  Token t = tok_.next();
  if (!t.endsCommand())
    return scriptError(t.line,
                       "extra parameters after " + std::string(command) + ": " + t.describe());
  return {};
}

Expected<uint32_t> AmberParser::integer(std::string_view what) {
  Token t = tok_.next();
  if (!t.isInteger() || t.negative || t.integer > 0xFFFFFFFFu)
    return unexpected(t, "an integer for " + std::string(what));
  return static_cast<uint32_t>(t.integer);
}

Expected<std::string> AmberParser::name(std::string_view what) {
  Token t = tok_.next();
  if (!t.isIdentifier() && t.kind != TokenKind::String)
    return unexpected(t, std::string(what));
  return t.text;
}

Expected<uint32_t> AmberParser::lookup(const std::map<std::string, uint32_t> &m, const Token &t,
                                       std::string_view what) {
  if (!t.isIdentifier())
    return unexpected(t, "a " + std::string(what) + " name");
  auto it = m.find(t.text);
  if (it == m.end())
    return scriptError(t.line, "unknown " + std::string(what) + ": " + t.text);
  return it->second;
}

Status AmberParser::addName(std::map<std::string, uint32_t> &m, const std::string &n,
                            uint32_t index, std::string_view what, uint32_t line) {
  if (!m.emplace(n, index).second)
    return scriptError(line, "duplicate " + std::string(what) + " name: " + n);
  return {};
}

Expected<Script> AmberParser::parse() {
  for (;;) {
    Token t = tok_.next();
    if (t.isEnd())
      break;
    if (t.isEndOfLine())
      continue;
    if (!t.isIdentifier())
      return scriptError(t.line, "expected a command, got " + t.describe());
    Status st;
    if (t.text == "SHADER")
      st = parseShader();
    else if (t.text == "VIRTUAL_FILE")
      st = parseVirtualFile();
    else if (t.text == "BUFFER")
      st = parseBuffer();
    else if (t.text == "IMAGE")
      st = parseImage();
    else if (t.text == "SAMPLER")
      st = parseSampler();
    else if (t.text == "PIPELINE")
      st = parsePipeline(false);
    else if (t.text == "DERIVE_PIPELINE")
      st = parsePipeline(true);
    else if (t.text == "SET")
      st = parseSet();
    else if (t.text == "DEVICE_FEATURE" || t.text == "DEVICE_EXTENSION" ||
             t.text == "INSTANCE_EXTENSION" || t.text == "DEVICE_PROPERTY")
      st = parseRequirement(t);
    else if (t.text == "STRUCT" || t.text == "ACCELERATION_STRUCTURE")
      st = scriptError(t.line, t.text + " is not supported by spire run");
    else
      st = parseCommand(t, s_.commands, false);
    if (!st)
      return st.error();
  }
  return std::move(s_);
}

// --- SHADER, VIRTUAL_FILE ---

Expected<ShaderStage> shaderStage(const Token &t) {
  static const std::pair<std::string_view, ShaderStage> kStages[] = {
      {"vertex", ShaderStage::Vertex},
      {"fragment", ShaderStage::Fragment},
      {"geometry", ShaderStage::Geometry},
      {"tessellation_evaluation", ShaderStage::TessellationEvaluation},
      {"tessellation_control", ShaderStage::TessellationControl},
      {"compute", ShaderStage::Compute},
      {"ray_generation", ShaderStage::RayTracing},
      {"any_hit", ShaderStage::RayTracing},
      {"closest_hit", ShaderStage::RayTracing},
      {"miss", ShaderStage::RayTracing},
      {"intersection", ShaderStage::RayTracing},
      {"callable", ShaderStage::RayTracing},
      {"multi", ShaderStage::Multi},
  };
  for (auto [n, s] : kStages)
    if (t.is(n))
      return s;
  return scriptError(t.line, "unknown shader type: " + t.describe());
}

Status AmberParser::parseShader() {
  ScriptShader sh;
  Token typeTok = tok_.next();
  sh.line = typeTok.line;
  auto stage = shaderStage(typeTok);
  if (!stage)
    return stage.error();
  sh.stage = *stage;
  auto n = name("a shader name");
  if (!n)
    return n.error();
  sh.name = *n;
  Token f = tok_.next();
  if (sh.stage == ShaderStage::Vertex && f.is("PASSTHROUGH")) {
    sh.format = ShaderFormat::SpirvAsm;
    if (Status st = endOfCommand("SHADER"); !st)
      return st;
    uint32_t index = static_cast<uint32_t>(s_.shaders.size());
    s_.shaders.push_back(std::move(sh));
    return addName(shaders_, s_.shaders.back().name, index, "shader", typeTok.line);
  }
  static const std::pair<std::string_view, ShaderFormat> kFormats[] = {
      {"GLSL", ShaderFormat::Glsl},          {"HLSL", ShaderFormat::Hlsl},
      {"SPIRV-ASM", ShaderFormat::SpirvAsm}, {"SPIRV-HEX", ShaderFormat::SpirvHex},
      {"SPIRV-BIN", ShaderFormat::SpirvBin}, {"OPENCL-C", ShaderFormat::OpenClC},
  };
  bool known = false;
  for (auto [fn, fv] : kFormats)
    if (f.is(fn)) {
      sh.format = fv;
      known = true;
    }
  if (!known)
    return scriptError(f.line, "unknown shader format: " + f.describe());
  Token t = tok_.next();
  if (t.is("TARGET_ENV")) {
    Token env = tok_.next();
    if (!env.isIdentifier() && env.kind != TokenKind::String)
      return unexpected(env, "a target environment after TARGET_ENV");
    sh.targetEnv = env.text;
    t = tok_.next();
  }
  if (t.is("FILE") || t.is("VIRTUAL_FILE")) {
    bool isVirtual = t.is("VIRTUAL_FILE");
    auto path = name("a file path");
    if (!path)
      return path.error();
    if (isVirtual) {
      auto it = virtualFiles_.find(*path);
      if (it == virtualFiles_.end())
        return scriptError(t.line, "unknown virtual file: " + *path);
      sh.source = it->second;
    } else {
      auto bytes = loader_(*path);
      if (!bytes)
        return scriptError(t.line,
                           "cannot read shader file " + *path + ": " + bytes.error().message);
      sh.source.assign(bytes->begin(), bytes->end());
    }
    if (Status st = endOfCommand("SHADER"); !st)
      return st;
  } else {
    if (sh.format == ShaderFormat::SpirvBin)
      return scriptError(t.line, "SPIRV-BIN shaders are read from a FILE");
    if (!t.endsCommand())
      return scriptError(t.line, "extra parameters after SHADER: " + t.describe());
    if (t.isEnd())
      return scriptError(t.line, "SHADER missing END command");
    bool found = false;
    std::string_view body = tok_.extractTo("END", found);
    if (body.empty())
      return scriptError(t.line + 1, "SHADER must not be empty");
    Token end = tok_.next();
    if (!found || !end.is("END"))
      return scriptError(end.line, "SHADER missing END command");
    sh.source = std::string(body);
    if (Status st = endOfCommand("END"); !st)
      return st;
    virtualFiles_["embedded-shaders/" + sh.name] = sh.source;
  }
  uint32_t index = static_cast<uint32_t>(s_.shaders.size());
  std::string shaderName = sh.name;
  s_.shaders.push_back(std::move(sh));
  return addName(shaders_, shaderName, index, "shader", typeTok.line);
}

Status AmberParser::parseVirtualFile() {
  auto path = name("a virtual file path");
  if (!path)
    return path.error();
  Token t = tok_.next();
  if (!t.isEndOfLine())
    return scriptError(t.line, "extra parameters after VIRTUAL_FILE: " + t.describe());
  bool found = false;
  std::string_view body = tok_.extractTo("END", found);
  Token end = tok_.next();
  if (!found || !end.is("END"))
    return scriptError(end.line, "VIRTUAL_FILE missing END command");
  if (!virtualFiles_.emplace(*path, std::string(body)).second)
    return scriptError(t.line, "duplicate virtual file: " + *path);
  return endOfCommand("END");
}

// --- BUFFER, IMAGE ---

Expected<DataType> typeNamed(const Token &t) {
  if (!t.isIdentifier())
    return unexpected(t, "a data type");
  if (auto ty = parseFormatName(t.text))
    return *ty;
  if (auto ty = parseAmberType(t.text))
    return *ty;
  return scriptError(t.line, "invalid data type: " + t.text);
}

bool isMultiComponentFormat(const DataType &t) {
  return t.isFormat() && t.formatComponents.size() > 1;
}

// FILL and SERIES_FROM take the literal as amber does: on a float type only a floating-point
// literal counts (an integer gives 0.0), on an integer type only an integer literal (a
// floating-point one gives 0).
Value initializerValue(const Token &t, bool floatType) {
  if (floatType)
    return Value::real(t.kind == TokenKind::Double ? t.number : 0.0);
  return Value::integer(t.isInteger() ? t.integer : 0, t.isInteger() && t.negative);
}

Status AmberParser::parseDataValues(ScriptBuffer &b, ScriptTokenizer &tok, bool untilEnd,
                                    uint32_t line) {
  const BufferFormat &format = *b.format;
  std::vector<Value> values;
  for (;;) {
    Token t = tok.next();
    if (t.isEndOfLine())
      continue;
    if (t.isEnd()) {
      if (untilEnd)
        return scriptError(t.line, "missing BUFFER END command");
      break;
    }
    if (untilEnd && t.is("END")) {
      Token after = tok.next();
      if (!after.endsCommand())
        return scriptError(after.line,
                           "extra parameters after BUFFER data END: " + after.describe());
      break;
    }
    Component c = detail::componentAt(format, values.size());
    if (!detail::valueFits(t, c))
      return scriptError(t.line, "invalid BUFFER data value: " + t.describe());
    values.push_back(t.value());
  }
  uint32_t per = format.componentsPerElement();
  if (per == 0 || values.size() % per != 0)
    return scriptError(line, "Mismatched number of items in buffer");
  b.bytes.clear();
  detail::encodeValues(format, values, b.bytes);
  return {};
}

Status AmberParser::parseInitializer(ScriptBuffer &b, const Token &t, uint64_t count,
                                     bool haveCount) {
  const BufferFormat &format = *b.format;
  bool floatType = !isMultiComponentFormat(format.type) &&
                   (format.type.isFormat() ? format.type.formatComponents[0].isFloat()
                                           : format.type.scalar.isFloat());
  if (t.is("DATA"))
    return parseDataValues(b, tok_, true, t.line);
  if (t.is("FILL") || t.is("SERIES_FROM")) {
    if (!haveCount)
      return scriptError(t.line, "BUFFER " + t.text + " needs a SIZE");
    bool series = t.is("SERIES_FROM");
    Token v = tok_.next();
    if (v.kind != TokenKind::Integer && v.kind != TokenKind::Double)
      return unexpected(v, "a number after " + t.text);
    Value start = initializerValue(v, floatType), inc;
    if (series) {
      if (format.type.rows > 1 || format.type.columns > 1 || isMultiComponentFormat(format.type))
        return scriptError(t.line, "SERIES_FROM must not be multi-row/column types");
      Token by = tok_.next();
      if (!by.is("INC_BY"))
        return unexpected(by, "INC_BY");
      Token iv = tok_.next();
      if (iv.kind != TokenKind::Integer && iv.kind != TokenKind::Double)
        return unexpected(iv, "a number after INC_BY");
      inc = initializerValue(iv, floatType);
    }
    if (Status st = endOfCommand(t.text); !st)
      return st;
    if (count > (uint64_t(1) << 28) / std::max<uint32_t>(format.stride, 1))
      return scriptError(t.line, "BUFFER too large");
    // Each element is written in place: a FILL is one element copied, a series one element at
    // a time (a buffer of millions of elements needs no list of values).
    auto element = [&](const Value &v, uint8_t *out) {
      size_t offset = 0;
      for (const Segment &seg : format.segments) {
        if (!seg.padding) {
          // A multi-component format takes the integer path: its float components get 0.
          bool zero = isMultiComponentFormat(format.type) && seg.component.isFloat();
          writeComponent(seg.component, zero ? Value::real(0) : v, out + offset);
        }
        offset += seg.component.bits / 8;
      }
    };
    b.bytes.assign(count * format.stride, 0);
    for (uint64_t i = 0; i < count; ++i) {
      uint8_t *out = b.bytes.data() + i * format.stride;
      if (!series) {
        if (i == 0)
          element(start, out);
        else
          std::memcpy(out, b.bytes.data(), format.stride);
        continue;
      }
      element(floatType ? Value::real(start.number + double(i) * inc.number)
                        : Value::integer(start.bits + i * inc.bits),
              out);
    }
    return {};
  }
  if (t.is("FILE")) {
    Token mode = tok_.next();
    bool text = false;
    if (mode.is("TEXT") || mode.is("BINARY") || mode.is("PNG")) {
      if (mode.is("PNG"))
        return scriptError(mode.line, "PNG buffer files are not supported by spire run");
      text = mode.is("TEXT");
      mode = tok_.next();
    }
    if (!mode.isIdentifier() && mode.kind != TokenKind::String)
      return unexpected(mode, "a file name");
    if (Status st = endOfCommand("FILE"); !st)
      return st;
    auto bytes = loader_(mode.text);
    if (!bytes)
      return scriptError(mode.line,
                         "cannot read buffer file " + mode.text + ": " + bytes.error().message);
    if (!text) {
      b.bytes = std::move(*bytes);
      b.bytes.resize(b.bytes.size() / format.stride * format.stride);
      return {};
    }
    std::string content(bytes->begin(), bytes->end());
    ScriptTokenizer fileTok(content);
    return parseDataValues(b, fileTok, false, mode.line);
  }
  return unexpected(t, "FILL, SERIES_FROM, DATA or FILE");
}

Status AmberParser::parseBuffer() {
  ScriptBuffer b;
  auto n = name("a buffer name");
  if (!n)
    return n.error();
  b.name = *n;
  Token t = tok_.next();
  b.line = t.line;
  if (t.is("FORMAT")) {
    Token f = tok_.next();
    auto ty = parseFormatName(f.text);
    if (!f.isIdentifier() || !ty)
      return scriptError(f.line, "invalid BUFFER FORMAT: " + f.describe());
    b.format = layoutOf(*ty);
    for (t = tok_.next(); !t.endsCommand(); t = tok_.next()) {
      if (t.is("MIP_LEVELS") || t.is("SAMPLES")) {
        auto v = integer(t.text);
        if (!v)
          return v.error();
        (t.is("MIP_LEVELS") ? b.mipLevels : b.samples) = *v;
      } else if (t.is("FILE")) {
        return scriptError(t.line, "BUFFER FORMAT ... FILE (PNG) is not supported by spire run");
      } else {
        return scriptError(t.line, "unknown BUFFER FORMAT option: " + t.describe());
      }
    }
  } else {
    if (!t.is("DATA_TYPE"))
      return unexpected(t, "DATA_TYPE or FORMAT");
    Token typeTok = tok_.next();
    auto ty = typeNamed(typeTok);
    if (!ty)
      return ty.error();
    Layout layout = Layout::Std430;
    t = tok_.next();
    if (t.is("STD140") || t.is("STD430")) {
      layout = t.is("STD140") ? Layout::Std140 : Layout::Std430;
      t = tok_.next();
    }
    b.format = layoutOf(*ty, layout);
    if (t.is("SIZE")) {
      Token c = tok_.next();
      if (!c.isInteger() || c.negative)
        return unexpected(c, "an element count after SIZE");
      Token init = tok_.next();
      if (!init.is("FILL") && !init.is("SERIES_FROM") && !init.is("FILE"))
        return scriptError(init.line, "BUFFER invalid initializer: " + init.describe());
      if (Status st = parseInitializer(b, init, c.integer, true); !st)
        return st;
    } else if (t.is("DATA")) {
      if (Status st = parseInitializer(b, t, 0, false); !st)
        return st;
    } else if (t.is("WIDTH")) {
      auto w = integer("WIDTH");
      if (!w)
        return w.error();
      Token h = tok_.next();
      if (!h.is("HEIGHT"))
        return unexpected(h, "HEIGHT");
      auto hv = integer("HEIGHT");
      if (!hv)
        return hv.error();
      b.width = *w;
      b.height = *hv;
      uint64_t count = uint64_t(*w) * *hv;
      Token init = tok_.next();
      if (init.endsCommand()) {
        if (count * b.format->stride > (uint64_t(1) << 28))
          return scriptError(init.line, "BUFFER too large");
        b.bytes.assign(count * b.format->stride, 0);
      } else if (Status st = parseInitializer(b, init, count, true); !st) {
        return st;
      }
    } else {
      return scriptError(t.line, "BUFFER invalid initializer: " + t.describe());
    }
  }
  uint32_t index = static_cast<uint32_t>(s_.buffers.size());
  std::string bufferName = b.name;
  s_.buffers.push_back(std::move(b));
  return addName(buffers_, bufferName, index, "buffer", t.line);
}

Status AmberParser::parseImage() {
  ScriptBuffer b;
  auto n = name("an image name");
  if (!n)
    return n.error();
  b.name = *n;
  b.dim = ImageDim::Dim2D;
  Token t = tok_.next();
  b.line = t.line;
  bool haveDim = false, haveHeight = false, haveDepth = false;
  for (;; t = tok_.next()) {
    if (t.is("FORMAT") || t.is("DATA_TYPE")) {
      Token f = tok_.next();
      std::optional<DataType> ty =
          t.is("FORMAT") ? parseFormatName(f.text) : std::optional<DataType>();
      if (t.is("DATA_TYPE")) {
        auto named = typeNamed(f);
        if (!named)
          return named.error();
        ty = *named;
      }
      if (!ty)
        return scriptError(f.line, "invalid IMAGE FORMAT: " + f.describe());
      if (vkFormatOf(*ty) == 0)
        return scriptError(f.line, "no image format for data type " + f.text);
      b.format = layoutOf(*ty);
    } else if (t.is("MIP_LEVELS") || t.is("SAMPLES") || t.is("WIDTH") || t.is("HEIGHT") ||
               t.is("DEPTH")) {
      auto v = integer(t.text);
      if (!v)
        return v.error();
      if (t.is("MIP_LEVELS"))
        b.mipLevels = *v;
      else if (t.is("SAMPLES")) {
        if (*v == 0 || *v > 64 || (*v & (*v - 1)) != 0)
          return scriptError(t.line, "invalid sample count: " + std::to_string(*v));
        b.samples = *v;
      } else if (t.is("WIDTH"))
        b.width = *v;
      else if (t.is("HEIGHT")) {
        b.height = *v;
        haveHeight = true;
      } else {
        b.depth = *v;
        haveDepth = true;
      }
    } else if (t.is("DIM_1D") || t.is("DIM_2D") || t.is("DIM_3D")) {
      b.dim = t.is("DIM_1D") ? ImageDim::Dim1D : t.is("DIM_2D") ? ImageDim::Dim2D : ImageDim::Dim3D;
      haveDim = true;
    } else {
      break;
    }
  }
  (void)haveDim;
  if (!b.format)
    return scriptError(t.line, "IMAGE needs a FORMAT or DATA_TYPE");
  if (b.width == 0)
    return scriptError(t.line, "IMAGE needs a WIDTH");
  if (b.dim != ImageDim::Dim1D && !haveHeight)
    return scriptError(t.line, "IMAGE needs a HEIGHT");
  if (b.dim == ImageDim::Dim3D && !haveDepth)
    return scriptError(t.line, "IMAGE needs a DEPTH");
  if (b.width > 65536 || b.height > 65536 || b.depth > 65536)
    return scriptError(t.line, "IMAGE too large");
  if (b.dim == ImageDim::Dim1D)
    b.height = 1;
  if (b.dim != ImageDim::Dim3D)
    b.depth = 1;
  uint64_t count = uint64_t(b.width) * b.height * b.depth;
  if (count * b.format->stride > (uint64_t(1) << 28))
    return scriptError(t.line, "IMAGE too large");
  if (t.endsCommand()) {
    b.bytes.assign(count * b.format->stride, 0);
  } else {
    if (Status st = parseInitializer(b, t, count, true); !st)
      return st;
    if (b.bytes.size() != count * b.format->stride)
      return scriptError(t.line, "IMAGE data has " +
                                     std::to_string(b.bytes.size() / b.format->stride) +
                                     " elements, the image " + std::to_string(count));
  }
  uint32_t index = static_cast<uint32_t>(s_.buffers.size());
  std::string imageName = b.name;
  s_.buffers.push_back(std::move(b));
  return addName(buffers_, imageName, index, "buffer", t.line);
}

// --- SAMPLER ---

Status AmberParser::parseSampler() {
  ScriptSampler smp;
  auto n = name("a sampler name");
  if (!n)
    return n.error();
  smp.name = *n;
  Token t = tok_.next();
  smp.line = t.line;
  static const std::pair<std::string_view, uint32_t> kModes[] = {{"repeat", 0},
                                                                 {"mirrored_repeat", 1},
                                                                 {"clamp_to_edge", 2},
                                                                 {"clamp_to_border", 3},
                                                                 {"mirror_clamp_to_edge", 4}};
  static const std::pair<std::string_view, uint32_t> kBorders[] = {
      {"float_transparent_black", 0}, {"int_transparent_black", 1}, {"float_opaque_black", 2},
      {"int_opaque_black", 3},        {"float_opaque_white", 4},    {"int_opaque_white", 5}};
  static const std::pair<std::string_view, uint32_t> kCompareOps[] = {{"never", 0},
                                                                      {"less", 1},
                                                                      {"equal", 2},
                                                                      {"less_or_equal", 3},
                                                                      {"greater", 4},
                                                                      {"not_equal", 5},
                                                                      {"greater_or_equal", 6},
                                                                      {"always", 7}};
  auto pick = [&](auto &table, const Token &v, uint32_t &out, std::string_view what) -> Status {
    for (auto [k, val] : table)
      if (v.is(k)) {
        out = val;
        return {};
      }
    return scriptError(v.line, "invalid " + std::string(what) + ": " + v.describe());
  };
  for (; !t.endsCommand(); t = tok_.next()) {
    if (t.is("MAG_FILTER") || t.is("MIN_FILTER")) {
      Token v = tok_.next();
      if (!v.is("nearest") && !v.is("linear"))
        return scriptError(v.line, "invalid filter: " + v.describe());
      (t.is("MAG_FILTER") ? smp.magLinear : smp.minLinear) = v.is("linear");
    } else if (t.is("ADDRESS_MODE_U") || t.is("ADDRESS_MODE_V") || t.is("ADDRESS_MODE_W")) {
      uint32_t &m = t.is("ADDRESS_MODE_U")   ? smp.addressU
                    : t.is("ADDRESS_MODE_V") ? smp.addressV
                                             : smp.addressW;
      if (Status st = pick(kModes, tok_.next(), m, "address mode"); !st)
        return st;
    } else if (t.is("BORDER_COLOR")) {
      if (Status st = pick(kBorders, tok_.next(), smp.borderColor, "border color"); !st)
        return st;
    } else if (t.is("MIN_LOD") || t.is("MAX_LOD")) {
      Token v = tok_.next();
      if (!v.isNumber())
        return unexpected(v, "a number after " + t.text);
      (t.is("MIN_LOD") ? smp.minLod : smp.maxLod) = static_cast<float>(v.value().asDouble());
    } else if (t.is("NORMALIZED_COORDS") || t.is("UNNORMALIZED_COORDS")) {
      smp.normalized = t.is("NORMALIZED_COORDS");
    } else if (t.is("COMPARE")) {
      Token v = tok_.next();
      if (!v.is("on") && !v.is("off"))
        return scriptError(v.line, "COMPARE is on or off, not " + v.describe());
      smp.compare = v.is("on");
    } else if (t.is("COMPARE_OP")) {
      if (Status st = pick(kCompareOps, tok_.next(), smp.compareOp, "compare op"); !st)
        return st;
    } else {
      return scriptError(t.line, "unknown SAMPLER option: " + t.describe());
    }
  }
  if (smp.maxLod < smp.minLod)
    return scriptError(smp.line, "max LOD must be greater than or equal to min LOD");
  if (!smp.normalized)
    smp.minLod = smp.maxLod = 0;
  uint32_t index = static_cast<uint32_t>(s_.samplers.size());
  std::string samplerName = smp.name;
  s_.samplers.push_back(std::move(smp));
  return addName(samplers_, samplerName, index, "sampler", t.line);
}

// --- PIPELINE ---

Status AmberParser::parsePipeline(bool derive) {
  ScriptPipeline p;
  Token first = tok_.next();
  p.line = first.line;
  if (derive) {
    if (!first.isIdentifier())
      return unexpected(first, "a pipeline name");
    p.name = first.text;
    Token from = tok_.next();
    if (!from.is("FROM"))
      return unexpected(from, "FROM");
    auto parent = lookup(pipelines_, tok_.next(), "pipeline");
    if (!parent)
      return parent.error();
    const ScriptPipeline &base = s_.pipelines[*parent];
    p.compute = base.compute;
    p.shader = base.shader;
    // The push-constant and sampler bindings are not inherited.
    for (const ScriptBinding &b : base.bindings)
      if (b.kind != DescriptorKind::Sampler)
        p.bindings.push_back(b);
  } else {
    if (first.is("graphics") || first.is("raytracing"))
      p.compute = false;
    else if (!first.is("compute"))
      return scriptError(first.line, "unknown pipeline type: " + first.describe());
    auto n = name("a pipeline name");
    if (!n)
      return n.error();
    p.name = *n;
  }
  if (Status st = endOfCommand("PIPELINE"); !st)
    return st;
  if (Status st = parsePipelineBody(p); !st)
    return st;
  uint32_t index = static_cast<uint32_t>(s_.pipelines.size());
  std::string pipelineName = p.name;
  uint32_t line = p.line;
  s_.pipelines.push_back(std::move(p));
  return addName(pipelines_, pipelineName, index, "pipeline", line);
}

Status AmberParser::parsePipelineBody(ScriptPipeline &p) {
  for (;;) {
    Token t = tok_.next();
    if (t.isEndOfLine())
      continue;
    if (t.isEnd())
      return scriptError(t.line, "PIPELINE missing END command");
    Status st;
    if (t.is("END"))
      return endOfCommand("END");
    if (t.is("ATTACH"))
      st = parseAttach(p);
    else if (t.is("BIND"))
      st = parseBind(p);
    else if (t.is("SUBGROUP"))
      st = parseSubgroup(p);
    else if (t.is("COMPILE_OPTIONS"))
      st = parseShaderOptionBlock(p, true);
    else if (t.is("SHADER_OPTIMIZATION"))
      st = parseShaderOptionBlock(p, false);
    else if (t.is("SET")) {
      // SET KERNEL ARG_NAME|ARG_NUMBER <a> AS <type> <value>: OpenCL-C only.
      for (Token k = tok_.next(); !k.endsCommand(); k = tok_.next()) {
      }
    } else if (p.compute)
      st = scriptError(t.line, t.text + " is not a command of a compute pipeline");
    else
      st = scriptError(t.line, "graphics and ray-tracing pipelines are not supported by spire run");
    if (!st)
      return st;
  }
}

Status AmberParser::parseAttach(ScriptPipeline &p) {
  Token n = tok_.next();
  auto shader = lookup(shaders_, n, "shader");
  if (!shader)
    return shader.error();
  const ScriptShader &sh = s_.shaders[*shader];
  if (p.compute && sh.stage != ShaderStage::Compute && sh.stage != ShaderStage::Multi)
    return scriptError(n.line, "only compute shaders are allowed in a compute pipeline");
  // A second ATTACH of a compute shader replaces the shader and keeps the rest.
  if (!p.shader)
    p.shader = PipelineShader{};
  p.shader->shader = *shader;
  bool entrySet = false;
  for (Token t = tok_.next(); !t.endsCommand(); t = tok_.next()) {
    if (t.is("TYPE")) {
      Token ty = tok_.next();
      if (!ty.isIdentifier())
        return unexpected(ty, "a shader type after TYPE");
    } else if (t.is("ENTRY_POINT")) {
      auto e = name("an entry point name");
      if (!e)
        return e.error();
      if (entrySet)
        return scriptError(t.line, "ENTRY_POINT given twice");
      p.shader->entryPoint = *e;
      entrySet = true;
    } else if (t.is("SPECIALIZE")) {
      Token id = tok_.next();
      if (!id.isInteger())
        return unexpected(id, "a constant id after SPECIALIZE");
      Token as = tok_.next();
      if (!as.is("AS"))
        return unexpected(as, "AS");
      Token ty = tok_.next();
      if (!ty.is("uint32") && !ty.is("int32") && !ty.is("float"))
        return scriptError(ty.line, "only 32-bit types are allowed for SPECIALIZE");
      Token v = tok_.next();
      if (!v.isNumber())
        return unexpected(v, "a value for SPECIALIZE");
      uint32_t bits;
      if (ty.is("float"))
        bits = std::bit_cast<uint32_t>(static_cast<float>(v.value().asDouble()));
      else // amber takes the integer field, which a hex token leaves 0
        bits = v.kind == TokenKind::Hex ? 0 : static_cast<uint32_t>(v.value().asBits());
      p.shader->specialization[static_cast<uint32_t>(id.integer)] = bits;
    } else {
      return scriptError(t.line, "unknown ATTACH parameter: " + t.describe());
    }
  }
  return {};
}

Status AmberParser::parseSubgroup(ScriptPipeline &p) {
  Token n = tok_.next();
  auto shader = lookup(shaders_, n, "shader");
  if (!shader)
    return shader.error();
  if (!p.shader || p.shader->shader != *shader)
    return scriptError(n.line, "SUBGROUP names a shader not attached to the pipeline");
  if (Status st = endOfCommand("SUBGROUP"); !st)
    return st;
  auto hasFeature = [&](std::string_view f) {
    for (const std::string &x : s_.requirements.features)
      if (x == f)
        return true;
    return false;
  };
  for (;;) {
    Token t = tok_.next();
    if (t.isEndOfLine())
      continue;
    if (t.is("END"))
      return endOfCommand("END");
    if (t.isEnd())
      return scriptError(t.line, "SUBGROUP missing END command");
    if (t.is("FULLY_POPULATED") || t.is("VARYING_SIZE")) {
      Token v = tok_.next();
      if (!v.is("on") && !v.is("off"))
        return scriptError(v.line, t.text + " is on or off, not " + v.describe());
      bool full = t.is("FULLY_POPULATED");
      const char *feature = full ? "SubgroupSizeControl.computeFullSubgroups"
                                 : "SubgroupSizeControl.subgroupSizeControl";
      if (!hasFeature(feature))
        return scriptError(t.line, t.text + " requires DEVICE_FEATURE " + feature);
      (full ? p.shader->fullSubgroups : p.shader->varyingSubgroupSize) = v.is("on");
    } else if (t.is("REQUIRED_SIZE")) {
      if (!hasFeature("SubgroupSizeControl.subgroupSizeControl"))
        return scriptError(
            t.line,
            "REQUIRED_SIZE requires DEVICE_FEATURE SubgroupSizeControl.subgroupSizeControl");
      Token v = tok_.next();
      if (v.is("MIN"))
        p.shader->requiredSubgroupSize = kSubgroupSizeMin;
      else if (v.is("MAX"))
        p.shader->requiredSubgroupSize = kSubgroupSizeMax;
      else if (v.isInteger() && v.integer >= 1 && v.integer <= 128 &&
               (v.integer & (v.integer - 1)) == 0)
        p.shader->requiredSubgroupSize = static_cast<uint32_t>(v.integer);
      else
        return scriptError(v.line, "invalid REQUIRED_SIZE: " + v.describe());
    } else {
      return scriptError(t.line, "unknown SUBGROUP command: " + t.describe());
    }
    if (Status st = endOfCommand(t.text); !st)
      return st;
  }
}

Status AmberParser::parseShaderOptionBlock(ScriptPipeline &p, bool compileOptions) {
  Token n = tok_.next();
  auto shader = lookup(shaders_, n, "shader");
  if (!shader)
    return shader.error();
  if (!p.shader || p.shader->shader != *shader)
    return scriptError(n.line, "the shader is not attached to the pipeline");
  if (Status st = endOfCommand(compileOptions ? "COMPILE_OPTIONS" : "SHADER_OPTIMIZATION"); !st)
    return st;
  std::vector<std::string> options;
  for (;;) {
    Token t = tok_.next();
    if (t.isEndOfLine())
      continue;
    if (t.is("END"))
      break;
    if (t.isEnd())
      return scriptError(t.line, "missing END command");
    options.push_back(t.text);
  }
  if (!compileOptions)
    return scriptError(n.line, "SHADER_OPTIMIZATION needs spirv-opt, which spire run does not use");
  p.shader->compileOptions = std::move(options);
  return endOfCommand("END");
}

Status AmberParser::parseBind(ScriptPipeline &p) {
  Token what = tok_.next();
  ScriptBinding b;
  bool isArray = what.is("BUFFER_ARRAY") || what.is("SAMPLER_ARRAY");
  bool isSampler = what.is("SAMPLER") || what.is("SAMPLER_ARRAY");
  if (!what.is("BUFFER") && !isArray && !isSampler)
    return unexpected(what, "BUFFER, BUFFER_ARRAY, SAMPLER or SAMPLER_ARRAY");
  Token t = tok_.next();
  for (;; t = tok_.next()) {
    if (isSampler) {
      auto s = lookup(samplers_, t, "sampler");
      if (!s)
        return s.error();
      b.samplers.push_back(*s);
    } else {
      auto buf = lookup(buffers_, t, "buffer");
      if (!buf)
        return buf.error();
      b.buffers.push_back(*buf);
    }
    if (!isArray)
      break;
    Token peek = tok_.peek();
    if (!peek.isIdentifier() || peek.is("AS") || peek.is("DESCRIPTOR_SET") || peek.is("KERNEL"))
      break;
  }
  if (isArray && b.buffers.size() + b.samplers.size() < 2)
    return scriptError(what.line, what.text + " needs at least two names");
  t = tok_.next();
  if (isSampler) {
    b.kind = DescriptorKind::Sampler;
  } else if (t.is("AS")) {
    Token kind = tok_.next();
    if (kind.is("push_constant")) {
      if (isArray)
        return scriptError(kind.line, "a push constant buffer cannot be an array");
      p.pushConstants = b.buffers[0];
      return endOfCommand("BIND");
    }
    auto k = parseDescriptorKind(kind.text);
    if (!kind.isIdentifier() || !k)
      return scriptError(kind.line, "unknown buffer type: " + kind.describe());
    b.kind = *k;
    t = tok_.next();
    if (b.kind == DescriptorKind::CombinedImageSampler) {
      if (!t.is("SAMPLER"))
        return unexpected(t, "SAMPLER for a combined_image_sampler");
      auto s = lookup(samplers_, tok_.next(), "sampler");
      if (!s)
        return s.error();
      b.samplers.push_back(*s);
      t = tok_.next();
    }
  } else if (!t.is("KERNEL")) {
    return unexpected(t, "AS");
  }
  if (t.is("KERNEL")) {
    // OpenCL-C kernel arguments: bound through clspv's reflection, which spire does not have.
    for (Token k = tok_.next(); !k.endsCommand(); k = tok_.next()) {
    }
    return {};
  }
  if (!t.is("DESCRIPTOR_SET"))
    return unexpected(t, "DESCRIPTOR_SET");
  auto set = integer("DESCRIPTOR_SET");
  if (!set)
    return set.error();
  Token bt = tok_.next();
  if (!bt.is("BINDING"))
    return unexpected(bt, "BINDING");
  auto binding = integer("BINDING");
  if (!binding)
    return binding.error();
  b.set = *set;
  b.binding = *binding;
  size_t n = b.buffers.size() + b.samplers.size() -
             (b.kind == DescriptorKind::CombinedImageSampler ? 1 : 0);
  auto numbers = [&](std::vector<uint64_t> &out, std::string_view what) -> Status {
    for (size_t i = 0; i < n; ++i) {
      Token v = tok_.next();
      if (!v.isInteger() || v.negative)
        return unexpected(v, "an integer for " + std::string(what));
      out.push_back(v.integer);
    }
    return {};
  };
  for (t = tok_.next(); !t.endsCommand(); t = tok_.next()) {
    std::vector<uint64_t> values;
    if (t.is("OFFSET") && isDynamicKind(b.kind)) {
      if (Status st = numbers(values, "OFFSET"); !st)
        return st;
      b.dynamicOffsets.assign(values.begin(), values.end());
    } else if (t.is("DESCRIPTOR_OFFSET") && isBufferKind(b.kind)) {
      if (Status st = numbers(values, "DESCRIPTOR_OFFSET"); !st)
        return st;
      b.descriptorOffsets.assign(values.begin(), values.end());
    } else if (t.is("DESCRIPTOR_RANGE") && isBufferKind(b.kind)) {
      if (Status st = numbers(values, "DESCRIPTOR_RANGE"); !st)
        return st;
      b.descriptorRanges = values;
    } else if (t.is("BASE_MIP_LEVEL") && isImageKind(b.kind)) {
      auto v = integer("BASE_MIP_LEVEL");
      if (!v)
        return v.error();
      b.baseMipLevel = *v;
      if (*v >= s_.buffers[b.buffers[0]].mipLevels)
        return scriptError(t.line, "BASE_MIP_LEVEL exceeds the image's MIP_LEVELS");
    } else {
      return scriptError(t.line, "unexpected BIND parameter: " + t.describe());
    }
  }
  if (isDynamicKind(b.kind) && b.dynamicOffsets.empty())
    return scriptError(what.line, "a dynamic buffer binding needs an OFFSET");
  if (isBufferKind(b.kind)) {
    b.descriptorOffsets.resize(b.buffers.size(), 0);
    b.descriptorRanges.resize(b.buffers.size(), kWholeSize);
    b.dynamicOffsets.resize(isDynamicKind(b.kind) ? b.buffers.size() : 0, 0);
  }
  for (uint32_t bi : b.buffers) {
    const ScriptBuffer &buf = s_.buffers[bi];
    if (isImageKind(b.kind) && buf.width == 0)
      return scriptError(what.line, "buffer " + buf.name + " is not an image");
    if (isTexelBufferKind(b.kind) && (!buf.format || vkFormatOf(buf.format->type) == 0))
      return scriptError(what.line, "buffer " + buf.name + " has no texel format");
  }
  // A second BIND of the same set and binding replaces the first.
  for (ScriptBinding &old : p.bindings)
    if (old.set == b.set && old.binding == b.binding) {
      old = std::move(b);
      return {};
    }
  p.bindings.push_back(std::move(b));
  return {};
}

// --- Commands ---

Status AmberParser::parseCommand(const Token &t, std::vector<Command> &out, bool inRepeat) {
  if (t.is("RUN"))
    return parseRun(out);
  if (t.is("EXPECT"))
    return parseExpect(out);
  if (t.is("COPY"))
    return parseCopy(out);
  if (t.is("REPEAT")) {
    if (inRepeat)
      return scriptError(t.line, "REPEAT cannot be nested");
    return parseRepeat(out);
  }
  if (t.is("CLEAR") || t.is("CLEAR_COLOR") || t.is("CLEAR_DEPTH") || t.is("CLEAR_STENCIL"))
    return scriptError(t.line, t.text + " needs a graphics pipeline");
  return scriptError(t.line, "unknown token: " + t.describe());
}

Status AmberParser::parseRun(std::vector<Command> &out) {
  Command c;
  c.kind = Command::Kind::Run;
  Token t = tok_.next();
  c.line = t.line;
  if (t.is("TIMED_EXECUTION")) {
    c.timed = true;
    t = tok_.next();
  }
  auto p = lookup(pipelines_, t, "pipeline");
  if (!p)
    return p.error();
  if (!s_.pipelines[*p].compute)
    return scriptError(t.line, "RUN of a graphics pipeline is not supported by spire run");
  c.pipeline = *p;
  for (uint32_t &g : c.groups) {
    auto v = integer("RUN");
    if (!v)
      return v.error();
    g = *v;
  }
  if (Status st = endOfCommand("RUN"); !st)
    return st;
  out.push_back(std::move(c));
  return {};
}

Status AmberParser::parseValueList(const BufferFormat &format, std::vector<Value> &values,
                                   std::string_view what) {
  for (Token t = tok_.next(); !t.endsCommand(); t = tok_.next()) {
    Component c = detail::componentAt(format, values.size());
    if (!detail::valueFits(t, c))
      return scriptError(t.line, "invalid " + std::string(what) + " value: " + t.describe());
    values.push_back(t.value());
  }
  if (values.empty())
    return scriptError(tok_.line(), std::string(what) + " needs values");
  return {};
}

Status AmberParser::parseExpect(std::vector<Command> &out) {
  Command c;
  Token bt = tok_.next();
  c.line = bt.line;
  auto buf = lookup(buffers_, bt, "buffer");
  if (!buf)
    return buf.error();
  c.buffer = *buf;
  const ScriptBuffer &b = s_.buffers[*buf];
  Token t = tok_.next();
  if (t.is("EQ_BUFFER") || t.is("RMSE_BUFFER") || t.is("EQ_HISTOGRAM_EMD_BUFFER")) {
    if (!t.is("EQ_BUFFER"))
      return scriptError(t.line, t.text + " is not supported by spire run");
    auto other = lookup(buffers_, tok_.next(), "buffer");
    if (!other)
      return other.error();
    const ScriptBuffer &o = s_.buffers[*other];
    if (!(b.format == o.format))
      return scriptError(t.line, "EXPECT EQ_BUFFER cannot compare buffers of differing format");
    if (b.elementCount() != o.elementCount())
      return scriptError(t.line, "EXPECT EQ_BUFFER cannot compare buffers of differing size");
    if (b.width != o.width || b.height != o.height)
      return scriptError(t.line, "EXPECT EQ_BUFFER cannot compare buffers of differing dimensions");
    c.kind = Command::Kind::ExpectBuffer;
    c.otherBuffer = *other;
    if (Status st = endOfCommand("EXPECT"); !st)
      return st;
    out.push_back(std::move(c));
    return {};
  }
  if (!t.is("IDX"))
    return unexpected(t, "IDX, EQ_BUFFER");
  Token x = tok_.next();
  if (!x.isInteger() || x.negative)
    return unexpected(x, "an integer after IDX");
  Token next = tok_.next();
  if (next.isInteger()) {
    // IDX x y SIZE w h EQ_RGB[A] ...
    c.kind = Command::Kind::ExpectRgba;
    c.x = static_cast<uint32_t>(x.integer);
    c.y = static_cast<uint32_t>(next.integer);
    Token sz = tok_.next();
    if (!sz.is("SIZE"))
      return unexpected(sz, "SIZE");
    auto w = integer("SIZE");
    if (!w)
      return w.error();
    auto h = integer("SIZE");
    if (!h)
      return h.error();
    c.width = *w;
    c.height = *h;
    Token cmp = tok_.next();
    if (!cmp.is("EQ_RGB") && !cmp.is("EQ_RGBA"))
      return unexpected(cmp, "EQ_RGB or EQ_RGBA");
    c.hasAlpha = cmp.is("EQ_RGBA");
    for (unsigned i = 0; i < (c.hasAlpha ? 4u : 3u); ++i) {
      Token v = tok_.next();
      if (!v.isNumber())
        return unexpected(v, "a color value");
      c.values.push_back(v.value());
    }
    Token tol = tok_.next();
    if (tol.is("TOLERANCE")) {
      for (tol = tok_.next(); !tol.endsCommand(); tol = tok_.next()) {
        if (!tol.isNumber())
          return unexpected(tol, "a tolerance value");
        Tolerance tv{tol.value().asDouble(), false};
        if (tok_.peek().is("%")) {
          tok_.next();
          tv.percent = true;
        }
        c.tolerances.push_back(tv);
      }
    } else if (!tol.endsCommand()) {
      return scriptError(tol.line, "extra parameters after EXPECT: " + tol.describe());
    }
    if (b.width == 0)
      return scriptError(bt.line, "EXPECT EQ_RGBA needs an image");
    out.push_back(std::move(c));
    return {};
  }
  c.kind = Command::Kind::Expect;
  c.offset = x.integer;
  if (next.is("TOLERANCE")) {
    for (next = tok_.next(); next.kind == TokenKind::Integer || next.kind == TokenKind::Double;
         next = tok_.next()) {
      Tolerance tv{next.value().asDouble(), false};
      if (tok_.peek().is("%")) {
        tok_.next();
        tv.percent = true;
      }
      c.tolerances.push_back(tv);
    }
    if (c.tolerances.empty() || c.tolerances.size() > 4)
      return scriptError(next.line, "TOLERANCE takes one to four values");
    if (!next.is("EQ"))
      return scriptError(next.line, "TOLERANCE is only allowed with EQ");
  }
  static const std::pair<std::string_view, Comparator> kOps[] = {
      {"EQ", Comparator::Eq}, {"NE", Comparator::Ne}, {"LT", Comparator::Lt},
      {"LE", Comparator::Le}, {"GT", Comparator::Gt}, {"GE", Comparator::Ge}};
  bool found = false;
  for (auto [n, op] : kOps)
    if (next.is(n)) {
      c.comparator = op;
      found = true;
    }
  if (!found)
    return scriptError(next.line, "unknown comparator: " + next.describe());
  if (!c.tolerances.empty())
    c.comparator = Comparator::FuzzyEq;
  if (!b.format)
    return scriptError(bt.line, "EXPECT of a buffer without a type");
  if (Status st = parseValueList(*b.format, c.values, "EXPECT"); !st)
    return st;
  out.push_back(std::move(c));
  return {};
}

Status AmberParser::parseCopy(std::vector<Command> &out) {
  Token from = tok_.next();
  auto src = lookup(buffers_, from, "buffer");
  if (!src)
    return src.error();
  Token to = tok_.next();
  if (!to.is("TO"))
    return unexpected(to, "TO");
  auto dst = lookup(buffers_, tok_.next(), "buffer");
  if (!dst)
    return dst.error();
  if (*src == *dst)
    return scriptError(from.line, "COPY origin and destination must differ");
  if (Status st = endOfCommand("COPY"); !st)
    return st;
  Command c;
  c.kind = Command::Kind::Copy;
  c.line = from.line;
  c.buffer = *src;
  c.otherBuffer = *dst;
  out.push_back(std::move(c));
  return {};
}

Status AmberParser::parseRepeat(std::vector<Command> &out) {
  Command c;
  c.kind = Command::Kind::Repeat;
  Token n = tok_.next();
  c.line = n.line;
  if (!n.isInteger() || n.negative || n.integer == 0)
    return scriptError(n.line, "REPEAT needs a count above zero, got " + n.describe());
  c.count = n.integer;
  if (Status st = endOfCommand("REPEAT"); !st)
    return st;
  for (;;) {
    Token t = tok_.next();
    if (t.isEndOfLine())
      continue;
    if (t.isEnd())
      return scriptError(t.line, "REPEAT missing END command");
    if (t.is("END"))
      break;
    if (Status st = parseCommand(t, c.body, true); !st)
      return st;
  }
  if (Status st = endOfCommand("END"); !st)
    return st;
  out.push_back(std::move(c));
  return {};
}

Status AmberParser::parseSet() {
  Token t = tok_.next();
  if (!t.is("ENGINE_DATA"))
    return unexpected(t, "ENGINE_DATA");
  Token var = tok_.next();
  if (!var.is("fence_timeout_ms"))
    return scriptError(var.line, "unknown ENGINE_DATA variable: " + var.describe());
  auto v = integer("fence_timeout_ms");
  if (!v)
    return v.error();
  s_.fenceTimeoutMs = *v;
  return endOfCommand("SET");
}

Status AmberParser::parseRequirement(const Token &cmd) {
  Token t = tok_.next();
  if (!t.isIdentifier())
    return unexpected(t, "a name after " + cmd.text);
  Requirements &r = s_.requirements;
  if (cmd.is("DEVICE_FEATURE")) {
    if (!isKnownFeature(t.text))
      return scriptError(t.line, "unknown feature name for DEVICE_FEATURE command: " + t.text);
    r.features.push_back(t.text);
  } else if (cmd.is("DEVICE_PROPERTY")) {
    if (!isKnownProperty(t.text))
      return scriptError(t.line, "unknown property name for DEVICE_PROPERTY command: " + t.text);
    r.properties.push_back(t.text);
  } else if (cmd.is("DEVICE_EXTENSION")) {
    r.deviceExtensions.push_back(t.text);
  } else {
    r.instanceExtensions.push_back(t.text);
  }
  return endOfCommand(cmd.text);
}

} // namespace

Expected<Script> parseAmberScript(std::string_view text, const FileLoader &loader) {
  AmberParser p(text, loader);
  return p.parse();
}

Expected<Script> parseScript(std::string_view text, const FileLoader &loader) {
  if (text.starts_with("#!amber"))
    return parseAmberScript(text, loader);
  return parseVkScript(text);
}

std::string_view shaderFormatName(ShaderFormat format) {
  switch (format) {
  case ShaderFormat::Glsl:
    return "GLSL";
  case ShaderFormat::Hlsl:
    return "HLSL";
  case ShaderFormat::SpirvAsm:
    return "SPIRV-ASM";
  case ShaderFormat::SpirvHex:
    return "SPIRV-HEX";
  case ShaderFormat::SpirvBin:
    return "SPIRV-BIN";
  case ShaderFormat::OpenClC:
    return "OPENCL-C";
  }
  return "";
}

std::string_view comparatorSymbol(Comparator c) {
  switch (c) {
  case Comparator::Eq:
    return "==";
  case Comparator::Ne:
    return "!=";
  case Comparator::Lt:
    return "<";
  case Comparator::Le:
    return "<=";
  case Comparator::Gt:
    return ">";
  case Comparator::Ge:
    return ">=";
  case Comparator::FuzzyEq:
    return "~=";
  }
  return "";
}

} // namespace spire::run
