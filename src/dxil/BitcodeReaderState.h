// What the block readers of BitcodeReader share: the cursor, the module being built, and the
// maps from the bitcode's numbering (types, values, metadata) to the module's ids.
#pragma once

#include "spire/dxil/Bitstream.h"
#include "spire/dxil/LlvmModule.h"
#include "spire/support/Expected.h"

#include <cstdint>
#include <memory>
#include <memory_resource>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace spire::dxil::detail {

/// Block ids of LLVM IR bitcode.
enum BlockId : uint32_t {
  kModuleBlock = 8,
  kParamAttrBlock = 9,
  kParamAttrGroupBlock = 10,
  kConstantsBlock = 11,
  kFunctionBlock = 12,
  kIdentificationBlock = 13,
  kValueSymtabBlock = 14,
  kMetadataBlock = 15,
  kMetadataAttachmentBlock = 16,
  kTypeBlock = 17,
  kUselistBlock = 18,
  kModuleStrtabBlock = 19,
  kGlobalValSummaryBlock = 20,
  kOperandBundleTagsBlock = 21,
  kMetadataKindBlock = 22,
  kStrtabBlock = 23,
  kFullLtoSummaryBlock = 24,
  kSymtabBlock = 25,
  kSyncScopeNamesBlock = 26,
};

/// A monotonic arena (as std::pmr::monotonic_buffer_resource: blocks freed together when it
/// goes, each at least twice the one before) whose first block, taken at its first allocation,
/// holds at least `firstBytes`, with a cheaper allocation than the library's (BitcodeReader.cpp).
std::unique_ptr<std::pmr::memory_resource> newBumpArena(size_t firstBytes);

/// Doubles a vector's room; out of line (see append).
template <class Vec> [[gnu::noinline, gnu::cold]] void growRoom(Vec &v) {
  v.reserve(v.capacity() ? v.capacity() * 2 : 16);
}
/// push_back with its growth out of line, so that a hot caller saves no registers for it; the
/// entry appended.
template <class Vec, class T> [[gnu::always_inline]] inline auto &append(Vec &v, T &&x) {
  if (v.size() == v.capacity()) [[unlikely]]
    growRoom(v);
  if (v.data() + v.size() == v.data() + v.capacity())
    __builtin_unreachable();
  return v.emplace_back(std::forward<T>(x));
}

/// A reference to a value not read yet, patched when its block ends.
struct Fixup {
  enum class Target : uint8_t { Operand, GlobalInitializer, MetadataValue, FunctionField };
  Target target = Target::Operand;
  uint32_t index = 0; ///< into operands, globals, metadata, or functions*4+field
  uint32_t bitcodeId = 0;
  TypeId type = kNoId; ///< the type the reference expects (kNoId: any)
  uint64_t bit = 0;    ///< for the diagnostic
};

/// The reader's working tables live in `scratch`, an arena that goes with the read (the module's
/// tables are in the module's own arena).
struct ReaderState {
  ReaderState(BitstreamReader &bs, LlvmModule &m, std::pmr::memory_resource *scratch)
      : bs(bs), m(m), scratch(scratch) {}
  ReaderState(const ReaderState &) = delete;
  ReaderState &operator=(const ReaderState &) = delete;
  /// Leaves its tables to `scratch` (monotonic: it frees them at once), giving nothing back.
  ~ReaderState();

  BitstreamReader &bs;
  LlvmModule &m;
  std::pmr::memory_resource *scratch;
  template <class T> using Vector = std::pmr::vector<T>;
  BitstreamRecord rec{scratch};
  std::span<const uint8_t> strtab;
  uint32_t version = 0;
  bool useRelativeIds = false;

  // Types: bitcode type id -> TypeId, and the interning of literal types.
  Vector<TypeId> typeMap{scratch};
  uint64_t declaredTypes = 0;
  /// Open-addressing table of literal types (pointers in address space 0 aside): a slot is the
  /// type's 32-bit hash, which places it, and its id; a power of two in size, at most half full.
  struct InternSlot {
    uint32_t hash = 0;
    TypeId id = kNoId;
  };
  Vector<InternSlot> typeIntern{scratch};
  size_t typeInternCount = 0;
  /// Pointers in address space 0, the most made type, by pointee: TypeId -> the pointer's
  /// TypeId (kNoId: none yet). Its size grows with the pointees asked about.
  Vector<TypeId> pointerIn0{scratch};

  // Values: bitcode value id -> ValueId. Every entry names a value already in m.values (the
  // readers append an id with its value; ids not read yet are past the end, never kNoId): the
  // function reader's typed-call loop reads m.values[entry] without testing for kNoId.
  Vector<ValueId> valueIds{scratch};
  Vector<Fixup> fixups{scratch};
  uint32_t moduleValueCount = 0;

  /// What LlvmModule::callsTyped says: false once a call's explicit function type differs from
  /// its callee's, or a label or metadata argument is not of its parameter's type.
  bool callsTyped = true;

  uint64_t metadataKindsBelow64 = 0; ///< bit k: a KIND record named kind k (k < 64)

  /// The constants blocks' abbreviations as BitstreamReader::readScalars takes them, by id
  /// (bit k of constantLayoutsKnown: constantLayouts[k] found): BLOCKINFO's kept from block to
  /// block while BLOCKINFO stays the one named constantLayoutsInfo, a block's own for it alone.
  BitstreamReader::ScalarAbbrev constantLayouts[32];
  uint32_t constantLayoutsKnown = 0;
  uint64_t constantLayoutsInfo = 0;

  // Metadata: bitcode metadata id -> MetadataId.
  Vector<MetadataId> mdIds{scratch};
  Vector<std::pair<uint32_t, uint32_t>> mdFixups{scratch}; ///< (metadataOperands index, bitcode id)
  uint32_t moduleMdCount = 0;

  // Attributes: group id -> (position, set); paramattr lists in order.
  struct Group {
    uint32_t id = 0, position = 0, set = 0;
  };
  Vector<Group> groups{scratch};
  Vector<uint32_t> attributeListIds{scratch};  ///< PARAMATTR entries in order -> attributeLists
  Vector<Attribute> attributeScratch{scratch}; ///< a set being read (reused from record to record)
  Vector<uint32_t> positionScratch{scratch};   ///< a list's positions being merged
  Vector<const Group *> groupScratch{scratch}; ///< and its groups
  /// What the attribute tables (the module's and groups, attributeListIds) hold, as the
  /// attribute reader's memo names it: 0 empty, kUnknownAttributes when it cannot say.
  static constexpr uint64_t kUnknownAttributes = ~uint64_t(0);
  uint64_t attributeState = 0;
  /// The group with this id (the last one read with it), or null.
  const Group *group(uint64_t id) const {
    const Group *found = nullptr;
    for (const Group &g : groups)
      if (g.id == id)
        found = &g;
    return found;
  }

  // Functions with bodies, in record order; the next body read belongs to bodies[nextBody].
  Vector<uint32_t> bodies{scratch};
  size_t nextBody = 0;
  // Global initializers and function value fields are resolved after the module block.
  Vector<Fixup> moduleFixups{scratch};

  // Helpers shared by the block readers.
  Diagnostic error(std::string message) const {
    return bs.errorAt(rec.bitOffset, std::move(message));
  }
  StrRef addString(std::string_view s);
  StrRef addString(std::span<const uint64_t> chars);
  Expected<TypeId> type(uint64_t bitcodeId) {
    if (bitcodeId < typeMap.size() && typeMap[bitcodeId] != kNoId) [[likely]]
      return typeMap[bitcodeId];
    return undefinedType(bitcodeId);
  }
  [[gnu::cold, gnu::noinline]] Diagnostic undefinedType(uint64_t bitcodeId) const;
  /// The hash a literal type is interned under: its fields and elements multiplied in.
  static uint32_t typeHash(const Type &t, const TypeId *elements, size_t count) {
    uint64_t h = typeHashStart(t);
    for (size_t i = 0; i < count; ++i)
      h = typeHashStep(h, elements[i]);
    return uint32_t(h >> 32);
  }
  /// typeHash in steps (for a reader that hashes elements as it makes them): the fields, then
  /// each element in turn; the hash is the result's high half.
  static uint64_t typeHashStart(const Type &t) {
    constexpr uint64_t k = 0x9E3779B97F4A7C15ull;
    uint64_t h = (uint64_t(t.kind) | uint64_t(t.packed) << 8 | uint64_t(t.varArg) << 9 |
                  uint64_t(t.scalable) << 10 | uint64_t(t.bits) << 32) *
                 k;
    return (h ^ t.count) * k;
  }
  static uint64_t typeHashStep(uint64_t h, TypeId element) {
    return (h ^ element) * 0x9E3779B97F4A7C15ull;
  }
  /// The literal type `t` with `elements`: an equal one made before, or a new one.
  TypeId intern(const Type &t, std::span<const TypeId> elements);
  /// intern() inline for a type most likely new (a type block's): the first empty slot from
  /// its hash's on, past slots of other hashes only, takes it (as intern() would); a slot of the
  /// same hash (maybe an equal type) leaves it to intern(). Not for pointers.
  [[gnu::always_inline]] TypeId internNew(Type t, const TypeId *elements, uint32_t count) {
    return internNewHashed(t, elements, count, typeHash(t, elements, count));
  }
  /// internNew() with the type's hash (typeHash) given.
  [[gnu::always_inline]] TypeId internNewHashed(Type t, const TypeId *elements, uint32_t count,
                                                uint32_t hash) {
    if ((typeInternCount + 1) * 2 <= typeIntern.size()) [[likely]] {
      const size_t mask = typeIntern.size() - 1;
      size_t i = hash & mask;
      while (typeIntern[i].id != kNoId && typeIntern[i].hash != hash) // (at most half full)
        i = (i + 1) & mask;
      InternSlot &slot = typeIntern[i];
      if (slot.id == kNoId) [[likely]] {
        t.firstElement = uint32_t(m.typeElements.size());
        t.numElements = count;
        if (count == 1)
          append(m.typeElements, elements[0]);
        else if (count)
          m.typeElements.insert(m.typeElements.end(), elements, elements + count);
        const TypeId id = TypeId(m.types.size());
        append(m.types, t);
        slot = {hash, id};
        ++typeInternCount;
        return id;
      }
    }
    return intern(t, std::span<const TypeId>(elements, count));
  }
  /// A new pointer in address space 0 (none to `pointee` yet, which pointerIn0 covers).
  TypeId newPointerIn0(TypeId pointee) {
    Type t;
    t.kind = TypeKind::Pointer;
    t.firstElement = uint32_t(m.typeElements.size());
    t.numElements = 1;
    append(m.typeElements, pointee);
    const TypeId id = TypeId(m.types.size());
    append(m.types, t);
    pointerIn0[pointee] = id;
    return id;
  }
  TypeId pointerTo(TypeId pointee, uint32_t addressSpace) {
    if (addressSpace == 0 && pointee < pointerIn0.size() && pointerIn0[pointee] != kNoId) [[likely]]
      return pointerIn0[pointee];
    return pointerToSlow(pointee, addressSpace);
  }
  [[gnu::noinline]] TypeId pointerToSlow(TypeId pointee, uint32_t addressSpace);
  ValueId newValue(ValueKind kind, TypeId type, uint32_t index) {
    ValueId id = ValueId(m.values.size());
    append(m.values, Value{kind, type, index, {}});
    return id;
  }
  /// Reads through the block's end, skipping unknown sub-blocks; used for blocks spire ignores.
  Status skipRestOfBlock();
};

// The block readers (one file each).
Status readTypeBlock(ReaderState &s);
Status readConstantsBlock(ReaderState &s, uint32_t function);
Status readMetadataBlock(ReaderState &s, uint32_t function);
Status readMetadataKindBlock(ReaderState &s);
Status readMetadataAttachmentBlock(ReaderState &s, uint32_t function);
Status readValueSymtabBlock(ReaderState &s, uint32_t function);
/// At the start of a PARAMATTR or PARAMATTR_GROUP block, in a reader that remembers: when the
/// thread's memo holds an equal block read in the same table state, its additions, the block
/// left, and true. (The two readers below read a block: their caller asks the memo first, so
/// that a block found there costs no Status.)
[[gnu::noinline]] bool attributesFromMemo(ReaderState &s);
Status readParamAttrGroupBlock(ReaderState &s);
Status readParamAttrBlock(ReaderState &s);
Status readFunctionBlock(ReaderState &s, uint32_t function);
/// resolveFixups' work, out of line.
std::optional<Diagnostic> resolveFixupsFrom(ReaderState &s, std::pmr::vector<Fixup> &fixups,
                                            size_t from);
/// Patches the value fixups with index >= `from`, checking the types; the error, if any (most
/// blocks make none: then no call, and no Status built).
inline std::optional<Diagnostic> resolveFixups(ReaderState &s, std::pmr::vector<Fixup> &fixups,
                                               size_t from) {
  if (fixups.size() <= from) [[likely]]
    return std::nullopt;
  return resolveFixupsFrom(s, fixups, from);
}
/// Canonicalizes the constants in [first, end) as LLVM does (zeroinitializer, undef, data):
/// `special` lists the data and aggregate constants among them, in order (the others are final).
Status canonicalizeConstants(ReaderState &s, uint32_t first, std::span<const uint32_t> special);

} // namespace spire::dxil::detail
