// Helpers for pass tests: a spirv.module from SPIR-V assembly (assembled, then deserialized), and
// ways to find ops in it.
#pragma once

#include "spire/asm/Assembler.h"
#include "spire/dialect/Serialization.h"
#include "spire/dialect/Verifier.h"
#include "spire/module/Module.h"
#include "spire/transforms/Pass.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

namespace spire::transforms::test {

/// The spirv.module of `text` (spirv-as syntax) at `version`; null (and a test failure) when
/// it does not assemble or deserialize.
inline dialect::OwningOp moduleFromText(dialect::Context &ctx, std::string_view text,
                                        uint32_t version = grammar::makeVersion(1, 0)) {
  AssembleOptions as;
  as.version = version;
  Expected<std::vector<uint32_t>> words = assemble(text, as);
  EXPECT_TRUE(bool(words)) << (words ? "" : words.error().format("<test>"));
  if (!words)
    return nullptr;
  Expected<Module> m = Module::fromWords(std::move(words).value());
  EXPECT_TRUE(bool(m)) << (m ? "" : m.error().format("<test>"));
  if (!m)
    return nullptr;
  Expected<dialect::OwningOp> op = dialect::deserialize(ctx, *m);
  EXPECT_TRUE(bool(op)) << (op ? "" : op.error().format("<test>"));
  if (!op)
    return nullptr;
  return std::move(op).value();
}

/// Runs the pipeline `passes` on `module`.
inline Status runPasses(dialect::Operation &module, dialect::Context &ctx,
                        std::string_view passes) {
  PassManager pm;
  if (Status s = pm.addPipeline(passes); !s)
    return s;
  return pm.run(module, ctx);
}

/// Every op named `name` in `root`, in walk order.
inline std::vector<dialect::Operation *> opsNamed(dialect::Operation &root, std::string_view name) {
  std::vector<dialect::Operation *> out;
  dialect::walk(&root, [&out, name](dialect::Operation *op) {
    if (op->name() == name)
      out.push_back(op);
  });
  return out;
}

/// The capabilities of a vce attribute by name.
inline std::vector<std::string> capabilityNames(dialect::Attribute vce) {
  std::vector<std::string> out;
  for (uint32_t c : vce.capabilities())
    out.push_back(dialect::enumText(grammar::OperandKind::Capability, c));
  return out;
}

} // namespace spire::transforms::test
