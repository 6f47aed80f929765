// FlatVector in borrowed storage: what it holds survives outgrowing the storage, copies and moves
// never share it, and it never frees it (a module's tables borrow parts of one allocation).
#include "spire/support/FlatVector.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <utility>

using namespace spire;

TEST(FlatVector, OutgrowsBorrowedStorageKeepingItsElements) {
  uint32_t storage[4] = {};
  FlatVector<uint32_t> v;
  v.borrow(storage, 4);
  for (uint32_t i = 0; i < 4; ++i)
    v.push_back(i);
  EXPECT_EQ(v.data(), storage);
  v.push_back(4); // past the borrowed four: storage of its own
  EXPECT_NE(v.data(), storage);
  ASSERT_EQ(v.size(), 5u);
  for (uint32_t i = 0; i < 5; ++i)
    EXPECT_EQ(v[i], i);
  v.shrinkToFit();
  EXPECT_EQ(v.size(), 5u);
}

TEST(FlatVector, CopiesOfBorrowingVectorsOwnTheirStorage) {
  uint32_t storage[4] = {};
  FlatVector<uint32_t> v;
  v.borrow(storage, 4);
  v.push_back(7);
  FlatVector<uint32_t> copy(v);
  EXPECT_NE(copy.data(), storage);
  FlatVector<uint32_t> assigned;
  uint32_t other[2] = {};
  assigned.borrow(other, 2);
  assigned = v;
  EXPECT_NE(assigned.data(), storage);
  EXPECT_NE(assigned.data(), other);
  EXPECT_EQ(copy[0], 7u);
  EXPECT_EQ(assigned[0], 7u);
  v.shrinkToFit(); // a borrowing vector keeps its storage
  EXPECT_EQ(v.data(), storage);
}

TEST(FlatVector, MovesCarryTheBorrowedStorage) {
  uint32_t storage[4] = {};
  FlatVector<uint32_t> v;
  v.borrow(storage, 4);
  v.push_back(3);
  FlatVector<uint32_t> moved(std::move(v));
  EXPECT_EQ(moved.data(), storage);
  FlatVector<uint32_t> owner;
  owner.push_back(1);
  owner = std::move(moved); // frees its own storage, does not take ownership of the borrowed
  EXPECT_EQ(owner.data(), storage);
  EXPECT_EQ(owner[0], 3u);
  owner.reserve(100);
  EXPECT_NE(owner.data(), storage);
  EXPECT_EQ(owner[0], 3u);
}
