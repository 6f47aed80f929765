// spire_bench dxil: see DxilBench.h.
#include "DxilBench.h"

#include "spire/dxil/BitcodeReader.h"
#include "spire/dxil/Container.h"
#include "spire/dxil/LlvmPrinter.h"
#include "spire/support/File.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

namespace spire::bench {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

struct Program {
  std::string name;
  std::vector<uint8_t> bytes;
  std::span<const uint8_t> bitcode;
};

double medianSeconds(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

} // namespace

int runDxil(std::span<char *const> args) {
  int passes = 21;
  std::vector<fs::path> inputs;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string a = args[i];
    if (a == "--passes" && i + 1 < args.size())
      passes = std::max(1, std::atoi(args[++i]));
    else if (a == "-h" || a == "--help") {
      std::puts("Usage: spire_bench dxil [--passes N] <dir or .dxil files...>");
      return 0;
    } else
      inputs.emplace_back(a);
  }
  std::vector<fs::path> files;
  for (const fs::path &p : inputs) {
    if (fs::is_directory(p)) {
      for (const auto &e : fs::directory_iterator(p))
        if (e.path().extension() == ".dxil")
          files.push_back(e.path());
    } else {
      files.push_back(p);
    }
  }
  std::sort(files.begin(), files.end());
  std::vector<Program> programs;
  uint64_t bitcodeBytes = 0;
  for (const fs::path &f : files) {
    Expected<std::vector<uint8_t>> bytes = readFile(f.string());
    if (!bytes)
      continue;
    Program p{f.filename().string(), std::move(*bytes), {}};
    Expected<dxil::Container> c = dxil::readContainer(p.bytes);
    if (!c)
      continue;
    const dxil::ContainerPart *part = c->find(dxil::FourCC::of("DXIL"));
    if (!part)
      continue;
    Expected<dxil::ProgramHeader> h = dxil::readProgramHeader(*part);
    if (!h)
      continue;
    p.bitcode = h->bitcode;
    bitcodeBytes += p.bitcode.size();
    programs.push_back(std::move(p));
  }
  if (programs.empty()) {
    std::fputs("spire_bench dxil: no readable containers\n", stderr);
    return 1;
  }
  size_t failures = 0;
  std::vector<double> readTimes, printTimes;
  size_t textBytes = 0;
  for (int pass = 0; pass < passes; ++pass) {
    auto t0 = Clock::now();
    for (const Program &p : programs) {
      Expected<dxil::LlvmModule> m = dxil::readBitcode(p.bitcode);
      if (!m && pass == 0)
        ++failures;
    }
    auto t1 = Clock::now();
    size_t text = 0;
    for (const Program &p : programs) {
      Expected<dxil::LlvmModule> m = dxil::readBitcode(p.bitcode);
      if (m)
        dxil::printLlvmModule(*m, [&](std::string_view piece) { text += piece.size(); });
    }
    auto t2 = Clock::now();
    textBytes = text;
    readTimes.push_back(std::chrono::duration<double>(t1 - t0).count());
    printTimes.push_back(std::chrono::duration<double>(t2 - t1).count());
  }
  double mb = double(bitcodeBytes) / 1e6;
  double read = medianSeconds(readTimes), print = medianSeconds(printTimes);
  std::printf("{\"task\":\"dxil read\",\"programs\":%zu,\"failed\":%zu,\"bitcode_bytes\":%llu,"
              "\"seconds\":%.6f,\"mb_per_s\":%.1f}\n",
              programs.size(), failures, static_cast<unsigned long long>(bitcodeBytes), read,
              mb / read);
  std::printf("{\"task\":\"dxil read+print\",\"programs\":%zu,\"text_bytes\":%zu,"
              "\"seconds\":%.6f,\"mb_per_s\":%.1f}\n",
              programs.size(), textBytes, print, mb / print);
  return failures ? 1 : 0;
}

} // namespace spire::bench
