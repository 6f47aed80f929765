#include "spire/dxil/Container.h"

#include <gtest/gtest.h>

#include <cstring>

namespace spire::dxil {
namespace {

// A container is built here field by field, little-endian.
struct Bytes {
  std::vector<uint8_t> v;
  Bytes &u32(uint32_t x) {
    for (int i = 0; i < 4; ++i)
      v.push_back(uint8_t(x >> (8 * i)));
    return *this;
  }
  Bytes &u16(uint16_t x) {
    v.push_back(uint8_t(x));
    v.push_back(uint8_t(x >> 8));
    return *this;
  }
  Bytes &raw(std::span<const uint8_t> bytes) {
    v.insert(v.end(), bytes.begin(), bytes.end());
    return *this;
  }
  void set32(size_t at, uint32_t x) { std::memcpy(v.data() + at, &x, 4); }
};

// A compute 6.0 program part whose "bitcode" is `bitcode`, and a container holding it after an
// SFI0 part.
std::vector<uint8_t> programPart(std::span<const uint8_t> bitcode) {
  Bytes p;
  uint32_t words = uint32_t((24 + bitcode.size() + 3) / 4);
  p.u32(5u << 16 | 6u << 4 | 0)
      .u32(words)
      .u32(FourCC::of("DXIL").value)
      .u32(0x100)
      .u32(16)
      .u32(uint32_t(bitcode.size()));
  p.raw(bitcode);
  p.v.resize(size_t(words) * 4);
  return p.v;
}

std::vector<uint8_t> container(std::span<const uint8_t> program) {
  Bytes c;
  c.u32(FourCC::of("DXBC").value);
  for (int i = 0; i < 16; ++i)
    c.v.push_back(0);
  c.u16(1).u16(0).u32(0).u32(2);
  size_t table = c.v.size();
  c.u32(0).u32(0);
  c.set32(table, uint32_t(c.v.size()));
  c.u32(FourCC::of("SFI0").value).u32(8).u32(0).u32(0);
  c.set32(table + 4, uint32_t(c.v.size()));
  c.u32(FourCC::of("DXIL").value).u32(uint32_t(program.size())).raw(program);
  c.set32(24, uint32_t(c.v.size()));
  return c.v;
}

const uint8_t kBitcode[] = {'B', 'C', 0xc0, 0xde, 1, 2, 3, 4};

TEST(DxilContainer, ReadsThePartTableAndLocatesTheBitcode) {
  std::vector<uint8_t> bytes = container(programPart(kBitcode));
  Expected<Container> c = readContainer(bytes);
  ASSERT_TRUE(c) << c.error().format();
  ASSERT_EQ(c->parts.size(), 2u);
  EXPECT_EQ(c->parts[0].fourcc.str(), "SFI0");
  EXPECT_EQ(c->majorVersion, 1);
  const ContainerPart *dxil = c->find(FourCC::of("DXIL"));
  ASSERT_NE(dxil, nullptr);
  Expected<ProgramHeader> h = readProgramHeader(*dxil);
  ASSERT_TRUE(h) << h.error().format();
  EXPECT_EQ(h->kind, ShaderKind::Compute);
  EXPECT_EQ(h->shaderModelMajor, 6);
  EXPECT_EQ(h->dxilMajor, 1);
  EXPECT_EQ(h->dxilMinor, 0);
  ASSERT_EQ(h->bitcode.size(), sizeof(kBitcode));
  EXPECT_EQ(std::memcmp(h->bitcode.data(), kBitcode, sizeof(kBitcode)), 0);
  EXPECT_EQ(h->bitcodeFileOffset, size_t(h->bitcode.data() - bytes.data()));
  EXPECT_STREQ(shaderKindPrefix(h->kind), "cs");
}

TEST(DxilContainer, RejectsEveryTruncation) {
  std::vector<uint8_t> bytes = container(programPart(kBitcode));
  for (size_t n = 0; n < bytes.size(); ++n) {
    std::span<const uint8_t> cut(bytes.data(), n);
    Expected<Container> c = readContainer(cut);
    ASSERT_FALSE(c) << "accepted the first " << n << " bytes";
    EXPECT_EQ(c.error().location.kind, Location::Kind::Container);
  }
}

TEST(DxilContainer, NamesThePartAndByteOfAnError) {
  std::vector<uint8_t> bytes = container(programPart(kBitcode));
  Bytes b{bytes};
  // The DXIL part's size made one word larger than what is left of the container.
  size_t dxilHeader = 32 + 8 + 16;
  b.set32(dxilHeader + 4, uint32_t(bytes.size()));
  Expected<Container> c = readContainer(b.v);
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().format("x.dxil"),
            "x.dxil: error: part DXIL, byte " + std::to_string(dxilHeader + 4) + ": the part's " +
                std::to_string(bytes.size()) + " bytes run past the end of the container");
}

TEST(DxilContainer, RejectsOverlappingParts) {
  std::vector<uint8_t> bytes = container(programPart(kBitcode));
  Bytes b{bytes};
  b.set32(36, 40); // the DXIL part's entry points into the SFI0 part
  Expected<Container> c = readContainer(b.v);
  ASSERT_FALSE(c);
  EXPECT_NE(c.error().message.find("overlaps"), std::string::npos) << c.error().message;
}

TEST(DxilContainer, ProgramHeaderChecksItsRanges) {
  std::vector<uint8_t> program = programPart(kBitcode);
  Bytes p{program};
  p.set32(20, 1000); // bitcode size past the program
  ContainerPart part{FourCC::of("DXIL"), 0, p.v};
  Expected<ProgramHeader> h = readProgramHeader(part);
  ASSERT_FALSE(h);
  EXPECT_NE(h.error().message.find("outside the program"), std::string::npos);
  p = Bytes{program};
  p.set32(8, FourCC::of("DXBC").value);
  part.data = p.v;
  ASSERT_FALSE(readProgramHeader(part));
}

} // namespace
} // namespace spire::dxil
