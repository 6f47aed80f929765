// Alignments and sizes from a data layout string: see LlvmDataLayout.h.
#include "LlvmDataLayout.h"

#include <algorithm>
#include <string>

namespace spire::dxil {

namespace {

uint64_t parseNumber(std::string_view s) {
  uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9' || v > (uint64_t(1) << 40))
      return v;
    v = v * 10 + uint64_t(c - '0');
  }
  return v;
}

/// The next piece of `s` up to `sep` (all of it when there is none); `s` keeps what follows.
std::string_view nextPiece(std::string_view &s, char sep) {
  size_t end = s.find(sep);
  std::string_view piece = s.substr(0, end);
  s = end == std::string_view::npos ? std::string_view() : s.substr(end + 1);
  return piece;
}

} // namespace

void LlvmDataLayout::parse() const {
  parsed_ = true;
  // LLVM's defaults, then the string's entries replace them.
  entries_ = {{'i', 1, 1, 1},     {'i', 8, 1, 1},  {'i', 16, 2, 2},    {'i', 32, 4, 4},
              {'i', 64, 4, 8},    {'f', 16, 2, 2}, {'f', 32, 4, 4},    {'f', 64, 8, 8},
              {'f', 128, 16, 16}, {'v', 64, 8, 8}, {'v', 128, 16, 16}, {'a', 0, 1, 8},
              {'p', 0, 8, 8}};
  std::string_view rest = spec_;
  bool more = true;
  while (more) {
    more = rest.find('-') != std::string_view::npos;
    std::string_view item = nextPiece(rest, '-');
    if (item.empty())
      continue;
    char kind = item[0];
    if (kind != 'i' && kind != 'f' && kind != 'v' && kind != 'a' && kind != 'p')
      continue;
    // The fields after the kind, split at ':' (at most four are read).
    std::string_view fields = item.substr(1), f[4];
    size_t count = 0;
    for (bool next = true; next; ++count) {
      next = fields.find(':') != std::string_view::npos;
      std::string_view field = nextPiece(fields, ':');
      if (count < 4)
        f[count] = field;
    }
    Entry e{kind, 0, 0, 0};
    uint32_t width = uint32_t(parseNumber(f[0]));
    if (kind == 'p') {
      // p[n]:size:abi[:pref]; the entry's width is the address space, size kept in abi's place
      if (count < 3)
        continue;
      e.width = width;
      uint64_t size = parseNumber(f[1]);
      e.abi = parseNumber(f[2]) / 8;
      e.pref = count > 3 ? parseNumber(f[3]) / 8 : e.abi;
      entries_.push_back({'s', width, size / 8, size / 8}); // the pointer's size
    } else {
      if (count < 2)
        continue;
      e.width = kind == 'a' ? 0 : width;
      e.abi = parseNumber(f[1]) / 8;
      e.pref = count > 2 ? parseNumber(f[2]) / 8 : e.abi;
    }
    if (kind == 'a' && e.abi == 0)
      e.abi = 1;
    auto same = [&](const Entry &x) { return x.kind == e.kind && x.width == e.width; };
    entries_.erase(std::remove_if(entries_.begin(), entries_.end(), same), entries_.end());
    entries_.push_back(e);
  }
}

const LlvmDataLayout::Entry *LlvmDataLayout::find(char kind, uint32_t width) const {
  for (const Entry &e : entries())
    if (e.kind == kind && e.width == width)
      return &e;
  return nullptr;
}

uint64_t LlvmDataLayout::sizeInBits(TypeId id) const {
  const Type &t = m_.types[id];
  switch (t.kind) {
  case TypeKind::Integer:
    return t.bits;
  case TypeKind::Half:
  case TypeKind::BFloat:
    return 16;
  case TypeKind::Float:
    return 32;
  case TypeKind::Double:
  case TypeKind::X86Mmx:
    return 64;
  case TypeKind::X86Fp80:
    return 80;
  case TypeKind::Fp128:
  case TypeKind::PpcFp128:
    return 128;
  case TypeKind::Pointer: {
    const Entry *e = find('s', t.bits);
    if (!e)
      e = find('s', 0);
    return e ? e->abi * 8 : 64;
  }
  case TypeKind::Array:
    return t.count * allocSize(m_.elementType(id)) * 8;
  case TypeKind::Vector:
    return t.count * sizeInBits(m_.elementType(id));
  case TypeKind::Struct: {
    uint64_t offset = 0, maxAlign = 1;
    for (TypeId e : m_.elements(id)) {
      uint64_t a = t.packed ? 1 : abiAlign(e);
      maxAlign = std::max(maxAlign, a);
      offset = (offset + a - 1) / a * a + allocSize(e);
    }
    offset = (offset + maxAlign - 1) / maxAlign * maxAlign;
    return offset * 8;
  }
  default:
    return 0;
  }
}

uint64_t LlvmDataLayout::storeSize(TypeId t) const { return (sizeInBits(t) + 7) / 8; }

uint64_t LlvmDataLayout::allocSize(TypeId t) const {
  uint64_t a = abiAlign(t);
  uint64_t s = storeSize(t);
  return a ? (s + a - 1) / a * a : s;
}

uint64_t LlvmDataLayout::align(TypeId id, bool abi) const {
  const Type &t = m_.types[id];
  auto pick = [&](const Entry *e, uint64_t fallback) {
    return e ? (abi ? e->abi : e->pref) : fallback;
  };
  switch (t.kind) {
  case TypeKind::Integer: {
    const Entry *best = nullptr, *largest = nullptr;
    for (const Entry &e : entries()) {
      if (e.kind != 'i')
        continue;
      if (e.width >= t.bits && (!best || e.width < best->width))
        best = &e;
      if (!largest || e.width > largest->width)
        largest = &e;
    }
    return pick(best ? best : largest, 1);
  }
  case TypeKind::Half:
  case TypeKind::BFloat:
  case TypeKind::Float:
  case TypeKind::Double:
  case TypeKind::X86Fp80:
  case TypeKind::Fp128:
  case TypeKind::PpcFp128: {
    uint32_t bits = uint32_t(sizeInBits(id));
    return pick(find('f', bits), std::max<uint64_t>(1, bits / 8));
  }
  case TypeKind::Pointer: {
    const Entry *e = find('p', t.bits);
    if (!e)
      e = find('p', 0);
    return pick(e, 8);
  }
  case TypeKind::Array:
    return align(m_.elementType(id), abi);
  case TypeKind::Vector: {
    const Entry *e = find('v', uint32_t(sizeInBits(id)));
    if (e)
      return pick(e, 1);
    uint64_t size = storeSize(id), p = 1;
    while (p < size)
      p <<= 1;
    return p;
  }
  case TypeKind::Struct: {
    if (t.packed && abi)
      return 1;
    uint64_t a = 1;
    if (!t.packed)
      for (TypeId e : m_.elements(id))
        a = std::max(a, abiAlign(e));
    return std::max(a, pick(find('a', 0), 1));
  }
  default:
    return 1;
  }
}

} // namespace spire::dxil
