// The validator: checks a module against the rules of SPIR-V 1.6 and of one client environment
// (universal SPIR-V, Vulkan, OpenCL, OpenGL, oneAPI Level Zero) and reports every problem it finds.
#pragma once

#include "spire/module/Module.h"
#include "spire/support/Diagnostic.h"
#include "spire/support/TargetEnv.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace spire::val {

/// The family of client APIs whose rules apply on top of the universal ones.
enum class Client : uint8_t { Universal, Vulkan, OpenCL, OpenGL, LevelZero };

/// What a Level Zero device reports about itself (ze_device_module_properties_t and friends).
/// The defaults describe a capable device, so that the relaxed profile rejects only what no
/// device accepts.
struct LevelZeroDevice {
  uint32_t spirvVersion = 0x00010200; ///< spirvVersionSupported, as a header version word
  uint32_t apiVersion = 0x00010005;   ///< ZE API version, major << 16 | minor
  bool fp16 = true;                   ///< ZE_DEVICE_MODULE_FLAG_FP16
  bool fp64 = true;                   ///< ZE_DEVICE_MODULE_FLAG_FP64
  bool int64Atomics = true;           ///< ZE_DEVICE_MODULE_FLAG_INT64_ATOMICS
  bool images = true;                 ///< ze_device_image_properties_t: images supported
  /// ZE_extension_float_atomics flags: load/store/exchange, add, min/max, per width.
  bool fp16AtomicAdd = true, fp32AtomicAdd = true, fp64AtomicAdd = true;
  bool fp16AtomicMinMax = true, fp32AtomicMinMax = true, fp64AtomicMinMax = true;
  bool fp16AtomicLoadStore = true, fp32AtomicLoadStore = true, fp64AtomicLoadStore = true;
  /// The ZE_extension_* names the driver reports; empty means "every extension the guide names".
  std::vector<std::string> extensions;
};

/// A target environment as spirv-val names it ("vulkan1.3", "spv1.6", "opencl2.0") or
/// "level-zero".
struct Environment {
  std::string name;
  Client client = Client::Universal;
  /// The newest SPIR-V version the environment accepts (header version word).
  uint32_t maxVersion = 0x00010600;
  /// The spirv-as/spirv-val environment it corresponds to (Spv1_6 for level-zero).
  TargetEnv targetEnv = TargetEnv::Spv1_6;
  /// Client API version, major << 16 | minor (Vulkan 1.3: 0x10003; OpenCL 2.0: 0x20000); 0 for
  /// universal environments.
  uint32_t apiVersion = 0;
  bool embeddedProfile = false; ///< OpenCL embedded profile
};

/// The environment of a name, or nothing when the name is not one.
std::optional<Environment> parseEnvironment(std::string_view name);
/// "spv1.0|...|level-zero", for usage messages.
std::string environmentList();

struct Options {
  Environment env = *parseEnvironment("spv1.6");
  /// Stop after this many errors (0: report all).
  uint32_t maxErrors = 0;
  /// Level Zero: the device, and the strict reading of the guide's gaps (see levelzero.md).
  LevelZeroDevice device;
  bool strict = false;
  // Block layout relaxations, as spirv-val's options of the same names.
  bool relaxBlockLayout = false;
  bool uniformBufferStandardLayout = false;
  bool scalarBlockLayout = false;
  bool skipBlockLayout = false;
  bool relaxLogicalPointer = false;
  bool beforeHlslLegalization = false;
  /// Run the rule families that the structure of a module rests on (layout, ids, the universal
  /// limits, types, functions, control flow and dominance) first, and stop at an error of
  /// theirs (Report::structureBroken); else go on as the full run does. One run gives spire
  /// translate both what stops reading the module into another IR and what it only warns of.
  bool structureFirst = false;
};

/// One problem: where, what, and which rule says so.
struct Problem {
  Severity severity = Severity::Error;
  /// Instruction index and word offset; Location::Kind::None for problems of the whole module.
  Location location;
  std::string message;
  /// The rule: a section of the SPIR-V specification ("2.16.1"), a Vulkan VUID
  /// ("VUID-StandaloneSpirv-Location-04916") or a Level Zero requirement ("LZ-D3").
  std::string rule;
  /// The instruction as disassembled (friendly names), empty when there is none.
  std::string instruction;

  /// "<source>: error: word <w> (instruction <i>): <message> [<rule>]: <instruction>"
  std::string format(std::string_view source = {}) const;
  /// One JSON object on one line.
  std::string toJson() const;
};

struct Report {
  std::vector<Problem> problems; ///< errors first in module order, then warnings
  bool truncated = false;        ///< stopped at Options::maxErrors
  /// Options::structureFirst: a structural family found an error, and nothing else ran.
  bool structureBroken = false;
  bool valid() const;
  size_t errorCount() const;
};

/// Validates a module that the reader accepted.
Report validate(const Module &module, const Options &options);

/// Reads and validates a binary: a reader error is reported as a problem of the report.
Report validateBinary(std::span<const uint8_t> bytes, const Options &options);

} // namespace spire::val
