// The bitcode file and its module block: magic and wrapper, the string table, module records
// (triple, data layout, globals, functions), and dispatch to the block readers.
#include "spire/dxil/BitcodeReader.h"

#include "BitcodeReaderState.h"
#include "PerThread.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>
#include <type_traits>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace spire::dxil {

namespace detail {

StrRef ReaderState::addString(std::string_view s) {
  StrRef r{uint32_t(m.strings.size()), uint32_t(s.size())};
  m.strings.append(s);
  return r;
}

/// An arena of blocks freed together when it goes (what std::pmr::monotonic_buffer_resource
/// does), with an allocation that fits its block a few instructions in its one virtual call
/// (the library's takes about 57, through a call of its own): the reader's and the module's
/// tables make about 40 allocations a program. Its first block is given (not freed) or taken
/// from the heap at the first allocation; each later one is at least twice the one before.
/// (Defined here alone: where the block readers see it, the compiler guesses it for their
/// tables' growth and their hot loops lose registers, +67K instructions in the constants.)
class BumpArena final : public std::pmr::memory_resource {
public:
  /// An arena whose first block is `bytes` at `first`, which it does not free.
  BumpArena(void *first, size_t bytes)
      : at_(reinterpret_cast<uintptr_t>(first)), end_(at_ + bytes), nextBytes_(bytes) {}
  /// An arena whose first block, taken at the first allocation, holds at least `bytes`.
  explicit BumpArena(size_t bytes) : nextBytes_(bytes) {}
  BumpArena(const BumpArena &) = delete;
  BumpArena &operator=(const BumpArena &) = delete;
  ~BumpArena() override;

private:
  void *do_allocate(size_t bytes, size_t align) override;
  void do_deallocate(void *, size_t, size_t) override {}
  bool do_is_equal(const std::pmr::memory_resource &o) const noexcept override {
    return this == &o;
  }
  /// A new block holding `bytes` aligned to `align`, at least twice the last; the allocation.
  [[gnu::noinline]] void *allocateBlock(size_t bytes, size_t align);

  uintptr_t at_ = 0, end_ = 0;
  size_t nextBytes_;
  void *blocks_ = nullptr; ///< the heap blocks, each starting with a pointer to the one before
};

BumpArena::~BumpArena() {
  while (blocks_) {
    void *previous = *static_cast<void **>(blocks_);
    ::operator delete(blocks_);
    blocks_ = previous;
  }
}

void *BumpArena::do_allocate(size_t bytes, size_t align) {
  const uintptr_t p = (at_ + (align - 1)) & ~uintptr_t(align - 1);
  // (No room when empty: at_ and end_ are 0. Zero bytes go the slow way, which takes one.)
  if (p <= end_ && bytes - 1 < end_ - p) [[likely]] {
    at_ = p + bytes;
    return reinterpret_cast<void *>(p);
  }
  return allocateBlock(bytes, align);
}

std::unique_ptr<std::pmr::memory_resource> newBumpArena(size_t firstBytes) {
  return std::make_unique<BumpArena>(firstBytes);
}

void *BumpArena::allocateBlock(size_t bytes, size_t align) {
  if (bytes == 0) // (the fast path's test sends them here): a byte, where there is room
    return BumpArena::do_allocate(1, align);
  // A header (the previous block) and room for the alignment; sizes that overflow fail in
  // operator new.
  const size_t header = sizeof(void *) + align;
  const size_t need = bytes > SIZE_MAX - header ? SIZE_MAX : bytes + header;
  const size_t size = std::max(need, nextBytes_);
  void *block = ::operator new(size);
  *static_cast<void **>(block) = blocks_;
  blocks_ = block;
  nextBytes_ = size > SIZE_MAX / 2 ? size : size * 2;
  const uintptr_t start = reinterpret_cast<uintptr_t>(block) + sizeof(void *);
  const uintptr_t p = (start + (align - 1)) & ~uintptr_t(align - 1);
  at_ = p + bytes;
  end_ = reinterpret_cast<uintptr_t>(block) + size;
  return reinterpret_cast<void *>(p);
}

namespace {

#if defined(__SSE2__)
/// The low bytes of the four operands at `chars`, as four 32-bit lanes.
inline __m128i lowBytesOf4(const uint64_t *chars) {
  const __m128i low = _mm_set1_epi64x(0xFF);
  __m128 a = _mm_castsi128_ps(
      _mm_and_si128(_mm_loadu_si128(reinterpret_cast<const __m128i *>(chars)), low));
  __m128 b = _mm_castsi128_ps(
      _mm_and_si128(_mm_loadu_si128(reinterpret_cast<const __m128i *>(chars + 2)), low));
  return _mm_castps_si128(_mm_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0)));
}

/// The low bytes of the 16 operands at `chars`, stored at `out`.
inline void narrow16(char *out, const uint64_t *chars) {
  const __m128i words0 = _mm_packs_epi32(lowBytesOf4(chars), lowBytesOf4(chars + 4));
  const __m128i words1 = _mm_packs_epi32(lowBytesOf4(chars + 8), lowBytesOf4(chars + 12));
  _mm_storeu_si128(reinterpret_cast<__m128i *>(out), _mm_packus_epi16(words0, words1));
}

/// The low bytes of the 8 operands at `chars`, stored at `out`.
inline void narrow8(char *out, const uint64_t *chars) {
  const __m128i words = _mm_packs_epi32(lowBytesOf4(chars), lowBytesOf4(chars + 4));
  _mm_storel_epi64(reinterpret_cast<__m128i *>(out), _mm_packus_epi16(words, words));
}
#endif

/// Each character's low byte (a record's operands are 64-bit).
[[gnu::always_inline]] inline void narrowChars(char *__restrict out,
                                               const uint64_t *__restrict chars, size_t n) {
#if defined(__SSE2__)
  // Sixteen at a time, the last sixteen overlapping the ones before (no tail loop).
  if (n >= 16) {
    for (size_t i = 0; i + 16 < n; i += 16)
      narrow16(out + i, chars + i);
    narrow16(out + n - 16, chars + n - 16);
    return;
  }
#endif
  for (size_t i = 0; i < n; ++i)
    out[i] = char(uint8_t(chars[i]));
}

} // namespace

StrRef ReaderState::addString(std::span<const uint64_t> chars) {
  StrRef r{uint32_t(m.strings.size()), uint32_t(chars.size())};
#if defined(__SSE2__)
  // Most strings (names, metadata strings) are short: narrowed on the stack and appended in one
  // copy (a resize would zero their room first, a memset call each; the byte loop is long).
  const size_t n = chars.size();
  if (n >= 8 && n <= 64) {
    alignas(16) char buf[64];
    if (n >= 16) {
      narrowChars(buf, chars.data(), n);
    } else {
      narrow8(buf, chars.data());
      narrow8(buf + n - 8, chars.data() + n - 8);
    }
    m.strings.append(buf, n);
    return r;
  }
#endif
  m.strings.resize(m.strings.size() + chars.size());
  narrowChars(m.strings.data() + r.offset, chars.data(), chars.size());
  return r;
}

Diagnostic ReaderState::undefinedType(uint64_t bitcodeId) const {
  return error("type id " + std::to_string(bitcodeId) + " is not defined");
}

namespace {

bool sameLiteral(const LlvmModule &m, const Type &o, const Type &t,
                 std::span<const TypeId> elements) {
  return o.kind == t.kind && o.packed == t.packed && o.varArg == t.varArg &&
         o.scalable == t.scalable && o.bits == t.bits && o.count == t.count &&
         o.numElements == elements.size() &&
         std::equal(elements.begin(), elements.end(), m.typeElements.begin() + o.firstElement);
}

/// Doubles the intern table (64 slots to begin with), keeping it at most half full.
[[gnu::noinline]] void growIntern(ReaderState &s) {
  ReaderState::Vector<ReaderState::InternSlot> old = std::move(s.typeIntern);
  s.typeIntern.assign(old.empty() ? 64 : old.size() * 2, ReaderState::InternSlot{});
  const size_t mask = s.typeIntern.size() - 1;
  for (const ReaderState::InternSlot &slot : old)
    if (slot.id != kNoId)
      for (size_t i = slot.hash & mask;; i = (i + 1) & mask)
        if (s.typeIntern[i].id == kNoId) {
          s.typeIntern[i] = slot;
          break;
        }
}

/// The slot of the type equal to `t` with `elements` in the intern table, or the empty slot
/// where it goes.
ReaderState::InternSlot &findLiteral(ReaderState &s, const Type &t,
                                     std::span<const TypeId> elements, uint32_t hash) {
  if ((s.typeInternCount + 1) * 2 > s.typeIntern.size()) [[unlikely]]
    growIntern(s);
  const size_t mask = s.typeIntern.size() - 1;
  for (size_t i = hash & mask;; i = (i + 1) & mask) {
    ReaderState::InternSlot &slot = s.typeIntern[i];
    if (slot.id == kNoId ||
        (slot.hash == hash && sameLiteral(s.m, s.m.types[slot.id], t, elements)))
      return slot;
  }
}

/// A new type, `t` with the `count` elements at `firstElement`, filling the empty `slot`.
TypeId addLiteral(ReaderState &s, const Type &t, uint32_t firstElement, uint32_t count,
                  ReaderState::InternSlot &slot, uint32_t hash) {
  Type copy = t;
  copy.firstElement = firstElement;
  copy.numElements = count;
  TypeId id = TypeId(s.m.types.size());
  append(s.m.types, copy);
  slot = {hash, id};
  ++s.typeInternCount;
  return id;
}

/// intern() for any type but a pointer in address space 0.
TypeId internLiteral(ReaderState &s, const Type &t, std::span<const TypeId> elements) {
  const uint32_t hash = ReaderState::typeHash(t, elements.data(), elements.size());
  ReaderState::InternSlot &slot = findLiteral(s, t, elements, hash);
  if (slot.id != kNoId)
    return slot.id;
  const uint32_t first = uint32_t(s.m.typeElements.size());
  s.m.typeElements.insert(s.m.typeElements.end(), elements.begin(), elements.end());
  return addLiteral(s, t, first, uint32_t(elements.size()), slot, hash);
}

} // namespace

TypeId ReaderState::intern(const Type &t, std::span<const TypeId> elements) {
  if (t.kind == TypeKind::Pointer && elements.size() == 1)
    return pointerTo(elements[0], t.bits);
  return internLiteral(*this, t, elements);
}

TypeId ReaderState::pointerToSlow(TypeId pointee, uint32_t addressSpace) {
  Type t;
  t.kind = TypeKind::Pointer;
  t.bits = addressSpace;
  if (addressSpace != 0)
    return internLiteral(*this, t, std::span<const TypeId>(&pointee, 1));
  if (pointee >= pointerIn0.size())
    pointerIn0.resize(std::max<size_t>({size_t(pointee) + 1, pointerIn0.size() * 2, 64}), kNoId);
  return newPointerIn0(pointee);
}

Status ReaderState::skipRestOfBlock() {
  for (;;) {
    BitstreamEntry e;
    if (!bs.next(e))
      return bs.takeError();
    switch (e.kind) {
    case BitstreamEntry::Kind::EndBlock:
      return {};
    case BitstreamEntry::Kind::SubBlock:
      if (Status st = bs.skipBlock(); !st)
        return st;
      break;
    case BitstreamEntry::Kind::Record:
      if (Status st = bs.skipRecord(e.id); !st)
        return st;
      break;
    case BitstreamEntry::Kind::EndOfStream:
      return bs.error("the data ends inside a block");
    }
  }
}

std::optional<Diagnostic> resolveFixupsFrom(ReaderState &s, std::pmr::vector<Fixup> &fixups,
                                            size_t from) {
  for (size_t i = from; i < fixups.size(); ++i) {
    const Fixup &f = fixups[i];
    ValueId v = f.bitcodeId < s.valueIds.size() ? s.valueIds[f.bitcodeId] : kNoId;
    if (v == kNoId)
      return s.bs.errorAt(f.bit, "value id " + std::to_string(f.bitcodeId) + " refers to no value");
    if (f.type != kNoId && s.m.values[v].type != f.type)
      return s.bs.errorAt(f.bit, "value id " + std::to_string(f.bitcodeId) +
                                     " has another type than its use expects");
    switch (f.target) {
    case Fixup::Target::Operand:
      s.m.operands[f.index] = v;
      break;
    case Fixup::Target::GlobalInitializer: // module-level: never an argument or instruction
      s.m.globals[f.index].initializer = v;
      break;
    case Fixup::Target::MetadataValue:
      s.m.metadata[f.index].value = v;
      break;
    case Fixup::Target::FunctionField: {
      Function &fn = s.m.functions[f.index / 4];
      (f.index % 4 == 0 ? fn.prologue : f.index % 4 == 1 ? fn.prefix : fn.personality) = v;
      break;
    }
    }
  }
  fixups.resize(from);
  return std::nullopt;
}

namespace {

Linkage decodeLinkage(uint64_t v) {
  switch (v) {
  case 2:
    return Linkage::Appending;
  case 3:
    return Linkage::Internal;
  case 7:
    return Linkage::ExternalWeak;
  case 8:
    return Linkage::Common;
  case 9:
  case 13:
  case 14:
    return Linkage::Private;
  case 12:
    return Linkage::AvailableExternally;
  case 1:
  case 16:
    return Linkage::WeakAny;
  case 10:
  case 17:
    return Linkage::WeakOdr;
  case 4:
  case 18:
    return Linkage::LinkOnceAny;
  case 11:
  case 19:
    return Linkage::LinkOnceOdr;
  default:
    return Linkage::External;
  }
}

bool isLocalLinkage(Linkage l) { return l == Linkage::Internal || l == Linkage::Private; }

Visibility decodeVisibility(uint64_t v) {
  return v == 1 ? Visibility::Hidden : v == 2 ? Visibility::Protected : Visibility::Default;
}

UnnamedAddr decodeUnnamedAddr(uint64_t v) {
  return v == 1 ? UnnamedAddr::Global : v == 2 ? UnnamedAddr::Local : UnnamedAddr::None;
}

Expected<uint64_t> decodeAlign(ReaderState &s, uint64_t v) {
  if (v > 33)
    return s.error("alignment exponent " + std::to_string(v) + " too large");
  return v == 0 ? uint64_t(0) : uint64_t(1) << (v - 1);
}

/// Reads the [offset, size] name prefix of a version 2 record from the string table.
Expected<StrRef> strtabName(ReaderState &s, size_t &op) {
  if (s.version < 2)
    return StrRef{};
  if (s.rec.ops.size() < 2)
    return s.error("record too short for its string table name");
  uint64_t offset = s.rec.ops[0], size = s.rec.ops[1];
  op = 2;
  if (offset > s.strtab.size() || size > s.strtab.size() - offset)
    return s.error("name outside the string table");
  return s.addString(
      std::string_view(reinterpret_cast<const char *>(s.strtab.data()) + offset, size_t(size)));
}

Status readGlobalVar(ReaderState &s) {
  size_t o = 0;
  Expected<StrRef> name = strtabName(s, o);
  if (!name)
    return name.error();
  const auto &r = s.rec.ops;
  if (r.size() < o + 6)
    return s.error("GLOBALVAR record too short");
  GlobalVariable g;
  bool explicitType = r[o + 1] & 2;
  Expected<TypeId> ty = s.type(r[o]);
  if (!ty)
    return ty.error();
  if (explicitType) {
    g.valueType = *ty;
    if ((r[o + 1] >> 2) > 0xFFFFFF)
      return s.error("address space out of range");
    g.addressSpace = uint32_t(r[o + 1] >> 2);
  } else {
    const Type &pt = s.m.types[*ty];
    if (pt.kind != TypeKind::Pointer || pt.numElements == 0)
      return s.error("GLOBALVAR record whose type is not a pointer");
    g.valueType = s.m.elementType(*ty);
    g.addressSpace = pt.bits;
  }
  g.isConstant = r[o + 1] & 1;
  g.linkage = decodeLinkage(r[o + 3]);
  Expected<uint64_t> align = decodeAlign(s, r[o + 4]);
  if (!align)
    return align.error();
  g.align = *align;
  if (r[o + 5]) {
    if (r[o + 5] - 1 >= s.m.sections.size())
      return s.error("section index out of range");
    g.section = uint32_t(r[o + 5] - 1);
  }
  if (r.size() > o + 6)
    g.visibility = isLocalLinkage(g.linkage) ? Visibility::Default : decodeVisibility(r[o + 6]);
  if (r.size() > o + 7 && r[o + 7] <= 4)
    g.threadLocal = ThreadLocal(r[o + 7]);
  if (r.size() > o + 8)
    g.unnamedAddr = decodeUnnamedAddr(r[o + 8]);
  if (r.size() > o + 9)
    g.externallyInitialized = r[o + 9];
  if (r.size() > o + 10 && r[o + 10] <= 2)
    g.dllStorage = DllStorage(r[o + 10]);
  if (r.size() > o + 12 && r[o + 12]) {
    // attributes: an index into the attribute lists; globals keep the function-position set
    uint64_t list = r[o + 12] - 1;
    if (list >= s.attributeListIds.size())
      return s.error("attribute list index out of range");
    g.attributes = s.m.attributeSet(s.attributeListIds[list], AttributeList::kFunction);
  }
  if (r.size() > o + 13)
    g.dsoLocal = r[o + 13];
  uint32_t index = uint32_t(s.m.globals.size());
  g.value = s.newValue(ValueKind::GlobalVariable, s.pointerTo(g.valueType, g.addressSpace), index);
  s.m.values[g.value].name = *name;
  if (r[o + 2]) {
    s.moduleFixups.push_back({Fixup::Target::GlobalInitializer, index, uint32_t(r[o + 2] - 1),
                              g.valueType, s.rec.bitOffset});
  }
  s.valueIds.push_back(g.value);
  append(s.m.globals, g); // (room for 16 at the first: most programs have none, and no room)
  return {};
}

/// (An optional diagnostic, not a Status: a Status builds and destroys a whole Diagnostic for
/// every record.)
std::optional<Diagnostic> readFunctionRecord(ReaderState &s) {
  size_t o = 0;
  StrRef name;
  if (s.version >= 2) {
    Expected<StrRef> n = strtabName(s, o);
    if (!n)
      return n.error();
    name = *n;
  }
  // The fields read into locals and the function assembled in one (the record's operands were
  // loaded again after every store into the table's entry, and its size taken more than once).
  const size_t size = s.rec.ops.size();
  if (size < o + 8)
    return s.error("FUNCTION record too short");
  const uint64_t *r = s.rec.ops.data() + o;
  const size_t rest = size - o;
  LlvmModule &m = s.m;
  // (s.type() without an Expected for every function)
  if (r[0] >= s.typeMap.size() || s.typeMap[r[0]] == kNoId)
    return s.undefinedType(r[0]);
  TypeId fnTy = s.typeMap[r[0]];
  if (m.types[fnTy].kind == TypeKind::Pointer && m.types[fnTy].numElements)
    fnTy = m.elementType(fnTy);
  if (m.types[fnTy].kind != TypeKind::Function)
    return s.error("FUNCTION record whose type is not a function type");
  if (r[1] > 1023)
    return s.error("calling convention out of range");
  const uint32_t index = uint32_t(m.functions.size());
  // Made in place (a module that fails is dropped whole: an entry left half made by a later
  // error is never seen).
  Function &f = append(m.functions, Function{});
  f.functionType = fnTy;
  f.callingConv = uint32_t(r[1]);
  f.isDeclaration = r[2] != 0;
  f.linkage = decodeLinkage(r[3]);
  if (r[4]) {
    const uint64_t list = r[4] - 1;
    if (list >= s.attributeListIds.size())
      return s.error("attribute list index out of range");
    f.attributes = s.attributeListIds[list];
  }
  if (r[5] > 33) // (decodeAlign, without an Expected for every function)
    return s.error("alignment exponent " + std::to_string(r[5]) + " too large");
  f.align = r[5] == 0 ? uint64_t(0) : uint64_t(1) << (r[5] - 1);
  if (r[6]) {
    if (r[6] - 1 >= m.sections.size())
      return s.error("section index out of range");
    f.section = uint32_t(r[6] - 1);
  }
  f.visibility = isLocalLinkage(f.linkage) ? Visibility::Default : decodeVisibility(r[7]);
  if (rest == 15 && (r[8] | r[10] | r[13] | r[14]) == 0) [[likely]] {
    // LLVM 3.7's record (DXC's): no gc name, prologue, prefix or personality.
    f.unnamedAddr = decodeUnnamedAddr(r[9]);
    if (r[11] <= 2)
      f.dllStorage = DllStorage(r[11]);
  } else if (rest > 8) {
    if (r[8]) {
      if (r[8] - 1 >= m.gcNames.size())
        return s.error("gc name index out of range");
      f.gc = uint32_t(r[8] - 1);
    }
    if (rest > 9)
      f.unnamedAddr = decodeUnnamedAddr(r[9]);
    auto field = [&](size_t at, uint32_t which) __attribute__((always_inline)) {
      if (rest > at && r[at])
        s.moduleFixups.push_back({Fixup::Target::FunctionField, index * 4 + which,
                                  uint32_t(r[at] - 1), kNoId, s.rec.bitOffset});
    };
    field(10, 0);
    if (rest > 11 && r[11] <= 2)
      f.dllStorage = DllStorage(r[11]);
    field(13, 1);
    field(14, 2);
    if (rest > 15)
      f.dsoLocal = r[15];
    if (rest > 16) {
      if (r[16] > 0xFFFFFF)
        return s.error("address space out of range");
      f.addressSpace = uint32_t(r[16]);
    }
  }
  f.value = ValueId(m.values.size());
  append(m.values, Value{ValueKind::Function, s.pointerTo(fnTy, f.addressSpace), index, name});
  append(s.valueIds, f.value);
  if (!f.isDeclaration)
    append(s.bodies, index);
  return {};
}

Status readAliasRecord(ReaderState &s, bool old) {
  size_t o = 0;
  Expected<StrRef> name = strtabName(s, o);
  if (!name)
    return name.error();
  const auto &r = s.rec.ops;
  Alias a;
  Expected<TypeId> ty = s.type(r.size() > o ? r[o] : ~uint64_t(0));
  if (!ty)
    return ty.error();
  size_t at = o + 1;
  if (old) {
    const Type &pt = s.m.types[*ty];
    if (pt.kind != TypeKind::Pointer || !pt.numElements)
      return s.error("ALIAS record whose type is not a pointer");
    a.valueType = s.m.elementType(*ty);
    a.addressSpace = pt.bits;
  } else {
    a.valueType = *ty;
    if (r.size() <= at)
      return s.error("ALIAS record too short");
    a.addressSpace = uint32_t(r[at++] & 0xFFFFFF);
  }
  if (r.size() < at + 2)
    return s.error("ALIAS record too short");
  uint32_t index = uint32_t(s.m.aliases.size());
  s.moduleFixups.push_back({Fixup::Target::Operand, uint32_t(s.m.operands.size()), uint32_t(r[at]),
                            kNoId, s.rec.bitOffset});
  s.m.operands.push_back(kNoId); // patched into aliasee after the module
  a.aliasee = ValueId(s.m.operands.size() - 1);
  a.linkage = decodeLinkage(r[at + 1]);
  if (r.size() > at + 2)
    a.visibility = isLocalLinkage(a.linkage) ? Visibility::Default : decodeVisibility(r[at + 2]);
  if (r.size() > at + 3 && r[at + 3] <= 2)
    a.dllStorage = DllStorage(r[at + 3]);
  if (r.size() > at + 4 && r[at + 4] <= 4)
    a.threadLocal = ThreadLocal(r[at + 4]);
  if (r.size() > at + 5)
    a.unnamedAddr = decodeUnnamedAddr(r[at + 5]);
  if (r.size() > at + 6)
    a.dsoLocal = r[at + 6];
  a.value = s.newValue(ValueKind::Alias, s.pointerTo(a.valueType, a.addressSpace), index);
  s.m.values[a.value].name = *name;
  s.valueIds.push_back(a.value);
  s.m.aliases.push_back(a);
  return {};
}

/// A record whose operands are characters, as a string.
void assignRecordString(const BitstreamRecord &rec, std::pmr::string &out) {
  out.resize(rec.ops.size());
  narrowChars(out.data(), rec.ops.data(), rec.ops.size()); // (sixteen at a time)
}

/// Reads (or skips) a sub-block of the module block, announced with `id`.
Status readSubBlock(ReaderState &s, uint32_t id) {
  switch (id) {
  case kTypeBlock:
  case kParamAttrGroupBlock:
  case kParamAttrBlock:
  case kConstantsBlock:
  case kMetadataBlock:
  case kMetadataKindBlock:
  case kValueSymtabBlock:
    break;
  case kFunctionBlock: {
    if (s.nextBody >= s.bodies.size())
      return s.bs.error("a function body with no function left to define");
    if (s.nextBody == 0) {
      // Everything module-level is known: initializers, aliasees and function fields.
      s.moduleValueCount = uint32_t(s.valueIds.size());
      if (std::optional<Diagnostic> bad = resolveFixups(s, s.moduleFixups, 0))
        return std::move(*bad);
    }
    if (!s.bs.enter(id))
      return s.bs.takeError();
    return readFunctionBlock(s, s.bodies[s.nextBody++]);
  }
  default:
    return s.bs.skipBlock();
  }
  if (!s.bs.enter(id))
    return s.bs.takeError();
  switch (id) {
  case kTypeBlock:
    return readTypeBlock(s);
  case kParamAttrGroupBlock:
    if (s.bs.remembers() && attributesFromMemo(s))
      return {};
    return readParamAttrGroupBlock(s);
  case kParamAttrBlock:
    if (s.bs.remembers() && attributesFromMemo(s))
      return {};
    return readParamAttrBlock(s);
  case kConstantsBlock: // (the module's value and metadata counts: set by the caller after)
    return readConstantsBlock(s, kNoId);
  case kMetadataBlock:
    return readMetadataBlock(s, kNoId);
  case kMetadataKindBlock:
    return readMetadataKindBlock(s);
  default: // kValueSymtabBlock
    return readValueSymtabBlock(s, kNoId);
  }
}

/// Reads a top-level STRTAB block just announced: its last STRTAB_BLOB is the string table.
Status readStrtabBlock(ReaderState &s, BitstreamReader &bs) {
  if (Status st = bs.enterBlock(kStrtabBlock); !st)
    return st;
  for (;;) {
    BitstreamEntry r;
    if (!bs.next(r))
      return bs.takeError();
    if (r.kind == BitstreamEntry::Kind::EndBlock)
      return {};
    if (r.kind == BitstreamEntry::Kind::SubBlock) {
      if (Status st = bs.skipBlock(); !st)
        return st;
      continue;
    }
    if (r.kind != BitstreamEntry::Kind::Record)
      return bs.error("the data ends inside the string table");
    if (!bs.read(r.id, s.rec))
      return bs.takeError();
    if (s.rec.code == 1) // STRTAB_BLOB
      s.strtab = s.rec.blob;
  }
}

/// The string table of a version 2 module (its names are offsets into it), found by a pass of
/// its own over the top level of `bytes` (the bitcode past its magic): the table usually
/// follows the module. Versions before 2 (DXIL's) name nothing there and never pay for it.
Status findStrtab(ReaderState &s, std::span<const uint8_t> bytes) {
  BitstreamReader bs(bytes, 64, s.scratch);
  for (;;) {
    BitstreamEntry e;
    if (!bs.next(e))
      return bs.takeError();
    if (e.kind == BitstreamEntry::Kind::EndOfStream)
      return {};
    if (e.kind != BitstreamEntry::Kind::SubBlock)
      return bs.error("a top-level record outside any block");
    if (e.id == kStrtabBlock) {
      if (Status st = readStrtabBlock(s, bs); !st)
        return st;
    } else if (Status st = bs.skipBlock(); !st) {
      return st;
    }
  }
}

[[gnu::noinline]] Status readModuleBlock(ReaderState &s, std::span<const uint8_t> bytes,
                                         bool &strtabFound) {
  BitstreamEntry e; // (next() sets it in a block: not reset for every entry)
  for (;;) {
    if (!s.bs.next(e))
      return s.bs.takeError();
    if (e.kind == BitstreamEntry::Kind::EndOfStream)
      return s.bs.error("the data ends inside the module block");
    if (e.kind == BitstreamEntry::Kind::EndBlock)
      break;
    if (e.kind == BitstreamEntry::Kind::SubBlock) {
      // (Each block's Status returned as it is: no Status moved for every block.)
      if (Status st = readSubBlock(s, e.id); !st)
        return st;
      if (e.id == kConstantsBlock)
        s.moduleValueCount = uint32_t(s.valueIds.size());
      else if (e.id == kMetadataBlock)
        s.moduleMdCount = uint32_t(s.mdIds.size());
      continue;
    }
    if (!s.bs.read(e.id, s.rec))
      return s.bs.takeError();
    const auto &r = s.rec.ops;
    switch (s.rec.code) {
    case 1: // VERSION
      if (r.empty() || r[0] > 2)
        return s.error("unsupported module version");
      s.version = uint32_t(r[0]);
      s.m.version = s.version;
      s.useRelativeIds = s.version >= 1;
      if (s.version >= 2) { // (names from here on are in the string table)
        if (Status st = findStrtab(s, bytes); !st)
          return st;
        strtabFound = true;
      }
      break;
    case 2: // TRIPLE
      assignRecordString(s.rec, s.m.triple);
      break;
    case 3: // DATALAYOUT
      assignRecordString(s.rec, s.m.dataLayout);
      break;
    case 4: // ASM
      assignRecordString(s.rec, s.m.moduleAsm);
      break;
    case 5: // SECTIONNAME
      s.m.sections.push_back(s.addString(std::span<const uint64_t>(r)));
      break;
    case 11: // GCNAME
      s.m.gcNames.push_back(s.addString(std::span<const uint64_t>(r)));
      break;
    case 7: // GLOBALVAR
      if (Status st = readGlobalVar(s); !st)
        return st;
      break;
    case 8: // FUNCTION
      if (std::optional<Diagnostic> bad = readFunctionRecord(s))
        return std::move(*bad);
      break;
    case 9:  // ALIAS_OLD
    case 14: // ALIAS
      if (Status st = readAliasRecord(s, s.rec.code == 9); !st)
        return st;
      break;
    case 16: // SOURCE_FILENAME
      assignRecordString(s.rec, s.m.sourceFilename);
      break;
    default: // DEPLIB, COMDAT, VSTOFFSET, HASH, IFUNC...: not kept
      break;
    }
  }
  if (s.nextBody == 0)
    if (std::optional<Diagnostic> bad = resolveFixups(s, s.moduleFixups, 0))
      return std::move(*bad);
  if (s.nextBody != s.bodies.size())
    return s.bs.error("the module ends before every function defined has a body");
  // Aliasees were parked in operands; move them into the aliases.
  for (Alias &a : s.m.aliases)
    a.aliasee = s.m.operands[a.aliasee];
  return {};
}

/// Reads the identification block's producer string (for the module's information only).
Status readIdentification(ReaderState &s) {
  for (;;) {
    BitstreamEntry e;
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
      return s.bs.error("the data ends inside a block");
    if (!s.bs.read(e.id, s.rec))
      return s.bs.takeError();
    if (s.rec.code == 1)
      assignRecordString(s.rec, s.m.identification);
  }
}

} // namespace
} // namespace detail

bool isBitcode(std::span<const uint8_t> b) {
  if (b.size() >= 4 && b[0] == 'B' && b[1] == 'C' && b[2] == 0xC0 && b[3] == 0xDE)
    return true;
  return b.size() >= 4 && b[0] == 0xDE && b[1] == 0xC0 && b[2] == 0x17 && b[3] == 0x0B;
}

// The working tables live in the reader's scratch arena, which frees its blocks at once: each is
// made empty in place (its elements need no destructor), so that its own destructor does not
// give its memory back through a virtual deallocate that does nothing.
detail::ReaderState::~ReaderState() {
  auto forget = [r = scratch]<class Table>(Table &table) {
    static_assert(std::is_trivially_destructible_v<typename Table::value_type>);
    std::construct_at(&table, r);
  };
  forget(typeMap), forget(typeIntern), forget(pointerIn0), forget(valueIds);
  forget(fixups), forget(mdIds), forget(mdFixups), forget(groups), forget(attributeListIds);
  forget(attributeScratch), forget(positionScratch), forget(groupScratch), forget(bodies);
  forget(moduleFixups);
}

namespace {
// What a program of n bytes of bitcode takes: the module's tables with the reserves below (about
// 15n, more for large functions), the reader's working tables (abbreviations, records and maps:
// about 8 KB and n/2).
constexpr size_t kModuleArenaBytesPerByte = 24;
constexpr size_t kModuleArenaBaseBytes = 4096;
constexpr size_t kScratchArenaBytes = 16384;

/// The first block of the reader's working arena, one a thread, reused from read to read (a read
/// never runs inside another on one thread): no allocation and free of it for every program.
struct ScratchBlock {
  alignas(std::max_align_t) std::byte bytes[kScratchArenaBytes];
};

/// reserve() of a table that has never held anything (a fresh module's or reader's): told so,
/// the compiler drops the move of old elements and the release of old room.
template <class Vec> [[gnu::always_inline]] inline void reserveFresh(Vec &v, size_t n) {
  if (v.data() != nullptr || v.size() != 0 || v.capacity() != 0)
    __builtin_unreachable();
  v.reserve(n);
}

/// Reads the bitcode `bytes` (past the wrapper, magic checked) into `m`, whose arena was sized
/// from them.
Status readInto(LlvmModule &m, std::span<const uint8_t> bytes) {
  using namespace detail;
  // Two arenas instead of a heap allocation per table: the module's tables in the module's own
  // (its first block sized from the input: never from a count read from it), and the reader's
  // working tables in one of its own, freed on return. Each is one block for 218 of the 219
  // programs of the corpus.
  const size_t n = bytes.size();
  BumpArena scratch(detail::perThread<ScratchBlock>().bytes, kScratchArenaBytes);
  // Room in proportion to the input, to spare regrowth (which leaves the old copy in the arena).
  // (The factors cover every program of the DXIL corpus.)
  reserveFresh(m.values, n / 12);
  reserveFresh(m.operands, n / 3);
  reserveFresh(m.instructions, n / 12);
  reserveFresh(m.constants, n / 32);
  reserveFresh(m.types, n / 40 + 16);
  reserveFresh(m.typeElements, n / 16 + 16);
  m.strings.reserve(n / 2);
  reserveFresh(m.metadata, n / 24);
  reserveFresh(m.metadataOperands, n / 10);
  reserveFresh(m.words, 16); // (wide and data constants, records kept raw: a few in most programs)
  bytes = bytes.subspan(4);  // (past the magic)
  BitstreamReader bs(bytes, 64, &scratch);
  ReaderState s(bs, m, &scratch);
  s.rec.ops.reserve(256); // (the data layout and the longest names, without regrowth)
  reserveFresh(s.valueIds, n / 12);
  reserveFresh(s.mdIds, n / 24);
  reserveFresh(s.typeMap, n / 40 + 16);
  // Tables every DXIL program fills with a few entries: room for what most hold (fixed sizes),
  // sparing their growth one allocation at a time.
  reserveFresh(m.functions, 16);
  reserveFresh(m.metadataKinds, 32);
  reserveFresh(m.namedMetadata, 16);
  reserveFresh(m.attributes, 16);
  reserveFresh(m.attributeSets, 8);
  reserveFresh(m.attributeLists, 8);
  reserveFresh(m.attributeListEntries, 16);
  reserveFresh(s.bodies, 8);
  reserveFresh(s.groups, 8);
  reserveFresh(s.attributeListIds, 8);
  // (Not the attribute scratch: most programs' attribute blocks come from the memo.)

  bool sawModule = false;
  bool strtabFound = false; // (set by a version 2 module's scan for its string table)
  for (;;) {
    BitstreamEntry e;
    if (!bs.next(e))
      return bs.takeError();
    if (e.kind == BitstreamEntry::Kind::EndOfStream)
      break;
    if (e.kind != BitstreamEntry::Kind::SubBlock)
      return bs.error("a top-level record outside any block");
    if (e.id == kModuleBlock && !sawModule) {
      sawModule = true;
      if (Status st = bs.enterBlock(e.id); !st)
        return st;
      if (Status st = readModuleBlock(s, bytes, strtabFound); !st)
        return st;
    } else if (e.id == kIdentificationBlock) {
      if (Status st = bs.enterBlock(e.id); !st)
        return st;
      if (Status st = readIdentification(s); !st)
        return st;
    } else if (e.id == kStrtabBlock && !strtabFound) {
      // (Read as the version 2 scan would: its records checked even where no name uses them.)
      if (Status st = readStrtabBlock(s, bs); !st)
        return st;
    } else if (Status st = bs.skipBlock(); !st) {
      return st;
    }
  }
  if (!sawModule)
    return makeError(Location::bitcode("", 0, 0), "bitcode without a module block");
  m.callsTyped.set(s.callsTyped);
  return {};
}

/// The bitcode inside `bytes` (past a wrapper's header, if any) into `bytes`, or why there is
/// none.
std::optional<Diagnostic> unwrap(std::span<const uint8_t> &bytes) {
  auto fail = [](std::string message) {
    return makeError(Location::bitcode("", 0, 0), std::move(message));
  };
  if (bytes.size() >= 4 && bytes[0] == 0xDE && bytes[1] == 0xC0 && bytes[2] == 0x17 &&
      bytes[3] == 0x0B) {
    if (bytes.size() < 20)
      return fail("bitcode wrapper header shorter than 20 bytes");
    auto word = [&](size_t at) {
      return uint32_t(bytes[at]) | uint32_t(bytes[at + 1]) << 8 | uint32_t(bytes[at + 2]) << 16 |
             uint32_t(bytes[at + 3]) << 24;
    };
    uint64_t offset = word(8), size = word(12);
    if (offset > bytes.size() || size > bytes.size() - offset)
      return fail("bitcode wrapper points outside the file");
    bytes = bytes.subspan(size_t(offset), size_t(size));
  }
  if (bytes.size() < 4 ||
      !(bytes[0] == 'B' && bytes[1] == 'C' && bytes[2] == 0xC0 && bytes[3] == 0xDE))
    return fail("not LLVM bitcode (no 'BC' 0xC0DE magic)");
  if (bytes.size() % 4 != 0)
    return fail("bitcode size " + std::to_string(bytes.size()) + " is not a multiple of 4");
  return std::nullopt;
}

} // namespace

Expected<LlvmModule> readBitcode(std::span<const uint8_t> bytes) {
  // Read in place into the result, made in place, and one return of it (so that it is
  // returned in place: a return of another object anywhere would make every return a move).
  std::optional<Diagnostic> bad = unwrap(bytes);
  Expected<LlvmModule> result =
      bad ? Expected<LlvmModule>(std::move(*bad))
          : Expected<LlvmModule>(std::in_place,
                                 detail::newBumpArena(kModuleArenaBytesPerByte * bytes.size() +
                                                      kModuleArenaBaseBytes));
  if (!bad)
    if (Status st = readInto(*result, bytes); !st)
      result = st.error();
  return result;
}

} // namespace spire::dxil
