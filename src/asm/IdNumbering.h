// The numbers spirv-as gives ids: each new name ("%x", "%12") takes the next number in order of
// first appearance; with --preserve-numeric-ids, numeric names keep their number and the other
// names fill the gaps from 1 up.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

namespace spire::spvasm {

class IdNumbering {
public:
  /// Numbers the ids named in `text` (less than 4 GiB). `preserved`: sorted, distinct numbers
  /// that numeric names keep (empty: no preservation).
  IdNumbering(std::string_view text, std::vector<uint32_t> preserved);

  /// The number of the id named `name` (without '%'), a part of the text, given on first use.
  uint32_t idFor(std::string_view name);
  /// One more than the highest number given (as spirv-as computes it: an id of 0xFFFFFFFF does
  /// not raise it).
  uint32_t bound() const { return bound_; }

private:
  uint32_t newId(std::string_view name);
  uint32_t namedId(std::string_view name);
  void grow();

  // Names that are plain decimal numbers ("12", no leading zero) below a limit that grows with
  // the text are looked up by their value: id + 1, or 0 while unseen.
  std::vector<uint32_t> byNumber_;
  uint32_t numberLimit_ = 0;

  // Open addressing with linear probing over a power-of-two table (at most half full). A slot
  // holds the high half of the name's hash and its index in `names_` plus one (0: empty), so
  // that probing past other names and growing the table do not touch `names_`.
  struct Name {
    uint32_t offset; // in the text
    uint32_t size;
    uint32_t id;
  };
  std::string_view text_;
  // calloc'd: large tables come zeroed from the system without being written.
  struct Free {
    void operator()(uint64_t *p) const;
  };
  static std::unique_ptr<uint64_t[], Free> zeroedSlots(size_t n);

  std::vector<Name> names_;
  std::unique_ptr<uint64_t[], Free> slots_;
  size_t slotCount_ = 0;
  std::vector<uint32_t> preserved_;
  size_t nextPreserved_ = 0; // first entry of preserved_ not below next_
  uint32_t next_ = 1;
  uint32_t bound_ = 1;
};

/// The numbers of the numeric id names ("%12", "%0x1f") of a text, sorted and distinct: the ids
/// --preserve-numeric-ids keeps. Every word that starts with '%' counts; in a text that
/// assembles, those are exactly the ids.
std::vector<uint32_t> numericIdsOf(std::string_view text);

} // namespace spire::spvasm
