// The interpreter of a parsed script: checks its requirements against the device, compiles
// every shader and creates every pipeline, then executes the commands in order (dispatches with
// the host copies uploaded and read back, EXPECT comparisons as amber makes them) and stops at
// the first failure. A validation-layer message fails the script.
#pragma once

#include "spire/run/Device.h"
#include "spire/run/ModuleRequirements.h"
#include "spire/run/Reflection.h"
#include "spire/run/Script.h"
#include "spire/run/ShaderCompiler.h"

#include <map>
#include <optional>
#include <string>

namespace spire::run {

/// What a test suite requires outside a script (the CTS sets some in C++): read from a side
/// file, one line per script file name.
struct ExtraRequirements {
  std::string targetEnv; ///< the environment for shaders without TARGET_ENV
  std::vector<std::string> features, deviceExtensions;
  std::vector<std::string> skipIfFeatures; ///< the suite skips the script where these hold
  /// Devices (parts of their names) known to crash or misbehave on the script: it is skipped
  /// there, with the note as the reason.
  std::vector<std::string> skipOnDevices;
  std::vector<std::string> skipOnDrivers; ///< with skipOnDevices: only these driver versions
  std::string note;
};

/// Lines "<file> key=value..." (keys: env, feature, extension, skip-if-feature,
/// skip-on-device, note; a note runs to the end of the line); '#' starts a comment. Entries are
/// added to `out` (a file named again gains the new requirements). Errors name the line.
Status parseExtraRequirements(std::string_view text, std::map<std::string, ExtraRequirements> &out);

struct RunOptions {
  CompileOptions compile;
  const ExtraRequirements *extra = nullptr;
};

struct Timings {
  double compileMs = 0;  ///< shaders compiled, assembled, validated, passed through --via
  double pipelineMs = 0; ///< pipelines (and shader modules) created
  double runMs = 0;      ///< commands executed: uploads, dispatches, read-backs, comparisons
  /// The device's own time for the dispatches of `RUN TIMED_EXECUTION` (timestamps), summed;
  /// 0 when none ran or the queue has no timestamps.
  double timedGpuMs = 0;
};

struct ScriptResult {
  enum class Outcome : uint8_t { Pass, Fail, Skip } outcome = Outcome::Pass;
  std::string message; ///< Fail: what differed or went wrong; Skip: why
  uint32_t line = 0;   ///< the script line of a failure, 0 when none applies
  Timings timings;
};

/// A script's shaders compiled without a device (compiling needs none), by the script's shader
/// index: those of its compute pipelines in order, up to the pipeline that ends the script (a
/// graphics one, one without a shader, one whose shader skips it). A caller can compile a script
/// while the device is made and hand the result to runScript.
struct CompiledShaders {
  std::vector<std::optional<CompiledShader>> shaders;
  double compileMs = 0;
};
CompiledShaders compileScriptShaders(const Script &script, const RunOptions &options);

/// Runs a parsed script on the device. The script's host copies change as it runs. `compiled`:
/// its shaders from compileScriptShaders with the same options (null: compiled here, after the
/// script's requirements are checked).
ScriptResult runScript(VulkanContext &ctx, Script &script, const RunOptions &options,
                       const CompiledShaders *compiled = nullptr);

/// "PASS <file>", "FAIL <file>:<line>: <message>", "SKIP <file>: <reason>".
std::string resultLine(std::string_view file, const ScriptResult &r);
/// The same as one JSON object.
std::string resultJson(std::string_view file, const ScriptResult &r);

} // namespace spire::run
