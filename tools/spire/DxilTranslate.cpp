// spire translate --dxil-to-spirv: DXIL containers to Vulkan SPIR-V, one module per entry point,
// each validated by spire val before it is written.
#include "CommandLine.h"
#include "Commands.h"
#include "DialectIO.h"

#include "spire/asm/Disassembler.h"
#include "spire/dxil/Container.h"
#include "spire/dxil/ContainerInfo.h"
#include "spire/dxil/RootSignature.h"
#include "spire/translate/DxilToSpirv.h"
#include "spire/val/Validator.h"

#include <charconv>
#include <cstdio>
#include <filesystem>
#include <unistd.h>

namespace spire::tool {

namespace {

constexpr const char *kHelp =
    R"(spire translate --dxil-to-spirv - DXIL to Vulkan SPIR-V

Usage: spire translate --dxil-to-spirv [options] <file.dxil>

Reads a DXBC container (or bare DXIL bitcode) and writes one SPIR-V module per entry point
(SPIR-V 1.6, Vulkan 1.3). Each module is validated with spire val for vulkan1.3 before it is
written; an invalid translation is an error, never an output file.

Options:
  -o <file>            write the module there ('-': standard output, the default)
  -o <dir>/            write each entry point's module to <dir>/<entry>.spv (.spvasm, .mlir);
                       an existing directory counts too (in <entry>, '/', '\\', NUL and
                       control characters become '_'). An entry that cannot be translated
                       (an unsupported dx.op in it, say) is one error line; the others are
                       written all the same, and the exit status is 1
  --entry <name>       translate this entry point only
  --emit <form>        spirv (the binary, default), spvasm (spirv-dis syntax) or mlir (the
                       structured IR in MLIR's syntax)
  --bindings json      print the binding model's mapping (D3D register -> set, binding) as JSON
                       on standard output (the modules then need -o)
  --raw-buffers-as-texel-buffers
                       raw and structured buffers as R32ui texel buffers instead of storage
                       buffers
  --dual-source-blending
                       pixel shaders feed dual-source blending: SV_Target0 and SV_Target1
                       become Location 0 Index 0 and 1 (writing another target is an error)
  --khr-compute-derivatives
                       derivatives in compute shaders through SPV_KHR_compute_shader_derivatives
                       (current drivers) instead of the NV extension it was promoted from
  --typed-uav-reads-r32 typed UAVs that are read declare the R32 format of their component
                       type (what D3D reads without the additional formats flag), for devices
                       that cannot read storage images without a format
  --binding-offsets <srv>,<uav>,<cbv>,<sampler>
                       added to the register per class (default 0,1000,2000,3000)
  --heap-set <set>     where SM 6.6 descriptor heaps go (default 6): runtime descriptor arrays,
                       one binding per descriptor type (samplers 0, storage buffers 1, uniform
                       buffers 2, sampled images 3, storage images 4, uniform texel buffers 5,
                       storage texel buffers 6, acceleration structures 7, UAV counters 8)
  --sample-count-spec-id <id>
                       the SpecId of the specialization constant that GetRenderTargetSampleCount
                       and GetRenderTargetSamplePosition read the render targets' sample count
                       from (default 0; its default value is 1): Vulkan shaders cannot query it,
                       the application sets it to the pipeline's rasterizationSamples
  --root-signature <file>
                       the root signature the shaders run with: a container with an RTS0
                       part (the input itself, when it embeds one), a library with one
                       GlobalRootSignature subobject, or a serialized root signature. Its root constants (Constants32Bit) become one push constant
                       block, in parameter order from offset 0, 4 bytes a value; the constant
                       buffers they stand for are read from there (--bindings json lists each
                       as "push-constant" with its offset and size)
  --descriptor-tables-in-heap
                       with --root-signature, the resources of its descriptor tables are read
                       from the descriptor heap (the --heap-set arrays, as SM 6.6 heaps): each
                       table's start in the heap is a push constant (4 bytes, in parameter
                       order with the root constants), the resource the descriptor at start +
                       its range's offset in the table + register - the range's base register
                       ("heap-table" in --bindings json, with both offsets)
  --root-descriptors-as-addresses
                       with --root-signature, its root CBVs, SRVs and UAVs are buffer device
                       addresses (8 bytes, 8-aligned) in the push constant block, in parameter
                       order with its root constants (and tables), read through
                       PhysicalStorageBuffer pointers, as vkd3d-proton passes them on devices
                       with bufferDeviceAddress ("push-constant-address" in --bindings json)
  --local-root-signature <file>
                       the local root signature of every ray tracing entry (a container with
                       an RTS0 part, a library with one LocalRootSignature subobject, or a
                       serialized root signature), in place of the ones the
                       library's state subobjects associate with its exports (which apply
                       otherwise). Its arguments are read from the shader record
                       (ShaderRecordBufferKHR), laid out as D3D12 lays out local root
                       arguments, each aligned to its size: root constants (4 bytes a value),
                       descriptor tables (8 bytes, the first 4 the heap index of the table's
                       first descriptor; its resources come from the --heap-set arrays), and
                       root CBVs, SRVs and UAVs (an 8-byte buffer device address, read through
                       PhysicalStorageBuffer pointers). --bindings json lists them as
                       "shader-record-constants", "shader-record-heap-table" and
                       "shader-record-address" with their offsets
  --previous-stage <file>
                       the stage before the translated one in the pipeline (a container or
                       bitcode with one vertex, hull, domain, geometry or mesh shader): each
                       input takes the location and component where that stage's translation
                       writes its semantic (D3D links stages by semantic, Vulkan by location),
                       and a pixel shader input that a mesh shader writes per primitive is
                       PerPrimitiveEXT. An input it does not write is an error
  --no-validate        write the modules without validating them
  -h, --help           print this help

Exit status: 0 success, 1 invalid or unsupported input, 2 usage error.
)";

enum class Emit { Spirv, Spvasm, Mlir };

/// The file name an entry point's module is written to: its name, with what a path cannot hold
/// or would take apart (NUL, '/', '\\', control characters: a hostile container's names) as '_'.
std::string fileNameOf(std::string_view entry) {
  std::string name(entry);
  for (char &c : name)
    if (c == '/' || c == '\\' || uint8_t(c) < 0x20 || c == 0x7F)
      c = '_';
  if (name.empty() || name == "." || name == "..")
    name.insert(0, "entry");
  return name;
}

bool parseOffsets(std::string_view text, translate::BindingModel &m) {
  uint32_t *fields[] = {&m.srvOffset, &m.uavOffset, &m.cbvOffset, &m.samplerOffset};
  for (size_t i = 0; i < 4; ++i) {
    const size_t comma = text.find(',');
    std::string_view part = text.substr(0, comma);
    auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), *fields[i]);
    if (ec != std::errc() || end != part.data() + part.size() || (i < 3) == (comma == text.npos))
      return false;
    text = comma == text.npos ? std::string_view() : text.substr(comma + 1);
  }
  return true;
}

/// The root signature of `path`: a container's RTS0 part, else a library's one state subobject
/// of kind `subobjectKind` (dxil::kGlobalRootSignatureSubobject or
/// kLocalRootSignatureSubobject), or a serialized root signature.
std::optional<dxil::RootSignature> readRootSignatureFile(const std::string &path,
                                                         uint32_t subobjectKind) {
  std::optional<std::vector<uint8_t>> bytes = readInput(path, path);
  if (!bytes)
    return std::nullopt;
  Expected<dxil::RootSignature> signature = [&]() -> Expected<dxil::RootSignature> {
    if (!dxil::isContainer(*bytes))
      return dxil::readRootSignature(*bytes, "root signature", 0);
    Expected<dxil::Container> c = dxil::readContainer(*bytes);
    if (!c)
      return c.error();
    if (const dxil::ContainerPart *part = c->find(dxil::FourCC::of("RTS0")))
      return dxil::readRootSignature(*part);
    Expected<dxil::ContainerInfo> info = dxil::readContainerInfo(*c);
    if (!info)
      return info.error();
    const dxil::RdatSubobject *found = nullptr;
    if (info->runtimeData)
      for (const dxil::RdatSubobject &o : info->runtimeData->subobjects)
        if (o.kind == subobjectKind) {
          if (found)
            return makeError({}, "the library has more than one " +
                                     std::string(dxil::subobjectKindName(subobjectKind)) +
                                     " subobject ('" + std::string(found->name) + "', '" +
                                     std::string(o.name) + "')");
          found = &o;
        }
    if (!found)
      return makeError({}, "the container has no root signature (an RTS0 part or a " +
                               std::string(dxil::subobjectKindName(subobjectKind)) + " subobject)");
    return dxil::readRootSignature(found->rootSignature, "RDAT", 0);
  }();
  if (!signature) {
    report(signature.error(), path);
    return std::nullopt;
  }
  return std::move(signature).value();
}

} // namespace

int runDxilToSpirv(std::span<char *const> args) {
  std::string input, output = "-";
  translate::DxilTranslateOptions options;
  Emit emit = Emit::Spirv;
  bool bindings = false, validate = true;
  constexpr std::string_view withValue[] = {"-o",
                                            "--entry",
                                            "--emit",
                                            "--bindings",
                                            "--binding-offsets",
                                            "--heap-set",
                                            "--sample-count-spec-id",
                                            "--root-signature",
                                            "--local-root-signature",
                                            "--previous-stage"};
  std::string rootSignature, localRootSignature, previousStage;
  bool tablesInHeap = false, descriptorsAsAddresses = false;
  ArgScanner scanner("translate", args);
  scanner.acceptSingleDashLong();
  const bool scanned = scanner.scan(
      withValue,
      [&](std::string_view flag, std::string_view value) {
        if (flag == "--dxil-to-spirv")
          return true;
        if (flag == "-o") {
          output = value;
        } else if (flag == "--entry") {
          options.entry = value;
        } else if (flag == "--emit") {
          if (value == "spirv")
            emit = Emit::Spirv;
          else if (value == "spvasm")
            emit = Emit::Spvasm;
          else if (value == "mlir")
            emit = Emit::Mlir;
          else
            return usageError("translate", "--emit takes spirv, spvasm or mlir") == kSuccess;
        } else if (flag == "--bindings") {
          if (value != "json")
            return usageError("translate", "--bindings takes json") == kSuccess;
          bindings = true;
        } else if (flag == "--binding-offsets") {
          if (!parseOffsets(value, options.bindings))
            return usageError("translate", "--binding-offsets takes four numbers: "
                                           "<srv>,<uav>,<cbv>,<sampler>") == kSuccess;
        } else if (flag == "--heap-set") {
          auto [end, ec] =
              std::from_chars(value.data(), value.data() + value.size(), options.bindings.heapSet);
          if (ec != std::errc() || end != value.data() + value.size())
            return usageError("translate", "--heap-set takes a number") == kSuccess;
        } else if (flag == "--sample-count-spec-id") {
          uint32_t &id = options.renderTargetSampleCountSpecId;
          auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), id);
          if (ec != std::errc() || end != value.data() + value.size())
            return usageError("translate", "--sample-count-spec-id takes a number") == kSuccess;
        } else if (flag == "--root-signature") {
          rootSignature = value;
        } else if (flag == "--local-root-signature") {
          localRootSignature = value;
        } else if (flag == "--previous-stage") {
          previousStage = value;
        } else if (flag == "--descriptor-tables-in-heap") {
          tablesInHeap = true;
        } else if (flag == "--root-descriptors-as-addresses") {
          descriptorsAsAddresses = true;
        } else if (flag == "--raw-buffers-as-texel-buffers") {
          options.bindings.rawBuffersAsTexelBuffers = true;
        } else if (flag == "--dual-source-blending") {
          options.dualSourceBlending = true;
        } else if (flag == "--khr-compute-derivatives") {
          options.khrComputeDerivatives = true;
        } else if (flag == "--typed-uav-reads-r32") {
          options.typedUavReadsR32 = true;
        } else if (flag == "--no-validate") {
          validate = false;
        } else {
          return scanner.unknownOption(flag);
        }
        return true;
      },
      input);
  if (!scanned)
    return kUsageError;
  if (scanner.helpAsked()) {
    std::fputs(kHelp, stdout);
    return kSuccess;
  }
  if (input.empty())
    return usageError("translate", "--dxil-to-spirv needs an input file");
  std::error_code ec;
  const bool toDirectory =
      output != "-" && (output.back() == '/' || std::filesystem::is_directory(output, ec));
  if (bindings && output == "-")
    return usageError("translate", "--bindings json prints to standard output; write the "
                                   "modules with -o");
  if (emit == Emit::Spirv && output == "-" && ::isatty(1))
    return usageError("translate", "not writing a binary to a terminal; use -o <file>");

  if (tablesInHeap && rootSignature.empty())
    return usageError("translate", "--descriptor-tables-in-heap needs --root-signature");
  if (descriptorsAsAddresses && rootSignature.empty())
    return usageError("translate", "--root-descriptors-as-addresses needs --root-signature");
  if (!rootSignature.empty()) {
    std::optional<dxil::RootSignature> signature =
        readRootSignatureFile(rootSignature, dxil::kGlobalRootSignatureSubobject);
    if (!signature)
      return kInvalidInput;
    if (Status s = translate::applyRootSignature(*signature, tablesInHeap, options.bindings,
                                                 descriptorsAsAddresses);
        !s) {
      report(s.error(), rootSignature);
      return kInvalidInput;
    }
  }
  if (!localRootSignature.empty()) {
    std::optional<dxil::RootSignature> signature =
        readRootSignatureFile(localRootSignature, dxil::kLocalRootSignatureSubobject);
    if (!signature)
      return kInvalidInput;
    // Checked here, so that its errors name its file.
    translate::BindingModel model;
    if (Status s = translate::applyLocalRootSignature(*signature, model); !s) {
      report(s.error(), localRootSignature);
      return kInvalidInput;
    }
    options.localRootSignatures = {{{}, std::move(*signature)}};
  }
  if (!previousStage.empty()) {
    std::optional<std::vector<uint8_t>> bytes = readInput(previousStage, previousStage);
    if (!bytes)
      return kInvalidInput;
    Expected<std::vector<translate::StageOutput>> outputs = translate::stageOutputsOf(*bytes);
    if (!outputs) {
      report(outputs.error(), previousStage);
      return kInvalidInput;
    }
    options.previousStage = std::move(*outputs);
  }
  const std::string source = input == "-" ? "<stdin>" : input;
  std::optional<std::vector<uint8_t>> bytes = readInput(input, source);
  if (!bytes)
    return kInvalidInput;
  // Into a directory, every entry that translates is written and each one that does not is
  // reported (the exit status is then 1).
  std::vector<Diagnostic> failedEntries;
  if (toDirectory)
    options.failedEntries = &failedEntries;
  Expected<std::vector<translate::TranslatedShader>> shaders =
      translate::translateDxilBytes(*bytes, options);
  for (const Diagnostic &d : failedEntries)
    report(d, source);
  if (!shaders) {
    if (failedEntries.empty())
      report(shaders.error(), source);
    return kInvalidInput;
  }
  if (shaders->size() > 1 && !toDirectory) {
    report(makeError({}, "the program has " + std::to_string(shaders->size()) +
                             " entry points: pick one with --entry, or write them all with "
                             "-o <dir>/"),
           source);
    return kInvalidInput;
  }

  // Everything is made (and checked) first: no file is written when one entry fails.
  std::vector<std::pair<std::string, std::string>> files; // path, content
  for (const translate::TranslatedShader &shader : *shaders) {
    const uint8_t *b = reinterpret_cast<const uint8_t *>(shader.words.data());
    std::span<const uint8_t> binary(b, shader.words.size() * 4);
    if (validate) {
      val::Options vo;
      vo.env = *val::parseEnvironment("vulkan1.3");
      val::Report r = val::validateBinary(binary, vo);
      if (!r.valid()) {
        for (const val::Problem &p : r.problems)
          if (p.severity == Severity::Error) {
            report(makeError({}, "internal error: the translation of entry '" + shader.entry +
                                     "' is not valid SPIR-V for vulkan1.3 (" + p.format() +
                                     "); --no-validate writes it all the same"),
                   source);
            break;
          }
        return kInvalidInput;
      }
    }
    std::string content;
    const char *extension = ".spv";
    if (emit == Emit::Spirv) {
      content.assign(reinterpret_cast<const char *>(binary.data()), binary.size());
    } else if (emit == Emit::Spvasm) {
      Expected<Module> m = Module::fromBytes(binary);
      if (!m) {
        report(m.error(), source);
        return kInvalidInput;
      }
      content = disassemble(*m);
      extension = ".spvasm";
    } else {
      Workspace ws;
      DialectFlags flags;
      bool good = true;
      dialect::Operation *m =
          deserializeModule(ws, ws.newContext(), binary, nullptr, false, [&](const Diagnostic &d) {
            report(d, source);
            good = false;
          });
      if (!m || !good)
        return kInvalidInput;
      content = flags.print(*m, dialect::MlirVersion::Latest);
      extension = ".mlir";
    }
    std::string path = output;
    if (toDirectory)
      path = (std::filesystem::path(output) / (fileNameOf(shader.entry) + extension)).string();
    files.emplace_back(std::move(path), std::move(content));
  }
  if (toDirectory)
    std::filesystem::create_directories(output, ec);
  for (const auto &[path, content] : files)
    if (!writeOutput(path, content))
      return kInvalidInput;
  if (bindings)
    for (const translate::TranslatedShader &shader : *shaders)
      std::fputs(translate::bindingsJson(shader).c_str(), stdout);
  return failedEntries.empty() ? kSuccess : kInvalidInput;
}

} // namespace spire::tool
