// Containers and parts built byte by byte for the DXIL tests (and written out as fuzz seeds):
// a little-endian byte writer, one builder per part, and a container holding every part.
#pragma once

#include "spire/dxil/Container.h"

#include <cstring>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace spire::dxil::test {

/// Little-endian bytes written field by field.
struct Bytes {
  std::vector<uint8_t> v;

  Bytes &u8(uint8_t x) {
    v.push_back(x);
    return *this;
  }
  Bytes &u16(uint16_t x) { return u8(uint8_t(x)).u8(uint8_t(x >> 8)); }
  Bytes &u32(uint32_t x) { return u16(uint16_t(x)).u16(uint16_t(x >> 16)); }
  Bytes &u64(uint64_t x) { return u32(uint32_t(x)).u32(uint32_t(x >> 32)); }
  Bytes &f32(float x) {
    uint32_t bits;
    std::memcpy(&bits, &x, 4);
    return u32(bits);
  }
  Bytes &raw(std::span<const uint8_t> bytes) {
    v.insert(v.end(), bytes.begin(), bytes.end());
    return *this;
  }
  /// The characters and a NUL.
  Bytes &cstr(std::string_view s) {
    v.insert(v.end(), s.begin(), s.end());
    return u8(0);
  }
  Bytes &pad4() {
    while (v.size() % 4)
      v.push_back(0);
    return *this;
  }
  size_t size() const { return v.size(); }
  void set32(size_t at, uint32_t x) { std::memcpy(v.data() + at, &x, 4); }
};

struct TestPart {
  FourCC fourcc;
  std::vector<uint8_t> data;
};

/// A container of these parts in this order; `sign` stores the recomputed digest.
std::vector<uint8_t> buildContainer(const std::vector<TestPart> &parts, bool sign = true);

/// A DXIL (or ILDB/STAT) program part around `bitcode`.
std::vector<uint8_t> programPart(ShaderKind kind, uint8_t smMajor, uint8_t smMinor,
                                 std::span<const uint8_t> bitcode);

struct TestElement {
  std::string name;
  uint32_t index = 0;
  uint32_t systemValue = 0;
  uint32_t componentType = 3; // float
  uint32_t reg = 0;
  uint8_t mask = 0xf;
  uint8_t rwMask = 0;
  uint32_t stream = 0;
  uint32_t minPrecision = 0;
};
/// An ISG1/OSG1/PSG1 part.
std::vector<uint8_t> signaturePart(const std::vector<TestElement> &elements);

/// The parts of a pixel shader with every part spire decodes, each with a few entries: DXIL, ILDB,
/// STAT, ISG1, OSG1, PSG1 (empty), PSV0 (version 3), SFI0, HASH, VERS, RDAT, ILDN, RTS0, SRCI,
/// and an unknown PRIV part.
std::vector<TestPart> everyPart();

// Part builders the tests vary.
std::vector<uint8_t> pixelPsvPart(uint32_t runtimeInfoSize);
std::vector<uint8_t> runtimeDataPart(uint32_t functionStride = 52);
std::vector<uint8_t> rootSignaturePart(uint32_t version);
std::vector<uint8_t> sourceInfoPart();

} // namespace spire::dxil::test
