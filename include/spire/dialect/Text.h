// The dialect's IR in MLIR's textual syntax, both ways. The printer writes what mlir-translate-16
// writes for a module it deserializes (the ops' custom syntax, SSA names such as %cst0_i32 and
// %var_addr, block labels with their predecessors) or, with `generic`, what
// `mlir-opt-16 --mlir-print-op-generic` writes; the parser reads both forms.
//
// One deliberate difference from the reference tools: mlir-translate-16 names a value after a
// symbol that starts with a character it escapes as hex digits ("@entryPointOutput" gives
// %40entryPointOutput_addr), which MLIR's own parser rejects; spire prefixes such names with '_'
// (%_40entryPointOutput_addr) so that its text always parses.
#pragma once

#include "spire/dialect/IR.h"
#include "spire/support/Expected.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace spire::dialect {

struct PrintOptions {
  /// Every op in MLIR's generic form: "spirv.X"(operands)[successors] ({regions}) {attrs} :
  /// (operand types) -> (result types).
  bool generic = false;
  /// Wrap the op in a builtin module (`module {` / `"builtin.module"() ({`), as mlir-opt does.
  bool builtinModule = false;
  /// The MLIR release whose text to write (Types.h): today's; MLIR 16's, which mlir-opt-16
  /// parses (types without the struct decorations and pointer strides spire keeps, atomics'
  /// scope and semantics quoted, ops newer than MLIR 16 in the generic form, ...); or MLIR 15's,
  /// MLIR 16's with the `spv.` prefix (`spv.module`, `!spv.ptr`, `#spv.vce`).
  MlirVersion version = MlirVersion::Latest;
  /// Each op's source position after it, as `--mlir-print-debuginfo` prints them:
  /// ` loc(#loc3)`, the aliases (`#loc3 = loc("file.comp":12:0)`) after the op, and
  /// `loc(unknown)` for an op without one (and for block arguments, which have none).
  bool debugInfo = false;
  /// With debugInfo, each position in place (`loc("file.comp":12:0)`) instead of through an
  /// alias, as `--mlir-print-local-scope` prints them.
  bool localScope = false;
};

/// Appends the op (usually a spirv.module), ending with a newline.
void print(const Operation &op, std::string &out, const PrintOptions &options = {});
std::string toString(const Operation &op, const PrintOptions &options = {});
/// The same text handed to `sink` in pieces of about 64 KB as it is printed (each piece ends
/// at an op's end), for writing a large module without holding its whole text.
void print(const Operation &op, const std::function<void(std::string_view)> &sink,
           const PrintOptions &options = {});

/// A spirv.module's text printed while the module is made, so that a large module's IR is never
/// whole (DeserializeOptions::bodyReady): printBody() prints the module up to its body the first
/// time, then each op of its body not printed yet, and erases those ops (or, with `erase`
/// false in every call, keeps them: a small module's ops cost more to free one by one than
/// they weigh); finish() prints the rest of the body and the end. The text is print()'s for the
/// whole module, provided no op of the body has a result (none that deserialization makes has) and
/// supports(options).
class ModuleTextStream {
public:
  ModuleTextStream(std::function<void(std::string_view)> sink, const PrintOptions &options);
  ~ModuleTextStream();
  ModuleTextStream(const ModuleTextStream &) = delete;
  ModuleTextStream &operator=(const ModuleTextStream &) = delete;
  /// The custom form, without position aliases (which are printed before the ops that use them).
  static bool supports(const PrintOptions &options);
  void printBody(Operation &module, bool erase = true);
  void finish(Operation &module);

private:
  struct State;
  std::unique_ptr<State> state_;
};

/// Whether the op named `opName` (e.g. "spirv.IAdd") has a custom syntax; ops without one print
/// and parse in the generic form only.
bool hasCustomSyntax(std::string_view opName);

struct ParseOptions {
  /// Take ops of dialects spire does not have, in the generic form (`"foo.bar"(%0) : (i32) ->
  /// ()`), as MLIR's tools do with --allow-unregistered-dialect (Context::unregisteredOp);
  /// without it they are errors, as in MLIR.
  bool allowUnregistered = false;
  /// The release whose wording the parser's messages take (MLIR 15 names the op `spv.X` and
  /// the enum attribute `SPV_ScopeAttr`); when not given, the one the text is written in, as far
  /// as it has been read.
  std::optional<MlirVersion> messages;
};

/// Parses one top-level op (a spirv.module, possibly inside `module { ... }` or a generic
/// "builtin.module"), in generic or custom syntax. Errors are one line and name the line and
/// column (Location::text); some carry a note (the prior use of a value used with two types).
///
/// The text may be written in the syntax of MLIR 15, MLIR 16 or today's MLIR; `written` (when
/// not null) is set to the one it is in. Only spellings that later releases reject say that the
/// text is older: the `spv.` prefix of op, type and attribute names says MLIR 15, the `spirv.`
/// prefix MLIR 16 or later; an atomic op's scope and semantics in quotes (`"Device"`) say MLIR
/// 16 or older, in angle brackets (`<Device>`) today's. The text is in the newest release its
/// spellings allow (today's, when they say nothing); spellings that no one release reads
/// together (`spv.` and `spirv.`) are an error at the second. Attribute names of the dialect
/// (`spv.entry_point_abi`) read as `spirv.` ones in MLIR 15 text.
Expected<OwningOp> parse(Context &context, std::string_view text, const ParseOptions &options = {},
                         MlirVersion *written = nullptr);

} // namespace spire::dialect
