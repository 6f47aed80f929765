// METADATA_BLOCK (strings, values, nodes, named metadata, kinds, specialized records kept raw),
// METADATA_KIND_BLOCK and METADATA_ATTACHMENT.
#include "BitcodeReaderState.h"
#include "BitstreamFields.h"
#include "PerThread.h"
#include "ReaderSupport.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace spire::dxil::detail {

namespace {

enum MetadataCode : uint32_t {
  kStringOld = 1,
  kValue = 2,
  kNode = 3,
  kName = 4,
  kDistinctNode = 5,
  kKind = 6,
  kOldNode = 8,
  kOldFnNode = 9,
  kNamedNode = 10,
  kAttachment = 11,
  kStrings = 35,
  kGlobalDeclAttachment = 36,
  kIndexOffset = 38,
  kIndex = 39,
  kArgList = 46,
};

/// (One call with the tables' growth inlined: the compiler left push_back out of line in the
/// block reader, a call for each table.)
/// A new entry, as a default Metadata, at the end of the table (its id the last of mdIds), for
/// the caller to fill where it lies (no copy of one assembled on the stack).
/// (Both tables' room tested first, one cold call growing either: the rest calls nothing and
/// saves no registers.)
[[gnu::noinline, gnu::cold]] void growMetadataRoom(ReaderState &s) {
  if (s.m.metadata.size() == s.m.metadata.capacity())
    growRoom(s.m.metadata);
  if (s.mdIds.size() == s.mdIds.capacity())
    growRoom(s.mdIds);
}

[[gnu::noinline]] Metadata &newMetadata(ReaderState &s);

/// newMetadata() when a table is full: grows it, then makes the entry (a tail call from
/// newMetadata, which then keeps nothing across a call and saves no registers).
[[gnu::noinline, gnu::cold]] Metadata &newMetadataAfterGrowth(ReaderState &s) {
  growMetadataRoom(s);
  return newMetadata(s);
}

Metadata &newMetadata(ReaderState &s) {
  ArenaVector<Metadata> &table = s.m.metadata;
  if (table.size() == table.capacity() || s.mdIds.size() == s.mdIds.capacity()) [[unlikely]]
    return newMetadataAfterGrowth(s);
  if (table.size() == table.capacity() || s.mdIds.size() == s.mdIds.capacity())
    __builtin_unreachable();
  const MetadataId id = MetadataId(table.size());
  table.push_back(Metadata{});
  s.mdIds.push_back(id);
  return table.back();
}

/// Room for `n` more node operands (out of line: growth is rare).
[[gnu::noinline, gnu::cold]] void makeOperandRoom(ArenaVector<MetadataId> &v, size_t n) {
  v.reserve(std::max(v.size() + n, v.capacity() * 2));
}

/// Names and strings of up to this many characters are read as bytes (BitstreamReader::
/// readChars) into a block reader's StringRun.
constexpr size_t kCharRoom = 512;

/// Names and strings read as bytes, kept in a run that goes to the module's strings in one
/// append (one for many strings); their StrRefs are where they will be then. Whatever else
/// appends to the module's strings, or reads them, flushes the run first.
class StringRun {
public:
  /// Where readChars writes the next characters (kCharRoom of them, and 8 bytes more).
  char *next(ReaderState &s) {
    if (pending_ > kRun) [[unlikely]]
      flushAll(s);
    return buf_ + pending_;
  }
  /// The `n` characters written at next(), taken.
  StrRef take(const ReaderState &s, size_t n) {
    const StrRef r{uint32_t(s.m.strings.size() + pending_), uint32_t(n)};
    pending_ += n;
    return r;
  }
  void flush(ReaderState &s) {
    if (pending_)
      flushAll(s);
  }

private:
  static constexpr size_t kRun = 4096;
  [[gnu::noinline]] void flushAll(ReaderState &s) {
    s.m.strings.append(buf_, pending_);
    pending_ = 0;
  }
  size_t pending_ = 0;
  char buf_[kRun + kCharRoom + 8];
};

/// The current block's abbreviations as readChars takes them, found at their first record
/// (an id's definition does not change inside its block).
struct CharAbbrevs {
  static constexpr uint32_t kIds = 32;
  uint32_t known = 0;                     ///< bit k: byId[k] found
  BitstreamReader::CharAbbrev byId[kIds]; ///< (not initialized: `known` says which are)
};

/// Puts the characters readChars gave a record that is not a name back among its operands.
[[gnu::noinline, gnu::cold]] void charsToOps(BitstreamRecord &rec, const char *chars, size_t n) {
  const size_t at = rec.ops.size();
  uint64_t *p = rec.ops.resizeForOverwrite(at + n) + at;
  for (size_t i = 0; i < n; ++i)
    p[i] = uint8_t(chars[i]);
}

/// The record announced by `e`, its characters written at `run`'s next() (their number in
/// charCount, for the caller to take) when its abbreviation ends in characters after `scalars`
/// operands and it is one of `nameCodes`' (bit k: code k, below 64): names and strings;
/// charCount kNotChars otherwise.
[[gnu::always_inline]] inline bool readRecord(ReaderState &s, const BitstreamEntry &e,
                                              StringRun &run, CharAbbrevs &abbrevs,
                                              size_t &charCount, uint64_t nameCodes,
                                              size_t scalars) {
  charCount = BitstreamReader::kNotChars;
  if (e.id == kAbbrevUnabbreviatedRecord)
    return s.bs.read(e.id, s.rec);
  char *chars = run.next(s);
  if (e.id < CharAbbrevs::kIds) [[likely]] {
    BitstreamReader::CharAbbrev &a = abbrevs.byId[e.id];
    if (!((abbrevs.known >> e.id) & 1)) [[unlikely]] {
      a = s.bs.charAbbrev(e.id);
      abbrevs.known |= uint32_t(1) << e.id;
    }
    charCount = s.bs.readChars(a, e.id, s.rec, chars, kCharRoom);
  } else {
    charCount = s.bs.readChars(e.id, s.rec, chars, kCharRoom);
  }
  if (charCount == BitstreamReader::kReadFailed) [[unlikely]]
    return false;
  if (charCount != BitstreamReader::kNotChars &&
      (s.rec.ops.size() != scalars || !(s.rec.code < 64 && ((nameCodes >> s.rec.code) & 1))))
      [[unlikely]] {
    charsToOps(s.rec, chars, charCount);
    charCount = BitstreamReader::kNotChars;
  }
  return true;
}

/// For nodeFromBits and valueFromBits, when they have taken the record `b` gave: ends it at
/// bit `end` and appends a metadata entry of `kind` for `function` (the record's offset and code
/// set as read() sets them, for any message before the next record); null, nothing done, when
/// `end` is past the block's end (read() reports it).
[[gnu::always_inline]] inline Metadata *takeRecord(ReaderState &s,
                                                   const BitstreamReader::RecordBits &b,
                                                   uint64_t end, uint32_t code, MetadataKind kind,
                                                   uint32_t function) {
  if (!s.bs.endRecordAt(end)) [[unlikely]]
    return nullptr;
  s.rec.bitOffset = b.start;
  s.rec.code = code;
  Metadata &md = newMetadata(s);
  md.kind = kind;
  md.function = function;
  return &md;
}

/// nodeFromBits' way back: the operands it appended taken off, and their fixups (the last
/// ones: every fixup before them is of an operand before them), (false).
[[gnu::noinline, gnu::cold]] bool undoNode(ReaderState &s, size_t operands) {
  s.m.metadataOperands.resize(operands);
  while (!s.mdFixups.empty() && s.mdFixups.back().first >= operands)
    s.mdFixups.pop_back();
  return false;
}

/// nodeFromBits' forward reference: operand `slot` names metadata `op` - 1 (out of line: the
/// node loop keeps no fixup's fields at hand).
[[gnu::noinline, gnu::cold]] void forwardOperand(ReaderState &s, uint32_t slot, uint64_t op) {
  s.mdFixups.push_back({slot, uint32_t(op - 1)});
}

/// A NODE record's code as an unabbreviated record's first 6 bits.
constexpr uint64_t kNodeCodeBits = kNode;

/// An unabbreviated NODE record (`b`: the cursor's recordBits(), `w`: the load at its code,
/// which the caller tested) decoded straight from its bits, as readMetadataBlock's NODE case
/// takes it from read()'s operands: a count of one or two chunks, every operand of up to four
/// chunks and the record away from the data's end: the node appended, the record ended, and
/// true. Anything else: false, nothing kept (room made aside), the cursor where it was,
/// and read() takes the record from its first field.
[[gnu::always_inline]] inline bool
nodeFromBits(ReaderState &s, const BitstreamReader::RecordBits &b, uint64_t w, uint32_t function) {
  uint64_t n = (w >> 6) & 31;
  uint64_t at = b.pos + 12;
  if (w & (32 << 6)) {
    if (w & (32 << 12)) [[unlikely]]
      return false;
    n |= ((w >> 12) & 31) << 5;
    at += 6;
  }
  // Every operand (of up to 24 bits) from a load below the limit: one test.
  if (at + n * 24 >= b.loadLimit) [[unlikely]]
    return false;
  LlvmModule &m = s.m;
  ArenaVector<MetadataId> &slots = m.metadataOperands;
  if (slots.capacity() - slots.size() < n) [[unlikely]]
    makeOperandRoom(slots, n);
  const uint32_t firstOperand = uint32_t(slots.size());
  const MetadataId *ids = s.mdIds.data();
  const uint64_t known = s.mdIds.size();
  const uint8_t *const data = b.data;
  for (uint64_t k = 0; k < n; ++k) {
    uint64_t op;
    if (!vbr6Field(data, at, op)) [[unlikely]]
      return undoNode(s, firstOperand);
    MetadataId id = kNoId;
    if (op - 1 < known) [[likely]] { // 0 (none) wraps around
      id = ids[op - 1];
    } else if (op != 0) {
      forwardOperand(s, uint32_t(firstOperand + k), op);
    }
    if (slots.size() == slots.capacity()) // room for all was made above
      __builtin_unreachable();
    slots.push_back(id);
  }
  Metadata *const md = takeRecord(s, b, at, kNode, MetadataKind::Node, function);
  if (!md) [[unlikely]]
    return undoNode(s, firstOperand);
  md->firstOperand = firstOperand;
  md->numOperands = uint32_t(n);
  return true;
}

/// A VALUE record's code and a count of 2, as an unabbreviated record's first 12 bits.
constexpr uint64_t kValueCodeBits = kValue | 2 << 6;

/// An unabbreviated VALUE record [type, value] (`b`: the cursor's recordBits(), whose code and
/// count the caller tested) decoded straight from its bits when readMetadataBlock's VALUE case
/// would take it at once: a type defined and neither metadata nor void (`valueTypeId` and
/// `valueType`, the last VALUE's type, updated as that case updates them), the value one read
/// already of that type: the entry appended, the record ended, and true. Anything else: false,
/// nothing written but the type remembered, the cursor where it was, and read() takes the
/// record from its first field.
[[gnu::always_inline]] inline bool valueFromBits(ReaderState &s,
                                                 const BitstreamReader::RecordBits &b,
                                                 uint32_t function, uint64_t &valueTypeId,
                                                 TypeId &valueType) {
  // Both fields (of up to 24 bits) from loads below the limit.
  uint64_t at = b.pos + 12, typeId, v;
  if (at + 24 >= b.loadLimit || !vbr6Field(b.data, at, typeId)) [[unlikely]]
    return false;
  if (typeId != valueTypeId) {
    if (typeId >= s.typeMap.size() || s.typeMap[typeId] == kNoId)
      return false;
    const TypeId t = s.typeMap[typeId];
    const TypeKind k = s.m.types[t].kind;
    if (k == TypeKind::Metadata || k == TypeKind::Void)
      return false;
    valueTypeId = typeId;
    valueType = t;
  }
  if (!vbr6Field(b.data, at, v) || v >= s.valueIds.size()) [[unlikely]]
    return false;
  const ValueId value = s.valueIds[v];
  if (value == kNoId || s.m.values[value].type != valueType) [[unlikely]]
    return false;
  Metadata *const md = takeRecord(s, b, at, kValue, MetadataKind::Value, function);
  if (!md) [[unlikely]]
    return false;
  md->value = value;
  return true;
}

/// Reads METADATA_STRINGS: [count, offset] and a blob of VBR6 lengths followed by the characters.
Status readBulkStrings(ReaderState &s, uint32_t function) {
  const auto &r = s.rec.ops;
  if (r.size() < 2)
    return s.error("METADATA_STRINGS record too short");
  uint64_t count = r[0], offset = r[1];
  std::span<const uint8_t> blob = s.rec.blob;
  if (offset > blob.size() || count > offset * 8 / 6 + 1)
    return s.error("METADATA_STRINGS lengths do not fit the blob");
  BitstreamReader lengths(blob.subspan(0, size_t(offset)));
  uint64_t at = offset;
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t length = lengths.readVbr(6);
    if (lengths.failed() || length > blob.size() - at)
      return s.error("METADATA_STRINGS string runs past the blob");
    const StrRef string = s.addString(
        std::string_view(reinterpret_cast<const char *>(blob.data()) + at, size_t(length)));
    at += length;
    Metadata &md = newMetadata(s);
    md.kind = MetadataKind::String;
    md.function = function;
    md.string = string;
  }
  return {};
}

Status readAttachmentPairs(ReaderState &s, size_t from, AttachmentRange &range) {
  const auto &r = s.rec.ops; // callers pass an even number of operands after `from`
  range.first = uint32_t(s.m.attachments.size());
  for (size_t i = from; i + 1 < r.size(); i += 2) {
    uint64_t md = r[i + 1];
    if (md >= s.mdIds.size() || s.mdIds[md] == kNoId)
      return s.error("attachment of metadata " + std::to_string(md) + " that does not exist");
    MetadataId node = s.mdIds[md];
    MetadataKind k = s.m.metadata[node].kind;
    if (k == MetadataKind::String || k == MetadataKind::Value)
      return s.error("attachment of metadata that is not a node");
    bool known = false;
    for (const MetadataKindName &kind : s.m.metadataKinds)
      known = known || kind.id == r[i];
    if (!known)
      return s.error("attachment of unknown metadata kind " + std::to_string(r[i]));
    s.m.attachments.push_back({uint32_t(r[i]), node});
  }
  range.count = uint32_t(s.m.attachments.size() - range.first);
  return {};
}

/// Appends a named metadata (a call of its own: inside the block loop, past the inliner's
/// growth limit, push_back was a call that saved more registers).
[[gnu::noinline]] void appendNamed(ArenaVector<NamedMetadata> &v, NamedMetadata nm) {
  append(v, nm);
}

/// The error of a bad KIND record, or none (no Status built for every good one).
std::optional<Diagnostic> readKind(ReaderState &s) {
  const auto &r = s.rec.ops;
  if (r.empty() || r[0] > 0xFFFFFFFFu)
    return s.error("KIND record without an id");
  // Repeats: a bit per small id (every kind LLVM and DXC define), a scan for the others.
  bool repeated = false;
  if (r[0] < 64) {
    repeated = (s.metadataKindsBelow64 >> r[0]) & 1;
    s.metadataKindsBelow64 |= uint64_t(1) << r[0];
  } else {
    for (const MetadataKindName &k : s.m.metadataKinds)
      repeated = repeated || k.id == r[0];
  }
  if (repeated)
    return s.error("metadata kind " + std::to_string(r[0]) + " defined twice");
  s.m.metadataKinds.push_back(
      {uint32_t(r[0]), s.addString(std::span<const uint64_t>(r).subspan(1))});
  return std::nullopt;
}

/// Blocks of KIND records alone that this thread has read, with the kinds they name. Every
/// program from one writer names the same kinds in a block of their own (LLVM 3.7 writes them in
/// a METADATA_BLOCK, newer writers in a METADATA_KIND_BLOCK), in unabbreviated records: what such
/// a block gives is a function of its abbreviation width and its bytes alone, so a block equal
/// to one read before gives its kinds without decoding. A few blocks of bounded size are kept.
class KindBlockMemo {
public:
  static constexpr unsigned kSlots = 16;
  static constexpr size_t kMaxBytes = 16384;
  struct Block {
    RememberedBody body;
    uint64_t sample = 0; ///< bodySample() of the body
    std::string names;
    /// The kinds as the module lists them, their names' offsets relative to `names`.
    std::vector<MetadataKindName> kinds;
    uint64_t below64 = 0; ///< bit k: kind k (k < 64) is one of them
  };

  const Block *find(const BitstreamReader::BlockBody &body) const {
    // Most blocks asked about (a module's other metadata block) are none of these: their width
    // and size tell.
    return ring_.find(body, [&](const Block &b) {
      return !b.kinds.empty() && b.sample == bodySample(body.bytes) && b.body.matches(body);
    });
  }
  /// Remembers `body`, which gave the module all its kinds.
  void insert(const BitstreamReader::BlockBody &body, const LlvmModule &m) {
    if (body.bytes.size() > kMaxBytes || m.metadataKinds.empty())
      return;
    Block &b = ring_.insert(body);
    b.body.assign(body);
    b.sample = bodySample(body.bytes);
    b.names.clear();
    b.kinds.clear();
    b.below64 = 0;
    for (size_t k = 0; k < m.metadataKinds.size(); ++k) {
      const uint32_t id = m.metadataKinds[k].id;
      const std::string_view name = m.str(m.metadataKinds[k].name);
      b.kinds.push_back({id, StrRef{uint32_t(b.names.size()), uint32_t(name.size())}});
      if (id < 64)
        b.below64 |= uint64_t(1) << id;
      b.names += name;
    }
  }
  static KindBlockMemo &forThread() { return detail::perThread<KindBlockMemo>(); }

private:
  BlockRing<Block, kSlots> ring_;
};

/// At the start of a metadata or kind block of a reader that remembers (its callers test that
/// inline, so that spire dis never calls this): when the module has no kinds yet and the block is
/// one of the memo's, its kinds (distinct, as they were when it was read) are the module's and
/// the block is left; true then.
[[gnu::noinline]] bool kindsFromMemo(ReaderState &s) {
  if (!s.m.metadataKinds.empty())
    return false;
  const BitstreamReader::BlockBody body = s.bs.blockBody();
  if (body.bytes.empty())
    return false;
  const KindBlockMemo::Block *b = KindBlockMemo::forThread().find(body);
  if (!b)
    return false;
  const uint32_t base = s.addString(b->names).offset;
  s.metadataKindsBelow64 |= b->below64;
  // The kinds at once, then their names moved to where the strings put them.
  s.m.metadataKinds.insert(s.m.metadataKinds.end(), b->kinds.begin(), b->kinds.end());
  for (MetadataKindName &k : s.m.metadataKinds)
    k.name.offset += base;
  s.bs.leaveBlock();
  return true;
}

/// Follows a block's records to tell whether it holds KIND records alone, all unabbreviated, and
/// remembers it when it does (see KindBlockMemo).
class KindBlockWatch {
public:
  KindBlockWatch(ReaderState &s, bool moduleLevel)
      : watching_(moduleLevel && s.bs.remembers() && s.m.metadataKinds.empty()),
        body_(watching_ ? s.bs.blockBody() : BitstreamReader::BlockBody{}) {
    watching_ = watching_ && !body_.bytes.empty();
  }
  void record(uint32_t abbrevId, uint32_t code) {
    if (watching_) [[unlikely]] // (a test per record; most blocks are never watched)
      watching_ = abbrevId == kAbbrevUnabbreviatedRecord && code == kKind;
  }
  void subBlock() { watching_ = false; }
  bool watching() const { return watching_; }
  void done(const ReaderState &s) {
    if (watching_)
      KindBlockMemo::forThread().insert(body_, s.m);
  }

private:
  bool watching_;
  BitstreamReader::BlockBody body_;
};

} // namespace

Status readMetadataBlock(ReaderState &s, uint32_t function) {
  LlvmModule &m = s.m;
  size_t firstFixup = s.mdFixups.size();
  size_t firstValueFixup = s.fixups.size();
  StrRef pendingName;
  bool havePendingName = false;
  if (function == kNoId && s.bs.remembers() && kindsFromMemo(s))
    return {};
  KindBlockWatch watch(s, function == kNoId);
  // Whether the watch is on or a NAME waits for its NAMED_NODE: one test a record for both.
  bool unusual = watch.watching();
  StringRun run;
  CharAbbrevs charAbbrevs;
  size_t charCount = BitstreamReader::kNotChars;
  // The bitcode type id of the last VALUE record and its type, checked then (the types do not
  // change in a metadata block).
  uint64_t valueTypeId = ~uint64_t(0);
  TypeId valueType = kNoId;
  BitstreamEntry e; // (next() sets it in a block: not reset for every entry)
  for (;;) {
    if (!s.bs.next(e))
      return s.bs.takeError();
    if (e.kind == BitstreamEntry::Kind::EndBlock)
      break;
    if (e.kind == BitstreamEntry::Kind::SubBlock) {
      watch.subBlock();
      unusual = havePendingName;
      if (Status st = s.bs.skipBlock(); !st)
        return st;
      continue;
    }
    if (e.kind != BitstreamEntry::Kind::Record)
      return s.bs.error("the data ends inside a metadata block");
    // DXC writes nodes unabbreviated: most records, decoded from their bits when they can be.
    if (e.id == kAbbrevUnabbreviatedRecord && !unusual) {
      const BitstreamReader::RecordBits b = s.bs.recordBits();
      if (b.pos < b.loadLimit) {
        const uint64_t w = loadBitsAt(b.data, b.pos);
        if ((w & 63) == kNodeCodeBits && nodeFromBits(s, b, w, function))
          continue;
        if ((w & 0xFFF) == kValueCodeBits && valueFromBits(s, b, function, valueTypeId, valueType))
          continue;
      }
    }
    if (!readRecord(s, e, run, charAbbrevs, charCount,
                    uint64_t(1) << kStringOld | uint64_t(1) << kName, 0))
      return s.bs.takeError();
    const auto &r = s.rec.ops;
    if (unusual) [[unlikely]] {
      watch.record(e.id, s.rec.code);
      if (havePendingName && s.rec.code != kNamedNode)
        return s.error("metadata NAME not followed by NAMED_NODE");
      unusual = watch.watching() || havePendingName;
    }
    // Nodes and values (most records) before the switch's jump table.
    if (s.rec.code == kNode) [[likely]]
      goto node;
    if (s.rec.code == kValue) [[likely]]
      goto value;
    switch (s.rec.code) {
    case kStringOld: {
      StrRef string;
      if (charCount != BitstreamReader::kNotChars) [[likely]] {
        string = run.take(s, charCount);
      } else {
        run.flush(s);
        string = s.addString(std::span<const uint64_t>(r));
      }
      Metadata &md = newMetadata(s);
      md.kind = MetadataKind::String;
      md.function = function;
      md.string = string;
      break;
    }
    case kStrings:
      run.flush(s);
      if (Status st = readBulkStrings(s, function); !st)
        return st;
      break;
    case kValue:
    value : {
      if (r.size() != 2)
        return s.error("metadata VALUE record without a type and a value");
      const uint64_t typeId = r[0]; // (s.type() without an Expected for every value)
      TypeId t = valueType;
      if (typeId != valueTypeId) [[unlikely]] { // (most are of the type the last one was)
        if (typeId >= s.typeMap.size() || s.typeMap[typeId] == kNoId)
          return s.undefinedType(typeId);
        t = s.typeMap[typeId];
        TypeKind k = m.types[t].kind;
        if (k == TypeKind::Metadata || k == TypeKind::Void)
          return s.error("metadata VALUE of type metadata or void");
        valueTypeId = typeId;
        valueType = t;
      }
      // The value looked up before the entry is made (nothing to reload after the call).
      const uint64_t v = r[1];
      ValueId value = kNoId;
      if (v < s.valueIds.size() && s.valueIds[v] != kNoId) [[likely]] {
        value = s.valueIds[v];
        if (m.values[value].type != t)
          return s.error("metadata VALUE whose value has another type");
      }
      Metadata &md = newMetadata(s);
      md.kind = MetadataKind::Value;
      md.function = function;
      if (value != kNoId) [[likely]] {
        md.value = value;
      } else {
        const MetadataId id = MetadataId(m.metadata.size() - 1);
        s.fixups.push_back({Fixup::Target::MetadataValue, id,
                            uint32_t(v > 0xFFFFFFFFu ? 0xFFFFFFFFu : v), t, s.rec.bitOffset});
      }
      break;
    }
    case kNode:
    case kDistinctNode:
    node : {
      const size_t n = r.size();
      const uint32_t firstOperand = uint32_t(m.metadataOperands.size());
      // Appended one by one into room made once (a resize would zero them first: a memset
      // call per node).
      ArenaVector<MetadataId> &slots = m.metadataOperands;
      if (slots.capacity() - slots.size() < n) [[unlikely]]
        makeOperandRoom(slots, n);
      const uint64_t *ops = r.data();
      const MetadataId *ids = s.mdIds.data();
      const uint64_t known = s.mdIds.size();
      for (size_t k = 0; k < n; ++k) {
        uint64_t op = ops[k];
        MetadataId id = kNoId;
        if (op - 1 < known) [[likely]] { // 0 (none) wraps around
          id = ids[op - 1];
        } else if (op != 0) {
          s.mdFixups.push_back(
              {uint32_t(firstOperand + k), uint32_t(op - 1 > 0xFFFFFFFFu ? 0xFFFFFFFFu : op - 1)});
        }
        if (slots.size() == slots.capacity()) // room for all was made above
          __builtin_unreachable();
        slots.push_back(id);
      }
      Metadata &md = newMetadata(s);
      md.kind = s.rec.code == kNode ? MetadataKind::Node : MetadataKind::DistinctNode;
      md.function = function;
      md.firstOperand = firstOperand;
      md.numOperands = uint32_t(n);
      break;
    }
    case kName: // the name goes to the strings at once (its NAMED_NODE must follow)
      if (charCount != BitstreamReader::kNotChars) [[likely]] {
        pendingName = run.take(s, charCount);
      } else {
        run.flush(s);
        pendingName = s.addString(std::span<const uint64_t>(r));
      }
      havePendingName = true;
      unusual = true;
      break;
    case kNamedNode: {
      if (!havePendingName)
        return s.error("NAMED_NODE without a NAME before it");
      havePendingName = false;
      unusual = watch.watching();
      NamedMetadata nm;
      nm.name = pendingName;
      nm.firstOperand = uint32_t(m.metadataOperands.size());
      nm.numOperands = uint32_t(r.size());
      for (uint64_t op : r) {
        if (op >= s.mdIds.size())
          return s.error("named metadata operand " + std::to_string(op) + " is not defined");
        MetadataKind k = m.metadata[s.mdIds[op]].kind;
        if (k == MetadataKind::String || k == MetadataKind::Value)
          return s.error("named metadata operand that is not a node");
        m.metadataOperands.push_back(s.mdIds[op]);
      }
      appendNamed(m.namedMetadata, nm);
      break;
    }
    case kKind:
      run.flush(s);
      if (std::optional<Diagnostic> bad = readKind(s))
        return std::move(*bad);
      break;
    case kGlobalDeclAttachment: {
      if (r.empty() || r.size() % 2 == 0)
        return s.error("GLOBAL_DECL_ATTACHMENT record of the wrong length");
      uint64_t v = r[0];
      if (v >= s.valueIds.size() || s.valueIds[v] == kNoId)
        return s.error("attachment on a value that does not exist");
      const Value &val = m.values[s.valueIds[v]];
      AttachmentRange range;
      if (Status st = readAttachmentPairs(s, 1, range); !st)
        return st;
      if (val.kind == ValueKind::GlobalVariable)
        m.globals[val.index].attachments = range;
      else if (val.kind == ValueKind::Function)
        m.functions[val.index].attachments = range;
      else
        return s.error("attachment on a value that is not a global or function");
      break;
    }
    case kIndexOffset:
    case kIndex:
      break; // a lazy-loading index: not needed when reading everything
    case kOldNode:
    case kOldFnNode:
      return s.error("metadata from before LLVM 3.6 is not supported");
    case kAttachment:
      return s.error("ATTACHMENT record outside an attachment block");
    default: {
      // A specialized node (debug information...), kept as its record.
      const uint32_t firstWord = uint32_t(m.words.size());
      m.words.insert(m.words.end(), r.begin(), r.end());
      Metadata &md = newMetadata(s);
      md.kind = MetadataKind::Record;
      md.code = s.rec.code;
      md.function = function;
      md.firstWord = firstWord;
      md.numWords = uint32_t(r.size());
      break;
    }
    }
  }
  run.flush(s);
  if (havePendingName)
    return s.bs.error("metadata NAME at the end of its block");
  watch.done(s);
  for (size_t i = firstFixup; i < s.mdFixups.size(); ++i) {
    auto [slot, id] = s.mdFixups[i];
    if (id >= s.mdIds.size() || s.mdIds[id] == kNoId)
      return s.bs.error("metadata operand " + std::to_string(id) + " refers to no metadata");
    m.metadataOperands[slot] = s.mdIds[id];
  }
  s.mdFixups.resize(firstFixup);
  // Values of module-level metadata are all known by now; function-local ones may name
  // instructions further on, which the function resolves when it ends.
  if (function == kNoId)
    if (std::optional<Diagnostic> bad = resolveFixups(s, s.fixups, firstValueFixup))
      return std::move(*bad);
  return {};
}

Status readMetadataKindBlock(ReaderState &s) {
  if (s.bs.remembers() && kindsFromMemo(s))
    return {};
  KindBlockWatch watch(s, true);
  BitstreamEntry e; // (next() sets it in a block: not reset for every entry)
  for (;;) {
    if (!s.bs.next(e))
      return s.bs.takeError();
    if (e.kind == BitstreamEntry::Kind::EndBlock) {
      watch.done(s);
      return {};
    }
    if (e.kind == BitstreamEntry::Kind::SubBlock) {
      watch.subBlock();
      if (Status st = s.bs.skipBlock(); !st)
        return st;
      continue;
    }
    if (e.kind != BitstreamEntry::Kind::Record)
      return s.bs.error("the data ends inside the metadata kind block");
    if (!s.bs.read(e.id, s.rec))
      return s.bs.takeError();
    watch.record(e.id, s.rec.code);
    if (s.rec.code == kKind)
      if (std::optional<Diagnostic> bad = readKind(s))
        return std::move(*bad);
  }
}

Status readMetadataAttachmentBlock(ReaderState &s, uint32_t function) {
  LlvmModule &m = s.m;
  BitstreamEntry e; // (next() sets it in a block: not reset for every entry)
  for (;;) {
    if (!s.bs.next(e))
      return s.bs.takeError();
    if (e.kind == BitstreamEntry::Kind::EndBlock)
      return {};
    if (e.kind == BitstreamEntry::Kind::SubBlock) {
      if (Status st = s.bs.skipBlock(); !st)
        return st;
      continue;
    }
    if (e.kind != BitstreamEntry::Kind::Record)
      return s.bs.error("the data ends inside an attachment block");
    if (!s.bs.read(e.id, s.rec))
      return s.bs.takeError();
    if (s.rec.code != kAttachment)
      continue;
    const auto &r = s.rec.ops;
    if (r.size() % 2) {
      const Function &fn = m.functions[function];
      uint64_t index = r[0];
      uint32_t count = uint32_t(m.instructions.size() - fn.firstInstruction);
      if (index >= count)
        return s.error("attachment on instruction " + std::to_string(index) + " of " +
                       std::to_string(count));
      AttachmentRange range;
      if (Status st = readAttachmentPairs(s, 1, range); !st)
        return st;
      m.instructions[fn.firstInstruction + index].attachments = range;
    } else {
      AttachmentRange range;
      if (Status st = readAttachmentPairs(s, 0, range); !st)
        return st;
      m.functions[function].attachments = range;
    }
  }
}

namespace {

/// Module-level value symbol tables this thread has read: programs from one writer often name
/// the same globals and functions alike. What such a block gives is a list of (value id as the
/// bitcode numbers it, name), a function of its width, bytes and BLOCKINFO's definitions (its
/// records are abbreviated with them: the reader's blockInfoIdentity() names those); it is
/// applied through the reader's value ids, which must name a value each (or the block is read,
/// which reports the first that does not). Only blocks read without error are kept, the eight
/// latest kept (a block found here is not kept again).
class SymtabMemo {
public:
  static constexpr unsigned kSlots = 8;
  static constexpr size_t kMaxBytes = 16384;
  struct Entry {
    uint64_t value;              ///< the record's value id
    uint32_t nameAt, nameLength; ///< in `names`
  };
  struct Block {
    RememberedBody body;
    uint64_t blockInfo = 0; ///< the reader's blockInfoIdentity() when it was read
    uint64_t sample = 0;    ///< bodySample() of the body
    std::string names;      ///< the names, one after the other, as the module's strings got them
    std::vector<Entry> entries;
  };

  const Block *find(const BitstreamReader::BlockBody &body, uint64_t blockInfo) const {
    return ring_.find(body, [&](const Block &b) {
      return b.blockInfo == blockInfo && b.sample == bodySample(body.bytes) && b.body.matches(body);
    });
  }
  /// The entries of the block being read (watched), in order.
  std::vector<Entry> pending;
  /// Remembers `body`, whose names are the module's strings from `firstString` on.
  void insert(const BitstreamReader::BlockBody &body, uint64_t blockInfo, const LlvmModule &m,
              uint32_t firstString) {
    Block &b = ring_.insert(body); // the oldest slot
    b.body.assign(body);
    b.sample = bodySample(body.bytes);
    b.blockInfo = blockInfo;
    b.names.assign(m.strings.data() + firstString, m.strings.size() - firstString);
    b.entries.swap(pending);
    pending.clear();
  }
  static SymtabMemo &forThread() { return detail::perThread<SymtabMemo>(); }

private:
  BlockRing<Block, kSlots> ring_;
};

/// At the start of a module-level value symbol table of a reader that remembers: when the block
/// is one of the memo's and every value it names is there, names them and leaves the block.
[[gnu::noinline]] bool symtabFromMemo(ReaderState &s, const BitstreamReader::BlockBody &body) {
  const SymtabMemo::Block *b = SymtabMemo::forThread().find(body, s.bs.blockInfoIdentity());
  if (!b)
    return false;
  const size_t count = s.valueIds.size();
  for (const SymtabMemo::Entry &e : b->entries)
    if (e.value >= count || s.valueIds[e.value] == kNoId)
      return false; // read it: the record says which
  const uint32_t base = s.addString(b->names).offset;
  for (const SymtabMemo::Entry &e : b->entries)
    s.m.values[s.valueIds[e.value]].name = StrRef{base + e.nameAt, e.nameLength};
  s.bs.leaveBlock();
  return true;
}

[[gnu::flatten]] Status readSymtabRecords(ReaderState &s, uint32_t function,
                                          std::vector<SymtabMemo::Entry> *watch,
                                          uint32_t firstString) {
  LlvmModule &m = s.m;
  StringRun run;
  CharAbbrevs charAbbrevs;
  size_t charCount = BitstreamReader::kNotChars;
  BitstreamEntry e; // (next() sets it in a block: not reset for every entry)
  for (;;) {
    if (!s.bs.next(e))
      return s.bs.takeError();
    if (e.kind == BitstreamEntry::Kind::EndBlock) {
      run.flush(s);
      return {};
    }
    if (e.kind == BitstreamEntry::Kind::SubBlock) {
      if (Status st = s.bs.skipBlock(); !st)
        return st;
      continue;
    }
    if (e.kind != BitstreamEntry::Kind::Record)
      return s.bs.error("the data ends inside a value symbol table");
    // (Entries' names as bytes: VST_ENTRY and VST_BBENTRY, whose names follow one operand.)
    if (!readRecord(s, e, run, charAbbrevs, charCount, uint64_t(1) << 1 | uint64_t(1) << 2, 1))
      return s.bs.takeError();
    const auto &r = s.rec.ops;
    switch (s.rec.code) {
    case 1:   // VST_ENTRY: [valueid, name...]
    case 3: { // VST_FNENTRY: [valueid, offset, name...]
      size_t nameAt = s.rec.code == 1 ? 1 : 2;
      if (charCount != BitstreamReader::kNotChars) { // a VST_ENTRY's name read as bytes
        if (charCount == 0)
          break; // (as below: no name)
      } else {
        if (r.size() < nameAt)
          return s.error("value symbol table entry too short");
        if (r.size() == nameAt)
          break; // a version 2 function entry: its name is in the string table
      }
      uint64_t v = r[0];
      if (v >= s.valueIds.size() || s.valueIds[v] == kNoId)
        return s.error("name for value " + std::to_string(v) + " that does not exist");
      StrRef name;
      if (charCount != BitstreamReader::kNotChars) [[likely]] {
        name = run.take(s, charCount);
      } else {
        run.flush(s);
        name = s.addString(std::span<const uint64_t>(r).subspan(nameAt));
      }
      m.values[s.valueIds[v]].name = name;
      if (watch)
        watch->push_back({v, name.offset - firstString, name.size});
      break;
    }
    case 2: { // VST_BBENTRY: [bb, name...]
      if (function == kNoId || r.empty())
        return s.error("block name outside a function");
      const Function &fn = m.functions[function];
      if (r[0] >= fn.numBlocks)
        return s.error("name for block " + std::to_string(r[0]) + " that does not exist");
      StrRef name;
      if (charCount != BitstreamReader::kNotChars) [[likely]] {
        name = run.take(s, charCount);
      } else {
        run.flush(s);
        name = s.addString(std::span<const uint64_t>(r).subspan(1));
      }
      m.values[m.blocks[fn.firstBlock + r[0]].value].name = name;
      break;
    }
    default:
      break;
    }
  }
}

} // namespace

Status readValueSymtabBlock(ReaderState &s, uint32_t function) {
  if (function != kNoId || !s.bs.remembers() || s.bs.blockInfoIdentity() == 0)
    return readSymtabRecords(s, function, nullptr, 0);
  // A module's table, in a reader that remembers: from the memo, or read and remembered.
  const BitstreamReader::BlockBody body = s.bs.blockBody();
  if (body.bytes.empty() || body.bytes.size() > SymtabMemo::kMaxBytes)
    return readSymtabRecords(s, function, nullptr, 0);
  if (symtabFromMemo(s, body))
    return {};
  const uint64_t blockInfo = s.bs.blockInfoIdentity();
  SymtabMemo &memo = SymtabMemo::forThread();
  memo.pending.clear();
  const uint32_t firstString = uint32_t(s.m.strings.size());
  if (Status st = readSymtabRecords(s, function, &memo.pending, firstString); !st)
    return st;
  // (A BLOCKINFO block inside it would have changed the identity: not kept then.)
  if (s.bs.blockInfoIdentity() == blockInfo)
    memo.insert(body, blockInfo, s.m, firstString);
  return {};
}

} // namespace spire::dxil::detail
