// spire-run: the runner behind `spire run`, linked dynamically so that it can load the Vulkan
// loader and driver at run time (the spire program execs it). It runs AmberScript and VkScript
// files, or one shader module with buffers given on the command line.
#include "../CommandLine.h"

#include "spire/asm/Assembler.h"
#include "spire/dialect/Serialization.h"
#include "spire/dialect/Text.h"
#include "spire/dialect/Verifier.h"
#include "spire/run/DataType.h"
#include "spire/run/Device.h"
#include "spire/run/PipelineCheck.h"
#include "spire/run/Reflection.h"
#include "spire/run/ScriptRunner.h"
#include "spire/run/ShaderRun.h"
#include "spire/support/File.h"
#include "spire/support/TargetEnv.h"
#include "spire/translate/DxilToSpirv.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <mutex>
#include <thread>

namespace spire::tool {

namespace {

namespace fs = std::filesystem;
using run::ScriptResult;

constexpr const char *kHelp =
    R"(spire run - run compute shaders and AmberScript/VkScript tests on a Vulkan device

Usage: spire run [options] <test.amber|test.vkscript>...
       spire run [options] <shader.spv|.spvasm|.mlir|.dxil> [--buffer S:B=DATA]...
                 [--dispatch X,Y,Z] [--dump S:B[:TYPE][=FILE]]...
       spire run --create-pipeline [options] <shader.spv|.spvasm|.mlir|.dxil>...

Scripts: every file is parsed as amber parses it (AmberScript when it starts with #!amber,
VkScript otherwise) and run; one line per test (PASS, FAIL with the first difference, SKIP with
the reason) and a summary line. A test the device cannot run (a missing feature or extension,
an OpenCL C kernel) is skipped, not failed.

A shader: its bindings come from the module's own interface (see --reflect); buffers not given
are zero-filled. A DXIL container (.dxil) is translated first (spire translate --dxil-to-spirv,
its default binding model: set = space, binding = register + 0 for SRVs, 1000 for UAVs, 2000
for CBVs); --entry picks among several compute entry points. DATA is one of
  random:SEED:BYTES              deterministic pseudo-random bytes
  zero:BYTES                     zeros
  series:TYPE:START:STEP:COUNT   e.g. series:uint32:0:1:64
  fill:TYPE:VALUE:COUNT          e.g. fill:float:1.5:16
  data:TYPE:V1,V2,...            e.g. data:vec2<float>:1,2,3,4
  <file> | file:<file>           the file's bytes
TYPE is an amber type (uint32, int8, float16, vec4<float>, mat2x3<float>, ...), std430.
An array of N buffer descriptors takes DATA in N equal parts, one buffer each (--dump prints
them one after the other). An acceleration structure (ray queries) takes triangles as DATA,
three vertices of three floats each (data:float:x0,y0,z0,x1,...): one instance of them, the
identity transform, mask 0xFF; without DATA it is empty and every ray misses. A multisampled
image has 4 samples, starts cleared to zero, takes no DATA and is not read back.

--create-pipeline: for every entry point of every shader (a DXIL container: every entry point
it translates to), creates its pipeline with the validation layers on (they must be installed)
and prints "<file>: <entry> (<model>): ok", "skipped: <why>" or "rejected", each validation
message on a line of its own after it. Compute shaders get a compute pipeline, vertex shaders a
graphics pipeline of their own (rasterizer discard), fragment shaders one with a generated
vertex shader that writes their inputs; the layout comes from the modules' interfaces and the
attachments and vertex attributes match them. Before each pipeline the logical device is made
again with exactly the extensions and features the module's capabilities and the pipeline need
(--all-features: one device with every supported feature serves them all). An entry point the
device cannot run is skipped with the reason. Any rejection, or an input that does not load or
translate, makes the exit status 1.

Options:
  --create-pipeline      create the pipelines of the shaders' entry points (see above)
  --all-features         with --create-pipeline: every supported feature on one device
  --vertex <shader>      with --create-pipeline: the vertex shader of the fragment shaders'
                         pipelines (the layers then check the interface between the two); a
                         DXIL one also links DXIL fragment shaders' inputs to its outputs, as
                         spire translate --previous-stage does
  --via <how>            run every shader through spire first: asm (spire dis, then spire as),
                         roundtrip (the structured IR: deserialize, print, parse, serialize),
                         opt=<passes> (spire opt's passes, e.g. opt=canonicalize)
  --device <n|name>      the device by index or by part of its name (default: the first GPU,
                         else the first device, e.g. lavapipe). "lavapipe" or "llvmpipe" has
                         the loader load lavapipe's driver alone, which starts faster (unless
                         the environment chooses drivers: VK_DRIVER_FILES, VK_ICD_FILENAMES,
                         VK_ADD_DRIVER_FILES, VK_LOADER_DRIVERS_SELECT or _DISABLE); the
                         default and an index need every driver loaded to see every device
  --list-devices         print the devices and exit
  --no-validation-layers do not turn on VK_LAYER_KHRONOS_validation (on by default when
                         installed; a validation message fails a test)
  --require-validation-layers  fail when the validation layers are not installed
  --target-env <env>     the environment of shaders without one (scripts: spv1.0, as amber)
  --no-validate          do not validate shaders with spire val before running them
  --requirements <file>  requirements a test suite adds outside its scripts, by file name
                         ("<file> env=... feature=... extension=... skip-if-feature=...")
  -j <n>                 run n scripts at a time (each on its own device)
  --format <f>           text (default) or json (one object per line, then a summary)
  --stats                print where the time went (standard error)
  --buffer S:B=DATA      a shader's buffer at set S, binding B
  --push DATA            a shader's push constants
  --address OFF=DATA     a buffer the shader reaches by its device address, which goes into the
                         push constants at byte OFF (root descriptors as addresses: spire
                         translate --root-descriptors-as-addresses); --dump @OFF reads it back
  --view-format S:B=FMT  the format of the texel buffer or image at S:B (R32_UINT; default: the
                         module's, else R32G32B32A32 of its sampled type). Images are 1D 64,
                         2D 16x16, 3D 8x8x8, cube 8x8 (arrayed: 4 layers); --buffer gives their
                         texels, samplers are nearest and repeat; --dump reads images back too
  --descriptors N        descriptors bound to each runtime array of descriptors (default: refuse)
  --spec ID=VALUE        a specialization constant (as the constant's type in the module)
  --entry <name>         the entry point (default: the first compute one)
  --dispatch X,Y,Z       workgroups to dispatch (default 1,1,1)
  --dump S:B[:TYPE][=FILE]  print a binding (or @OFF, an --address buffer) after the run: hex,
                         typed values, or to a file
  --timed                measure the dispatch with timestamps
  --reflect              print the shader's interface (with --format json: as JSON) and exit
  -h, --help             print this help

Exit status: 0 every test passed or was skipped, 1 a test failed (a pipeline was rejected), a
file is invalid or there is no Vulkan, 2 usage error.
)";

using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

struct Options {
  std::vector<std::string> inputs;
  run::DeviceOptions device;
  run::CompileOptions compile;
  std::vector<std::string> requirementsFiles;
  unsigned jobs = 1;
  bool json = false, stats = false, listDevices = false, reflectOnly = false, timed = false;
  bool targetEnvGiven = false;
  bool createPipeline = false, allFeatures = false;
  std::string vertexShader; ///< --vertex
  // Shader mode.
  std::vector<std::pair<std::string, std::string>> buffers; // binding, spec
  std::vector<std::pair<uint32_t, std::string>> addressed;  // push constant offset, spec
  std::string push, entry;
  std::vector<std::pair<std::string, std::string>> viewFormats; // binding, format name
  uint32_t descriptors = 0;
  std::vector<std::string> specs, dumps;
  uint32_t groups[3] = {1, 1, 1};
};

enum class InputKind { Script, Binary, Assembly, Mlir, Dxil };

InputKind classify(const std::string &path, std::span<const uint8_t> bytes) {
  std::string ext = fs::path(path).extension().string();
  if (ext == ".amber" || ext == ".vkscript")
    return InputKind::Script;
  if (ext == ".dxil")
    return InputKind::Dxil;
  if (bytes.size() >= 4) {
    uint32_t w;
    std::memcpy(&w, bytes.data(), 4);
    if (w == 0x07230203u || w == 0x03022307u)
      return InputKind::Binary;
    if (std::memcmp(bytes.data(), "DXBC", 4) == 0)
      return InputKind::Dxil;
  }
  if (ext == ".spv")
    return InputKind::Binary;
  if (ext == ".spvasm")
    return InputKind::Assembly;
  if (ext == ".mlir")
    return InputKind::Mlir;
  std::string_view text(reinterpret_cast<const char *>(bytes.data()), bytes.size());
  if (text.find("spirv.module") != std::string_view::npos)
    return InputKind::Mlir;
  if (text.find("OpCapability") != std::string_view::npos && !text.starts_with("#!amber") &&
      text.find("[compute shader") == std::string_view::npos &&
      text.find("SHADER ") == std::string_view::npos)
    return InputKind::Assembly;
  return InputKind::Script;
}

std::string jsonQuote(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
      continue;
    }
    out += c;
  }
  return out + "\"";
}

/// With a --device that names lavapipe, asks the loader to load lavapipe's driver alone (the
/// others are opened only to find devices this run will not use) and no device-selection layer
/// (Mesa's implicit layer orders the devices of several drivers); not when the environment
/// already chooses the drivers. Called before any thread starts or the loader is opened.
void selectDriver(const std::string &device) {
  std::string glob = run::driverManifestGlob(device);
  if (glob.empty())
    return;
  for (const char *v : {"VK_DRIVER_FILES", "VK_ICD_FILENAMES", "VK_ADD_DRIVER_FILES",
                        "VK_LOADER_DRIVERS_SELECT", "VK_LOADER_DRIVERS_DISABLE"})
    if (std::getenv(v))
      return;
  ::setenv("VK_LOADER_DRIVERS_SELECT", glob.c_str(), 1);
  ::setenv("NODEVICE_SELECT", "1", 0);
}

/// One line saying that a run cannot start (no Vulkan, no device), then exit 1.
int noDevice(const Diagnostic &d) {
  std::fprintf(stderr, "spire run: %s\n", d.message.c_str());
  return kInvalidInput;
}

// --- scripts ---

struct ScriptJob {
  std::string path;
  /// Parsed and its shaders compiled ahead, on the main thread while the devices are made.
  enum class Ahead : uint8_t { No, Busy, Ready } ahead = Ahead::No;
  std::optional<Expected<run::Script>> script;
  run::CompiledShaders shaders;
  ScriptResult result;
  bool done = false;
};

run::RunOptions runOptions(const ScriptJob &job, const Options &o,
                           const std::map<std::string, run::ExtraRequirements> &extra) {
  run::RunOptions ro;
  ro.compile = o.compile;
  auto it = extra.find(fs::path(job.path).filename().string());
  if (it != extra.end())
    ro.extra = &it->second;
  return ro;
}

/// Parses a job's script and compiles its shaders, which needs no device.
void prepareScript(ScriptJob &job, const Options &o,
                   const std::map<std::string, run::ExtraRequirements> &extra) {
  job.script = run::parseScriptFile(job.path);
  if (*job.script)
    job.shaders = run::compileScriptShaders(**job.script, runOptions(job, o, extra));
}

ScriptResult runOneScript(run::VulkanContext &ctx, ScriptJob &job, const Options &o,
                          const std::map<std::string, run::ExtraRequirements> &extra) {
  bool ahead = job.ahead == ScriptJob::Ahead::Ready;
  if (!ahead)
    job.script = run::parseScriptFile(job.path);
  Expected<run::Script> &script = *job.script;
  ScriptResult r;
  if (!script) {
    r.outcome = ScriptResult::Outcome::Fail;
    r.line = script.error().location.line;
    r.message = script.error().message;
    return r;
  }
  r = run::runScript(ctx, *script, runOptions(job, o, extra), ahead ? &job.shaders : nullptr);
  job.script.reset();
  job.shaders = {};
  return r;
}

int runScripts(const Options &o) {
  std::map<std::string, run::ExtraRequirements> extra;
  for (const std::string &file : o.requirementsFiles) {
    auto bytes = readFile(file);
    if (!bytes) {
      report(bytes.error(), file);
      return kInvalidInput;
    }
    Status parsed = run::parseExtraRequirements(
        std::string_view(reinterpret_cast<const char *>(bytes->data()), bytes->size()), extra);
    if (!parsed) {
      std::fprintf(stderr, "%s:%u: %s\n", file.c_str(), parsed.error().location.line,
                   parsed.error().message.c_str());
      return kInvalidInput;
    }
  }
  std::vector<ScriptJob> jobs(o.inputs.size());
  for (size_t i = 0; i < jobs.size(); ++i)
    jobs[i].path = o.inputs[i];
  std::mutex mu;
  std::condition_variable cv;
  std::atomic<size_t> next{0};
  std::optional<Diagnostic> deviceError;
  unsigned devicesReady = 0;
  double deviceMs = 0, instanceMs = 0, logicalMs = 0;
  unsigned workers = std::max(1u, std::min<unsigned>(o.jobs, static_cast<unsigned>(jobs.size())));
  auto work = [&] {
    Clock::time_point t0 = Clock::now();
    auto ctx = run::VulkanContext::create(o.device);
    {
      std::lock_guard<std::mutex> lock(mu);
      deviceMs += msSince(t0);
      if (!ctx && !deviceError)
        deviceError = ctx.error();
      if (ctx) {
        instanceMs += (*ctx)->instanceMilliseconds();
        logicalMs += (*ctx)->deviceMilliseconds();
        ++devicesReady;
      }
    }
    for (size_t i; (i = next++) < jobs.size();) {
      {
        std::unique_lock<std::mutex> lock(mu);
        cv.wait(lock, [&] { return jobs[i].ahead != ScriptJob::Ahead::Busy; });
      }
      ScriptResult r;
      if (ctx)
        r = runOneScript(**ctx, jobs[i], o, extra);
      std::lock_guard<std::mutex> lock(mu);
      jobs[i].result = std::move(r);
      jobs[i].done = true;
      cv.notify_all();
    }
  };
  std::vector<std::thread> threads;
  for (unsigned w = 0; w < workers; ++w)
    threads.emplace_back(work);
  // Until a device is ready, this thread parses the first scripts and compiles their shaders:
  // making a device (the loader loading the drivers) and the first GLSL shader (glslang building
  // its built-in tables) each take over 100 ms of CPU on lavapipe, and need not wait for each
  // other. Workers take these scripts as they are.
  for (size_t i = 0; i < jobs.size(); ++i) {
    {
      std::lock_guard<std::mutex> lock(mu);
      if (devicesReady || deviceError)
        break;
      jobs[i].ahead = ScriptJob::Ahead::Busy;
    }
    prepareScript(jobs[i], o, extra);
    std::lock_guard<std::mutex> lock(mu);
    jobs[i].ahead = ScriptJob::Ahead::Ready;
    cv.notify_all();
  }
  size_t passed = 0, failed = 0, skipped = 0;
  run::Timings total;
  for (size_t i = 0; i < jobs.size(); ++i) {
    std::unique_lock<std::mutex> lock(mu);
    cv.wait(lock, [&] { return jobs[i].done; });
    if (deviceError)
      break;
    const ScriptResult &r = jobs[i].result;
    std::string line = o.json ? run::resultJson(jobs[i].path, r) : run::resultLine(jobs[i].path, r);
    std::printf("%s\n", line.c_str());
    std::fflush(stdout);
    passed += r.outcome == ScriptResult::Outcome::Pass;
    failed += r.outcome == ScriptResult::Outcome::Fail;
    skipped += r.outcome == ScriptResult::Outcome::Skip;
    total.compileMs += r.timings.compileMs;
    total.pipelineMs += r.timings.pipelineMs;
    total.runMs += r.timings.runMs;
    total.timedGpuMs += r.timings.timedGpuMs;
  }
  for (std::thread &t : threads)
    t.join();
  if (deviceError)
    return noDevice(*deviceError);
  std::string via = o.compile.via.kind == run::Via::Kind::None ? "" : o.compile.via.name();
  if (o.json)
    std::printf("{\"summary\":{\"passed\":%zu,\"failed\":%zu,\"skipped\":%zu,\"via\":%s}}\n",
                passed, failed, skipped, jsonQuote(via).c_str());
  else
    std::printf("%zu passed, %zu failed, %zu skipped%s\n", passed, failed, skipped,
                via.empty() ? "" : (" (via " + via + ")").c_str());
  if (o.stats)
    std::fprintf(stderr,
                 "spire run: %zu scripts, %u device(s): instance and device %.1f ms (instance "
                 "%.1f, device %.1f), shaders %.1f ms, pipelines %.1f ms, commands %.1f ms (timed "
                 "dispatches %.3f ms on the device)\n",
                 jobs.size(), workers, deviceMs, instanceMs, logicalMs, total.compileMs,
                 total.pipelineMs, total.runMs, total.timedGpuMs);
  return failed ? kInvalidInput : kSuccess;
}

// --- one shader ---

/// DXIL is translated for the device it runs on: compute derivatives through the extension it
/// has (current drivers have only the KHR one), and typed UAVs that are read with their R32
/// format when it cannot read storage images without one.
void adaptToDevice(const run::VulkanContext *ctx, translate::DxilTranslateOptions &options) {
  if (!ctx)
    return;
  options.khrComputeDerivatives = !ctx->extensionUsable("VK_NV_compute_shader_derivatives") &&
                                  ctx->extensionUsable("VK_KHR_compute_shader_derivatives");
  options.typedUavReadsR32 = !ctx->hasFeature("shaderStorageImageReadWithoutFormat");
}

Expected<std::vector<uint32_t>> loadShader(const run::VulkanContext *device,
                                           const std::string &path, InputKind kind,
                                           std::span<const uint8_t> bytes, uint32_t version,
                                           const std::string &entry) {
  std::string_view text(reinterpret_cast<const char *>(bytes.data()), bytes.size());
  if (kind == InputKind::Dxil) {
    // Translated by spire's DXIL translator (the default binding model: `spire translate
    // --dxil-to-spirv --bindings json` prints where each register went; --reflect shows it too).
    translate::DxilTranslateOptions options;
    options.entry = entry;
    adaptToDevice(device, options);
    auto shaders = translate::translateDxilBytes(bytes, options);
    if (!shaders)
      return shaders.error();
    for (translate::TranslatedShader &s : *shaders)
      if (s.kind == dxil::ShaderKind::Compute)
        return std::move(s.words);
    return makeError({}, "the program has no compute entry point" +
                             std::string(entry.empty() ? "" : " named '" + entry + "'"));
  }
  if (kind == InputKind::Binary) {
    auto m = Module::fromBytes(bytes);
    if (!m)
      return m.error();
    return std::vector<uint32_t>(m->words().begin(), m->words().end());
  }
  if (kind == InputKind::Assembly) {
    AssembleOptions ao;
    ao.version = version;
    return assemble(text, ao);
  }
  dialect::Context dialectContext;
  auto op = dialect::parse(dialectContext, text);
  if (!op)
    return op.error();
  if (Status s = dialect::verify(**op); !s)
    return s.error();
  return dialect::serialize(**op);
}

/// The version an assembly text says it is for: the "; Version: X.Y" line of the header comment
/// that spire dis and spirv-dis write; 0 when it says none (the device's newest is used, up to
/// SPIR-V 1.6, the default of spire as).
uint32_t assemblyVersion(std::span<const uint8_t> bytes) {
  std::string_view text(reinterpret_cast<const char *>(bytes.data()), bytes.size());
  size_t pos = 0;
  while (pos < text.size() && text[pos] == ';') {
    size_t eol = text.find('\n', pos);
    std::string_view line = text.substr(pos, eol == std::string_view::npos ? text.npos : eol - pos);
    unsigned major = 0, minor = 0;
    if (std::sscanf(std::string(line).c_str(), "; Version: %u.%u", &major, &minor) == 2 &&
        major == 1 && minor <= 6)
      return (major << 16) | (minor << 8);
    if (eol == std::string_view::npos)
      break;
    pos = eol + 1;
  }
  return 0;
}

int runShaderFile(const Options &o, InputKind kind, std::span<const uint8_t> bytes) {
  const std::string &path = o.inputs[0];
  Clock::time_point t0 = Clock::now();
  // The reflection needs no device: --reflect works without Vulkan. The device is made after
  // the shader is loaded (a bad shader costs no device), except for an assembly text that says
  // no SPIR-V version: it is assembled for the newest the device takes.
  uint32_t version = 0x00010600;
  std::unique_ptr<run::VulkanContext> ctx;
  double deviceMs = 0;
  auto makeDevice = [&]() -> bool {
    Clock::time_point start = Clock::now();
    auto c = run::VulkanContext::create(o.device);
    if (!c) {
      noDevice(c.error());
      return false;
    }
    ctx = std::move(*c);
    deviceMs = msSince(start);
    return true;
  };
  if (kind == InputKind::Assembly)
    if (uint32_t v = assemblyVersion(bytes))
      version = v;
  if (o.targetEnvGiven)
    if (auto te = parseTargetEnv(o.compile.defaultTargetEnv))
      version = targetEnvVersion(*te);
  if (!o.reflectOnly && kind == InputKind::Assembly && !o.targetEnvGiven &&
      !assemblyVersion(bytes)) {
    if (!makeDevice())
      return kInvalidInput;
    version = std::min(version, ctx->maxSpirvVersion());
  }
  // DXIL is translated for the device (adaptToDevice), which is made first then.
  if (!o.reflectOnly && kind == InputKind::Dxil && !ctx && !makeDevice())
    return kInvalidInput;
  auto words = loadShader(ctx.get(), path, kind, bytes, version, o.entry);
  if (!words) {
    report(words.error(), path);
    return kInvalidInput;
  }
  std::string env = "spv" + std::to_string(((*words)[1] >> 16) & 0xFF) + "." +
                    std::to_string(((*words)[1] >> 8) & 0xFF);
  if (o.compile.validate)
    if (Status s = run::validateModule(*words, env); !s) {
      std::fprintf(stderr, "%s: %s\n", path.c_str(), s.error().message.c_str());
      return kInvalidInput;
    }
  auto via = run::applyVia(std::move(*words), o.compile.via, o.compile.validate ? env : "");
  if (!via) {
    std::fprintf(stderr, "%s: %s\n", path.c_str(), via.error().message.c_str());
    return kInvalidInput;
  }
  auto module = Module::fromWords(*via);
  if (!module) {
    report(module.error(), path);
    return kInvalidInput;
  }
  auto mi = run::reflect(*module);
  if (!mi) {
    report(mi.error(), path);
    return kInvalidInput;
  }
  if (o.reflectOnly) {
    std::string out = o.json ? run::interfaceJson(*mi) + "\n" : run::formatInterface(*mi);
    std::fputs(out.c_str(), stdout);
    return kSuccess;
  }
  run::ShaderRunRequest req;
  req.words = *via;
  req.entryPoint = o.entry;
  req.timed = o.timed;
  std::copy(std::begin(o.groups), std::end(o.groups), req.groups);
  auto loader = [](const std::string &p) { return readFile(p); };
  for (const auto &[name, spec] : o.buffers) {
    auto key = run::parseBindingName(name);
    auto data = run::bufferFromSpec(spec, loader);
    if (!data) {
      std::fprintf(stderr, "spire run: %s\n", data.error().message.c_str());
      return kInvalidInput;
    }
    req.buffers[*key] = std::move(*data);
  }
  for (const auto &[name, format] : o.viewFormats)
    req.formats[*run::parseBindingName(name)] = run::vkFormatOf(*run::parseFormatName(format));
  req.runtimeArrayDescriptors = o.descriptors;
  for (const auto &[offset, spec] : o.addressed) {
    auto data = run::bufferFromSpec(spec, loader);
    if (!data) {
      std::fprintf(stderr, "spire run: %s\n", data.error().message.c_str());
      return kInvalidInput;
    }
    req.addressBuffers[offset] = std::move(*data);
  }
  if (!o.push.empty()) {
    auto data = run::bufferFromSpec(o.push, loader);
    if (!data) {
      std::fprintf(stderr, "spire run: %s\n", data.error().message.c_str());
      return kInvalidInput;
    }
    req.pushConstants = std::move(*data);
  }
  for (const std::string &s : o.specs) {
    size_t eq = s.find('=');
    uint32_t id = static_cast<uint32_t>(std::stoul(s.substr(0, eq)));
    std::string value = s.substr(eq + 1);
    std::string type = "uint32";
    for (const run::SpecConstant &sc : mi->specConstants)
      if (sc.id == id)
        type = sc.type;
    auto bytesOf = run::bufferFromSpec(
        "data:" + (type == "bool" ? std::string("uint32") : type) + ":" + value, loader);
    if (!bytesOf || bytesOf->size() < 4) {
      std::fprintf(stderr, "spire run: --spec %s: not a 32-bit %s value\n", s.c_str(),
                   type.c_str());
      return kInvalidInput;
    }
    uint32_t bits;
    std::memcpy(&bits, bytesOf->data(), 4);
    req.specialization[id] = bits;
  }
  if (!ctx && !makeDevice())
    return kInvalidInput;
  auto result = run::runShader(*ctx, *mi, req);
  if (!result) {
    std::fprintf(stderr, "%s: %s\n", path.c_str(), result.error().message.c_str());
    return kInvalidInput;
  }
  int status = kSuccess;
  for (const std::string &m : result->validationMessages) {
    std::fprintf(stderr, "%s: validation: %s\n", path.c_str(), m.c_str());
    status = kInvalidInput;
  }
  for (const std::string &d : o.dumps) {
    std::string spec = d, file;
    size_t eq = spec.find('=');
    if (eq != std::string::npos) {
      file = spec.substr(eq + 1);
      spec = spec.substr(0, eq);
    }
    size_t c1 = spec.find(':'), c2 = c1 == std::string::npos ? c1 : spec.find(':', c1 + 1);
    std::string name = spec.substr(0, c2),
                type = c2 == std::string::npos ? "" : spec.substr(c2 + 1);
    if (c2 == std::string::npos && c1 != std::string::npos && !run::parseBindingName(spec)) {
      name = spec.substr(0, c1);
      type = spec.substr(c1 + 1);
    }
    // S:B names a binding, @OFFSET a buffer reached by the address at that push offset.
    const std::vector<uint8_t> *found = nullptr;
    std::string title;
    if (name.starts_with('@')) {
      const std::string digits = name.substr(1);
      auto it = !digits.empty() && digits.size() <= 4 &&
                        digits.find_first_not_of("0123456789") == std::string::npos
                    ? result->addressBuffers.find(uint32_t(std::stoul(digits)))
                    : result->addressBuffers.end();
      if (it != result->addressBuffers.end()) {
        found = &it->second;
        title = "address at push offset " + digits;
      }
    } else if (auto key = run::parseBindingName(name)) {
      auto it = result->buffers.find(*key);
      if (it != result->buffers.end()) {
        found = &it->second;
        title = "binding " + std::to_string(key->first) + ":" + std::to_string(key->second);
      }
    }
    if (!found) {
      std::fprintf(stderr, "spire run: --dump %s: no such buffer binding or address\n", d.c_str());
      return kUsageError;
    }
    const std::vector<uint8_t> &data = *found;
    if (!file.empty()) {
      if (Status s = writeFileAtomic(file, data); !s) {
        report(s.error(), file);
        return kInvalidInput;
      }
      continue;
    }
    std::printf("%s (%zu bytes)%s\n", title.c_str(), data.size(),
                type.empty() ? "" : (" as " + type).c_str());
    if (type.empty()) {
      std::fputs(run::hexDump(data).c_str(), stdout);
    } else {
      auto ty = run::parseAmberType(type);
      if (!ty)
        ty = run::parseFormatName(type);
      if (!ty) {
        std::fprintf(stderr, "spire run: --dump %s: unknown type %s\n", d.c_str(), type.c_str());
        return kUsageError;
      }
      std::fputs(run::formatElements(run::layoutOf(*ty), data).c_str(), stdout);
    }
  }
  if (o.stats || o.timed)
    std::fprintf(stderr, "spire run: device %.1f ms, dispatch %.3f ms (GPU), total %.1f ms\n",
                 deviceMs, result->gpuMilliseconds, msSince(t0));
  return status;
}

// --- pipeline creation ---

/// The modules of one input with the entry point each is for (empty: all of its entry points);
/// a DXIL input's inputs linked to `previousStage` when it is not empty.
Expected<std::vector<std::pair<std::string, std::vector<uint32_t>>>>
modulesOf(const run::VulkanContext &ctx, const std::string &path, InputKind kind, uint32_t version,
          const Options &o, std::vector<translate::StageOutput> previousStage = {}) {
  auto bytes = readFile(path);
  if (!bytes)
    return bytes.error();
  std::vector<std::pair<std::string, std::vector<uint32_t>>> out;
  if (kind == InputKind::Dxil) {
    translate::DxilTranslateOptions options;
    options.entry = o.entry;
    options.previousStage = std::move(previousStage);
    adaptToDevice(&ctx, options);
    auto shaders = translate::translateDxilBytes(*bytes, options);
    if (!shaders)
      return shaders.error();
    // One module an entry point, whose SPIR-V name may differ from its DXIL export name (a
    // node shader's is its node ID): all its entry points are checked.
    for (translate::TranslatedShader &s : *shaders)
      out.push_back({"", std::move(s.words)});
    return out;
  }
  if (kind == InputKind::Assembly && !o.targetEnvGiven) // --target-env wins, as for runs
    if (uint32_t v = assemblyVersion(*bytes))
      version = v;
  auto words = loadShader(&ctx, path, kind, *bytes, version, o.entry);
  if (!words)
    return words.error();
  out.push_back({o.entry, std::move(*words)});
  return out;
}

/// The module of `--vertex` with a Vertex entry point; a DXIL one's outputs in `previousStage`,
/// to link DXIL fragment shaders to it (spire translate --previous-stage).
Status loadVertexShader(const run::VulkanContext &ctx, const Options &o, uint32_t version,
                        std::vector<uint32_t> &vertexShader,
                        std::vector<translate::StageOutput> &previousStage) {
  auto bytes = readFile(o.vertexShader);
  if (!bytes)
    return bytes.error();
  const InputKind kind = classify(o.vertexShader, *bytes);
  if (kind == InputKind::Script)
    return makeError({}, "a script is not a vertex shader");
  Options vertexOptions = o;
  vertexOptions.entry.clear();
  auto modules = modulesOf(ctx, o.vertexShader, kind, version, vertexOptions);
  if (!modules)
    return modules.error();
  for (auto &[entry, words] : *modules) {
    auto m = Module::fromWords(words);
    auto mi = m ? run::reflect(*m) : Expected<run::ModuleInterface>(m.error());
    if (mi && std::any_of(mi->entryPoints.begin(), mi->entryPoints.end(),
                          [](const run::EntryPoint &e) { return e.model == "Vertex"; })) {
      vertexShader = std::move(words);
      break;
    }
  }
  if (vertexShader.empty())
    return makeError({}, "no vertex shader in it");
  if (kind == InputKind::Dxil) {
    auto outputs = translate::stageOutputsOf(*bytes);
    if (!outputs)
      return outputs.error();
    previousStage = std::move(*outputs);
  }
  return {};
}

int createPipelines(const Options &o, const std::vector<InputKind> &kinds) {
  run::DeviceOptions device = o.device;
  device.requireValidation = device.validation;
  auto ctx = run::VulkanContext::create(device);
  if (!ctx)
    return noDevice(ctx.error());
  uint32_t version = std::min<uint32_t>(0x00010600, (*ctx)->maxSpirvVersion());
  if (o.targetEnvGiven)
    if (auto te = parseTargetEnv(o.compile.defaultTargetEnv))
      version = targetEnvVersion(*te);
  // --vertex: the vertex shader of every fragment shader's pipeline.
  std::vector<uint32_t> vertexShader;
  std::vector<translate::StageOutput> previousStage;
  if (!o.vertexShader.empty())
    if (Status s = loadVertexShader(**ctx, o, version, vertexShader, previousStage); !s) {
      report(s.error(), o.vertexShader);
      return kInvalidInput;
    }
  int status = kSuccess;
  size_t accepted = 0, rejected = 0, skipped = 0, failed = 0;
  for (size_t i = 0; i < o.inputs.size(); ++i) {
    const std::string &path = o.inputs[i];
    auto modules = modulesOf(**ctx, path, kinds[i], version, o, previousStage);
    if (!modules) {
      std::printf("%s: not loaded: %s\n", path.c_str(), modules.error().message.c_str());
      std::fflush(stdout);
      ++failed;
      status = kInvalidInput;
      continue;
    }
    for (const auto &[entry, words] : *modules) {
      run::PipelineCheckOptions options;
      options.exactFeatures = !o.allFeatures;
      options.vertexShader = vertexShader;
      auto checks = run::checkPipelines(**ctx, words, entry, options);
      if (!checks) {
        std::printf("%s: %s%snot loaded: %s\n", path.c_str(), entry.c_str(),
                    entry.empty() ? "" : ": ", checks.error().message.c_str());
        ++failed;
        status = kInvalidInput;
        continue;
      }
      for (const run::PipelineCheck &c : *checks) {
        std::printf("%s: %s (%s): %s\n", path.c_str(), c.entry.c_str(), c.model.c_str(),
                    run::describeCheck(c).c_str());
        accepted += c.outcome == run::PipelineCheck::Outcome::Accepted;
        skipped += c.outcome == run::PipelineCheck::Outcome::Skipped;
        if (c.outcome == run::PipelineCheck::Outcome::Rejected) {
          ++rejected;
          status = kInvalidInput;
        }
      }
    }
    std::fflush(stdout);
  }
  if (o.inputs.size() > 1 || o.stats)
    std::printf("%zu accepted, %zu rejected, %zu skipped, %zu not loaded (on %s%s)\n", accepted,
                rejected, skipped, failed, (*ctx)->deviceName().c_str(),
                (*ctx)->validationEnabled() ? ", validation layers on" : "");
  return status;
}

bool parseGroups(std::string_view v, uint32_t (&groups)[3]) {
  unsigned n = 0;
  size_t pos = 0;
  while (n < 3) {
    size_t comma = v.find(',', pos);
    std::string part(
        v.substr(pos, comma == std::string_view::npos ? std::string_view::npos : comma - pos));
    if (part.empty() || part.find_first_not_of("0123456789") != std::string::npos ||
        part.size() > 10)
      return false;
    unsigned long x = std::stoul(part);
    if (x > 0xFFFFFFFFul)
      return false;
    groups[n++] = static_cast<uint32_t>(x);
    if (comma == std::string_view::npos)
      break;
    pos = comma + 1;
  }
  for (unsigned i = n; i < 3; ++i)
    groups[i] = 1;
  return n >= 1 && v.find(',', pos) == std::string_view::npos;
}

} // namespace

int runRun(std::span<char *const> args) {
  Options o;
  constexpr std::string_view withValue[] = {
      "--via",         "--device",      "--target-env", "--requirements", "-j",         "--format",
      "--buffer",      "--push",        "--spec",       "--entry",        "--dispatch", "--dump",
      "--view-format", "--descriptors", "--address",    "--vertex"};
  ArgScanner scanner("run", args);
  bool ok = scanner.scan(
      withValue,
      [&](std::string_view flag, std::string_view value) {
        std::string v(value);
        if (flag == "--via") {
          auto via = run::Via::parse(value);
          if (!via) {
            usageError("run", "--via is asm, roundtrip or opt=<passes>, not '" + v + "'");
            return false;
          }
          o.compile.via = *via;
        } else if (flag == "--device") {
          o.device.device = v;
        } else if (flag == "--list-devices") {
          o.listDevices = true;
        } else if (flag == "--no-validation-layers") {
          o.device.validation = false;
        } else if (flag == "--require-validation-layers") {
          o.device.requireValidation = true;
        } else if (flag == "--target-env") {
          if (!parseTargetEnv(value)) {
            usageError("run", "unknown target environment '" + v + "'");
            return false;
          }
          o.compile.defaultTargetEnv = v;
          o.targetEnvGiven = true;
        } else if (flag == "--no-validate") {
          o.compile.validate = false;
        } else if (flag == "--requirements") {
          o.requirementsFiles.push_back(v);
        } else if (flag == "-j" || (flag.starts_with("-j") && flag.size() > 2)) {
          if (flag.size() > 2)
            v = std::string(flag.substr(2));
          if (v.empty() || v.size() > 3 || v.find_first_not_of("0123456789") != std::string::npos ||
              std::stoul(v) == 0) {
            usageError("run", "-j takes a number of scripts at a time");
            return false;
          }
          o.jobs = static_cast<unsigned>(std::stoul(v));
        } else if (flag == "--format") {
          if (v != "text" && v != "json") {
            usageError("run", "--format is text or json");
            return false;
          }
          o.json = v == "json";
        } else if (flag == "--stats") {
          o.stats = true;
        } else if (flag == "--buffer") {
          size_t eq = v.find('=');
          if (eq == std::string::npos || !run::parseBindingName(v.substr(0, eq))) {
            usageError("run", "--buffer takes SET:BINDING=DATA, not '" + v + "'");
            return false;
          }
          o.buffers.push_back({v.substr(0, eq), v.substr(eq + 1)});
        } else if (flag == "--push") {
          o.push = v;
        } else if (flag == "--address") {
          size_t eq = v.find('=');
          const std::string offset = v.substr(0, std::min(eq, v.size()));
          if (eq == std::string::npos || offset.empty() || offset.size() > 4 ||
              offset.find_first_not_of("0123456789") != std::string::npos ||
              std::stoul(offset) % 8) {
            usageError("run",
                       "--address takes OFFSET=DATA, OFFSET a multiple of 8, not '" + v + "'");
            return false;
          }
          o.addressed.push_back({uint32_t(std::stoul(offset)), v.substr(eq + 1)});
        } else if (flag == "--view-format") {
          size_t eq = v.find('=');
          if (eq == std::string::npos || !run::parseBindingName(v.substr(0, eq)) ||
              !run::parseFormatName(v.substr(eq + 1))) {
            usageError("run", "--view-format takes SET:BINDING=FORMAT (R32_UINT), not '" + v + "'");
            return false;
          }
          o.viewFormats.push_back({v.substr(0, eq), v.substr(eq + 1)});
        } else if (flag == "--descriptors") {
          if (v.empty() || v.size() > 4 || v.find_first_not_of("0123456789") != std::string::npos ||
              std::stoul(v) == 0) {
            usageError("run", "--descriptors takes a count from 1 to 9999");
            return false;
          }
          o.descriptors = static_cast<uint32_t>(std::stoul(v));
        } else if (flag == "--spec") {
          size_t eq = v.find('=');
          if (eq == std::string::npos || eq == 0 || eq > 10 ||
              v.substr(0, eq).find_first_not_of("0123456789") != std::string::npos) {
            usageError("run", "--spec takes ID=VALUE, not '" + v + "'");
            return false;
          }
          o.specs.push_back(v);
        } else if (flag == "--entry") {
          o.entry = v;
        } else if (flag == "--dispatch") {
          if (!parseGroups(value, o.groups)) {
            usageError("run", "--dispatch takes X[,Y[,Z]], not '" + v + "'");
            return false;
          }
        } else if (flag == "--dump") {
          o.dumps.push_back(v);
        } else if (flag == "--timed") {
          o.timed = true;
        } else if (flag == "--reflect") {
          o.reflectOnly = true;
        } else if (flag == "--create-pipeline") {
          o.createPipeline = true;
        } else if (flag == "--all-features") {
          o.allFeatures = true;
        } else if (flag == "--vertex") {
          o.vertexShader = v;
        } else {
          return scanner.unknownOption(flag);
        }
        return true;
      },
      [&](std::string_view positional) {
        o.inputs.emplace_back(positional);
        return true;
      });
  if (!ok)
    return kUsageError;
  if (scanner.helpAsked()) {
    std::fputs(kHelp, stdout);
    return kSuccess;
  }
  if (o.listDevices) {
    auto list = run::listDevices();
    if (!list)
      return noDevice(list.error());
    for (const std::string &l : *list)
      std::printf("%s\n", l.c_str());
    return kSuccess;
  }
  if (o.inputs.empty())
    return usageError("run", "give a script or a shader to run");
  selectDriver(o.device.device);

  // One shader, or scripts.
  std::vector<InputKind> kinds;
  std::vector<uint8_t> firstBytes;
  for (size_t i = 0; i < o.inputs.size(); ++i) {
    std::vector<uint8_t> head;
    if (auto b = readFile(o.inputs[i]))
      head = std::move(*b);
    else {
      report(b.error(), o.inputs[i]);
      return kInvalidInput;
    }
    kinds.push_back(classify(o.inputs[i], head));
    if (i == 0)
      firstBytes = std::move(head);
  }
  bool shader = kinds[0] != InputKind::Script;
  if (o.createPipeline) {
    for (InputKind k : kinds)
      if (k == InputKind::Script)
        return usageError("run", "--create-pipeline takes shaders, not scripts");
    if (!o.buffers.empty() || !o.dumps.empty() || o.reflectOnly)
      return usageError("run", "--create-pipeline does not take --buffer, --dump or --reflect");
    return createPipelines(o, kinds);
  }
  if (shader) {
    if (o.inputs.size() != 1)
      return usageError("run", "give one shader at a time");
    return runShaderFile(o, kinds[0], firstBytes);
  }
  for (InputKind k : kinds)
    if (k != InputKind::Script)
      return usageError("run", "scripts and shaders cannot be mixed");
  if (!o.buffers.empty() || !o.dumps.empty() || o.reflectOnly)
    return usageError("run", "--buffer, --dump and --reflect are for a shader, not a script");
  return runScripts(o);
}

} // namespace spire::tool

int main(int argc, char **argv) {
  return spire::tool::runRun(std::span<char *const>(argv + 1, static_cast<size_t>(argc - 1)));
}
