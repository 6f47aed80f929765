// The FUNCTION_BLOCK: arguments, basic blocks and instructions, with operands given relative to
// the next value id (module version 1 and later) and forward references patched at the end.
#include "BitcodeReaderState.h"
#include "BitstreamFields.h"
#include "ReaderSupport.h"

namespace spire::dxil::detail {

namespace {

enum FunctionCode : uint32_t {
  kDeclareBlocks = 1,
  kBinop = 2,
  kCast = 3,
  kGepOld = 4,
  kSelect = 5,
  kExtractElt = 6,
  kInsertElt = 7,
  kShuffleVec = 8,
  kCmp = 9,
  kRet = 10,
  kBr = 11,
  kSwitch = 12,
  kInvoke = 13,
  kUnreachable = 15,
  kPhi = 16,
  kAlloca = 19,
  kLoad = 20,
  kVAArg = 23,
  kStoreOld = 24,
  kExtractVal = 26,
  kInsertVal = 27,
  kCmp2 = 28,
  kVSelect = 29,
  kInboundsGepOld = 30,
  kIndirectBr = 31,
  kDebugLocAgain = 33,
  kCall = 34,
  kDebugLoc = 35,
  kFence = 36,
  kCmpXchgOld = 37,
  kAtomicRmwOld = 38,
  kResume = 39,
  kLoadAtomic = 41,
  kStoreAtomicOld = 42,
  kGep = 43,
  kStore = 44,
  kStoreAtomic = 45,
  kCmpXchg = 46,
  kLandingPad = 47,
  kOperandBundle = 55,
  kUnop = 56,
  kFreeze = 58,
  kAtomicRmw = 59,
};

/// A CALL record's code as an unabbreviated record's first 12 bits: 34 in two VBR-6 chunks.
constexpr uint64_t kCallCodeBits = (kCall & 31) | 32 | (kCall >> 5) << 6;
/// An EXTRACTVAL record's code and a count of 2, as an unabbreviated record's first 12 bits.
constexpr uint64_t kExtractValueCodeBits = kExtractVal | 2 << 6;
/// A CMP2 record's code and a count of 3, as an unabbreviated record's first 12 bits.
constexpr uint64_t kCmpCodeBits = kCmp2 | 3 << 6;
/// A BR record's code as an unabbreviated record's first 6 bits.
constexpr uint64_t kBrCodeBits = kBr;

class FunctionBuilder {
public:
  FunctionBuilder(ReaderState &s, uint32_t fi) : s(s), m(s.m), fi(fi) {}

  [[gnu::flatten]] Status run();

private:
  // The hot steps report through error_ (see setError): no Status built per record.
  bool record();
  /// The records record() does not take itself (all but CALL, BINOP, EXTRACTVAL/INSERTVAL).
  [[gnu::noinline]] bool instruction(Instruction &ins);
  /// A CALL record into `ins` (appended at `index`), and what finish() does after it.
  [[gnu::noinline, gnu::flatten]] bool call();
  /// call() for any record: callGeneral, then finish().
  [[gnu::noinline]] bool callRecord();
  /// An unabbreviated record whose first bits are a CALL's code, decoded straight from the
  /// bits (no operands written and read back) when it is a typed call of a callee call()
  /// checked, every argument a value read already of its parameter's type: appended, the
  /// record ended, and true. Anything else (another record, a field of five chunks or more, the
  /// data's last bytes, any other call): false, nothing written, the cursor where it was, and
  /// read() and record() take the record from its first field.
  /// (`b`: the cursor's recordBits(); `w`: the load at the record's code, which run() tested.)
  [[gnu::always_inline]] inline bool callFromBits(const BitstreamReader::RecordBits &b, uint64_t w);
  /// callFromBits' work; `Near`: the record may reach the data's last bytes (a limit test a
  /// field).
  template <bool Near>
  [[gnu::always_inline]] inline bool callFromBits(const uint8_t *data, uint64_t at, uint64_t count,
                                                  uint64_t loadLimit, uint64_t start);
  /// callFromBits<false> and <true> (the few calls near the data's end), each out of line
  /// (tail calls).
  [[gnu::always_inline]] inline bool callAwayFromEnd(const uint8_t *data, uint64_t at,
                                                     uint64_t count, uint64_t loadLimit,
                                                     uint64_t start) {
    return callFromBits<false>(data, at, count, loadLimit, start);
  }
  [[gnu::noinline]] bool callNearEnd(const uint8_t *data, uint64_t at, uint64_t count,
                                     uint64_t loadLimit, uint64_t start) {
    return callFromBits<true>(data, at, count, loadLimit, start);
  }
  [[gnu::noinline]] bool callGeneral(Instruction &ins);
  /// What record() does after a record's fields: the operand count, the value, the block's end.
  [[gnu::always_inline]] inline bool finish(Instruction &ins);
  /// What call() found of a callee whose calls take its fast path, kept in checkedCallees by
  /// the callee's ValueId's low five bits: the record's fields it was checked with (a call
  /// with other ones is checked again), and the call's instruction but for its block, first
  /// operand and value.
  struct CheckedCallee {
    CheckedCallee() {}             // (nothing written: calleeKeys says which are valid)
    uint32_t args;                 ///< the record's arguments, the function type's parameters
    uint64_t attrs, cc, typeField; ///< the record's first three fields
    uint32_t firstParam;           ///< the first parameter's index in m.typeElements
    bool returnsVoid;              ///< the return type is void (the call defines no value)
    union {
      Instruction call;
    };
    uint32_t pad[4]; ///< (128 bytes: an entry's offset is a shift)
  };
  static_assert(sizeof(CheckedCallee) == 128);
  /// Checks that a CALL record `f` (of `n` >= 4 fields) of `callee` can take call()'s fast
  /// path: DXC's form (an explicit function type, no fast-math flags, musttail or notail), its
  /// attribute list one read, and the callee's pointee that function type (not varArg, `n` - 4
  /// parameters, all of them values). Remembers it when so.
  [[gnu::noinline]] bool checkCallee(ValueId callee, const uint64_t *f, size_t n) {
    const uint64_t attrs = f[0], cc = f[1], typeField = f[2], args = n - 4;
    if ((cc & 0x3C000) != 0x8000 || (attrs != 0 && attrs - 1 >= s.attributeListIds.size()))
      return false;
    if (typeField >= s.typeMap.size() || s.typeMap[typeField] == kNoId)
      return false;
    const TypeId fnTy = s.typeMap[typeField], calleeTy = m.values[callee].type;
    if (calleeTy >= m.types.size()) // (the general path says what is wrong)
      return false;
    const Type &ct = m.types[calleeTy];
    const Type &ft = m.types[fnTy];
    if (ct.kind != TypeKind::Pointer || !ct.numElements ||
        m.typeElements[ct.firstElement] != fnTy || ft.kind != TypeKind::Function || ft.varArg ||
        args != uint64_t(ft.numElements) - 1)
      return false;
    const TypeId *const elements = m.typeElements.data() + ft.firstElement;
    const Type *const types = m.types.data();
    for (const TypeId *p = elements + 1, *end = elements + ft.numElements; p != end; ++p) {
      const TypeKind kind = types[*p].kind;
      if (kind == TypeKind::Label || kind == TypeKind::Metadata)
        return false;
    }
    const TypeId ret = m.typeElements[ft.firstElement];
    CheckedCallee &c = checkedCallees[callee & 31];
    calleeKeys[callee & 31] = callee;
    c.args = uint32_t(args);
    c.attrs = attrs;
    c.cc = cc;
    c.typeField = typeField;
    c.firstParam = ft.firstElement + 1;
    c.returnsVoid = m.types[ret].kind == TypeKind::Void;
    static constexpr Instruction kCall = [] {
      Instruction i;
      i.opcode = Opcode::Call;
      return i;
    }();
    Instruction &ins = *std::construct_at(&c.call, kCall);
    if (attrs)
      ins.attributes = s.attributeListIds[attrs - 1];
    ins.callingConv = uint32_t((cc >> 1) & 0x3FF);
    static_assert(uint8_t(TailKind::None) == 0 && uint8_t(TailKind::Tail) == 1);
    ins.tail = TailKind(cc & 1); // (neither musttail nor notail, above)
    ins.auxType = fnTy;
    ins.type = ret;
    ins.numOperands = uint32_t(args) + 1;
    return true;
  }
  /// What the block's abbreviations are, by id from kFirstApplicationAbbrev, for the records
  /// run() decodes itself: found at an id's first record (its definition does not change
  /// while the block lasts).
  enum : uint8_t {
    kAbbrevUnknown = 0,
    kAbbrevOther,
    kAbbrevRetVoid,
    kAbbrevLoad,
    kAbbrevGep,
    kAbbrevCast,
    kAbbrevBinop,
    kAbbrevBinopFlags
  };
  static constexpr uint32_t kKnownAbbrevs = 16;
  uint8_t abbrevKinds[kKnownAbbrevs] = {};
  /// kAbbrevCast, kAbbrevLoad, kAbbrevGep: the type field's width (1..24)
  uint8_t abbrevWidths[kKnownAbbrevs];
  [[gnu::noinline]] uint8_t classifyAbbrev(uint32_t abbrevId);
  /// A BINOP record of an abbreviation [BINOP, vbr6 a, vbr6 b, fixed4 opcode, (fixed7 flags)]
  /// (LLVM's), decoded straight from the bits when binop() would take it at once (operands of
  /// one or two chunks, read already, of one type, a known operator): appended, the record
  /// ended, and true. Anything else: false, nothing written, the cursor where it was, and
  /// read() and record() take the record.
  [[gnu::always_inline]] inline bool binopFromBits(bool withFlags);
  /// A CAST record of an abbreviation [CAST, vbr6 value, fixed type (`width` bits), fixed4
  /// opcode] (LLVM's), as instruction() makes it when the value is one read already (of one or
  /// two chunks), the type defined and the opcode known.
  [[gnu::always_inline]] inline bool castFromBits(unsigned width);
  /// A LOAD record of an abbreviation [LOAD, vbr6 pointer, fixed type (`width` bits), vbr4
  /// alignment, fixed1 volatile] (LLVM's), as instruction() makes it when the pointer is a
  /// value read already (of one or two chunks), the type defined and the alignment known.
  [[gnu::always_inline]] inline bool loadFromBits(unsigned width);
  /// An unabbreviated BR record (`w`: the load at its code, which run() tested) of one block,
  /// or of two blocks and a condition, each field of one or two chunks, as instruction() and
  /// finish() make it when the blocks are in range and the condition an i1 read already.
  [[gnu::always_inline]] inline bool brFromBits(const BitstreamReader::RecordBits &b, uint64_t w);
  /// An unabbreviated CMP2 record of three fields (`w`: the load at its code, which run()
  /// tested), each of one or two chunks, as instruction() and finish() make it when both
  /// operands are values read already of one scalar type (not metadata), the predicate known
  /// and the function's i1 type known.
  [[gnu::always_inline]] inline bool cmpFromBits(const BitstreamReader::RecordBits &b, uint64_t w);
  /// A GEP record of an abbreviation [GEP, fixed1 inbounds, fixed type (`width` bits), array
  /// of vbr6] (LLVM's), as instruction() makes it when every operand is a value read already
  /// (of one or two chunks) and the type defined.
  [[gnu::noinline]] bool gepFromBits(unsigned width);
  /// A VBR-6 field of one or two chunks at bit `at` of the load `x` (`at` + 12 <= 64): its
  /// value into `v` and `at` past it; false when it has more chunks.
  [[gnu::always_inline]] static bool shortField(uint64_t x, uint64_t &at, uint64_t &v) {
    const uint64_t y = x >> at;
    v = y & 31;
    at += 6;
    if (!(y & 32))
      return true;
    v |= (y >> 1) & 0x3E0;
    at += 6;
    return !(y & 0x800);
  }
  /// For a from-bits path that has taken its record: ends the record recordBits() gave (`b`) at
  /// bit `end` and appends a blank instruction of the current block whose operands start at
  /// the operands' end, as read() and record() begin one; null, nothing done, when `end` is
  /// past the block's end (read() reports it).
  [[gnu::always_inline]] Instruction *takeRecord(const BitstreamReader::RecordBits &b, uint64_t end,
                                                 uint32_t code) {
    if (!s.bs.endRecordAt(end)) [[unlikely]]
      return nullptr;
    s.rec.bitOffset = b.start; // (as read() sets them: for any message before the next record)
    s.rec.code = code;
    static constexpr Instruction kBlank{};
    Instruction &ins = append(m.instructions, kBlank);
    ins.block = curBlockIndex;
    ins.firstOperand = uint32_t(m.operands.size());
    return &ins;
  }
  /// The record's bits and the load at its first field, for castFromBits, loadFromBits and
  /// gepFromBits: false when the from-bits paths are off, the void type is not known yet
  /// (instruction() finds it first, interning it if it must) or no whole load is readable there.
  [[gnu::always_inline]] bool firstLoad(BitstreamReader::RecordBits &b, uint64_t &x) {
    if (!fromBits || voidType == kNoId) [[unlikely]]
      return false;
    b = s.bs.recordBits();
    if (b.pos >= b.loadLimit) [[unlikely]]
      return false;
    x = loadBitsAt(b.data, b.pos);
    return true;
  }
  /// castFromBits' and loadFromBits' common part, as instruction() reads their records: a value
  /// (relative id `field`) read already, with its type, a defined type (`ty`, into `type`), and
  /// `bad` the other fields' verdict. Takes the record (ending at `end`) and appends its
  /// instruction with the value as its operand; null, nothing done, when it cannot.
  [[gnu::always_inline]] Instruction *valueAndTypeRecord(const BitstreamReader::RecordBits &b,
                                                         uint64_t field, uint64_t ty, bool bad,
                                                         uint64_t end, uint32_t code,
                                                         TypeId &type) {
    const size_t numIds = s.valueIds.size();
    const uint64_t id = uint32_t(uint32_t(numIds) - uint32_t(field));
    auto &ops = m.operands;
    if (id >= numIds || ty >= s.typeMap.size() || bad || ops.capacity() == ops.size()) [[unlikely]]
      return nullptr;
    const ValueId v = s.valueIds[id];
    type = s.typeMap[ty];
    if (m.values[v].type == kNoId || type == kNoId) [[unlikely]]
      return nullptr;
    Instruction *const taken = takeRecord(b, end, code);
    if (!taken) [[unlikely]]
      return nullptr;
    if (ops.size() == ops.capacity())
      __builtin_unreachable();
    ops.push_back(v);
    return taken;
  }
  /// A RET record of an abbreviation [RET] (`ret void`, LLVM's), as record() makes it.
  [[gnu::always_inline]] inline bool retVoidFromBits();
  /// An unabbreviated EXTRACTVAL record of two fields (`w`: the load at its code, which run()
  /// tested), decoded straight from the bits when member() would take it at once (a struct
  /// read already, an index in range, each of one or two chunks): appended, the record ended,
  /// and true. Anything else: false, nothing written, the cursor where it was.
  [[gnu::always_inline]] inline bool extractValueFromBits(const BitstreamReader::RecordBits &b,
                                                          uint64_t w);
  /// BINOP into `ins` (appended at `index`), finished (or taken back) as call() does.
  [[gnu::noinline]] bool binop(Instruction &ins);
  /// binop() for any record: binopGeneral, then finish() (or the instruction taken back).
  [[gnu::noinline]] bool binopRecord(Instruction &ins);
  [[gnu::noinline]] bool binopGeneral(Instruction &ins);
  bool binopTail(Instruction &ins, Opcode op, TypeId ty, size_t at);
  [[gnu::noinline, gnu::flatten]] bool member(Instruction &ins);
  [[gnu::noinline]] bool memberGeneral(Instruction &ins);
  Status debugLocation();
  /// debugLocation's Status as record() reports (out of line: its Status stays out of record's
  /// frame).
  [[gnu::noinline]] bool debugLocationRecord() {
    Status st = debugLocation();
    return st ? true : setError(st.error());
  }
  [[gnu::noinline]] bool declareBlocks();
  [[gnu::noinline]] bool recordOutsideBlocks();
  Status subBlock(uint32_t id);

  // Operand decoding. `at` walks the record.
  const RecordOperands &r() const { return s.rec.ops; }
  uint64_t nextId() const { return s.valueIds.size(); }
  bool need(size_t at, size_t n) {
    if (r().size() < at + n) [[unlikely]]
      return tooShort();
    return true;
  }
  // The failures of the hot helpers, out of line so that the helpers need no stack frame.
  [[gnu::cold, gnu::noinline]] bool failMessage(const char *message) {
    return setError(s.error(message));
  }
  [[gnu::cold, gnu::noinline]] bool tooShort() {
    return failMessage("instruction record too short");
  }
  [[gnu::cold, gnu::noinline]] bool badBinop(uint64_t code, TypeId type) {
    return setError(decodeBinop(s, code, type).error());
  }
  [[gnu::cold, gnu::noinline]] bool noValue() { return failMessage("operand refers to no value"); }
  [[gnu::cold, gnu::noinline]] bool noType(uint64_t t) {
    return setError(s.error("type id " + std::to_string(t) + " is not defined"));
  }
  /// The type a record names, as s.type() but with the common case inline and no Expected.
  bool typeAt(uint64_t id, TypeId &out) {
    if (id < s.typeMap.size() && s.typeMap[id] != kNoId) [[likely]] {
      out = s.typeMap[id];
      return true;
    }
    return noType(id);
  }
  /// Hot helpers report through `error_` and return false, sparing a Status per operand.
  bool setError(Diagnostic d) {
    error_ = std::move(d);
    return false;
  }
  Status fail() { return std::move(error_); }
  uint64_t absolute(uint64_t v) const {
    return s.useRelativeIds ? uint64_t(uint32_t(uint32_t(nextId()) - uint32_t(v))) : v;
  }
  TypeId typeOfId(uint64_t id) const {
    return id < s.valueIds.size() && s.valueIds[id] != kNoId ? m.values[s.valueIds[id]].type
                                                             : kNoId;
  }
  /// A value and its type: the type follows only when the value is a forward reference.
  [[gnu::always_inline]] bool valueTypePair(size_t &at, TypeId &type) {
    if (!need(at, 1))
      return false;
    uint64_t id = absolute(r()[at++]);
    if (id < nextId()) [[likely]] {
      type = typeOfId(id);
      if (type == kNoId)
        return noValue();
    } else {
      if (!need(at, 1))
        return false;
      uint64_t t = r()[at++];
      if (t >= s.typeMap.size() || s.typeMap[t] == kNoId)
        return noType(t);
      type = s.typeMap[t];
    }
    pushOperand(s, id, type);
    return true;
  }
  /// A value of a known type (relative id, no type in the record).
  [[gnu::always_inline]] bool value(size_t &at, TypeId type) {
    if (!need(at, 1))
      return false;
    if (m.types[type].kind == TypeKind::Metadata) [[unlikely]]
      return metadataOperand(uint32_t(absolute(r()[at++])));
    pushOperand(s, absolute(r()[at++]), type);
    return true;
  }
  /// [a (with its type when forward), b of a's type, one more field]: binary operators, compares.
  bool sameTypePairAndField(size_t &at, TypeId &type) {
    return valueTypePair(at, type) && value(at, type) && need(at, 1);
  }
  /// A call's fixed arguments, typed by the function type: the loop most operands go through
  /// (dx.op calls). The record's fields and the operands' room are checked once for all the
  /// arguments, so that the common operand (a value read already, of the parameter's type)
  /// costs its lookups and one store; a record with fewer fields than parameters takes the
  /// argument-by-argument loop, which reports the first bad one.
  [[gnu::noinline]] bool callArguments(size_t &at, TypeId fnTy) {
    const uint32_t params = m.types[fnTy].numElements, first = m.types[fnTy].firstElement + 1;
    if (params <= 1)
      return true;
    const uint32_t args = params - 1;
    const size_t size = r().size();
    if (at > size || size - at < args) [[unlikely]]
      return callArgumentsChecked(at, fnTy);
    const uint64_t *const fields = r().data() + at;
    at += args;
    auto &ops = m.operands;
    if (ops.capacity() - ops.size() < args) [[unlikely]]
      makeRoom(ops, args);
    const bool relative = s.useRelativeIds;
    // The tables in locals, reloaded after a slow path (which may add types, values or
    // operands and so move them); the appends below never move them.
    const Type *types = m.types.data();
    const TypeId *elements = m.typeElements.data() + first;
    const Value *values = m.values.data();
    const ValueId *ids = s.valueIds.data();
    size_t numIds = s.valueIds.size();
    for (uint32_t k = 0; k < args; ++k) {
      const TypeId p = elements[k];
      const uint64_t field = fields[k];
      const TypeKind kind = types[p].kind;
      const uint64_t id = relative ? uint64_t(uint32_t(uint32_t(numIds) - uint32_t(field))) : field;
      if (kind != TypeKind::Label && kind != TypeKind::Metadata && id < numIds) [[likely]] {
        const ValueId v = ids[id];
        if (v != kNoId && values[v].type == p) [[likely]] {
          if (ops.size() == ops.capacity()) // room for every argument was made above
            __builtin_unreachable();
          ops.push_back(v);
          continue;
        }
      }
      if (kind == TypeKind::Label || kind == TypeKind::Metadata) {
        if (!(kind == TypeKind::Label ? block(field) : metadataOperand(uint32_t(absolute(field)))))
          return false;
        if (m.values[ops.back()].type != p)
          s.callsTyped = false;
      } else {
        pushOperandSlow(s, id, p);
      }
      types = m.types.data();
      elements = m.typeElements.data() + first;
      values = m.values.data();
      ids = s.valueIds.data();
      numIds = s.valueIds.size();
      if (ops.capacity() - ops.size() < args - k - 1) [[unlikely]]
        makeRoom(ops, args - k - 1);
    }
    return true;
  }
  /// call()'s fast path for a CALL record naming its function type, whose callee checkCallee
  /// found. It calls nothing but in tail position (so that it saves no registers and keeps
  /// the operands' end in a register): a record that is not such a call goes to callGeneral,
  /// a callee not remembered yet to callMiss, a short room to callRoom, and an argument that
  /// is not a value read already of its parameter's type to restArguments.
  template <bool Relative> [[gnu::always_inline]] inline bool typedCall();
  /// A typed call's arguments from the k-th on (typedCall appended those before it), its
  /// parameters all values (checkCallee), room made for them.
  template <bool Relative>
  [[gnu::noinline]] bool restArguments(const uint64_t *fields, uint32_t args, uint32_t first,
                                       uint32_t k) {
    auto &ops = m.operands;
    for (; k < args; ++k) {
      const TypeId p = m.typeElements[first + k];
      const size_t numIds = s.valueIds.size();
      const uint64_t id =
          Relative ? uint64_t(uint32_t(uint32_t(numIds) - uint32_t(fields[k]))) : fields[k];
      if (id < numIds) [[likely]] {
        const ValueId v = s.valueIds[id];
        if (v != kNoId && m.values[v].type == p && ops.size() < ops.capacity()) [[likely]] {
          if (ops.size() == ops.capacity())
            __builtin_unreachable();
          ops.push_back(v);
          continue;
        }
      }
      pushOperandSlow(s, id, p);
      if (size_t(ops.capacity() - ops.size()) < size_t(args - k - 1)) [[unlikely]]
        makeRoom(ops, size_t(args - k - 1));
    }
    return true;
  }
  [[gnu::cold, gnu::noinline]] static void makeRoom(ArenaTable<ValueId> &ops, size_t n) {
    ops.reserve(std::max(ops.size() + n, ops.capacity() * 2));
  }
  /// callArguments one argument at a time, each field checked: for records shorter than the
  /// function type's parameters.
  [[gnu::cold, gnu::noinline]] bool callArgumentsChecked(size_t &at, TypeId fnTy) {
    const RecordOperands &rec = r();
    const size_t size = rec.size();
    const uint32_t params = m.types[fnTy].numElements, first = m.types[fnTy].firstElement;
    const bool relative = s.useRelativeIds;
    // The tables in locals, reloaded after a slow path (which may add types, values or
    // operands and so move them); the appends below never move them.
    const Type *types = m.types.data();
    const TypeId *elements = m.typeElements.data();
    const Value *values = m.values.data();
    const ValueId *ids = s.valueIds.data();
    size_t numIds = s.valueIds.size();
    auto reload = [&] {
      types = m.types.data();
      elements = m.typeElements.data();
      values = m.values.data();
      ids = s.valueIds.data();
      numIds = s.valueIds.size();
    };
    for (uint32_t k = 1; k < params; ++k) {
      TypeId p = elements[first + k];
      if (at >= size)
        return fewerArguments();
      uint64_t field = rec[at++];
      TypeKind kind = types[p].kind;
      if (kind == TypeKind::Label || kind == TypeKind::Metadata) [[unlikely]] {
        if (!(kind == TypeKind::Label ? block(field) : metadataOperand(uint32_t(absolute(field)))))
          return false;
        reload();
        if (values[m.operands.back()].type != p)
          s.callsTyped = false;
        continue;
      }
      uint64_t id = relative ? uint64_t(uint32_t(uint32_t(numIds) - uint32_t(field))) : field;
      if (id < numIds) {
        ValueId v = ids[id];
        if (v != kNoId && values[v].type == p && m.operands.size() < m.operands.capacity()) {
          if (m.operands.data() + m.operands.size() == m.operands.data() + m.operands.capacity())
            __builtin_unreachable();
          m.operands.push_back(v);
          continue;
        }
      }
      pushOperandSlow(s, id, p);
      reload();
    }
    return true;
  }
  /// block()'s diagnostic, out of line (so that block() saves no registers for it).
  [[gnu::cold, gnu::noinline]] bool badBlock(uint64_t index) {
    return setError(s.error("block index " + std::to_string(index) + " out of range"));
  }
  [[gnu::cold, gnu::noinline]] bool fewerArguments() {
    return failMessage("call with fewer arguments than its function type has");
  }
  [[gnu::noinline]] bool metadataOperand(uint32_t mdId) {
    if (mdId >= s.mdIds.size() || s.mdIds[mdId] == kNoId)
      return setError(
          s.error("metadata operand " + std::to_string(mdId) + " refers to no metadata"));
    m.operands.push_back(s.newValue(ValueKind::Metadata, metadataType(), s.mdIds[mdId]));
    return true;
  }
  bool block(uint64_t index) {
    if (index >= numBlocks) [[unlikely]]
      return badBlock(index);
    append(m.operands, m.blocks[firstBlock + index].value); // (growth out of line)
    return true;
  }
  TypeId lastOperandType() const { return m.values[m.operands.back()].type; }
  TypeId operandType(const Instruction &ins, uint32_t i) const {
    ValueId v = m.operands[ins.firstOperand + i];
    if (v != kNoId)
      return m.values[v].type;
    for (size_t k = fixupBase; k < s.fixups.size(); ++k)
      if (s.fixups[k].target == Fixup::Target::Operand && s.fixups[k].index == ins.firstOperand + i)
        return s.fixups[k].type;
    return kNoId;
  }
  TypeId basicType(TypeKind kind, uint32_t bits = 0) {
    TypeId &cached = kind == TypeKind::Void                   ? voidType
                     : kind == TypeKind::Label                ? labelType
                     : kind == TypeKind::Integer && bits == 1 ? boolType
                                                              : scratchType;
    if (cached != kNoId && &cached != &scratchType)
      return cached;
    Type t;
    t.kind = kind;
    t.bits = bits;
    cached = s.intern(t, {});
    return cached;
  }
  TypeId metadataType() {
    if (mdType == kNoId)
      mdType = basicType(TypeKind::Metadata);
    return mdType;
  }
  TypeId boolLike(TypeId operandType) {
    TypeId i1 = basicType(TypeKind::Integer, 1);
    const Type &t = m.types[operandType];
    if (t.kind != TypeKind::Vector)
      return i1;
    Type v;
    v.kind = TypeKind::Vector;
    v.count = t.count;
    v.scalable = t.scalable;
    return s.intern(v, std::span<const TypeId>(&i1, 1));
  }
  TypeId pointee(TypeId pointer) const {
    const Type &t = m.types[pointer];
    return t.kind == TypeKind::Pointer && t.numElements ? m.elementType(pointer) : kNoId;
  }
  /// The alignment in bytes of a record's exponent field into `out` (no Expected built: loads
  /// and stores take it on every record).
  bool align(uint64_t exponent, uint64_t &out) {
    if (exponent > 33) [[unlikely]]
      return badAlign(exponent);
    out = exponent == 0 ? uint64_t(0) : uint64_t(1) << (exponent - 1);
    return true;
  }
  [[gnu::cold, gnu::noinline]] bool badAlign(uint64_t exponent) {
    return setError(s.error("alignment exponent " + std::to_string(exponent) + " too large"));
  }
  Status ordering(uint64_t v, AtomicOrdering &out) {
    if (v > 6)
      return s.error("unknown atomic ordering " + std::to_string(v));
    out = AtomicOrdering(v);
    return {};
  }

  ReaderState &s;
  LlvmModule &m;
  uint32_t fi;
  uint32_t firstBlock = 0, numBlocks = 0, curBlock = 0;
  uint32_t curBlockIndex = 0; ///< firstBlock + curBlock: the current block in m.blocks
  bool inBlocks = false;      ///< curBlock < numBlocks (record()'s one test a record)
  bool fromBits = false;      ///< inBlocks, and relative ids: the from-bits paths' one test
  size_t fixupBase = 0;
  TypeId mdType = kNoId;
  TypeId voidType = kNoId, labelType = kNoId, boolType = kNoId, scratchType = kNoId;
  ValueId calleeKeys[32] = {kNoId, kNoId, kNoId, kNoId, kNoId, kNoId, kNoId, kNoId,
                            kNoId, kNoId, kNoId, kNoId, kNoId, kNoId, kNoId, kNoId,
                            kNoId, kNoId, kNoId, kNoId, kNoId, kNoId, kNoId, kNoId,
                            kNoId, kNoId, kNoId, kNoId, kNoId, kNoId, kNoId, kNoId};
  CheckedCallee checkedCallees[32]; ///< valid where calleeKeys names the callee
  bool declared = false;
  uint32_t lastDebugLoc = kNoId;
  Diagnostic error_;
};

Status FunctionBuilder::run() {
  Function &fn = m.functions[fi];
  fn.isDeclaration = false;
  size_t moduleValues = s.valueIds.size();
  size_t moduleMds = s.mdIds.size();
  fixupBase = s.fixups.size();
  fn.firstInstruction = uint32_t(m.instructions.size());
  std::span<const TypeId> params = m.elements(fn.functionType).subspan(1);
  // Most functions return void: their return type is the void type (types are interned), which
  // basicType would otherwise look up.
  if (const TypeId ret = m.elements(fn.functionType)[0]; m.types[ret].kind == TypeKind::Void)
    voidType = ret;
  fn.firstArgument = ValueId(m.values.size());
  fn.numArguments = uint32_t(params.size());
  for (TypeId p : params) // newValue adds no type: the span stays valid
    s.valueIds.push_back(s.newValue(ValueKind::Argument, p, fi));
  // (Made once: inside a block every entry next() gives is written whole.)
  BitstreamEntry e;
  for (;;) {
    if (!s.bs.next(e))
      return s.bs.takeError();
    if (e.kind == BitstreamEntry::Kind::EndBlock)
      break;
    if (e.kind == BitstreamEntry::Kind::EndOfStream)
      return s.bs.error("the data ends inside a function block");
    if (e.kind == BitstreamEntry::Kind::SubBlock) {
      // Each step's Status returned as it is (no Status assigned over another: a Diagnostic
      // moved for every sub-block).
      if (Status st = subBlock(e.id); !st)
        return st;
      continue;
    }
    // DXC writes calls unabbreviated: a CALL's code (34: two VBR-6 chunks) first.
    if (e.id == kAbbrevUnabbreviatedRecord) {
      const BitstreamReader::RecordBits b = s.bs.recordBits();
      if (b.pos < b.loadLimit) {
        const uint64_t w = loadBitsAt(b.data, b.pos);
        if ((w & 0xFFF) == kCallCodeBits && callFromBits(b, w))
          continue;
        if ((w & 0xFFF) == kExtractValueCodeBits && extractValueFromBits(b, w))
          continue;
        if ((w & 63) == kBrCodeBits && brFromBits(b, w))
          continue;
        if ((w & 0xFFF) == kCmpCodeBits && cmpFromBits(b, w))
          continue;
      }
    } else if (const uint32_t index = e.id - kFirstApplicationAbbrev; index < kKnownAbbrevs) {
      uint8_t kind = abbrevKinds[index];
      if (kind == kAbbrevUnknown) [[unlikely]]
        kind = classifyAbbrev(e.id);
      if (kind >= kAbbrevBinop  ? binopFromBits(kind == kAbbrevBinopFlags)
          : kind == kAbbrevCast ? castFromBits(abbrevWidths[index])
          : kind == kAbbrevLoad ? loadFromBits(abbrevWidths[index])
          : kind == kAbbrevGep  ? gepFromBits(abbrevWidths[index])
                                : kind == kAbbrevRetVoid && retVoidFromBits())
        continue;
    }
    if (!s.bs.read(e.id, s.rec))
      return s.bs.takeError();
    if (!record())
      return fail();
  }
  Function &done = m.functions[fi];
  if (!declared || curBlock != numBlocks)
    return s.bs.error("function body ends before its last block is terminated");
  done.numInstructions = uint32_t(m.instructions.size() - done.firstInstruction);
  if (std::optional<Diagnostic> bad = resolveFixups(s, s.fixups, fixupBase))
    return std::move(*bad);
  s.valueIds.resize(moduleValues);
  s.mdIds.resize(moduleMds);
  return {};
}

Status FunctionBuilder::subBlock(uint32_t id) {
  Status (*read)(ReaderState &, uint32_t);
  switch (id) {
  case kConstantsBlock:
    read = readConstantsBlock;
    break;
  case kMetadataBlock:
    read = readMetadataBlock;
    break;
  case kMetadataAttachmentBlock:
    read = readMetadataAttachmentBlock;
    break;
  case kValueSymtabBlock:
    read = readValueSymtabBlock;
    break;
  default:
    return s.bs.skipBlock();
  }
  if (Status st = s.bs.enterBlock(id); !st)
    return st;
  return read(s, fi);
}

/// DECLAREBLOCKS [count]: the function's blocks, once, before any instruction. (Out of line:
/// once a function.)
bool FunctionBuilder::declareBlocks() {
  const auto &rec = r();
  if (declared || rec.empty() || rec[0] == 0 || rec[0] > s.bs.bitsLeft())
    return failMessage("DECLAREBLOCKS missing, repeated or with an impossible count");
  declared = true;
  numBlocks = uint32_t(rec[0]);
  firstBlock = uint32_t(m.blocks.size());
  curBlockIndex = firstBlock; // (curBlock is 0: no instruction before DECLAREBLOCKS)
  inBlocks = true;            // (numBlocks is at least 1)
  fromBits = s.useRelativeIds;
  Function &fn = m.functions[fi];
  fn.firstBlock = firstBlock;
  fn.numBlocks = numBlocks;
  TypeId label = basicType(TypeKind::Label);
  // Room for them at once (grown geometrically: the module's functions add to the table in turn).
  if (m.blocks.capacity() - m.blocks.size() < numBlocks)
    m.blocks.reserve(std::max(m.blocks.size() + numBlocks, m.blocks.capacity() * 2));
  // (And for their values: the loop below then appends without a growth path.)
  if (m.values.capacity() - m.values.size() < numBlocks)
    m.values.reserve(std::max(m.values.size() + numBlocks, m.values.capacity() * 2));
  const uint32_t firstInstruction = uint32_t(m.instructions.size());
  const uint32_t firstValue = uint32_t(m.values.size());
  for (uint32_t i = 0; i < numBlocks; ++i) {
    if (m.values.size() == m.values.capacity() || m.blocks.size() == m.blocks.capacity())
      __builtin_unreachable(); // (room made above)
    m.values.push_back(Value{ValueKind::Block, label, firstBlock + i, {}});
    m.blocks.push_back(BasicBlock{firstValue + i, fi, firstInstruction, 0});
  }
  return true;
}

/// A record read before the first block or after the last one is terminated: DECLAREBLOCKS, a
/// debug location or an error.
bool FunctionBuilder::recordOutsideBlocks() {
  if (s.rec.code == kDeclareBlocks)
    return declareBlocks();
  if (s.rec.code == kDebugLoc || s.rec.code == kDebugLocAgain)
    return debugLocationRecord();
  if (!declared)
    return failMessage("instruction before DECLAREBLOCKS");
  return failMessage("instruction after the last block was terminated");
}

bool FunctionBuilder::record() {
  // (No blocks before DECLAREBLOCKS: one test for both.)
  if (!inBlocks) [[unlikely]]
    return recordOutsideBlocks();
  if (s.rec.code == kCall) // (two records in three: call() appends its instruction itself)
    return call();
  // Built in place (no copy of the record); taken back if it turns out bad. Nothing below
  // adds instructions, so `ins` stays where it is.
  static constexpr Instruction kBlank{};
  Instruction &ins = append(m.instructions, kBlank); // (the reference from the end)
  ins.block = curBlockIndex;
  ins.firstOperand = uint32_t(m.operands.size());
  // The three most common records (calls two in three) skip instruction()'s frame.
  bool ok;
  switch (s.rec.code) {
  case kBinop: // (finished in binop, as calls are)
    return binop(ins);
  case kExtractVal:
  case kInsertVal:
    ok = member(ins);
    break;
  case kDeclareBlocks: // (the rare records that add no instruction, in the same dispatch)
    m.instructions.pop_back();
    return declareBlocks();
  case kDebugLoc:
  case kDebugLocAgain:
    m.instructions.pop_back();
    return debugLocationRecord();
  case kRet: // `ret void` (most functions' last record) without instruction()'s frame
    if (r().empty() && voidType != kNoId) {
      ins.opcode = Opcode::Ret;
      ins.type = voidType;
      ok = true;
      break;
    }
    ok = instruction(ins);
    break;
  default:
    ok = instruction(ins);
    break;
  }
  if (!ok) {
    m.instructions.pop_back();
    return false;
  }
  return finish(ins);
}

bool FunctionBuilder::finish(Instruction &ins) {
  ins.numOperands = uint32_t(m.operands.size() - ins.firstOperand);
  if (m.types[ins.type].kind != TypeKind::Void) {
    ins.value = s.newValue(ValueKind::Instruction, ins.type,
                           uint32_t(&ins - m.instructions.data())); // (its index)
    append(s.valueIds, ins.value);
  }
  if (ins.opcode <= Opcode::Unreachable) { // isTerminator, inline
    static_assert(Opcode::Ret < Opcode::Unreachable && Opcode::Unreachable < Opcode::FNeg);
    // A block's count once, at its terminator (a function whose last block is not terminated
    // fails whole).
    BasicBlock &b = m.blocks[curBlockIndex];
    b.numInstructions = uint32_t(m.instructions.size()) - b.firstInstruction;
    ++curBlock;
    ++curBlockIndex;
    if (curBlock < numBlocks)
      m.blocks[curBlockIndex].firstInstruction = uint32_t(m.instructions.size());
    else
      inBlocks = fromBits = false;
  }
  return true;
}

/// DEBUG_LOC [line, column, scope, inlinedAt, implicit?] (metadata ids + 1, 0: none) sets the
/// location of the last instruction; DEBUG_LOC_AGAIN repeats the previous location.
Status FunctionBuilder::debugLocation() {
  Function &fn = m.functions[fi];
  if (m.instructions.size() == fn.firstInstruction)
    return s.error("debug location before any instruction");
  Instruction &last = m.instructions.back();
  if (s.rec.code == kDebugLocAgain) {
    if (lastDebugLoc == kNoId)
      return s.error("DEBUG_LOC_AGAIN without a location before it");
    last.debugLoc = lastDebugLoc;
    return {};
  }
  const auto &rec = r();
  if (rec.size() < 4)
    return s.error("DEBUG_LOC record too short");
  auto md = [&](uint64_t v, MetadataId &out) {
    if (v == 0)
      return true;
    if (v - 1 >= s.mdIds.size() || s.mdIds[v - 1] == kNoId)
      return false;
    out = s.mdIds[v - 1];
    return true;
  };
  DebugLoc loc;
  loc.line = uint32_t(rec[0]);
  loc.column = uint32_t(rec[1]);
  if (!md(rec[2], loc.scope) || !md(rec[3], loc.inlinedAt))
    return s.error("DEBUG_LOC names metadata that does not exist");
  loc.implicitCode = rec.size() > 4 && rec[4];
  lastDebugLoc = uint32_t(m.debugLocs.size());
  m.debugLocs.push_back(loc);
  last.debugLoc = lastDebugLoc;
  return {};
}

/// CALL: [attributes, cc, fmf?, fnty?, callee (with its type when forward), args...]. Out of
/// `instruction` (whose frame and preamble the most common record skips: record() calls it
/// directly). DXC's calls (an explicit function type, no fast-math flags, a callee read
/// already whose pointee is that type, exactly its parameters' arguments) are checked in one
/// pass before anything is written; every other record, and any that would fail, takes
/// callGeneral.
bool FunctionBuilder::call() { return s.useRelativeIds ? typedCall<true>() : typedCall<false>(); }

bool FunctionBuilder::callRecord() {
  Instruction &ins = append(m.instructions, Instruction{});
  ins.block = curBlockIndex;
  ins.firstOperand = uint32_t(m.operands.size());
  if (!callGeneral(ins)) {
    m.instructions.pop_back();
    return false;
  }
  return finish(ins);
}

template <bool Relative> bool FunctionBuilder::typedCall() {
  const uint64_t *const f = r().data();
  const size_t n = r().size();
  if (n < 4) [[unlikely]]
    return callRecord();
  const ValueId *const ids = s.valueIds.data();
  const size_t numIds = s.valueIds.size();
  const uint64_t id = Relative ? uint64_t(uint32_t(uint32_t(numIds) - uint32_t(f[3]))) : f[3];
  if (id >= numIds) [[unlikely]]
    return callRecord();
  const ValueId callee = ids[id]; // (never kNoId: see ReaderState::valueIds)
  // A call whose first fields and argument count are those a callee was checked with (DXC
  // calls each function alike) takes the fast path at once; checkCallee checks any other.
  const CheckedCallee &c = checkedCallees[callee & 31];
  if (!(calleeKeys[callee & 31] == callee && c.typeField == f[2] && c.cc == f[1] &&
        c.attrs == f[0] && c.args == n - 4) &&
      !checkCallee(callee, f, n)) [[unlikely]]
    return callRecord();
  // The callee and the arguments (the tables read above are still where they were), written
  // through `out` (kept in a register) and committed once; the instruction copied whole from
  // the callee's.
  auto &ops = m.operands;
  const uint32_t count = c.args;
  ValueId *const out = ops.room(size_t(count) + 1);
  Instruction &ins = append(m.instructions, c.call); // (the reference from the end)
  ins.block = curBlockIndex;
  ins.firstOperand = uint32_t(out - ops.data());
  out[0] = callee;
  const uint64_t *const fields = f + 4;
  const TypeId *const params = m.typeElements.data() + c.firstParam;
  const Value *const values = m.values.data();
  // (The value table holds fewer than 2^32 ids: 32-bit ids and compares.)
  const uint32_t ids32 = uint32_t(numIds);
  // (Indexed from the ends by a negative count up to 0: one counter for the three tables, its
  // increment the loop's test.)
  const uint64_t *const fieldsEnd = fields + count;
  const TypeId *const paramsEnd = params + count;
  ValueId *const argsEnd = out + 1 + count;
  ptrdiff_t i = -ptrdiff_t(count);
  for (; i != 0; ++i) {
    const uint32_t aid = Relative ? ids32 - uint32_t(fieldsEnd[i]) : uint32_t(fieldsEnd[i]);
    if ((!Relative && fieldsEnd[i] >= numIds) || aid >= ids32) [[unlikely]]
      goto rest;
    {
      // (Every entry of valueIds names a value in m.values: none is kNoId, see ReaderState.)
      const ValueId v = ids[aid];
      if (values[v].type != paramsEnd[i]) [[unlikely]]
        goto rest;
      argsEnd[i] = v;
    }
  }
  ops.setEnd(argsEnd);
  if (false) {
  rest: // an argument that is not a value read already of its parameter's type, and those after
    ops.setEnd(argsEnd + i);
    restArguments<Relative>(fields, count, c.firstParam, uint32_t(ptrdiff_t(count) + i));
  }
  // (A call is no terminator.)
  if (!c.returnsVoid) { // (s.newValue, written out: the compiler keeps it out of line here)
    const ValueId v = ValueId(m.values.size());
    const uint32_t index = uint32_t(&ins - m.instructions.data());
    append(m.values, Value{ValueKind::Instruction, c.call.type, index, {}});
    ins.value = v;
    append(s.valueIds, v);
  }
  return true;
}

bool FunctionBuilder::callFromBits(const BitstreamReader::RecordBits &b, uint64_t w) {
  if (!fromBits) [[unlikely]]
    return false;
  const uint8_t *const data = b.data;
  // The code (run() tested it) and the count, of one chunk: up to 27 arguments.
  const uint64_t count = (w >> 12) & 63;
  if ((count & 32) || count < 4) [[unlikely]]
    return false;
  // Every field (of up to 24 bits) from a load below the limit: one test; near the data's end,
  // one a field.
  const uint64_t at = b.pos + 18;
  if (at + count * 24 < b.loadLimit) [[likely]]
    return callAwayFromEnd(data, at, count, b.loadLimit, b.start);
  return callNearEnd(data, at, count, b.loadLimit, b.start);
}

template <bool Near>
bool FunctionBuilder::callFromBits(const uint8_t *data, uint64_t at, uint64_t count,
                                   uint64_t loadLimit, uint64_t start) {
  // A VBR-6 field into `v`, `at` past it; false: longer than four chunks, or at the data's end.
  auto field = [&](uint64_t & v) __attribute__((always_inline)) {
    return (!Near || at < loadLimit) && vbr6Field(data, at, v);
  };
  uint64_t attrs, cc, typeField, calleeField;
  // DXC's calls: an attribute list and a function type of one chunk each, the calling
  // convention field 0x8000 (an explicit function type: four chunks) between them, and a
  // callee of one or two chunks, all from one load (one test for the first three); any other
  // fields one by one.
  constexpr uint64_t kExplicitTypeBits = 32 | 32 << 6 | 32 << 12 | 1 << 18; // (0x8000 in VBR-6)
  constexpr uint64_t kLeadMask = uint64_t(32) | uint64_t(0xFFFFFF) << 6 | uint64_t(32) << 30;
  const uint64_t x = !Near || at < loadLimit ? loadBitsAt(data, at) : 0;
  // (Bit 47: a two-chunk callee's second continuation bit, or the first argument's first.)
  if ((x & kLeadMask) == kExplicitTypeBits << 6 && !(x & (uint64_t(1) << 47))) [[likely]] {
    attrs = x & 31;
    cc = 0x8000;
    typeField = (x >> 30) & 31;
    const uint64_t y = x >> 36; // the callee
    calleeField = y & 31;
    at += 42;
    if (y & 32) {
      calleeField |= (y >> 1) & 0x3E0;
      at += 6;
    }
  } else {
    // (The fields in turn: `at` moves with each.)
    if (!field(attrs) || !field(cc) || !field(typeField) || !field(calleeField)) [[unlikely]]
      return false;
  }
  const ValueId *const ids = s.valueIds.data();
  const uint32_t ids32 = uint32_t(s.valueIds.size());
  const uint32_t id = ids32 - uint32_t(calleeField);
  if (id >= ids32) [[unlikely]]
    return false;
  const ValueId callee = ids[id];
  const uint32_t args = uint32_t(count - 4);
  const CheckedCallee &c = checkedCallees[callee & 31];
  if (!(calleeKeys[callee & 31] == callee && c.typeField == typeField && c.cc == cc &&
        c.attrs == attrs && c.args == args)) [[unlikely]] {
    const uint64_t f[4] = {attrs, cc, typeField, calleeField};
    if (!checkCallee(callee, f, count))
      return false;
  }
  // The arguments, written at the operands' end and committed only when all are taken.
  auto &ops = m.operands;
  ValueId *const out = ops.room(size_t(args) + 1);
  const Value *const values = m.values.data();
  // (Indexed from the ends by a negative count up to 0: one counter for both tables, its
  // increment the loop's test.)
  const TypeId *const paramsEnd = m.typeElements.data() + c.firstParam + args;
  ValueId *const argsEnd = out + 1 + args;
  for (ptrdiff_t i = -ptrdiff_t(args); i != 0; ++i) {
    uint64_t arg;
    if (!field(arg)) [[unlikely]]
      return false;
    const uint32_t aid = ids32 - uint32_t(arg);
    if (aid >= ids32) [[unlikely]]
      return false;
    const ValueId v = ids[aid]; // (never kNoId: see ReaderState::valueIds)
    if (values[v].type != paramsEnd[i]) [[unlikely]]
      return false;
    argsEnd[i] = v;
  }
  if (!s.bs.endRecordAt(at)) [[unlikely]]
    return false;
  out[0] = callee;
  ops.setEnd(out + args + 1);
  s.rec.bitOffset = start; // (as read() sets them: for any message before the next record)
  s.rec.code = kCall;
  Instruction &ins = append(m.instructions, c.call);
  ins.block = curBlockIndex;
  ins.firstOperand = uint32_t(out - ops.data());
  if (!c.returnsVoid) {
    const ValueId v = ValueId(m.values.size());
    const uint32_t index = uint32_t(&ins - m.instructions.data());
    append(m.values, Value{ValueKind::Instruction, c.call.type, index, {}});
    ins.value = v;
    append(s.valueIds, v);
  }
  return true;
}

/// call() for any record (the fast path's preconditions unchecked).
bool FunctionBuilder::callGeneral(Instruction &ins) {
  const auto &rec = r();
  size_t at = 0;
  if (!need(0, 3))
    return false;
  uint64_t attrs = rec[at++];
  uint64_t cc = rec[at++];
  if (attrs) {
    if (attrs - 1 >= s.attributeListIds.size())
      return failMessage("call attribute list index out of range");
    ins.attributes = s.attributeListIds[attrs - 1];
  }
  if ((cc >> 17) & 1) {
    if (!need(at, 1))
      return false;
    ins.fastMath = decodeFastMath(rec[at++]);
  }
  TypeId fnTy = kNoId;
  if ((cc >> 15) & 1) {
    if (!need(at, 1))
      return false;
    if (!typeAt(rec[at++], fnTy))
      return false;
  }
  ins.callingConv = uint32_t((cc >> 1) & 0x3FF);
  ins.tail = ((cc >> 14) & 1)   ? TailKind::MustTail
             : ((cc >> 16) & 1) ? TailKind::NoTail
             : (cc & 1)         ? TailKind::Tail
                                : TailKind::None;
  TypeId calleeTy;
  if (!valueTypePair(at, calleeTy))
    return false;
  if (fnTy == kNoId)
    fnTy = pointee(calleeTy);
  else if (fnTy != pointee(calleeTy))
    s.callsTyped = false; // not vouched for: the model checks the arguments of such calls
  if (fnTy == kNoId || m.types[fnTy].kind != TypeKind::Function)
    return failMessage("call of a value that is not a function");
  if (m.types[calleeTy].kind != TypeKind::Pointer)
    return failMessage("call of a value that is not a pointer");
  // (A copy for callArguments to advance: `at` itself, never address-taken, stays in a register
  // above.)
  size_t end = at;
  if (!callArguments(end, fnTy))
    return false;
  at = end;
  if (m.types[fnTy].varArg) {
    while (at < rec.size()) {
      TypeId vt;
      if (!valueTypePair(at, vt))
        return false;
    }
  } else if (at != rec.size()) {
    return failMessage("call with more arguments than its function type has");
  }
  ins.opcode = Opcode::Call;
  ins.auxType = fnTy;
  ins.type = m.elementType(fnTy);
  return true;
}

uint8_t FunctionBuilder::classifyAbbrev(uint32_t abbrevId) {
  const std::span<const AbbrevOp> ops = s.bs.abbrevOps(abbrevId);
  auto is = [&](size_t i, AbbrevOp::Kind kind, uint64_t value) {
    return ops[i].kind == kind && ops[i].value == value;
  };
  uint8_t kind = kAbbrevOther;
  if ((ops.size() == 4 || ops.size() == 5) && is(0, AbbrevOp::Kind::Literal, kBinop) &&
      is(1, AbbrevOp::Kind::Vbr, 6) && is(2, AbbrevOp::Kind::Vbr, 6) &&
      is(3, AbbrevOp::Kind::Fixed, 4))
    kind = ops.size() == 4                   ? kAbbrevBinop
           : is(4, AbbrevOp::Kind::Fixed, 7) ? kAbbrevBinopFlags
                                             : kAbbrevOther;
  if (ops.size() == 1 && is(0, AbbrevOp::Kind::Literal, kRet))
    kind = kAbbrevRetVoid;
  if (ops.size() == 5 && is(0, AbbrevOp::Kind::Literal, kLoad) && is(1, AbbrevOp::Kind::Vbr, 6) &&
      ops[2].kind == AbbrevOp::Kind::Fixed && ops[2].value - 1 < 24 &&
      is(3, AbbrevOp::Kind::Vbr, 4) && is(4, AbbrevOp::Kind::Fixed, 1)) {
    kind = kAbbrevLoad;
    abbrevWidths[abbrevId - kFirstApplicationAbbrev] = uint8_t(ops[2].value);
  }
  if (ops.size() == 5 && is(0, AbbrevOp::Kind::Literal, kGep) && is(1, AbbrevOp::Kind::Fixed, 1) &&
      ops[2].kind == AbbrevOp::Kind::Fixed && ops[2].value - 1 < 24 &&
      ops[3].kind == AbbrevOp::Kind::Array && is(4, AbbrevOp::Kind::Vbr, 6)) {
    kind = kAbbrevGep;
    abbrevWidths[abbrevId - kFirstApplicationAbbrev] = uint8_t(ops[2].value);
  }
  if (ops.size() == 4 && is(0, AbbrevOp::Kind::Literal, kCast) && is(1, AbbrevOp::Kind::Vbr, 6) &&
      ops[2].kind == AbbrevOp::Kind::Fixed && ops[2].value - 1 < 24 &&
      is(3, AbbrevOp::Kind::Fixed, 4)) {
    kind = kAbbrevCast;
    abbrevWidths[abbrevId - kFirstApplicationAbbrev] = uint8_t(ops[2].value);
  }
  if (!ops.empty()) // (none: an undefined id, which read() reports; found again each time)
    abbrevKinds[abbrevId - kFirstApplicationAbbrev] = kind;
  return kind;
}

bool FunctionBuilder::castFromBits(unsigned width) {
  // The value (one or two chunks), the type and the opcode: 40 bits at most, one load.
  BitstreamReader::RecordBits b;
  uint64_t x;
  if (!firstLoad(b, x)) [[unlikely]]
    return false;
  uint64_t field, at = 0;
  if (!shortField(x, at, field)) [[unlikely]]
    return false;
  const uint64_t ty = (x >> at) & ((uint64_t(1) << width) - 1), code = (x >> (at + width)) & 15;
  at += width + 4;
  // As instruction() reads it: a value read already, with its type (valueTypePair), a defined
  // type (typeAt), a known opcode.
  TypeId dest;
  Instruction *const taken = valueAndTypeRecord(b, field, ty, code > 12, b.pos + at, kCast, dest);
  if (!taken) [[unlikely]]
    return false;
  Instruction &ins = *taken;
  ins.opcode = kCastOpcodes[code];
  ins.type = dest;
  return finish(ins);
}

bool FunctionBuilder::loadFromBits(unsigned width) {
  // The pointer (one or two chunks), the type, the alignment (one or two chunks) and the
  // volatile bit: 45 bits at most, one load.
  BitstreamReader::RecordBits b;
  uint64_t x;
  if (!firstLoad(b, x)) [[unlikely]]
    return false;
  uint64_t field, at = 0;
  if (!shortField(x, at, field)) [[unlikely]]
    return false;
  const uint64_t ty = (x >> at) & ((uint64_t(1) << width) - 1);
  at += width;
  uint64_t exponent = (x >> at) & 7;
  if ((x >> at) & 8) {
    if ((x >> at) & 0x80) [[unlikely]]
      return false;
    exponent |= (x >> (at + 1)) & 0x38;
    at += 4;
  }
  const bool isVolatile = (x >> (at + 4)) & 1;
  at += 5;
  // As instruction() reads it: a pointer read already, with its type (valueTypePair), the
  // loaded type given (typeAt), an alignment exponent of 33 at most (align).
  TypeId loaded;
  Instruction *const taken =
      valueAndTypeRecord(b, field, ty, exponent > 33, b.pos + at, kLoad, loaded);
  if (!taken) [[unlikely]]
    return false;
  Instruction &ins = *taken;
  ins.align = exponent == 0 ? uint64_t(0) : uint64_t(1) << (exponent - 1);
  if (isVolatile)
    ins.flags |= kFlagVolatile;
  ins.opcode = Opcode::Load;
  ins.type = loaded;
  ins.auxType = loaded;
  return finish(ins);
}

bool FunctionBuilder::brFromBits(const BitstreamReader::RecordBits &b, uint64_t w) {
  if (!fromBits || voidType == kNoId) [[unlikely]]
    return false;
  // The count (1 or 3) and the fields: 42 bits at most, the load run() made.
  const uint64_t count = (w >> 6) & 63;
  uint64_t at = 12, f[3];
  if (count != 1 && (count != 3 || boolType == kNoId)) [[unlikely]]
    return false;
  for (uint64_t k = 0; k < count; ++k)
    if (!shortField(w, at, f[k])) [[unlikely]]
      return false;
  auto &ops = m.operands;
  if (f[0] >= numBlocks || ops.capacity() - ops.size() < 3) [[unlikely]]
    return false;
  ValueId cond = kNoId;
  if (count == 3) {
    // As value(): the condition a value read already, of i1 (its type not metadata).
    const size_t numIds = s.valueIds.size();
    const uint64_t id = uint32_t(uint32_t(numIds) - uint32_t(f[2]));
    if (f[1] >= numBlocks || id >= numIds) [[unlikely]]
      return false;
    cond = s.valueIds[id];
    if (m.values[cond].type != boolType) [[unlikely]]
      return false;
  }
  Instruction *const taken = takeRecord(b, b.pos + at, kBr);
  if (!taken) [[unlikely]]
    return false;
  Instruction &ins = *taken;
  if (ops.capacity() - ops.size() < 3)
    __builtin_unreachable();
  if (count == 3) {
    ops.push_back(cond);
    ops.push_back(m.blocks[firstBlock + f[0]].value);
    ops.push_back(m.blocks[firstBlock + f[1]].value);
  } else {
    ops.push_back(m.blocks[firstBlock + f[0]].value);
  }
  ins.opcode = Opcode::Br;
  ins.type = voidType;
  return finish(ins);
}

bool FunctionBuilder::cmpFromBits(const BitstreamReader::RecordBits &b, uint64_t w) {
  // (voidType known: instruction() finds the void type first, interning it if it must.)
  if (!fromBits || voidType == kNoId) [[unlikely]]
    return false;
  // The three fields after the code and count: 48 bits at most, the load run() made.
  uint64_t at = 12, f[3];
  for (uint64_t &v : f)
    if (!shortField(w, at, v)) [[unlikely]]
      return false;
  // As sameTypePairAndField and the predicate's test read them.
  const size_t numIds = s.valueIds.size();
  const uint64_t a = uint32_t(uint32_t(numIds) - uint32_t(f[0])),
                 c = uint32_t(uint32_t(numIds) - uint32_t(f[1])), pred = f[2];
  auto &ops = m.operands;
  if (a >= numIds || c >= numIds || pred > 41 || (pred > 15 && pred < 32) ||
      ops.capacity() - ops.size() < 2) [[unlikely]]
    return false;
  const ValueId va = s.valueIds[a], vc = s.valueIds[c];
  const TypeId ty = m.values[va].type;
  if (ty == kNoId || m.values[vc].type != ty || m.types[ty].kind == TypeKind::Metadata ||
      m.types[ty].kind == TypeKind::Vector) [[unlikely]]
    return false;
  Instruction *const taken = takeRecord(b, b.pos + at, kCmp2);
  if (!taken) [[unlikely]]
    return false;
  Instruction &ins = *taken;
  if (ops.capacity() - ops.size() < 2)
    __builtin_unreachable();
  ops.push_back(va);
  ops.push_back(vc);
  ins.opcode = pred >= 32 ? Opcode::ICmp : Opcode::FCmp;
  ins.predicate = uint8_t(pred);
  ins.type = boolLike(ty); // (i1: a scalar's, found as instruction() finds it, last)
  return finish(ins);
}

bool FunctionBuilder::gepFromBits(unsigned width) {
  // The inbounds bit, the type and the operands' count (one chunk, not 0) from one load; each
  // operand (one or two chunks) from a load of its own, all below the limit (one test).
  BitstreamReader::RecordBits b;
  uint64_t x;
  if (!firstLoad(b, x)) [[unlikely]]
    return false;
  const uint64_t ty = (x >> 1) & ((uint64_t(1) << width) - 1), count = (x >> (1 + width)) & 63;
  uint64_t at = b.pos + 1 + width + 6;
  if ((count & 32) || count == 0 || at + count * 12 >= b.loadLimit || ty >= s.typeMap.size())
      [[unlikely]]
    return false;
  const TypeId source = s.typeMap[ty];
  if (source == kNoId) [[unlikely]]
    return false;
  // As instruction() reads them (valueTypePair each): values read already, with their types;
  // written at the operands' end and committed with the instruction.
  auto &ops = m.operands;
  ValueId *const room = ops.room(count);
  const ValueId *const ids = s.valueIds.data();
  const uint32_t ids32 = uint32_t(s.valueIds.size());
  const Value *const values = m.values.data();
  for (uint64_t k = 0; k < count; ++k) {
    uint64_t field, shift = 0;
    if (!shortField(loadBitsAt(b.data, at), shift, field)) [[unlikely]]
      return false;
    at += shift;
    const uint32_t id = ids32 - uint32_t(field);
    if (id >= ids32 || values[ids[id]].type == kNoId) [[unlikely]]
      return false;
    room[k] = ids[id];
  }
  const TypeId base = values[room[0]].type;
  Expected<TypeId> result =
      gepResultType(s, source, base, std::span<const ValueId>(room + 1, size_t(count - 1)));
  if (!result) [[unlikely]]
    return false;
  Instruction *const taken = takeRecord(b, at, kGep);
  if (!taken) [[unlikely]]
    return false;
  Instruction &ins = *taken;
  ops.setEnd(room + count);
  if (x & 1)
    ins.flags |= kFlagInBounds;
  ins.opcode = Opcode::GetElementPtr;
  ins.auxType = source;
  ins.type = *result;
  return finish(ins);
}

bool FunctionBuilder::retVoidFromBits() {
  // As record() takes `ret void` (and ends the block in finish()).
  if (!fromBits || voidType == kNoId) [[unlikely]]
    return false;
  const BitstreamReader::RecordBits b = s.bs.recordBits();
  Instruction *const taken = takeRecord(b, b.pos, kRet); // (no fields)
  if (!taken) [[unlikely]]
    return false;
  Instruction &ins = *taken;
  ins.opcode = Opcode::Ret;
  ins.type = voidType;
  return finish(ins);
}

bool FunctionBuilder::binopFromBits(bool withFlags) {
  if (!fromBits) [[unlikely]]
    return false;
  const BitstreamReader::RecordBits b = s.bs.recordBits();
  if (b.pos >= b.loadLimit) [[unlikely]]
    return false;
  // Both operands of one or two chunks, the opcode and the flags: 35 bits at most, one load.
  const uint64_t x = loadBitsAt(b.data, b.pos);
  uint64_t at = 0, fa, fb;
  auto field = [&](uint64_t & v) __attribute__((always_inline)) { return shortField(x, at, v); };
  if (!field(fa) || !field(fb)) [[unlikely]]
    return false;
  const uint64_t code = (x >> at) & 15, flags = (x >> (at + 4)) & 127;
  at += withFlags ? 11 : 4;
  const ValueId *const ids = s.valueIds.data();
  const uint32_t ids32 = uint32_t(s.valueIds.size());
  const uint32_t a = ids32 - uint32_t(fa), bb = ids32 - uint32_t(fb);
  if (a >= ids32 || bb >= ids32) [[unlikely]]
    return false;
  const ValueId va = ids[a], vb = ids[bb];
  // (Neither is kNoId: see ReaderState::valueIds.)
  const TypeId ty = m.values[va].type;
  Opcode op;
  auto &ops = m.operands;
  if (ty == kNoId || m.values[vb].type != ty || m.types[ty].kind == TypeKind::Metadata ||
      !binopOpcode(m, code, ty, op) || ops.capacity() - ops.size() < 2) [[unlikely]]
    return false;
  Instruction *const taken = takeRecord(b, b.pos + at, kBinop);
  if (!taken) [[unlikely]]
    return false;
  Instruction &ins = *taken;
  if (ops.size() == ops.capacity())
    __builtin_unreachable();
  ops.push_back(va);
  if (ops.size() == ops.capacity())
    __builtin_unreachable();
  ops.push_back(vb);
  ins.opcode = op;
  ins.type = ty;
  if (withFlags) { // (as binopTail reads the fourth field)
    if (op == Opcode::FAdd || op == Opcode::FSub || op == Opcode::FMul || op == Opcode::FDiv ||
        op == Opcode::FRem)
      ins.fastMath = decodeFastMath(flags);
    else
      ins.flags = decodeBinopFlags(op, flags);
  }
  // finish(), for what a binop is (as binop()).
  ins.numOperands = 2;
  const ValueId v = ValueId(m.values.size());
  append(m.values, Value{ValueKind::Instruction, ty, uint32_t(&ins - m.instructions.data()), {}});
  ins.value = v;
  append(s.valueIds, v);
  return true;
}

bool FunctionBuilder::extractValueFromBits(const BitstreamReader::RecordBits &b, uint64_t w) {
  if (!fromBits) [[unlikely]]
    return false;
  // The aggregate and the index, one or two chunks each, after the code and count.
  uint64_t at = 12, fa, index;
  auto field = [&](uint64_t & v) __attribute__((always_inline)) { return shortField(w, at, v); };
  if (!field(fa) || !field(index)) [[unlikely]]
    return false;
  const size_t numIds = s.valueIds.size();
  const uint64_t id = uint32_t(uint32_t(numIds) - uint32_t(fa));
  auto &ops = m.operands;
  if (id >= numIds || ops.capacity() == ops.size()) [[unlikely]]
    return false;
  const ValueId v = s.valueIds[id];
  const TypeId agg = m.values[v].type;
  if (agg == kNoId || m.types[agg].kind != TypeKind::Struct || index >= m.types[agg].numElements)
      [[unlikely]]
    return false;
  // As record(), member() and finish() make it: one operand, one word, a value (a struct's
  // member is never void), no terminator.
  Instruction *const taken = takeRecord(b, b.pos + at, kExtractVal);
  if (!taken) [[unlikely]]
    return false;
  Instruction &ins = *taken;
  if (ops.size() == ops.capacity())
    __builtin_unreachable();
  ops.push_back(v);
  ins.firstWord = uint32_t(m.words.size());
  append(m.words, index);
  ins.numWords = 1;
  ins.opcode = Opcode::ExtractValue;
  ins.type = m.typeElements[m.types[agg].firstElement + size_t(index)];
  ins.numOperands = 1;
  if (m.types[ins.type].kind != TypeKind::Void) [[likely]] {
    ins.value = s.newValue(ValueKind::Instruction, ins.type,
                           uint32_t(&ins - m.instructions.data())); // (its index)
    append(s.valueIds, ins.value);
  }
  return true;
}

/// BINOP: [a (with its type when forward), b, opcode, flags?]. Out of `instruction`, as call.
bool FunctionBuilder::binop(Instruction &ins) {
  // Both operands read already (relative ids), of one type that is not metadata, and a known
  // operator: appended at once; any other record takes binopGeneral.
  const uint64_t *const f = r().data();
  const size_t n = r().size();
  if (n < 3 || !s.useRelativeIds) [[unlikely]]
    return binopRecord(ins);
  const ValueId *const ids = s.valueIds.data();
  const size_t numIds = s.valueIds.size();
  const uint64_t a = uint32_t(uint32_t(numIds) - uint32_t(f[0])),
                 b = uint32_t(uint32_t(numIds) - uint32_t(f[1]));
  if (a >= numIds || b >= numIds) [[unlikely]]
    return binopRecord(ins);
  const ValueId va = ids[a], vb = ids[b];
  // (Neither is kNoId: see ReaderState::valueIds.)
  const TypeId ty = m.values[va].type;
  Opcode op;
  auto &ops = m.operands;
  if (ty == kNoId || m.values[vb].type != ty || m.types[ty].kind == TypeKind::Metadata ||
      !binopOpcode(m, f[2], ty, op) ||
      (ops.data() + ops.capacity()) - (ops.data() + ops.size()) < 2) [[unlikely]]
    return binopRecord(ins);
  if (ops.size() == ops.capacity())
    __builtin_unreachable();
  ops.push_back(va);
  if (ops.size() == ops.capacity())
    __builtin_unreachable();
  ops.push_back(vb);
  if (!binopTail(ins, op, ty, 3)) [[unlikely]] {
    m.instructions.pop_back();
    return false;
  }
  // finish(), for what a binop is: two operands, a value (its type an integer or floating-point
  // one or a vector of them, never void), no terminator.
  ins.numOperands = 2;
  const ValueId v = ValueId(m.values.size());
  append(m.values, Value{ValueKind::Instruction, ty, uint32_t(&ins - m.instructions.data()), {}});
  ins.value = v;
  append(s.valueIds, v);
  return true;
}

bool FunctionBuilder::binopRecord(Instruction &ins) {
  if (!binopGeneral(ins)) {
    m.instructions.pop_back();
    return false;
  }
  return finish(ins);
}

/// binop() for any record.
bool FunctionBuilder::binopGeneral(Instruction &ins) {
  const auto &rec = r();
  size_t at = 0;
  TypeId ty = kNoId;
  if (!sameTypePairAndField(at, ty))
    return false;
  Opcode op;
  if (!binopOpcode(m, rec[at], ty, op)) [[unlikely]]
    return badBinop(rec[at], ty);
  return binopTail(ins, op, ty, at + 1);
}

/// The operator, the type and the flags after the operands.
bool FunctionBuilder::binopTail(Instruction &ins, Opcode op, TypeId ty, size_t at) {
  const auto &rec = r();
  ins.opcode = op;
  ins.type = ty;
  if (at < rec.size()) {
    if (op == Opcode::FAdd || op == Opcode::FSub || op == Opcode::FMul || op == Opcode::FDiv ||
        op == Opcode::FRem)
      ins.fastMath = decodeFastMath(rec[at]);
    else
      ins.flags = decodeBinopFlags(op, rec[at]);
  }
  return true;
}

/// EXTRACTVAL / INSERTVAL: [aggregate pair, (value pair,) indices...]. Out of `instruction`, as
/// call.
bool FunctionBuilder::member(Instruction &ins) {
  // extractvalue of a struct read already (relative ids) at one index in range: here; the rest
  // in memberGeneral.
  const uint64_t *const f = r().data();
  if (r().size() == 2 && s.rec.code == kExtractVal && s.useRelativeIds) {
    const size_t numIds = s.valueIds.size();
    const uint64_t id = uint32_t(uint32_t(numIds) - uint32_t(f[0]));
    auto &ops = m.operands;
    ValueId v;
    TypeId agg;
    if (id < numIds && ((v = s.valueIds[id]), true) && (agg = m.values[v].type) != kNoId &&
        m.types[agg].kind == TypeKind::Struct && f[1] < m.types[agg].numElements &&
        ops.capacity() != ops.size()) [[likely]] {
      if (ops.size() == ops.capacity())
        __builtin_unreachable();
      ops.push_back(v);
      ins.firstWord = uint32_t(m.words.size());
      append(m.words, f[1]);
      ins.numWords = 1;
      ins.opcode = Opcode::ExtractValue;
      ins.type = m.typeElements[m.types[agg].firstElement + size_t(f[1])];
      return true;
    }
  }
  return memberGeneral(ins);
}

/// member() for any record.
bool FunctionBuilder::memberGeneral(Instruction &ins) {
  const auto &rec = r();
  size_t at = 0;
  TypeId agg;
  if (!valueTypePair(at, agg))
    return false;
  if (s.rec.code == kInsertVal) {
    TypeId vt;
    if (!valueTypePair(at, vt))
      return false;
  }
  if (at >= rec.size())
    return failMessage("extractvalue/insertvalue without indices");
  ins.firstWord = uint32_t(m.words.size());
  for (; at < rec.size(); ++at) {
    if (rec[at] > 0xFFFFFFFFu)
      return failMessage("extractvalue/insertvalue index out of range");
    append(m.words, rec[at]);
  }
  ins.numWords = uint32_t(m.words.size() - ins.firstWord);
  ins.opcode = s.rec.code == kExtractVal ? Opcode::ExtractValue : Opcode::InsertValue;
  // One index into a struct (most: a dx.op call's result) inline; the rest as indexedType says.
  const Type &t = m.types[agg];
  const uint64_t first = m.words[ins.firstWord];
  if (ins.numWords == 1 && t.kind == TypeKind::Struct && first < t.numElements) [[likely]] {
    ins.type = s.rec.code == kExtractVal ? m.typeElements[t.firstElement + size_t(first)] : agg;
    return true;
  }
  Expected<TypeId> member = indexedType(s, agg, m.wordsOf(ins));
  if (!member)
    return setError(member.error());
  ins.type = s.rec.code == kExtractVal ? *member : agg;
  return true;
}

bool FunctionBuilder::instruction(Instruction &ins) {
  const auto &rec = r();
  size_t at = 0;
  TypeId ty = kNoId;
  TypeId voidTy = basicType(TypeKind::Void);
  ins.type = voidTy;
  switch (s.rec.code) {
  case kUnop: {
    if (!valueTypePair(at, ty))
      return false;
    if (!need(at, 1))
      return false;
    if (rec[at++] != 0)
      return failMessage("unknown unary operator");
    ins.opcode = Opcode::FNeg;
    ins.type = ty;
    if (at < rec.size())
      ins.fastMath = decodeFastMath(rec[at]);
    return true;
  }
  case kFreeze:
    if (!valueTypePair(at, ty))
      return false;
    ins.opcode = Opcode::Freeze;
    ins.type = ty;
    return true;
  case kCast: {
    if (!valueTypePair(at, ty))
      return false;
    if (!need(at, 2))
      return false;
    TypeId dest = kNoId; // (no Expected for the type nor the opcode: decodeCast only fails)
    if (!typeAt(rec[at], dest))
      return false;
    if (rec[at + 1] > 12) [[unlikely]]
      return setError(decodeCast(s, rec[at + 1]).error());
    ins.opcode = kCastOpcodes[rec[at + 1]];
    ins.type = dest;
    return true;
  }
  case kGepOld:
  case kInboundsGepOld:
  case kGep: {
    TypeId source = kNoId;
    if (s.rec.code == kGep) {
      if (!need(at, 2))
        return false;
      if (rec[at++])
        ins.flags |= kFlagInBounds;
      if (!typeAt(rec[at++], source))
        return false;
    } else if (s.rec.code == kInboundsGepOld) {
      ins.flags |= kFlagInBounds;
    }
    TypeId base = kNoId;
    if (!valueTypePair(at, base))
      return false;
    while (at < rec.size()) {
      TypeId it;
      if (!valueTypePair(at, it))
        return false;
    }
    if (source == kNoId)
      source = pointee(base);
    if (source == kNoId)
      return failMessage("getelementptr without a source element type");
    ins.opcode = Opcode::GetElementPtr;
    ins.auxType = source;
    Expected<TypeId> result =
        gepResultType(s, source, base,
                      std::span<const ValueId>(m.operands.data() + ins.firstOperand + 1,
                                               m.operands.size() - ins.firstOperand - 1));
    if (!result)
      return setError(result.error());
    ins.type = *result;
    return true;
  }
  case kSelect:
  case kVSelect: {
    // [t pair, f, cond pair] (VSELECT) or [t pair, f, cond i1] (old)
    size_t condAt = ins.firstOperand;
    TypeId tt;
    // Operands are stored [cond, t, f]: read t and f first, then move the condition to front.
    if (!valueTypePair(at, tt))
      return false;
    if (!value(at, tt))
      return false;
    if (s.rec.code == kVSelect) {
      TypeId ct;
      if (!valueTypePair(at, ct))
        return false;
    } else if (!value(at, basicType(TypeKind::Integer, 1))) {
      return false;
    }
    // rotate [t, f, cond] to [cond, t, f], moving fixups along
    ValueId t = m.operands[condAt], f = m.operands[condAt + 1], c = m.operands[condAt + 2];
    m.operands[condAt] = c;
    m.operands[condAt + 1] = t;
    m.operands[condAt + 2] = f;
    for (size_t k = fixupBase; k < s.fixups.size(); ++k) {
      Fixup &fx = s.fixups[k];
      if (fx.target != Fixup::Target::Operand || fx.index < condAt || fx.index > condAt + 2)
        continue;
      fx.index = fx.index == condAt + 2 ? uint32_t(condAt) : fx.index + 1;
    }
    ins.opcode = Opcode::Select;
    ins.type = tt;
    if (at < rec.size())
      ins.fastMath = decodeFastMath(rec[at]);
    return true;
  }
  case kExtractElt: {
    TypeId vt, it;
    if (!valueTypePair(at, vt))
      return false;
    if (!valueTypePair(at, it))
      return false;
    if (m.types[vt].kind != TypeKind::Vector)
      return failMessage("extractelement on a value that is not a vector");
    ins.opcode = Opcode::ExtractElement;
    ins.type = m.elementType(vt);
    return true;
  }
  case kInsertElt: {
    TypeId vt, it;
    if (!valueTypePair(at, vt))
      return false;
    if (m.types[vt].kind != TypeKind::Vector)
      return failMessage("insertelement on a value that is not a vector");
    if (!value(at, m.elementType(vt)))
      return false;
    if (!valueTypePair(at, it))
      return false;
    ins.opcode = Opcode::InsertElement;
    ins.type = vt;
    return true;
  }
  case kShuffleVec: {
    TypeId vt, mt;
    if (!valueTypePair(at, vt))
      return false;
    if (!value(at, vt))
      return false;
    if (!valueTypePair(at, mt))
      return false;
    if (m.types[vt].kind != TypeKind::Vector || m.types[mt].kind != TypeKind::Vector)
      return failMessage("shufflevector on values that are not vectors");
    Type v;
    v.kind = TypeKind::Vector;
    v.count = m.types[mt].count;
    v.scalable = m.types[vt].scalable;
    TypeId elem = m.elementType(vt);
    ins.opcode = Opcode::ShuffleVector;
    ins.type = s.intern(v, std::span<const TypeId>(&elem, 1));
    return true;
  }
  case kCmp:
  case kCmp2: {
    if (!sameTypePairAndField(at, ty))
      return false;
    uint64_t pred = rec[at++];
    if (pred > 41 || (pred > 15 && pred < 32))
      return setError(s.error("unknown comparison predicate " + std::to_string(pred)));
    ins.opcode = pred >= 32 ? Opcode::ICmp : Opcode::FCmp;
    ins.predicate = uint8_t(pred);
    if (at < rec.size() && ins.opcode == Opcode::FCmp)
      ins.fastMath = decodeFastMath(rec[at]);
    ins.type = boolLike(ty);
    return true;
  }
  case kRet:
    ins.opcode = Opcode::Ret;
    if (!rec.empty()) {
      if (!valueTypePair(at, ty))
        return false;
      if (at != rec.size())
        return failMessage("ret with more than one value");
    }
    return true;
  case kBr:
    ins.opcode = Opcode::Br;
    if (rec.size() == 1)
      return block(rec[0]);
    if (rec.size() != 3)
      return setError(s.error("br record with " + std::to_string(rec.size()) + " operands"));
    at = 2;
    if (!value(at, basicType(TypeKind::Integer, 1)))
      return false;
    if (!block(rec[0]) || !block(rec[1]))
      return false;
    return true;
  case kSwitch: {
    if (!need(0, 3))
      return false;
    if ((rec[0] >> 16) == 0x4B5)
      return failMessage("switch with case ranges is not supported");
    if (rec.size() % 2 == 0)
      return failMessage("switch record with an incomplete case");
    Expected<TypeId> ct = s.type(rec[0]);
    if (!ct)
      return setError(ct.error());
    if (m.types[*ct].kind != TypeKind::Integer)
      return failMessage("switch on a value that is not an integer");
    at = 1;
    if (!value(at, *ct))
      return false;
    if (!block(rec[2]))
      return false;
    for (size_t i = 3; i + 1 < rec.size(); i += 2) {
      pushOperand(s, rec[i], *ct);
      const Constant *c = m.operands.back() == kNoId ? nullptr : m.constant(m.operands.back());
      if (!c || (c->kind != ConstantKind::Integer && c->kind != ConstantKind::Null))
        return failMessage("switch case value that is not an integer constant");
      if (!block(rec[i + 1]))
        return false;
    }
    ins.opcode = Opcode::Switch;
    return true;
  }
  case kUnreachable:
    ins.opcode = Opcode::Unreachable;
    return true;
  case kPhi: {
    if (!need(0, 1))
      return false;
    Expected<TypeId> t = s.type(rec[0]);
    if (!t)
      return setError(t.error());
    size_t pairsEnd = rec.size();
    if ((rec.size() - 1) % 2) { // fast-math flags last
      ins.fastMath = decodeFastMath(rec.back());
      --pairsEnd;
    }
    for (at = 1; at + 1 < pairsEnd; at += 2) {
      // A signed distance back from the next value id, in 32-bit arithmetic as LLVM's.
      uint32_t rel = uint32_t(decodeSigned(rec[at]));
      uint64_t id = s.useRelativeIds ? uint64_t(uint32_t(uint32_t(nextId()) - rel)) : rec[at];
      if (m.types[*t].kind == TypeKind::Metadata)
        return failMessage("phi of metadata");
      pushOperand(s, id, *t);
      if (!block(rec[at + 1]))
        return false;
    }
    ins.opcode = Opcode::Phi;
    ins.type = *t;
    return true;
  }
  case kAlloca: {
    if (!need(0, 4))
      return false;
    Expected<TypeId> t = s.type(rec[0]);
    Expected<TypeId> opTy = s.type(rec[1]);
    if (!t || !opTy)
      return failMessage("alloca with an unknown type");
    uint64_t alignRecord = rec[3];
    TypeId allocated = *t;
    if (!(alignRecord & (1u << 6))) {
      allocated = pointee(*t);
      if (allocated == kNoId)
        return failMessage("old-style alloca whose type is not a pointer");
    }
    if (alignRecord & (1u << 5))
      ins.flags |= kFlagInAlloca;
    if (alignRecord & (1u << 7))
      ins.flags |= kFlagSwiftError;
    if (!align((alignRecord & 31) | ((alignRecord >> 8) << 5), ins.align))
      return false;
    uint32_t addressSpace = 0;
    if (rec.size() > 4) {
      if (rec[4] > 0xFFFFFF)
        return failMessage("address space out of range");
      addressSpace = uint32_t(rec[4]);
    }
    pushOperand(s, rec[2], *opTy);
    ins.opcode = Opcode::Alloca;
    ins.auxType = allocated;
    ins.type = s.pointerTo(allocated, addressSpace);
    return true;
  }
  case kLoad:
  case kLoadAtomic: {
    TypeId pt;
    if (!valueTypePair(at, pt))
      return false;
    size_t tail = s.rec.code == kLoad ? 2 : 4;
    TypeId loaded = pointee(pt);
    if (at + tail + 1 == rec.size()) {
      if (!typeAt(rec[at++], loaded))
        return false;
    }
    if (!need(at, tail))
      return false;
    if (loaded == kNoId)
      return failMessage("load without a type");
    if (!align(rec[at], ins.align))
      return false;
    if (rec[at + 1])
      ins.flags |= kFlagVolatile;
    if (s.rec.code == kLoadAtomic) {
      if (Status st = ordering(rec[at + 2], ins.ordering); !st)
        return setError(st.error());
      ins.syncScope = uint8_t(rec[at + 3] ? 1 : 0);
    }
    ins.opcode = Opcode::Load;
    ins.type = loaded;
    ins.auxType = loaded;
    return true;
  }
  case kStore:
  case kStoreOld:
  case kStoreAtomic:
  case kStoreAtomicOld: {
    TypeId pt, vt;
    if (!valueTypePair(at, pt))
      return false;
    if (s.rec.code == kStore || s.rec.code == kStoreAtomic) {
      if (!valueTypePair(at, vt))
        return false;
    } else {
      vt = pointee(pt);
      if (vt == kNoId)
        return failMessage("store through a value that is not a pointer");
      if (!value(at, vt))
        return false;
    }
    bool atomic = s.rec.code == kStoreAtomic || s.rec.code == kStoreAtomicOld;
    if (!need(at, atomic ? 4 : 2))
      return false;
    // operands were pushed [pointer, value]; the model keeps LLVM's [value, pointer]
    std::swap(m.operands[ins.firstOperand], m.operands[ins.firstOperand + 1]);
    for (size_t k = fixupBase; k < s.fixups.size(); ++k) {
      Fixup &fx = s.fixups[k];
      if (fx.target == Fixup::Target::Operand &&
          (fx.index == ins.firstOperand || fx.index == ins.firstOperand + 1))
        fx.index = fx.index == ins.firstOperand ? ins.firstOperand + 1 : ins.firstOperand;
    }
    if (!align(rec[at], ins.align))
      return false;
    if (rec[at + 1])
      ins.flags |= kFlagVolatile;
    if (atomic) {
      if (Status st = ordering(rec[at + 2], ins.ordering); !st)
        return setError(st.error());
      ins.syncScope = uint8_t(rec[at + 3] ? 1 : 0);
    }
    ins.opcode = Opcode::Store;
    return true;
  }
  case kCmpXchgOld:
  case kCmpXchg: {
    TypeId pt, ct;
    if (!valueTypePair(at, pt))
      return false;
    if (s.rec.code == kCmpXchg) {
      if (!valueTypePair(at, ct))
        return false;
    } else {
      ct = pointee(pt);
      if (ct == kNoId)
        return failMessage("cmpxchg through a value that is not a pointer");
      if (!value(at, ct))
        return false;
    }
    if (!value(at, ct))
      return false;
    if (!need(at, 3))
      return false;
    if (rec[at])
      ins.flags |= kFlagVolatile;
    if (Status st = ordering(rec[at + 1], ins.ordering); !st)
      return setError(st.error());
    ins.syncScope = uint8_t(rec[at + 2] ? 1 : 0);
    at += 3;
    ins.failureOrdering = ins.ordering;
    if (at < rec.size()) {
      if (Status st = ordering(rec[at++], ins.failureOrdering); !st)
        return setError(st.error());
    } else {
      // Older files: the strongest failure ordering the success ordering allows.
      AtomicOrdering o = ins.ordering;
      ins.failureOrdering = o == AtomicOrdering::AcquireRelease ? AtomicOrdering::Acquire
                            : o == AtomicOrdering::Release      ? AtomicOrdering::Monotonic
                                                                : o;
    }
    if (at < rec.size() && rec[at++])
      ins.flags |= kFlagWeak;
    if (at < rec.size()) {
      if (!align(rec[at], ins.align))
        return false;
    }
    TypeId members[2] = {ct, basicType(TypeKind::Integer, 1)};
    Type st;
    st.kind = TypeKind::Struct;
    ins.opcode = Opcode::AtomicCmpXchg;
    ins.type = s.intern(st, members);
    return true;
  }
  case kAtomicRmwOld:
  case kAtomicRmw: {
    TypeId pt, vt;
    if (!valueTypePair(at, pt))
      return false;
    if (s.rec.code == kAtomicRmw) {
      if (!valueTypePair(at, vt))
        return false;
    } else {
      vt = pointee(pt);
      if (vt == kNoId)
        return failMessage("atomicrmw through a value that is not a pointer");
      if (!value(at, vt))
        return false;
    }
    if (!need(at, 4))
      return false;
    if (rec[at] > 12)
      return setError(s.error("unknown atomicrmw operation " + std::to_string(rec[at])));
    ins.predicate = uint8_t(rec[at]);
    if (rec[at + 1])
      ins.flags |= kFlagVolatile;
    if (Status st = ordering(rec[at + 2], ins.ordering); !st)
      return setError(st.error());
    ins.syncScope = uint8_t(rec[at + 3] ? 1 : 0);
    at += 4;
    if (at < rec.size()) {
      if (!align(rec[at], ins.align))
        return false;
    }
    ins.opcode = Opcode::AtomicRMW;
    ins.type = vt;
    return true;
  }
  case kFence:
    if (!need(0, 2))
      return false;
    if (Status st = ordering(rec[0], ins.ordering); !st)
      return setError(st.error());
    ins.syncScope = uint8_t(rec[1] ? 1 : 0);
    ins.opcode = Opcode::Fence;
    return true;
  case kVAArg: {
    if (!need(0, 3))
      return false;
    Expected<TypeId> lt = s.type(rec[0]);
    Expected<TypeId> rt = s.type(rec[2]);
    if (!lt || !rt)
      return failMessage("va_arg with an unknown type");
    at = 1;
    if (!value(at, *lt))
      return false;
    ins.opcode = Opcode::VAArg;
    ins.type = *rt;
    return true;
  }
  case kInvoke:
  case kResume:
  case kLandingPad:
  case kIndirectBr:
  case kOperandBundle:
    return setError(
        s.error("instruction record " + std::to_string(s.rec.code) +
                " is not supported (exceptions, indirect branches and operand bundles are "
                "not part of DXIL)"));
  default:
    return setError(s.error("unknown instruction record code " + std::to_string(s.rec.code)));
  }
}

} // namespace

Status readFunctionBlock(ReaderState &s, uint32_t function) {
  FunctionBuilder builder(s, function);
  return builder.run();
}

} // namespace spire::dxil::detail
