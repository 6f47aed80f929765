#include "spire/transforms/Pass.h"

#include "spire/dialect/Verifier.h"

#include <algorithm>
#include <map>
#include <mutex>

namespace spire::transforms {

#include "PassList.inc"

namespace {

struct Entry {
  std::string description;
  PassFactory factory;
};

// The built-in passes (registered beside their code) and any a program adds.
struct Registry {
  std::mutex mutex;
  std::map<std::string, Entry, std::less<>> passes;
  Registry() {
    for (const PassRegistration *p : kBuiltinPasses)
      passes[std::string(p->name)] = {std::string(p->description), p->create};
  }
};

Registry &registry() {
  static Registry r;
  return r;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
    s.remove_suffix(1);
  return s;
}

} // namespace

void registerPass(std::string_view name, std::string_view description, PassFactory factory) {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.passes[std::string(name)] = {std::string(description), std::move(factory)};
}

std::unique_ptr<Pass> createPass(std::string_view name) {
  Registry &r = registry();
  PassFactory factory;
  {
    std::lock_guard<std::mutex> lock(r.mutex);
    auto it = r.passes.find(name);
    if (it == r.passes.end())
      return nullptr;
    factory = it->second.factory;
  }
  return factory();
}

std::vector<PassInfo> registeredPasses() {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  std::vector<PassInfo> out;
  for (const auto &entry : r.passes)
    out.push_back({entry.first, entry.second.description});
  return out;
}

void PassManager::add(std::unique_ptr<Pass> pass) { passes_.push_back(std::move(pass)); }

Status PassManager::addPipeline(std::string_view pipeline) {
  std::vector<std::unique_ptr<Pass>> parsed;
  while (true) {
    size_t comma = pipeline.find(',');
    std::string_view name = trim(pipeline.substr(0, comma));
    if (name.empty())
      return makeError({}, "empty pass name in pipeline");
    std::unique_ptr<Pass> pass = createPass(name);
    if (!pass) {
      std::string known;
      for (const PassInfo &p : registeredPasses())
        known += (known.empty() ? "" : ", ") + p.name;
      return makeError({}, "unknown pass '" + std::string(name) + "' (known: " + known + ")");
    }
    parsed.push_back(std::move(pass));
    if (comma == std::string_view::npos)
      break;
    pipeline.remove_prefix(comma + 1);
  }
  for (auto &p : parsed)
    passes_.push_back(std::move(p));
  return {};
}

std::string PassManager::pipeline() const {
  std::string out;
  for (const auto &p : passes_)
    out += (out.empty() ? "" : ",") + std::string(p->name());
  return out;
}

bool PreservedAnalyses::preserves(const void *analysisId) const {
  return all_ || std::find(ids_.begin(), ids_.end(), analysisId) != ids_.end();
}

void *AnalysisManager::find(const Operation *op, const void *id) const {
  for (const Entry &e : entries_)
    if (e.op == op && e.id == id)
      return e.value;
  return nullptr;
}

void AnalysisManager::invalidate(const PreservedAnalyses &preserved) {
  if (preserved.preservesAll())
    return;
  std::erase_if(entries_, [&](const Entry &e) { return !preserved.preserves(e.id); });
}

Status PassManager::run(Operation &module, Context &context) {
  for (const auto &pass : passes_) {
    pass->beginRun(&analyses_);
    Status s = pass->run(module, context);
    analyses_.invalidate(pass->preserved());
    pass->beginRun(nullptr);
    if (!s) {
      Diagnostic d = s.error();
      d.message = "pass '" + std::string(pass->name()) + "' failed: " + d.message;
      return d;
    }
    if (verifyEach_) {
      if (Status s = dialect::verify(module); !s) {
        Diagnostic d = s.error();
        d.message = "IR after pass '" + std::string(pass->name()) + "' is invalid: " + d.message;
        return d;
      }
    }
  }
  return {};
}

} // namespace spire::transforms
