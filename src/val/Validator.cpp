#include "spire/val/Validator.h"

#include "Rules.h"

#include <algorithm>
#include <cstdio>

namespace spire::val {

std::optional<Environment> parseEnvironment(std::string_view name) {
  Environment env;
  env.name = std::string(name);
  if (name == "level-zero" || name == "levelzero") {
    env.name = "level-zero";
    env.client = Client::LevelZero;
    env.targetEnv = TargetEnv::OpenCL2_2;
    env.maxVersion = grammar::makeVersion(1, 6); // narrowed by the device's spirvVersion
    return env;
  }
  std::optional<TargetEnv> t = parseTargetEnv(name);
  if (!t)
    return std::nullopt;
  env.targetEnv = *t;
  env.maxVersion = targetEnvVersion(*t);
  auto version = [](unsigned major, unsigned minor) { return (major << 16) | minor; };
  switch (*t) {
  case TargetEnv::Vulkan1_0:
    env.client = Client::Vulkan, env.apiVersion = version(1, 0);
    break;
  case TargetEnv::Vulkan1_1:
  case TargetEnv::Vulkan1_1Spv1_4:
    env.client = Client::Vulkan, env.apiVersion = version(1, 1);
    break;
  case TargetEnv::Vulkan1_2:
    env.client = Client::Vulkan, env.apiVersion = version(1, 2);
    break;
  case TargetEnv::Vulkan1_3:
    env.client = Client::Vulkan, env.apiVersion = version(1, 3);
    break;
  case TargetEnv::OpenCL1_2Embedded:
    env.embeddedProfile = true;
    [[fallthrough]];
  case TargetEnv::OpenCL1_2:
    env.client = Client::OpenCL, env.apiVersion = version(1, 2);
    break;
  case TargetEnv::OpenCL2_0Embedded:
    env.embeddedProfile = true;
    [[fallthrough]];
  case TargetEnv::OpenCL2_0:
    env.client = Client::OpenCL, env.apiVersion = version(2, 0);
    break;
  case TargetEnv::OpenCL2_1Embedded:
    env.embeddedProfile = true;
    [[fallthrough]];
  case TargetEnv::OpenCL2_1:
    env.client = Client::OpenCL, env.apiVersion = version(2, 1);
    break;
  case TargetEnv::OpenCL2_2Embedded:
    env.embeddedProfile = true;
    [[fallthrough]];
  case TargetEnv::OpenCL2_2:
    env.client = Client::OpenCL, env.apiVersion = version(2, 2);
    break;
  case TargetEnv::OpenGL4_0:
  case TargetEnv::OpenGL4_1:
  case TargetEnv::OpenGL4_2:
  case TargetEnv::OpenGL4_3:
  case TargetEnv::OpenGL4_5:
    env.client = Client::OpenGL, env.apiVersion = version(4, 5);
    break;
  default:
    env.client = Client::Universal;
    break;
  }
  return env;
}

std::string environmentList() { return targetEnvList() + "|level-zero"; }

bool Report::valid() const { return errorCount() == 0; }

size_t Report::errorCount() const {
  return static_cast<size_t>(std::count_if(problems.begin(), problems.end(), [](const Problem &p) {
    return p.severity == Severity::Error;
  }));
}

std::string Problem::format(std::string_view source) const {
  Diagnostic d{severity, location, message};
  std::string line = d.format(source);
  if (!rule.empty())
    line += " [" + rule + "]";
  if (!instruction.empty())
    line += ": " + instruction;
  return line;
}

namespace {

void jsonString(std::string &out, std::string_view s) {
  out += '"';
  for (char c : s) {
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\t':
      out += "\\t";
      break;
    default:
      if (static_cast<unsigned char>(c) < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", c);
        out += buf;
      } else {
        out += c;
      }
    }
  }
  out += '"';
}

} // namespace

std::string Problem::toJson() const {
  std::string out = "{\"severity\":";
  jsonString(out, severity == Severity::Error     ? "error"
                  : severity == Severity::Warning ? "warning"
                                                  : "note");
  if (location.kind == Location::Kind::Binary) {
    out += ",\"instruction_index\":" + std::to_string(location.instIndex);
    out += ",\"word_offset\":" + std::to_string(location.wordOffset);
  }
  out += ",\"rule\":";
  jsonString(out, rule);
  out += ",\"message\":";
  jsonString(out, message);
  if (!instruction.empty()) {
    out += ",\"instruction\":";
    jsonString(out, instruction);
  }
  out += '}';
  return out;
}

Report validate(const Module &module, const Options &options) {
  Report report;
  State s(module, options, report);
  if (options.structureFirst) {
    for (auto family :
         {checkLayout, checkIds, checkLimits, checkTypes, checkFunctions, checkControlFlow}) {
      family(s);
      if (s.stopped() || s.errorCount() != 0) {
        report.structureBroken = s.errorCount() != 0;
        return report;
      }
    }
    // What the full run says of a module these pass: the availability, whose errors stop it
    // as below, then the families after the structural ones.
    checkAvailability(s);
    if (s.stopped() || s.errorCount() != 0)
      return report;
  } else {
    // The structural families first: when a module's layout or ids are broken, what the other
    // families would say is mostly noise, so they run only on modules that pass these.
    for (auto family : {checkLayout, checkIds, checkAvailability, checkLimits}) {
      family(s);
      if (s.stopped())
        return report;
    }
    if (s.errorCount() != 0)
      return report;
    for (auto family : {checkTypes, checkFunctions, checkControlFlow}) {
      family(s);
      if (s.stopped())
        return report;
    }
  }
  for (auto family : {checkMemory, checkArithmetic, checkImages, checkAtomicsBarriers, checkGroups,
                      checkPipesEnqueue, checkRayTracing, checkMeshShading, checkCoopMatrix,
                      checkJointMatrix, checkOperandTypes, checkIntel, checkVendor, checkExtInst,
                      checkMisc, checkDecorations, checkModes}) {
    family(s);
    if (s.stopped())
      return report;
  }
  switch (options.env.client) {
  case Client::Vulkan:
    checkVulkan(s);
    break;
  case Client::OpenCL:
    checkOpenCL(s);
    break;
  case Client::LevelZero:
    checkOpenCL(s);
    if (!s.stopped())
      checkLevelZero(s);
    break;
  default:
    break;
  }
  std::stable_sort(report.problems.begin(), report.problems.end(),
                   [](const Problem &a, const Problem &b) {
                     return a.severity == Severity::Error && b.severity != Severity::Error;
                   });
  return report;
}

Report validateBinary(std::span<const uint8_t> bytes, const Options &options) {
  Expected<Module> m = Module::fromBytes(bytes);
  if (!m) {
    Report report;
    Problem p;
    p.location = m.error().location;
    p.message = m.error().message;
    p.rule = "2.3";
    report.problems.push_back(std::move(p));
    return report;
  }
  return validate(*m, options);
}

} // namespace spire::val
