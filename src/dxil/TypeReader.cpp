// The TYPE_BLOCK: LLVM types, uniqued, with identified structs that may be referenced before
// their record (through pointers).
#include "BitcodeReaderState.h"

#include <algorithm>

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

bool isValidElement(const Type &t, bool forArray) {
  switch (t.kind) {
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

} // namespace

Status readTypeBlock(ReaderState &s) {
  std::pmr::string pendingName(s.scratch);
  ReaderState::Vector<TypeId> elems(s.scratch);
  // Reference to bitcode type `id` from a record that is not defined yet: a struct defined
  // later (a placeholder until its record), or an error.
  auto refSlow = [&](uint64_t id) -> Expected<TypeId> {
    if (id >= s.declaredTypes)
      return s.error("type id " + std::to_string(id) + " out of range");
    if (s.typeMap.size() <= id) {
      s.typeMap.resize(id + 1, kNoId);
      s.typePlaceholder.resize(id + 1, 0);
    }
    Type t;
    t.kind = TypeKind::Struct;
    t.identified = true;
    t.opaque = true;
    t.firstElement = uint32_t(s.m.typeElements.size());
    s.typeMap[id] = TypeId(s.m.types.size());
    s.typePlaceholder[id] = 1;
    s.m.types.push_back(t);
    return s.typeMap[id];
  };
  // The common case inline: a type defined already.
  auto ref = [&](uint64_t id) -> Expected<TypeId> {
    if (id < s.typeMap.size() && s.typeMap[id] != kNoId) [[likely]]
      return s.typeMap[id];
    return refSlow(id);
  };
  uint64_t next = 0; // the bitcode id the next type record defines
  for (;;) {
    BitstreamEntry e;
    if (!s.bs.next(e))
      return s.bs.takeError();
    if (e.kind == BitstreamEntry::Kind::EndBlock)
      break;
    if (e.kind == BitstreamEntry::Kind::SubBlock) {
      if (Status st = s.bs.skipBlock(); !st)
        return st;
      continue;
    }
    if (e.kind != BitstreamEntry::Kind::Record)
      return s.bs.error("the data ends inside the type block");
    if (!s.bs.read(e.id, s.rec))
      return s.bs.takeError();
    const auto &r = s.rec.ops;
    if (s.rec.code == kNumEntry) {
      if (r.empty() || r[0] > s.bs.bitsLeft())
        return s.error("NUMENTRY larger than the rest of the data can define");
      s.declaredTypes = r[0];
      // Room for the declared types at once, as many as the bits left could hold (a record
      // takes more than 4 bits), so that a hostile count allocates nothing large.
      if (size_t want = size_t(std::min<uint64_t>(r[0], s.bs.bitsLeft() / 4));
          s.typeMap.size() < want) {
        s.typeMap.resize(want, kNoId);
        s.typePlaceholder.resize(want, 0);
      }
      continue;
    }
    if (s.rec.code == kStructName) {
      pendingName.resize(r.size());
      for (size_t k = 0; k < r.size(); ++k)
        pendingName[k] = char(uint8_t(r[k]));
      continue;
    }
    if (next >= s.declaredTypes)
      return s.error("more type records than NUMENTRY declared");
    Type t;
    elems.clear();
    bool identified = false;
    auto tooShort = [&](size_t n) { return r.size() < n; }; // no Status per record
    switch (s.rec.code) {
    case kVoid:
      t.kind = TypeKind::Void;
      break;
    case kHalf:
      t.kind = TypeKind::Half;
      break;
    case kBFloat:
      t.kind = TypeKind::BFloat;
      break;
    case kFloat:
      t.kind = TypeKind::Float;
      break;
    case kDouble:
      t.kind = TypeKind::Double;
      break;
    case kX86Fp80:
      t.kind = TypeKind::X86Fp80;
      break;
    case kFp128:
      t.kind = TypeKind::Fp128;
      break;
    case kPpcFp128:
      t.kind = TypeKind::PpcFp128;
      break;
    case kLabel:
      t.kind = TypeKind::Label;
      break;
    case kMetadata:
      t.kind = TypeKind::Metadata;
      break;
    case kX86Mmx:
      t.kind = TypeKind::X86Mmx;
      break;
    case kX86Amx:
      t.kind = TypeKind::X86Amx;
      break;
    case kToken:
      t.kind = TypeKind::Token;
      break;
    case kInteger:
      if (tooShort(1))
        return s.error("type record too short");
      if (r[0] < 1 || r[0] > (1u << 24) - 1)
        return s.error("integer width " + std::to_string(r[0]) + " out of range");
      t.kind = TypeKind::Integer;
      t.bits = uint32_t(r[0]);
      break;
    case kPointer: {
      if (tooShort(1))
        return s.error("type record too short");
      Expected<TypeId> pointee = ref(r[0]);
      if (!pointee)
        return pointee.error();
      TypeKind pk = s.m.types[*pointee].kind;
      if (pk == TypeKind::Void || pk == TypeKind::Label || pk == TypeKind::Metadata ||
          pk == TypeKind::Token)
        return s.error("pointer to a type that cannot be pointed to");
      t.kind = TypeKind::Pointer;
      if (r.size() > 1) {
        if (r[1] > 0xFFFFFF)
          return s.error("address space out of range");
        t.bits = uint32_t(r[1]);
      }
      elems.push_back(*pointee);
      break;
    }
    case kOpaquePointer:
      if (tooShort(1))
        return s.error("type record too short");
      if (r[0] > 0xFFFFFF)
        return s.error("address space out of range");
      t.kind = TypeKind::Pointer;
      t.bits = uint32_t(r[0]);
      break;
    case kFunctionOld:
    case kFunction: {
      size_t first = s.rec.code == kFunctionOld ? 2 : 1;
      if (tooShort(first + 1))
        return s.error("type record too short");
      t.kind = TypeKind::Function;
      t.varArg = r[0] != 0;
      for (size_t i = first; i < r.size(); ++i) {
        Expected<TypeId> el = ref(r[i]);
        if (!el)
          return el.error();
        TypeKind k = s.m.types[*el].kind;
        if (i > first && (k == TypeKind::Void || k == TypeKind::Function))
          return s.error("function parameter of type void or function");
        if (i == first &&
            (k == TypeKind::Function || k == TypeKind::Label || k == TypeKind::Metadata))
          return s.error("function returning a function, label or metadata");
        elems.push_back(*el);
      }
      break;
    }
    case kStructAnon:
    case kStructNamed: {
      if (tooShort(1))
        return s.error("type record too short");
      t.kind = TypeKind::Struct;
      t.packed = r[0] != 0;
      for (size_t i = 1; i < r.size(); ++i) {
        Expected<TypeId> el = ref(r[i]);
        if (!el)
          return el.error();
        if (!isValidElement(s.m.types[*el], false))
          return s.error("struct member of a type that cannot be a member");
        elems.push_back(*el);
      }
      identified = s.rec.code == kStructNamed;
      break;
    }
    case kOpaque:
      t.kind = TypeKind::Struct;
      t.opaque = true;
      identified = true;
      break;
    case kArray:
    case kVector: {
      if (tooShort(2))
        return s.error("type record too short");
      Expected<TypeId> el = ref(r[1]);
      if (!el)
        return el.error();
      if (!isValidElement(s.m.types[*el], s.rec.code == kArray))
        return s.error("array or vector of a type that cannot be an element");
      if (s.rec.code == kVector) {
        TypeKind k = s.m.types[*el].kind;
        if (r[0] == 0 || r[0] > 0xFFFFFFFFu ||
            !(k == TypeKind::Integer || k == TypeKind::Pointer || k == TypeKind::Half ||
              k == TypeKind::BFloat || k == TypeKind::Float || k == TypeKind::Double ||
              k == TypeKind::X86Fp80 || k == TypeKind::Fp128 || k == TypeKind::PpcFp128))
          return s.error("invalid vector type");
        t.scalable = r.size() > 2 && r[2];
      }
      t.kind = s.rec.code == kArray ? TypeKind::Array : TypeKind::Vector;
      t.count = r[0];
      elems.push_back(*el);
      break;
    }
    default:
      return s.error("unknown type record code " + std::to_string(s.rec.code));
    }
    if (s.typeMap.size() <= next) {
      s.typeMap.resize(next + 1, kNoId);
      s.typePlaceholder.resize(next + 1, 0);
    }
    if (identified) {
      TypeId id;
      if (s.typeMap[next] != kNoId) {
        id = s.typeMap[next]; // fill the placeholder made by a forward reference
        s.typePlaceholder[next] = 0;
      } else {
        id = TypeId(s.m.types.size());
        s.m.types.push_back(Type{});
      }
      Type &slot = s.m.types[id];
      slot.kind = TypeKind::Struct;
      slot.identified = true;
      slot.opaque = t.opaque;
      slot.packed = t.packed;
      slot.firstElement = uint32_t(s.m.typeElements.size());
      slot.numElements = uint32_t(elems.size());
      s.m.typeElements.insert(s.m.typeElements.end(), elems.begin(), elems.end());
      if (!pendingName.empty())
        slot.name = s.addString(pendingName);
      pendingName.clear();
      s.typeMap[next] = id;
    } else {
      if (s.typeMap[next] != kNoId)
        return s.error("type " + std::to_string(next) +
                       " was referenced as a struct before its record");
      s.typeMap[next] = s.intern(t, elems);
    }
    ++next;
  }
  for (size_t i = 0; i < s.typePlaceholder.size(); ++i)
    if (s.typePlaceholder[i])
      return s.bs.error("type " + std::to_string(i) + " is referenced but never defined");
  if (next < s.declaredTypes)
    return s.bs.error("the type block defines fewer types than NUMENTRY declared");
  return checkNoSelfContainment(s);
}

} // namespace spire::dxil::detail
