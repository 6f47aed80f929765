// The CONSTANTS_BLOCK: integers, floats, aggregates, data arrays, strings and constant
// expressions, made canonical as LLVM makes them once the block is read.
#include "BitcodeReaderState.h"
#include "ReaderSupport.h"

#include <algorithm>

namespace spire::dxil::detail {

namespace {

enum ConstantCode : uint32_t {
  kSetType = 1,
  kNull = 2,
  kUndef = 3,
  kInteger = 4,
  kWideInteger = 5,
  kFloat = 6,
  kAggregate = 7,
  kString = 8,
  kCString = 9,
  kCeBinop = 10,
  kCeCast = 11,
  kCeGep = 12,
  kCeSelect = 13,
  kCeExtractElt = 14,
  kCeInsertElt = 15,
  kCeShuffleVec = 16,
  kCeCmp = 17,
  kCeInboundsGep = 20,
  kBlockAddress = 21,
  kData = 22,
  kCeGepWithInrange = 24,
  kCeUnop = 25,
  kPoison = 26,
};

bool isFloatKind(TypeKind k) {
  return k == TypeKind::Half || k == TypeKind::BFloat || k == TypeKind::Float ||
         k == TypeKind::Double || k == TypeKind::X86Fp80 || k == TypeKind::Fp128 ||
         k == TypeKind::PpcFp128;
}

} // namespace

uint64_t decodeSigned(uint64_t v) {
  if ((v & 1) == 0)
    return v >> 1;
  if (v != 1)
    return uint64_t(0) - (v >> 1);
  return uint64_t(1) << 63;
}

namespace {
/// Appends `index` to a block's data and aggregates, with room for a few at the first (not
/// grown from one).
void listSpecial(ReaderState::Vector<uint32_t> &special, uint32_t index) {
  if (special.capacity() == 0)
    special.reserve(16);
  special.push_back(index);
}
} // namespace

[[gnu::flatten]] Status readConstantsBlock(ReaderState &s, uint32_t function) {
  (void)function;
  LlvmModule &m = s.m;
  uint32_t firstConstant = uint32_t(m.constants.size());
  size_t firstFixup = s.fixups.size();
  TypeId current = kNoId;
  // The current type's entry, kept from SETTYPE on (refreshed after records that can make
  // types, which can move the table).
  const Type *currentType = nullptr;
  TypeId i1 = kNoId;
  // The current type's value mask when it is an integer of 1 to 64 bits, else 0: the INTEGER
  // records of such types (most constants) take the short way below.
  uint64_t intMask = 0;
  bool nullable = false; // the current type has a null value
  // The data and aggregate constants, the only ones made canonical after the block (most blocks,
  // a function's, have none; a module's a few among many).
  ReaderState::Vector<uint32_t> special(s.scratch);
  // The next constant's index and value id, counted here (the tables' sizes are divisions by
  // their element sizes): only this loop adds constants and values.
  uint32_t nextIndex = firstConstant;
  ValueId nextValue = ValueId(m.values.size());
  // The abbreviations as readScalars takes them: BLOCKINFO's (the ids a block has at its
  // start) kept from the blocks before while BLOCKINFO is the same (a nonzero identity: one
  // BLOCKINFO block, whose lists do not change), the block's own found again (an id's
  // definition does not change inside its block).
  {
    const uint64_t info = s.bs.blockInfoIdentity();
    const size_t fromInfo = info ? std::min<size_t>(s.bs.abbrevCount(), 32) : 0;
    const uint32_t keep =
        info == s.constantLayoutsInfo
            ? uint32_t(((uint64_t(1) << (fromInfo + kFirstApplicationAbbrev)) - 1) & ~uint64_t(15))
            : 0;
    s.constantLayoutsKnown &= keep;
    s.constantLayoutsInfo = info;
  }
  uint32_t knownLayouts = s.constantLayoutsKnown;
  BitstreamReader::ScalarAbbrev *const layouts = s.constantLayouts;
  BitstreamEntry e; // (next() sets it in a block: not reset for every entry)
  for (;;) {
    if (!s.bs.next(e))
      return s.bs.takeError();
    if (e.kind == BitstreamEntry::Kind::EndBlock) {
      s.constantLayoutsKnown = knownLayouts; // (the block's own are dropped at the next one)
      break;
    }
    if (e.kind == BitstreamEntry::Kind::SubBlock) {
      if (Status st = s.bs.skipBlock(); !st)
        return st;
      continue;
    }
    if (e.kind != BitstreamEntry::Kind::Record)
      return s.bs.error("the data ends inside a constants block");
    // Abbreviated records through their abbreviation's layout, found once a block.
    bool ok;
    if (e.id == kAbbrevUnabbreviatedRecord) {
      ok = s.bs.read(e.id, s.rec);
    } else if (e.id < 32) [[likely]] {
      BitstreamReader::ScalarAbbrev &a = layouts[e.id];
      if (!((knownLayouts >> e.id) & 1)) [[unlikely]] {
        a = s.bs.scalarAbbrev(e.id);
        knownLayouts |= uint32_t(1) << e.id;
      }
      ok = s.bs.readScalars(a, e.id, s.rec);
    } else {
      ok = s.bs.read(e.id, s.rec);
    }
    if (!ok)
      return s.bs.takeError();
    const auto &r = s.rec.ops;
    if (s.rec.code == kSetType) {
      if (r.empty())
        return s.error("SETTYPE without a type");
      // (s.type() without an Expected for every SETTYPE)
      if (r[0] >= s.typeMap.size() || s.typeMap[r[0]] == kNoId)
        return s.undefinedType(r[0]);
      const TypeId t = s.typeMap[r[0]];
      const Type &tt = m.types[t];
      TypeKind k = tt.kind;
      if (k == TypeKind::Void || k == TypeKind::Function || k == TypeKind::Label ||
          k == TypeKind::Metadata)
        return s.error("constants of a type that has no constants");
      current = t;
      currentType = &tt;
      nullable = k != TypeKind::Token;
      intMask = k == TypeKind::Integer && tt.bits - 1 < 64 ? ~uint64_t(0) >> (64 - tt.bits) : 0;
      continue;
    }
    // The common constants whole, in one append (the general way below appends a default
    // constant and fills it in place, its index and value id kept across its switch).
    auto quick = [&](ConstantKind kind, uint64_t bits) {
      Constant c;
      c.kind = kind;
      c.type = current;
      c.value = nextValue;
      c.bits = bits;
      append(m.constants, c);
      append(m.values, Value{ValueKind::Constant, current, nextIndex, {}});
      append(s.valueIds, nextValue);
      ++nextIndex;
      ++nextValue;
    };
    if (s.rec.code == kInteger && intMask && !r.empty()) {
      quick(ConstantKind::Integer, decodeSigned(r[0]) & intMask);
      continue;
    }
    if (s.rec.code == kUndef && current != kNoId) {
      quick(ConstantKind::Undef, 0);
      continue;
    }
    if (s.rec.code == kNull && nullable) {
      quick(ConstantKind::Null, 0);
      continue;
    }
    if (current == kNoId)
      return s.error("constant before any SETTYPE");
    const Type &ct = *currentType;
    // Appended with the fields every constant has, then filled in place (a module that fails is
    // dropped whole): the default constant's stores and these are one set. Where its operands
    // and words start is set by the records that have them (most have none: the start of an
    // empty range is 0).
    const uint32_t index = nextIndex++;
    {
      Constant made;
      made.type = current;
      append(m.constants, made);
    }
    Constant &c = m.constants.back();
    auto tooShort = [&](size_t n) { return r.size() < n; }; // no Status per record
    switch (s.rec.code) {
    case kNull:
      if (ct.kind == TypeKind::Token || ct.kind == TypeKind::Label)
        return s.error("null of a type without a null value");
      c.kind = ConstantKind::Null;
      break;
    case kUndef:
      c.kind = ConstantKind::Undef;
      break;
    case kPoison:
      c.kind = ConstantKind::Poison;
      break;
    case kInteger:
      if (tooShort(1))
        return s.error("constant record too short");
      if (ct.kind != TypeKind::Integer)
        return s.error("integer constant of a type that is not an integer");
      c.kind = ConstantKind::Integer;
      c.bits = truncateTo(decodeSigned(r[0]), ct.bits);
      if (ct.bits > 64) { // keep the full width as words
        c.firstWord = uint32_t(m.words.size());
        uint64_t v = decodeSigned(r[0]);
        uint64_t fill = (v >> 63) ? ~uint64_t(0) : 0;
        m.words.push_back(v);
        for (uint32_t i = 1; i < (ct.bits + 63) / 64; ++i)
          m.words.push_back(fill);
        c.numWords = (ct.bits + 63) / 64;
        m.words.back() = truncateTo(m.words.back(), ct.bits - 64 * (c.numWords - 1));
      }
      break;
    case kWideInteger: {
      c.firstWord = uint32_t(m.words.size());
      if (tooShort(1))
        return s.error("constant record too short");
      if (ct.kind != TypeKind::Integer)
        return s.error("integer constant of a type that is not an integer");
      uint32_t words = (ct.bits + 63) / 64;
      c.kind = ConstantKind::Integer;
      for (uint32_t i = 0; i < words; ++i)
        m.words.push_back(i < r.size() ? decodeSigned(r[i]) : 0);
      m.words.back() = truncateTo(m.words.back(), ct.bits - 64 * (words - 1));
      c.numWords = words;
      c.bits = m.words[c.firstWord];
      break;
    }
    case kFloat:
      if (tooShort(1))
        return s.error("constant record too short");
      if (!isFloatKind(ct.kind))
        return s.error("floating-point constant of a type that is not floating point");
      c.kind = ConstantKind::Float;
      if (ct.kind == TypeKind::Half || ct.kind == TypeKind::BFloat)
        c.bits = r[0] & 0xFFFF;
      else if (ct.kind == TypeKind::Float)
        c.bits = r[0] & 0xFFFFFFFFu;
      else
        c.bits = r[0];
      if (r.size() > 1 && (ct.kind == TypeKind::X86Fp80 || ct.kind == TypeKind::Fp128 ||
                           ct.kind == TypeKind::PpcFp128)) {
        c.firstWord = uint32_t(m.words.size());
        m.words.push_back(r[0]);
        m.words.push_back(r[1]);
        c.numWords = 2;
      }
      break;
    case kAggregate: {
      c.firstOperand = uint32_t(m.operands.size());
      if (ct.kind != TypeKind::Struct && ct.kind != TypeKind::Array && ct.kind != TypeKind::Vector)
        return s.error("aggregate constant of a type that is not an aggregate");
      uint64_t count = ct.kind == TypeKind::Struct ? ct.numElements : ct.count;
      if (r.size() != count)
        return s.error("aggregate constant with " + std::to_string(r.size()) +
                       " elements for a type of " + std::to_string(count));
      c.kind = ConstantKind::Aggregate;
      listSpecial(special, index);
      {
        // (A struct's element types one by one, an array's or vector's the same.)
        const size_t step = ct.kind == TypeKind::Struct ? 1 : 0;
        const size_t first = ct.firstElement;
        for (size_t i = 0, n = r.size(); i < n; ++i)
          pushOperand(s, r[i], m.typeElements[first + i * step]);
      }
      c.numOperands = uint32_t(r.size());
      break;
    }
    case kString:
    case kCString:
    case kData: {
      c.firstWord = uint32_t(m.words.size());
      if (ct.kind != TypeKind::Array && ct.kind != TypeKind::Vector)
        return s.error("data constant of a type that is not an array or vector");
      const Type &et = m.types[m.elementType(current)];
      bool isInt = et.kind == TypeKind::Integer &&
                   (et.bits == 8 || et.bits == 16 || et.bits == 32 || et.bits == 64);
      if (!isInt && !(et.kind == TypeKind::Half || et.kind == TypeKind::BFloat ||
                      et.kind == TypeKind::Float || et.kind == TypeKind::Double))
        return s.error("data constant of an element type that is not plain");
      if (s.rec.code != kData && !(isInt && et.bits == 8))
        return s.error("string constant of an array that is not of i8");
      uint64_t count = r.size() + (s.rec.code == kCString ? 1 : 0);
      if (count != ct.count)
        return s.error("data constant with " + std::to_string(count) + " elements for a type of " +
                       std::to_string(ct.count));
      c.kind = ConstantKind::Data;
      listSpecial(special, index);
      uint32_t width = isInt ? et.bits
                             : (et.kind == TypeKind::Float    ? 32
                                : et.kind == TypeKind::Double ? 64
                                                              : 16);
      for (uint64_t v : r)
        m.words.push_back(truncateTo(v, width));
      if (s.rec.code == kCString)
        m.words.push_back(0);
      c.numWords = uint32_t(count);
      break;
    }
    case kCeUnop: {
      c.firstOperand = uint32_t(m.operands.size());
      if (tooShort(2))
        return s.error("constant record too short");
      if (r[0] != 0)
        return s.error("unknown unary constant expression");
      c.kind = ConstantKind::Expr;
      c.opcode = Opcode::FNeg;
      pushOperand(s, r[1], current);
      c.numOperands = 1;
      break;
    }
    case kCeBinop: {
      c.firstOperand = uint32_t(m.operands.size());
      if (tooShort(3))
        return s.error("constant record too short");
      Expected<Opcode> op = decodeBinop(s, r[0], current);
      if (!op)
        return op.error();
      c.kind = ConstantKind::Expr;
      c.opcode = *op;
      pushOperand(s, r[1], current);
      pushOperand(s, r[2], current);
      c.numOperands = 2;
      if (r.size() > 3)
        c.flags = decodeBinopFlags(*op, r[3]);
      break;
    }
    case kCeCast: {
      c.firstOperand = uint32_t(m.operands.size());
      if (tooShort(3))
        return s.error("constant record too short");
      Expected<Opcode> op = decodeCast(s, r[0]);
      if (!op)
        return op.error();
      Expected<TypeId> opTy = s.type(r[1]);
      if (!opTy)
        return opTy.error();
      c.kind = ConstantKind::Expr;
      c.opcode = *op;
      pushOperand(s, r[2], *opTy);
      c.numOperands = 1;
      break;
    }
    case kCeGep:
    case kCeInboundsGep:
    case kCeGepWithInrange: {
      c.firstOperand = uint32_t(m.operands.size());
      size_t at = 0;
      TypeId source = kNoId;
      if (s.rec.code == kCeGepWithInrange || r.size() % 2) {
        if (tooShort(1))
          return s.error("constant record too short");
        Expected<TypeId> t = s.type(r[at++]);
        if (!t)
          return t.error();
        source = *t;
      }
      if (s.rec.code == kCeGepWithInrange) {
        if (tooShort(at + 1))
          return s.error("constant record too short");
        if (r[at++] & 1)
          c.flags |= kFlagInBounds;
      } else if (s.rec.code == kCeInboundsGep) {
        c.flags |= kFlagInBounds;
      }
      if (at >= r.size())
        return s.error("getelementptr constant without operands");
      c.kind = ConstantKind::Expr;
      c.opcode = Opcode::GetElementPtr;
      TypeId pointerType = kNoId;
      while (at + 1 < r.size()) {
        Expected<TypeId> t = s.type(r[at]);
        if (!t)
          return t.error();
        if (pointerType == kNoId)
          pointerType = *t;
        pushOperand(s, r[at + 1], *t);
        at += 2;
        c.numOperands++;
      }
      if (at != r.size())
        return s.error("getelementptr constant with an odd operand");
      const Type &pt = m.types[pointerType];
      if (pt.kind != TypeKind::Pointer)
        return s.error("getelementptr constant on a value that is not a pointer");
      if (source == kNoId) {
        if (!pt.numElements)
          return s.error("getelementptr constant without a source element type");
        source = m.elementType(pointerType);
      }
      c.sourceType = source;
      Expected<TypeId> result = gepResultType(
          s, source, pointerType,
          std::span<const ValueId>(m.operands.data() + c.firstOperand + 1, c.numOperands - 1));
      if (!result)
        return result.error();
      c.type = *result;
      currentType = &m.types[current]; // (the result type may be new)
      break;
    }
    case kCeSelect: {
      c.firstOperand = uint32_t(m.operands.size());
      if (tooShort(3))
        return s.error("constant record too short");
      // (Read before the types below are made: `ct` is in the table they go to.)
      const bool vector = ct.kind == TypeKind::Vector;
      const uint64_t count = ct.count;
      const bool scalable = ct.scalable;
      if (i1 == kNoId) {
        Type t;
        t.kind = TypeKind::Integer;
        t.bits = 1;
        i1 = s.intern(t, {});
      }
      TypeId condTy = i1;
      if (vector) {
        Type v;
        v.kind = TypeKind::Vector;
        v.count = count;
        v.scalable = scalable;
        condTy = s.intern(v, std::span<const TypeId>(&i1, 1));
      }
      currentType = &m.types[current];
      c.kind = ConstantKind::Expr;
      c.opcode = Opcode::Select;
      pushOperand(s, r[0], kNoId); // the condition: i1 or a vector of i1 (checked loosely)
      pushOperand(s, r[1], current);
      pushOperand(s, r[2], current);
      (void)condTy;
      c.numOperands = 3;
      break;
    }
    case kCeExtractElt: {
      c.firstOperand = uint32_t(m.operands.size());
      if (tooShort(4))
        return s.error("constant record too short");
      Expected<TypeId> vt = s.type(r[0]);
      Expected<TypeId> it = s.type(r[2]);
      if (!vt || !it)
        return s.error("extractelement constant with an unknown type");
      if (m.types[*vt].kind != TypeKind::Vector)
        return s.error("extractelement constant on a value that is not a vector");
      c.kind = ConstantKind::Expr;
      c.opcode = Opcode::ExtractElement;
      c.type = m.elementType(*vt);
      pushOperand(s, r[1], *vt);
      pushOperand(s, r[3], *it);
      c.numOperands = 2;
      break;
    }
    case kCeInsertElt: {
      c.firstOperand = uint32_t(m.operands.size());
      if (tooShort(4))
        return s.error("constant record too short");
      if (ct.kind != TypeKind::Vector)
        return s.error("insertelement constant of a type that is not a vector");
      Expected<TypeId> it = s.type(r[2]);
      if (!it)
        return it.error();
      c.kind = ConstantKind::Expr;
      c.opcode = Opcode::InsertElement;
      pushOperand(s, r[0], current);
      pushOperand(s, r[1], m.elementType(current));
      pushOperand(s, r[3], *it);
      c.numOperands = 3;
      break;
    }
    case kCeShuffleVec: {
      c.firstOperand = uint32_t(m.operands.size());
      if (tooShort(3))
        return s.error("constant record too short");
      if (ct.kind != TypeKind::Vector)
        return s.error("shufflevector constant of a type that is not a vector");
      c.kind = ConstantKind::Expr;
      c.opcode = Opcode::ShuffleVector;
      pushOperand(s, r[0], current);
      pushOperand(s, r[1], current);
      pushOperand(s, r[2], kNoId);
      c.numOperands = 3;
      break;
    }
    case kCeCmp: {
      c.firstOperand = uint32_t(m.operands.size());
      if (tooShort(4))
        return s.error("constant record too short");
      Expected<TypeId> opTy = s.type(r[0]);
      if (!opTy)
        return opTy.error();
      if (r[3] > 41 || (r[3] > 15 && r[3] < 32))
        return s.error("unknown comparison predicate " + std::to_string(r[3]));
      c.kind = ConstantKind::Expr;
      c.opcode = r[3] >= 32 ? Opcode::ICmp : Opcode::FCmp;
      c.predicate = uint8_t(r[3]);
      pushOperand(s, r[1], *opTy);
      pushOperand(s, r[2], *opTy);
      c.numOperands = 2;
      break;
    }
    case kBlockAddress: {
      c.firstOperand = uint32_t(m.operands.size());
      c.firstWord = uint32_t(m.words.size());
      if (tooShort(3))
        return s.error("constant record too short");
      c.kind = ConstantKind::BlockAddress;
      pushOperand(s, r[1], kNoId);
      m.words.push_back(r[2]);
      c.numOperands = 1;
      c.numWords = 1;
      break;
    }
    default:
      return s.error("unsupported constant record code " + std::to_string(s.rec.code));
    }
    c.value = nextValue++;
    append(m.values, Value{ValueKind::Constant, c.type, index, {}});
    append(s.valueIds, c.value); // (growth out of line)
  }
  if (std::optional<Diagnostic> bad = resolveFixups(s, s.fixups, firstFixup))
    return std::move(*bad);
  if (special.empty())
    return {};
  return canonicalizeConstants(s, firstConstant, special);
}

namespace {

bool isNullValue(const LlvmModule &m, const Constant &c) {
  switch (c.kind) {
  case ConstantKind::Null:
    return true;
  case ConstantKind::Integer:
  case ConstantKind::Float:
    if (c.numWords) {
      for (uint64_t w : m.wordsOf(c))
        if (w)
          return false;
      return true;
    }
    return c.bits == 0;
  default:
    return false;
  }
}

/// Applies LLVM's canonical forms to one aggregate or data constant whose elements are final.
void canonicalizeOne(LlvmModule &m, Constant &c) {
  if (c.kind == ConstantKind::Data) {
    for (uint64_t w : m.wordsOf(c))
      if (w)
        return;
    c.kind = ConstantKind::Null;
    c.numWords = 0;
    return;
  }
  if (c.kind != ConstantKind::Aggregate)
    return;
  std::span<const ValueId> ops = m.operandsOf(c);
  if (ops.empty()) {
    c.kind = ConstantKind::Null;
    return;
  }
  const Constant *first = m.constant(ops[0]);
  if (!first)
    return;
  // All the same undef or poison (of one type, so the same constant), or all null.
  bool allSame = true, allNull = true;
  for (ValueId v : ops) {
    const Constant *e = m.constant(v);
    if (!e) {
      allSame = allNull = false;
      break;
    }
    if (e->kind != first->kind ||
        !(e->kind == ConstantKind::Undef || e->kind == ConstantKind::Poison) ||
        e->type != first->type)
      allSame = false;
    if (!isNullValue(m, *e))
      allNull = false;
  }
  if (allSame && (first->kind == ConstantKind::Undef || first->kind == ConstantKind::Poison)) {
    c.kind = first->kind;
    c.numOperands = 0;
    return;
  }
  if (allNull) {
    c.kind = ConstantKind::Null;
    c.numOperands = 0;
    return;
  }
  const Type &t = m.types[c.type];
  if (t.kind == TypeKind::Struct)
    return;
  const Type &et = m.types[m.elementType(c.type)];
  bool plain = (et.kind == TypeKind::Integer &&
                (et.bits == 8 || et.bits == 16 || et.bits == 32 || et.bits == 64)) ||
               et.kind == TypeKind::Half || et.kind == TypeKind::BFloat ||
               et.kind == TypeKind::Float || et.kind == TypeKind::Double;
  if (!plain)
    return;
  for (ValueId v : ops) {
    const Constant *e = m.constant(v);
    if (!e || !(e->kind == ConstantKind::Integer || e->kind == ConstantKind::Float ||
                (e->kind == ConstantKind::Null)))
      return;
  }
  // A plain sequence: its elements become data words.
  uint32_t firstWord = uint32_t(m.words.size());
  for (ValueId v : ops) {
    const Constant *e = m.constant(v);
    m.words.push_back(e->kind == ConstantKind::Null ? 0 : e->bits);
  }
  c.kind = ConstantKind::Data;
  c.firstWord = firstWord;
  c.numWords = uint32_t(ops.size());
  c.numOperands = 0;
}

} // namespace

Status canonicalizeConstants(ReaderState &s, uint32_t first, std::span<const uint32_t> special) {
  LlvmModule &m = s.m;
  // Data constants depend on their own words alone; most blocks (a function's) hold no
  // aggregate, and then one pass is all.
  bool aggregates = false;
  for (uint32_t ci : special) {
    Constant &c = m.constants[ci];
    if (c.kind == ConstantKind::Data)
      canonicalizeOne(m, c);
    aggregates = aggregates || c.kind == ConstantKind::Aggregate;
  }
  if (!aggregates)
    return {};
  // Post-order over element references (forward references make plain order insufficient),
  // of the aggregates alone: the other constants are final already.
  ReaderState::Vector<uint8_t> state(m.constants.size() - first, 0,
                                     s.scratch); // 0 new, 1 open, 2 done
  ReaderState::Vector<uint32_t> stack(s.scratch);
  for (uint32_t root : special) {
    if (state[root - first] == 2 || m.constants[root].kind != ConstantKind::Aggregate)
      continue;
    stack.push_back(root);
    while (!stack.empty()) {
      uint32_t ci = stack.back();
      uint8_t &st = state[ci - first];
      if (st == 0) {
        st = 1;
        const Constant &c = m.constants[ci];
        if (c.kind == ConstantKind::Aggregate)
          for (ValueId v : m.operandsOf(c)) {
            const Value &val = m.values[v];
            if (val.kind != ValueKind::Constant || val.index < first ||
                m.constants[val.index].kind != ConstantKind::Aggregate)
              continue;
            // (An aggregate cannot reach itself: its type would contain itself.)
            if (state[val.index - first] == 0)
              stack.push_back(val.index);
          }
        continue;
      }
      stack.pop_back();
      if (st == 1) {
        st = 2;
        if (m.constants[ci].kind == ConstantKind::Aggregate) // (the data: in the first pass)
          canonicalizeOne(m, m.constants[ci]);
      }
    }
  }
  return {};
}

} // namespace spire::dxil::detail
