// The bitcode reader's arena (newBumpArena, the module's tables and the reader's working
// tables): aligned, disjoint allocations within a block and across new ones, as a monotonic
// resource gives them.
#include "dxil/BitcodeReaderState.h"
#include "spire/dxil/LlvmModule.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory_resource>
#include <vector>

namespace spire::dxil::detail {
namespace {

struct Given {
  unsigned char *p;
  size_t bytes;
  unsigned char fill;
};

/// Allocates `n` blocks of the sizes and alignments below from `arena`, each filled with a byte
/// of its own, and checks that each is aligned and still holds its bytes once all are made.
void allocateAndCheck(std::pmr::memory_resource &arena, size_t n) {
  static constexpr size_t kSizes[] = {1, 3, 8, 24, 40, 7, 100, 0, 16, 1000, 5, 64};
  static constexpr size_t kAligns[] = {1, 2, 4, 8, 16, 32, 64, 8, 4, 16, 128, 1};
  std::vector<Given> given;
  for (size_t i = 0; i < n; ++i) {
    const size_t bytes = kSizes[i % std::size(kSizes)];
    const size_t align = kAligns[i % std::size(kAligns)];
    auto *p = static_cast<unsigned char *>(arena.allocate(bytes, align));
    ASSERT_NE(p, nullptr) << i;
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % align, 0u)
        << "allocation " << i << " of " << bytes << " bytes aligned to " << align;
    const auto fill = static_cast<unsigned char>(i * 37 + 1);
    std::memset(p, fill, bytes);
    given.push_back({p, bytes, fill});
  }
  for (size_t i = 0; i < given.size(); ++i)
    for (size_t k = 0; k < given[i].bytes; ++k)
      ASSERT_EQ(given[i].p[k], given[i].fill) << "allocation " << i << " overwritten at " << k;
}

TEST(DxilBitcodeArena, AllocationsAreAlignedAndDisjointWithinTheFirstBlock) {
  std::unique_ptr<std::pmr::memory_resource> arena = newBumpArena(1 << 20);
  allocateAndCheck(*arena, 200);
}

TEST(DxilBitcodeArena, AllocationsGoOnInNewBlocksWhenOneIsFull) {
  // A first block of 64 bytes: almost every allocation below needs another.
  std::unique_ptr<std::pmr::memory_resource> arena = newBumpArena(64);
  allocateAndCheck(*arena, 2000);
}

TEST(DxilBitcodeArena, AnAllocationLargerThanTheNextBlockGetsABlockOfItsOwn) {
  std::unique_ptr<std::pmr::memory_resource> arena = newBumpArena(16);
  auto *small = static_cast<unsigned char *>(arena->allocate(8, 8));
  std::memset(small, 0x11, 8);
  const size_t big = 1 << 22;
  auto *large = static_cast<unsigned char *>(arena->allocate(big, 64));
  ASSERT_NE(large, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(large) % 64, 0u);
  std::memset(large, 0x22, big);
  auto *after = static_cast<unsigned char *>(arena->allocate(8, 8));
  std::memset(after, 0x33, 8);
  for (size_t k = 0; k < 8; ++k) {
    EXPECT_EQ(small[k], 0x11);
    EXPECT_EQ(after[k], 0x33);
  }
  EXPECT_EQ(large[0], 0x22);
  EXPECT_EQ(large[big - 1], 0x22);
}

TEST(DxilBitcodeArena, AnArenaEqualsItselfAlone) {
  std::unique_ptr<std::pmr::memory_resource> a = newBumpArena(64), b = newBumpArena(64);
  EXPECT_TRUE(a->is_equal(*a));
  EXPECT_FALSE(a->is_equal(*b));
  EXPECT_FALSE(a->is_equal(*std::pmr::new_delete_resource()));
}

TEST(DxilBitcodeArena, TablesGrowInItAndKeepTheirElements) {
  std::unique_ptr<std::pmr::memory_resource> arena = newBumpArena(256);
  std::pmr::vector<uint32_t> a(arena.get());
  std::pmr::vector<uint64_t> b(arena.get());
  for (uint32_t i = 0; i < 100000; ++i) {
    a.push_back(i * 3);
    if (i % 3 == 0)
      b.push_back(uint64_t(i) << 33);
  }
  for (uint32_t i = 0; i < a.size(); ++i)
    ASSERT_EQ(a[i], i * 3);
  for (uint32_t i = 0; i < b.size(); ++i)
    ASSERT_EQ(b[i], uint64_t(i * 3) << 33);
}

/// A monotonic resource that counts the deallocations asked of it and the times it goes.
class CountingArena final : public std::pmr::memory_resource {
public:
  CountingArena(int &deallocations, int &destroyed)
      : deallocations_(deallocations), destroyed_(destroyed) {}
  ~CountingArena() override { ++destroyed_; }

private:
  void *do_allocate(size_t bytes, size_t align) override { return inner_.allocate(bytes, align); }
  void do_deallocate(void *, size_t, size_t) override { ++deallocations_; }
  bool do_is_equal(const std::pmr::memory_resource &o) const noexcept override {
    return this == &o;
  }
  std::pmr::monotonic_buffer_resource inner_;
  int &deallocations_, &destroyed_;
};

void fill(LlvmModule &m) {
  for (uint32_t i = 0; i < 1000; ++i) {
    m.operands.push_back(i);
    m.types.push_back(Type{});
    m.instructions.push_back(Instruction{});
  }
  m.strings.assign(300, 'x');
  m.triple.assign(100, 't');
}

// ArenaTable (LlvmModule::operands): a table written through room()/setEnd() as the function
// reader's argument loops write it, and as a vector otherwise.
TEST(DxilArenaTable, RoomGivesTheEndWithSpaceAndSetEndCommitsWhatWasWritten) {
  std::pmr::monotonic_buffer_resource arena;
  ArenaTable<uint32_t> t(&arena);
  EXPECT_TRUE(t.empty());
  uint32_t expected = 0;
  for (uint32_t round = 0; round < 40; ++round) {
    const size_t n = round % 7 + 1;
    const size_t before = t.size();
    uint32_t *out = t.room(n);
    ASSERT_EQ(out, t.data() + before);
    ASSERT_GE(t.capacity() - t.size(), n);
    EXPECT_EQ(t.size(), before); // room() adds nothing
    // Write all of it, or (every third round) part of it, as a loop that stops early does.
    const size_t written = round % 3 == 2 ? n / 2 : n;
    for (size_t k = 0; k < written; ++k)
      out[k] = expected++;
    t.setEnd(out + written);
    ASSERT_EQ(t.size(), before + written);
  }
  ASSERT_EQ(t.size(), size_t(expected));
  for (uint32_t i = 0; i < expected; ++i)
    ASSERT_EQ(t[i], i) << "element " << i << " lost when the table grew";
  EXPECT_EQ(t.resource(), &arena);
}

TEST(DxilArenaTable, BehavesAsAVectorForItsOtherUsers) {
  std::pmr::monotonic_buffer_resource arena;
  ArenaTable<uint32_t> t(&arena);
  for (uint32_t i = 0; i < 100; ++i)
    t.push_back(i);
  EXPECT_EQ(t.size(), 100u);
  EXPECT_EQ(t.back(), 99u);
  t.pop_back();
  EXPECT_EQ(t.back(), 98u);
  // Inserting in the middle (with and without growth) and from the table itself.
  const uint32_t three[] = {1000, 1001, 1002};
  t.insert(t.begin() + 10, std::begin(three), std::end(three));
  EXPECT_EQ(t.size(), 102u);
  EXPECT_EQ(t[9], 9u);
  EXPECT_EQ(t[10], 1000u);
  EXPECT_EQ(t[12], 1002u);
  EXPECT_EQ(t[13], 10u);
  t.reserve(t.size()); // full: the next insert grows
  t.insert(t.end(), t.begin(), t.begin() + 5);
  EXPECT_EQ(t.size(), 107u);
  EXPECT_EQ(t[102], 0u);
  EXPECT_EQ(t[106], 4u);
  t.insert(t.end(), {7u, 8u});
  EXPECT_EQ(t.back(), 8u);
  // From itself into its middle with room to spare (the tail, source included, moves).
  ArenaTable<uint32_t> u(&arena);
  u.reserve(64);
  for (uint32_t i = 0; i < 10; ++i)
    u.push_back(i);
  u.insert(u.begin() + 2, u.begin() + 5, u.begin() + 8);
  const std::vector<uint32_t> expected = {0, 1, 5, 6, 7, 2, 3, 4, 5, 6, 7, 8, 9};
  EXPECT_EQ(std::vector<uint32_t>(u.begin(), u.end()), expected);
  std::vector<uint32_t> seen(t.begin(), t.end());
  EXPECT_EQ(seen.size(), t.size());
  // A copy lives on the default resource and equals the original; a move carries the memory.
  ArenaTable<uint32_t> copy(t);
  EXPECT_EQ(copy.resource(), std::pmr::get_default_resource());
  EXPECT_TRUE(copy == t);
  const uint32_t *data = t.data();
  ArenaTable<uint32_t> moved(std::move(t));
  EXPECT_EQ(moved.data(), data);
  EXPECT_EQ(moved.resource(), &arena);
  EXPECT_TRUE(moved == copy);
  moved.resize(3);
  EXPECT_EQ(moved.size(), 3u);
  moved.resize(5, 42u);
  EXPECT_EQ(moved[4], 42u);
  moved.clear();
  EXPECT_TRUE(moved.empty());
}

TEST(DxilBitcodeArena, AModuleOwningItsArenaGivesNothingBackTableByTable) {
  int deallocations = 0, destroyed = 0;
  {
    LlvmModule m(std::make_unique<CountingArena>(deallocations, destroyed));
    fill(m);
    const int whileGrowing = deallocations; // (growth gives the old copies back)
    {
      LlvmModule copy(m); // on the heap: its tables free their memory themselves
      EXPECT_EQ(copy.operands.size(), 1000u);
      EXPECT_EQ(copy.str(StrRef{0, 3}), "xxx");
    }
    LlvmModule moved(std::move(m)); // the arena and the tables go together
    EXPECT_EQ(moved.operands[999], 999u);
    EXPECT_EQ(deallocations, whileGrowing);
    EXPECT_EQ(destroyed, 0);
    deallocations = 0;
  }
  EXPECT_EQ(deallocations, 0);
  EXPECT_EQ(destroyed, 1);
}

TEST(DxilBitcodeArena, TheReadersWorkingTablesGiveNothingBackTableByTable) {
  int deallocations = 0, destroyed = 0;
  CountingArena scratch(deallocations, destroyed);
  LlvmModule m;
  const uint8_t bytes[4] = {};
  BitstreamReader bs(bytes, 64, &scratch);
  {
    ReaderState s(bs, m, &scratch);
    s.valueIds.reserve(100);
    s.mdIds.reserve(100);
    s.typeMap.reserve(100);
    s.bodies.reserve(100);
    s.moduleFixups.reserve(100);
    deallocations = 0;
  }
  EXPECT_EQ(deallocations, 0);
}

} // namespace
} // namespace spire::dxil::detail
