#include "spire/dialect/IR.h"

#include "spire/dialect/Ops.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cassert>
#include <memory>
#include <mutex>
#include <new>

namespace spire::dialect {

// --- Values and operands ---------------------------------------------------------------------

uint32_t newScratchEpoch() {
  static std::atomic<uint32_t> epoch{0};
  return ++epoch;
}

void Value::replaceAllUsesWith(Value other) {
  if (other == *this)
    return;
  while (OpOperand *use = impl_->firstUse)
    use->set(other);
}

void OpOperand::link() {
  if (!value_)
    return;
  next_ = value_->firstUse;
  if (next_)
    next_->prev_ = &next_;
  prev_ = &value_->firstUse;
  value_->firstUse = this;
}

void OpOperand::unlink() {
  if (!value_)
    return;
  *prev_ = next_;
  if (next_)
    next_->prev_ = prev_;
  next_ = nullptr;
  prev_ = nullptr;
}

void OpOperand::set(Value v) {
  unlink();
  value_ = v.impl();
  link();
}

uint32_t OpOperand::index() const { return static_cast<uint32_t>(this - &owner_->operandSlot(0)); }

// --- Operation state -------------------------------------------------------------------------

void OperationState::addAttribute(Context &context, std::string_view name, Attribute value) {
  attributes.push_back(NamedAttribute{intern(context, name), value.storage()});
}

void OperationState::addSuccessor(Block *block, std::span<const Value> args) {
  Successor s;
  s.block = block;
  s.numOperands = static_cast<uint32_t>(args.size());
  s.firstOperand = static_cast<uint32_t>(operands.size());
  operands.insert(operands.end(), args.begin(), args.end());
  successors.push_back(s);
}

// --- Operation -------------------------------------------------------------------------------

// The sizes docs/layers/dialect.md gives, on 64-bit hosts: most of a module's memory.
static_assert(sizeof(void *) != 8 || (sizeof(Operation) == 80 && sizeof(detail::ValueImpl) == 32 &&
                                      sizeof(OpOperand) == 32));

// --- Where ops live --------------------------------------------------------------------------
//
// A module's IR is mostly small ops, each one heap block: malloc's way for each was a tenth of a
// small module's translation. Ops are carved instead from 64 KB chunks in size classes of 16
// bytes (up to 1 KB; larger ones are heap blocks of their own), and a freed op's storage goes on
// its class's free list for the next op of that size. Each thread has its lists (ops are made and
// freed without a lock); a thread that ends hands its lists to a depot that threads take from
// before they carve a new chunk. Chunks are never given back: what ops were freed is reused by
// later ops (a streamed translation frees each function before the next is read), so the pool
// holds what the most ops alive at once took. Under a sanitizer every op is a heap block of its
// own, so that it sees each op's use.
namespace {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kPoolOps = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) ||                         \
    __has_feature(memory_sanitizer)
constexpr bool kPoolOps = false;
#else
constexpr bool kPoolOps = true;
#endif
#else
constexpr bool kPoolOps = true;
#endif

constexpr size_t kGranule = 16, kClasses = 64, kChunk = size_t(64) << 10;
static_assert(alignof(Operation) <= kGranule && kClasses < 256); // (a class is a byte)

struct FreeBlock {
  FreeBlock *next;
};
using FreeLists = std::array<FreeBlock *, kClasses + 1>; // by class; 0 unused

// Appends list `from` to `to` (a thread's lists going to the depot, or the depot's to a thread).
void splice(FreeBlock *&to, FreeBlock *from) {
  if (!from)
    return;
  FreeBlock *last = from;
  while (last->next)
    last = last->next;
  last->next = to;
  to = from;
}

struct Depot {
  std::mutex mutex;
  FreeLists lists{};
};
Depot &depot() {
  static Depot *d = new Depot; // (never destroyed: threads may end after static destruction)
  return *d;
}

class OpPool {
public:
  OpPool() = default;
  OpPool(const OpPool &) = delete;
  OpPool &operator=(const OpPool &) = delete;
  ~OpPool() {
    Depot &d = depot();
    std::lock_guard<std::mutex> lock(d.mutex);
    for (size_t c = 1; c <= kClasses; ++c)
      splice(d.lists[c], free_[c]);
  }

  void *allocate(size_t cls) {
    if (FreeBlock *b = free_[cls]) {
      free_[cls] = b->next;
      return b;
    }
    const size_t bytes = cls * kGranule;
    if (static_cast<size_t>(end_ - at_) < bytes) {
      if (adopt(cls))
        return allocate(cls);
      at_ = static_cast<char *>(::operator new(kChunk)); // (kept for the process's life)
      end_ = at_ + kChunk;
    }
    void *p = at_;
    at_ += bytes;
    return p;
  }

  void release(void *p, size_t cls) {
    auto *b = static_cast<FreeBlock *>(p);
    b->next = free_[cls];
    free_[cls] = b;
  }

private:
  // Takes the depot's list of class `cls`, if it has one.
  bool adopt(size_t cls) {
    Depot &d = depot();
    std::lock_guard<std::mutex> lock(d.mutex);
    if (!d.lists[cls])
      return false;
    free_[cls] = d.lists[cls];
    d.lists[cls] = nullptr;
    return true;
  }

  FreeLists free_{};
  char *at_ = nullptr, *end_ = nullptr;
};

thread_local OpPool opPool;

} // namespace

void Operation::operator delete(Operation *op, std::destroying_delete_t) {
  const size_t cls = op->sizeClass_;
  op->~Operation();
  if (cls == 0)
    ::operator delete(static_cast<void *>(op));
  else
    opPool.release(op, cls);
}

Operation *Operation::create(OperationState &&state) {
  auto numResults = static_cast<uint32_t>(state.resultTypes.size());
  auto numOperands = static_cast<uint32_t>(state.operands.size());
  auto numAttrs = static_cast<uint32_t>(state.attributes.size());
  static_assert(alignof(detail::ValueImpl) <= alignof(Operation) &&
                alignof(OpOperand) <= alignof(Operation) &&
                alignof(NamedAttribute) <= alignof(Operation));
  const size_t bytes = sizeof(Operation) + numResults * sizeof(detail::ValueImpl) +
                       numOperands * sizeof(OpOperand) + numAttrs * sizeof(NamedAttribute);
  const size_t cls =
      kPoolOps && bytes <= kGranule * kClasses ? (bytes + kGranule - 1) / kGranule : 0;
  void *memory = cls ? opPool.allocate(cls) : ::operator new(bytes);
  Operation *op = new (memory) Operation();
  op->sizeClass_ = static_cast<uint8_t>(cls);
  op->info_ = state.info;
  op->setLocation(state.location);
  op->debugLoc_ = state.debugLoc;
  op->numResults_ = numResults;
  detail::ValueImpl *results = op->results();
  for (uint32_t i = 0; i < numResults; ++i) {
    detail::ValueImpl *r = new (results + i) detail::ValueImpl();
    r->type = state.resultTypes[i];
    r->index = i;
  }
  OpOperand *slots = op->trailingOperands();
  op->numOperands_ = numOperands;
  for (uint32_t i = 0; i < numOperands; ++i) {
    new (slots + i) OpOperand();
    slots[i].owner_ = op;
    slots[i].set(state.operands[i]);
  }
  // Sorted by name as they are copied in, stably (an op has a few: std::stable_sort would take
  // a buffer from the heap for every op).
  op->attrs_ = reinterpret_cast<NamedAttribute *>(slots + numOperands);
  for (uint32_t i = 0; i < numAttrs; ++i) {
    uint32_t at = i;
    for (; at > 0 && state.attributes[i].name < op->attrs_[at - 1].name; --at)
      new (op->attrs_ + at) NamedAttribute(op->attrs_[at - 1]);
    new (op->attrs_ + at) NamedAttribute(state.attributes[i]);
  }
  op->numAttrs_ = numAttrs;
  if (!state.successors.empty())
    op->extras().successors = std::move(state.successors);
  for (unsigned r = 0; r < state.numRegions; ++r)
    op->extras().regions.push_back(std::make_unique<Region>(op));
  return op;
}

Operation::Extras &Operation::extras() {
  if (!extras_)
    extras_ = std::make_unique<Extras>();
  return *extras_;
}

Location Operation::location() const {
  switch (locationKind_) {
  case Location::Kind::Binary:
    return Location::binary(locationA_, locationB_);
  case Location::Kind::Text:
    return Location::text(locationA_, locationB_);
  default:
    return Location();
  }
}

void Operation::setLocation(Location l) {
  locationKind_ = l.kind;
  if (l.kind == Location::Kind::Binary) {
    locationA_ = l.wordOffset;
    locationB_ = l.instIndex;
  } else if (l.kind == Location::Kind::Text) {
    locationA_ = l.line;
    locationB_ = l.column;
  } else {
    locationKind_ = Location::Kind::None; // container and bitcode places are not ops' places
    locationA_ = locationB_ = 0;
  }
}

void Operation::dropTreeReferences() {
  if (referencesDropped_)
    return;
  walk(this, [](Operation *x) {
    x->dropAllReferences();
    x->referencesDropped_ = true;
  });
}

Operation::~Operation() {
  dropTreeReferences();
  // The trailing slots past the operands in use (or all of them, when the operands moved to an
  // array of their own) hold no value: they were dropped before they were given up.
  if (!operandsOnHeap_)
    std::destroy_n(trailingOperands(), numOperands_);
  extras_.reset();
  std::destroy_n(results(), numResults_);
}

void Operation::dropAllReferences() {
  for (uint32_t i = 0; i < numOperands_; ++i)
    operands()[i].set(Value());
}

void Operation::erase() {
  remove();
  delete this;
}

void OperationDeleter::operator()(Operation *op) const {
  if (op)
    op->erase();
}

std::string_view Operation::name() const { return info_->name; }

uint32_t Operation::numOrdinaryOperands() const {
  uint32_t n = numOperands_;
  for (const Successor &s : successors())
    n = std::min(n, s.firstOperand);
  return n;
}

std::vector<Value> Operation::operandValues(uint32_t first, uint32_t count) const {
  std::vector<Value> out;
  uint32_t end = count == ~0u ? numOperands_ : std::min(numOperands_, first + count);
  for (uint32_t i = first; i < end; ++i)
    out.push_back(operands()[i].get());
  return out;
}

// Called with no operand in use (all dropped). The trailing slots are reused while `n` fits in
// those still in use (their count is not kept past that); else an array of the op's own, which
// it keeps and reuses while `n` fits.
void Operation::allocateOperands(uint32_t n) {
  if (operandsOnHeap_ || n > numOperands_) {
    if (!extras_ || n > extras_->heapOperandCapacity) {
      Extras &e = extras();
      e.heapOperands = std::make_unique<OpOperand[]>(n);
      e.heapOperandCapacity = n;
    }
    operandsOnHeap_ = true;
  }
  numOperands_ = n;
  OpOperand *slots = operands();
  for (uint32_t i = 0; i < n; ++i)
    slots[i].owner_ = this;
}

void Operation::setOperands(std::span<const Value> values) {
  dropAllReferences();
  allocateOperands(static_cast<uint32_t>(values.size()));
  for (uint32_t i = 0; i < numOperands_; ++i)
    operands()[i].set(values[i]);
}

Attribute Operation::attr(std::string_view name) const {
  for (const NamedAttribute &a : attributes())
    if (a.name == name)
      return a.attr();
  return Attribute();
}

void Operation::setAttr(Context &context, std::string_view name, Attribute value) {
  for (uint32_t i = 0; i < numAttrs_; ++i)
    if (attrs_[i].name == name) {
      attrs_[i].value = value.storage();
      return;
    }
  NamedAttribute n{intern(context, name), value.storage()};
  const bool onHeap = extras_ && attrs_ == extras_->heapAttrs.get();
  if (!onHeap || numAttrs_ == extras_->heapAttrCapacity) {
    // The trailing attributes cannot grow: they move (the first time) to an array of the op's
    // own, which doubles when full.
    const uint32_t capacity = std::max<uint32_t>(4, 2 * numAttrs_);
    auto grown = std::make_unique<NamedAttribute[]>(capacity);
    std::copy(attrs_, attrs_ + numAttrs_, grown.get());
    Extras &e = extras();
    e.heapAttrs = std::move(grown);
    e.heapAttrCapacity = capacity;
    attrs_ = e.heapAttrs.get();
  }
  NamedAttribute *at = std::upper_bound(
      attrs_, attrs_ + numAttrs_, n,
      [](const NamedAttribute &a, const NamedAttribute &b) { return a.name < b.name; });
  std::copy_backward(at, attrs_ + numAttrs_, attrs_ + numAttrs_ + 1);
  *at = n;
  ++numAttrs_;
}

void Operation::removeAttr(std::string_view name) {
  NamedAttribute *end = std::remove_if(attrs_, attrs_ + numAttrs_,
                                       [&](const NamedAttribute &a) { return a.name == name; });
  numAttrs_ = static_cast<uint32_t>(end - attrs_);
}

std::vector<Value> Operation::successorOperands(uint32_t i) const {
  const Successor &s = extras_->successors[i];
  return operandValues(s.firstOperand, s.numOperands);
}

void Operation::setSuccessors(std::span<const Block *const> blocks,
                              std::span<const std::vector<Value>> args) {
  std::vector<Value> values = operandValues(0, numOrdinaryOperands());
  std::vector<Successor> &successors = extras().successors;
  successors.clear();
  for (size_t i = 0; i < blocks.size(); ++i) {
    Successor s;
    s.block = const_cast<Block *>(blocks[i]);
    s.firstOperand = static_cast<uint32_t>(values.size());
    s.numOperands = i < args.size() ? static_cast<uint32_t>(args[i].size()) : 0;
    if (i < args.size())
      values.insert(values.end(), args[i].begin(), args[i].end());
    successors.push_back(s);
  }
  setOperands(values);
}

Operation *Operation::parentOp() const { return block_ ? block_->parentOp() : nullptr; }

void Operation::remove() {
  if (!block_)
    return;
  (prev_ ? prev_->next_ : block_->first_) = next_;
  (next_ ? next_->prev_ : block_->last_) = prev_;
  prev_ = next_ = nullptr;
  block_ = nullptr;
}

void Operation::moveBefore(Operation *other) {
  remove();
  other->block()->insertBefore(other, this);
}

void Operation::moveToEnd(Block *b) {
  remove();
  b->push_back(this);
}

// --- Block -----------------------------------------------------------------------------------

Block::~Block() {
  for (Operation *op = first_; op; op = op->next_)
    op->dropTreeReferences();
  while (first_) {
    Operation *op = first_;
    op->remove();
    delete op;
  }
}

Operation *Block::parentOp() const { return parent_ ? parent_->parentOp() : nullptr; }

Value Block::addArgument(Type type) {
  auto v = std::make_unique<detail::BlockArgumentImpl>();
  v->type = type;
  v->argument = true;
  v->block = this;
  v->index = static_cast<uint32_t>(args_.size());
  args_.push_back(std::move(v));
  return Value(args_.back().get());
}

void Block::eraseArgument(uint32_t i) {
  assert(!args_[i]->firstUse);
  args_.erase(args_.begin() + i);
  for (uint32_t k = i; k < args_.size(); ++k)
    args_[k]->index = k;
}

Operation *Block::terminator() const {
  return last_ && (last_->info().flags & OpInfo::kTerminator) ? last_ : nullptr;
}

void Block::push_back(Operation *op) { insertBefore(nullptr, op); }

void Block::insertBefore(Operation *before, Operation *op) {
  assert(!op->block_);
  op->block_ = this;
  op->next_ = before;
  op->prev_ = before ? before->prev_ : last_;
  (op->prev_ ? op->prev_->next_ : first_) = op;
  (before ? before->prev_ : last_) = op;
}

void Block::splice(Operation *first, Block *dest) {
  while (first) {
    Operation *next = first->next_;
    first->remove();
    dest->push_back(first);
    first = next;
  }
}

// --- Region ----------------------------------------------------------------------------------

Region::~Region() {
  for (Block *b = first_; b; b = b->next_)
    for (Operation *op = b->first_; op; op = op->next_)
      op->dropTreeReferences();
  while (first_)
    erase(first_);
}

Block *Region::addBlock(Block *before) {
  Block *b = new Block();
  insert(b, before);
  return b;
}

void Region::insert(Block *b, Block *before) {
  assert(!b->parent_);
  b->parent_ = this;
  b->next_ = before;
  b->prev_ = before ? before->prev_ : last_;
  (b->prev_ ? b->prev_->next_ : first_) = b;
  (before ? before->prev_ : last_) = b;
}

void Region::remove(Block *b) {
  (b->prev_ ? b->prev_->next_ : first_) = b->next_;
  (b->next_ ? b->next_->prev_ : last_) = b->prev_;
  b->prev_ = b->next_ = nullptr;
  b->parent_ = nullptr;
}

void Region::erase(Block *b) {
  remove(b);
  delete b;
}

size_t Region::size() const {
  size_t n = 0;
  for (Block *b = first_; b; b = b->next_)
    ++n;
  return n;
}

} // namespace spire::dialect
