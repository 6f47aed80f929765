// The TYPE_BLOCK: LLVM types, uniqued, with identified structs that may be referenced before
// their record (through pointers).
#include "BitcodeReaderState.h"
#include "PerThread.h"
#include "ReaderSupport.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace spire::dxil::detail {

namespace {

enum TypeCode : uint32_t {
  kNumEntry = 1,
  kVoid = 2,
  kFloat = 3,
  kDouble = 4,
  kLabel = 5,
  kOpaque = 6,
  kInteger = 7,
  kPointer = 8,
  kFunctionOld = 9,
  kHalf = 10,
  kArray = 11,
  kVector = 12,
  kX86Fp80 = 13,
  kFp128 = 14,
  kPpcFp128 = 15,
  kMetadata = 16,
  kX86Mmx = 17,
  kStructAnon = 18,
  kStructName = 19,
  kStructNamed = 20,
  kFunction = 21,
  kToken = 22,
  kBFloat = 23,
  kX86Amx = 24,
  kOpaquePointer = 25,
};

/// The kinds of the records without operands, by code (Void for the other codes).
constexpr auto kPlainKind = [] {
  std::array<TypeKind, 26> kinds{};
  kinds[kVoid] = TypeKind::Void;
  kinds[kHalf] = TypeKind::Half;
  kinds[kBFloat] = TypeKind::BFloat;
  kinds[kFloat] = TypeKind::Float;
  kinds[kDouble] = TypeKind::Double;
  kinds[kX86Fp80] = TypeKind::X86Fp80;
  kinds[kFp128] = TypeKind::Fp128;
  kinds[kPpcFp128] = TypeKind::PpcFp128;
  kinds[kLabel] = TypeKind::Label;
  kinds[kMetadata] = TypeKind::Metadata;
  kinds[kX86Mmx] = TypeKind::X86Mmx;
  kinds[kX86Amx] = TypeKind::X86Amx;
  kinds[kToken] = TypeKind::Token;
  return kinds;
}();

/// Empty intern table slots, for the first table of most type blocks.
constexpr std::array<ReaderState::InternSlot, 256> kEmptyInternSlots{};

bool isValidElement(TypeKind k, bool forArray) {
  switch (k) {
  case TypeKind::Void:
  case TypeKind::Label:
  case TypeKind::Metadata:
  case TypeKind::Function:
  case TypeKind::Token:
    return false;
  case TypeKind::X86Mmx:
  case TypeKind::X86Amx:
    return forArray;
  default:
    return true;
  }
}

/// A struct may reach itself through pointers only: by value it would have no size.
Status checkNoSelfContainment(ReaderState &s) {
  const LlvmModule &m = s.m;
  ReaderState::Vector<uint8_t> color(m.types.size(), 0, s.scratch); // 0 new, 1 open, 2 done
  ReaderState::Vector<std::pair<TypeId, uint32_t>> stack(s.scratch);
  for (TypeId root = 0; root < m.types.size(); ++root) {
    if (color[root])
      continue;
    stack.push_back({root, 0});
    color[root] = 1;
    while (!stack.empty()) {
      auto &[t, next] = stack.back();
      const Type &ty = m.types[t];
      bool byValue =
          ty.kind == TypeKind::Struct || ty.kind == TypeKind::Array || ty.kind == TypeKind::Vector;
      if (!byValue || next >= ty.numElements) {
        color[t] = 2;
        stack.pop_back();
        continue;
      }
      TypeId e = m.typeElements[ty.firstElement + next++];
      if (color[e] == 1)
        return s.bs.error("a struct type contains itself");
      if (color[e] == 0) {
        color[e] = 1;
        stack.push_back({e, 0});
      }
    }
  }
  return {};
}

/// Type blocks this thread has read into a module without types, with the tables they built.
/// Programs from one writer often carry the same type block byte for byte, and what a block
/// builds in a module without types is a function of its abbreviation width and bytes (its
/// abbreviations all its own: none from BLOCKINFO) and of one thing outside it: NUMENTRY's count
/// is checked against the bits left after its record, and sizes the type map from them (the
/// cursor's own checks of counts against the bits left are met by the bits the body holds: each
/// operand, array element and blob byte it counts takes some). So a
/// block is kept with where its one NUMENTRY record ended, and only when that count fitted the
/// bits left as the record's own (count * 4 bits at most), as it must again. A block with
/// sub-blocks, or with anything but records between its first record and its end (a BLOCKINFO
/// block the cursor absorbs changes what later blocks read), is not kept.
class TypeBlockMemo {
public:
  static constexpr unsigned kSlots = 8;
  static constexpr size_t kMaxBytes = 16384;
  /// A block and what it built, all in one buffer of its own (kept from block to block: one
  /// copy a table when it is remembered, without a vector's bookkeeping for each):
  /// the types, then the intern table's slots, the elements, the type map and pointerIn0,
  /// then the body's bytes and the names' characters.
  struct Block {
    unsigned width = 0;       ///< the body's abbreviation width
    uint64_t sample = 0;      ///< bodySample() of the body
    uint64_t declared = 0;    ///< NUMENTRY's count
    uint64_t numEntryEnd = 0; ///< the bit after NUMENTRY's record, from the body's start
    uint32_t namesStart = 0;  ///< where the names started in its module's strings
    size_t internCount = 0;
    // How many of each (their names as the block's module had them, from namesStart).
    size_t bodyBytes = 0, types = 0, intern = 0, elements = 0, typeMap = 0, pointerIn0 = 0,
           names = 0;
    std::unique_ptr<uint64_t[]> storage;
    size_t storageWords = 0;

    const Type *typesAt() const { return reinterpret_cast<const Type *>(storage.get()); }
    const ReaderState::InternSlot *internAt() const {
      return reinterpret_cast<const ReaderState::InternSlot *>(typesAt() + types);
    }
    const TypeId *elementsAt() const {
      return reinterpret_cast<const TypeId *>(internAt() + intern);
    }
    const TypeId *typeMapAt() const { return elementsAt() + elements; }
    const TypeId *pointerIn0At() const { return typeMapAt() + typeMap; }
    const uint8_t *bodyAt() const {
      return reinterpret_cast<const uint8_t *>(pointerIn0At() + pointerIn0);
    }
    const char *namesAt() const { return reinterpret_cast<const char *>(bodyAt() + bodyBytes); }

    bool matches(const BitstreamReader::BlockBody &body) const {
      return width == body.abbrevWidth && bodyBytes == body.bytes.size() &&
             sample == bodySample(body.bytes) &&
             std::memcmp(bodyAt(), body.bytes.data(), bodyBytes) == 0;
    }
  };
  static_assert(alignof(Type) <= alignof(uint64_t) && sizeof(Type) % alignof(TypeId) == 0 &&
                sizeof(ReaderState::InternSlot) % alignof(TypeId) == 0);

  /// The block equal to `body` whose NUMENTRY fits `bitsLeft` (from the body's start) as it did.
  const Block *find(const BitstreamReader::BlockBody &body, uint64_t bitsLeft) const {
    return ring_.find(body, [&](const Block &b) {
      return b.matches(body) && b.declared <= (bitsLeft - b.numEntryEnd) / 4;
    });
  }
  /// The oldest slot, for `body`.
  Block &insert(const BitstreamReader::BlockBody &body) { return ring_.insert(body); }
  static TypeBlockMemo &forThread() { return detail::perThread<TypeBlockMemo>(); }

private:
  BlockRing<Block, kSlots> ring_;
};

/// Whether the module has no types yet and the type block just entered takes no abbreviations
/// from BLOCKINFO: the state a remembered block was read in.
bool freshTypes(const ReaderState &s) {
  return s.m.types.empty() && s.m.typeElements.empty() && s.typeMap.empty() &&
         s.typeIntern.empty() && s.typeInternCount == 0 && s.pointerIn0.empty() &&
         s.declaredTypes == 0 && s.bs.abbrevCount() == 0;
}

/// At the start of a type block of a reader that remembers, in a module without types: when the
/// block is one of the memo's, the tables it builds are the module's and the block is left.
[[gnu::noinline]] bool typesFromMemo(ReaderState &s, const BitstreamReader::BlockBody &body) {
  const TypeBlockMemo::Block *b = TypeBlockMemo::forThread().find(body, s.bs.bitsLeft());
  if (!b)
    return false;
  LlvmModule &m = s.m;
  const uint32_t base = uint32_t(m.strings.size());
  m.strings.append(b->namesAt(), b->names);
  m.types.insert(m.types.end(), b->typesAt(), b->typesAt() + b->types);
  if (base != b->namesStart)
    for (Type &t : m.types)
      if (t.name.size)
        t.name.offset += base - b->namesStart;
  m.typeElements.insert(m.typeElements.end(), b->elementsAt(), b->elementsAt() + b->elements);
  s.typeMap.assign(b->typeMapAt(), b->typeMapAt() + b->typeMap);
  // (A range assign into a std::pmr vector copies slot by slot; the table's empty slots are
  // copied in one memcpy, and the remembered ones over them in another.)
  s.typeIntern.assign(kEmptyInternSlots.begin(),
                      kEmptyInternSlots.begin() + std::min(b->intern, kEmptyInternSlots.size()));
  s.typeIntern.resize(b->intern);
  std::memcpy(s.typeIntern.data(), b->internAt(), b->intern * sizeof(ReaderState::InternSlot));
  s.typeInternCount = b->internCount;
  s.pointerIn0.assign(b->pointerIn0At(), b->pointerIn0At() + b->pointerIn0);
  s.declaredTypes = b->declared;
  s.bs.leaveBlock();
  return true;
}

/// Reads the records of one type block. Elements go straight to the module's typeElements (a
/// literal type equal to an earlier one takes them back), and a struct's name straight to its
/// strings.
class TypeBlockReader {
public:
  explicit TypeBlockReader(ReaderState &s) : s_(s), m_(s.m) {}
  /// Follows the block to remember it (see TypeBlockMemo): `body` is the block's, entered in a
  /// module without types.
  void watch(const BitstreamReader::BlockBody &body) {
    watch_ = true;
    body_ = body;
    bodyStart_ = s_.bs.bitPosition();
    namesStart_ = uint32_t(m_.strings.size());
  }

  [[gnu::flatten]] Status run() {
    uint64_t recordBits = 0; // (for the memo: the records' bits, their ids included)
    BitstreamEntry e;        // (next() sets it in a block: not reset for every entry)
    for (;;) {
      if (!s_.bs.next(e))
        return s_.bs.takeError();
      if (e.kind != BitstreamEntry::Kind::Record) [[unlikely]] {
        if (e.kind == BitstreamEntry::Kind::EndBlock)
          break;
        if (e.kind == BitstreamEntry::Kind::SubBlock) {
          watch_ = false;
          if (Status st = s_.bs.skipBlock(); !st)
            return st;
          continue;
        }
        return s_.bs.error("the data ends inside the type block");
      }
      // STRUCT_NAME's characters straight to the module's strings (readChars), through its
      // abbreviation's layout, found at the block's first name read the general way; a name
      // readChars leaves to the general path goes to record().
      if (e.id == nameId_) {
        const size_t n = s_.bs.readChars(nameAbbrev_, e.id, s_.rec, nameChars_, kNameRoom);
        if (n == BitstreamReader::kReadFailed) [[unlikely]]
          return s_.bs.takeError();
        recordBits += s_.bs.bitPosition() - s_.rec.bitOffset;
        if (n != BitstreamReader::kNotChars) [[likely]] { // (its code the literal's)
          pendingName_ = StrRef{uint32_t(m_.strings.size()), uint32_t(n)};
          m_.strings.append(nameChars_, n);
          continue;
        }
        if (!record(e.id)) [[unlikely]]
          return std::move(*failure_);
        continue;
      }
      if (!s_.bs.read(e.id, s_.rec))
        return s_.bs.takeError();
      recordBits += s_.bs.bitPosition() - s_.rec.bitOffset; // (no test: cheaper)
      if (!record(e.id)) [[unlikely]]
        return std::move(*failure_);
    }
    Status st = finish();
    if (watch_ && st)
      remember(recordBits);
    return st;
  }

private:
  /// At the block's first STRUCT_NAME, of abbreviation `id`: whether readChars takes it
  /// (characters alone after a literal code); nameId_ then.
  [[gnu::noinline]] void findName(uint32_t id) {
    nameTried_ = true;
    if (id < kFirstApplicationAbbrev)
      return;
    const BitstreamReader::CharAbbrev a = s_.bs.charAbbrev(id);
    if (a.state == BitstreamReader::CharAbbrev::kChars && a.codeWidth == 0 &&
        a.code == kStructName && a.valueWidth == 0) {
      nameAbbrev_ = a;
      nameId_ = id;
    }
  }

  /// Remembers the block just read (without error) when its one NUMENTRY was its first entry
  /// that counts (no BLOCKINFO block before it) and fitted the bits after it as its own, and
  /// its records (`recordBits` in all) fill the block from there to its END_BLOCK: a BLOCKINFO
  /// block between them, 64 bits at least, would leave more than END_BLOCK's alignment can.
  [[gnu::noinline]] void remember(uint64_t recordBits) {
    const unsigned width = body_.abbrevWidth;
    const uint64_t end = bodyStart_ + uint64_t(body_.bytes.size()) * 8;
    if (numEntries_ != 1 || !numEntryFirst_ || !numEntryFits_ ||
        body_.bytes.size() > TypeBlockMemo::kMaxBytes ||
        ((numEntryStart_ + recordBits + width + 31) & ~uint64_t(31)) != end)
      return;
    TypeBlockMemo::Block &b = TypeBlockMemo::forThread().insert(body_);
    b.width = width;
    b.sample = bodySample(body_.bytes);
    b.declared = s_.declaredTypes;
    b.numEntryEnd = numEntryEnd_;
    b.namesStart = namesStart_;
    b.internCount = s_.typeInternCount;
    b.bodyBytes = body_.bytes.size();
    b.types = m_.types.size();
    b.intern = s_.typeIntern.size();
    b.elements = m_.typeElements.size();
    b.typeMap = s_.typeMap.size();
    b.pointerIn0 = s_.pointerIn0.size();
    b.names = m_.strings.size() - namesStart_;
    const size_t bytes = b.types * sizeof(Type) + b.intern * sizeof(ReaderState::InternSlot) +
                         (b.elements + b.typeMap + b.pointerIn0) * sizeof(TypeId) + b.bodyBytes +
                         b.names;
    const size_t words = (bytes + 7) / 8;
    if (words > b.storageWords) {
      b.storage = std::make_unique_for_overwrite<uint64_t[]>(words);
      b.storageWords = words;
    }
    auto put = [](const auto *at, const auto *from, size_t n) {
      if (n)
        std::memcpy(const_cast<void *>(static_cast<const void *>(at)), from, n * sizeof(*at));
    };
    put(b.typesAt(), m_.types.data(), b.types);
    put(b.internAt(), s_.typeIntern.data(), b.intern);
    put(b.elementsAt(), m_.typeElements.data(), b.elements);
    put(b.typeMapAt(), s_.typeMap.data(), b.typeMap);
    put(b.pointerIn0At(), s_.pointerIn0.data(), b.pointerIn0);
    put(b.bodyAt(), body_.bytes.data(), b.bodyBytes);
    put(b.namesAt(), m_.strings.data() + namesStart_, b.names);
  }

  /// The type of bitcode id `id` into `out`; false (failure_ set) on an error.
  [[gnu::always_inline]] bool ref(uint64_t id, TypeId &out) {
    if (id < s_.typeMap.size()) [[likely]] {
      TypeId t = s_.typeMap[id];
      if (t != kNoId) [[likely]] {
        out = t;
        return true;
      }
    }
    out = refSlow(id);
    return out != kNoId;
  }

  /// A reference to a type not defined yet: a struct defined later (a placeholder until its
  /// record), or an error.
  /// (Its type returned, not stored through a reference: the callers' locals stay in registers.)
  /// kNoId (failure_ set) on an error.
  [[gnu::noinline]] TypeId refSlow(uint64_t id) {
    if (id >= s_.declaredTypes) {
      fail("type id " + std::to_string(id) + " out of range");
      return kNoId;
    }
    if (s_.typeMap.size() <= id)
      s_.typeMap.resize(id + 1, kNoId);
    Type t;
    t.kind = TypeKind::Struct;
    t.identified = true;
    t.opaque = true;
    t.firstElement = uint32_t(m_.typeElements.size());
    const TypeId out = TypeId(m_.types.size());
    s_.typeMap[id] = out;
    m_.types.push_back(t);
    ++openPlaceholders_;
    return out;
  }

  [[gnu::cold, gnu::noinline]] bool fail(std::string message) {
    failure_.emplace(s_.error(std::move(message)));
    return false;
  }
  TypeId failId(std::string message) {
    fail(std::move(message));
    return kNoId;
  }

  TypeKind kindOf(TypeId t) const { return m_.types[t].kind; }

  /// The types of `count` bitcode ids at `ids` into `out`, each checked by `valid` (its kind);
  /// false (failure_ set, `message` when one is not valid) on an error.
  /// With `Hash`, each type is folded into `*hash` as well (ReaderState::typeHashStep).
  template <bool Hash, class Valid>
  [[gnu::always_inline]] bool refs(const uint64_t *ids, size_t count, TypeId *out, Valid valid,
                                   const char *message, uint64_t *hash = nullptr) {
    uint64_t h = Hash ? *hash : 0;
    // Locals: the stores to `out` could alias the tables for the compiler.
    const TypeId *map = s_.typeMap.data();
    size_t mapSize = s_.typeMap.size();
    const Type *types = m_.types.data();
    for (size_t i = 0; i < count; ++i) {
      const uint64_t id = ids[i];
      TypeId el;
      if (id < mapSize && map[id] != kNoId) [[likely]] {
        el = map[id];
      } else {
        el = refSlow(id);
        if (el == kNoId)
          return false;
        map = s_.typeMap.data();
        mapSize = s_.typeMap.size();
        types = m_.types.data();
      }
      if (!valid(i, types[el].kind)) [[unlikely]]
        return fail(message);
      out[i] = el;
      if constexpr (Hash)
        h = ReaderState::typeHashStep(h, el);
    }
    if constexpr (Hash)
      *hash = h;
    return true;
  }

  /// Room for a record's `count` elements: on the stack for most.
  TypeId *elementRoom(size_t count) {
    if (count <= kStackElements) [[likely]]
      return stackElements_;
    bigElements_.resize(count);
    return bigElements_.data();
  }

  /// A function type from its record's operands from `First` on (return type, parameters),
  /// its hash taken as its elements are found (no second pass over them); kNoId (failure_ set)
  /// on an error.
  template <size_t First> [[gnu::always_inline]] TypeId functionType(const uint64_t *r, size_t n) {
    if (n < First + 1) {
      fail("type record too short");
      return kNoId;
    }
    const size_t count = n - First;
    TypeId *elements = elementRoom(count);
    Type t;
    t.kind = TypeKind::Function;
    t.varArg = r[0] != 0;
    uint64_t hash = ReaderState::typeHashStart(t);
    if (!refs<true>(
            r + First, 1, elements,
            [](size_t, TypeKind k) {
              return !(k == TypeKind::Function || k == TypeKind::Label || k == TypeKind::Metadata);
            },
            "function returning a function, label or metadata", &hash))
      return kNoId;
    if (!refs<true>(
            r + First + 1, count - 1, elements + 1,
            [](size_t, TypeKind k) { // (one bit test: neither void nor a function)
              constexpr uint32_t bad =
                  1u << unsigned(TypeKind::Void) | 1u << unsigned(TypeKind::Function);
              return !((bad >> unsigned(k)) & 1);
            },
            "function parameter of type void or function", &hash))
      return kNoId;
    return s_.internNewHashed(t, elements, uint32_t(count), uint32_t(hash >> 32));
  }

  /// The record just read, of abbreviation `abbrevId`.
  [[gnu::always_inline]] bool record(uint32_t abbrevId) {
    const uint64_t *r = s_.rec.ops.data();
    const size_t n = s_.rec.ops.size();
    const uint32_t code = s_.rec.code;
    // One dispatch: each record that defines a type tests room() first.
    TypeId id;
    switch (code) {
    case kStructName:
      if (!nameTried_) [[unlikely]]
        findName(abbrevId);
      pendingName_ = s_.addString(std::span<const uint64_t>(r, n));
      return true;
    case kNumEntry:
      return numEntry(r, n);
    case kPointer: {
      if (!room())
        return false;
      if (n < 1)
        return fail("type record too short");
      TypeId pointee;
      if (!ref(r[0], pointee))
        return false;
      TypeKind pk = kindOf(pointee);
      if (pk == TypeKind::Void || pk == TypeKind::Label || pk == TypeKind::Metadata ||
          pk == TypeKind::Token)
        return fail("pointer to a type that cannot be pointed to");
      uint32_t addressSpace = 0;
      if (n > 1) {
        if (r[1] > 0xFFFFFF)
          return fail("address space out of range");
        addressSpace = uint32_t(r[1]);
      }
      if (addressSpace == 0 && pointee < s_.pointerIn0.size()) [[likely]] {
        id = s_.pointerIn0[pointee];
        if (id == kNoId)
          id = s_.newPointerIn0(pointee);
      } else {
        id = s_.pointerTo(pointee, addressSpace);
      }
      break;
    }
    case kFunction: // (TYPE_CODE_FUNCTION: [vararg, return type, parameters...])
      if (!room())
        return false;
      id = functionType<1>(r, n);
      if (id == kNoId)
        return false;
      break;
    case kFunctionOld: // (the old form: [vararg, attributes, return type, parameters...])
      if (!room())
        return false;
      id = functionType<2>(r, n);
      if (id == kNoId)
        return false;
      break;
    case kInteger: {
      if (!room())
        return false;
      if (n < 1)
        return fail("type record too short");
      if (r[0] < 1 || r[0] > (1u << 24) - 1)
        return fail("integer width " + std::to_string(r[0]) + " out of range");
      Type t;
      t.kind = TypeKind::Integer;
      t.bits = uint32_t(r[0]);
      id = s_.internNew(t, nullptr, 0);
      break;
    }
    case kStructAnon:
    case kStructNamed: {
      if (!room())
        return false;
      if (n < 1)
        return fail("type record too short");
      const size_t count = n - 1;
      TypeId *elements = elementRoom(count);
      if (!refs<false>(
              r + 1, count, elements, [](size_t, TypeKind k) { return isValidElement(k, false); },
              "struct member of a type that cannot be a member"))
        return false;
      if (code == kStructNamed) {
        const uint32_t firstElement = uint32_t(m_.typeElements.size());
        m_.typeElements.insert(m_.typeElements.end(), elements, elements + count);
        return defineStruct(false, r[0] != 0, firstElement);
      }
      Type t;
      t.kind = TypeKind::Struct;
      t.packed = r[0] != 0;
      id = s_.internNew(t, elements, uint32_t(count));
      break;
    }
    case kOpaque:
      if (!room())
        return false;
      return defineStruct(true, false, uint32_t(m_.typeElements.size()));
    case kArray:
    case kVector: {
      if (!room())
        return false;
      if (n < 2)
        return fail("type record too short");
      TypeId el;
      if (!ref(r[1], el))
        return false;
      TypeKind k = kindOf(el);
      if (!isValidElement(k, code == kArray))
        return fail("array or vector of a type that cannot be an element");
      Type t;
      if (code == kVector) {
        if (r[0] == 0 || r[0] > 0xFFFFFFFFu ||
            !(k == TypeKind::Integer || k == TypeKind::Pointer || k == TypeKind::Half ||
              k == TypeKind::BFloat || k == TypeKind::Float || k == TypeKind::Double ||
              k == TypeKind::X86Fp80 || k == TypeKind::Fp128 || k == TypeKind::PpcFp128))
          return fail("invalid vector type");
        t.scalable = n > 2 && r[2];
      }
      t.kind = code == kArray ? TypeKind::Array : TypeKind::Vector;
      t.count = r[0];
      id = s_.internNew(t, &el, 1);
      break;
    }
    case kVoid:
    case kHalf:
    case kBFloat:
    case kFloat:
    case kDouble:
    case kX86Fp80:
    case kFp128:
    case kPpcFp128:
    case kLabel:
    case kMetadata:
    case kX86Mmx:
    case kX86Amx:
    case kToken: { // (one or two a module each)
      if (!room())
        return false;
      Type t;
      t.kind = kPlainKind[code];
      id = s_.internNew(t, nullptr, 0);
      break;
    }
    default:
      if (!room())
        return false;
      id = otherType(r, n, code);
      if (id == kNoId)
        return false;
      break;
    }
    // Only a forward reference (a struct placeholder) defines an id past the records read.
    if (s_.typeMap[next_] != kNoId) [[unlikely]]
      return fail("type " + std::to_string(next_) +
                  " was referenced as a struct before its record");
    s_.typeMap[next_++] = id;
    return true;
  }

  [[gnu::always_inline]] bool room() {
    if (next_ < room_) [[likely]]
      return true;
    return makeRoom();
  }

  /// Below room_, the next type id is declared and the type map has its slot: one test a
  /// record. Otherwise both are checked here (the map grown) and room_ found again.
  [[gnu::noinline]] bool makeRoom() {
    if (next_ >= s_.declaredTypes)
      return fail("more type records than NUMENTRY declared");
    if (s_.typeMap.size() <= next_)
      s_.typeMap.resize(next_ + 1, kNoId);
    room_ = std::min<uint64_t>(s_.declaredTypes, s_.typeMap.size());
    return true;
  }

  /// The rare records: the opaque pointer, and unknown codes. Its type, or kNoId (failure_
  /// set) on an error.
  [[gnu::noinline]] TypeId otherType(const uint64_t *r, size_t n, uint32_t code) {
    if (code != kOpaquePointer)
      return failId("unknown type record code " + std::to_string(code));
    if (n < 1)
      return failId("type record too short");
    if (r[0] > 0xFFFFFF)
      return failId("address space out of range");
    Type t;
    t.kind = TypeKind::Pointer;
    t.bits = uint32_t(r[0]);
    return s_.intern(t, {});
  }

  [[gnu::noinline]] bool numEntry(const uint64_t *r, size_t n) {
    if (n == 0 || r[0] > s_.bs.bitsLeft())
      return fail("NUMENTRY larger than the rest of the data can define");
    if (watch_) {
      ++numEntries_;
      numEntryFirst_ = s_.bs.recordIndex() == 1;
      numEntryStart_ = s_.rec.bitOffset;
      numEntryEnd_ = s_.bs.bitPosition() - bodyStart_;
      numEntryFits_ = r[0] <= s_.bs.bitsLeft() / 4;
    }
    s_.declaredTypes = r[0];
    room_ = 0; // (found again at the next record)
    // Room for the declared types at once, as many as the bits left could hold (a record
    // takes more than 4 bits), so that a hostile count allocates nothing large.
    const size_t want = size_t(std::min<uint64_t>(r[0], s_.bs.bitsLeft() / 4));
    if (s_.typeMap.size() < want)
      s_.typeMap.resize(want, kNoId);
    // The intern table and pointerIn0 sized for the types to come as well (up to a bound),
    // sparing their growth and the general intern's path for the first types. About half the
    // types are literal ones other than pointers, which the table takes at most half full.
    const size_t expected = std::min<size_t>(want, 4096) + 16;
    if (s_.typeInternCount == 0 && s_.typeIntern.size() < expected) {
      size_t slots = 64;
      while (slots < expected)
        slots *= 2;
      // (Copied from empty slots made once: one memcpy, where filling them is a loop.)
      if (slots <= kEmptyInternSlots.size())
        s_.typeIntern.assign(kEmptyInternSlots.begin(), kEmptyInternSlots.begin() + slots);
      else
        s_.typeIntern.assign(slots, ReaderState::InternSlot{});
    }
    if (s_.pointerIn0.size() < m_.types.size() + expected)
      s_.pointerIn0.resize(m_.types.size() + expected, kNoId);
    return true;
  }

  /// An identified struct, its members (if any) the module's last elements from `firstElement`.
  bool defineStruct(bool opaque, bool packed, uint32_t firstElement) {
    TypeId id = s_.typeMap[next_];
    if (id != kNoId) { // fill the placeholder made by a forward reference
      --openPlaceholders_;
      filledPlaceholder_ = true;
    } else {
      id = TypeId(m_.types.size());
      append(m_.types, Type{});
    }
    Type &slot = m_.types[id];
    slot.kind = TypeKind::Struct;
    slot.identified = true;
    slot.opaque = opaque;
    slot.packed = packed;
    slot.firstElement = firstElement;
    slot.numElements = uint32_t(m_.typeElements.size() - firstElement);
    if (pendingName_.size)
      slot.name = pendingName_;
    pendingName_ = StrRef{};
    s_.typeMap[next_++] = id;
    return true;
  }

  Status finish() {
    // Every id below next_ is defined; past it, only placeholders are set.
    if (openPlaceholders_)
      for (size_t i = next_; i < s_.typeMap.size(); ++i)
        if (s_.typeMap[i] != kNoId)
          return s_.bs.error("type " + std::to_string(i) + " is referenced but never defined");
    if (next_ < s_.declaredTypes)
      return s_.bs.error("the type block defines fewer types than NUMENTRY declared");
    // Without a forward reference, every type's elements are types made before it, and no
    // type can reach itself: only a placeholder filled later can close a cycle.
    if (!filledPlaceholder_)
      return {};
    return checkNoSelfContainment(s_);
  }

  static constexpr size_t kStackElements = 32;
  /// STRUCT_NAME through readChars: names of up to kNameRoom characters (longer ones to the
  /// general path).
  static constexpr size_t kNameRoom = 256;

  ReaderState &s_;
  LlvmModule &m_;
  TypeId stackElements_[kStackElements];
  ReaderState::Vector<TypeId> bigElements_{s_.scratch};
  uint64_t next_ = 0;  ///< the bitcode id the next type record defines
  uint64_t room_ = 0;  ///< min(declaredTypes, the type map's size), or less (see makeRoom)
  StrRef pendingName_; ///< the last STRUCT_NAME's, for the next identified struct
  uint32_t openPlaceholders_ = 0;
  bool filledPlaceholder_ = false;
  /// (Optional: a Diagnostic made and destroyed for every block costs ~100 instructions.)
  std::optional<Diagnostic> failure_;
  // Watching the block for the memo.
  bool watch_ = false;
  bool numEntryFits_ = false;
  bool numEntryFirst_ = false;
  uint32_t numEntries_ = 0;
  uint32_t namesStart_ = 0;
  uint64_t bodyStart_ = 0;
  uint64_t numEntryEnd_ = 0;
  uint64_t numEntryStart_ = 0;
  BitstreamReader::BlockBody body_;
  // STRUCT_NAME's abbreviation as readChars takes it (an id's definition does not change
  // inside its block), found by findName at the block's first name: 0 (no record's id) until
  // then, or when readChars does not take it.
  bool nameTried_ = false;
  uint32_t nameId_ = 0;
  BitstreamReader::CharAbbrev nameAbbrev_;
  char nameChars_[kNameRoom + 8]; ///< (readChars writes 8 bytes past)
};

} // namespace

Status readTypeBlock(ReaderState &s) {
  TypeBlockReader reader(s);
  if (s.bs.remembers() && freshTypes(s)) {
    const BitstreamReader::BlockBody body = s.bs.blockBody();
    if (!body.bytes.empty()) {
      if (typesFromMemo(s, body))
        return {};
      reader.watch(body);
    }
  }
  return reader.run();
}

} // namespace spire::dxil::detail
