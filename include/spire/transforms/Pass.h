// Passes over the structured SPIR-V dialect and the pass manager that runs them: a pipeline is a
// comma-separated list of registered pass names ("update-vce,canonicalize"), and the IR is
// verified (dialect::verify) after each pass so that a pass that breaks it is named.
#pragma once

#include "spire/dialect/IR.h"
#include "spire/support/Expected.h"

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace spire::transforms {

using dialect::Context;
using dialect::Operation;

class Pass;

/// What a pass keeps valid: after a pass runs, the analysis manager drops every cached analysis
/// it did not mark preserved.
class PreservedAnalyses {
public:
  static PreservedAnalyses none() { return {}; }
  static PreservedAnalyses all() {
    PreservedAnalyses p;
    p.all_ = true;
    return p;
  }
  void preserve(const void *analysisId) { ids_.push_back(analysisId); }
  bool preserves(const void *analysisId) const;
  bool preservesAll() const { return all_; }

private:
  bool all_ = false;
  std::vector<const void *> ids_;
};

/// Analyses of ops, computed on first request and cached until a pass that does not preserve
/// them has run. An analysis is a class constructible from `Operation &` (and destructible);
/// it is cached per op.
class AnalysisManager {
public:
  /// The analysis `A` of `op`, computed now if it is not cached.
  template <class A> A &get(Operation &op) {
    if (void *cached = find(&op, idOf<A>()))
      return *static_cast<A *>(cached);
    auto holder = std::make_unique<Holder<A>>(op);
    A &a = holder->value;
    insert(&op, idOf<A>(), std::move(holder));
    return a;
  }
  /// The cached analysis `A` of `op`, or null.
  template <class A> A *cached(Operation &op) { return static_cast<A *>(find(&op, idOf<A>())); }
  /// Drops what `preserved` does not keep.
  void invalidate(const PreservedAnalyses &preserved);
  size_t size() const { return entries_.size(); }

  /// A key that stands for the analysis class `A`.
  template <class A> static const void *idOf() {
    static const char id = 0;
    return &id;
  }

private:
  struct Concept {
    virtual ~Concept() = default;
  };
  template <class A> struct Holder : Concept {
    explicit Holder(Operation &op) : value(op) {}
    A value;
  };
  struct Entry {
    const Operation *op;
    const void *id;
    std::unique_ptr<Concept> analysis;
    void *value;
  };
  void *find(const Operation *op, const void *id) const;
  template <class A>
  void insert(const Operation *op, const void *id, std::unique_ptr<Holder<A>> h) {
    void *value = &h->value;
    entries_.push_back({op, id, std::move(h), value});
  }
  std::vector<Entry> entries_;
};

class Pass {
public:
  virtual ~Pass() = default;
  /// The name a pipeline uses ("update-vce").
  virtual std::string_view name() const = 0;
  /// Transforms `module`, a spirv.module op; a failure leaves the IR valid but possibly
  /// partly transformed.
  virtual Status run(Operation &module, Context &context) = 0;

  /// Set by the pass manager around run(): where getAnalysis finds its analyses, and what the
  /// pass reports it kept valid (nothing unless it says so).
  void beginRun(AnalysisManager *analyses) {
    analyses_ = analyses;
    preserved_ = PreservedAnalyses::none();
  }
  const PreservedAnalyses &preserved() const { return preserved_; }

protected:
  /// The analysis `A` of `op`: the manager's cached one, or (outside a pass manager) a new one
  /// each time.
  template <class A> A &getAnalysis(Operation &op) {
    if (analyses_)
      return analyses_->get<A>(op);
    local_ = std::make_unique<AnalysisManager>();
    return local_->get<A>(op);
  }
  void markAllAnalysesPreserved() { preserved_ = PreservedAnalyses::all(); }
  template <class A> void markAnalysisPreserved() {
    preserved_.preserve(AnalysisManager::idOf<A>());
  }

private:
  AnalysisManager *analyses_ = nullptr;
  std::unique_ptr<AnalysisManager> local_;
  PreservedAnalyses preserved_;
};

using PassFactory = std::function<std::unique_ptr<Pass>()>;

/// How a pass of this library is registered: a constant beside the pass, in its own file,
///   extern const PassRegistration kCanonicalizePass{"canonicalize", "...", create};
/// which the build collects into the list of built-in passes (src/transforms/list_passes.py).
struct PassRegistration {
  std::string_view name;
  std::string_view description;
  std::unique_ptr<Pass> (*create)();
};

/// Registers a pass under `name` (replacing one already registered with that name), beside the
/// built-in ones: for programs that add passes of their own.
void registerPass(std::string_view name, std::string_view description, PassFactory factory);
/// A new instance of the pass registered as `name`, or null.
std::unique_ptr<Pass> createPass(std::string_view name);
struct PassInfo {
  std::string name;
  std::string description;
};
/// The registered passes, sorted by name.
std::vector<PassInfo> registeredPasses();

class PassManager {
public:
  void add(std::unique_ptr<Pass> pass);
  /// Appends the passes of a comma-separated list of names (spaces around names are
  /// ignored); fails naming the first unknown one, adding nothing.
  Status addPipeline(std::string_view pipeline);
  /// Whether to verify the IR after each pass (on by default).
  void setVerifyEach(bool verify) { verifyEach_ = verify; }
  size_t size() const { return passes_.size(); }
  /// The names of the passes, in order, joined by commas.
  std::string pipeline() const;
  /// Runs the passes in order; stops at the first that fails or leaves IR the verifier
  /// rejects, with an error that names the pass. Analyses the passes ask for are cached in
  /// analyses() between passes that preserve them.
  Status run(Operation &module, Context &context);
  AnalysisManager &analyses() { return analyses_; }

private:
  std::vector<std::unique_ptr<Pass>> passes_;
  bool verifyEach_ = true;
  AnalysisManager analyses_;
};

// The passes of this library.
/// spirv-update-vce: sets the module's vce_triple to the least version, capabilities and
/// extensions its ops and types need, choosing among what a spirv.target_env attribute on the
/// module allows when it has one.
std::unique_ptr<Pass> createUpdateVcePass();
/// spirv-lower-abi-attrs: entry functions with spirv.entry_point_abi get their arguments
/// (spirv.interface_var_abi) as global variables, an spirv.EntryPoint and LocalSize.
std::unique_ptr<Pass> createLowerAbiAttributesPass();
/// canonicalize: constant folding, algebraic simplifications, dead code removal.
std::unique_ptr<Pass> createCanonicalizePass();
/// remove-dead-values: removes the ops without side effects whose results no live op uses
/// (liveness over the whole module: whole chains of unused values go in one sweep).
std::unique_ptr<Pass> createRemoveDeadValuesPass();

} // namespace spire::transforms
