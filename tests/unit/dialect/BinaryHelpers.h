// Test helpers for dialect tests that go through binaries: a module from words, what spire val
// says of it, and its words overwritten where the deserializer is done with them.
#pragma once

#include "spire/module/Module.h"
#include "spire/val/Validator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>

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

/// Overwrites the words of instructions [first, end) of the test's own module: what a caller
/// may do with those pages once the deserializer says it is done with them
/// (DeserializeOptions::functionRead, namesRead), made visible.
inline void clobber(const Module &m, uint32_t first, uint32_t end) {
  auto *w = const_cast<uint32_t *>(m.words().data());
  const Instruction last = m.inst(end - 1);
  std::fill(w + m.inst(first).wordOffset(), w + last.wordOffset() + last.wordCount(), 0xFFFFFFFFu);
}

} // namespace spire::dialect::test
