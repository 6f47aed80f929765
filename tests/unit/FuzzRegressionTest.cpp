// Every input that once broke a fuzz target is replayed here on every test run.
#include "../../fuzz/DxilContainerTarget.h"
#include "../../fuzz/FuzzTargets.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

namespace fs = std::filesystem;

namespace {

void replay(const char *target, void (*body)(const uint8_t *, size_t)) {
  fs::path dir = fs::path(SPIRE_SOURCE_DIR) / "fuzz" / "regressions" / target;
  size_t n = 0;
  std::error_code ec;
  for (const auto &entry : fs::directory_iterator(dir, ec)) {
    if (entry.path().filename().string().starts_with("."))
      continue;
    std::ifstream f(entry.path(), std::ios::binary);
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(f)), {});
    SCOPED_TRACE(entry.path().string());
    body(bytes.data(), bytes.size());
    ++n;
  }
  std::printf("%s: %zu regression inputs replayed\n", target, n);
}

} // namespace

TEST(FuzzRegression, BinaryReader) { replay("binary_reader", spire::fuzz::binaryReader); }
TEST(FuzzRegression, Assembler) { replay("assembler", spire::fuzz::assembler); }
TEST(FuzzRegression, Disassembler) { replay("disassembler", spire::fuzz::disassembler); }
TEST(FuzzRegression, Validator) { replay("validator", spire::fuzz::validator); }
TEST(FuzzRegression, Dialect) { replay("dialect", spire::fuzz::dialect); }
TEST(FuzzRegression, DialectText) { replay("dialect_text", spire::fuzz::dialectText); }
TEST(FuzzRegression, DxilBitcode) { replay("dxil_bitcode", spire::fuzz::dxilBitcode); }
TEST(FuzzRegression, DxilContainer) { replay("dxil_container", spire::fuzz::dxilContainer); }
TEST(FuzzRegression, Script) { replay("script", spire::fuzz::script); }
