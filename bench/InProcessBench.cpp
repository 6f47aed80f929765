#include "InProcessBench.h"

#include "IsolatedRun.h"
#include "JsonLine.h"
#include "ReferenceTools.h"
#include "Repetition.h"

#include "spire/asm/Assembler.h"
#include "spire/asm/Disassembler.h"
#include "spire/binary/Words.h"
#include "spire/dialect/Serialization.h"
#include "spire/dialect/Text.h"
#include "spire/dialect/Verifier.h"
#include "spire/module/Module.h"
#include "spire/support/File.h"
#include "spire/val/Validator.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <malloc.h>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace spire::bench {

namespace {

constexpr const char *kHelp = R"(spire_bench measure - time spire and SPIRV-Tools in-process

Usage: spire_bench measure [options] (--list <files.tsv> | <file.spv>...)

A list file has one module per line: the .spv path and, after a tab, the path of its assembly
text (the input of the 'as' measurements; without it 'as' skips the module).

Operations (--ops, comma-separated; default: all, the ref-* ones when SPIRV-Tools is linked in):
  read+write      Module::fromBytes + toBytes (checked: same bytes)
  read            Module::fromBytes
  dis, dis-raw    Module::fromBytes + spire::disassemble (streaming into a reused buffer),
                  friendly names / raw ids
                  (checked against SPIRV-Tools' text)
  as              spire::assemble of the text (checked against SPIRV-Tools' words)
  to-mlir         Module::fromBytes + dialect::deserialize printed as it is made
                  (spire translate --deserialize-spirv without its validation)
  from-mlir       dialect::parse + verify + serialize of the module's printed IR (spire
                  translate --serialize-spirv)
  read+val        spire::val::validateBinary (Module::fromBytes + validate), environment
                  spv1.6 (checked: same verdict as SPIRV-Tools' validator)
  val             spire::val::validate of a module read beforehand (reading not timed)
  ref-read+write  SPIRV-Tools: optimizer IR built and written back, no passes, no validation
  ref-read        SPIRV-Tools: spvBinaryParse
  ref-dis, ref-dis-raw, ref-as
                  SPIRV-Tools: spvBinaryToText / spvTextToBinary with spirv-dis/-as defaults
  ref-val         SPIRV-Tools: spvValidateWithOptions, SPV_ENV_UNIVERSAL_1_6, default options
                  (as spirv-val --target-env spv1.6; it parses the words itself)

Each measurement runs in a child process with a time limit. Per file (the default) it reports
the median time of repeated calls and the heap the result keeps (module, text or words); with
--all one repetition is one pass over all modules, and per-file medians are summed as well.
A call includes freeing its output. Freed memory stays in the process, so repeated calls do not
pay page faults for fresh memory; the first call (first_s) does.

Options:
  --all               one measurement over all files instead of one per file
  --per-file-lines    with --all, also print each file's median time
  --min-time <s>      time per measurement, at least (default 0.3)
  --min-reps <n>      repetitions per measurement, at least (default 3)
  --max-reps <n>      repetitions per measurement, at most (default 1000)
  --single-above <s>  a first call this slow is the only sample (default 2)
  --timeout <s>       time limit of one measurement (default 60; 0: none)
  --check-limit <mb>  compare friendly-name disassembly and validation verdicts with SPIRV-Tools
                      only for modules up to this size (SPIRV-Tools is quadratic there;
                      default 1.5)

Output: JSON lines. scope "file" or "all"; op; status: ok (output equals SPIRV-Tools'; for the
validations, the same verdict), unchecked, pending (spire's placeholder), differs, failed,
timeout, crashed, unavailable; median_s and min_s (CPU seconds per call or pass),
median_wall_s, reps, mb_per_s (module bytes per CPU second), heap_bytes (per file), verdict
(validations, per file), n_<status> counts, n_valid (validations) and per_file_sum_wall_s
(--all).
)";

enum class Op {
  ReadWrite,
  Read,
  Dis,
  DisRaw,
  As,
  ReadVal,
  Val,
  ToMlir,
  FromMlir,
  RefReadWrite,
  RefRead,
  RefDis,
  RefDisRaw,
  RefAs,
  RefVal
};

struct OpInfo {
  Op op;
  std::string_view name;
  bool reference;
  bool needsText;
};

constexpr OpInfo kOps[] = {
    {Op::ReadWrite, "read+write", false, false},
    {Op::Read, "read", false, false},
    {Op::Dis, "dis", false, false},
    {Op::DisRaw, "dis-raw", false, false},
    {Op::As, "as", false, true},
    {Op::ReadVal, "read+val", false, false},
    {Op::Val, "val", false, false},
    {Op::ToMlir, "to-mlir", false, false},
    {Op::FromMlir, "from-mlir", false, false},
    {Op::RefReadWrite, "ref-read+write", true, false},
    {Op::RefRead, "ref-read", true, false},
    {Op::RefDis, "ref-dis", true, false},
    {Op::RefDisRaw, "ref-dis-raw", true, false},
    {Op::RefAs, "ref-as", true, true},
    {Op::RefVal, "ref-val", true, false},
};

struct Options {
  bool all = false;
  bool perFileLines = false;
  RepeatOptions repeat;
  double timeout = 60;
  double checkLimitMb = 1.5;
  std::vector<const OpInfo *> ops;
};

struct Input {
  std::string path;
  std::string textPath;
  std::vector<uint8_t> bytes;
  std::vector<uint32_t> words; ///< host order, for SPIRV-Tools
  std::string text;
  bool hasText = false;
  /// The module read beforehand, for 'val' (which times validation alone); read on first use.
  mutable std::shared_ptr<const Module> parsed;
  /// The module's structured IR in MLIR syntax, for 'from-mlir'; made on first use.
  mutable std::shared_ptr<const std::string> mlirText;
};

// The disassembler's reading options (spire dis accepts ids past the bound, as spirv-dis does).
constexpr binary::DecodeOptions kDisReading{.allowIdsPastBound = true};

/// The validator's options: environment spv1.6, as given to both validators.
const val::Options &valOptions() {
  static const val::Options options;
  return options;
}

/// Heap bytes in use (glibc's count of allocated chunks, small and mmapped).
size_t heapInUse() {
  struct mallinfo2 mi = mallinfo2();
  return mi.uordblks + mi.hblkhd;
}

/// Runs one operation on one input and keeps its output (for the checks and the memory pass)
/// until release(); a timed call is run() + release(), so that it pays for freeing its own
/// output and not for the previous module's.
class OpRunner {
public:
  OpRunner(Op op, ReferenceTools &ref) : op_(op), ref_(ref) {}

  /// Untimed work before the first call: 'val' reads the module once and keeps it.
  void prepare(const Input &in) {
    if (op_ == Op::FromMlir && !in.mlirText) {
      Expected<Module> m = Module::fromBytes(in.bytes);
      dialect::Context ctx;
      if (m)
        if (Expected<dialect::OwningOp> op = dialect::deserialize(ctx, *m))
          in.mlirText = std::make_shared<const std::string>(dialect::toString(**op));
      return;
    }
    if (op_ != Op::Val || in.parsed)
      return;
    Expected<Module> m = Module::fromBytes(in.bytes);
    if (m)
      in.parsed = std::make_shared<const Module>(std::move(*m));
  }

  bool run(const Input &in) {
    switch (op_) {
    case Op::ReadWrite:
      if (!read(in, {}))
        return false;
      bytes_ = module_->toBytes();
      return true;
    case Op::Read:
      return read(in, {});
    case Op::Dis:
    case Op::DisRaw: {
      if (!read(in, kDisReading))
        return false;
      DisassembleOptions options;
      options.friendlyNames = op_ == Op::Dis;
      // The streaming form into a buffer kept across calls, as a long-running tool would use it:
      // a new 30+ MB string per call is above glibc's mmap threshold and pays its page faults
      // on every call.
      text_.clear();
      disassemble(*module_, options, [&](std::string_view piece) { text_.append(piece); });
      return true;
    }
    case Op::As: {
      Expected<std::vector<uint32_t>> words = assemble(in.text);
      if (!words) {
        error_ = words.error().format();
        return false;
      }
      words_ = std::move(*words);
      return true;
    }
    case Op::ReadVal:
      report_ = val::validateBinary(in.bytes, valOptions());
      return true;
    case Op::Val:
      if (!in.parsed)
        return fail("spire could not read the module");
      report_ = val::validate(*in.parsed, valOptions());
      return true;
    case Op::ToMlir: {
      // What spire translate --deserialize-spirv does after validating: read, then deserialize
      // and print function by function, each freed once printed (the inputs are valid).
      if (!read(in, {}))
        return false;
      dialect::Context ctx;
      text_.clear();
      dialect::ModuleTextStream stream([&](std::string_view piece) { text_.append(piece); }, {});
      dialect::DeserializeOptions options;
      options.bodyReady = [&](dialect::Operation &module) { stream.printBody(module); };
      Expected<dialect::OwningOp> op = dialect::deserialize(ctx, *module_, nullptr, options);
      if (!op)
        return fail(op.error().format());
      stream.finish(**op);
      return true;
    }
    case Op::FromMlir: {
      // What spire translate --serialize-spirv does: parse, verify, serialize.
      if (!in.mlirText)
        return fail("spire could not deserialize the module");
      dialect::Context ctx;
      Expected<dialect::OwningOp> op = dialect::parse(ctx, *in.mlirText);
      if (!op)
        return fail(op.error().format());
      if (Status v = dialect::verify(**op); !v)
        return fail(v.error().format());
      Expected<std::vector<uint32_t>> words = dialect::serialize(**op);
      if (!words)
        return fail(words.error().format());
      words_ = std::move(*words);
      return true;
    }
    case Op::RefVal:
      return ref_.validate(in.words) || fail("SPIRV-Tools' validator is not linked in");
    case Op::RefReadWrite:
      return ref_.roundTrip(in.words) || fail("SPIRV-Tools could not read the module");
    case Op::RefRead:
      return ref_.parse(in.words) || fail("SPIRV-Tools could not parse the module");
    case Op::RefDis:
    case Op::RefDisRaw:
      return ref_.disassemble(in.words, op_ == Op::RefDis) ||
             fail("SPIRV-Tools could not disassemble the module");
    case Op::RefAs:
      return ref_.assemble(in.text) || fail("SPIRV-Tools could not assemble the text");
    }
    return false;
  }

  void release() {
    module_.reset();
    bytes_ = {};
    text_ = {};
    words_ = {};
    report_ = {};
    ref_.release();
  }
  /// Runs and frees the output: one timed call.
  void runAndRelease(const Input &in) {
    run(in);
    release();
  }

  /// After a successful run(): whether the output is right. "ok" (same as SPIRV-Tools' or the
  /// input), "unchecked", "pending" (a placeholder's output) or "differs".
  std::string check(const Input &in, ReferenceTools &checker, double checkLimitMb) {
    switch (op_) {
    case Op::ReadWrite:
      return bytes_ == in.bytes ? "ok" : "differs";
    case Op::Dis:
    case Op::DisRaw: {
      std::string_view firstLine = std::string_view(text_).substr(0, text_.find('\n'));
      if (firstLine.find("not implemented") != std::string_view::npos)
        return "pending";
      bool friendly = op_ == Op::Dis;
      if (!ReferenceTools::available() ||
          (friendly && double(in.bytes.size()) > checkLimitMb * 1e6))
        return "unchecked";
      if (!checker.disassemble(in.words, friendly))
        return "unchecked";
      return checker.text() == text_ ? "ok" : "differs";
    }
    case Op::As: {
      if (!ReferenceTools::available() || !checker.assemble(in.text))
        return "unchecked";
      std::span<const uint32_t> expected = checker.binary();
      return std::equal(expected.begin(), expected.end(), words_.begin(), words_.end()) ? "ok"
                                                                                        : "differs";
    }
    case Op::ReadVal:
    case Op::Val:
      // Messages differ by design: the check is the verdict. SPIRV-Tools' validator is
      // quadratic on large modules (seconds at 1 MB): past the check limit the check would cost
      // more than the measurement's time limit.
      if (!ReferenceTools::available() || double(in.bytes.size()) > checkLimitMb * 1e6 ||
          !checker.validate(in.words))
        return "unchecked";
      return checker.valid() == report_.valid() ? "ok" : "differs";
    default:
      return "ok";
    }
  }

  /// Why the last run() failed; "pending" when it failed because the code is a placeholder.
  std::string failureStatus() const {
    return error_.find("not implemented") != std::string::npos ? "pending" : "failed";
  }
  const std::string &error() const { return error_; }
  /// After a successful run() of a validation: whether the module was found valid.
  std::optional<bool> verdict() const {
    switch (op_) {
    case Op::ReadVal:
    case Op::Val:
      return report_.valid();
    case Op::RefVal:
      return ref_.valid();
    default:
      return std::nullopt;
    }
  }
  size_t outputBytes() const {
    switch (op_) {
    case Op::ReadWrite:
      return bytes_.size();
    case Op::Dis:
    case Op::DisRaw:
      return text_.size();
    case Op::As:
      return words_.size() * 4;
    case Op::RefDis:
    case Op::RefDisRaw:
      return ref_.text().size();
    case Op::RefAs:
      return ref_.binary().size() * 4;
    case Op::RefReadWrite:
      return ref_.roundTripped().size() * 4;
    default:
      return 0;
    }
  }

private:
  bool read(const Input &in, binary::DecodeOptions options) {
    Expected<Module> m = Module::fromBytes(in.bytes, options);
    if (!m) {
      module_.reset();
      error_ = m.error().format();
      return false;
    }
    module_.emplace(std::move(*m));
    return true;
  }
  bool fail(std::string why) {
    error_ = std::move(why);
    return false;
  }

  Op op_;
  ReferenceTools &ref_;
  std::optional<Module> module_;
  std::vector<uint8_t> bytes_;
  std::string text_;
  std::vector<uint32_t> words_;
  val::Report report_;
  std::string error_;
};

std::string endStatus(const IsolatedResult &r) {
  return r.end == IsolatedResult::End::TimedOut ? "timeout" : "crashed";
}

/// Loads the files; returns false (after printing why) when one cannot be read.
bool loadInputs(const std::vector<std::pair<std::string, std::string>> &paths,
                std::vector<Input> &inputs) {
  for (const auto &[spv, txt] : paths) {
    Input in;
    in.path = spv;
    in.textPath = txt;
    Expected<std::vector<uint8_t>> bytes = readFile(spv);
    if (!bytes) {
      std::fprintf(stderr, "spire_bench: %s\n", bytes.error().format(spv).c_str());
      return false;
    }
    in.bytes = std::move(*bytes);
    Expected<binary::WordStream> words = binary::wordsFromBytes(in.bytes);
    if (words)
      in.words = std::move(words->words);
    if (!txt.empty()) {
      Expected<std::vector<uint8_t>> text = readFile(txt);
      if (text) {
        in.text.assign(text->begin(), text->end());
        in.hasText = true;
      }
    }
    inputs.push_back(std::move(in));
  }
  return true;
}

/// The inputs both spire and SPIRV-Tools (in spirv-dis's environment) can read: a module one of
/// them rejects would time a failure, not the work. The others are printed as "excluded" lines.
/// Runs isolated: a crash in the reader must not end the benchmark.
std::vector<const Input *> readableInputs(const std::vector<Input> &inputs, double timeout) {
  IsolatedResult r = runIsolated(
      [&] {
        ReferenceTools ref;
        std::string verdicts;
        for (const Input &in : inputs) {
          std::string why;
          // Default reading (read, read+write) is the stricter one; the set is the same for all
          // operations so that their totals compare.
          Expected<Module> m = Module::fromBytes(in.bytes);
          if (!m)
            why = "spire: " + m.error().format();
          else if (ReferenceTools::available() && !ref.parse(in.words))
            why = "SPIRV-Tools cannot parse it";
          verdicts += why + "\n";
        }
        return verdicts;
      },
      timeout);
  std::vector<const Input *> readable;
  if (r.end != IsolatedResult::End::Finished) {
    std::fputs(JsonLine()
                   .addString("scope", "excluded")
                   .addString("file", "*")
                   .addString("why", "checking the inputs: " + endStatus(r) + " " + r.why)
                   .str()
                   .c_str(),
               stdout);
    return readable;
  }
  size_t start = 0;
  for (const Input &in : inputs) {
    size_t end = r.output.find('\n', start);
    std::string why = r.output.substr(start, end - start);
    start = end + 1;
    if (why.empty())
      readable.push_back(&in);
    else
      std::fputs(JsonLine()
                     .addString("scope", "excluded")
                     .addString("file", in.path)
                     .addString("why", why)
                     .str()
                     .c_str(),
                 stdout);
  }
  return readable;
}

JsonLine timingFields(JsonLine line, const Timing &t, size_t bytes) {
  line.addInteger("reps", t.reps)
      .addInteger("batch", t.batch)
      .addNumber("median_s", t.median)
      .addNumber("min_s", t.min)
      .addNumber("median_wall_s", t.medianWall);
  if (t.median > 0)
    line.addNumber("mb_per_s", double(bytes) / 1e6 / t.median);
  return line;
}

/// One operation on one file: timing, check, and the heap its output keeps.
std::string measureFile(const OpInfo &info, const Input &in, const Options &options) {
  JsonLine line;
  line.addString("scope", "file")
      .addString("op", info.name)
      .addString("file", in.path)
      .addInteger("bytes", in.bytes.size());
  ReferenceTools ref;
  OpRunner runner(info.op, ref);
  runner.prepare(in);
  Stamp start = Stamp::now();
  bool ok = runner.run(in);
  Stamp first = Stamp::now() - start;
  if (!ok)
    return line.addString("status", runner.failureStatus()).addString("note", runner.error()).str();
  ReferenceTools checker;
  std::string status = runner.check(in, checker, options.checkLimitMb);
  std::optional<bool> verdict = runner.verdict();
  size_t outputBytes = runner.outputBytes();
  runner.release();
  Timing t = repeat([&] { runner.runAndRelease(in); }, options.repeat, &first);
  line = timingFields(line.addString("status", status), t, in.bytes.size());
  line.addNumber("first_s", first.cpu).addNumber("first_wall_s", first.wall);
  line.addInteger("out_bytes", outputBytes);
  if (verdict)
    line.addString("verdict", *verdict ? "valid" : "invalid");

  // The memory pass: what one fresh run's output keeps on the heap.
  ReferenceTools fresh;
  OpRunner once(info.op, fresh);
  once.prepare(in);
  size_t before = heapInUse();
  once.run(in);
  size_t after = heapInUse();
  line.addInteger("heap_bytes", after > before ? after - before : 0);
  return line.str();
}

/// One operation over all files: repetitions are passes over every file.
std::string measureAll(const OpInfo &info, const std::vector<const Input *> &inputs,
                       const Options &options) {
  std::vector<const Input *> work;
  for (const Input *in : inputs)
    if (!info.needsText || in->hasText)
      work.push_back(in);
  size_t totalBytes = 0;
  for (const Input *in : work)
    totalBytes += in->bytes.size();
  if (work.empty())
    return JsonLine()
        .addString("scope", "all")
        .addString("op", info.name)
        .addInteger("files", 0)
        .addString("status", "unavailable")
        .addString("note", info.needsText ? "no assembly texts" : "no readable modules")
        .str();

  ReferenceTools ref, checker;
  OpRunner runner(info.op, ref);
  // Warm-up pass, with the checks.
  size_t counts[5] = {}; // ok, unchecked, pending, differs, failed
  const char *names[] = {"ok", "unchecked", "pending", "differs", "failed"};
  std::string firstProblem;
  for (const Input *in : work)
    runner.prepare(*in);
  bool hasVerdicts = false;
  size_t numValid = 0; // validations: modules found valid
  Stamp warmup;
  for (const Input *in : work) {
    Stamp start = Stamp::now();
    bool ok = runner.run(*in);
    Stamp d = Stamp::now() - start;
    warmup.cpu += d.cpu;
    warmup.wall += d.wall;
    std::string status =
        ok ? runner.check(*in, checker, options.checkLimitMb) : runner.failureStatus();
    if (std::optional<bool> verdict = ok ? runner.verdict() : std::nullopt) {
      hasVerdicts = true;
      numValid += *verdict;
    }
    runner.release();
    for (size_t i = 0; i < 5; ++i)
      if (status == names[i])
        ++counts[i];
    if (firstProblem.empty() && status != "ok" && status != "unchecked")
      firstProblem = in->path + ": " + status + (ok ? "" : " " + runner.error());
  }

  // Passes are timed on the CPU clock; files within a pass on the (much cheaper) steady clock.
  std::vector<std::vector<double>> perFile(work.size());
  std::vector<Stamp> passes;
  if (warmup.cpu >= options.repeat.singleAbove) {
    passes.push_back(warmup);
  } else {
    double total = 0;
    while ((passes.size() < options.repeat.minReps || total < options.repeat.minTime) &&
           passes.size() < std::max(options.repeat.maxReps, 1u)) {
      Stamp passStart = Stamp::now();
      for (size_t i = 0; i < work.size(); ++i) {
        Clock::time_point start = Clock::now();
        runner.runAndRelease(*work[i]);
        perFile[i].push_back(secondsSince(start));
      }
      Stamp pass = Stamp::now() - passStart;
      passes.push_back(pass);
      total += pass.cpu;
    }
  }

  std::string status = counts[2]   ? "pending"
                       : counts[3] ? "differs"
                       : counts[4] ? "failed"
                       : counts[0] ? "ok"
                                   : "unchecked";
  JsonLine line;
  line.addString("scope", "all")
      .addString("op", info.name)
      .addInteger("files", work.size())
      .addInteger("bytes", totalBytes)
      .addString("status", status);
  for (size_t i = 0; i < 5; ++i)
    line.addInteger(std::string("n_") + names[i], counts[i]);
  if (hasVerdicts)
    line.addInteger("n_valid", numValid);
  if (!firstProblem.empty())
    line.addString("note", firstProblem);
  line = timingFields(line, summarize(passes), totalBytes);
  line.addNumber("first_s", warmup.cpu).addNumber("first_wall_s", warmup.wall);
  double perFileSum = 0;
  std::string fileLines;
  for (size_t i = 0; i < work.size(); ++i) {
    double m = median(perFile[i]);
    perFileSum += m;
    if (options.perFileLines && !perFile[i].empty())
      fileLines += JsonLine()
                       .addString("scope", "file-in-all")
                       .addString("op", info.name)
                       .addString("file", work[i]->path)
                       .addInteger("bytes", work[i]->bytes.size())
                       .addNumber("median_wall_s", m)
                       .str();
  }
  if (!perFile[0].empty())
    line.addNumber("per_file_sum_wall_s", perFileSum);
  return fileLines + line.str();
}

bool parseNumber(const char *text, double &value) {
  char *end = nullptr;
  value = std::strtod(text, &end);
  return end != text && *end == '\0' && value >= 0;
}

bool parseOps(std::string_view list, std::vector<const OpInfo *> &ops) {
  while (!list.empty()) {
    size_t comma = list.find(',');
    std::string_view name = list.substr(0, comma);
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
    const OpInfo *found = nullptr;
    for (const OpInfo &info : kOps)
      if (info.name == name)
        found = &info;
    if (!found) {
      std::fprintf(stderr, "spire_bench measure: unknown operation '%.*s'\n", int(name.size()),
                   name.data());
      return false;
    }
    ops.push_back(found);
  }
  return true;
}

bool readList(const std::string &path, std::vector<std::pair<std::string, std::string>> &files) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "spire_bench measure: cannot read %s\n", path.c_str());
    return false;
  }
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty())
      continue;
    size_t tab = line.find('\t');
    files.emplace_back(line.substr(0, tab),
                       tab == std::string::npos ? std::string() : line.substr(tab + 1));
  }
  return true;
}

} // namespace

int runMeasure(std::span<char *const> args) {
  Options options;
  std::vector<std::pair<std::string, std::string>> files;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string_view a = args[i];
    const char *value = i + 1 < args.size() ? args[i + 1] : nullptr;
    double number = 0;
    auto needNumber = [&] {
      if (!value || !parseNumber(value, number)) {
        std::fprintf(stderr, "spire_bench measure: %s needs a non-negative number\n", args[i]);
        return false;
      }
      ++i;
      return true;
    };
    if (a == "-h" || a == "--help") {
      std::fputs(kHelp, stdout);
      return 0;
    } else if (a == "--all") {
      options.all = true;
    } else if (a == "--per-file-lines") {
      options.perFileLines = true;
    } else if (a == "--min-time" || a == "--single-above" || a == "--timeout" ||
               a == "--check-limit" || a == "--min-reps" || a == "--max-reps") {
      if (!needNumber())
        return 2;
      if (a == "--min-time")
        options.repeat.minTime = number;
      else if (a == "--single-above")
        options.repeat.singleAbove = number;
      else if (a == "--timeout")
        options.timeout = number;
      else if (a == "--check-limit")
        options.checkLimitMb = number;
      else if (a == "--min-reps")
        options.repeat.minReps = static_cast<unsigned>(number);
      else
        options.repeat.maxReps = static_cast<unsigned>(number);
    } else if (a == "--ops") {
      if (!value || !parseOps(value, options.ops))
        return 2;
      ++i;
    } else if (a == "--list") {
      if (!value || !readList(value, files))
        return 2;
      ++i;
    } else if (a.starts_with("-")) {
      std::fprintf(stderr, "spire_bench measure: unknown option %s (see --help)\n", args[i]);
      return 2;
    } else {
      files.emplace_back(std::string(a), std::string());
    }
  }
  if (files.empty()) {
    std::fputs("spire_bench measure: no input files (see --help)\n", stderr);
    return 2;
  }
  if (options.ops.empty())
    for (const OpInfo &info : kOps)
      if (!info.reference || ReferenceTools::available())
        options.ops.push_back(&info);

  // Freed memory stays in the process (no mmapped chunks, no trimming), for SPIRV-Tools as for
  // spire: a timed call then costs its work, not the page faults of touching fresh memory,
  // which vary with the allocator's heuristics. The first call ("first_s") and the command-line
  // runs include them.
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, std::numeric_limits<int>::max());

  std::vector<Input> inputs;
  if (!loadInputs(files, inputs))
    return 1;
  std::vector<const Input *> readable = readableInputs(inputs, options.timeout);

  auto emit = [](const std::string &text) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
  };
  for (const OpInfo *info : options.ops) {
    auto failed = [&](const IsolatedResult &r, const std::string &file, size_t bytes) {
      JsonLine line;
      line.addString("scope", options.all ? "all" : "file")
          .addString("op", info->name)
          .addString("file", file)
          .addInteger("bytes", bytes)
          .addString("status", endStatus(r));
      if (r.end == IsolatedResult::End::TimedOut)
        line.addNumber("timeout_s", options.timeout);
      else
        line.addString("note", r.why);
      return line.str();
    };
    if (info->reference && !ReferenceTools::available()) {
      emit(JsonLine()
               .addString("scope", options.all ? "all" : "file")
               .addString("op", info->name)
               .addString("status", "unavailable")
               .str());
      continue;
    }
    if (options.all) {
      IsolatedResult r =
          runIsolated([&] { return measureAll(*info, readable, options); }, options.timeout);
      size_t bytes = 0;
      for (const Input *in : readable)
        bytes += in->bytes.size();
      emit(r.end == IsolatedResult::End::Finished ? r.output : failed(r, "*", bytes));
      continue;
    }
    for (const Input *in : readable) {
      if (info->needsText && !in->hasText)
        continue;
      IsolatedResult r =
          runIsolated([&] { return measureFile(*info, *in, options); }, options.timeout);
      emit(r.end == IsolatedResult::End::Finished ? r.output
                                                  : failed(r, in->path, in->bytes.size()));
    }
  }
  return 0;
}

} // namespace spire::bench
