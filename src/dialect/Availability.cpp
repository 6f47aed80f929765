#include "spire/dialect/Availability.h"

#include "spire/dialect/Attributes.h"
#include "spire/dialect/Ops.h"

#include "Naming.h"

#include <algorithm>
#include <set>
#include <unordered_set>

namespace spire::dialect {

namespace {

using grammar::Capability;
using grammar::OperandKind;
using grammar::StorageClass;

std::string enumSource(OperandKind kind, const grammar::EnumerantDesc &e) {
  return std::string(grammar::operandKindName(kind)) + " " + std::string(e.name);
}

/// True when every capability that enables `a` is itself available only from `a`'s version on
/// or through an extension: then declaring it makes `a` usable whatever the version (as the
/// validators take it: OpDemoteToHelperInvocation, SPIR-V 1.6, with DemoteToHelperInvocation
/// from SPV_EXT_demote_to_helper_invocation), and the capability's own requirement is the one
/// that counts.
bool capabilityProvidesVersion(const grammar::Availability &a) {
  if (a.capabilities.empty())
    return false;
  for (Capability c : a.capabilities) {
    const grammar::EnumerantDesc *e =
        grammar::findEnumerant(OperandKind::Capability, static_cast<uint32_t>(c));
    if (!e)
      return false;
    const grammar::Availability &own = e->availability;
    if (own.minVersion < a.minVersion && own.extensions.empty())
      return false;
  }
  return true;
}

} // namespace

void Availability::add(const grammar::Availability &a, const std::string &source) {
  if (a.minVersion == grammar::kNoVersion) {
    // Only an extension or a capability provides it.
    if (!a.extensions.empty())
      extensions.push_back(
          {{a.extensions.begin(), a.extensions.end()}, grammar::kNoVersion, source});
  } else if (!a.extensions.empty()) {
    extensions.push_back({{a.extensions.begin(), a.extensions.end()}, a.minVersion, source});
  } else if (a.minVersion > minVersion && !capabilityProvidesVersion(a)) {
    minVersion = a.minVersion;
    minVersionSource = source;
  }
  if (a.lastVersion != grammar::kNoVersion && a.lastVersion < maxVersion) {
    maxVersion = a.lastVersion;
    maxVersionSource = source;
  }
  if (!a.capabilities.empty())
    capabilities.push_back({{a.capabilities.begin(), a.capabilities.end()}, source});
}

void Availability::merge(const Availability &o) {
  if (o.minVersion > minVersion) {
    minVersion = o.minVersion;
    minVersionSource = o.minVersionSource;
  }
  if (o.maxVersion < maxVersion) {
    maxVersion = o.maxVersion;
    maxVersionSource = o.maxVersionSource;
  }
  for (const CapabilityRequirement &c : o.capabilities)
    if (std::find(capabilities.begin(), capabilities.end(), c) == capabilities.end())
      capabilities.push_back(c);
  for (const ExtensionRequirement &e : o.extensions)
    if (std::find(extensions.begin(), extensions.end(), e) == extensions.end())
      extensions.push_back(e);
}

bool Availability::empty() const {
  return minVersion <= grammar::makeVersion(1, 0) && maxVersion == grammar::kNoVersion &&
         capabilities.empty() && extensions.empty();
}

Availability enumAvailability(OperandKind kind, uint32_t value) {
  Availability a;
  if (grammar::operandCategory(kind) == grammar::OperandCategory::BitEnum) {
    for (uint32_t rest = value; rest != 0; rest &= rest - 1) {
      uint32_t bit = rest & (~rest + 1);
      if (const grammar::EnumerantDesc *e = grammar::findEnumerant(kind, bit))
        a.add(e->availability, enumSource(kind, *e));
    }
    return a;
  }
  if (const grammar::EnumerantDesc *e = grammar::findEnumerant(kind, value))
    a.add(e->availability, enumSource(kind, *e));
  return a;
}

namespace {

void addAttribute(Availability &a, std::string_view name, Attribute value) {
  if (!value)
    return;
  switch (value.kind()) {
  case AttrKind::Enum: {
    uint32_t v = value.enumValue();
    // glslang sets AtomicCounterMemory in Vulkan shaders, which cannot declare AtomicStorage,
    // and validators do not ask for it (semantics are ids in SPIR-V): it needs nothing here.
    if (value.enumKind() == OperandKind::MemorySemantics)
      v &= ~static_cast<uint32_t>(grammar::MemorySemantics::AtomicCounterMemory);
    a.merge(enumAvailability(value.enumKind(), v));
    return;
  }
  case AttrKind::Array:
    for (Attribute e : value.elements())
      if (e.is(AttrKind::Enum))
        a.merge(enumAvailability(e.enumKind(), e.enumValue()));
    return;
  case AttrKind::String:
    // A variable's built-in, which the dialect keeps as the enumerant's name. ClipDistance and
    // CullDistance need their capabilities only where a shader reads or writes them.
    if (name == "built_in") {
      if (const grammar::EnumerantDesc *e =
              grammar::findEnumerant(OperandKind::BuiltIn, value.str());
          e && e->value != static_cast<uint32_t>(grammar::BuiltIn::ClipDistance) &&
          e->value != static_cast<uint32_t>(grammar::BuiltIn::CullDistance))
        a.add(e->availability, enumSource(OperandKind::BuiltIn, *e));
    }
    return;
  default:
    return;
  }
}

/// The capability a scalar float atomic of `width` bits needs (SPV_EXT_shader_atomic_float_add,
/// SPV_EXT_shader_atomic_float16_add, SPV_EXT_shader_atomic_float_min_max), none for other ops.
std::optional<Capability> floatAtomicCapability(OpKey op, unsigned width) {
  const bool add = op == OpKey(grammar::Op::AtomicFAddEXT);
  if (!add && op != OpKey(grammar::Op::AtomicFMinEXT) && op != OpKey(grammar::Op::AtomicFMaxEXT))
    return std::nullopt;
  switch (width) {
  case 16:
    return add ? Capability::AtomicFloat16AddEXT : Capability::AtomicFloat16MinMaxEXT;
  case 32:
    return add ? Capability::AtomicFloat32AddEXT : Capability::AtomicFloat32MinMaxEXT;
  case 64:
    return add ? Capability::AtomicFloat64AddEXT : Capability::AtomicFloat64MinMaxEXT;
  default:
    return std::nullopt;
  }
}

} // namespace

Availability opAvailability(const Operation &op) {
  Availability a;
  const OpInfo &info = op.info();
  std::string name(info.name);
  if (const grammar::Availability *own = info.availability())
    a.add(*own, name);
  // The float atomics list a capability per width as alternatives: the one of the result's
  // width is the one needed.
  if (op.numResults() == 1 && op.result().type().is(TypeKind::Float) && !a.capabilities.empty())
    if (std::optional<Capability> c = floatAtomicCapability(info.key, op.result().type().width())) {
      std::vector<Capability> &alts = a.capabilities.back().anyOf;
      if (std::find(alts.begin(), alts.end(), *c) != alts.end())
        alts = {*c};
    }
  for (const NamedAttribute &n : op.attributes()) {
    if (n.name == "vce_triple" || n.name == "spirv.target_env")
      continue;
    addAttribute(a, n.name, n.attr());
    // A decoration (`flat`, `user_type_google`, `linkage_attributes`), as the serializer
    // reads the attributes.
    if (!encodesOperand(info, n.name))
      if (std::optional<uint32_t> d = decorationNamed(n.name))
        a.merge(enumAvailability(OperandKind::Decoration, *d));
  }
  return a;
}

namespace {

void addCapability(Availability &a, Capability c, std::string source) {
  CapabilityRequirement r{{c}, std::move(source)};
  if (std::find(a.capabilities.begin(), a.capabilities.end(), r) == a.capabilities.end())
    a.capabilities.push_back(std::move(r));
}

void addAlternatives(Availability &a, std::vector<Capability> anyOf, std::string source) {
  CapabilityRequirement r{std::move(anyOf), std::move(source)};
  if (std::find(a.capabilities.begin(), a.capabilities.end(), r) == a.capabilities.end())
    a.capabilities.push_back(std::move(r));
}

/// What instruction `opcode` needs, when the build's grammar has it.
void addInstruction(Availability &a, grammar::Op opcode, const std::string &source) {
  if (const grammar::InstructionDesc *inst =
          grammar::findInstruction(static_cast<uint32_t>(opcode)))
    a.add(inst->availability, source);
}

/// The capability an 8- or 16-bit scalar needs in `storageClass`, when storage there has one of
/// its own (SPV_KHR_8bit_storage, SPV_KHR_16bit_storage).
std::optional<Capability> storageCapability(unsigned width, uint32_t storageClass) {
  switch (static_cast<StorageClass>(storageClass)) {
  case StorageClass::StorageBuffer:
  case StorageClass::PhysicalStorageBuffer:
    return width == 8 ? Capability::StorageBuffer8BitAccess : Capability::StorageBuffer16BitAccess;
  case StorageClass::Uniform:
    return width == 8 ? Capability::UniformAndStorageBuffer8BitAccess
                      : Capability::StorageUniform16;
  case StorageClass::PushConstant:
    return width == 8 ? Capability::StoragePushConstant8 : Capability::StoragePushConstant16;
  case StorageClass::Input:
  case StorageClass::Output:
    if (width == 16)
      return Capability::StorageInputOutput16;
    return std::nullopt;
  default:
    return std::nullopt;
  }
}

class TypeWalker {
public:
  Availability result;

  void visit(Type t, std::optional<uint32_t> sc) {
    if (!t)
      return;
    switch (t.kind()) {
    case TypeKind::None:
    case TypeKind::Sampler:
      return;
    case TypeKind::Integer:
    case TypeKind::Float:
      scalar(t, sc);
      return;
    case TypeKind::Vector:
      if (t.count() == 8 || t.count() == 16)
        addCapability(result, Capability::Vector16, "type " + toString(t));
      visit(t.elementType(), sc);
      return;
    case TypeKind::Array:
      visit(t.elementType(), sc);
      return;
    case TypeKind::RuntimeArray:
      addInstruction(result, grammar::Op::TypeRuntimeArray, "type " + toString(t));
      visit(t.elementType(), sc);
      return;
    case TypeKind::Matrix:
      addInstruction(result, grammar::Op::TypeMatrix, "type " + toString(t));
      visit(t.elementType(), sc);
      return;
    case TypeKind::Pointer:
      result.merge(enumAvailability(OperandKind::StorageClass, t.storageClass()));
      visit(t.elementType(), t.storageClass());
      return;
    case TypeKind::Struct:
      // An identified struct may refer to itself (through a pointer). Walked once per storage
      // class: a struct of 16-bit members in both a buffer and a push constant block needs
      // the storage capability of each.
      if (!seen_.insert({t.opaque(), sc ? *sc : ~0u}).second)
        return;
      // A Uniform struct decorated BufferBlock is a storage buffer (SPIR-V before 1.3).
      if (sc && *sc == static_cast<uint32_t>(StorageClass::Uniform))
        for (const MemberDecoration &d : t.structDecorations())
          if (d.decoration == static_cast<uint32_t>(grammar::Decoration::BufferBlock))
            sc = static_cast<uint32_t>(StorageClass::StorageBuffer);
      for (const MemberDecoration &d : t.structDecorations())
        decoration(d);
      for (const StructMember &m : t.members()) {
        for (const MemberDecoration &d : m.decorations)
          decoration(d);
        visit(m.type, sc);
      }
      return;
    case TypeKind::Image:
      image(t);
      return;
    case TypeKind::SampledImage:
      visit(t.elementType(), std::nullopt);
      return;
    case TypeKind::CooperativeMatrix:
      if (!t.hasUse())
        addInstruction(result, grammar::Op::TypeCooperativeMatrixNV, "type " + toString(t));
      else if (grammar::findInstruction(
                   static_cast<uint32_t>(grammar::Op::TypeCooperativeMatrixKHR)))
        addInstruction(result, grammar::Op::TypeCooperativeMatrixKHR, "type " + toString(t));
      else
        addInstruction(result, grammar::Op::TypeCooperativeMatrixNV, "type " + toString(t));
      // A scope given by a specialization constant needs what its value needs, which is not
      // known before specialization.
      if (t.coopParam(CoopOperand::Scope).symbol.empty())
        result.merge(enumAvailability(OperandKind::Scope, t.scope()));
      visit(t.elementType(), std::nullopt);
      return;
    case TypeKind::JointMatrix:
      addInstruction(result, grammar::Op::TypeJointMatrixINTEL, "type " + toString(t));
      result.merge(enumAvailability(OperandKind::Scope, t.scope()));
      result.merge(enumAvailability(OperandKind::JointMatrixLayoutINTEL, t.matrixLayout()));
      visit(t.elementType(), std::nullopt);
      return;
    case TypeKind::Opaque:
      // What its declaring instruction needs (OpTypeRayQueryKHR: RayQueryKHR, ...), and its type
      // operand's (OpTypeVmeImageINTEL's image).
      if (const grammar::InstructionDesc *inst = grammar::findInstruction(t.opcode()))
        result.add(inst->availability, "type " + toString(t));
      visit(t.elementType(), std::nullopt);
      return;
    case TypeKind::TensorArm:
      addInstruction(result, grammar::Op::TypeTensorARM, "type " + toString(t));
      visit(t.elementType(), std::nullopt);
      return;
    case TypeKind::Tensor:
      return; // (never a SPIR-V type)
    case TypeKind::GraphArm:
      addInstruction(result, grammar::Op::TypeGraphARM, "type " + toString(t));
      [[fallthrough]];
    case TypeKind::Function:
      for (Type in : t.inputs())
        visit(in, std::nullopt);
      for (Type out : t.results())
        visit(out, std::nullopt);
      return;
    }
  }

private:
  /// A struct's or member's decoration, and a member's built-in (ClipDistance and
  /// CullDistance need their capabilities only where a shader uses them).
  void decoration(const MemberDecoration &d) {
    result.merge(enumAvailability(OperandKind::Decoration, d.decoration));
    if (d.decoration == static_cast<uint32_t>(grammar::Decoration::BuiltIn) && d.value &&
        *d.value != static_cast<uint32_t>(grammar::BuiltIn::ClipDistance) &&
        *d.value != static_cast<uint32_t>(grammar::BuiltIn::CullDistance))
      result.merge(enumAvailability(OperandKind::BuiltIn, *d.value));
  }

  void scalar(Type t, std::optional<uint32_t> sc) {
    // bf16 and the 8-bit floats: what their encoding needs (BFloat16TypeKHR, Float8EXT).
    if (std::optional<uint32_t> encoding = t.fpEncoding()) {
      result.merge(enumAvailability(OperandKind::FPEncoding, *encoding));
      return;
    }
    unsigned w = t.width();
    bool isFloat = t.is(TypeKind::Float);
    if (w == 32 || w == 1)
      return;
    if ((w == 8 || w == 16) && sc) {
      std::string source =
          "type " + toString(t) + " in " + enumText(OperandKind::StorageClass, *sc) + " storage";
      Capability arithmetic = isFloat  ? Capability::Float16
                              : w == 8 ? Capability::Int8
                                       : Capability::Int16;
      if (std::optional<Capability> c = storageCapability(w, *sc)) {
        // The storage capability, or the arithmetic one (which validators take too).
        addAlternatives(result, {*c, arithmetic}, source);
        return;
      }
      // OpenCL's half in memory without half arithmetic.
      if (isFloat && w == 16) {
        addAlternatives(result, {Capability::Float16Buffer, Capability::Float16}, source);
        return;
      }
    }
    std::string source = "type " + toString(t);
    if (isFloat) {
      if (w == 16)
        addCapability(result, Capability::Float16, source);
      else if (w == 64)
        addCapability(result, Capability::Float64, source);
      return;
    }
    if (w == 8)
      addCapability(result, Capability::Int8, source);
    else if (w == 16)
      addCapability(result, Capability::Int16, source);
    else if (w == 64)
      addCapability(result, Capability::Int64, source);
  }

  void image(Type t) {
    const ImageInfo &info = t.image();
    std::string source = "type " + toString(t);
    result.merge(enumAvailability(OperandKind::Dim, info.dim));
    result.merge(enumAvailability(OperandKind::ImageFormat, info.format));
    if (info.access != ~0u)
      result.merge(enumAvailability(OperandKind::AccessQualifier, info.access));
    const bool storage = info.sampled == 2;
    switch (static_cast<grammar::Dim>(info.dim)) {
    case grammar::Dim::Dim1D:
      if (storage)
        addCapability(result, Capability::Image1D, source);
      break;
    case grammar::Dim::Buffer:
      if (storage)
        addCapability(result, Capability::ImageBuffer, source);
      break;
    case grammar::Dim::Rect:
      if (storage)
        addCapability(result, Capability::ImageRect, source);
      break;
    case grammar::Dim::Cube:
      // Sampled cube arrays need no more than Shader, as the validators take it.
      if (info.arrayed && storage)
        addCapability(result, Capability::ImageCubeArray, source);
      break;
    case grammar::Dim::Dim2D:
      if (storage && info.ms && info.arrayed)
        addCapability(result, Capability::ImageMSArray, source);
      break;
    default:
      break;
    }
    if (storage && info.ms && info.dim != static_cast<uint32_t>(grammar::Dim::SubpassData))
      addCapability(result, Capability::StorageImageMultisample, source);
    visit(info.sampledType, std::nullopt);
  }

  std::set<std::pair<const void *, uint32_t>> seen_;
};

} // namespace

Availability typeAvailability(Type type, std::optional<uint32_t> storageClass) {
  TypeWalker w;
  w.visit(type, storageClass);
  return std::move(w.result);
}

std::vector<Capability> impliedCapabilities(Capability capability) {
  const uint32_t declared[] = {static_cast<uint32_t>(capability)};
  std::vector<Capability> out;
  for (const grammar::CapabilityInForce &c : grammar::capabilityClosure(declared))
    out.push_back(static_cast<Capability>(c.capability));
  return out;
}

} // namespace spire::dialect
