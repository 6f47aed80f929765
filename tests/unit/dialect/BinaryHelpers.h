// Test helpers for dialect tests that go through binaries: a module from words, and what spire
// val says of it.
#pragma once

#include "spire/module/Module.h"
#include "spire/val/Validator.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

namespace spire::dialect::test {

/// The module of `words`, which must be well formed.
inline Module readWords(std::vector<uint32_t> words) {
  Expected<Module> m = Module::fromWords(std::move(words));
  EXPECT_TRUE(bool(m));
  return std::move(m).value();
}

/// spire val's errors on `m` for environment `env`, one line each; "" when it is valid.
inline std::string validationErrors(const Module &m, std::string_view env) {
  val::Options options;
  options.env = *val::parseEnvironment(env);
  std::string out;
  for (const val::Problem &p : val::validate(m, options).problems)
    if (p.severity == Severity::Error)
      out += p.format("<module>") + "\n";
  return out;
}

} // namespace spire::dialect::test
