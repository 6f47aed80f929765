// The parser of the dialect's text (Text.h): MLIR's generic form for every op, and the custom
// syntax its record declares (OpSyntax.h: a format this parser reads, or hooks that call the
// pieces below). One pass over the text, no tokens kept: the parser reads at a position, names
// are views of the text, and an op is created once all of it has been read, so that an error
// leaves nothing half-built but the temporaries on the stack.
#pragma once

#include "spire/dialect/Text.h"

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace spire::dialect {

struct OpFormat;

/// The characters of the text's tokens.
namespace lexing {
inline bool isDigit(char c) { return c >= '0' && c <= '9'; }
inline bool isLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
inline bool isIdChar(char c) {
  return isLetter(c) || isDigit(c) || c == '_' || c == '$' || c == '.';
}
inline bool isSuffixChar(char c) { return isIdChar(c) || c == '-'; }
} // namespace lexing

/// A use of a value: `%name` or `%name#N`.
struct Use {
  std::string_view name; ///< with the '%', without a '#N' suffix
  uint32_t index = 0;    ///< the N of '#N'
  size_t pos = 0;
};

/// An argument of a region's entry block named in the op's syntax (spirv.func's parameters).
struct EntryArg {
  std::string_view name;
  size_t pos;
  Type type;
};

/// A function's parameters as its syntax names them (spirv.func, func.func): with names
/// (`%arg0: i32`, a body follows) or only types (a declaration).
struct Signature {
  std::vector<EntryArg> args;
  size_t numInputs = 0;
  bool named = false;
};

class TextParser {
public:
  TextParser(Context &ctx, std::string_view text, const ParseOptions &options = {})
      : ctx_(ctx), t_(text), options_(options) {}
  ~TextParser();
  TextParser(const TextParser &) = delete;
  TextParser &operator=(const TextParser &) = delete;

  Expected<OwningOp> run();

  // --- MLIR releases (Text.h, parse) -----------------------------------------------------------

  /// A spelling that only some MLIR releases read: the dialect's prefix, MLIR 15's `spv.` or
  /// the `spirv.` of MLIR 16 and later; an atomic op's scope and semantics in quotes (MLIR 16
  /// and older) or in angle brackets (later).
  enum class Spelling : uint8_t { SpvPrefix, SpirvPrefix, QuotedAtomic, AngleAtomic };
  /// Notes that the text uses `s` at `pos`; false, after the error, when no release reads it
  /// together with a spelling the text used before.
  bool spelled(Spelling s, size_t pos);
  /// The newest release that reads every spelling the text used so far (today's when none
  /// says otherwise).
  MlirVersion written() const;
  /// The release whose wording the messages take: the option's, else written().
  MlirVersion messages() const { return options_.messages.value_or(written()); }
  /// An op's (`spirv.X`) name as the messages write it (`spv.X` in MLIR 15's).
  std::string opName(std::string_view name) const { return spelledIn(name, messages()); }
  /// `spirv.` or MLIR 15's `spv.` (after a `#`), noted as the text's spelling. False when
  /// neither is there (nothing reported) or after the error of a mixed spelling.
  bool acceptDialectPrefix();

  // --- For the custom syntax hooks ------------------------------------------------------------

  Context &context() { return ctx_; }

  // Characters (Parser.cpp).
  void skip();
  char peek();
  /// Where the next token starts.
  size_t position() {
    skip();
    return pos_;
  }
  /// Where the last token ended (errors about what follows it point there).
  size_t offset() const { return pos_; }
  bool accept(char c);
  bool accept(std::string_view s);
  /// A keyword: `s` not followed by an identifier character.
  bool acceptKeyword(std::string_view s);
  bool expect(char c);
  bool expect(std::string_view s);
  bool expectKeyword(std::string_view s);
  /// [A-Za-z_][A-Za-z0-9_$.]* (op names, attribute names, enumerants).
  std::string_view identifier();
  /// The text up to (not including) `stop` or the end of the line.
  std::string_view until(char stop);
  bool failAt(size_t pos, std::string message);
  /// failAt with a note at `notePos` ("prior use here"), or a second diagnostic of another
  /// severity there (MLIR's two errors for one bad enum keyword).
  bool failAt(size_t pos, std::string message, size_t notePos, std::string note,
              Severity noteSeverity = Severity::Note);
  bool fail(std::string message);
  bool failed() const { return !error_.empty(); }
  /// `one (',' one)* close`, or just `close`: the rest of a bracketed list whose opening the
  /// caller took. `one` parses an element and returns false on an error (already reported).
  template <class ParseOne> bool listUntil(char close, ParseOne one) {
    if (accept(close))
      return true;
    do {
      if (!one())
        return false;
    } while (accept(','));
    return expect(close);
  }

  // Literals, types and attributes (ParserAttributes.cpp).
  bool string(std::string &out);
  /// @name or @"name".
  bool symbol(std::string &out);
  /// @name or @"name" where MLIR reads a symbol reference attribute: another attribute there
  /// (a string) is MLIR's "invalid kind of attribute specified".
  bool symbolRef(std::string &out);
  /// `@name` as the op's `sym_name` attribute.
  bool symbolName(OperationState &st);
  std::optional<int64_t> integer();
  Type type();
  bool typeList(std::vector<Type> &out);
  Attribute attribute();
  /// `"Name"` (quoted) or `<Name>` (angle) as an enum attribute of `kind`.
  /// `op` and `attrName` (a custom form's attribute): an unknown enumerant is reported as MLIR's
  /// custom parsers do ("custom op 'spirv.Load' invalid memory_access attribute specification").
  Attribute enumAttr(grammar::OperandKind kind, bool angle, std::string_view op = {},
                     std::string_view attrName = {});
  /// `<Name>` as an attribute of the dialect's enumeration `kind` (TOSA's acc_type, ...).
  Attribute dialectEnumAttr(DialectEnumKind kind);
  /// Whether the names in `text` (from `start` to `end`) are all enumerants of `kind`; else
  /// MLIR's two errors for an enum attribute in angle brackets.
  bool knownEnumerants(grammar::OperandKind kind, std::string_view text, size_t start, size_t end);
  /// `Name` or `A|B` (bit enums) of `kind`; errors name `at`.
  bool enumValue(grammar::OperandKind kind, std::string_view text, size_t at, uint32_t &value,
                 std::string_view op = {}, std::string_view attrName = {});
  /// `{name = value, unit-name, ...}` appended to `out`; the names interned.
  bool dictionary(std::vector<NamedAttribute> &out);
  bool optionalAttrDict(OperationState &st);
  void addAttr(OperationState &st, std::string_view name, Attribute a);

  // Values, blocks and regions (Parser.cpp).
  bool use(Use &u);
  /// Zero or more uses separated by commas (when the next token is a '%'); a comma not followed
  /// by a use is left for the caller.
  bool uses(std::vector<Use> &out);
  /// The value a use names; `hint` (may be null) is its type, which a forward reference needs;
  /// with `strict` a defined value must have it.
  Value resolve(const Use &u, Type hint, bool strict = true);
  /// Resolves each use against its type (us[i] with types[i]) onto `out`.
  bool resolveEach(std::span<const Use> us, std::span<const Type> types, std::vector<Value> &out);
  bool resolveAll(const std::vector<Use> &us, Type hint, OperationState &st);
  /// Between `lo` and `hi` uses, else "wrong number of operands" at `at`.
  bool count(const std::vector<Use> &us, size_t lo, size_t hi, size_t at);
  /// An optional `loc(...)` after a block argument's type (read; arguments keep none).
  bool argumentLocation();
  /// `{ ops, ^blocks }` into `region`.
  bool region(Region &region, bool isolated, const std::vector<EntryArg> *entryArgs = nullptr);
  /// `^bb1` or `^bb1(%a : T)` as a successor of the op being made.
  bool successor(OperationState &st);
  /// The op with `regions` (parsed) as its regions, once its attributes are known to have
  /// distinct names (an attribute dictionary may repeat one the custom syntax gives).
  Operation *finish(OperationState &st, std::vector<std::unique_ptr<Region>> *regions = nullptr);
  /// An op in the generic form, its name read at `at`.
  Operation *genericOp(const OpInfo &info, size_t at);

private:
  /// How deep ops, regions and attributes may nest.
  static constexpr int kMaxDepth = 128;
  Diagnostic diagnostic() const;
  Location textLocation(size_t pos) const;

  // Types and attributes.
  struct Literal {
    std::string_view text;
    size_t pos;
  };
  size_t typeEnd(size_t pos) const;
  std::optional<Literal> numberText();
  static bool isFloatText(std::string_view s);
  Attribute typedLiteral(const Literal &lit, Type t);
  Attribute attributeInner();
  Attribute vce();
  Attribute linkageAttributes();
  Attribute targetEnv();
  Attribute resourceLimits();
  Attribute dense();
  bool unique(const std::vector<NamedAttribute> &attrs, const std::vector<size_t> &positions,
              size_t first);
  std::string_view name_(std::string_view name);

  // Values and blocks.
  struct Defined {
    Value value;
    size_t pos = 0; ///< where its name is defined
  };
  struct Scope {
    std::unordered_map<std::string_view, Defined> values;
    bool isolated = false;
    uint64_t id = 0;
  };
  struct Forward {
    Operation *placeholder = nullptr;
    size_t pos = 0;
    /// The scopes the use sees (up to its isolated one): a definition must be in one of them.
    std::vector<uint64_t> scopes;
  };
  struct BlockRef {
    Block *block = nullptr;
    bool defined = false;
    size_t pos = 0;
  };
  struct RegionScope {
    std::unordered_map<std::string_view, BlockRef> blocks;
    std::vector<std::unique_ptr<Block>> pending; ///< referenced, not yet defined
  };
  struct ResultName {
    std::string_view name;
    size_t pos;
    uint32_t count;
  };
  size_t forwardDepth() const { return forwards_.empty() ? 0 : forwards_.size() - 1; }
  bool define(std::string_view name, size_t pos, Value v);
  /// Fails: use `u` expects `expected`, the value has `prior` (defined or first used at
  /// `priorPos`).
  void differentType(const Use &u, Type expected, Type prior, size_t priorPos);
  Block *blockRef(std::string_view name, size_t pos);
  bool blockName(std::string_view &name);
  bool regionBody(Region &region, const std::vector<EntryArg> *entryArgs);
  bool blockBody(Block *b);

  // Ops.
  OwningOp top();
  bool operation(Block *b);
  /// The line and column of a position of the text.
  Location locationAt(size_t pos);
  bool skipParens();
  /// `(...)` of a location: its position (`("file":line:col)`), null for `(unknown)` and for the
  /// kinds spire does not keep, or the name of the alias it names (`(#loc3)`).
  bool locationBody(const DebugLoc *&out, std::string_view &alias);
  /// A top-level `#name = loc(...)`: true when one was there (read, or `ok` false after the
  /// error); false, reading nothing, otherwise.
  bool locationAliasDefinition(bool &ok);
  Operation *customOp(const OpInfo &info, size_t at);
  /// The record of the op named `name` (read at `at`, `quoted` in the generic form), either
  /// prefix; an op of no dialect of spire's is the context's when unregistered ops are allowed.
  /// Null after the error (a custom form says `unknown`).
  const OpInfo *lookupOp(std::string_view name, size_t at, bool quoted);
  /// The record of `name` (read at `at`), an op no dialect of spire's defines: the context's
  /// when unregistered ops are allowed; else null, after MLIR's error.
  const OpInfo *unregisteredOp(std::string_view name, size_t at);
  Operation *formatted(const OpInfo &info, const OpFormat &format, size_t at);

  Context &ctx_;
  std::string_view t_;
  ParseOptions options_;
  size_t pos_ = 0;
  int depth_ = 0;
  std::string error_;
  size_t errorPos_ = 0;
  struct ErrorNote {
    size_t pos;
    std::string message;
    Severity severity;
  };
  std::optional<ErrorNote> errorNote_;
  std::vector<Scope> scopes_;
  std::vector<std::unordered_map<std::string_view, Forward *>> forwards_;
  std::deque<std::pair<std::string_view, Forward>> forwardsStorage_;
  std::vector<RegionScope> regions_;
  std::unordered_map<std::string_view, Type> typeCache_;
  size_t opAt_ = 0;
  /// locationAt's cursor: a position and its line and column (ops are read in text order).
  size_t scanPos_ = 0;
  uint32_t scanLine_ = 1, scanColumn_ = 1;
  std::unordered_map<std::string_view, std::string_view> names_;
  std::unordered_map<uint64_t, Attribute> enums_;
  uint64_t nextScope_ = 0;
  /// Bit v: MlirVersion(v) reads every spelling used so far. Where each spelling was first used.
  static constexpr size_t kUnspelled = ~size_t(0);
  uint8_t readBy_ = 0b111;
  size_t spelledAt_[4] = {kUnspelled, kUnspelled, kUnspelled, kUnspelled};
  /// Location aliases (`#loc3 = loc(...)`), which MLIR prints after the ops that name them.
  std::unordered_map<std::string_view, const DebugLoc *> locationAliases_;
  struct PendingLocation {
    Operation *op;
    std::string_view alias;
    size_t pos;
  };
  std::vector<PendingLocation> pendingLocations_;
};

} // namespace spire::dialect
