// spire val: checks a SPIR-V binary against SPIR-V 1.6 and a client environment.
#include "CommandLine.h"
#include "Commands.h"

#include "spire/support/File.h"
#include "spire/val/Validator.h"

#include <charconv>
#include <cstdio>

namespace spire::tool {

namespace {

std::string helpText() {
  return R"(spire val - validate a SPIR-V binary

Usage: spire val [options] [<file>]

Reads the binary from <file>, or from standard input when <file> is '-' or absent, and checks
it against the rules of SPIR-V and of the target environment. Prints one line per problem:
where (word offset, instruction index), what, the rule that says so and the instruction.

Options:
  --target-env <env>        the environment (default spv1.6); one of
                            )" +
         val::environmentList() + R"(
  --max-errors <n>          stop after <n> errors (default: report all)
  --format <text|json>      output format (default text; json: one document on stdout)
  --relax-block-layout, --uniform-buffer-standard-layout, --scalar-block-layout,
  --skip-block-layout, --relax-logical-pointer, --before-hlsl-legalization
                            relax rules as spirv-val's options of the same names do
Level Zero (--target-env level-zero) device properties:
  --strict                  the strict reading of the guide's gaps (only OpenCL.std, no
                            OpTypeOpaque, ...)
  --lz-spirv-version <M.m>  the newest SPIR-V version the device accepts (default 1.2)
  --lz-api-version <M.m>    the Level Zero API version (default 1.5)
  --lz-no-fp16, --lz-no-fp64, --lz-no-int64-atomics, --lz-no-images
                            the device lacks this feature
  --lz-no-float-atomics     the device has no ZE_extension_float_atomics support
  --lz-extensions <a,b,..>  the ZE_extension_* names the driver reports (default: all)
  -h, --help                print this help

Exit status: 0 valid, 1 invalid (or not a readable SPIR-V module), 2 usage error.
)";
}

std::optional<uint32_t> parseMajorMinor(std::string_view s) {
  unsigned major = 0, minor = 0;
  size_t dot = s.find('.');
  if (dot == std::string_view::npos)
    return std::nullopt;
  auto a = std::from_chars(s.data(), s.data() + dot, major);
  auto b = std::from_chars(s.data() + dot + 1, s.data() + s.size(), minor);
  if (a.ec != std::errc() || a.ptr != s.data() + dot || b.ec != std::errc() ||
      b.ptr != s.data() + s.size() || major > 255 || minor > 255)
    return std::nullopt;
  return (major << 16) | minor;
}

std::string optionsInForce(const val::Options &o) {
  std::string s;
  auto add = [&](std::string_view flag) {
    if (!s.empty())
      s += ' ';
    s += flag;
  };
  if (o.relaxBlockLayout)
    add("--relax-block-layout");
  if (o.uniformBufferStandardLayout)
    add("--uniform-buffer-standard-layout");
  if (o.scalarBlockLayout)
    add("--scalar-block-layout");
  if (o.skipBlockLayout)
    add("--skip-block-layout");
  if (o.relaxLogicalPointer)
    add("--relax-logical-pointer");
  if (o.beforeHlslLegalization)
    add("--before-hlsl-legalization");
  if (o.env.client == val::Client::LevelZero) {
    const val::LevelZeroDevice &d = o.device;
    add(o.strict ? "strict" : "relaxed");
    add("spirv=" + std::to_string(d.spirvVersion >> 16) + "." +
        std::to_string((d.spirvVersion >> 8) & 0xFF));
    add("api=" + std::to_string(d.apiVersion >> 16) + "." + std::to_string(d.apiVersion & 0xFFFF));
    add(std::string("fp16=") + (d.fp16 ? "yes" : "no"));
    add(std::string("fp64=") + (d.fp64 ? "yes" : "no"));
    add(std::string("int64-atomics=") + (d.int64Atomics ? "yes" : "no"));
    add(std::string("images=") + (d.images ? "yes" : "no"));
    if (!d.extensions.empty()) {
      std::string list;
      for (const std::string &e : d.extensions)
        list += (list.empty() ? "" : ",") + e;
      add("extensions=" + list);
    }
  }
  if (o.maxErrors != 0)
    add("--max-errors " + std::to_string(o.maxErrors));
  return s.empty() ? "none" : s;
}

} // namespace

int runVal(std::span<char *const> args) {
  val::Options options;
  std::string input = "-";
  bool json = false;
  constexpr std::string_view withValue[] = {"--target-env",     "--max-errors",
                                            "--format",         "--lz-spirv-version",
                                            "--lz-api-version", "--lz-extensions"};
  ArgScanner scanner("val", args);
  bool ok = scanner.scan(
      withValue,
      [&](std::string_view flag, std::string_view value) {
        if (flag == "--target-env") {
          std::optional<val::Environment> env = val::parseEnvironment(value);
          if (!env) {
            usageError("val", "unknown target environment '" + std::string(value) + "'");
            return false;
          }
          options.env = *env;
        } else if (flag == "--max-errors") {
          auto r = std::from_chars(value.data(), value.data() + value.size(), options.maxErrors);
          if (r.ec != std::errc() || r.ptr != value.data() + value.size()) {
            usageError("val", "--max-errors needs a number, not '" + std::string(value) + "'");
            return false;
          }
        } else if (flag == "--format") {
          if (value != "text" && value != "json") {
            usageError("val", "--format is text or json, not '" + std::string(value) + "'");
            return false;
          }
          json = value == "json";
        } else if (flag == "--lz-spirv-version" || flag == "--lz-api-version") {
          std::optional<uint32_t> v = parseMajorMinor(value);
          if (!v) {
            usageError("val", std::string(flag) + " needs <major>.<minor>, not '" +
                                  std::string(value) + "'");
            return false;
          }
          if (flag == "--lz-spirv-version")
            options.device.spirvVersion = (*v & 0xFF0000) | ((*v & 0xFF) << 8);
          else
            options.device.apiVersion = *v;
        } else if (flag == "--lz-extensions") {
          options.device.extensions.clear();
          size_t start = 0;
          while (start <= value.size()) {
            size_t comma = value.find(',', start);
            if (comma == std::string_view::npos)
              comma = value.size();
            if (comma > start)
              options.device.extensions.emplace_back(value.substr(start, comma - start));
            start = comma + 1;
          }
        } else if (flag == "--lz-no-fp16") {
          options.device.fp16 = false;
        } else if (flag == "--lz-no-fp64") {
          options.device.fp64 = false;
        } else if (flag == "--lz-no-int64-atomics") {
          options.device.int64Atomics = false;
        } else if (flag == "--lz-no-images") {
          options.device.images = false;
        } else if (flag == "--lz-no-float-atomics") {
          val::LevelZeroDevice &d = options.device;
          d.fp16AtomicAdd = d.fp32AtomicAdd = d.fp64AtomicAdd = false;
          d.fp16AtomicMinMax = d.fp32AtomicMinMax = d.fp64AtomicMinMax = false;
          d.fp16AtomicLoadStore = d.fp32AtomicLoadStore = d.fp64AtomicLoadStore = false;
        } else if (flag == "--strict") {
          options.strict = true;
        } else if (flag == "--relax-block-layout") {
          options.relaxBlockLayout = true;
        } else if (flag == "--uniform-buffer-standard-layout") {
          options.uniformBufferStandardLayout = true;
        } else if (flag == "--scalar-block-layout") {
          options.scalarBlockLayout = true;
        } else if (flag == "--skip-block-layout") {
          options.skipBlockLayout = true;
        } else if (flag == "--relax-logical-pointer") {
          options.relaxLogicalPointer = true;
        } else if (flag == "--before-hlsl-legalization") {
          options.beforeHlslLegalization = true;
        } else {
          return scanner.unknownOption(flag);
        }
        return true;
      },
      input);
  if (!ok)
    return kUsageError;
  if (scanner.helpAsked()) {
    std::fputs(helpText().c_str(), stdout);
    return kSuccess;
  }
  if (options.env.client == val::Client::LevelZero)
    options.env.maxVersion = options.device.spirvVersion;

  const std::string source = input == "-" ? "<stdin>" : input;
  val::Report report;
  Expected<std::vector<uint8_t>> bytes = readFile(input);
  if (!bytes) {
    val::Problem p;
    p.location = bytes.error().location;
    p.message = bytes.error().message;
    report.problems.push_back(std::move(p));
  } else {
    report = val::validateBinary(*bytes, options);
  }

  const std::string inForce = optionsInForce(options);
  if (json) {
    std::string out = "{\"file\":\"";
    for (char c : source)
      out += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
    out += "\",\"environment\":\"" + options.env.name + "\",\"options\":\"" + inForce +
           "\",\"valid\":" + (report.valid() ? "true" : "false") +
           ",\"truncated\":" + (report.truncated ? "true" : "false") + ",\"problems\":[";
    for (size_t i = 0; i < report.problems.size(); ++i)
      out += (i ? "," : "") + report.problems[i].toJson();
    out += "]}\n";
    std::fputs(out.c_str(), stdout);
  } else {
    for (const val::Problem &p : report.problems)
      std::fprintf(stderr, "%s\n", p.format(source).c_str());
    const size_t errors = report.errorCount();
    std::FILE *out = errors == 0 ? stdout : stderr;
    std::fprintf(out, "%s: %s for %s (options: %s)%s\n", source.c_str(),
                 errors == 0
                     ? "valid"
                     : (std::to_string(errors) + (errors == 1 ? " error" : " errors")).c_str(),
                 options.env.name.c_str(), inForce.c_str(),
                 report.truncated ? ", stopped at --max-errors" : "");
  }
  return report.valid() ? kSuccess : kInvalidInput;
}

} // namespace spire::tool
