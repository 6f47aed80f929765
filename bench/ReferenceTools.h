// ReferenceTools: SPIRV-Tools (the library behind spirv-dis, spirv-as and spirv-val) called
// in-process, for reference numbers that leave process start-up out. Without the library every
// call fails and available() is false.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

namespace spire::bench {

class ReferenceTools {
public:
  ReferenceTools();
  ~ReferenceTools();
  ReferenceTools(const ReferenceTools &) = delete;
  ReferenceTools &operator=(const ReferenceTools &) = delete;

  /// Whether SPIRV-Tools was linked in.
  static bool available();

  /// Parses every instruction and operand (spvBinaryParse with callbacks that do nothing), in
  /// the environment spirv-dis uses.
  bool parse(std::span<const uint32_t> words);
  /// Disassembles as spirv-dis does by default (indent, friendly names unless `friendlyNames` is
  /// false). The text stays valid until the next call.
  bool disassemble(std::span<const uint32_t> words, bool friendlyNames);
  std::string_view text() const;
  /// Assembles as spirv-as does by default. The words stay valid until the next call.
  bool assemble(std::string_view text);
  std::span<const uint32_t> binary() const;
  /// Builds the optimizer's in-memory IR and writes it back (spvtools::Optimizer without passes
  /// and without validation): SPIRV-Tools' nearest equivalent of reading and writing a module.
  bool roundTrip(std::span<const uint32_t> words);
  std::span<const uint32_t> roundTripped() const;
  /// Validates as spirv-val --target-env spv1.6 does (spvValidateWithOptions, default options,
  /// SPV_ENV_UNIVERSAL_1_6). Returns true when the call ran; the verdict is valid().
  bool validate(std::span<const uint32_t> words);
  /// The verdict of the last validate(): true when the module is valid.
  bool valid() const;
  /// Frees the last text, words and round-tripped module.
  void release();

private:
  struct State;
  std::unique_ptr<State> state_;
};

} // namespace spire::bench
