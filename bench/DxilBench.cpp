// spire_bench dxil: see DxilBench.h.
#include "DxilBench.h"

#include "Repetition.h"

#include "spire/dxil/BitcodeReader.h"
#include "spire/dxil/Container.h"
#include "spire/dxil/DxilModule.h"
#include "spire/dxil/LlvmPrinter.h"
#include "spire/support/File.h"
#include "spire/translate/DxilToSpirv.h"
#include "spire/val/Validator.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace spire::bench {

namespace fs = std::filesystem;

/// One container of the corpus and its DXIL part's bitcode.
struct Program {
  std::string name;
  std::vector<uint8_t> bytes;
  std::span<const uint8_t> bitcode;
};

size_t dxilModelPass(const std::vector<Program> &programs);

namespace {

using Clock = std::chrono::steady_clock;

double medianSeconds(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

/// The .dxil files that the arguments name (directories: the .dxil files in them), sorted, and
/// the --passes count; false after --help.
bool parseArguments(std::span<char *const> args, const char *usage, int &passes,
                    std::vector<fs::path> &files) {
  std::vector<fs::path> inputs;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string a = args[i];
    if (a == "--passes" && i + 1 < args.size())
      passes = std::max(1, std::atoi(args[++i]));
    else if (a == "-h" || a == "--help") {
      std::puts(usage);
      return false;
    } else
      inputs.emplace_back(a);
  }
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
  return true;
}

} // namespace

namespace {

/// Each program read and decoded once; how many failed.
[[gnu::noinline]] size_t modelAll(const std::vector<Program> &programs) {
  size_t failed = 0;
  for (const Program &p : programs) {
    Expected<dxil::LlvmModule> m = dxil::readBitcode(p.bitcode);
    failed += !m || !dxil::decodeDxil(*m);
  }
  return failed;
}

} // namespace

/// modelAll under a name of its own outside any anonymous namespace, so that a profiler can
/// collect inside this pass alone (bench/dxil.py: --toggle-collect=*dxilModelPass*).
[[gnu::noinline]] size_t dxilModelPass(const std::vector<Program> &programs) {
  return modelAll(programs);
}

int runDxil(std::span<char *const> args) {
  int passes = 21;
  // --model-once: each program read and decoded once and nothing else, for a profiler to count
  // what readBitcode and decodeDxil cost a byte (bench/dxil.py's instruction row).
  bool modelOnce = false;
  // --model-only: the read+model pass alone, --passes times, for a sampling profiler (the time
  // that pass takes, which counted instructions do not show: cache and branch misses).
  bool modelOnly = false;
  std::vector<char *> rest;
  for (char *a : args)
    if (std::string_view(a) == "--model-once")
      modelOnce = true;
    else if (std::string_view(a) == "--model-only")
      modelOnly = true;
    else
      rest.push_back(a);
  std::vector<fs::path> files;
  if (!parseArguments(rest,
                      "Usage: spire_bench dxil [--passes N] [--model-once | --model-only] "
                      "<dir or .dxil files...>",
                      passes, files))
    return 0;
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
  if (modelOnce) {
    // A first pass fills the reader's per-thread memos, as the timed passes find them.
    size_t failed = modelAll(programs);
    failed += dxilModelPass(programs);
    std::printf("{\"task\":\"dxil model once\",\"programs\":%zu,\"failed\":%zu,"
                "\"bitcode_bytes\":%llu}\n",
                programs.size(), failed, static_cast<unsigned long long>(bitcodeBytes));
    return failed ? 1 : 0;
  }
  if (modelOnly) {
    size_t failed = 0;
    for (int pass = 0; pass < passes; ++pass)
      failed += dxilModelPass(programs);
    return failed ? 1 : 0;
  }
  size_t failures = 0;
  std::vector<double> readTimes, modelTimes, printTimes;
  size_t modelFailures = 0, opCalls = 0;
  size_t textBytes = 0;
  // Thread CPU time, as the other in-process rows: on a machine other jobs share, wall time
  // measures them too.
  auto cpuNow = [] { return Stamp::now().cpu; };
  for (int pass = 0; pass < passes; ++pass) {
    double t0 = cpuNow();
    for (const Program &p : programs) {
      Expected<dxil::LlvmModule> m = dxil::readBitcode(p.bitcode);
      if (!m && pass == 0)
        ++failures;
    }
    double tm = cpuNow();
    size_t calls = 0;
    for (const Program &p : programs) {
      Expected<dxil::LlvmModule> m = dxil::readBitcode(p.bitcode);
      if (!m)
        continue;
      Expected<dxil::DxilModule> d = dxil::decodeDxil(*m);
      if (d)
        calls += d->opCalls.size();
      else if (pass == 0)
        ++modelFailures;
    }
    opCalls = calls;
    double t1 = cpuNow();
    size_t text = 0;
    for (const Program &p : programs) {
      Expected<dxil::LlvmModule> m = dxil::readBitcode(p.bitcode);
      if (m)
        dxil::printLlvmModule(*m, [&](std::string_view piece) { text += piece.size(); });
    }
    double t2 = cpuNow();
    textBytes = text;
    readTimes.push_back(tm - t0);
    modelTimes.push_back(t1 - tm);
    printTimes.push_back(t2 - t1);
  }
  double mb = double(bitcodeBytes) / 1e6;
  double read = medianSeconds(readTimes), model = medianSeconds(modelTimes),
         print = medianSeconds(printTimes);
  auto fastest = [](const std::vector<double> &v) { return *std::min_element(v.begin(), v.end()); };
  std::printf("{\"task\":\"dxil read\",\"programs\":%zu,\"failed\":%zu,\"bitcode_bytes\":%llu,"
              "\"seconds\":%.6f,\"mb_per_s\":%.1f,\"best_mb_per_s\":%.1f}\n",
              programs.size(), failures, static_cast<unsigned long long>(bitcodeBytes), read,
              mb / read, mb / fastest(readTimes));
  std::printf("{\"task\":\"dxil read+model\",\"programs\":%zu,\"failed\":%zu,\"op_calls\":%zu,"
              "\"seconds\":%.6f,\"mb_per_s\":%.1f,\"best_mb_per_s\":%.1f}\n",
              programs.size(), modelFailures, opCalls, model, mb / model, mb / fastest(modelTimes));
  std::printf("{\"task\":\"dxil read+print\",\"programs\":%zu,\"text_bytes\":%zu,"
              "\"seconds\":%.6f,\"mb_per_s\":%.1f,\"best_mb_per_s\":%.1f}\n",
              programs.size(), textBytes, print, mb / print, mb / fastest(printTimes));
  return failures || modelFailures ? 1 : 0;
}

int runDxilTranslate(std::span<char *const> args) {
  int passes = 5;
  std::vector<fs::path> files;
  if (!parseArguments(args,
                      "Usage: spire_bench dxil-translate [--passes N] <dir or .dxil files...>",
                      passes, files))
    return 0;
  std::vector<std::vector<uint8_t>> containers;
  for (const fs::path &f : files)
    if (Expected<std::vector<uint8_t>> bytes = readFile(f.string()))
      containers.push_back(std::move(*bytes));
  if (containers.empty()) {
    std::fputs("spire_bench dxil-translate: no readable files\n", stderr);
    return 1;
  }
  // What `spire translate --dxil-to-spirv` does per file, without the process: translate every
  // entry point, then validate each module (vulkan1.3).
  val::Options vo;
  vo.env = *val::parseEnvironment("vulkan1.3");
  std::vector<double> translateTimes, validateTimes;
  size_t translated = 0, modules = 0;
  for (int pass = 0; pass < passes; ++pass) {
    std::vector<std::vector<uint32_t>> words;
    size_t ok = 0;
    auto t0 = Clock::now();
    for (const std::vector<uint8_t> &c : containers) {
      Expected<std::vector<translate::TranslatedShader>> shaders =
          translate::translateDxilBytes(c, {});
      if (!shaders)
        continue;
      ++ok;
      for (translate::TranslatedShader &s : *shaders)
        words.push_back(std::move(s.words));
    }
    auto t1 = Clock::now();
    for (const std::vector<uint32_t> &w : words)
      val::validateBinary(
          std::span<const uint8_t>(reinterpret_cast<const uint8_t *>(w.data()), w.size() * 4), vo);
    auto t2 = Clock::now();
    translated = ok;
    modules = words.size();
    translateTimes.push_back(std::chrono::duration<double>(t1 - t0).count());
    validateTimes.push_back(std::chrono::duration<double>(t2 - t1).count());
  }
  const double tr = medianSeconds(translateTimes), va = medianSeconds(validateTimes);
  std::printf("{\"task\":\"dxil translate\",\"files\":%zu,\"translated\":%zu,\"modules\":%zu,"
              "\"seconds\":%.6f}\n",
              containers.size(), translated, modules, tr);
  std::printf("{\"task\":\"dxil translate+val\",\"files\":%zu,\"translated\":%zu,"
              "\"modules\":%zu,\"seconds\":%.6f}\n",
              containers.size(), translated, modules, tr + va);
  return 0;
}

} // namespace spire::bench
