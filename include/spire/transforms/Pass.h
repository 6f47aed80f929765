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

class Pass {
public:
  virtual ~Pass() = default;
  /// The name a pipeline uses ("update-vce").
  virtual std::string_view name() const = 0;
  /// Transforms `module`, a spirv.module op; a failure leaves the IR valid but possibly
  /// partly transformed.
  virtual Status run(Operation &module, Context &context) = 0;
};

using PassFactory = std::function<std::unique_ptr<Pass>()>;

/// Registers a pass under `name` (replacing one already registered with that name). The
/// passes of this library are registered from the start.
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
  /// rejects, with an error that names the pass.
  Status run(Operation &module, Context &context);

private:
  std::vector<std::unique_ptr<Pass>> passes_;
  bool verifyEach_ = true;
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

} // namespace spire::transforms
