// Helpers for validator tests: assemble a small module written in the test, validate it, and
// look for the expected problem.
#pragma once

#include "spire/asm/Assembler.h"
#include "spire/val/Validator.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>

namespace spire::val::test {

/// Assembles `text` (spirv-as syntax; the version follows the environment unless `version` is
/// given) and validates it for the environment `env` ("spv1.6", "vulkan1.3", "level-zero").
inline Report validateText(std::string_view text, std::string_view env = "spv1.6",
                           Options options = {}, uint32_t version = 0) {
  std::optional<Environment> e = parseEnvironment(env);
  EXPECT_TRUE(e.has_value()) << env;
  if (e)
    options.env = *e;
  AssembleOptions as;
  as.version = version != 0                              ? version
               : options.env.client == Client::LevelZero ? options.device.spirvVersion
                                                         : targetEnvVersion(options.env.targetEnv);
  as.preserveNumericIds = true;
  Expected<std::vector<uint32_t>> words = assemble(text, as);
  EXPECT_TRUE(bool(words)) << (words ? "" : words.error().format("<test>"));
  if (!words)
    return Report{};
  Expected<Module> m = Module::fromWords(std::move(words).value());
  EXPECT_TRUE(bool(m)) << (m ? "" : m.error().format("<test>"));
  if (!m)
    return Report{};
  return validate(*m, options);
}

/// `text` with every `key` replaced by `value`; a key that is not in the text fails the test (the
/// module would not be the one the test means).
inline std::string replaced(std::string text, std::string_view key, std::string_view value) {
  size_t at = text.find(key);
  EXPECT_NE(at, std::string::npos) << "no " << key << " in the test's module";
  for (; at != std::string::npos; at = text.find(key, at + value.size()))
    text.replace(at, key.size(), value);
  return text;
}

/// A kernel module (Kernel and Addresses, Physical64 OpenCL, the entry point %k) with more
/// capabilities `caps`, more module-scope declarations `globals` and the body of %k; it declares
/// %void, %fn, %bool, %uint and %uint_0 to %uint_2.
inline std::string kernelModule(std::string_view caps, std::string_view globals,
                                std::string_view body) {
  return "OpCapability Kernel\nOpCapability Addresses\n" + std::string(caps) +
         "\nOpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %k \"k\"\n"
         "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%bool = OpTypeBool\n"
         "%uint = OpTypeInt 32 0\n%uint_0 = OpConstant %uint 0\n%uint_1 = OpConstant %uint 1\n"
         "%uint_2 = OpConstant %uint 2\n" +
         std::string(globals) + "\n%k = OpFunction %void None %fn\n%e = OpLabel\n" +
         std::string(body) + "\nOpReturn\nOpFunctionEnd\n";
}

/// All problems, one per line, for failure messages.
inline std::string describe(const Report &r) {
  std::string s;
  for (const Problem &p : r.problems)
    s += p.format("<test>") + "\n";
  return s.empty() ? "(no problems)\n" : s;
}

/// True when some error's message contains `text` and, when `rule` is given, its rule is `rule`.
inline bool hasError(const Report &r, std::string_view text, std::string_view rule = {}) {
  for (const Problem &p : r.problems)
    if (p.severity == Severity::Error && p.message.find(text) != std::string::npos &&
        (rule.empty() || p.rule == rule))
      return true;
  return false;
}

/// True when some warning's message contains `text`.
inline bool hasWarning(const Report &r, std::string_view text) {
  for (const Problem &p : r.problems)
    if (p.severity == Severity::Warning && p.message.find(text) != std::string::npos)
      return true;
  return false;
}

} // namespace spire::val::test

#define EXPECT_VALID(report) EXPECT_TRUE((report).valid()) << ::spire::val::test::describe(report)
#define EXPECT_ERROR(report, text)                                                                 \
  EXPECT_TRUE(::spire::val::test::hasError((report), (text)))                                      \
      << "expected an error containing \"" << (text) << "\", got:\n"                               \
      << ::spire::val::test::describe(report)
// An error containing `text` under the rule `rule` (a spec section, a VUID, an extension's name).
#define EXPECT_RULE_ERROR(report, text, rule)                                                      \
  EXPECT_TRUE(::spire::val::test::hasError((report), (text), (rule)))                              \
      << "expected an error containing \"" << (text) << "\" under " << (rule) << ", got:\n"        \
      << ::spire::val::test::describe(report)
