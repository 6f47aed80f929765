// What ops and types need from the target (docs/notes/mlir_spirv.md R-11): the SPIR-V versions
// they exist in, the capabilities (each requirement a set of alternatives, any one of which
// enables it) and the extensions. An op's needs combine its grammar entry with those of every
// enumerant its attributes carry (R-11.3: spirv.ControlBarrier at QueueFamily scope needs
// VulkanMemoryModel); a type's are written by hand from the specification (R-11.4: i16 needs
// Int16, or StorageBuffer16BitAccess inside a storage buffer, vector<8xf32> Vector16, ...).
#pragma once

#include "spire/dialect/IR.h"
#include "spire/grammar/Grammar.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace spire::dialect {

/// Any one of `anyOf` is needed; `source` says what needs it ("spirv.IAdd", "Scope
/// QueueFamily", "type i16").
struct CapabilityRequirement {
  std::vector<grammar::Capability> anyOf;
  std::string source;
  bool operator==(const CapabilityRequirement &) const = default;
};

/// Any one of `anyOf` is needed unless the version is at least `unlessVersion` (the grammar's
/// "in the core from version N, or through these extensions"; kNoVersion when only an
/// extension provides it).
struct ExtensionRequirement {
  std::vector<grammar::Extension> anyOf;
  uint32_t unlessVersion = grammar::kNoVersion;
  std::string source;
  bool operator==(const ExtensionRequirement &) const = default;
};

struct Availability {
  /// The least version everything needs (SPIR-V 1.0 when nothing needs more).
  uint32_t minVersion = grammar::makeVersion(1, 0);
  std::string minVersionSource;
  /// The last version everything exists in (kNoVersion: no limit).
  uint32_t maxVersion = grammar::kNoVersion;
  std::string maxVersionSource;
  std::vector<CapabilityRequirement> capabilities;
  std::vector<ExtensionRequirement> extensions;

  /// Adds the requirements of a grammar entry (an instruction, an enumerant).
  void add(const grammar::Availability &a, const std::string &source);
  void merge(const Availability &other);
  bool empty() const;
};

/// The grammar's availability of an enumerant; a bit enum's value is taken bit by bit.
Availability enumAvailability(grammar::OperandKind kind, uint32_t value);

/// What `op` needs: its instruction's (or extended instruction's) grammar entry and the
/// enumerants its attributes carry. A version that the entry's enabling capabilities bring
/// with them (GroupNonUniformBallot exists from 1.3, DemoteToHelperInvocation from 1.6 or its
/// extension) is left to those capabilities' own availability, as validators take it, so
/// minVersion is then not raised. Not the types of its values (typeAvailability). The
/// module's own vce_triple and target_env are not requirements.
Availability opAvailability(const Operation &op);

/// What `type` needs, everything it is built from included. `storageClass` is the storage class
/// of the pointer the type is the pointee of: 8- and 16-bit scalars in StorageBuffer, Uniform,
/// PushConstant, Input and Output storage need the storage capabilities of
/// SPV_KHR_8bit_storage and SPV_KHR_16bit_storage instead of the arithmetic ones.
Availability typeAvailability(Type type, std::optional<uint32_t> storageClass = std::nullopt);

/// The capabilities `capability` implies (the grammar's "capabilities" of a Capability
/// enumerant), transitively, itself included.
std::vector<grammar::Capability> impliedCapabilities(grammar::Capability capability);

} // namespace spire::dialect
