#include "ReferenceTools.h"

#include <string>
#include <vector>

#if SPIRE_BENCH_HAVE_SPIRV_TOOLS
#include <spirv-tools/libspirv.h>
#include <spirv-tools/optimizer.hpp>
#endif

namespace spire::bench {

#if SPIRE_BENCH_HAVE_SPIRV_TOOLS

namespace {

// The environments spirv-dis and spirv-as (SPIRV-Tools 2023.1) use without --target-env: they
// differ, and the disassembler's rejects what is newer than SPIR-V 1.5.
constexpr spv_target_env kDisEnv = SPV_ENV_UNIVERSAL_1_5;
constexpr spv_target_env kAsEnv = SPV_ENV_UNIVERSAL_1_6;
// The validator's: the environment both validators are given on the command line (spv1.6).
constexpr spv_target_env kValEnv = SPV_ENV_UNIVERSAL_1_6;

spv_result_t ignoreHeader(void *, spv_endianness_t, uint32_t, uint32_t, uint32_t, uint32_t,
                          uint32_t) {
  return SPV_SUCCESS;
}
spv_result_t ignoreInstruction(void *, const spv_parsed_instruction_t *) { return SPV_SUCCESS; }

} // namespace

struct ReferenceTools::State {
  spv_context disContext = spvContextCreate(kDisEnv);
  spv_context asContext = spvContextCreate(kAsEnv);
  spv_text text = nullptr;
  spv_binary binary = nullptr;
  spvtools::Optimizer optimizer{kAsEnv};
  spvtools::OptimizerOptions optimizerOptions;
  std::vector<uint32_t> roundTripped;
  spv_context valContext = spvContextCreate(kValEnv);
  spv_validator_options valOptions = spvValidatorOptionsCreate();
  bool valid = false;

  State() {
    optimizer.SetMessageConsumer(
        [](spv_message_level_t, const char *, const spv_position_t &, const char *) {});
    optimizerOptions.set_run_validator(false);
  }
  ~State() {
    spvTextDestroy(text);
    spvBinaryDestroy(binary);
    spvContextDestroy(disContext);
    spvContextDestroy(asContext);
    spvContextDestroy(valContext);
    spvValidatorOptionsDestroy(valOptions);
  }
};

ReferenceTools::ReferenceTools() : state_(std::make_unique<State>()) {}
ReferenceTools::~ReferenceTools() = default;

bool ReferenceTools::available() { return true; }

bool ReferenceTools::parse(std::span<const uint32_t> words) {
  spv_diagnostic diagnostic = nullptr;
  spv_result_t r = spvBinaryParse(state_->disContext, nullptr, words.data(), words.size(),
                                  ignoreHeader, ignoreInstruction, &diagnostic);
  spvDiagnosticDestroy(diagnostic);
  return r == SPV_SUCCESS;
}

bool ReferenceTools::disassemble(std::span<const uint32_t> words, bool friendlyNames) {
  spvTextDestroy(state_->text);
  state_->text = nullptr;
  uint32_t options = SPV_BINARY_TO_TEXT_OPTION_INDENT;
  if (friendlyNames)
    options |= SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES;
  spv_diagnostic diagnostic = nullptr;
  spv_result_t r = spvBinaryToText(state_->disContext, words.data(), words.size(), options,
                                   &state_->text, &diagnostic);
  spvDiagnosticDestroy(diagnostic);
  return r == SPV_SUCCESS && state_->text;
}

std::string_view ReferenceTools::text() const {
  return state_->text ? std::string_view(state_->text->str, state_->text->length)
                      : std::string_view();
}

bool ReferenceTools::assemble(std::string_view text) {
  spvBinaryDestroy(state_->binary);
  state_->binary = nullptr;
  spv_diagnostic diagnostic = nullptr;
  spv_result_t r =
      spvTextToBinary(state_->asContext, text.data(), text.size(), &state_->binary, &diagnostic);
  spvDiagnosticDestroy(diagnostic);
  return r == SPV_SUCCESS && state_->binary;
}

std::span<const uint32_t> ReferenceTools::binary() const {
  return state_->binary ? std::span<const uint32_t>(state_->binary->code, state_->binary->wordCount)
                        : std::span<const uint32_t>();
}

bool ReferenceTools::roundTrip(std::span<const uint32_t> words) {
  state_->roundTripped.clear();
  return state_->optimizer.Run(words.data(), words.size(), &state_->roundTripped,
                               state_->optimizerOptions);
}

std::span<const uint32_t> ReferenceTools::roundTripped() const { return state_->roundTripped; }

bool ReferenceTools::validate(std::span<const uint32_t> words) {
  spv_const_binary_t binary{words.data(), words.size()};
  spv_diagnostic diagnostic = nullptr;
  spv_result_t r =
      spvValidateWithOptions(state_->valContext, state_->valOptions, &binary, &diagnostic);
  spvDiagnosticDestroy(diagnostic);
  state_->valid = r == SPV_SUCCESS;
  return true;
}

bool ReferenceTools::valid() const { return state_->valid; }

void ReferenceTools::release() {
  spvTextDestroy(state_->text);
  state_->text = nullptr;
  spvBinaryDestroy(state_->binary);
  state_->binary = nullptr;
  state_->roundTripped = {};
}

#else // no SPIRV-Tools library

struct ReferenceTools::State {};

ReferenceTools::ReferenceTools() = default;
ReferenceTools::~ReferenceTools() = default;
bool ReferenceTools::available() { return false; }
bool ReferenceTools::parse(std::span<const uint32_t>) { return false; }
bool ReferenceTools::disassemble(std::span<const uint32_t>, bool) { return false; }
std::string_view ReferenceTools::text() const { return {}; }
bool ReferenceTools::assemble(std::string_view) { return false; }
std::span<const uint32_t> ReferenceTools::binary() const { return {}; }
bool ReferenceTools::roundTrip(std::span<const uint32_t>) { return false; }
std::span<const uint32_t> ReferenceTools::roundTripped() const { return {}; }
bool ReferenceTools::validate(std::span<const uint32_t>) { return false; }
bool ReferenceTools::valid() const { return false; }
void ReferenceTools::release() {}

#endif

} // namespace spire::bench
