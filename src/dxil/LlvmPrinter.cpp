// LLVM assembly text of an LlvmModule, as llvm-dis-14 writes it: see LlvmPrinter.h.
#include "spire/dxil/LlvmPrinter.h"

#include "LlvmDataLayout.h"
#include "LlvmFloatText.h"
#include "spire/dxil/LlvmAttributes.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstring>
#include <deque>
#include <memory>
#include <optional>
#include <unordered_map>

namespace spire::dxil {

namespace {

constexpr size_t kFlushSize = 1 << 16;

/// The printer's output: appends inline into a buffer that grows rarely (a flush empties it
/// at kFlushSize), where std::string's appends are calls into the library.
class TextBuffer {
public:
  TextBuffer() : storage(std::make_unique_for_overwrite<char[]>(kInitialSize)), cap(kInitialSize) {}
  TextBuffer(const TextBuffer &) = delete;
  TextBuffer &operator=(const TextBuffer &) = delete;

  size_t size() const { return used; }
  bool empty() const { return used == 0; }
  void clear() { used = 0; }
  void resize(size_t n) { used = n; } ///< only to shrink
  std::string_view view() const { return {storage.get(), used}; }

  [[gnu::always_inline]] void push_back(char c) {
    if (used == cap)
      grow(1);
    storage[used++] = c;
  }
  [[gnu::always_inline]] void append(std::string_view s) {
    if (s.size() > cap - used)
      grow(s.size());
    std::memcpy(storage.get() + used, s.data(), s.size());
    used += s.size();
  }
  void append(const char *first, const char *last) {
    append(std::string_view(first, last - first));
  }
  [[gnu::always_inline]] void append(size_t count, char c) {
    if (count > cap - used)
      grow(count);
    std::memset(storage.get() + used, c, count);
    used += count;
  }
  [[gnu::always_inline]] TextBuffer &operator+=(std::string_view s) {
    append(s);
    return *this;
  }
  [[gnu::always_inline]] TextBuffer &operator+=(char c) {
    push_back(c);
    return *this;
  }

private:
  static constexpr size_t kInitialSize = 16384; // most programs print less than this

  [[gnu::noinline]] void grow(size_t more) {
    size_t n = std::max(cap * 2, used + more);
    std::unique_ptr<char[]> bigger = std::make_unique_for_overwrite<char[]>(n);
    std::memcpy(bigger.get(), storage.get(), used);
    storage = std::move(bigger);
    cap = n;
  }

  std::unique_ptr<char[]> storage; ///< not filled: only [0, used) is ever read
  size_t cap;
  size_t used = 0;
};

/// The metadata kinds LLVM 14 registers first, in its numbering; other kinds follow in the
/// order the bitcode names them. Attachments print sorted by this numbering.
constexpr std::string_view kFixedMetadataKinds[] = {
    "dbg",
    "tbaa",
    "prof",
    "fpmath",
    "range",
    "tbaa.struct",
    "invariant.load",
    "alias.scope",
    "noalias",
    "nontemporal",
    "llvm.mem.parallel_loop_access",
    "nonnull",
    "dereferenceable",
    "dereferenceable_or_null",
    "make.implicit",
    "unpredictable",
    "invariant.group",
    "align",
    "llvm.loop",
    "type",
    "section_prefix",
    "absolute_symbol",
    "associated",
    "callees",
    "irr_loop",
    "llvm.access.group",
    "callback",
    "llvm.preserve.access.index",
    "vcall_visibility",
    "noundef",
    "annotation",
};

/// Character classes, one table lookup a character: bit 1 plain in a name (letters, digits,
/// '-', '.', '_'), bit 2 printed as itself inside quotes (printable, not '"' or '\\'), bit 4
/// kept in a metadata name (letters, digits, '-', '$', '.', '_').
constexpr std::array<uint8_t, 256> kCharClass = [] {
  std::array<uint8_t, 256> t{};
  for (int c = 0; c < 256; ++c) {
    bool alnum = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (alnum || c == '-' || c == '.' || c == '_')
      t[c] |= 1;
    if (c >= 0x20 && c <= 0x7E && c != '"' && c != '\\')
      t[c] |= 2;
    if (alnum || c == '-' || c == '$' || c == '.' || c == '_')
      t[c] |= 4;
  }
  return t;
}();

template <class Out> void appendNumber(Out &out, uint64_t v) {
  if (v < 10) { // most slots and operands: one or two digits, written without to_chars
    out.push_back(char('0' + v));
    return;
  }
  if (v < 100) {
    out.push_back(char('0' + v / 10));
    out.push_back(char('0' + v % 10));
    return;
  }
  char buf[24];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, end);
}

template <class Out> void appendHexByte(Out &out, unsigned char c) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  out.push_back('\\');
  out.push_back(kHex[c >> 4]);
  out.push_back(kHex[c & 15]);
}

template <class Out> void appendEscapedChar(Out &out, unsigned char c) {
  if (c == '\\')
    out += "\\\\";
  else if (c >= 0x20 && c <= 0x7E && c != '"')
    out.push_back(char(c));
  else
    appendHexByte(out, c);
}

template <class Out> void appendEscaped(Out &out, std::string_view s) {
  // Runs of characters printed as themselves go out in one append.
  size_t i = 0, n = s.size();
  while (i < n) {
    size_t j = i;
    while (j < n && (kCharClass[uint8_t(s[j])] & 2))
      ++j;
    if (j > i)
      out.append(s.substr(i, j - i));
    if (j == n)
      return;
    appendEscapedChar(out, uint8_t(s[j]));
    i = j + 1;
  }
}

/// A global or local name with its prefix, quoted when it is not a plain identifier.
template <class Out> void appendName(Out &out, char prefix, std::string_view name) {
  if (prefix)
    out.push_back(prefix);
  bool quote = name.empty() || (name[0] >= '0' && name[0] <= '9');
  for (unsigned char c : name)
    if (!(kCharClass[c] & 1)) {
      quote = true;
      break;
    }
  if (!quote) {
    out.append(name);
    return;
  }
  out.push_back('"');
  appendEscaped(out, name);
  out.push_back('"');
}

template <class Out> void appendMetadataIdentifier(Out &out, std::string_view name) {
  if (name.empty()) {
    out += "<empty name> ";
    return;
  }
  // The first character may not be a digit; runs of characters kept as they are go out at once.
  size_t i = 0, n = name.size();
  unsigned char first = name[0];
  if (first >= '0' && first <= '9') {
    appendHexByte(out, first);
    i = 1;
  }
  while (i < n) {
    size_t j = i;
    while (j < n && (kCharClass[uint8_t(name[j])] & 4))
      ++j;
    if (j > i)
      out.append(name.substr(i, j - i));
    if (j == n)
      return;
    appendHexByte(out, uint8_t(name[j]));
    i = j + 1;
  }
}

std::string_view linkageText(Linkage l) {
  switch (l) {
  case Linkage::External:
    return "";
  case Linkage::AvailableExternally:
    return "available_externally ";
  case Linkage::LinkOnceAny:
    return "linkonce ";
  case Linkage::LinkOnceOdr:
    return "linkonce_odr ";
  case Linkage::WeakAny:
    return "weak ";
  case Linkage::WeakOdr:
    return "weak_odr ";
  case Linkage::Appending:
    return "appending ";
  case Linkage::Internal:
    return "internal ";
  case Linkage::Private:
    return "private ";
  case Linkage::ExternalWeak:
    return "extern_weak ";
  case Linkage::Common:
    return "common ";
  }
  return "";
}

std::string_view orderingText(AtomicOrdering o) {
  switch (o) {
  case AtomicOrdering::NotAtomic:
    return "";
  case AtomicOrdering::Unordered:
    return "unordered";
  case AtomicOrdering::Monotonic:
    return "monotonic";
  case AtomicOrdering::Acquire:
    return "acquire";
  case AtomicOrdering::Release:
    return "release";
  case AtomicOrdering::AcquireRelease:
    return "acq_rel";
  case AtomicOrdering::SequentiallyConsistent:
    return "seq_cst";
  }
  return "";
}

template <class Out> void appendCallingConv(Out &out, uint32_t cc) {
  switch (cc) {
  case 8:
    out += "fastcc";
    return;
  case 9:
    out += "coldcc";
    return;
  default:
    out += "cc " + std::to_string(cc);
  }
}

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

/// What llvm-dis changes while reading: intrinsics LLVM 14 renames, moved to the end of the
/// function list with the attributes LLVM 14 gives them.
struct Upgrades {
  std::vector<uint32_t> functionOrder;
  std::vector<std::string> renamed; ///< per function: the new name, or empty
  std::vector<uint32_t> attributes; ///< per function: a replacement attribute list, or kNoId
};

/// Texts built once and kept for the printer's life: blocks that never move, so a view of a
/// stored text stays valid while more are stored.
class TextArena {
public:
  std::string_view store(std::string_view s) {
    if (s.size() > left) {
      size_t size = std::max(kBlockSize, s.size());
      blocks.push_back(std::make_unique_for_overwrite<char[]>(size));
      next = blocks.back().get();
      left = size;
    }
    std::memcpy(next, s.data(), s.size());
    std::string_view stored(next, s.size());
    next += s.size();
    left -= s.size();
    return stored;
  }

private:
  static constexpr size_t kBlockSize = 4096;
  std::vector<std::unique_ptr<char[]>> blocks;
  char *next = nullptr;
  size_t left = 0;
};

class Printer {
public:
  Printer(const LlvmModule &m, const TextSink &sink, const LlvmPrintOptions &options)
      : m(m), sink(sink), options(options), layout(m, m.dataLayout) {}

  void run();

private:
  // Output.
  void flushIfLarge() {
    if (out.size() >= kFlushSize) {
      sink(out.view());
      out.clear();
    }
  }

  // Setup passes.
  void planUpgrades();
  void findTypes();
  void incorporateType(TypeId t) {
    if (!typeVisited[t]) // most types are seen already
      incorporateTypeWalk(t);
  }
  void incorporateTypeWalk(TypeId t);
  void incorporateValue(ValueId v) {
    // Most operands are neither constants nor metadata, or constants seen already.
    const Value &val = m.values[v];
    if (val.kind == ValueKind::Metadata || (val.kind == ValueKind::Constant && !valueVisited[v]))
      incorporateValueWalk(v);
  }
  void incorporateValueWalk(ValueId v);
  void incorporateMetadata(MetadataId md);
  void numberModule();
  void numberFunctionMetadata(uint32_t fi);
  void numberLocals(uint32_t fi);
  void createMetadataSlot(MetadataId md);
  uint32_t attributeSlot(uint32_t set);
  void computeKindOrder();

  // Pieces.
  std::string_view typeText(TypeId t) {
    return typeCached[t] ? typeCache[t] : buildCachedTypeText(t);
  }
  std::string_view buildCachedTypeText(TypeId t);
  void buildTypeText(TypeId t, std::string &s);
  void appendType(TypeId t) { out += typeText(t); }
  template <class Out> void structBody(TypeId t, Out &s);
  void appendValue(ValueId v) {
    // An unnamed argument or instruction (most operands) inline; everything else out of line.
    const Value &val = m.values[v];
    if ((val.kind == ValueKind::Instruction || val.kind == ValueKind::Argument) &&
        val.name.empty() && localSlot[v] >= 0) {
      out.push_back('%');
      appendNumber(out, uint64_t(localSlot[v]));
      return;
    }
    if (val.kind == ValueKind::Constant) {
      // A one-word integer (most call arguments), as appendConstant prints it.
      const Constant &c = m.constants[val.index];
      if (c.kind == ConstantKind::Integer && !c.numWords) {
        uint32_t bits = m.types[c.type].bits;
        if (bits == 1)
          out += c.bits ? "true" : "false";
        else
          appendDecimal(&c.bits, 1, bits);
        return;
      }
    }
    appendValueSlow(v);
  }
  void appendValueSlow(ValueId v);
  void appendOperand(ValueId v, bool withType) {
    if (withType) {
      appendType(m.values[v].type);
      out.push_back(' ');
    }
    appendValue(v);
  }
  void appendConstant(const Constant &c);
  void appendFloat(TypeId t, uint64_t bits, const Constant *c);
  void appendDataElement(TypeId elem, uint64_t word);
  void appendDecimal(const uint64_t *words, uint32_t numWords, uint32_t bitWidth) {
    if (numWords == 1) { // appendSignedDecimal's one-word case, written here without a copy
      uint64_t v = words[0];
      if (bitWidth < 64 && bitWidth > 0) {
        v &= (uint64_t(1) << bitWidth) - 1;
        if ((v >> (bitWidth - 1)) & 1)
          v |= ~uint64_t(0) << bitWidth;
      }
      if (int64_t(v) < 0) {
        out.push_back('-');
        v = 0 - v; // the magnitude, INT64_MIN's too
      }
      appendNumber(out, v);
      return;
    }
    numberText.clear();
    appendSignedDecimal(numberText, words, numWords, bitWidth);
    out += numberText;
  }
  void appendMetadataRef(MetadataId md);
  void appendMetadataOperand(MetadataId md);
  void appendAttribute(const Attribute &a, bool inGroup);
  void appendAttributeSet(uint32_t set, bool inGroup);
  void appendAttachments(AttachmentRange r, std::string_view separator) {
    if (r.count) // most instructions have none
      appendAttachmentList(r, separator);
  }
  void appendAttachmentList(AttachmentRange r, std::string_view separator);
  std::string_view functionName(uint32_t fi) const {
    return upgrades.renamed[fi].empty() ? m.name(m.functions[fi].value)
                                        : std::string_view(upgrades.renamed[fi]);
  }
  uint32_t functionAttributes(uint32_t fi) const {
    return upgrades.attributes[fi] != kNoId ? upgrades.attributes[fi] : m.functions[fi].attributes;
  }
  uint32_t attrSet(uint32_t list, uint32_t position) const {
    if (list == kNoId)
      return kNoId;
    if (list >= m.attributeLists.size()) { // an upgrade's list
      for (const auto &[pos, set] : extraLists[list - m.attributeLists.size()])
        if (pos == position)
          return set;
      return kNoId;
    }
    return m.attributeSet(list, position);
  }
  const Attribute &attr(uint32_t index) const {
    return index < m.attributes.size() ? m.attributes[index]
                                       : extraAttributes[index - m.attributes.size()];
  }
  AttributeSet setAt(uint32_t set) const {
    return set < m.attributeSets.size() ? m.attributeSets[set]
                                        : extraSets[set - m.attributeSets.size()];
  }
  std::string_view attrStr(StrRef r) const { return m.str(r); }

  void printHeader();
  void printGlobal(const GlobalVariable &g);
  void printAlias(const Alias &a);
  void printFunction(uint32_t fi);
  void printInstruction(const Instruction &ins);
  void printAttributeGroups();
  void printNamedMetadata();
  void printMetadataNodes();

  const LlvmModule &m;
  const TextSink &sink;
  const LlvmPrintOptions &options;
  LlvmDataLayout layout;
  TextBuffer out;
  std::vector<std::string_view> functionText; ///< per function: "@name" as printed, in texts
  std::string numberText; ///< scratch for the number formatters that write a std::string

  Upgrades upgrades;
  std::vector<Attribute> extraAttributes;
  std::vector<AttributeSet> extraSets;
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> extraLists;

  // TypeFinder
  std::vector<uint8_t> typeVisited;
  std::vector<uint8_t> valueVisited;
  std::vector<uint8_t> mdVisited;
  std::vector<TypeId> structOrder;         ///< identified structs in the order they are printed
  std::vector<int32_t> typeNumber;         ///< unnamed identified structs: their number
  std::vector<std::string_view> typeCache; ///< in texts
  std::deque<std::string> typeScratch;     ///< per nesting depth of buildCachedTypeText (stable)
  uint32_t typeDepth = 0;
  TextArena texts; ///< type and callee texts, built once
  std::vector<uint8_t> typeCached;

  // SlotTracker
  std::vector<int32_t> globalSlot;  ///< per function/global/alias value id: unnamed number
  std::vector<int32_t> localSlot;   ///< per value id
  std::vector<int32_t> mdSlot;      ///< per metadata id
  std::vector<MetadataId> mdBySlot; ///< slot -> metadata
  std::vector<int32_t> setSlot;     ///< per attribute set
  std::vector<uint32_t> setBySlot;
  std::vector<uint32_t> kindOrder; ///< per position in m.metadataKinds: LLVM 14's kind number
  std::vector<std::pair<uint32_t, uint32_t>> attachmentScratch;
  // Work stacks kept between calls so the walks do not allocate each time.
  std::vector<TypeId> typeWork;
  std::vector<ValueId> valueWork;
  std::vector<std::pair<MetadataId, uint32_t>> mdSlotStack;
};

// ---------------------------------------------------------------------------------------------
// Upgrades LLVM 14 applies while reading

void Printer::planUpgrades() {
  size_t n = m.functions.size();
  upgrades.renamed.assign(n, {});
  upgrades.attributes.assign(n, kNoId);
  std::vector<uint32_t> moved;
  for (uint32_t fi = 0; fi < n; ++fi) {
    const Function &f = m.functions[fi];
    std::string_view name = m.name(f.value);
    bool lifetime = name == "llvm.lifetime.start" || name == "llvm.lifetime.end";
    std::span<const TypeId> sig = m.elements(f.functionType);
    if (lifetime && f.isDeclaration && sig.size() == 3 && m.types[sig[0]].kind == TypeKind::Void &&
        m.types[sig[1]].kind == TypeKind::Integer && m.types[sig[1]].bits == 64 &&
        m.types[sig[2]].kind == TypeKind::Pointer && m.types[sig[2]].numElements &&
        m.types[m.elementType(sig[2])].kind == TypeKind::Integer &&
        m.types[m.elementType(sig[2])].bits == 8 && m.types[sig[2]].bits == 0) {
      upgrades.renamed[fi] = std::string(name) + ".p0i8";
      // argmemonly nofree nosync nounwind willreturn; immarg on the size; nocapture on the pointer
      auto makeSet = [&](std::initializer_list<AttrKind> kinds) {
        AttributeSet set{uint32_t(m.attributes.size() + extraAttributes.size()),
                         uint32_t(kinds.size())};
        for (AttrKind k : kinds) {
          Attribute a;
          a.kind = k;
          extraAttributes.push_back(a);
        }
        extraSets.push_back(set);
        return uint32_t(m.attributeSets.size() + extraSets.size() - 1);
      };
      if (extraLists.empty()) {
        uint32_t fnSet = makeSet({AttrKind::ArgMemOnly, AttrKind::NoFree, AttrKind::NoSync,
                                  AttrKind::NoUnwind, AttrKind::WillReturn});
        uint32_t sizeSet = makeSet({AttrKind::ImmArg});
        uint32_t ptrSet = makeSet({AttrKind::NoCapture});
        // An identical set already in the module is the same attribute group.
        auto dedupe = [&](uint32_t set) {
          AttributeSet s = setAt(set);
          for (uint32_t i = 0; i < m.attributeSets.size(); ++i) {
            AttributeSet o = m.attributeSets[i];
            if (o.count != s.count)
              continue;
            bool same = true;
            for (uint32_t k = 0; k < s.count && same; ++k)
              same = attributeEqual(m, m.attributes[o.first + k], attr(s.first + k));
            if (same)
              return i;
          }
          return set;
        };
        extraLists.push_back({{AttributeList::kFunction, dedupe(fnSet)},
                              {1u, dedupe(sizeSet)},
                              {2u, dedupe(ptrSet)}});
      }
      upgrades.attributes[fi] = uint32_t(m.attributeLists.size());
      moved.push_back(fi);
    } else {
      upgrades.functionOrder.push_back(fi);
    }
  }
  upgrades.functionOrder.insert(upgrades.functionOrder.end(), moved.begin(), moved.end());
}

// ---------------------------------------------------------------------------------------------
// Which identified structs llvm-dis lists, in its order (its TypeFinder)

void Printer::incorporateTypeWalk(TypeId root) {
  typeVisited[root] = 1;
  std::vector<TypeId> &work = typeWork;
  work.clear();
  work.push_back(root);
  while (!work.empty()) {
    TypeId t = work.back();
    work.pop_back();
    const Type &ty = m.types[t];
    if (ty.kind == TypeKind::Struct && ty.identified)
      structOrder.push_back(t);
    std::span<const TypeId> subs = m.elements(t);
    for (size_t i = subs.size(); i-- > 0;)
      if (!typeVisited[subs[i]]) {
        typeVisited[subs[i]] = 1;
        work.push_back(subs[i]);
      }
  }
}

void Printer::incorporateValueWalk(ValueId root) {
  // One stack shared with the calls nested through metadata: each works above its own base.
  std::vector<ValueId> &work = valueWork;
  const size_t base = work.size();
  work.push_back(root);
  while (work.size() > base) {
    ValueId v = work.back();
    work.pop_back();
    const Value &val = m.values[v];
    if (val.kind == ValueKind::Metadata) {
      const Metadata &md = m.metadata[val.index];
      if (md.kind == MetadataKind::Node || md.kind == MetadataKind::DistinctNode)
        incorporateMetadata(val.index);
      else if (md.kind == MetadataKind::Value && md.value != kNoId)
        work.push_back(md.value);
      continue;
    }
    if (val.kind != ValueKind::Constant || valueVisited[v])
      continue;
    valueVisited[v] = 1;
    incorporateType(val.type);
    const Constant &c = m.constants[val.index];
    if (c.kind == ConstantKind::Expr && c.opcode == Opcode::GetElementPtr)
      incorporateType(c.sourceType);
    std::span<const ValueId> ops = m.operandsOf(c);
    // Operands in order: push reversed so the first is handled first.
    for (size_t i = ops.size(); i-- > 0;)
      work.push_back(ops[i]);
  }
}

void Printer::incorporateMetadata(MetadataId root) {
  if (mdVisited[root])
    return;
  mdVisited[root] = 1;
  const Metadata &md = m.metadata[root];
  if (md.kind != MetadataKind::Node && md.kind != MetadataKind::DistinctNode)
    return;
  for (MetadataId op : m.operandsOf(md)) {
    if (op == kNoId)
      continue;
    const Metadata &o = m.metadata[op];
    if (o.kind == MetadataKind::Node || o.kind == MetadataKind::DistinctNode)
      incorporateMetadata(op);
    else if (o.kind == MetadataKind::Value && o.value != kNoId &&
             m.values[o.value].kind == ValueKind::Constant)
      incorporateValue(o.value);
  }
}

void Printer::findTypes() {
  typeVisited.assign(m.types.size(), 0);
  valueVisited.assign(m.values.size(), 0);
  mdVisited.assign(m.metadata.size(), 0);
  for (const GlobalVariable &g : m.globals) {
    incorporateType(g.valueType);
    if (g.initializer != kNoId)
      incorporateValue(g.initializer);
  }
  for (const Alias &a : m.aliases) {
    incorporateType(a.valueType);
    if (a.aliasee != kNoId)
      incorporateValue(a.aliasee);
  }
  for (uint32_t fi : upgrades.functionOrder) {
    const Function &f = m.functions[fi];
    incorporateType(f.functionType);
    for (ValueId v : {f.prefix, f.prologue, f.personality})
      if (v != kNoId)
        incorporateValue(v);
    for (uint32_t k = 0; k < f.numInstructions; ++k) {
      const Instruction &ins = m.instructions[f.firstInstruction + k];
      incorporateType(ins.type);
      for (ValueId op : m.operandsOf(ins))
        if (m.values[op].kind != ValueKind::Instruction)
          incorporateValue(op);
      if (ins.opcode == Opcode::GetElementPtr || ins.opcode == Opcode::Alloca)
        incorporateType(ins.auxType);
      for (const Attachment &a : m.attachmentsOf(ins.attachments))
        if (m.metadataKindName(a.kind) != "dbg")
          incorporateMetadata(a.node);
    }
  }
  for (const NamedMetadata &nm : m.namedMetadata)
    for (uint32_t i = 0; i < nm.numOperands; ++i)
      incorporateMetadata(m.metadataOperands[nm.firstOperand + i]);
  typeNumber.assign(m.types.size(), -1);
  int32_t next = 0;
  for (TypeId t : structOrder)
    if (m.types[t].name.empty())
      typeNumber[t] = next++;
}

// ---------------------------------------------------------------------------------------------
// Numbering (llvm-dis's SlotTracker)

void Printer::createMetadataSlot(MetadataId root) {
  const Metadata &md = m.metadata[root];
  if ((md.kind != MetadataKind::Node && md.kind != MetadataKind::DistinctNode &&
       md.kind != MetadataKind::Record) ||
      mdSlot[root] >= 0)
    return;
  // Preorder, operands in order: an explicit stack of (node, next operand).
  std::vector<std::pair<MetadataId, uint32_t>> &stack = mdSlotStack;
  stack.clear();
  mdSlot[root] = int32_t(mdBySlot.size());
  mdBySlot.push_back(root);
  stack.push_back({root, 0});
  while (!stack.empty()) {
    auto &[node, next] = stack.back();
    const Metadata &n = m.metadata[node];
    if (n.kind == MetadataKind::Record || next >= n.numOperands) {
      stack.pop_back();
      continue;
    }
    MetadataId op = m.metadataOperands[n.firstOperand + next++];
    if (op == kNoId || mdSlot[op] >= 0)
      continue;
    MetadataKind k = m.metadata[op].kind;
    if (k != MetadataKind::Node && k != MetadataKind::DistinctNode && k != MetadataKind::Record)
      continue;
    mdSlot[op] = int32_t(mdBySlot.size());
    mdBySlot.push_back(op);
    stack.push_back({op, 0});
  }
}

uint32_t Printer::attributeSlot(uint32_t set) {
  if (setSlot[set] < 0) {
    setSlot[set] = int32_t(setBySlot.size());
    setBySlot.push_back(set);
  }
  return uint32_t(setSlot[set]);
}

void Printer::computeKindOrder() {
  kindOrder.resize(m.metadataKinds.size());
  uint32_t next = uint32_t(std::size(kFixedMetadataKinds));
  std::vector<std::pair<std::string_view, uint32_t>> custom;
  for (size_t i = 0; i < m.metadataKinds.size(); ++i) {
    std::string_view name = m.str(m.metadataKinds[i].name);
    uint32_t order = kNoId;
    // Writers list the fixed kinds first, in this order: the same position is tried first.
    if (i < std::size(kFixedMetadataKinds) && kFixedMetadataKinds[i] == name)
      order = uint32_t(i);
    for (uint32_t k = 0; order == kNoId && k < std::size(kFixedMetadataKinds); ++k)
      if (kFixedMetadataKinds[k] == name) {
        order = k; // the fixed names are distinct: the first match is the only one
        break;
      }
    if (order == kNoId) {
      for (const auto &[n, o] : custom)
        if (n == name)
          order = o;
      if (order == kNoId) {
        order = next++;
        custom.push_back({name, order});
      }
    }
    kindOrder[i] = order;
  }
}

void Printer::numberModule() {
  globalSlot.assign(m.values.size(), -1);
  localSlot.assign(m.values.size(), -1);
  mdSlot.assign(m.metadata.size(), -1);
  mdBySlot.reserve(m.metadata.size()); // at most one slot a metadata: no regrowth
  setSlot.assign(m.attributeSets.size() + extraSets.size(), -1);
  int32_t next = 0;
  for (const GlobalVariable &g : m.globals) {
    if (m.values[g.value].name.empty())
      globalSlot[g.value] = next++;
    for (const Attachment &a : m.attachmentsOf(g.attachments))
      createMetadataSlot(a.node);
    if (g.attributes != kNoId)
      attributeSlot(g.attributes);
  }
  for (const Alias &a : m.aliases)
    if (m.values[a.value].name.empty())
      globalSlot[a.value] = next++;
  for (const NamedMetadata &nm : m.namedMetadata)
    for (uint32_t i = 0; i < nm.numOperands; ++i)
      createMetadataSlot(m.metadataOperands[nm.firstOperand + i]);
  for (uint32_t fi : upgrades.functionOrder) {
    const Function &f = m.functions[fi];
    if (functionName(fi).empty())
      globalSlot[f.value] = next++;
    uint32_t set = attrSet(functionAttributes(fi), AttributeList::kFunction);
    if (set != kNoId)
      attributeSlot(set);
  }
}

void Printer::numberFunctionMetadata(uint32_t fi) {
  const Function &f = m.functions[fi];
  for (const Attachment &a : m.attachmentsOf(f.attachments))
    createMetadataSlot(a.node);
  for (uint32_t k = 0; k < f.numInstructions; ++k) {
    const Instruction &ins = m.instructions[f.firstInstruction + k];
    if (ins.opcode == Opcode::Call) {
      const Function *callee = m.calledFunction(ins);
      if (callee && startsWith(m.name(callee->value), "llvm."))
        for (ValueId op : m.operandsOf(ins))
          if (m.values[op].kind == ValueKind::Metadata)
            createMetadataSlot(m.values[op].index);
    }
    for (const Attachment &a : m.attachmentsOf(ins.attachments))
      createMetadataSlot(a.node);
  }
}

void Printer::numberLocals(uint32_t fi) {
  const Function &f = m.functions[fi];
  int32_t next = 0;
  for (uint32_t a = 0; a < f.numArguments; ++a)
    if (m.values[f.firstArgument + a].name.empty())
      localSlot[f.firstArgument + a] = next++;
  for (uint32_t b = 0; b < f.numBlocks; ++b) {
    const BasicBlock &bb = m.blocks[f.firstBlock + b];
    if (m.values[bb.value].name.empty())
      localSlot[bb.value] = next++;
    for (uint32_t k = 0; k < bb.numInstructions; ++k) {
      const Instruction &ins = m.instructions[bb.firstInstruction + k];
      if (ins.value != kNoId && m.values[ins.value].name.empty())
        localSlot[ins.value] = next++;
      if (ins.opcode == Opcode::Call) {
        uint32_t set = attrSet(ins.attributes, AttributeList::kFunction);
        if (set != kNoId)
          attributeSlot(set);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Types

std::string_view Printer::buildCachedTypeText(TypeId t) {
  // Built in a string kept for this depth (the text of a type's parts is built first).
  if (typeDepth == typeScratch.size())
    typeScratch.emplace_back();
  std::string &s = typeScratch[typeDepth++];
  s.clear();
  buildTypeText(t, s);
  --typeDepth;
  typeCache[t] = texts.store(s);
  typeCached[t] = 1;
  return typeCache[t];
}

template <class Out> void Printer::structBody(TypeId t, Out &s) {
  const Type &ty = m.types[t];
  if (ty.opaque) {
    s += "opaque";
    return;
  }
  if (ty.packed)
    s.push_back('<');
  if (ty.numElements == 0) {
    s += "{}";
  } else {
    s += "{ ";
    bool first = true;
    for (TypeId e : m.elements(t)) {
      if (!first)
        s += ", ";
      first = false;
      s += typeText(e);
    }
    s += " }";
  }
  if (ty.packed)
    s.push_back('>');
}

void Printer::buildTypeText(TypeId t, std::string &s) {
  const Type &ty = m.types[t];
  switch (ty.kind) {
  case TypeKind::Void:
    s += "void";
    return;
  case TypeKind::Half:
    s += "half";
    return;
  case TypeKind::BFloat:
    s += "bfloat";
    return;
  case TypeKind::Float:
    s += "float";
    return;
  case TypeKind::Double:
    s += "double";
    return;
  case TypeKind::X86Fp80:
    s += "x86_fp80";
    return;
  case TypeKind::Fp128:
    s += "fp128";
    return;
  case TypeKind::PpcFp128:
    s += "ppc_fp128";
    return;
  case TypeKind::Label:
    s += "label";
    return;
  case TypeKind::Metadata:
    s += "metadata";
    return;
  case TypeKind::X86Mmx:
    s += "x86_mmx";
    return;
  case TypeKind::X86Amx:
    s += "x86_amx";
    return;
  case TypeKind::Token:
    s += "token";
    return;
  case TypeKind::Integer:
    s.push_back('i');
    appendNumber(s, ty.bits);
    return;
  case TypeKind::Function: {
    std::span<const TypeId> e = m.elements(t);
    s += typeText(e[0]);
    s += " (";
    for (size_t i = 1; i < e.size(); ++i) {
      if (i > 1)
        s += ", ";
      s += typeText(e[i]);
    }
    if (ty.varArg) {
      if (e.size() > 1)
        s += ", ";
      s += "...";
    }
    s += ")";
    return;
  }
  case TypeKind::Struct:
    if (ty.identified) {
      if (!ty.name.empty())
        appendName(s, '%', m.str(ty.name));
      else if (typeNumber.size() > t && typeNumber[t] >= 0)
        s += "%" + std::to_string(typeNumber[t]);
      else
        s += "%\"type " + std::to_string(t) + "\"";
      return;
    }
    structBody(t, s);
    return;
  case TypeKind::Pointer:
    if (!ty.numElements) {
      s += "ptr";
      if (ty.bits)
        s += " addrspace(" + std::to_string(ty.bits) + ")";
      return;
    }
    s += typeText(m.elementType(t));
    if (ty.bits)
      s += " addrspace(" + std::to_string(ty.bits) + ")";
    s += "*";
    return;
  case TypeKind::Array:
    s.push_back('[');
    appendNumber(s, ty.count);
    s += " x ";
    s += typeText(m.elementType(t));
    s += "]";
    return;
  case TypeKind::Vector:
    s += "<";
    if (ty.scalable)
      s += "vscale x ";
    appendNumber(s, ty.count);
    s += " x ";
    s += typeText(m.elementType(t));
    s += ">";
    return;
  }
}

// ---------------------------------------------------------------------------------------------
// Values and constants

void Printer::appendValueSlow(ValueId v) {
  const Value &val = m.values[v];
  switch (val.kind) {
  case ValueKind::Constant:
    appendConstant(m.constants[val.index]);
    return;
  case ValueKind::Metadata:
    appendMetadataOperand(val.index);
    return;
  case ValueKind::Function:
    if (!functionName(val.index).empty()) {
      // Each call names its callee: the quoted-or-not text is worked out once a function.
      if (val.index >= functionText.size())
        functionText.resize(m.functions.size());
      std::string_view &text = functionText[val.index];
      if (text.empty()) {
        std::string built;
        appendName(built, '@', functionName(val.index));
        text = texts.store(built);
      }
      out += text;
      return;
    }
    out.push_back('@');
    appendNumber(out, uint64_t(globalSlot[v]));
    return;
  case ValueKind::GlobalVariable:
  case ValueKind::Alias:
    if (!val.name.empty()) {
      appendName(out, '@', m.str(val.name));
      return;
    }
    out.push_back('@');
    appendNumber(out, uint64_t(globalSlot[v]));
    return;
  default:
    if (!val.name.empty()) {
      appendName(out, '%', m.str(val.name));
      return;
    }
    if (localSlot[v] >= 0) {
      out.push_back('%');
      appendNumber(out, uint64_t(localSlot[v]));
    } else
      out += "<badref>";
    return;
  }
}

void Printer::appendFloat(TypeId t, uint64_t bits, const Constant *c) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  auto hex = [&](uint64_t v, int digits) {
    for (int i = digits - 1; i >= 0; --i)
      out.push_back(kHex[(v >> (i * 4)) & 15]);
  };
  switch (m.types[t].kind) {
  case TypeKind::Double:
    numberText.clear();
    appendLlvmDouble(numberText, bits);
    out += numberText;
    return;
  case TypeKind::Float:
    numberText.clear();
    appendLlvmFloat(numberText, uint32_t(bits));
    out += numberText;
    return;
  case TypeKind::Half:
    out += "0xH";
    hex(bits, 4);
    return;
  case TypeKind::BFloat:
    out += "0xR";
    hex(bits, 4);
    return;
  default: {
    // x86_fp80 (0xK), fp128 (0xL), ppc_fp128 (0xM): the words as stored.
    uint64_t lo = bits, hi = 0;
    if (c && c->numWords == 2) {
      lo = m.words[c->firstWord];
      hi = m.words[c->firstWord + 1];
    }
    TypeKind k = m.types[t].kind;
    if (k == TypeKind::X86Fp80) {
      out += "0xK";
      hex(hi, 4);
      hex(lo, 16);
    } else {
      out += k == TypeKind::Fp128 ? "0xL" : "0xM";
      hex(lo, 16);
      hex(hi, 16);
    }
    return;
  }
  }
}

void Printer::appendDataElement(TypeId elem, uint64_t word) {
  const Type &t = m.types[elem];
  if (t.kind == TypeKind::Integer) {
    appendDecimal(&word, 1, t.bits);
    return;
  }
  appendFloat(elem, word, nullptr);
}

void Printer::appendConstant(const Constant &c) {
  const Type &t = m.types[c.type];
  switch (c.kind) {
  case ConstantKind::Integer:
    if (t.bits == 1) {
      out += c.bits ? "true" : "false";
      return;
    }
    if (c.numWords)
      appendDecimal(m.words.data() + c.firstWord, c.numWords, t.bits);
    else
      appendDecimal(&c.bits, 1, t.bits);
    return;
  case ConstantKind::Float:
    appendFloat(c.type, c.bits, &c);
    return;
  case ConstantKind::Null:
    switch (t.kind) {
    case TypeKind::Integer:
      out += t.bits == 1 ? "false" : "0";
      return;
    case TypeKind::Pointer:
      out += "null";
      return;
    case TypeKind::Token:
      out += "none";
      return;
    case TypeKind::Struct:
    case TypeKind::Array:
    case TypeKind::Vector:
      out += "zeroinitializer";
      return;
    default:
      appendFloat(c.type, 0, nullptr);
      return;
    }
  case ConstantKind::Undef:
    out += "undef";
    return;
  case ConstantKind::Poison:
    out += "poison";
    return;
  case ConstantKind::Aggregate: {
    std::span<const ValueId> ops = m.operandsOf(c);
    if (t.kind == TypeKind::Struct) {
      if (t.packed)
        out.push_back('<');
      out.push_back('{');
      if (!ops.empty()) {
        out.push_back(' ');
        for (size_t i = 0; i < ops.size(); ++i) {
          if (i)
            out += ", ";
          appendOperand(ops[i], true);
        }
        out.push_back(' ');
      }
      out.push_back('}');
      if (t.packed)
        out.push_back('>');
      return;
    }
    bool vec = t.kind == TypeKind::Vector;
    out.push_back(vec ? '<' : '[');
    std::string_view et = typeText(m.elementType(c.type));
    for (size_t i = 0; i < ops.size(); ++i) {
      if (i)
        out += ", ";
      out += et;
      out.push_back(' ');
      appendValue(ops[i]);
    }
    out.push_back(vec ? '>' : ']');
    return;
  }
  case ConstantKind::Data: {
    TypeId elem = m.elementType(c.type);
    const Type &et = m.types[elem];
    std::span<const uint64_t> w = m.wordsOf(c);
    if (t.kind == TypeKind::Array && et.kind == TypeKind::Integer && et.bits == 8) {
      out += "c\"";
      for (uint64_t b : w)
        appendEscapedChar(out, uint8_t(b));
      out.push_back('"');
      return;
    }
    bool vec = t.kind == TypeKind::Vector;
    out.push_back(vec ? '<' : '[');
    std::string_view ets = typeText(elem);
    for (size_t i = 0; i < w.size(); ++i) {
      if (i)
        out += ", ";
      out += ets;
      out.push_back(' ');
      appendDataElement(elem, w[i]);
    }
    out.push_back(vec ? '>' : ']');
    return;
  }
  case ConstantKind::Expr: {
    out += opcodeName(c.opcode);
    if (c.flags & kFlagNoUnsignedWrap)
      out += " nuw";
    if (c.flags & kFlagNoSignedWrap)
      out += " nsw";
    if (c.flags & kFlagExact)
      out += " exact";
    if (c.flags & kFlagInBounds)
      out += " inbounds";
    if (c.opcode == Opcode::ICmp || c.opcode == Opcode::FCmp) {
      out.push_back(' ');
      out += predicateName(c.predicate);
    }
    out += " (";
    if (c.opcode == Opcode::GetElementPtr) {
      appendType(c.sourceType);
      out += ", ";
    }
    std::span<const ValueId> ops = m.operandsOf(c);
    for (size_t i = 0; i < ops.size(); ++i) {
      appendOperand(ops[i], true);
      if (i + 1 != ops.size())
        out += ", ";
    }
    for (uint64_t idx : m.wordsOf(c)) {
      out += ", ";
      appendNumber(out, idx);
    }
    if (isCast(c.opcode)) {
      out += " to ";
      appendType(c.type);
    }
    out.push_back(')');
    return;
  }
  case ConstantKind::BlockAddress: {
    out += "blockaddress(";
    appendValue(m.operands[c.firstOperand]);
    out += ", %";
    out += std::to_string(c.numWords ? m.words[c.firstWord] : 0);
    out.push_back(')');
    return;
  }
  case ConstantKind::InlineAsm:
    out += "<inline asm>";
    return;
  }
}

// ---------------------------------------------------------------------------------------------
// Metadata and attributes

void Printer::appendMetadataRef(MetadataId md) {
  if (mdSlot[md] >= 0) {
    out.push_back('!');
    appendNumber(out, uint64_t(mdSlot[md]));
  } else
    out += "<badref>";
}

void Printer::appendMetadataOperand(MetadataId md) {
  const Metadata &d = m.metadata[md];
  switch (d.kind) {
  case MetadataKind::String:
    out += "!\"";
    appendEscaped(out, m.str(d.string));
    out.push_back('"');
    return;
  case MetadataKind::Value:
    if (d.value == kNoId) {
      out += "<badref>";
      return;
    }
    appendType(m.values[d.value].type);
    out.push_back(' ');
    appendValue(d.value);
    return;
  default:
    appendMetadataRef(md);
    return;
  }
}

void Printer::appendAttribute(const Attribute &a, bool inGroup) {
  if (a.form == Attribute::Form::String) {
    out.push_back('"');
    out += m.str(a.key);
    out.push_back('"');
    if (!a.value.empty()) {
      out += "=\"";
      appendEscaped(out, m.str(a.value));
      out.push_back('"');
    }
    return;
  }
  std::string_view name = attrKindName(a.kind);
  out += name;
  if (a.form == Attribute::Form::Type) {
    if (a.type != kNoId) {
      out.push_back('(');
      appendType(a.type);
      out.push_back(')');
    }
    return;
  }
  if (a.form != Attribute::Form::Int)
    return;
  switch (a.kind) {
  case AttrKind::Alignment:
    out += inGroup ? "=" : " ";
    out += std::to_string(a.intValue);
    return;
  case AttrKind::StackAlignment:
    if (inGroup)
      out += "=" + std::to_string(a.intValue);
    else
      out += "(" + std::to_string(a.intValue) + ")";
    return;
  case AttrKind::AllocSize: {
    uint64_t elem = a.intValue >> 32, num = a.intValue & 0xFFFFFFFFu;
    out += "(" + std::to_string(elem);
    if (num != 0xFFFFFFFFu)
      out += "," + std::to_string(num);
    out += ")";
    return;
  }
  case AttrKind::VScaleRange: {
    uint64_t lo = a.intValue >> 32, hi = a.intValue & 0xFFFFFFFFu;
    out += "(" + std::to_string(lo) + "," + std::to_string(hi) + ")";
    return;
  }
  default:
    out += "(" + std::to_string(a.intValue) + ")";
    return;
  }
}

void Printer::appendAttributeSet(uint32_t set, bool inGroup) {
  AttributeSet s = setAt(set);
  for (uint32_t i = 0; i < s.count; ++i) {
    if (i)
      out.push_back(' ');
    appendAttribute(attr(s.first + i), inGroup);
  }
}

void Printer::appendAttachmentList(AttachmentRange r, std::string_view separator) {
  attachmentScratch.clear();
  for (const Attachment &a : m.attachmentsOf(r)) {
    uint32_t order = kNoId;
    for (size_t i = 0; i < m.metadataKinds.size(); ++i)
      if (m.metadataKinds[i].id == a.kind)
        order = kindOrder[i];
    attachmentScratch.push_back({order, uint32_t(&a - m.attachments.data())});
  }
  std::stable_sort(attachmentScratch.begin(), attachmentScratch.end(),
                   [](const auto &x, const auto &y) { return x.first < y.first; });
  for (const auto &[order, index] : attachmentScratch) {
    const Attachment &a = m.attachments[index];
    out += separator;
    out.push_back('!');
    appendMetadataIdentifier(out, m.metadataKindName(a.kind));
    out.push_back(' ');
    appendMetadataOperand(a.node);
  }
}

// ---------------------------------------------------------------------------------------------
// Module pieces

void Printer::printHeader() {
  if (!options.moduleId.empty()) {
    out += "; ModuleID = '";
    out += options.moduleId;
    out += "'\n";
  }
  std::string_view source = m.sourceFilename.empty() ? std::string_view(options.moduleId)
                                                     : std::string_view(m.sourceFilename);
  if (!source.empty()) {
    out += "source_filename = \"";
    appendEscaped(out, source);
    out += "\"\n";
  }
  if (!m.dataLayout.empty()) {
    out += "target datalayout = \"";
    out += m.dataLayout;
    out += "\"\n";
  }
  if (!m.triple.empty()) {
    out += "target triple = \"";
    out += m.triple;
    out += "\"\n";
  }
  if (!m.moduleAsm.empty()) {
    out.push_back('\n');
    std::string_view rest = m.moduleAsm;
    while (!rest.empty()) {
      size_t nl = rest.find('\n');
      std::string_view line = rest.substr(0, nl);
      out += "module asm \"";
      appendEscaped(out, line);
      out += "\"\n";
      rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
    }
  }
  if (!structOrder.empty()) {
    out.push_back('\n');
    for (TypeId t : structOrder)
      if (m.types[t].name.empty()) {
        out.push_back('%');
        appendNumber(out, uint64_t(typeNumber[t]));
        out += " = type ";
        structBody(t, out);
        out.push_back('\n');
      }
    for (TypeId t : structOrder)
      if (!m.types[t].name.empty()) {
        out += typeText(t); // "%name", as every use prints it (and kept for those uses)
        out += " = type ";
        structBody(t, out);
        out.push_back('\n');
      }
  }
}

void Printer::printGlobal(const GlobalVariable &g) {
  appendValue(g.value);
  out += " = ";
  if (g.initializer == kNoId && g.linkage == Linkage::External)
    out += "external ";
  out += linkageText(g.linkage);
  bool local = g.linkage == Linkage::Internal || g.linkage == Linkage::Private;
  if (g.dsoLocal && !local && g.visibility == Visibility::Default)
    out += "dso_local ";
  if (g.visibility == Visibility::Hidden)
    out += "hidden ";
  else if (g.visibility == Visibility::Protected)
    out += "protected ";
  if (g.dllStorage == DllStorage::Import)
    out += "dllimport ";
  else if (g.dllStorage == DllStorage::Export)
    out += "dllexport ";
  switch (g.threadLocal) {
  case ThreadLocal::None:
    break;
  case ThreadLocal::GeneralDynamic:
    out += "thread_local ";
    break;
  case ThreadLocal::LocalDynamic:
    out += "thread_local(localdynamic) ";
    break;
  case ThreadLocal::InitialExec:
    out += "thread_local(initialexec) ";
    break;
  case ThreadLocal::LocalExec:
    out += "thread_local(localexec) ";
    break;
  }
  if (g.unnamedAddr == UnnamedAddr::Global)
    out += "unnamed_addr ";
  else if (g.unnamedAddr == UnnamedAddr::Local)
    out += "local_unnamed_addr ";
  if (g.addressSpace)
    out += "addrspace(" + std::to_string(g.addressSpace) + ") ";
  if (g.externallyInitialized)
    out += "externally_initialized ";
  out += g.isConstant ? "constant " : "global ";
  appendType(g.valueType);
  if (g.initializer != kNoId) {
    out.push_back(' ');
    appendValue(g.initializer);
  }
  if (g.section != kNoId) {
    out += ", section \"";
    appendEscaped(out, m.str(m.sections[g.section]));
    out.push_back('"');
  }
  if (g.align)
    out += ", align " + std::to_string(g.align);
  appendAttachments(g.attachments, ", ");
  if (g.attributes != kNoId)
    out += " #" + std::to_string(attributeSlot(g.attributes));
  out.push_back('\n');
}

void Printer::printAlias(const Alias &a) {
  appendValue(a.value);
  out += " = ";
  out += linkageText(a.linkage);
  if (a.visibility == Visibility::Hidden)
    out += "hidden ";
  else if (a.visibility == Visibility::Protected)
    out += "protected ";
  if (a.unnamedAddr == UnnamedAddr::Global)
    out += "unnamed_addr ";
  else if (a.unnamedAddr == UnnamedAddr::Local)
    out += "local_unnamed_addr ";
  out += "alias ";
  appendType(a.valueType);
  out += ", ";
  if (a.aliasee != kNoId)
    appendOperand(a.aliasee, true);
  out.push_back('\n');
}

void Printer::printFunction(uint32_t fi) {
  const Function &f = m.functions[fi];
  numberFunctionMetadata(fi);
  uint32_t attrs = functionAttributes(fi);
  uint32_t fnSet = attrSet(attrs, AttributeList::kFunction);
  out.push_back('\n');
  if (fnSet != kNoId && options.comments) {
    AttributeSet s = setAt(fnSet);
    // Written in place after the prefix; taken back when no attribute is printed.
    const size_t start = out.size();
    out += "; Function Attrs: ";
    const size_t first = out.size();
    for (uint32_t i = 0; i < s.count; ++i) {
      const Attribute &a = attr(s.first + i);
      if (a.form == Attribute::Form::String)
        continue;
      if (out.size() != first)
        out.push_back(' ');
      appendAttribute(a, false);
    }
    if (out.size() == first)
      out.resize(start);
    else
      out.push_back('\n');
  }
  numberLocals(fi);
  if (f.isDeclaration) {
    out += "declare";
    appendAttachments(f.attachments, " ");
    out.push_back(' ');
  } else {
    out += "define ";
  }
  out += linkageText(f.linkage);
  bool local = f.linkage == Linkage::Internal || f.linkage == Linkage::Private;
  if (f.dsoLocal && !local && f.visibility == Visibility::Default)
    out += "dso_local ";
  if (f.visibility == Visibility::Hidden)
    out += "hidden ";
  else if (f.visibility == Visibility::Protected)
    out += "protected ";
  if (f.dllStorage == DllStorage::Import)
    out += "dllimport ";
  else if (f.dllStorage == DllStorage::Export)
    out += "dllexport ";
  if (f.callingConv != 0) {
    appendCallingConv(out, f.callingConv);
    out.push_back(' ');
  }
  uint32_t retSet = attrSet(attrs, AttributeList::kReturn);
  if (retSet != kNoId) {
    appendAttributeSet(retSet, false);
    out.push_back(' ');
  }
  std::span<const TypeId> sig = m.elements(f.functionType);
  appendType(sig[0]);
  out.push_back(' ');
  appendValue(f.value);
  out.push_back('(');
  for (size_t i = 1; i < sig.size(); ++i) {
    if (i > 1)
      out += ", ";
    appendType(sig[i]);
    uint32_t ps = attrSet(attrs, uint32_t(i));
    if (ps != kNoId) {
      out.push_back(' ');
      appendAttributeSet(ps, false);
    }
    if (!f.isDeclaration) {
      out.push_back(' ');
      appendValue(f.firstArgument + ValueId(i - 1));
    }
  }
  if (m.types[f.functionType].varArg) {
    if (sig.size() > 1)
      out += ", ";
    out += "...";
  }
  out.push_back(')');
  if (f.unnamedAddr == UnnamedAddr::Global)
    out += " unnamed_addr";
  else if (f.unnamedAddr == UnnamedAddr::Local)
    out += " local_unnamed_addr";
  if (f.addressSpace)
    out += " addrspace(" + std::to_string(f.addressSpace) + ")";
  if (fnSet != kNoId)
    out += " #" + std::to_string(attributeSlot(fnSet));
  if (f.section != kNoId) {
    out += " section \"";
    appendEscaped(out, m.str(m.sections[f.section]));
    out.push_back('"');
  }
  if (f.align)
    out += " align " + std::to_string(f.align);
  if (f.gc != kNoId)
    out += " gc \"" + std::string(m.str(m.gcNames[f.gc])) + "\"";
  if (f.prefix != kNoId) {
    out += " prefix ";
    appendOperand(f.prefix, true);
  }
  if (f.prologue != kNoId) {
    out += " prologue ";
    appendOperand(f.prologue, true);
  }
  if (f.personality != kNoId) {
    out += " personality ";
    appendOperand(f.personality, true);
  }
  if (f.isDeclaration) {
    out.push_back('\n');
    return;
  }
  appendAttachments(f.attachments, " ");
  out += " {";
  // Predecessors: each block's uses by terminators, most recent first.
  std::vector<std::vector<uint32_t>> preds;
  if (options.comments) {
    preds.resize(f.numBlocks);
    for (uint32_t b = 0; b < f.numBlocks; ++b) {
      const BasicBlock &bb = m.blocks[f.firstBlock + b];
      if (!bb.numInstructions)
        continue;
      const Instruction &term = m.instructions[bb.firstInstruction + bb.numInstructions - 1];
      if (term.opcode != Opcode::Br && term.opcode != Opcode::Switch)
        continue;
      std::span<const ValueId> ops = m.operandsOf(term);
      auto use = [&](ValueId target) {
        const Value &v = m.values[target];
        if (v.kind == ValueKind::Block && v.index >= f.firstBlock &&
            v.index < f.firstBlock + f.numBlocks)
          preds[v.index - f.firstBlock].push_back(f.firstBlock + b);
      };
      if (term.opcode == Opcode::Br) {
        if (ops.size() == 1)
          use(ops[0]);
        else if (ops.size() == 3) {
          use(ops[1]);
          use(ops[2]);
        }
      } else {
        for (size_t i = 1; i < ops.size(); i += 2)
          use(ops[i]);
      }
    }
  }
  for (uint32_t b = 0; b < f.numBlocks; ++b) {
    const BasicBlock &bb = m.blocks[f.firstBlock + b];
    const Value &bv = m.values[bb.value];
    size_t lineStart = out.size();
    if (!bv.name.empty()) {
      out.push_back('\n');
      lineStart = out.size();
      appendName(out, 0, m.str(bv.name));
      out.push_back(':');
    } else if (b != 0) {
      out.push_back('\n');
      lineStart = out.size();
      appendNumber(out, uint64_t(localSlot[bb.value]));
      out.push_back(':');
    }
    if (b != 0 && options.comments) {
      size_t column = out.size() - lineStart;
      out.append(column < 50 ? 50 - column : 1, ' ');
      out.push_back(';');
      std::vector<uint32_t> &p = preds[b];
      if (p.empty()) {
        out += " No predecessors!";
      } else {
        out += " preds = ";
        for (size_t i = p.size(); i-- > 0;) {
          appendValue(m.blocks[p[i]].value);
          if (i)
            out += ", ";
        }
      }
    }
    out.push_back('\n');
    for (uint32_t k = 0; k < bb.numInstructions; ++k) {
      printInstruction(m.instructions[bb.firstInstruction + k]);
      flushIfLarge();
    }
  }
  out += "}\n";
  for (uint32_t a = 0; a < f.numArguments; ++a)
    localSlot[f.firstArgument + a] = -1;
}

void Printer::printInstruction(const Instruction &ins) {
  out += "  ";
  if (ins.value != kNoId) {
    appendValue(ins.value);
    out += " = ";
  }
  if (ins.opcode == Opcode::Call) {
    if (ins.tail == TailKind::MustTail)
      out += "musttail ";
    else if (ins.tail == TailKind::Tail)
      out += "tail ";
    else if (ins.tail == TailKind::NoTail)
      out += "notail ";
  }
  out += opcodeName(ins.opcode);
  if ((ins.opcode == Opcode::Load || ins.opcode == Opcode::Store) &&
      ins.ordering != AtomicOrdering::NotAtomic)
    out += " atomic";
  if (ins.opcode == Opcode::AtomicCmpXchg && (ins.flags & kFlagWeak))
    out += " weak";
  if ((ins.flags & kFlagVolatile) &&
      (ins.opcode == Opcode::Load || ins.opcode == Opcode::Store ||
       ins.opcode == Opcode::AtomicCmpXchg || ins.opcode == Opcode::AtomicRMW))
    out += " volatile";
  // Fast-math flags (floating-point operations, compares, and calls/phis/selects of FP type).
  if (ins.fastMath) {
    uint8_t f = ins.fastMath;
    if (f == kFastMathAll) {
      out += " fast";
    } else {
      if (f & kFastMathReassoc)
        out += " reassoc";
      if (f & kFastMathNoNaNs)
        out += " nnan";
      if (f & kFastMathNoInfs)
        out += " ninf";
      if (f & kFastMathNoSignedZeros)
        out += " nsz";
      if (f & kFastMathAllowReciprocal)
        out += " arcp";
      if (f & kFastMathAllowContract)
        out += " contract";
      if (f & kFastMathApproxFunc)
        out += " afn";
    }
  }
  if (ins.flags & kFlagNoUnsignedWrap)
    out += " nuw";
  if (ins.flags & kFlagNoSignedWrap)
    out += " nsw";
  if (ins.flags & kFlagExact)
    out += " exact";
  if (ins.opcode == Opcode::GetElementPtr && (ins.flags & kFlagInBounds))
    out += " inbounds";
  if (ins.opcode == Opcode::ICmp || ins.opcode == Opcode::FCmp) {
    out.push_back(' ');
    out += predicateName(ins.predicate);
  }
  if (ins.opcode == Opcode::AtomicRMW) {
    out.push_back(' ');
    out += rmwOpName(RmwOp(ins.predicate));
  }
  std::span<const ValueId> ops = m.operandsOf(ins);
  switch (ins.opcode) {
  case Opcode::Br:
    if (ops.size() == 3) {
      out.push_back(' ');
      appendOperand(ops[0], true);
      out += ", ";
      appendOperand(ops[1], true);
      out += ", ";
      appendOperand(ops[2], true);
    } else {
      out.push_back(' ');
      appendOperand(ops[0], true);
    }
    break;
  case Opcode::Switch:
    out.push_back(' ');
    appendOperand(ops[0], true);
    out += ", ";
    appendOperand(ops[1], true);
    out += " [";
    for (size_t i = 2; i + 1 < ops.size(); i += 2) {
      out += "\n    ";
      appendOperand(ops[i], true);
      out += ", ";
      appendOperand(ops[i + 1], true);
    }
    out += "\n  ]";
    break;
  case Opcode::Phi:
    out.push_back(' ');
    appendType(ins.type);
    out.push_back(' ');
    for (size_t i = 0; i + 1 < ops.size(); i += 2) {
      if (i)
        out += ", ";
      out += "[ ";
      appendValue(ops[i]);
      out += ", ";
      appendValue(ops[i + 1]);
      out += " ]";
    }
    break;
  case Opcode::ExtractValue:
  case Opcode::InsertValue:
    out.push_back(' ');
    appendOperand(ops[0], true);
    if (ins.opcode == Opcode::InsertValue) {
      out += ", ";
      appendOperand(ops[1], true);
    }
    for (uint64_t idx : m.wordsOf(ins)) {
      out += ", ";
      appendNumber(out, idx);
    }
    break;
  case Opcode::Call: {
    if (ins.callingConv) {
      out.push_back(' ');
      appendCallingConv(out, ins.callingConv);
    }
    uint32_t retSet = attrSet(ins.attributes, AttributeList::kReturn);
    if (retSet != kNoId) {
      out.push_back(' ');
      appendAttributeSet(retSet, false);
    }
    const Type &fnTy = m.types[ins.auxType];
    out.push_back(' ');
    appendType(fnTy.varArg ? ins.auxType : ins.type);
    out.push_back(' ');
    appendValue(ops[0]);
    out.push_back('(');
    for (size_t i = 1; i < ops.size(); ++i) {
      if (i > 1)
        out += ", ";
      appendType(m.values[ops[i]].type);
      uint32_t ps = attrSet(ins.attributes, uint32_t(i));
      if (ps != kNoId) {
        out.push_back(' ');
        appendAttributeSet(ps, false);
      }
      out.push_back(' ');
      appendValue(ops[i]);
    }
    out.push_back(')');
    uint32_t fnSet = attrSet(ins.attributes, AttributeList::kFunction);
    if (fnSet != kNoId)
      out += " #" + std::to_string(attributeSlot(fnSet));
    break;
  }
  case Opcode::Alloca: {
    out.push_back(' ');
    if (ins.flags & kFlagInAlloca)
      out += "inalloca ";
    if (ins.flags & kFlagSwiftError)
      out += "swifterror ";
    appendType(ins.auxType);
    int64_t count = 0;
    const Type &ct = m.types[m.values[ops[0]].type];
    if (!(ct.kind == TypeKind::Integer && ct.bits == 32 && m.constantInt(ops[0], count) &&
          count == 1)) {
      out += ", ";
      appendOperand(ops[0], true);
    }
    uint64_t a = ins.align ? ins.align : layout.prefAlign(ins.auxType);
    {
      out += ", align ";
      appendNumber(out, a);
    }
    uint32_t as = m.types[ins.type].bits;
    if (as)
      out += ", addrspace(" + std::to_string(as) + ")";
    break;
  }
  case Opcode::Ret:
    if (ops.empty()) {
      out += " void";
      break;
    }
    out.push_back(' ');
    appendOperand(ops[0], true);
    break;
  case Opcode::Unreachable:
  case Opcode::Fence:
    break;
  default: {
    if (isCast(ins.opcode)) {
      out.push_back(' ');
      appendOperand(ops[0], true);
      out += " to ";
      appendType(ins.type);
      break;
    }
    if (ins.opcode == Opcode::VAArg) {
      out.push_back(' ');
      appendOperand(ops[0], true);
      out += ", ";
      appendType(ins.type);
      break;
    }
    if (ops.empty())
      break;
    if (ins.opcode == Opcode::GetElementPtr || ins.opcode == Opcode::Load) {
      out.push_back(' ');
      appendType(ins.opcode == Opcode::Load ? ins.type : ins.auxType);
      out.push_back(',');
    }
    size_t shown = ins.opcode == Opcode::ShuffleVector ? 2 : ops.size();
    bool allTypes = ins.opcode == Opcode::Select || ins.opcode == Opcode::Store ||
                    ins.opcode == Opcode::ShuffleVector || ins.opcode == Opcode::AtomicCmpXchg ||
                    ins.opcode == Opcode::AtomicRMW;
    TypeId first = m.values[ops[0]].type;
    for (size_t i = 1; i < shown && !allTypes; ++i)
      if (m.values[ops[i]].type != first)
        allTypes = true;
    if (!allTypes) {
      out.push_back(' ');
      appendType(first);
    }
    out.push_back(' ');
    for (size_t i = 0; i < shown; ++i) {
      if (i)
        out += ", ";
      appendOperand(ops[i], allTypes);
    }
    break;
  }
  }
  auto syncScope = [&]() {
    if (ins.syncScope == 0)
      out += " syncscope(\"singlethread\")";
  };
  switch (ins.opcode) {
  case Opcode::Load:
  case Opcode::Store: {
    if (ins.ordering != AtomicOrdering::NotAtomic) {
      syncScope();
      out.push_back(' ');
      out += orderingText(ins.ordering);
    }
    TypeId accessed = ins.opcode == Opcode::Load ? ins.type : m.values[ops[0]].type;
    uint64_t a = ins.align ? ins.align : layout.abiAlign(accessed);
    {
      out += ", align ";
      appendNumber(out, a);
    }
    break;
  }
  case Opcode::AtomicCmpXchg: {
    syncScope();
    out.push_back(' ');
    out += orderingText(ins.ordering);
    out.push_back(' ');
    out += orderingText(ins.failureOrdering);
    uint64_t a = ins.align ? ins.align : layout.storeSize(m.values[ops[1]].type);
    {
      out += ", align ";
      appendNumber(out, a);
    }
    break;
  }
  case Opcode::AtomicRMW: {
    syncScope();
    out.push_back(' ');
    out += orderingText(ins.ordering);
    uint64_t a = ins.align ? ins.align : layout.storeSize(m.values[ops[1]].type);
    {
      out += ", align ";
      appendNumber(out, a);
    }
    break;
  }
  case Opcode::Fence:
    syncScope();
    out.push_back(' ');
    out += orderingText(ins.ordering);
    break;
  case Opcode::ShuffleVector: {
    // The mask: a constant vector of i32 (or undef / zeroinitializer).
    const Constant *mask = m.constant(ops[2]);
    uint64_t count = m.types[ins.type].count;
    out += ", <";
    if (m.types[ins.type].scalable)
      out += "vscale x ";
    out += std::to_string(count) + " x i32> ";
    std::vector<int64_t> elems;
    bool allZero = true, allUndef = true;
    for (uint64_t i = 0; i < count; ++i) {
      int64_t e = -1;
      if (mask && mask->kind == ConstantKind::Data) {
        e = int64_t(int32_t(m.words[mask->firstWord + i]));
      } else if (mask && mask->kind == ConstantKind::Null) {
        e = 0;
      } else if (mask && mask->kind == ConstantKind::Aggregate) {
        int64_t v;
        if (m.constantInt(m.operands[mask->firstOperand + i], v))
          e = v;
      }
      elems.push_back(e);
      allZero = allZero && e == 0;
      allUndef = allUndef && e == -1;
    }
    if (allZero) {
      out += "zeroinitializer";
    } else if (allUndef) {
      out += "undef";
    } else {
      out.push_back('<');
      for (size_t i = 0; i < elems.size(); ++i) {
        if (i)
          out += ", ";
        out += "i32 ";
        out += elems[i] < 0 ? std::string("undef") : std::to_string(elems[i]);
      }
      out.push_back('>');
    }
    break;
  }
  default:
    break;
  }
  appendAttachments(ins.attachments, ", ");
  out.push_back('\n');
}

void Printer::printAttributeGroups() {
  if (setBySlot.empty())
    return;
  out.push_back('\n');
  for (size_t i = 0; i < setBySlot.size(); ++i) {
    out += "attributes #" + std::to_string(i) + " = { ";
    appendAttributeSet(setBySlot[i], true);
    out += " }\n";
  }
}

void Printer::printNamedMetadata() {
  if (m.namedMetadata.empty())
    return;
  out.push_back('\n');
  for (const NamedMetadata &nm : m.namedMetadata) {
    out.push_back('!');
    appendMetadataIdentifier(out, m.str(nm.name));
    out += " = !{";
    for (uint32_t i = 0; i < nm.numOperands; ++i) {
      if (i)
        out += ", ";
      appendMetadataRef(m.metadataOperands[nm.firstOperand + i]);
    }
    out += "}\n";
  }
}

void Printer::printMetadataNodes() {
  if (mdBySlot.empty())
    return;
  out.push_back('\n');
  for (size_t i = 0; i < mdBySlot.size(); ++i) {
    const Metadata &md = m.metadata[mdBySlot[i]];
    out.push_back('!');
    appendNumber(out, i);
    out += " = ";
    if (md.kind == MetadataKind::DistinctNode)
      out += "distinct ";
    if (md.kind == MetadataKind::Record) {
      // Specialized nodes (debug information) are kept as records, not printed as llvm-dis.
      out += "!{} ; unsupported metadata record " + std::to_string(md.code) + "\n";
      continue;
    }
    out += "!{";
    std::span<const MetadataId> ops = m.operandsOf(md);
    for (size_t k = 0; k < ops.size(); ++k) {
      if (k)
        out += ", ";
      if (ops[k] == kNoId)
        out += "null";
      else
        appendMetadataOperand(ops[k]);
    }
    out += "}\n";
    flushIfLarge();
  }
}

void Printer::run() {
  planUpgrades();
  findTypes();
  typeCache.resize(m.types.size());
  typeCached.assign(m.types.size(), 0);
  computeKindOrder();
  numberModule();
  printHeader();
  if (!m.globals.empty())
    out.push_back('\n');
  for (const GlobalVariable &g : m.globals) {
    printGlobal(g);
    flushIfLarge();
  }
  if (!m.aliases.empty())
    out.push_back('\n');
  for (const Alias &a : m.aliases)
    printAlias(a);
  for (uint32_t fi : upgrades.functionOrder) {
    printFunction(fi);
    flushIfLarge();
  }
  printAttributeGroups();
  printNamedMetadata();
  printMetadataNodes();
  if (!out.empty())
    sink(out.view());
}

} // namespace

void printLlvmModule(const LlvmModule &m, const TextSink &sink, const LlvmPrintOptions &options) {
  Printer printer(m, sink, options);
  printer.run();
}

std::string printLlvmModuleToString(const LlvmModule &m, const LlvmPrintOptions &options) {
  std::string text;
  printLlvmModule(
      m, [&](std::string_view piece) { text.append(piece); }, options);
  return text;
}

} // namespace spire::dxil
