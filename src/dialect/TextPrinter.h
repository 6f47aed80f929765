// The printer of the dialect's text (Text.h): one op at a time in MLIR's generic form or in its
// custom syntax, which its record declares (OpSyntax.h: a format this printer reads, or hooks
// that call the pieces below). Values are named as mlir-translate-16 names them
// (ValueNames.cpp).
#pragma once

#include "spire/dialect/Text.h"

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace spire::dialect {

struct OpFormat;

class TextPrinter {
public:
  TextPrinter(std::string &out, const PrintOptions &options) : out_(out), opts_(options) {}
  /// Hands `out` to `sink` whenever an op ends with more than a chunk in it, and at the end, so
  /// that a large module's text is never held whole.
  void streamTo(const std::function<void(std::string_view)> *sink) { sink_ = sink; }

  /// Names the values of `op` and what it holds, then prints it.
  void top(const Operation &op);

  // --- A module's text while its body is being made (ModuleTextStream) ---------------------------

  /// Prints `module` (a spirv.module, in its custom form, without debug information aliases) up
  /// to the start of its body; what comes after the body (from its closing brace on) goes into
  /// `tail`.
  void openModule(const Operation &module, std::string &tail);
  /// Names the values of `op`, an op of the opened module's body, and prints it, as top()
  /// would in the whole module: its values are numbered from the module's counters, as every
  /// op of a body that names no value of its own is.
  void bodyOp(const Operation &op);
  /// Hands what is printed to the sink.
  void flushAll() {
    if (sink_ && !out_.empty())
      flush();
  }

  // --- For the custom syntax hooks ------------------------------------------------------------

  std::string &out() { return out_; }
  const PrintOptions &options() const { return opts_; }
  /// The MLIR release whose text it writes: of ops, types and attributes alike.
  MlirVersion version() const { return opts_.version; }
  /// MLIR 16 or older (MLIR 15 writes what MLIR 16 does, with its own prefix).
  bool mlir16() const { return opts_.version <= MlirVersion::Mlir16; }
  /// An op's (or a dialect attribute's) name as the version writes it (`spv.X` in MLIR 15).
  void name(std::string_view name);
  /// A value's name: `%name`, `%7`, or `%7#1` for a result of a group.
  void use(Value v);
  /// Operands [first, end) of `op`, separated by commas; their types likewise.
  void operands(const Operation &op, uint32_t first, uint32_t end);
  void types(const Operation &op, uint32_t first, uint32_t end);
  /// A type's text, made once per type.
  void type(Type t) { typeText(t, out_); }
  /// The same, appended to `out` (a value's name ends with its constant's type: `%cst0_i32`).
  void typeText(Type t, std::string &out);
  /// An attribute's text, made once per attribute (constants repeat the same few values).
  void attribute(Attribute a);
  /// An enumerant's text as the dialect writes it (enumText: `StorageBuffer`, `Volatile|Aligned`),
  /// made once per enumerant (every load and store names its storage class).
  void enumerant(grammar::OperandKind kind, uint32_t value);
  /// The result types as the generic form ends: `T`, `()` or `(T, U)`.
  void resultTypes(const Operation &op);
  /// ` : (T, U) -> R`: the types of operands [0, n) and the results, as MLIR's functional type.
  void functionalType(const Operation &op, uint32_t n);
  /// ` {a = 1 : i32, b}` with the attributes not in `elided`, or nothing.
  void attrDict(const Operation &op, std::span<const std::string_view> elided = {});
  void attrDict(const Operation &op, std::initializer_list<std::string_view> elided) {
    attrDict(op, std::span(elided.begin(), elided.size()));
  }
  /// Whether the op has no attributes but those in `allowed`.
  static bool onlyAttrs(const Operation &op, std::initializer_list<std::string_view> allowed);
  /// `^bb1` or `^bb1(%a, %b : i32, f32)`.
  void successor(const Operation &op, const Successor &s);
  /// `{ ... }`; `entryArgs`: the generic form, which shows the entry block's label when it has
  /// arguments or no ops.
  void region(const Region &r, unsigned indent, bool entryArgs);
  /// The generic form of `op`, without its results.
  void generic(const Operation &op, unsigned indent);
  /// ` loc(unknown)` after a block argument's type, with debugInfo (block arguments have no
  /// source position).
  void argumentLocation();

private:
  // Names (ValueNames.cpp).
  struct NameContext {
    const Region *region;
    int64_t nextValue;
    uint32_t nextArg, nextConflict;
    size_t parentScopes;
  };
  void number(const Operation &root);
  /// Names what the regions of `root` hold, each region starting from the counters as they are;
  /// `parentScopes`: the scopes open around `root`.
  void numberRegions(const Operation &root, size_t parentScopes);
  void findNamedOps();
  void numberRegion(const Region &region);
  void numberResults(const Operation &op);
  void setName(Value v, std::string_view raw);
  /// The index in names_ of `raw` sanitized (added when new).
  uint32_t baseName(std::string_view raw);
  /// Names `v` names_[base], or base_N for the first N from nextConflict_ on whose name is free.
  void takeName(Value v, uint32_t base);
  /// The index in names_ of names_[base] with `_n` after it, or UINT32_MAX: such a name has a
  /// record only when a hint spelled it (most `_N` names are lazy_ entries).
  uint32_t suffixedName(uint32_t base, uint32_t n) const;
  /// Whether names_[index], spelled as a base name and `_N`, is that lazy name, taken.
  bool takenLazily(uint32_t index) const;
  /// Marks the records a new record `index` is the base of, or the base of.
  void noteSuffixes(uint32_t index);
  /// Appends the name of lazy_[k].
  void lazyName(size_t k);
  /// The name MLIR gives op's one result (a constant's, an address's), written into `out`;
  /// false if it has none.
  bool nameHint(const Operation &op, std::string &out);
  uint32_t findName(std::string_view name, uint32_t hash) const;
  uint32_t addName(std::string_view name, uint32_t hash);
  /// Records the name nameText_ holds at [offset, offset + length) (`%name`).
  uint32_t addRecord(uint32_t offset, uint32_t length, uint32_t hash);
  void results(const Operation &op);
  void appendNumber(int64_t n);
  /// Appends `^bbN`.
  void blockName(const Block *b);

  // Ops (Printer.cpp).
  /// The top-level op, in a builtin module when the options say so.
  void topLevel(const Operation &op);
  void indent(unsigned n) { out_.append(n, ' '); }
  void operation(const Operation &op, unsigned indent);
  bool custom(const Operation &op, unsigned indent);
  bool formatted(const Operation &op, const OpFormat &format);
  void attrEntry(const NamedAttribute &a, bool &first);
  void genericAttrs(const Operation &op);
  void block(const Block &b, unsigned indent, bool entry, bool entryArgs);
  void predecessors(const Block &b, bool entry);
  bool entryTargeted(const Operation &op) const;
  // Source positions (--mlir-print-debuginfo).
  void numberLocations(const Operation &op);
  void location(const DebugLoc *l, bool alias);
  void locationAliases(bool deferred);

  std::string &out_;
  PrintOptions opts_;
  const std::function<void(std::string_view)> *sink_ = nullptr;
  static constexpr size_t kStreamChunk = 64 * 1024;
  void flush() {
    (*sink_)(out_);
    out_.clear();
  }
  /// A value's number, or for a named one -(its index in names_ + 1).
  /// Values' numbers live in their scratch slots, marked with this printer's epoch.
  uint32_t epoch_ = newScratchEpoch();
  void setId(const detail::ValueImpl *v, int64_t id) {
    v->scratch = {epoch_, static_cast<int32_t>(id)};
  }
  /// Each distinct name once: its text `%name` in nameText_, found through an open-addressing
  /// table of its characters' hash; `live` while a region that names a value so is being named
  /// (a name is taken once in a region and the regions it holds).
  struct NameRecord {
    uint32_t offset, length; ///< of `%name` in nameText_
    uint32_t hash;
    bool live;
    bool suffixed = false;    ///< spelled `base_N` (N without leading zeros), base a record
    bool hasSuffixed = false; ///< some record is spelled as this one and `_N`
  };
  /// The `base_N` names given without a record of their own (the `_N` names of materialized
  /// constants, most of a module's names, each new): (index in names_, N). A value so named
  /// holds -(kLazy + its index here) - 1. Such names cannot meet each other (the N of a region
  /// come after those of the regions around it); lazyLive_ keeps the taken ones by scope for
  /// a record spelled as one of them, and for bodyOp()'s results, numbered while the previous
  /// op's regions' names are still taken.
  static constexpr uint32_t kLazy = 1u << 30;
  struct LazyName {
    uint32_t base, n;
    uint32_t offset, length; ///< of its text in nameText_, once printed (length 0 before)
  };
  std::vector<LazyName> lazy_;
  std::vector<uint64_t> lazyLive_;
  std::vector<uint32_t> suffixedRecords_; ///< the records marked `suffixed`
  bool bodyResults_ = false;              ///< numbering a module body op's results
  std::string nameText_;
  std::vector<NameRecord> names_;
  std::vector<uint32_t> nameSlots_; ///< index in names_ + 1, or 0
  std::string hint_, sanitized_;
  /// Base names (names_ indices) of constants by (value, type) and of addresses by (symbol).
  /// (An open-addressing table of (named, type) -> names_ index, power-of-two sized.)
  struct HintSlot {
    const void *named = nullptr, *type = nullptr;
    uint32_t name = 0;
  };
  std::vector<HintSlot> hintNames_;
  size_t hintsUsed_ = 0;
  /// The slot of (named, type), which `added` says is new (its `name` then to be set).
  HintSlot &hintSlot(const void *named, const void *type, bool &added);
  /// The records of the ops named after what they hold (number() looks them up once).
  const OpInfo *constantInfo_ = nullptr, *addressOfInfo_ = nullptr;
  std::unordered_map<const Block *, uint32_t> blockIds_;
  /// Text made once per uniqued type or attribute, by its storage's address: the texts end to
  /// end in one string, found through an open-addressing table.
  class TextCache {
  public:
    /// Appends to `out` the text of `key`, which `make(text)` appends to `text` the first time.
    template <class Make> void append(const void *key, std::string &out, Make make) {
      if (2 * (used_ + 1) > slots_.size())
        grow();
      Slot &s = slots_[place(key)];
      if (s.key == nullptr) {
        s.key = key;
        s.offset = text_.size();
        make(text_);
        s.length = text_.size() - s.offset;
        ++used_;
      }
      out.append(text_.data() + s.offset, s.length);
    }

  private:
    struct Slot {
      const void *key = nullptr;
      size_t offset = 0, length = 0;
    };
    size_t place(const void *key) const {
      const size_t mask = slots_.size() - 1;
      size_t i = (reinterpret_cast<uintptr_t>(key) * 0x9E3779B97F4A7C15ull) >> 32 & mask;
      while (slots_[i].key != nullptr && slots_[i].key != key)
        i = (i + 1) & mask;
      return i;
    }
    void grow() {
      std::vector<Slot> old = std::move(slots_);
      slots_.assign(old.empty() ? 64 : 2 * old.size(), Slot{});
      for (const Slot &s : old)
        if (s.key)
          slots_[place(s.key)] = s;
    }
    std::vector<Slot> slots_;
    size_t used_ = 0;
    std::string text_;
  };
  TextCache typeText_, attrText_;
  TextCache enumText_; ///< keyed by kind + 1 and value, which no pointer is
  std::unordered_map<const Block *, std::vector<uint32_t>> preds_;
  std::vector<uint32_t> scopeNames_; ///< indices in names_, of the scopes in scopes_
  struct ScopeMark {
    size_t names, lazy; ///< where the scope's entries of scopeNames_ and lazyLive_ start
  };
  std::vector<ScopeMark> scopes_;
  int64_t nextValue_ = 0;
  uint32_t nextArg_ = 0, nextConflict_ = 0;
  size_t numbered_ = 0;
  /// Alias numbers of the positions ops have (null: unknown), in the order ops print them.
  std::unordered_map<const DebugLoc *, uint32_t> locAliases_;
  std::vector<const DebugLoc *> locOrder_;
  bool argumentsPrinted_ = false; ///< a block argument's loc(unknown) is printed in place
  /// openModule(): the region whose blocks are not printed, where its text is cut, and the
  /// indentation of its ops.
  const Region *deferred_ = nullptr;
  size_t deferMark_ = 0;
  unsigned bodyIndent_ = 0;
  /// The counters as the opened module's body leaves them (bodyOp()).
  int64_t bodyNextValue_ = 0;
  uint32_t bodyNextArg_ = 0, bodyNextConflict_ = 0;
};

} // namespace spire::dialect
