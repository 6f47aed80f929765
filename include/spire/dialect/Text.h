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

#include <string>
#include <string_view>

namespace spire::dialect {

struct PrintOptions {
  /// Every op in MLIR's generic form: "spirv.X"(operands)[successors] ({regions}) {attrs} :
  /// (operand types) -> (result types).
  bool generic = false;
  /// Wrap the op in a builtin module (`module {` / `"builtin.module"() ({`), as mlir-opt does.
  bool builtinModule = false;
  /// Types as MLIR 16 can hold them (TypeSyntax::Mlir16): what mlir-opt-16 parses, without the
  /// struct decorations and pointer strides spire keeps.
  bool mlir16 = false;
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

/// Whether the op named `opName` (e.g. "spirv.IAdd") has a custom syntax; ops without one print
/// and parse in the generic form only.
bool hasCustomSyntax(std::string_view opName);

struct ParseOptions {
  /// Take ops of dialects spire does not have, in the generic form (`"foo.bar"(%0) : (i32) ->
  /// ()`), as MLIR's tools do with --allow-unregistered-dialect (Context::unregisteredOp);
  /// without it they are errors, as in MLIR.
  bool allowUnregistered = false;
};

/// Parses one top-level op (a spirv.module, possibly inside `module { ... }` or a generic
/// "builtin.module"), in generic or custom syntax. Errors are one line and name the line and
/// column (Location::text); some carry a note (the prior use of a value used with two types).
Expected<OwningOp> parse(Context &context, std::string_view text, const ParseOptions &options = {});

} // namespace spire::dialect
