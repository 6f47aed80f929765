#include "StructurizerTarget.h"

#include "unit/analysis/CfgTestSupport.h"

#include "spire/analysis/CfgInterpreter.h"
#include "spire/analysis/StructuredCfgCheck.h"
#include "spire/analysis/Structurizer.h"

#include <cstdio>
#include <cstdlib>

namespace spire::fuzz {

namespace {

[[noreturn]] void fail(const char *what, const std::string &detail) {
  std::fprintf(stderr, "structurizer: %s: %s\n", what, detail.c_str());
  std::abort();
}

/// Byte 0: node count - 1 (mod 48). Then per node: a byte whose low two bits are the successor
/// count, bit 2 makes a two-way block a switch and bit 3 an ending block Unreachable; then one
/// byte per successor (the target, mod the node count). Missing bytes read as 0.
analysis::Cfg decode(const uint8_t *data, size_t size) {
  size_t at = 0;
  auto next = [&]() -> uint32_t { return at < size ? data[at++] : 0; };
  const uint32_t n = 1 + next() % 48;
  std::vector<uint32_t> flags(n);
  std::vector<std::vector<uint32_t>> succs(n);
  for (uint32_t v = 0; v < n; ++v) {
    flags[v] = next();
    for (uint32_t i = 0; i < (flags[v] & 3); ++i)
      succs[v].push_back(next() % n);
  }
  std::vector<uint8_t> switches(n), unreachable(n);
  for (uint32_t v = 0; v < n; ++v) {
    switches[v] = (flags[v] & 4) != 0;
    unreachable[v] = (flags[v] & 8) != 0;
  }
  return analysis::test::makeCfg(succs, switches, unreachable);
}

} // namespace

void structurizer(const uint8_t *data, size_t size) {
  const analysis::Cfg cfg = decode(data, size);
  Expected<analysis::StructuredCfg> s = analysis::structurize(cfg);
  if (!s.ok()) {
    const std::string &m = s.error().message;
    if (m.empty() || m.find('\n') != std::string::npos)
      fail("error is not one line", m);
    return;
  }
  const Status check = analysis::checkStructured(cfg, *s);
  if (!check.ok())
    fail("result breaks a rule", check.error().message);
  const uint32_t bound = 16 * (cfg.graph.size() + cfg.graph.numEdges()) + 16;
  if (s->size() > bound)
    fail("result too large", std::to_string(s->size()));
  for (uint64_t seed = 0; seed < 8; ++seed) {
    auto oracle = [seed](uint32_t node, uint32_t visit, uint32_t count) {
      return static_cast<uint32_t>((seed * 2654435761u + node * 40503u + visit * 97u) >> 3) % count;
    };
    if (!(analysis::interpret(cfg, oracle, 400) == analysis::interpret(cfg, *s, oracle, 400)))
      fail("paths differ", "seed " + std::to_string(seed));
  }
}

} // namespace spire::fuzz
