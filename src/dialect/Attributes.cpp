#include "spire/dialect/Attributes.h"

#include "AsmText.h"
#include "AttrStore.h"
#include "Naming.h"

#include <algorithm>
#include <cstring>
#include <deque>
#include <unordered_map>

namespace spire::dialect {

using detail::AttrStorage;
using detail::AttrStore;
using detail::DebugLocKey;

namespace {

void put(std::string &k, uint64_t v) { k.append(reinterpret_cast<const char *>(&v), sizeof v); }
void putPtr(std::string &k, const void *p) { put(k, reinterpret_cast<uintptr_t>(p)); }
void putText(std::string &k, std::string_view s) {
  put(k, s.size());
  k.append(s);
}

/// The uniquing key of an attribute, written into `k` (a buffer reused across calls). Most
/// attributes are a kind, a type and a number: those three go first in one write, with a word
/// that says which of the text and lists are not empty, and only those follow.
void keyOf(const AttrStorage &s, std::string &k) {
  constexpr uint32_t kText = 1, kList = 2, kCaps = 4, kExts = 8, kDict = 16;
  const uint32_t present = (s.text.empty() ? 0 : kText) | (s.list.empty() ? 0 : kList) |
                           (s.caps().empty() ? 0 : kCaps) | (s.exts().empty() ? 0 : kExts) |
                           (s.dict().empty() ? 0 : kDict);
  const uint64_t fixed[] = {static_cast<uint64_t>(s.kind) | static_cast<uint64_t>(s.enumKind) << 8 |
                                static_cast<uint64_t>(present) << 32,
                            reinterpret_cast<uintptr_t>(s.type.opaque()), s.bits};
  k.assign(reinterpret_cast<const char *>(fixed), sizeof fixed);
  if (present == 0)
    return;
  if (present & kText)
    putText(k, s.text);
  if (present & kList) {
    put(k, s.list.size());
    for (Attribute a : s.list)
      putPtr(k, a.storage());
  }
  if (present & kCaps) {
    put(k, s.caps().size());
    for (uint32_t c : s.caps())
      put(k, c);
  }
  if (present & kExts) {
    put(k, s.exts().size());
    for (const std::string &e : s.exts())
      putText(k, e);
  }
  if (present & kDict) {
    put(k, s.dict().size());
    for (const NamedAttribute &n : s.dict()) {
      putText(k, n.name);
      putPtr(k, n.value);
    }
  }
}

Attribute unique(Context &context, AttrStorage &&s) {
  detail::AttrStore &store = context.attrStore();
  // Looked up without allocating (the store's scratch keys keep their capacity); a new
  // attribute's slot holds its key's hash, not a copy of the key.
  std::string &k = store.key;
  keyOf(s, k);
  const uint64_t h = detail::KeyHash{}(k);
  if (store.slots.empty())
    store.slots.assign(64, {});
  size_t mask = store.slots.size() - 1, i = h & mask;
  for (; store.slots[i].attr; i = (i + 1) & mask)
    if (store.slots[i].hash == h) {
      keyOf(*store.slots[i].attr, store.otherKey);
      if (store.otherKey == k)
        return Attribute(store.slots[i].attr);
    }
  store.attrs.push_back(std::move(s));
  const AttrStorage *p = &store.attrs.back();
  if (2 * (store.count + 1) > store.slots.size()) {
    // At most half full: twice the slots, each attribute placed again by its hash.
    std::vector<AttrStore::Slot> old(2 * store.slots.size(), AttrStore::Slot{});
    old.swap(store.slots);
    mask = store.slots.size() - 1;
    for (const AttrStore::Slot &o : old)
      if (o.attr) {
        size_t j = o.hash & mask;
        while (store.slots[j].attr)
          j = (j + 1) & mask;
        store.slots[j] = o;
      }
    i = h & mask;
    while (store.slots[i].attr)
      i = (i + 1) & mask;
  }
  store.slots[i] = {h, p};
  ++store.count;
  return Attribute(p);
}

AttrStorage make(AttrKind kind) {
  AttrStorage s;
  s.kind = kind;
  return s;
}

uint64_t lowBits(uint64_t v, unsigned width) {
  return width >= 64 ? v : (v & ((uint64_t(1) << width) - 1));
}

} // namespace

namespace {

// TOSA.001000.1's enumerations: their attribute names and the values their enumerants have in
// the instructions (the TOSA specification's), by the names MLIR prints.
constexpr std::string_view kDialectEnumNames[] = {
    "tosa_ext_acc_type", "tosa_ext_nan_propagation_mode_type", "tosa_ext_resize_mode_type",
    "tosa_ext_rounding_mode_type"};

struct DialectEnumerant {
  DialectEnumKind kind;
  std::string_view text;
  uint32_t value;
};

constexpr DialectEnumerant kDialectEnumerants[] = {
    {DialectEnumKind::TosaAccType, "INT32", 1},
    {DialectEnumKind::TosaAccType, "FP16", 2},
    {DialectEnumKind::TosaAccType, "FP32", 3},
    {DialectEnumKind::TosaAccType, "INT48", 4},
    {DialectEnumKind::TosaNanMode, "Propagate", 1},
    {DialectEnumKind::TosaNanMode, "Ignore", 2},
    {DialectEnumKind::TosaResizeMode, "NearestNeighbor", 1},
    {DialectEnumKind::TosaResizeMode, "Bilinear", 2},
    {DialectEnumKind::TosaRoundingMode, "SingleRound", 1},
    {DialectEnumKind::TosaRoundingMode, "InexactRound", 2},
    {DialectEnumKind::TosaRoundingMode, "DoubleRound", 3},
};

} // namespace

std::string_view dialectEnumName(DialectEnumKind kind) {
  return kDialectEnumNames[static_cast<size_t>(kind)];
}

std::optional<DialectEnumKind> dialectEnumNamed(std::string_view name) {
  for (size_t k = 0; k < std::size(kDialectEnumNames); ++k)
    if (kDialectEnumNames[k] == name)
      return static_cast<DialectEnumKind>(k);
  return std::nullopt;
}

std::string_view dialectEnumText(DialectEnumKind kind, uint32_t value) {
  for (const DialectEnumerant &e : kDialectEnumerants)
    if (e.kind == kind && e.value == value)
      return e.text;
  return {};
}

std::optional<uint32_t> dialectEnumValue(DialectEnumKind kind, std::string_view name) {
  for (const DialectEnumerant &e : kDialectEnumerants)
    if (e.kind == kind && e.text == name)
      return e.value;
  return std::nullopt;
}

std::string_view intern(Context &context, std::string_view name) {
  auto &names = context.attrStore().names;
  auto it = names.find(name); // no string made for a name already interned
  return it != names.end() ? *it : *names.emplace(name).first;
}

const DebugLoc *fileLineCol(Context &context, std::string_view file, uint32_t line,
                            uint32_t column) {
  std::string_view name = intern(context, file);
  AttrStore &store = context.attrStore();
  const DebugLocKey key{name.data(), name.size(), line, column};
  auto it = store.debugLocIndex.find(key);
  if (it != store.debugLocIndex.end())
    return it->second;
  const DebugLoc *loc = &store.debugLocs.emplace_back(DebugLoc{name, line, column});
  store.debugLocIndex.emplace(key, loc);
  return loc;
}

namespace attr {

Attribute unit(Context &context) { return unique(context, make(AttrKind::Unit)); }
Attribute undef(Context &context) { return unique(context, make(AttrKind::Undef)); }
Attribute null(Context &context) { return unique(context, make(AttrKind::Null)); }

Attribute boolean(Context &context, bool value) {
  AttrStorage s = make(AttrKind::Bool);
  s.bits = value;
  return unique(context, std::move(s));
}

Attribute integer(Context &context, Type type, int64_t value) {
  AttrStorage s = make(AttrKind::Integer);
  s.type = type;
  s.bits = lowBits(static_cast<uint64_t>(value), type ? type.width() : 64);
  return unique(context, std::move(s));
}

Attribute floating(Context &context, Type type, double value) {
  AttrStorage s = make(AttrKind::Float);
  s.type = type;
  std::memcpy(&s.bits, &value, sizeof value);
  return unique(context, std::move(s));
}

Attribute string(Context &context, std::string_view text) {
  AttrStorage s = make(AttrKind::String);
  s.text = text;
  return unique(context, std::move(s));
}

Attribute type(Context &context, Type type) {
  AttrStorage s = make(AttrKind::Type);
  s.type = type;
  return unique(context, std::move(s));
}

Attribute array(Context &context, std::span<const Attribute> elements) {
  AttrStorage s = make(AttrKind::Array);
  s.list.assign(elements.begin(), elements.end());
  return unique(context, std::move(s));
}

Attribute dense(Context &context, Type type, std::span<const Attribute> elements) {
  AttrStorage s = make(AttrKind::Dense);
  s.type = type;
  s.list.assign(elements.begin(), elements.end());
  return unique(context, std::move(s));
}

Attribute symbolRef(Context &context, std::string_view name) {
  AttrStorage s = make(AttrKind::SymbolRef);
  s.text = name;
  return unique(context, std::move(s));
}

Attribute enumerant(Context &context, grammar::OperandKind kind, uint32_t value) {
  AttrStorage s = make(AttrKind::Enum);
  s.enumKind = kind;
  s.bits = value;
  return unique(context, std::move(s));
}

Attribute vce(Context &context, uint32_t version, std::span<const uint32_t> capabilities,
              std::span<const std::string> extensions) {
  AttrStorage s = make(AttrKind::Vce);
  s.bits = version;
  s.more().caps.assign(capabilities.begin(), capabilities.end());
  s.more().exts.assign(extensions.begin(), extensions.end());
  return unique(context, std::move(s));
}

Attribute dictionary(Context &context, std::vector<NamedAttribute> entries) {
  std::stable_sort(
      entries.begin(), entries.end(),
      [](const NamedAttribute &a, const NamedAttribute &b) { return a.name < b.name; });
  std::vector<NamedAttribute> kept;
  for (NamedAttribute &e : entries) {
    e.name = intern(context, e.name);
    if (!kept.empty() && kept.back().name == e.name)
      kept.back() = e;
    else
      kept.push_back(e);
  }
  AttrStorage s = make(AttrKind::Dictionary);
  s.more().dict = std::move(kept);
  return unique(context, std::move(s));
}

Attribute interfaceVarAbi(Context &context, uint32_t descriptorSet, uint32_t binding,
                          std::optional<uint32_t> storageClass) {
  AttrStorage s = make(AttrKind::InterfaceVarAbi);
  s.more().caps = {descriptorSet, binding};
  s.bits = storageClass ? uint64_t(*storageClass) + 1 : 0;
  return unique(context, std::move(s));
}

Attribute entryPointAbi(Context &context, std::span<const uint32_t> workgroupSize,
                        std::optional<uint32_t> subgroupSize) {
  AttrStorage s = make(AttrKind::EntryPointAbi);
  s.more().caps.assign(workgroupSize.begin(), workgroupSize.end());
  s.bits = subgroupSize ? uint64_t(*subgroupSize) + 1 : 0;
  return unique(context, std::move(s));
}

Attribute targetEnv(Context &context, Attribute vce, std::string_view deviceInfo,
                    Attribute limits) {
  AttrStorage s = make(AttrKind::TargetEnv);
  s.list = {vce, limits ? limits : dictionary(context, {})};
  s.text = deviceInfo;
  return unique(context, std::move(s));
}

Attribute dialectEnum(Context &context, DialectEnumKind kind, uint32_t value) {
  AttrStorage s = make(AttrKind::DialectEnum);
  s.bits = uint64_t(kind) << 32 | value;
  return unique(context, std::move(s));
}

Attribute linkage(Context &context, std::string_view name, uint32_t type) {
  AttrStorage s = make(AttrKind::LinkageAttributes);
  s.text = name;
  s.enumKind = grammar::OperandKind::LinkageType;
  s.bits = type;
  return unique(context, std::move(s));
}

} // namespace attr

AttrKind Attribute::kind() const { return s_->kind; }
Type Attribute::type() const { return s_->type; }
bool Attribute::boolValue() const { return s_->bits != 0; }

int64_t Attribute::intValue() const {
  unsigned width = s_->type ? s_->type.width() : 64;
  uint64_t v = s_->bits;
  if (width >= 64 || (s_->type && s_->type.signedness() == Signedness::Unsigned))
    return static_cast<int64_t>(v);
  uint64_t sign = uint64_t(1) << (width - 1);
  return static_cast<int64_t>((v ^ sign) - sign);
}

uint64_t Attribute::bits() const { return s_->bits; }

double Attribute::floatValue() const {
  double d;
  std::memcpy(&d, &s_->bits, sizeof d);
  return d;
}

std::string_view Attribute::str() const { return s_->text; }
std::span<const Attribute> Attribute::elements() const { return s_->list; }
grammar::OperandKind Attribute::enumKind() const { return s_->enumKind; }
uint32_t Attribute::enumValue() const { return static_cast<uint32_t>(s_->bits); }
DialectEnumKind Attribute::dialectEnum() const {
  return static_cast<DialectEnumKind>(s_->bits >> 32);
}
uint32_t Attribute::version() const { return static_cast<uint32_t>(s_->bits); }
std::span<const uint32_t> Attribute::capabilities() const { return s_->caps(); }
std::span<const std::string> Attribute::extensions() const { return s_->exts(); }
std::span<const NamedAttribute> Attribute::entries() const { return s_->dict(); }

Attribute Attribute::lookup(std::string_view name) const {
  auto it =
      std::lower_bound(s_->dict().begin(), s_->dict().end(), name,
                       [](const NamedAttribute &a, std::string_view n) { return a.name < n; });
  return it != s_->dict().end() && it->name == name ? it->attr() : Attribute();
}

uint32_t Attribute::descriptorSet() const { return s_->caps().at(0); }
uint32_t Attribute::binding() const { return s_->caps().at(1); }
std::optional<uint32_t> Attribute::abiStorageClass() const {
  return s_->bits ? std::optional<uint32_t>(static_cast<uint32_t>(s_->bits - 1)) : std::nullopt;
}
std::span<const uint32_t> Attribute::workgroupSize() const { return s_->caps(); }
std::optional<uint32_t> Attribute::subgroupSize() const { return abiStorageClass(); }
Attribute Attribute::targetVce() const { return s_->list.at(0); }
std::string_view Attribute::deviceInfo() const { return s_->text; }
Attribute Attribute::resourceLimits() const { return s_->list.at(1); }

// --- Text -----------------------------------------------------------------------------------

std::string enumAttrName(grammar::OperandKind kind) {
  // The joint matrix layout of spire's grammar supplement is MLIR's #spirv.matrix_layout.
  if (kind == grammar::OperandKind::JointMatrixLayoutINTEL)
    return "matrix_layout";
  return snakeCase(grammar::operandKindName(kind));
}

namespace {

/// The enum kinds by their attribute names: the inverse of enumAttrName.
struct EnumKindNames {
  std::deque<std::string> names;
  std::unordered_map<std::string_view, grammar::OperandKind> kinds;
  EnumKindNames() {
    for (unsigned k = 0; k < std::size(grammar::kOperandCategories); ++k) {
      auto kind = static_cast<grammar::OperandKind>(k);
      grammar::OperandCategory c = grammar::operandCategory(kind);
      if (c == grammar::OperandCategory::BitEnum || c == grammar::OperandCategory::ValueEnum)
        kinds.emplace(names.emplace_back(enumAttrName(kind)), kind);
    }
  }
};

} // namespace

bool enumKindByAttrName(std::string_view name, grammar::OperandKind &kind) {
  // Never destroyed: a process needs it to the end, and tearing it down at exit costs time.
  static const EnumKindNames &table = *new EnumKindNames;
  auto it = table.kinds.find(name);
  if (it == table.kinds.end())
    return false;
  kind = it->second;
  return true;
}

namespace {

bool hasVendorSuffix(std::string_view n) {
  for (std::string_view v : {"NV", "NVX", "EXT", "AMD", "INTEL", "ARM", "QCOM", "GOOGLE"})
    if (n.size() > v.size() && n.substr(n.size() - v.size()) == v)
      return true;
  return false;
}

struct MlirName {
  uint32_t value;
  std::string_view name;
};
constexpr MlirName kCoopLayouts[] = {{0, "RowMajor"}, {1, "ColumnMajor"}};
constexpr MlirName kCoopOperands[] = {
    {0x1, "ASigned"}, {0x2, "BSigned"}, {0x4, "CSigned"}, {0x8, "ResultSigned"}, {0x10, "AccSat"}};

/// The cases MLIR names its own way, for the kinds that have them.
std::span<const MlirName> mlirNames(grammar::OperandKind kind) {
  // Looked up once: the kinds exist only in newer grammars (every enum printed asks).
  static const std::optional<grammar::OperandKind> layouts =
      grammar::findOperandKind("CooperativeMatrixLayout");
  static const std::optional<grammar::OperandKind> operands =
      grammar::findOperandKind("CooperativeMatrixOperands");
  if (kind == layouts)
    return kCoopLayouts;
  if (kind == operands)
    return kCoopOperands;
  return {};
}

/// The name MLIR 16 gives one enumerant: the grammar's, except that a vendor name (ClosestHitNV)
/// gives way to its KHR alias (ClosestHitKHR), and the few MLIR spells its own way.
std::string enumerantName(grammar::OperandKind kind, uint32_t value) {
  if (kind == grammar::OperandKind::Capability &&
      value == static_cast<uint32_t>(grammar::Capability::StorageUniform16))
    return "StorageUniform16";
  for (const MlirName &n : mlirNames(kind))
    if (n.value == value)
      return std::string(n.name);
  const grammar::EnumerantDesc *e = grammar::findEnumerant(kind, value);
  if (!e)
    return std::to_string(value);
  if (hasVendorSuffix(e->name))
    for (std::string_view alias : e->aliases)
      if (alias.size() > 3 && alias.substr(alias.size() - 3) == "KHR")
        return std::string(alias);
  return std::string(e->name);
}

} // namespace

bool mlirEnumerantValue(grammar::OperandKind kind, std::string_view name, uint32_t &value) {
  for (const MlirName &n : mlirNames(kind))
    if (n.name == name) {
      value = n.value;
      return true;
    }
  return false;
}

std::string enumText(grammar::OperandKind kind, uint32_t value) {
  if (grammar::operandCategory(kind) != grammar::OperandCategory::BitEnum)
    return enumerantName(kind, value);
  // MLIR names a mask without bits "None" (the grammar's MemorySemantics says "Relaxed").
  if (value == 0)
    return "None";
  std::string out;
  for (unsigned bit = 0; bit < 32; ++bit) {
    uint32_t mask = uint32_t(1) << bit;
    if (!(value & mask))
      continue;
    if (!out.empty())
      out += '|';
    out += enumerantName(kind, mask);
  }
  return out;
}

namespace {

/// `#spirv.<rest>` with the prefix of `version`.
void dialectAttr(std::string_view rest, std::string &out, MlirVersion version) {
  out += '#';
  out += dialectPrefix(version);
  out += '.';
  out += rest;
}

void printScalar(Attribute a, std::string &out, MlirVersion version) {
  Type t = a.type();
  if (a.is(AttrKind::Bool) || (a.is(AttrKind::Integer) && t && t.isBool())) {
    out += (a.is(AttrKind::Bool) ? a.boolValue() : a.bits() != 0) ? "true" : "false";
  } else if (a.is(AttrKind::Integer)) {
    if (t && t.signedness() == Signedness::Unsigned)
      out += std::to_string(a.bits());
    else
      out += std::to_string(a.intValue());
  } else if (a.is(AttrKind::Float)) {
    appendFloat(a.floatValue(), t, out);
  } else {
    print(a, out, version);
  }
}

} // namespace

void print(Attribute a, std::string &out, MlirVersion version) {
  if (!a) {
    out += "<<null attribute>>";
    return;
  }
  switch (a.kind()) {
  case AttrKind::Unit:
    out += "unit";
    return;
  case AttrKind::Undef:
    dialectAttr("undef", out, version);
    return;
  case AttrKind::Null:
    dialectAttr("null", out, version);
    return;
  case AttrKind::Bool:
    out += a.boolValue() ? "true" : "false";
    return;
  case AttrKind::Integer:
    printScalar(a, out, version);
    if (!a.type().isBool()) {
      out += " : ";
      print(a.type(), out, version);
    }
    return;
  case AttrKind::Float:
    printScalar(a, out, version);
    out += " : ";
    print(a.type(), out, version);
    return;
  case AttrKind::String:
    printString(a.str(), out);
    return;
  case AttrKind::Type:
    print(a.type(), out, version);
    return;
  case AttrKind::Array: {
    out += '[';
    bool first = true;
    for (Attribute e : a.elements()) {
      if (!first)
        out += ", ";
      first = false;
      print(e, out, version);
    }
    out += ']';
    return;
  }
  case AttrKind::Dense: {
    out += "dense<";
    std::span<const Attribute> es = a.elements();
    bool splat = !es.empty() &&
                 std::all_of(es.begin(), es.end(), [&](Attribute e) { return e == es.front(); });
    if (splat) {
      printScalar(es.front(), out, version);
    } else {
      out += '[';
      for (size_t i = 0; i < es.size(); ++i) {
        if (i)
          out += ", ";
        printScalar(es[i], out, version);
      }
      out += ']';
    }
    out += "> : ";
    print(a.type(), out, version);
    return;
  }
  case AttrKind::SymbolRef:
    printSymbol(a.str(), out);
    return;
  case AttrKind::Enum:
    dialectAttr("", out, version);
    out += enumAttrName(a.enumKind());
    out += '<';
    out += enumText(a.enumKind(), a.enumValue());
    out += '>';
    return;
  case AttrKind::DialectEnum: {
    out += "#spirv.";
    out += dialectEnumName(a.dialectEnum());
    out += '<';
    std::string_view text = dialectEnumText(a.dialectEnum(), a.enumValue());
    out += text.empty() ? std::to_string(a.enumValue()) : std::string(text);
    out += '>';
    return;
  }
  case AttrKind::Vce: {
    dialectAttr("vce<v", out, version);
    out += std::to_string(grammar::versionMajor(a.version()));
    out += '.';
    out += std::to_string(grammar::versionMinor(a.version()));
    out += ", [";
    bool first = true;
    for (uint32_t c : a.capabilities()) {
      if (!first)
        out += ", ";
      first = false;
      out += enumText(grammar::OperandKind::Capability, c);
    }
    out += "], [";
    first = true;
    for (const std::string &e : a.extensions()) {
      if (!first)
        out += ", ";
      first = false;
      out += e;
    }
    out += "]>";
    return;
  }
  case AttrKind::Dictionary: {
    out += '{';
    bool first = true;
    for (const NamedAttribute &e : a.entries()) {
      if (!first)
        out += ", ";
      first = false;
      if (isBareIdentifier(e.name))
        out += spelledIn(e.name, version);
      else
        printString(e.name, out);
      if (!e.attr().is(AttrKind::Unit)) {
        out += " = ";
        print(e.attr(), out, version);
      }
    }
    out += '}';
    return;
  }
  case AttrKind::InterfaceVarAbi:
    dialectAttr("interface_var_abi<(", out, version);
    out += std::to_string(a.descriptorSet()) + ", " + std::to_string(a.binding()) + ")";
    if (std::optional<uint32_t> sc = a.abiStorageClass())
      out += ", " + enumText(grammar::OperandKind::StorageClass, *sc);
    out += '>';
    return;
  case AttrKind::EntryPointAbi: {
    dialectAttr("entry_point_abi<", out, version);
    if (!a.workgroupSize().empty()) {
      out += "workgroup_size = [";
      for (size_t i = 0; i < a.workgroupSize().size(); ++i)
        out += (i ? ", " : "") + std::to_string(a.workgroupSize()[i]);
      out += ']';
    }
    if (std::optional<uint32_t> n = a.subgroupSize())
      out += (a.workgroupSize().empty() ? "subgroup_size = " : ", subgroup_size = ") +
             std::to_string(*n);
    out += '>';
    return;
  }
  case AttrKind::LinkageAttributes:
    // The stored MLIR tests print the name bare (later MLIR quotes it); a name that would not
    // read back bare is quoted.
    dialectAttr("linkage_attributes<linkage_name = ", out, version);
    if (isBareIdentifier(a.str()))
      out += a.str();
    else
      printString(a.str(), out);
    out += ", linkage_type = <";
    out += enumText(grammar::OperandKind::LinkageType, a.enumValue());
    out += ">>";
    return;
  case AttrKind::TargetEnv: {
    dialectAttr("target_env<", out, version);
    print(a.targetVce(), out, version);
    if (!a.deviceInfo().empty()) {
      out += ", ";
      out += a.deviceInfo();
    }
    // MLIR prints the limits' values without their version.
    out += ", ";
    dialectAttr("resource_limits<", out, version);
    bool first = true;
    for (const NamedAttribute &e : a.resourceLimits().entries()) {
      out += first ? "" : ", ";
      first = false;
      out += e.name;
      out += " = ";
      if (e.attr().is(AttrKind::Array)) {
        out += '[';
        for (size_t i = 0; i < e.attr().elements().size(); ++i) {
          out += i ? ", " : "";
          printScalar(e.attr().elements()[i], out, version);
        }
        out += ']';
      } else {
        printScalar(e.attr(), out, version);
      }
    }
    out += ">>";
    return;
  }
  }
}

std::string toString(Attribute a) {
  std::string s;
  print(a, s);
  return s;
}

} // namespace spire::dialect
