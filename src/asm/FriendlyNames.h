// Friendly names for the ids of a module (%main, %float, %_ptr_Function_v4float, %uint_0), by
// the rules of spirv-dis's default naming, computed once in one pass over the module.
#pragma once

#include "spire/module/Module.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace spire::spvasm {

/// Names come, first come first served, from OpName (sanitized: characters outside
/// [A-Za-z0-9_] become '_'), from BuiltIn decorations (gl_Position), from type declarations
/// (void, v4float, _arr_float_uint_4, _struct_12) and constants (uint_0, float_n1, true), and
/// otherwise are the id's number. A name already taken gets the first free suffix _0, _1, ...
class FriendlyNames {
public:
  explicit FriendlyNames(const Module &module);

  /// The name of an id (without '%'), or empty when it is the id's number.
  std::string_view find(uint32_t id) const {
    const uint32_t v = index_.get(id);
    if (v == kNone || v == kNumber)
      return {};
    const Name &n = names_[v - 1];
    return std::string_view(arena_).substr(n.offset, n.length);
  }

private:
  /// index_ values besides 1 + an index into names_.
  static constexpr uint32_t kNone = 0, kNumber = 0xFFFFFFFFu;

  struct Name {
    uint32_t offset; ///< in arena_
    uint32_t length;
    uint32_t nextSuffix; ///< names <name>_0 .. _<nextSuffix - 1> are all taken
  };
  /// The names taken, as a hash table of indexes into names_. Most ids are named by their
  /// number: those names are not in the table (no two ids have the same number), and a name
  /// made of digits that could be one of them is looked up in index_ instead.
  struct Slot {
    uint32_t name = 0; ///< 1 + index into names_; 0: the slot is free
    uint32_t hash = 0;
  };

  void visit(const Instruction &inst);
  /// Gives `id` the sanitized, uniquified form of suggestion_ unless it has a name already.
  void save(uint32_t id);
  /// Names an id by its number (the default for ids that get no other name).
  void saveNumber(uint32_t id);
  /// Appends the current name of an id to suggestion_ (its number when it has none yet).
  void suggestName(uint32_t id);
  void suggestNumber(uint32_t value);
  void assign(uint32_t id, std::string_view name, size_t slot, uint32_t hash);

  size_t findSlot(std::string_view name, uint32_t hash) const;
  /// Takes a name: into names_ and the table. Returns its index in names_.
  uint32_t insert(size_t slot, std::string_view name, uint32_t hash);
  void grow();

  std::string arena_;
  size_t arenaBudget_;
  IdMap<uint32_t> index_;
  std::vector<Name> names_;
  std::vector<Slot> slots_; ///< a power of two in size, at most half full
  size_t numberNames_ = 0;  ///< names in the table that are some id's number
  std::string suggestion_;
  std::string candidate_;
};

} // namespace spire::spvasm
