#include "spire/dialect/Availability.h"
#include "spire/dialect/Ops.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace spire;
using namespace spire::dialect;
using grammar::Capability;

namespace {

bool needs(const Availability &a, std::vector<Capability> anyOf) {
  for (const CapabilityRequirement &r : a.capabilities)
    if (r.anyOf == anyOf)
      return true;
  return false;
}

uint32_t sc(grammar::StorageClass s) { return static_cast<uint32_t>(s); }

} // namespace

TEST(Availability, OpsCombineTheirEntryWithTheirEnumAttributes) {
  Context ctx;
  auto barrier = [&ctx](grammar::Scope scope) {
    OperationState st(findOp("spirv.ControlBarrier"));
    st.addAttribute(ctx, "execution_scope",
                    attr::enumerant(ctx, grammar::OperandKind::Scope, uint32_t(scope)));
    st.addAttribute(ctx, "memory_scope",
                    attr::enumerant(ctx, grammar::OperandKind::Scope, uint32_t(scope)));
    st.addAttribute(ctx, "memory_semantics",
                    attr::enumerant(ctx, grammar::OperandKind::MemorySemantics, 0));
    return OwningOp(Operation::create(std::move(st)));
  };
  Availability subgroup = opAvailability(*barrier(grammar::Scope::Subgroup));
  EXPECT_TRUE(subgroup.capabilities.empty());
  Availability queueFamily = opAvailability(*barrier(grammar::Scope::QueueFamily));
  EXPECT_TRUE(needs(queueFamily, {Capability::VulkanMemoryModel}));

  OperationState ballot(findOp("spirv.GroupNonUniformBallot"));
  OwningOp op(Operation::create(std::move(ballot)));
  Availability a = opAvailability(*op);
  // SPIR-V 1.3 comes with the capability (whose own availability says so), as for every op
  // whose enabling capabilities exist only from its version on.
  EXPECT_TRUE(needs(a, {Capability::GroupNonUniformBallot}));
  const grammar::EnumerantDesc *cap = grammar::findEnumerant(
      grammar::OperandKind::Capability, uint32_t(Capability::GroupNonUniformBallot));
  ASSERT_TRUE(cap);
  EXPECT_EQ(cap->availability.minVersion, grammar::makeVersion(1, 3));
}

TEST(Availability, ScalarAndVectorTypes) {
  Context ctx;
  EXPECT_TRUE(typeAvailability(ctx.integer(32)).empty());
  EXPECT_TRUE(typeAvailability(ctx.boolean()).empty());
  EXPECT_TRUE(needs(typeAvailability(ctx.integer(8)), {Capability::Int8}));
  EXPECT_TRUE(needs(typeAvailability(ctx.integer(16, Signedness::Unsigned)), {Capability::Int16}));
  EXPECT_TRUE(needs(typeAvailability(ctx.integer(64)), {Capability::Int64}));
  EXPECT_TRUE(needs(typeAvailability(ctx.floating(16)), {Capability::Float16}));
  EXPECT_TRUE(needs(typeAvailability(ctx.floating(64)), {Capability::Float64}));
  EXPECT_TRUE(needs(typeAvailability(ctx.vector(ctx.floating(32), 8)), {Capability::Vector16}));
  EXPECT_TRUE(typeAvailability(ctx.vector(ctx.floating(32), 4)).empty());
  Availability v16 = typeAvailability(ctx.vector(ctx.floating(64), 16));
  EXPECT_TRUE(needs(v16, {Capability::Vector16}));
  EXPECT_TRUE(needs(v16, {Capability::Float64}));
  EXPECT_TRUE(needs(typeAvailability(ctx.matrix(ctx.vector(ctx.floating(32), 4), 4)),
                    {Capability::Matrix}));
}

TEST(Availability, StorageClassesOfPointers) {
  Context ctx;
  Type i16 = ctx.integer(16);
  StructMember m{i16, 0u, {}};
  Type block = ctx.literalStruct({&m, 1});
  Availability sb = typeAvailability(ctx.pointer(block, sc(grammar::StorageClass::StorageBuffer)));
  EXPECT_TRUE(needs(sb, {Capability::StorageBuffer16BitAccess, Capability::Int16}));
  EXPECT_TRUE(needs(sb, {Capability::Shader}));
  // StorageBuffer: SPIR-V 1.3, or one of its extensions.
  ASSERT_FALSE(sb.extensions.empty());
  EXPECT_EQ(sb.extensions.front().unlessVersion, grammar::makeVersion(1, 3));
  EXPECT_EQ(sb.minVersion, grammar::makeVersion(1, 0));
  EXPECT_TRUE(needs(typeAvailability(ctx.pointer(block, sc(grammar::StorageClass::Uniform))),
                    {Capability::StorageUniform16, Capability::Int16}));
  EXPECT_TRUE(needs(typeAvailability(ctx.pointer(block, sc(grammar::StorageClass::PushConstant))),
                    {Capability::StoragePushConstant16, Capability::Int16}));
  EXPECT_TRUE(needs(typeAvailability(ctx.pointer(i16, sc(grammar::StorageClass::Input))),
                    {Capability::StorageInputOutput16, Capability::Int16}));
  EXPECT_TRUE(needs(typeAvailability(ctx.pointer(i16, sc(grammar::StorageClass::Workgroup))),
                    {Capability::Int16}));
  // A Uniform BufferBlock struct is a storage buffer.
  MemberDecoration bufferBlock{static_cast<uint32_t>(grammar::Decoration::BufferBlock), {}};
  Type old = ctx.literalStruct({&m, 1}, {&bufferBlock, 1});
  EXPECT_TRUE(needs(typeAvailability(ctx.pointer(old, sc(grammar::StorageClass::Uniform))),
                    {Capability::StorageBuffer16BitAccess, Capability::Int16}));
}

TEST(Availability, AStructInTwoStorageClassesNeedsTheCapabilityOfEach) {
  // A buffer-reference shader's push constants: a block holding a physical storage buffer
  // pointer to an array of a struct of 16-bit members, and that struct itself. The struct is
  // reached in PhysicalStorageBuffer and in PushConstant storage; each asks its own capability.
  Context ctx;
  StructMember half{ctx.floating(16), 0u, {}};
  Type item = ctx.literalStruct({&half, 1});
  StructMember items{ctx.runtimeArray(item, 2), 0u, {}};
  Type data = ctx.literalStruct({&items, 1});
  std::vector<StructMember> pc{
      {ctx.pointer(data, sc(grammar::StorageClass::PhysicalStorageBuffer)), 0u, {}},
      {item, 8u, {}}};
  Availability a =
      typeAvailability(ctx.pointer(ctx.literalStruct(pc), sc(grammar::StorageClass::PushConstant)));
  EXPECT_TRUE(needs(a, {Capability::StorageBuffer16BitAccess, Capability::Float16}));
  EXPECT_TRUE(needs(a, {Capability::StoragePushConstant16, Capability::Float16}));
}

TEST(Availability, Images) {
  Context ctx;
  ImageInfo info;
  info.sampledType = ctx.floating(32);
  info.dim = static_cast<uint32_t>(grammar::Dim::Dim1D);
  info.sampled = 1;
  Availability sampled = typeAvailability(ctx.image(info));
  ASSERT_FALSE(sampled.capabilities.empty());
  const std::vector<Capability> &alts = sampled.capabilities.front().anyOf;
  EXPECT_NE(std::find(alts.begin(), alts.end(), Capability::Sampled1D), alts.end());
  info.sampled = 2;
  EXPECT_TRUE(needs(typeAvailability(ctx.image(info)), {Capability::Image1D}));
  info.dim = static_cast<uint32_t>(grammar::Dim::Dim2D);
  info.format = static_cast<uint32_t>(grammar::ImageFormat::Rg16);
  EXPECT_TRUE(needs(typeAvailability(ctx.image(info)), {Capability::StorageImageExtendedFormats}));
  info.format = 0;
  info.ms = 1;
  info.arrayed = 1;
  Availability msArray = typeAvailability(ctx.image(info));
  EXPECT_TRUE(needs(msArray, {Capability::ImageMSArray}));
  EXPECT_TRUE(needs(msArray, {Capability::StorageImageMultisample}));
  info = {};
  info.sampledType = ctx.floating(32);
  info.dim = static_cast<uint32_t>(grammar::Dim::SubpassData);
  info.sampled = 2;
  EXPECT_TRUE(needs(typeAvailability(ctx.image(info)), {Capability::InputAttachment}));
}

TEST(Availability, ImpliedCapabilities) {
  std::vector<Capability> shader = impliedCapabilities(Capability::Shader);
  EXPECT_NE(std::find(shader.begin(), shader.end(), Capability::Matrix), shader.end());
  std::vector<Capability> ballot = impliedCapabilities(Capability::GroupNonUniformBallot);
  EXPECT_NE(std::find(ballot.begin(), ballot.end(), Capability::GroupNonUniform), ballot.end());
  EXPECT_EQ(impliedCapabilities(Capability::Matrix).size(), 1u);
}

TEST(Availability, FloatAtomicsNeedTheCapabilityOfTheirWidth) {
  // The grammar lists the capabilities of every width as alternatives; an op needs its own.
  Context ctx;
  auto atomic = [&ctx](std::string_view name, unsigned width) {
    OperationState st(findOp(name));
    st.resultTypes.push_back(ctx.floating(width));
    return opAvailability(*OwningOp(Operation::create(std::move(st))));
  };
  EXPECT_TRUE(needs(atomic("spirv.EXT.AtomicFAdd", 16), {Capability::AtomicFloat16AddEXT}));
  EXPECT_TRUE(needs(atomic("spirv.EXT.AtomicFAdd", 32), {Capability::AtomicFloat32AddEXT}));
  EXPECT_TRUE(needs(atomic("spirv.EXT.AtomicFAdd", 64), {Capability::AtomicFloat64AddEXT}));
  EXPECT_TRUE(needs(atomic("spirv.EXT.AtomicFMin", 16), {Capability::AtomicFloat16MinMaxEXT}));
  EXPECT_TRUE(needs(atomic("spirv.EXT.AtomicFMax", 32), {Capability::AtomicFloat32MinMaxEXT}));
  EXPECT_TRUE(needs(atomic("spirv.EXT.AtomicFMax", 64), {Capability::AtomicFloat64MinMaxEXT}));
}
