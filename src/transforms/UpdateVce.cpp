// update-vce (MLIR's spirv-update-vce): the least version, and the capabilities and extensions,
// that the module's ops and types need, as the module's vce_triple.
//
// As MLIR does, capabilities are listed as the requirements chose them, so one that another
// listed capability implies stays listed when something needs it directly (a module with
// matrices and Shader lists both). Unlike MLIR 16 a module without spirv.target_env is not an
// error: every capability and extension is then allowed, and among alternatives the pass
// prefers one already chosen, then one that something needs without alternatives, then the
// first. A requirement the core has from some version on, which extensions also provide (the
// StorageBuffer storage class: 1.3, or SPV_KHR_storage_buffer_storage_class) raises the version
// only when no extension is allowed; the extension is listed only when the version does not
// already provide it. A chosen capability brings its own version or extension (Int64 needs
// nothing, StorageBuffer16BitAccess 1.3 or SPV_KHR_16bit_storage).
#include "spire/transforms/Pass.h"

#include "spire/dialect/Availability.h"
#include "spire/dialect/Ops.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_set>

namespace spire::transforms {

namespace {

using dialect::Attribute;
using dialect::AttrKind;
using dialect::Availability;
using dialect::Block;
using dialect::Type;
using grammar::Capability;
using grammar::Extension;

std::string versionText(uint32_t v) {
  return "v" + std::to_string(grammar::versionMajor(v)) + "." +
         std::to_string(grammar::versionMinor(v));
}

std::string capName(Capability c) {
  return dialect::enumText(grammar::OperandKind::Capability, static_cast<uint32_t>(c));
}

template <class T, class F> std::string joined(const std::vector<T> &items, F name) {
  std::string out;
  for (const T &i : items)
    out += (out.empty() ? "" : ", ") + name(i);
  return out;
}

/// Ops children first, as MLIR's walk visits them (so capabilities come out in its order).
template <class F> void walkPostOrder(Operation *op, F &f) {
  for (uint32_t r = 0; r < op->numRegions(); ++r)
    for (Block *b : op->region(r))
      for (Operation *child = b->front(); child; child = child->next())
        walkPostOrder(child, f);
  f(op);
}

struct Item {
  Availability availability;
  const Operation *op;
};

class UpdateVce final : public Pass {
public:
  std::string_view name() const override { return "update-vce"; }

  Status run(Operation &module, Context &context) override {
    if (&module.info() != &dialect::ops::module())
      return makeError(module.location(), "update-vce runs on a spirv.module");
    Attribute env = module.attr("spirv.target_env");
    if (env && !env.is(AttrKind::TargetEnv))
      return makeError(module.location(), "spirv.target_env is not a #spirv.target_env");
    if (env) {
      Attribute vce = env.targetVce();
      targetVersion_ = vce.version();
      for (uint32_t c : vce.capabilities())
        for (Capability i : dialect::impliedCapabilities(static_cast<Capability>(c)))
          allowedCaps_.insert(i);
      for (const std::string &e : vce.extensions())
        if (std::optional<Extension> x = grammar::findExtension(e))
          allowedExts_.insert(*x);
      hasTarget_ = true;
    }
    if (Attribute mm = module.attr("memory_model"); mm && mm.is(AttrKind::Enum)) {
      if (mm.enumValue() == static_cast<uint32_t>(grammar::MemoryModel::OpenCL))
        ruledOutRoots_.push_back(Capability::Shader);
      else
        ruledOutRoots_.push_back(Capability::Kernel);
    }
    if (Attribute am = module.attr("addressing_model");
        am && am.is(AttrKind::Enum) &&
        am.enumValue() == static_cast<uint32_t>(grammar::AddressingModel::Logical))
      ruledOutRoots_.push_back(Capability::Addresses);
    collect(module);
    if (Status s = resolve(); !s)
      return s;
    std::vector<uint32_t> caps;
    for (Capability c : caps_)
      caps.push_back(static_cast<uint32_t>(c));
    std::vector<std::string> exts;
    for (Extension e : exts_)
      exts.emplace_back(grammar::extensionName(e));
    // Non-semantic instruction sets (what spirv.spire.NonSemantic ops hold) need SPIR-V 1.6 or
    // SPV_KHR_non_semantic_info, an extension no grammar entry names.
    if (version_ < grammar::makeVersion(1, 6) && usesNonSemanticSet(module))
      exts.emplace_back("SPV_KHR_non_semantic_info");
    module.setAttr(context, "vce_triple", dialect::attr::vce(context, version_, caps, exts));
    return {};
  }

private:
  static bool usesNonSemanticSet(Operation &module) {
    bool uses = false;
    dialect::walk(&module, [&](Operation *op) {
      if (&op->info() != &dialect::ops::nonSemantic() &&
          &op->info() != &dialect::ops::nonSemanticGlobal())
        return;
      Attribute set = op->attr("set");
      uses |= set && set.is(AttrKind::String) && set.str().starts_with("NonSemantic.");
    });
    return uses;
  }

  void collect(Operation &module) {
    auto visit = [this](Operation *op) {
      Item item{dialect::opAvailability(*op), op};
      auto addType = [&item](Type t) {
        if (t)
          item.availability.merge(dialect::typeAvailability(t));
      };
      // Ops that only move or convert values may do so with 8- and 16-bit types that only
      // storage capabilities allow: their values need nothing (pointers still do).
      bool moves = movesValues(*op);
      auto addValueType = [&addType, moves](Type t) {
        if (!moves || (t && t.is(dialect::TypeKind::Pointer)))
          addType(t);
      };
      for (uint32_t i = 0; i < op->numOperands(); ++i)
        addValueType(op->operand(i).type());
      for (uint32_t i = 0; i < op->numResults(); ++i)
        addValueType(op->result(i).type());
      // Types as attributes: a global variable's, a function's, a composite spec constant's.
      for (const dialect::NamedAttribute &n : op->attributes())
        if (n.attr().is(AttrKind::Type))
          addType(n.attr().type());
      for (uint32_t r = 0; r < op->numRegions(); ++r)
        for (Block *b : op->region(r))
          for (uint32_t a = 0; a < b->numArguments(); ++a)
            addType(b->argument(a).type());
      if (!item.availability.empty())
        items_.push_back(std::move(item));
    };
    walkPostOrder(&module, visit);
    interfaceVersions(module);
  }

  /// Before SPIR-V 1.4 an entry point's interface lists only Input and Output variables; from
  /// 1.4 it lists every global variable the entry point uses (2.17, 3.32.6). An interface that
  /// lists another storage class therefore needs 1.4: lowering the version below it would
  /// make the module invalid.
  void interfaceVersions(Operation &module) {
    std::map<std::string_view, uint32_t> storageClassOf;
    for (Block *b : module.region(0))
      for (Operation *op : *b)
        if (&op->info() == &dialect::ops::globalVariable())
          if (Attribute sym = op->attr("sym_name"), t = op->attr("type"); sym && t)
            if (t.type() && t.type().is(dialect::TypeKind::Pointer))
              storageClassOf[sym.str()] = t.type().storageClass();
    for (Block *b : module.region(0))
      for (Operation *op : *b) {
        if (&op->info() != &dialect::ops::entryPoint())
          continue;
        Attribute iface = op->attr("interface");
        if (!iface)
          continue;
        for (Attribute v : iface.elements()) {
          auto it = storageClassOf.find(v.str());
          if (it == storageClassOf.end() ||
              it->second == static_cast<uint32_t>(grammar::StorageClass::Input) ||
              it->second == static_cast<uint32_t>(grammar::StorageClass::Output))
            continue;
          Item item{{}, op};
          item.availability.minVersion = grammar::makeVersion(1, 4);
          item.availability.minVersionSource =
              "its interface listing @" + std::string(v.str()) + ", neither Input nor Output";
          items_.push_back(std::move(item));
          break;
        }
      }
  }

  static bool movesValues(const Operation &op) {
    static const std::string_view names[] = {
        "spirv.Load",     "spirv.Store",    "spirv.CopyObject", "spirv.CopyMemory",
        "spirv.UConvert", "spirv.SConvert", "spirv.FConvert"};
    return std::find(std::begin(names), std::end(names), op.name()) != std::end(names);
  }

  static std::string who(const Item &item, const std::string &source) {
    std::string name(item.op->name());
    if (source.empty() || source == name)
      return "'" + name + "'";
    return "'" + name + "' (" + source + ")";
  }

  Status raiseVersion(uint32_t v, const Operation *op, const std::string &what) {
    if (v <= version_)
      return {};
    if (hasTarget_ && v > targetVersion_)
      return makeError(op->location(), what + " requires min version " + versionText(v) +
                                           " but the target environment allows up to " +
                                           versionText(targetVersion_));
    version_ = v;
    return {};
  }

  bool capabilityChosen(Capability c) const {
    return std::find(caps_.begin(), caps_.end(), c) != caps_.end();
  }

  bool extensionChosen(Extension e) const {
    return std::find(exts_.begin(), exts_.end(), e) != exts_.end();
  }

  /// Without a target: an alternative already chosen, else one that something needs without
  /// alternatives (or that such a one implies), else one a chosen capability implies, else,
  /// among those the module's models do not rule out, the one most requirements offer, a
  /// capability without a vendor suffix before KHR before the other vendors'.
  Capability choose(const std::vector<Capability> &anyOf) const {
    for (Capability c : anyOf)
      if (capabilityChosen(c))
        return c;
    for (Capability c : anyOf)
      if (needed_.count(c))
        return c;
    std::unordered_set<uint32_t> implied;
    for (Capability chosen : caps_)
      for (Capability i : dialect::impliedCapabilities(chosen))
        implied.insert(static_cast<uint32_t>(i));
    for (Capability c : anyOf)
      if (implied.count(static_cast<uint32_t>(c)))
        return c;
    std::vector<Capability> candidates;
    for (Capability c : anyOf)
      if (!ruledOut(c))
        candidates.push_back(c);
    if (candidates.empty())
      candidates = anyOf;
    auto rank = [](Capability c) {
      std::string n = capName(c);
      for (std::string_view v : {"NV", "NVX", "AMD", "INTEL", "ARM", "QCOM", "HUAWEI", "EXT"})
        if (n.size() > v.size() && n.ends_with(v))
          return 2;
      return n.ends_with("KHR") ? 1 : 0;
    };
    Capability best = candidates.front();
    for (Capability c : candidates) {
      size_t vc = votes_.count(c) ? votes_.at(c) : 0, vb = votes_.count(best) ? votes_.at(best) : 0;
      if (vc > vb || (vc == vb && rank(c) < rank(best)))
        best = c;
    }
    return best;
  }

  /// A capability the module's addressing and memory models rule out: Kernel and what implies
  /// it in a GLSL450 or Vulkan module, Shader and what implies it in an OpenCL one, Addresses
  /// with Logical addressing.
  bool ruledOut(Capability c) const {
    for (Capability i : dialect::impliedCapabilities(c))
      if (std::find(ruledOutRoots_.begin(), ruledOutRoots_.end(), i) != ruledOutRoots_.end())
        return true;
    return false;
  }

  Status resolve() {
    uint32_t maxVersion = grammar::kNoVersion;
    std::string maxSource;
    for (const Item &item : items_) {
      const Availability &a = item.availability;
      if (Status s = raiseVersion(a.minVersion, item.op, who(item, a.minVersionSource)); !s)
        return s;
      if (a.maxVersion < maxVersion) {
        maxVersion = a.maxVersion;
        maxSource = who(item, a.maxVersionSource);
      }
    }
    // Capabilities. Without a target, those needed without alternatives are preferred among
    // alternatives.
    for (const Item &item : items_)
      for (const dialect::CapabilityRequirement &r : item.availability.capabilities) {
        if (r.anyOf.size() == 1)
          for (Capability i : dialect::impliedCapabilities(r.anyOf.front()))
            needed_.insert(i);
        else
          for (Capability c : r.anyOf)
            ++votes_[c];
      }
    // Extension requirements: the items' and those of the capabilities chosen.
    struct ExtItem {
      dialect::ExtensionRequirement req;
      const Operation *op;
      std::string who;
    };
    std::vector<ExtItem> extItems;
    for (const Item &item : items_) {
      for (const dialect::CapabilityRequirement &r : item.availability.capabilities) {
        if (r.anyOf.empty())
          continue;
        Capability chosen;
        if (hasTarget_) {
          auto it = std::find_if(r.anyOf.begin(), r.anyOf.end(),
                                 [this](Capability c) { return allowedCaps_.count(c) != 0; });
          if (it == r.anyOf.end())
            return makeError(item.op->location(),
                             who(item, r.source) + " requires at least one capability among {" +
                                 joined(r.anyOf, capName) +
                                 "} but the target environment allows none of them");
          chosen = *it;
        } else {
          chosen = choose(r.anyOf);
        }
        if (capabilityChosen(chosen))
          continue;
        caps_.push_back(chosen);
        // The capability's own version or extension; what it lists as capabilities are the
        // ones it implies, not ones it needs.
        const grammar::EnumerantDesc *e =
            grammar::findEnumerant(grammar::OperandKind::Capability, static_cast<uint32_t>(chosen));
        if (!e)
          continue;
        const grammar::Availability &own = e->availability;
        std::string what = who(item, r.source) + " through capability " + capName(chosen);
        if (!own.extensions.empty())
          extItems.push_back({{{own.extensions.begin(), own.extensions.end()},
                               own.minVersion,
                               "capability " + capName(chosen)},
                              item.op,
                              what});
        else if (own.minVersion != grammar::kNoVersion)
          if (Status s = raiseVersion(own.minVersion, item.op, what); !s)
            return s;
      }
      for (const dialect::ExtensionRequirement &x : item.availability.extensions)
        extItems.push_back({x, item.op, who(item, x.source)});
    }
    // Extensions. First the requirements no allowed extension meets raise the version (when
    // the target allows it), then the others not met by the version choose an extension.
    for (const ExtItem &x : extItems) {
      if (x.req.unlessVersion <= version_ || !hasTarget_)
        continue;
      bool allowed = std::any_of(x.req.anyOf.begin(), x.req.anyOf.end(),
                                 [this](Extension e) { return allowedExts_.count(e) != 0; });
      if (allowed)
        continue;
      if (x.req.unlessVersion == grammar::kNoVersion || x.req.unlessVersion > targetVersion_) {
        std::string msg =
            x.who + " requires at least one extension among {" +
            joined(x.req.anyOf,
                   [](Extension e) { return std::string(grammar::extensionName(e)); }) +
            "}";
        if (x.req.unlessVersion != grammar::kNoVersion)
          msg += " or version " + versionText(x.req.unlessVersion);
        return makeError(x.op->location(), msg + " but the target environment allows none of them");
      }
      if (Status s = raiseVersion(x.req.unlessVersion, x.op, x.who); !s)
        return s;
    }
    for (const ExtItem &x : extItems) {
      if (x.req.unlessVersion <= version_ || x.req.anyOf.empty())
        continue;
      if (std::any_of(x.req.anyOf.begin(), x.req.anyOf.end(),
                      [this](Extension e) { return extensionChosen(e); }))
        continue;
      Extension chosen = x.req.anyOf.front();
      if (hasTarget_)
        chosen = *std::find_if(x.req.anyOf.begin(), x.req.anyOf.end(),
                               [this](Extension e) { return allowedExts_.count(e) != 0; });
      exts_.push_back(chosen);
    }
    if (version_ > maxVersion)
      return makeError({}, maxSource + " exists only up to " + versionText(maxVersion) +
                               " but the module needs " + versionText(version_));
    return {};
  }

  bool hasTarget_ = false;
  uint32_t targetVersion_ = 0;
  std::unordered_set<Capability> allowedCaps_;
  std::unordered_set<Extension> allowedExts_;
  std::vector<Item> items_;
  std::set<Capability> needed_;
  std::map<Capability, size_t> votes_;
  std::vector<Capability> ruledOutRoots_;
  uint32_t version_ = grammar::makeVersion(1, 0);
  std::vector<Capability> caps_;
  std::vector<Extension> exts_;
};

} // namespace

std::unique_ptr<Pass> createUpdateVcePass() { return std::make_unique<UpdateVce>(); }

extern const PassRegistration kUpdateVcePass{
    "update-vce", "deduce the module's version, capabilities and extensions", createUpdateVcePass};

} // namespace spire::transforms
