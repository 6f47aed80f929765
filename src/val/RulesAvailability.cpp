// Rules: version, capability and extension requirements of everything the module uses
// (SPIR-V 2.16.1 "Universal validation rules", and the "Capability" and "Enabling Capabilities"
// columns of section 3), read from the generated grammar tables.
//
// An instruction or enumerant is usable when
//   - the module's version lies in its [first, last] versions, or the module declares one of the
//     extensions or capabilities that provide it (which bring nothing back after its last
//     version), and
//   - it needs no capability, or the module declares (or implies) one of those it lists; an
//     extension alone is not enough.
// OpCapability's own operand is the exception: declaring a capability declares the ones it
// depends on, so only its version and extensions are checked.
#include "Rules.h"

#include <algorithm>
#include <array>

namespace spire::val {

namespace {

using grammar::Availability;
using grammar::OperandCategory;
using grammar::OperandKind;

std::string versionText(uint32_t v) {
  return std::to_string(grammar::versionMajor(v)) + "." + std::to_string(grammar::versionMinor(v));
}

template <typename List, typename Name> std::string joined(const List &list, Name name) {
  std::string out;
  for (const auto &item : list) {
    if (!out.empty())
      out += ", ";
    out += name(item);
  }
  return out;
}

class AvailabilityChecker {
public:
  explicit AvailabilityChecker(State &s) : s_(s), version_(s.module().version()) {}

  void run() {
    for (Instruction inst : s_.module()) {
      if (s_.stopped())
        return;
      if (inst.isRaw()) {
        // The reader keeps what it cannot decode; nothing the grammar does not describe can be
        // valid.
        s_.error(inst.index(), "2.16.1",
                 "opcode " + std::to_string(inst.wordCount() ? inst.word(0) & 0xFFFF : 0) +
                     " is not an instruction of the grammar, or its operands could not be "
                     "decoded");
        continue;
      }
      const grammar::InstructionDesc *desc = inst.desc();
      if (!desc)
        continue;
      // What an opcode needs is the same at every use, and the module's version, capabilities
      // and extensions do not change: a core opcode that passed once passes again (one that
      // failed is reported at each use).
      const bool kept = desc->opcode < passedOpcodes_.size();
      if (!(kept && passedOpcodes_[desc->opcode]) &&
          check(
              inst, [&] { return std::string(desc->name); }, desc->availability,
              /*capabilitiesToo=*/true) &&
          kept)
        passedOpcodes_[desc->opcode] = true;
      checkOperands(inst, *desc);
      if (inst.opcode() == Op::Extension && !inst.operands().empty())
        checkExtensionVersion(inst, inst.stringOperand(inst.operands()[0]));
      if (inst.opcode() == Op::ExtInstImport && inst.operands().size() >= 2 &&
          inst.stringOperand(inst.operands()[1]).rfind("NonSemantic.", 0) == 0 &&
          version_ < grammar::makeVersion(1, 6) && !s_.hasExtension("SPV_KHR_non_semantic_info"))
        s_.error(inst.index(), "2.16.1",
                 "non-semantic instruction sets need SPIR-V 1.6 or the "
                 "SPV_KHR_non_semantic_info extension");
    }
  }

private:
  // The SPIR-V version an extension's specification requires ("Dependencies: This extension
  // requires SPIR-V 1.4"), for the extensions that need more than 1.0. Names, not
  // grammar::Extension values: an older grammar may not list them.
  void checkExtensionVersion(const Instruction &inst, std::string_view name) {
    static constexpr struct {
      std::string_view name;
      uint32_t minor; // SPIR-V 1.minor
    } kRequired[] = {
        {"SPV_EXT_mesh_shader", 4},
        {"SPV_EXT_shader_invocation_reorder", 4},
        {"SPV_KHR_opacity_micromap", 4},
        {"SPV_KHR_vulkan_memory_model", 3},
        {"SPV_KHR_workgroup_memory_explicit_layout", 4},
        {"SPV_NV_cluster_acceleration_structure", 4},
        {"SPV_NV_linear_swept_spheres", 4},
        {"SPV_NV_shader_invocation_reorder", 4},
        {"SPV_QCOM_cooperative_matrix_conversion", 3},
        {"SPV_QCOM_image_processing", 4},
        {"SPV_QCOM_image_processing2", 4},
    };
    for (const auto &[extension, minor] : kRequired)
      if (extension == name && version_ < grammar::makeVersion(1, minor))
        s_.error(inst.index(), std::string(extension) + ", Dependencies",
                 std::string(extension) + " requires SPIR-V 1." + std::to_string(minor) +
                     "; the module is SPIR-V " + versionText(version_));
  }

  void checkOperands(const Instruction &inst, const grammar::InstructionDesc &desc) {
    const bool declaresCapability = inst.opcode() == Op::Capability;
    auto ops = inst.operands();
    for (size_t k = 0; k < ops.size(); ++k) {
      const OperandKind kind = ops[k].kind;
      const OperandCategory category = grammar::operandCategory(kind);
      if (category != OperandCategory::ValueEnum && category != OperandCategory::BitEnum)
        continue;
      const uint32_t value = inst.word(ops[k].offset);
      if (exempt(inst, kind, value))
        continue;
      // Named only on failure.
      auto what = [&](const grammar::EnumerantDesc &e) {
        return [&] {
          return std::string(grammar::operandKindName(kind)) + " " + std::string(e.name) +
                 " (operand of " + std::string(desc.name) + ")";
        };
      };
      if (category == OperandCategory::ValueEnum) {
        if (const grammar::EnumerantDesc *e = grammar::findEnumerant(kind, value);
            e != nullptr && !comesWithInstruction(e->availability))
          check(inst, what(*e), e->availability, !declaresCapability);
        continue;
      }
      for (uint32_t rest = value; rest != 0; rest &= rest - 1) {
        const uint32_t bit = rest & (~rest + 1);
        if (const grammar::EnumerantDesc *e = grammar::findEnumerant(kind, bit);
            e != nullptr && !comesWithInstruction(e->availability))
          check(inst, what(*e), e->availability, true);
      }
    }
  }

  // Operands whose requirements are not the grammar's alone.
  bool exempt(const Instruction &inst, OperandKind kind, uint32_t value) const {
    // ClipDistance and CullDistance need their capabilities only where a shader reads or writes
    // them; decorating a variable or a gl_PerVertex member with them does not (as spirv-val).
    constexpr uint32_t kClipDistance = uint32_t(grammar::BuiltIn::ClipDistance),
                       kCullDistance = uint32_t(grammar::BuiltIn::CullDistance);
    if (kind == OperandKind::BuiltIn && (value == kClipDistance || value == kCullDistance))
      return true;
    // SPV_AMD_shader_ballot brings reductions and scans to the Group* instructions in shaders.
    if (kind == OperandKind::GroupOperation && value <= 2 &&
        s_.hasExtension("SPV_AMD_shader_ballot"))
      return true;
    return false;
  }

  // An enumerant the grammar gives no version, capability or extension of its own (the
  // Cooperative Matrix Operands, Layouts and Uses of newer grammars, "version": "None") comes with
  // the instruction that takes it, whose own availability is checked.
  static bool comesWithInstruction(const Availability &a) {
    return a.minVersion == grammar::kNoVersion && a.extensions.empty() && a.capabilities.empty();
  }

  bool anyExtension(const Availability &a) const {
    for (grammar::Extension e : a.extensions)
      if (s_.hasExtension(e))
        return true;
    return false;
  }

  bool anyCapability(const Availability &a) const {
    for (grammar::Capability c : a.capabilities)
      if (s_.hasCapability(c))
        return true;
    return false;
  }

  /// A declared capability of `a` that brings it outside the versions that have it in the core:
  /// one that is itself newer than SPIR-V 1.0 or comes from an extension (DemoteToHelper-
  /// Invocation brings OpDemoteToHelperInvocation). A capability of SPIR-V 1.0's core (Shader,
  /// which the StorageBuffer storage class lists) brings nothing that a later version or an
  /// extension provides; asked only where `a` names extensions.
  bool anyEnablingCapability(const Availability &a) const {
    for (grammar::Capability c : a.capabilities) {
      if (!s_.hasCapability(c))
        continue;
      const grammar::EnumerantDesc *e =
          grammar::findEnumerant(OperandKind::Capability, uint32_t(c));
      if (!e || !e->availability.extensions.empty() ||
          e->availability.minVersion > grammar::makeVersion(1, 0))
        return true;
    }
    return false;
  }

  /// `what()` names the instruction or operand in messages. False when it reported an error.
  template <class What>
  bool check(const Instruction &inst, What what, const Availability &a, bool capabilitiesToo) {
    const bool extension = anyExtension(a);
    // What a declared capability enables is usable outside the versions that have it in the
    // core (OpDemoteToHelperInvocation with DemoteToHelperInvocation from its extension); a
    // capability operand itself is not enabled by the capabilities it depends on.
    const bool byCapability =
        capabilitiesToo && (a.extensions.empty() ? anyCapability(a) : anyEnablingCapability(a));
    // What a later version removed (OpLessOrGreater after 1.5, OpAtomicCompareExchangeWeak and
    // BufferBlock after 1.3) no capability or extension brings back.
    const bool removed = a.lastVersion != grammar::kNoVersion && version_ > a.lastVersion;
    if (removed ||
        (!extension && !byCapability && !(a.minVersion <= version_ && version_ <= a.lastVersion))) {
      std::string message = what();
      if (a.minVersion == grammar::kNoVersion && a.extensions.empty())
        // In no version's core and without extensions of its own: a capability brings it (the
        // capability's own availability names the extension).
        message += " needs one of the capabilities " + capabilityNames(a) +
                   ", and the module declares none of them";
      else if (a.minVersion == grammar::kNoVersion)
        message += " needs one of the extensions " + joined(a.extensions, [](grammar::Extension e) {
                     return std::string(grammar::extensionName(e));
                   });
      else if (version_ > a.lastVersion)
        message += " was removed after SPIR-V " + versionText(a.lastVersion);
      else
        message += " needs SPIR-V " + versionText(a.minVersion) +
                   (a.extensions.empty() ? std::string()
                                         : " or one of the extensions " +
                                               joined(a.extensions, [](grammar::Extension e) {
                                                 return std::string(grammar::extensionName(e));
                                               }));
      s_.error(inst.index(), "2.16.1", message + "; the module is SPIR-V " + versionText(version_));
      return false;
    }
    // A declared extension does not stand in for a capability: the capability must be declared
    // too (SPV_KHR_multiview's ViewIndex still needs MultiView).
    if (!capabilitiesToo || a.capabilities.empty() || anyCapability(a))
      return true;
    s_.error(inst.index(), "2.16.1",
             what() + " needs one of the capabilities " + capabilityNames(a) +
                 ", and the module declares none of them");
    return false;
  }

  static std::string capabilityNames(const Availability &a) {
    return joined(a.capabilities, [](grammar::Capability c) {
      return State::enumerantName(OperandKind::Capability, uint32_t(c));
    });
  }

  State &s_;
  const uint32_t version_;
  std::array<bool, 1024> passedOpcodes_{}; ///< core opcodes whose requirements were met
};

} // namespace

void checkAvailability(State &s) { AvailabilityChecker(s).run(); }

void checkClientCapabilities(State &s, bool (*supported)(const State &, grammar::Capability),
                             std::string_view rule, const std::string &client) {
  for (Instruction inst : s.module()) {
    if (inst.section() > Section::Capability)
      break;
    if (inst.isRaw() || inst.opcode() != Op::Capability || inst.wordCount() < 2)
      continue;
    const uint32_t value = inst.word(1);
    if (supported(s, static_cast<grammar::Capability>(value)))
      continue;
    const grammar::EnumerantDesc *e =
        grammar::findEnumerant(grammar::OperandKind::Capability, value);
    if (e == nullptr)
      continue; // unknown to this grammar: the availability rules report it
    const auto &extensions = e->availability.extensions;
    if (std::any_of(extensions.begin(), extensions.end(),
                    [&](grammar::Extension x) { return s.hasExtension(x); }))
      continue;
    s.error(inst.index(), rule,
            "the " + std::string(e->name) + " capability is not one " + client +
                " supports, and no declared extension enables it");
  }
}

} // namespace spire::val
