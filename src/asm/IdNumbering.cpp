#include "IdNumbering.h"

#include "Lexer.h"
#include "NumberParser.h"

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <cstring>
#include <new>
#include <optional>

namespace spire::spvasm {

namespace {

// A fast hash of short names, eight bytes at a time.
uint64_t hashName(std::string_view s) {
  constexpr uint64_t kMul = 0x9E3779B97F4A7C15ull;
  uint64_t h = s.size() * kMul;
  size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    uint64_t v;
    std::memcpy(&v, s.data() + i, 8);
    h = (h ^ v) * kMul;
    h ^= h >> 29;
  }
  if (i < s.size()) {
    uint64_t v = 0;
    std::memcpy(&v, s.data() + i, s.size() - i);
    h = (h ^ v) * kMul;
  }
  h ^= h >> 32;
  h *= kMul;
  return h ^ (h >> 29);
}

} // namespace

void IdNumbering::Free::operator()(uint64_t *p) const { std::free(p); }

std::unique_ptr<uint64_t[], IdNumbering::Free> IdNumbering::zeroedSlots(size_t n) {
  void *p = std::calloc(n, sizeof(uint64_t));
  if (p == nullptr)
    throw std::bad_alloc();
  return std::unique_ptr<uint64_t[], Free>(static_cast<uint64_t *>(p));
}

IdNumbering::IdNumbering(std::string_view text, std::vector<uint32_t> preserved)
    : text_(text), preserved_(std::move(preserved)) {
  // About a name per 32 bytes of text to start with (a small text zeroes a small table); the
  // table doubles as names come.
  slotCount_ = std::bit_ceil(std::clamp<size_t>(text.size() / 32, 64, 1024));
  slots_ = zeroedSlots(slotCount_);
  // Room for a name every 16 bytes, so that the names rarely move (only the pages written are
  // ever touched).
  names_.reserve(text.size() / 16);
  numberLimit_ = static_cast<uint32_t>(std::min<size_t>(text.size() + 1024, 100000000));
}

uint32_t IdNumbering::idFor(std::string_view name) {
  // Decimal names without leading zeros (what disassemblers write for unnamed ids) are the
  // common case: index them by value, with no hashing.
  if (!name.empty() && name.size() <= 9 && name[0] >= '1' && name[0] <= '9') {
    uint32_t value = 0;
    bool digits = true;
    for (char c : name) {
      digits &= c >= '0' && c <= '9';
      value = value * 10 + uint32_t(c - '0');
    }
    if (digits && value < numberLimit_) {
      if (value >= byNumber_.size())
        byNumber_.resize(
            std::min<size_t>(numberLimit_, std::max<size_t>(value + 1, byNumber_.size() * 2)), 0);
      uint32_t &entry = byNumber_[value];
      if (entry == 0)
        entry = newId(name) + 1;
      return entry - 1;
    }
  }
  return namedId(name);
}

// A slot: the high half of the name's hash (which also picks the slot), and the index of the
// name in `names_` plus one.
uint32_t IdNumbering::namedId(std::string_view name) {
  const uint64_t tag = hashName(name) & 0xFFFFFFFF00000000ull;
  const size_t mask = slotCount_ - 1;
  for (size_t i = (tag >> 32) & mask;; i = (i + 1) & mask) {
    const uint64_t slot = slots_[i];
    if (slot == 0) {
      uint32_t id = newId(name);
      names_.push_back({static_cast<uint32_t>(name.data() - text_.data()),
                        static_cast<uint32_t>(name.size()), id});
      slots_[i] = tag | names_.size();
      if (names_.size() * 2 > slotCount_)
        grow();
      return id;
    }
    if ((slot & 0xFFFFFFFF00000000ull) != tag)
      continue;
    const Name &n = names_[(slot & 0xFFFFFFFF) - 1];
    if (n.size == name.size() && std::memcmp(text_.data() + n.offset, name.data(), n.size) == 0)
      return n.id;
  }
}

uint32_t IdNumbering::newId(std::string_view name) {
  uint32_t id;
  std::optional<uint32_t> number;
  if (!preserved_.empty() && (number = readUnsigned32(name)) &&
      std::binary_search(preserved_.begin(), preserved_.end(), *number)) {
    id = *number;
  } else {
    // The next number that no numeric name keeps.
    id = next_++;
    while (nextPreserved_ < preserved_.size() && preserved_[nextPreserved_] <= id) {
      if (preserved_[nextPreserved_] == id)
        id = next_++;
      ++nextPreserved_;
    }
  }
  bound_ = std::max(bound_, id + 1); // wraps for 0xFFFFFFFF, as spirv-as does
  return id;
}

void IdNumbering::grow() {
  std::unique_ptr<uint64_t[], Free> old = std::move(slots_);
  const size_t oldCount = slotCount_;
  slotCount_ *= 2;
  slots_ = zeroedSlots(slotCount_);
  const size_t mask = slotCount_ - 1;
  for (size_t k = 0; k < oldCount; ++k) {
    const uint64_t slot = old[k];
    if (slot == 0)
      continue;
    size_t i = (slot >> 32) & mask;
    while (slots_[i] != 0)
      i = (i + 1) & mask;
    slots_[i] = slot;
  }
}

std::vector<uint32_t> numericIdsOf(std::string_view text) {
  std::vector<uint32_t> ids;
  Lexer::forEachWord(text, [&](std::string_view word) {
    if (word.size() > 1 && word[0] == '%')
      if (std::optional<uint32_t> n = readUnsigned32(word.substr(1)))
        ids.push_back(*n);
  });
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

} // namespace spire::spvasm
