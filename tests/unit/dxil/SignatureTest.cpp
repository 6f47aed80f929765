#include "DxilTestContainers.h"

#include "spire/dxil/Signature.h"

#include <gtest/gtest.h>

namespace spire::dxil {
namespace {

using test::Bytes;
using test::TestElement;

ContainerPart partOf(const std::vector<uint8_t> &bytes, uint64_t headerOffset = 100) {
  return ContainerPart{FourCC::of("ISG1"), headerOffset, bytes};
}

TEST(DxilSignature, ReadsEveryFieldAndTheSemanticNames) {
  std::vector<uint8_t> bytes = test::signaturePart(
      {{"SV_Position", 0, 1, 3, 0, 0xf, 0xf, 0, 0}, {"COLOR", 2, 0, 1, 1, 0x6, 0x2, 3, 5}});
  Expected<ProgramSignature> sig = readSignature(partOf(bytes));
  ASSERT_TRUE(sig) << sig.error().format();
  ASSERT_EQ(sig->elements.size(), 2u);
  const SignatureElement &pos = sig->elements[0];
  EXPECT_EQ(pos.semanticName, "SV_Position");
  EXPECT_EQ(pos.systemValue, SystemValue::Position);
  EXPECT_EQ(pos.componentType, ComponentType::Float32);
  EXPECT_EQ(pos.mask, 0xf);
  EXPECT_EQ(pos.readWriteMask, 0xf);
  const SignatureElement &color = sig->elements[1];
  EXPECT_EQ(color.semanticName, "COLOR");
  EXPECT_EQ(color.semanticIndex, 2u);
  EXPECT_EQ(color.componentType, ComponentType::UInt32);
  EXPECT_EQ(color.registerIndex, 1u);
  EXPECT_EQ(color.mask, 0x6);
  EXPECT_EQ(color.readWriteMask, 0x2);
  EXPECT_EQ(color.stream, 3u);
  EXPECT_EQ(color.minPrecision, MinPrecision::UInt16);
  EXPECT_STREQ(systemValueName(pos.systemValue), "POS");
  EXPECT_STREQ(componentTypeName(color.componentType), "uint");
  EXPECT_STREQ(minPrecisionName(color.minPrecision), "min16u");
  EXPECT_EQ(maskLetters(0x6), " yz ");
  EXPECT_EQ(systemValueName(SystemValue(17)), nullptr);
}

TEST(DxilSignature, AnEmptySignatureHasNoElements) {
  Expected<ProgramSignature> sig = readSignature(partOf(test::signaturePart({})));
  ASSERT_TRUE(sig);
  EXPECT_TRUE(sig->elements.empty());
}

TEST(DxilSignature, ErrorsNameThePartAndTheFileByte) {
  std::vector<uint8_t> bytes = test::signaturePart({{"A"}, {"B"}});
  Bytes b{bytes};
  b.set32(0, 3); // three elements: the third overlaps the names and runs out of the part
  Expected<ProgramSignature> sig = readSignature(partOf(b.v));
  ASSERT_FALSE(sig);
  EXPECT_EQ(sig.error().location.kind, Location::Kind::Container);
  EXPECT_EQ(sig.error().location.scopeName(), "ISG1");
  EXPECT_EQ(sig.error().location.offset, 100u + 8 + 8); // the part header, then the elements

  b = Bytes{bytes};
  b.set32(8 + 4, uint32_t(bytes.size())); // the first name starts past the end
  sig = readSignature(partOf(b.v));
  ASSERT_FALSE(sig);
  EXPECT_NE(sig.error().message.find("semantic name of element 0"), std::string::npos);

  b = Bytes{bytes};
  while (!b.v.empty() && b.v.back() != 'B') // the last name loses its NUL and the padding
    b.v.pop_back();
  sig = readSignature(partOf(b.v));
  ASSERT_FALSE(sig);
  EXPECT_NE(sig.error().message.find("no terminating NUL"), std::string::npos);
}

TEST(DxilSignature, RejectsEveryTruncationThatCutsANameAndAHugeCount) {
  std::vector<uint8_t> bytes = test::signaturePart({{"TEXCOORD", 0}, {"TEXCOORD", 1}});
  size_t end = 8 + 2 * 32 + 2 * 9; // the second name's NUL ends the part's contents
  ASSERT_EQ(bytes.size(), (end + 3) / 4 * 4);
  for (size_t n = 0; n < bytes.size(); ++n) {
    std::vector<uint8_t> cut(bytes.begin(), bytes.begin() + n);
    Expected<ProgramSignature> sig = readSignature(partOf(cut));
    EXPECT_EQ(bool(sig), n >= end) << n << " bytes";
    if (!sig) {
      EXPECT_EQ(sig.error().location.kind, Location::Kind::Container);
    }
  }
  Bytes b{bytes};
  b.set32(0, 0xffffffffu);
  EXPECT_FALSE(readSignature(partOf(b.v)));
}

} // namespace
} // namespace spire::dxil

namespace spire::dxil {
namespace {

TEST(DxilSignature, RefusesElementsThatShareALongNameBeyondReason) {
  // 100 elements naming one string of 2000 bytes resolve to 200000 bytes of names.
  test::Bytes b;
  b.u32(100).u32(8);
  uint32_t nameAt = 8 + 100 * 32;
  for (int i = 0; i < 100; ++i)
    b.u32(0).u32(nameAt).u32(uint32_t(i)).u32(0).u32(3).u32(uint32_t(i)).u8(1).u8(0).u16(0).u32(0);
  b.cstr(std::string(2000, 'N'));
  Expected<ProgramSignature> sig = readSignature(ContainerPart{FourCC::of("OSG1"), 0, b.v});
  ASSERT_FALSE(sig);
  EXPECT_NE(sig.error().message.find("can plausibly hold"), std::string::npos);
  // Ten of them are fine.
  b.set32(0, 10);
  EXPECT_TRUE(readSignature(ContainerPart{FourCC::of("OSG1"), 0, b.v}));
}

} // namespace
} // namespace spire::dxil
