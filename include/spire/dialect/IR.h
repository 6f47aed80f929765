// The structured IR's core: operations holding operands, results, attributes, successors and
// regions; blocks of operations with arguments; regions of blocks; SSA values with use lists.
// Ops are described by OpInfo entries (Ops.h); the IR itself knows nothing of SPIR-V.
#pragma once

#include "spire/dialect/Attributes.h"
#include "spire/dialect/Types.h"
#include "spire/support/Diagnostic.h"

#include <cstdint>
#include <memory>
#include <new>
#include <span>
#include <string_view>
#include <vector>

namespace spire::dialect {

class Block;
class Operation;
class OpOperand;
class Region;
struct OpInfo;

namespace detail {
/// A number a walk over the IR keeps for a value or block (a printer's names, an analysis's
/// index) instead of a hash map from pointers, which costs cache misses on large modules. It
/// holds for the walk whose epoch (newScratchEpoch) it carries; one walk at a time per IR.
struct Scratch {
  uint32_t epoch = 0;
  int32_t value = 0;
};

/// An SSA value: an operation's result or a block's argument (then a BlockArgumentImpl). A
/// result lies in its op's allocation, `index` slots after the op's header, which is how it
/// finds its op: 32 bytes, since a module has about as many values as ops.
struct ValueImpl {
  Type type;
  OpOperand *firstUse = nullptr;
  uint32_t index = 0;    ///< result or argument number
  bool argument = false; ///< a block argument
  mutable Scratch scratch;
};

/// A block's argument: a value and the block that owns it.
struct BlockArgumentImpl : ValueImpl {
  Block *block = nullptr;
};
} // namespace detail

/// A fresh epoch for Scratch slots: no slot carries it yet.
uint32_t newScratchEpoch();

/// Where in the source program an op comes from: what a SPIR-V module's OpLine says (MLIR's
/// FileLineColLoc, printed `loc("file":line:col)` with --mlir-print-debuginfo). Uniqued in the
/// Context that made it (fileLineCol), so that equal positions are the same pointer and an op
/// pays one pointer for it; the op's diagnostic Location (where its text or instruction is)
/// is another thing.
struct DebugLoc {
  std::string_view file; ///< interned in the Context
  uint32_t line = 0;
  uint32_t column = 0;
};
/// The one DebugLoc of `context` for this position.
const DebugLoc *fileLineCol(Context &context, std::string_view file, uint32_t line,
                            uint32_t column);

/// A handle to an SSA value; the default-constructed Value is null.
class Value {
public:
  Value() = default;
  explicit Value(detail::ValueImpl *impl) : impl_(impl) {}
  explicit operator bool() const { return impl_ != nullptr; }
  bool operator==(const Value &o) const { return impl_ == o.impl_; }
  bool operator!=(const Value &o) const { return impl_ != o.impl_; }

  Type type() const { return impl_->type; }
  void setType(Type t) { impl_->type = t; }
  /// The op whose result this is, or null for a block argument.
  Operation *definingOp() const;
  bool isBlockArgument() const { return impl_->argument; }
  Block *ownerBlock() const {
    return impl_->argument ? static_cast<detail::BlockArgumentImpl *>(impl_)->block : nullptr;
  }
  uint32_t index() const { return impl_->index; }

  bool hasUses() const { return impl_->firstUse != nullptr; }
  OpOperand *firstUse() const { return impl_->firstUse; }
  /// Makes every use of this value use `other` instead.
  void replaceAllUsesWith(Value other);

  detail::ValueImpl *impl() const { return impl_; }

private:
  detail::ValueImpl *impl_ = nullptr;
};

/// One operand of an op: the value it uses, linked into that value's use list.
class OpOperand {
public:
  OpOperand() = default;
  OpOperand(const OpOperand &) = delete;
  OpOperand &operator=(const OpOperand &) = delete;
  ~OpOperand() { unlink(); }

  Value get() const { return Value(value_); }
  void set(Value v);
  Operation *owner() const { return owner_; }
  OpOperand *nextUse() const { return next_; }
  /// The operand's position among its owner's operands.
  uint32_t index() const;

private:
  friend class Operation;
  void link();
  void unlink();
  detail::ValueImpl *value_ = nullptr;
  Operation *owner_ = nullptr;
  OpOperand *next_ = nullptr;
  OpOperand **prev_ = nullptr;
};

/// A successor block of a terminator and the operands passed to its arguments (a range of the
/// op's operands after the ordinary ones).
struct Successor {
  Block *block = nullptr;
  uint32_t firstOperand = 0;
  uint32_t numOperands = 0;
};

/// What creating an op needs. Successor operands follow the ordinary operands in `operands`.
struct OperationState {
  const OpInfo *info = nullptr;
  Location location;
  const DebugLoc *debugLoc = nullptr;
  std::vector<Type> resultTypes;
  std::vector<Value> operands;
  std::vector<NamedAttribute> attributes;
  std::vector<Successor> successors;
  unsigned numRegions = 0;

  explicit OperationState(const OpInfo *i, Location loc = {}) : info(i), location(loc) {}
  void addAttribute(Context &context, std::string_view name, Attribute value);
  /// Appends a successor whose block arguments are `args`.
  void addSuccessor(Block *block, std::span<const Value> args);
};

class Operation {
public:
  /// A new op, not yet in a block.
  static Operation *create(OperationState &&state);
  /// Removes the op from its block (if any) and frees it; its results must have no uses.
  void erase();

  const OpInfo &info() const { return *info_; }
  std::string_view name() const;
  Location location() const;
  void setLocation(Location l);
  /// The source position the op comes from (OpLine), or null when none is known.
  const DebugLoc *debugLoc() const { return debugLoc_; }
  void setDebugLoc(const DebugLoc *l) { debugLoc_ = l; }

  // Operands (ordinary ones first, then the successors' ones).
  uint32_t numOperands() const { return numOperands_; }
  Value operand(uint32_t i) const { return operands()[i].get(); }
  OpOperand &operandSlot(uint32_t i) { return operands()[i]; }
  void setOperand(uint32_t i, Value v) { operands()[i].set(v); }
  /// The ordinary operands: those not passed to a successor.
  uint32_t numOrdinaryOperands() const;
  std::vector<Value> operandValues(uint32_t first = 0, uint32_t count = ~0u) const;
  /// Replaces all operands (ordinary and successor ones; successor ranges must be kept in step by
  /// the caller with setSuccessors).
  void setOperands(std::span<const Value> values);

  // Results.
  uint32_t numResults() const { return numResults_; }
  Value result(uint32_t i = 0) const { return Value(&results()[i]); }

  // Attributes, sorted by name.
  std::span<const NamedAttribute> attributes() const { return {attrs_, numAttrs_}; }
  Attribute attr(std::string_view name) const;
  void setAttr(Context &context, std::string_view name, Attribute value);
  void removeAttr(std::string_view name);

  // Successors.
  std::span<const Successor> successors() const {
    return extras_ ? std::span<const Successor>(extras_->successors) : std::span<const Successor>();
  }
  std::vector<Value> successorOperands(uint32_t i) const;
  void setSuccessorBlock(uint32_t i, Block *b) { extras_->successors[i].block = b; }
  /// Replaces the successors and their operands (the ordinary operands stay).
  void setSuccessors(std::span<const Block *const> blocks,
                     std::span<const std::vector<Value>> args);

  // Regions.
  uint32_t numRegions() const {
    return extras_ ? static_cast<uint32_t>(extras_->regions.size()) : 0;
  }
  Region &region(uint32_t i = 0) { return *extras_->regions[i]; }
  const Region &region(uint32_t i = 0) const { return *extras_->regions[i]; }

  // Place.
  Block *block() const { return block_; }
  Operation *next() const { return next_; }
  Operation *prev() const { return prev_; }
  /// The op whose region holds this op's block, or null.
  Operation *parentOp() const;
  /// Unlinks the op from its block without freeing it.
  void remove();
  void moveBefore(Operation *other);
  void moveToEnd(Block *b);

  /// Drops the uses of all operands (before erasing a group of ops that use each other).
  void dropAllReferences();

  ~Operation();

private:
  friend class Block;
  friend class Region;
  Operation() = default;

  /// An op is one allocation: the Operation, then its results, then as many operand slots as
  /// it was created with (MLIR's layout), then its attributes. Operands beyond those slots
  /// (setOperands with more) go to an array of their own, and so do attributes that setAttr
  /// adds past those it was created with. What few ops have (successors, regions) hangs off
  /// `extras_`. A deserialized module is mostly small ops, so the op's size is most of the IR's
  /// memory: the header is 80 bytes.
  void allocateOperands(uint32_t n);
  detail::ValueImpl *results() const {
    return reinterpret_cast<detail::ValueImpl *>(const_cast<Operation *>(this) + 1);
  }
  OpOperand *trailingOperands() const {
    return reinterpret_cast<OpOperand *>(results() + numResults_);
  }
  /// The operands in use: the trailing slots or extras_->heapOperands.
  OpOperand *operands() const;
  /// Before a tree is destroyed: drops the references of this op and of every op nested in it,
  /// which may use each other's values in any order, unless the destruction of a tree that holds
  /// this op did already (then the ops it reaches skip the walk: each op is dropped once).
  void dropTreeReferences();

  struct Extras {
    std::vector<Successor> successors;
    std::vector<std::unique_ptr<Region>> regions;
    std::unique_ptr<OpOperand[]> heapOperands;   ///< when the operands outgrow the trailing slots
    std::unique_ptr<NamedAttribute[]> heapAttrs; ///< when setAttr adds past the trailing ones
    uint32_t heapOperandCapacity = 0, heapAttrCapacity = 0;
  };
  Extras &extras();

  const OpInfo *info_ = nullptr;
  NamedAttribute *attrs_ = nullptr; ///< sorted by name: trailing, or extras_->heapAttrs
  const DebugLoc *debugLoc_ = nullptr;
  std::unique_ptr<Extras> extras_;
  Block *block_ = nullptr;
  Operation *prev_ = nullptr, *next_ = nullptr;
  uint32_t numOperands_ = 0, numResults_ = 0, numAttrs_ = 0;
  /// The location's binary (word offset, instruction index) or text (line, column) pair: the
  /// only kinds an op has; location() rebuilds the Location.
  uint32_t locationA_ = 0, locationB_ = 0;
  Location::Kind locationKind_ = Location::Kind::None;
  bool referencesDropped_ = false; ///< by dropTreeReferences, as its tree is destroyed
  bool operandsOnHeap_ = false;    ///< in extras_->heapOperands, not the trailing slots
  /// The pool's size class of the op's storage (0: its own heap block); see IR.cpp.
  uint8_t sizeClass_ = 0;

public:
  /// Ops are made by create() with their trailing storage, from a pool; delete destroys the op
  /// and gives that storage back (a destroying delete: it reads the size class first).
  static void operator delete(Operation *op, std::destroying_delete_t);
};

inline OpOperand *Operation::operands() const {
  return operandsOnHeap_ ? extras_->heapOperands.get() : trailingOperands();
}

inline Operation *Value::definingOp() const {
  if (impl_->argument)
    return nullptr;
  return reinterpret_cast<Operation *>(impl_ - impl_->index) - 1;
}

class Block {
public:
  Block() = default;
  Block(const Block &) = delete;
  Block &operator=(const Block &) = delete;
  ~Block();

  Region *parent() const { return parent_; }
  Operation *parentOp() const;
  Block *next() const { return next_; }
  Block *prev() const { return prev_; }

  // Arguments.
  uint32_t numArguments() const { return static_cast<uint32_t>(args_.size()); }
  Value argument(uint32_t i) const { return Value(args_[i].get()); }
  Value addArgument(Type type);
  /// Removes argument `i`, which must have no uses.
  void eraseArgument(uint32_t i);

  // Operations.
  Operation *front() const { return first_; }
  Operation *back() const { return last_; }
  bool empty() const { return first_ == nullptr; }
  /// The last op, when it is a terminator.
  Operation *terminator() const;
  void push_back(Operation *op);
  void insertBefore(Operation *before, Operation *op);
  /// Moves the ops from `first` to the end of the block to the end of `dest`.
  void splice(Operation *first, Block *dest);

  class iterator {
  public:
    using value_type = Operation *;
    using difference_type = std::ptrdiff_t;
    iterator() = default;
    explicit iterator(Operation *op) : op_(op) {}
    Operation *operator*() const { return op_; }
    iterator &operator++() {
      op_ = op_->next();
      return *this;
    }
    iterator operator++(int) {
      iterator t = *this;
      op_ = op_->next();
      return t;
    }
    bool operator==(const iterator &o) const { return op_ == o.op_; }

  private:
    Operation *op_ = nullptr;
  };
  iterator begin() const { return iterator(first_); }
  iterator end() const { return iterator(nullptr); }

private:
  friend class Operation;
  friend class Region;
  Region *parent_ = nullptr;
  Block *prev_ = nullptr, *next_ = nullptr;
  Operation *first_ = nullptr, *last_ = nullptr;
  std::vector<std::unique_ptr<detail::BlockArgumentImpl>> args_;
};

class Region {
public:
  explicit Region(Operation *owner = nullptr) : owner_(owner) {}
  Region(const Region &) = delete;
  Region &operator=(const Region &) = delete;
  ~Region();

  Operation *parentOp() const { return owner_; }
  bool empty() const { return first_ == nullptr; }
  Block *front() const { return first_; }
  Block *back() const { return last_; }
  /// A new empty block at the end (or before `before`).
  Block *addBlock(Block *before = nullptr);
  /// Takes a block (unlinked from its region) in at the end or before `before`.
  void insert(Block *block, Block *before = nullptr);
  /// Unlinks a block without freeing it; the caller owns it.
  void remove(Block *block);
  /// Unlinks and frees a block, with its ops.
  void erase(Block *block);
  size_t size() const;

  class iterator {
  public:
    using value_type = Block *;
    using difference_type = std::ptrdiff_t;
    iterator() = default;
    explicit iterator(Block *b) : b_(b) {}
    Block *operator*() const { return b_; }
    iterator &operator++() {
      b_ = b_->next();
      return *this;
    }
    iterator operator++(int) {
      iterator t = *this;
      b_ = b_->next();
      return t;
    }
    bool operator==(const iterator &o) const { return b_ == o.b_; }

  private:
    Block *b_ = nullptr;
  };
  iterator begin() const { return iterator(first_); }
  iterator end() const { return iterator(nullptr); }

private:
  friend class Operation;
  Operation *owner_ = nullptr;
  Block *first_ = nullptr, *last_ = nullptr;
};

/// Frees an op and everything nested in it when it goes out of scope.
struct OperationDeleter {
  void operator()(Operation *op) const;
};
using OwningOp = std::unique_ptr<Operation, OperationDeleter>;

/// Calls `f` on `op` and every op nested in its regions, parents before children.
template <class F> void walk(Operation *op, F &&f) {
  f(op);
  for (uint32_t r = 0; r < op->numRegions(); ++r)
    for (Block *b : op->region(r))
      for (Operation *child = b->front(); child;) {
        Operation *next = child->next();
        walk(child, f);
        child = next;
      }
}

} // namespace spire::dialect
