// The generated grammar tables, checked against facts of the SPIR-V specification that hold for
// every grammar revision the build may use.
#include "spire/grammar/Grammar.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

using namespace spire::grammar;

TEST(Grammar, InstructionsByOpcodeAndName) {
  const InstructionDesc *typeInt = findInstruction(21u);
  ASSERT_NE(typeInt, nullptr);
  EXPECT_EQ(typeInt->name, "OpTypeInt");
  EXPECT_EQ(typeInt->cls, InstructionClass::TypeDeclaration);
  EXPECT_FALSE(typeInt->hasResultType);
  EXPECT_TRUE(typeInt->hasResult);
  ASSERT_EQ(typeInt->operands.size(), 3u);
  EXPECT_EQ(typeInt->operands[1].kind, OperandKind::LiteralInteger);
  EXPECT_EQ(typeInt->operands[1].name, "Width");
  EXPECT_EQ(findInstruction("OpTypeInt"), typeInt);
  EXPECT_EQ(findInstruction("TypeInt"), nullptr);
  EXPECT_EQ(findInstruction(0xFFFFu), nullptr);
  EXPECT_EQ(findInstruction(370u), nullptr); // an unassigned opcode

  // Opcodes above the dense index are found too.
  const InstructionDesc *sdot = findInstruction(4450u);
  ASSERT_NE(sdot, nullptr);
  EXPECT_EQ(sdot->name, "OpSDot");
  EXPECT_EQ(findInstruction("OpSDotKHR"), sdot); // an alias
  EXPECT_EQ(findInstruction("OpDecorateStringGOOGLE"), findInstruction(5632u));
}

TEST(Grammar, InstructionsAreSortedAndUnique) {
  auto all = instructions();
  EXPECT_GT(all.size(), 650u); // 692 in SPIRV-Headers 1.3.239, 809 in 1.6r6 (aliases merged)
  for (size_t i = 1; i < all.size(); ++i)
    EXPECT_LT(all[i - 1].opcode, all[i].opcode);
  for (const InstructionDesc &d : all) {
    EXPECT_EQ(findInstruction(d.opcode), &d);
    EXPECT_EQ(findInstruction(d.name), &d);
    // The generator's count of leading one-word operands agrees with the operand list.
    ASSERT_LE(d.leadingOneWordOperands, d.operands.size());
    for (size_t k = 0; k < d.leadingOneWordOperands; ++k) {
      EXPECT_EQ(d.operands[k].quantifier, Quantifier::One) << d.name;
      EXPECT_TRUE(operandCategory(d.operands[k].kind) == OperandCategory::Id ||
                  d.operands[k].kind == OperandKind::LiteralInteger)
          << d.name;
    }
  }
}

TEST(Grammar, Availability) {
  // OpCopyLogical is new in 1.4; OpGroupNonUniformElect in 1.3; OpTypeInt is universal.
  EXPECT_EQ(findInstruction("OpCopyLogical")->availability.minVersion, makeVersion(1, 4));
  EXPECT_EQ(findInstruction("OpGroupNonUniformElect")->availability.minVersion, makeVersion(1, 3));
  EXPECT_EQ(findInstruction("OpTypeInt")->availability.minVersion, makeVersion(1, 0));
  EXPECT_EQ(findInstruction("OpTypeInt")->availability.lastVersion, kNoVersion);
  // OpImageSampleImplicitLod needs the Shader capability.
  auto caps = findInstruction("OpImageSampleImplicitLod")->availability.capabilities;
  EXPECT_NE(std::find(caps.begin(), caps.end(), Capability::Shader), caps.end());
  // Reserved for an extension: no version of its own, enabled by the extension.
  const InstructionDesc *rq = findInstruction("OpRayQueryInitializeKHR");
  ASSERT_NE(rq, nullptr);
  EXPECT_EQ(rq->availability.minVersion, kNoVersion);
  auto exts = rq->availability.extensions;
  EXPECT_NE(std::find(exts.begin(), exts.end(), Extension::SPV_KHR_ray_query), exts.end());
}

TEST(Grammar, Enumerants) {
  const EnumerantDesc *location = findEnumerant(OperandKind::Decoration, 30u);
  ASSERT_NE(location, nullptr);
  EXPECT_EQ(location->name, "Location");
  ASSERT_EQ(location->parameters.size(), 1u);
  EXPECT_EQ(location->parameters[0].kind, OperandKind::LiteralInteger);
  EXPECT_EQ(findEnumerant(OperandKind::Decoration, "Location"), location);
  EXPECT_EQ(findEnumerant(OperandKind::Decoration, 0x7FFFFFFFu), nullptr);
  EXPECT_EQ(findEnumerant(OperandKind::Dim, "2D")->value, 1u);
  EXPECT_EQ(uint32_t(Dim::Dim2D), 1u);
  // Masks: each bit is an enumerant; Grad takes two ids.
  EXPECT_EQ(operandCategory(OperandKind::ImageOperands), OperandCategory::BitEnum);
  EXPECT_EQ(findEnumerant(OperandKind::ImageOperands, 0x4u)->parameters.size(), 2u);
  // Aliases name the same enumerant.
  EXPECT_EQ(findEnumerant(OperandKind::StorageClass, "PhysicalStorageBufferEXT"),
            findEnumerant(OperandKind::StorageClass, "PhysicalStorageBuffer"));
  EXPECT_EQ(findEnumerant(OperandKind::BuiltIn, "SubgroupEqMaskKHR")->value, 4416u);
  // Every enumerant is found by its value and by each of its names.
  for (OperandKind kind : {OperandKind::Capability, OperandKind::Decoration, OperandKind::BuiltIn,
                           OperandKind::ExecutionMode, OperandKind::MemoryAccess}) {
    const OperandKindDesc &k = operandKind(kind);
    for (const EnumerantDesc &e : k.enumerants) {
      EXPECT_EQ(findEnumerant(kind, e.value), &e) << e.name;
      EXPECT_EQ(findEnumerant(kind, e.name), &e) << e.name;
      for (std::string_view alias : e.aliases)
        EXPECT_EQ(findEnumerant(kind, alias), &e) << alias;
    }
  }
}

TEST(Grammar, OperandKinds) {
  EXPECT_EQ(operandKindName(OperandKind::IdRef), "IdRef");
  EXPECT_EQ(operandCategory(OperandKind::IdResult), OperandCategory::Id);
  EXPECT_EQ(operandCategory(OperandKind::PairIdRefLiteralInteger), OperandCategory::Composite);
  auto bases = operandKind(OperandKind::PairIdRefLiteralInteger).bases;
  ASSERT_EQ(bases.size(), 2u);
  EXPECT_EQ(bases[0], OperandKind::IdRef);
  EXPECT_EQ(bases[1], OperandKind::LiteralInteger);
  EXPECT_EQ(operandCategory(OperandKind::TypedLiteralNumber), OperandCategory::Literal);
  EXPECT_EQ(operandCategory(OperandKind::RawWords), OperandCategory::Literal);
  EXPECT_FALSE(operandKind(OperandKind::LiteralInteger).literalFloat);
}

TEST(Grammar, ExtendedInstructionSets) {
  const ExtInstSetDesc *glsl = findExtInstSet("GLSL.std.450");
  ASSERT_NE(glsl, nullptr);
  EXPECT_EQ(glsl->id, ExtInstSet::GlslStd450);
  EXPECT_EQ(findExtInst(*glsl, 31u)->name, "Sqrt");
  EXPECT_EQ(findExtInst(*glsl, "Sqrt")->opcode, 31u);
  EXPECT_EQ(findExtInst(*glsl, 9999u), nullptr);
  // Import names map to grammar files by rule, versions optional on either side.
  const ExtInstSetDesc *ocl = findExtInstSet("OpenCL.std");
  ASSERT_NE(ocl, nullptr);
  EXPECT_EQ(ocl->key, "opencl.std.100");
  EXPECT_EQ(findExtInst(*ocl, "vstore_half_r")->operands.back().kind, OperandKind::FPRoundingMode);
  EXPECT_NE(findExtInstSet("NonSemantic.ClspvReflection.5"), nullptr);
  EXPECT_NE(findExtInstSet("SPV_AMD_gcn_shader"), nullptr);
  EXPECT_NE(findExtInstSet("OpenCL.DebugInfo.100"), nullptr);
  EXPECT_NE(findExtInstSet("NonSemantic.Shader.DebugInfo.100"), nullptr);
  EXPECT_EQ(findExtInstSet("NonSemantic.Unknown"), nullptr);
  EXPECT_EQ(findExtInstSet("GLSL.std"), findExtInstSet("GLSL.std.450"));
  // The same name asked twice in a row gets the same answer (the last one is kept), and so
  // does one after another name, or after an unknown one.
  EXPECT_EQ(findExtInstSet("GLSL.std.450"), glsl);
  EXPECT_EQ(findExtInstSet("NonSemantic.Unknown"), nullptr);
  EXPECT_EQ(findExtInstSet("NonSemantic.Unknown"), nullptr);
  EXPECT_EQ(findExtInstSet("GLSL.std.450"), glsl);
  EXPECT_EQ(findExtInstSet("OpenCL.std"), ocl);
  EXPECT_EQ(findExtInstSet(std::string(100, 'x')), nullptr);
  EXPECT_EQ(findExtInstSet("OpenCL.std"), ocl);
  EXPECT_EQ(extInstSet(ExtInstSet::GlslStd450), glsl);
  // Extended sets have operand kinds of their own, kept apart from the core's.
  const ExtInstSetDesc *dbg = findExtInstSet("OpenCL.DebugInfo.100");
  const ExtInstDesc *basic = findExtInst(*dbg, "DebugTypeBasic");
  ASSERT_NE(basic, nullptr);
  EXPECT_EQ(operandKind(basic->operands.back().kind).owner, ExtInstSet::OpenclDebuginfo100);
}

TEST(Grammar, Extensions) {
  auto names = extensionNames();
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
  std::optional<Extension> e = findExtension("SPV_KHR_16bit_storage");
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(*e, Extension::SPV_KHR_16bit_storage);
  EXPECT_EQ(extensionName(*e), "SPV_KHR_16bit_storage");
  EXPECT_FALSE(findExtension("SPV_NOT_AN_EXTENSION").has_value());
  EXPECT_GE(grammarVersion(), makeVersion(1, 6));
}

namespace spire::grammar {
namespace {

TEST(CapabilityClosure, DeclaredFirstThenImpliedOnceEachWithWhoBroughtThemIn) {
  // Shader implies Matrix; Geometry implies Shader (and so Matrix); Kernel is on its own.
  const uint32_t declared[] = {uint32_t(Capability::Geometry), uint32_t(Capability::Kernel),
                               uint32_t(Capability::Geometry), 999999};
  std::vector<CapabilityInForce> closure = capabilityClosure(declared);
  std::vector<std::pair<uint32_t, uint32_t>> got;
  for (const CapabilityInForce &c : closure)
    got.emplace_back(c.capability, c.declaredBy);
  EXPECT_EQ(got, (std::vector<std::pair<uint32_t, uint32_t>>{{uint32_t(Capability::Geometry), 0},
                                                             {uint32_t(Capability::Kernel), 1},
                                                             {999999, 3},
                                                             {uint32_t(Capability::Shader), 0},
                                                             {uint32_t(Capability::Matrix), 0}}));
}

} // namespace
} // namespace spire::grammar
