// An LLVM module as read from bitcode (the LLVM 3.7 dialect DXIL uses, and LLVM 14's): flat
// tables indexed by TypeId, ValueId and MetadataId, with no pointers between entries.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <memory_resource>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace spire::dxil {

using TypeId = uint32_t;
using ValueId = uint32_t;
using MetadataId = uint32_t;
inline constexpr uint32_t kNoId = 0xFFFFFFFFu;

/// A string in LlvmModule::strings.
struct StrRef {
  uint32_t offset = 0;
  uint32_t size = 0;
  bool empty() const { return size == 0; }
};

// ---------------------------------------------------------------------------------------------
// Types: uniqued (two equal literal types have one id); identified structs are never merged.

enum class TypeKind : uint8_t {
  Void,
  Half,
  BFloat,
  Float,
  Double,
  X86Fp80,
  Fp128,
  PpcFp128,
  Label,
  Metadata,
  X86Mmx,
  X86Amx,
  Token,
  Integer,
  Pointer,  ///< elements: the pointee (none for an opaque `ptr`); bits: the address space
  Array,    ///< elements: the element; count
  Vector,   ///< elements: the element; count; scalable
  Struct,   ///< elements: the members
  Function, ///< elements: the return type, then the parameters
};

struct Type {
  TypeKind kind = TypeKind::Void;
  bool packed = false;     ///< struct: <{ ... }>
  bool identified = false; ///< struct: named or numbered (%name = type ...), never uniqued
  bool opaque = false;     ///< identified struct without a body
  bool varArg = false;     ///< function
  bool scalable = false;   ///< vector
  uint32_t bits = 0;       ///< integer: the width; pointer: the address space
  uint64_t count = 0;      ///< array, vector: the number of elements
  uint32_t firstElement = 0, numElements = 0; ///< into LlvmModule::typeElements
  StrRef name;                                ///< identified struct: its name (may be empty)
};

// ---------------------------------------------------------------------------------------------
// Values: every global, function, alias, constant, argument, instruction result and basic block
// has a ValueId; metadata used as an operand (calls of llvm.dbg.*) has one too.

enum class ValueKind : uint8_t {
  GlobalVariable, ///< index: into globals
  Function,       ///< index: into functions
  Alias,          ///< index: into aliases
  Constant,       ///< index: into constants
  Argument,       ///< index: the function; the argument number is value - firstArgument
  Instruction,    ///< index: into instructions
  Block,          ///< index: into blocks
  Metadata,       ///< index: the MetadataId (a `metadata` operand)
};

struct Value {
  ValueKind kind = ValueKind::Constant;
  TypeId type = kNoId;
  uint32_t index = 0;
  StrRef name; ///< from the value symbol table or string table; empty: unnamed
};

enum class Linkage : uint8_t {
  External,
  AvailableExternally,
  LinkOnceAny,
  LinkOnceOdr,
  WeakAny,
  WeakOdr,
  Appending,
  Internal,
  Private,
  ExternalWeak,
  Common,
};

enum class Visibility : uint8_t { Default, Hidden, Protected };
enum class DllStorage : uint8_t { Default, Import, Export };
enum class ThreadLocal : uint8_t { None, GeneralDynamic, LocalDynamic, InitialExec, LocalExec };
enum class UnnamedAddr : uint8_t { None, Global, Local };

/// Where a global, function or instruction lists its metadata attachments.
struct AttachmentRange {
  uint32_t first = 0, count = 0; ///< into LlvmModule::attachments
};

struct GlobalVariable {
  ValueId value = kNoId;
  TypeId valueType = kNoId; ///< the type of what the global holds (its value's type is a pointer)
  uint32_t addressSpace = 0;
  bool isConstant = false;
  bool externallyInitialized = false;
  bool dsoLocal = false;
  Linkage linkage = Linkage::External;
  Visibility visibility = Visibility::Default;
  DllStorage dllStorage = DllStorage::Default;
  ThreadLocal threadLocal = ThreadLocal::None;
  UnnamedAddr unnamedAddr = UnnamedAddr::None;
  uint64_t align = 0;          ///< bytes; 0: not given
  ValueId initializer = kNoId; ///< a constant; kNoId: a declaration
  uint32_t section = kNoId;    ///< into LlvmModule::sections
  uint32_t attributes = kNoId; ///< an attribute set (LlvmModule::attributeSets)
  AttachmentRange attachments;
};

struct Alias {
  ValueId value = kNoId;
  TypeId valueType = kNoId;
  uint32_t addressSpace = 0;
  ValueId aliasee = kNoId;
  Linkage linkage = Linkage::External;
  Visibility visibility = Visibility::Default;
  DllStorage dllStorage = DllStorage::Default;
  ThreadLocal threadLocal = ThreadLocal::None;
  UnnamedAddr unnamedAddr = UnnamedAddr::None;
  bool dsoLocal = false;
};

struct Function {
  ValueId value = kNoId;
  TypeId functionType = kNoId;
  uint32_t callingConv = 0; ///< 0: C
  bool isDeclaration = true;
  bool dsoLocal = false;
  Linkage linkage = Linkage::External;
  Visibility visibility = Visibility::Default;
  DllStorage dllStorage = DllStorage::Default;
  UnnamedAddr unnamedAddr = UnnamedAddr::None;
  uint32_t addressSpace = 0;
  uint32_t attributes = kNoId; ///< an attribute list (LlvmModule::attributeLists)
  uint64_t align = 0;
  uint32_t section = kNoId; ///< into LlvmModule::sections
  uint32_t gc = kNoId;      ///< into LlvmModule::gcNames
  ValueId prologue = kNoId, prefix = kNoId, personality = kNoId;
  ValueId firstArgument = kNoId; ///< the arguments have consecutive ids
  uint32_t numArguments = 0;
  uint32_t firstBlock = 0, numBlocks = 0;             ///< into LlvmModule::blocks
  uint32_t firstInstruction = 0, numInstructions = 0; ///< into LlvmModule::instructions
  AttachmentRange attachments;
};

struct BasicBlock {
  ValueId value = kNoId;
  uint32_t function = 0;
  uint32_t firstInstruction = 0, numInstructions = 0;
};

// ---------------------------------------------------------------------------------------------
// Constants. Aggregates are canonical as LLVM makes them: all-zero aggregates are Null
// (zeroinitializer), all-undef ones Undef, and arrays and vectors of plain integers or floats
// are Data.

enum class ConstantKind : uint8_t {
  Integer, ///< bits (≤ 64) or words (wider: little-endian 64-bit words)
  Float,   ///< bits: the IEEE bit pattern (x86_fp80 and fp128: words)
  Null,    ///< 0, 0.0, null, zeroinitializer
  Undef,
  Poison,
  Aggregate,    ///< operands: the elements
  Data,         ///< words: one per element (integers zero-extended, floats as bits)
  Expr,         ///< opcode, operands (and indices for extract/insertvalue: in words)
  BlockAddress, ///< operands: the function and the block
  InlineAsm,    ///< not supported by the printer
};

enum class Opcode : uint8_t {
  // Terminators
  Ret,
  Br,
  Switch,
  IndirectBr,
  Unreachable,
  // Unary and binary operators
  FNeg,
  Add,
  FAdd,
  Sub,
  FSub,
  Mul,
  FMul,
  UDiv,
  SDiv,
  FDiv,
  URem,
  SRem,
  FRem,
  Shl,
  LShr,
  AShr,
  And,
  Or,
  Xor,
  // Memory
  Alloca,
  Load,
  Store,
  GetElementPtr,
  Fence,
  AtomicCmpXchg,
  AtomicRMW,
  // Casts
  Trunc,
  ZExt,
  SExt,
  FPToUI,
  FPToSI,
  UIToFP,
  SIToFP,
  FPTrunc,
  FPExt,
  PtrToInt,
  IntToPtr,
  BitCast,
  AddrSpaceCast,
  // Other
  ICmp,
  FCmp,
  Phi,
  Call,
  Select,
  VAArg,
  ExtractElement,
  InsertElement,
  ShuffleVector,
  ExtractValue,
  InsertValue,
  Freeze,
};

/// The name LLVM assembly uses for an opcode ("getelementptr").
std::string_view opcodeName(Opcode op);
bool isCast(Opcode op);
bool isBinary(Opcode op);
bool isTerminator(Opcode op);

/// Comparison predicates, numbered as in LLVM (FCMP_FALSE = 0 ... ICMP_SLE = 41).
std::string_view predicateName(uint8_t predicate);

enum class AtomicOrdering : uint8_t {
  NotAtomic,
  Unordered,
  Monotonic,
  Acquire,
  Release,
  AcquireRelease,
  SequentiallyConsistent,
};
enum class RmwOp : uint8_t { Xchg, Add, Sub, And, Nand, Or, Xor, Max, Min, UMax, UMin, FAdd, FSub };
std::string_view rmwOpName(RmwOp op);

/// Instruction and constant-expression flags.
enum : uint8_t {
  kFlagNoUnsignedWrap = 1 << 0,
  kFlagNoSignedWrap = 1 << 1,
  kFlagExact = 1 << 2,
  kFlagInBounds = 1 << 3,
  kFlagVolatile = 1 << 4,
  kFlagWeak = 1 << 5,
  kFlagInAlloca = 1 << 6,
  kFlagSwiftError = 1 << 7,
};
/// Fast-math flags (Instruction::fastMath), numbered as LLVM 14's bitcode.
enum : uint8_t {
  kFastMathReassoc = 1 << 0,
  kFastMathNoNaNs = 1 << 1,
  kFastMathNoInfs = 1 << 2,
  kFastMathNoSignedZeros = 1 << 3,
  kFastMathAllowReciprocal = 1 << 4,
  kFastMathAllowContract = 1 << 5,
  kFastMathApproxFunc = 1 << 6,
  kFastMathAll = 0x7F,
};
/// Call kinds (Instruction::tail).
enum class TailKind : uint8_t { None, Tail, MustTail, NoTail };

struct Constant {
  ConstantKind kind = ConstantKind::Null;
  Opcode opcode = Opcode::Add; ///< Expr
  uint8_t flags = 0;           ///< Expr: kFlag* (inbounds, nuw, nsw, exact)
  uint8_t predicate = 0;       ///< Expr compare
  TypeId type = kNoId;
  TypeId sourceType = kNoId; ///< Expr GEP: the source element type
  ValueId value = kNoId;
  uint64_t bits = 0;                          ///< Integer, Float (when ≤ 64 bits)
  uint32_t firstOperand = 0, numOperands = 0; ///< into LlvmModule::operands
  uint32_t firstWord = 0, numWords = 0;       ///< into LlvmModule::words
};

/// One instruction. Operands (LlvmModule::operands, all ValueIds), by opcode:
///   ret [value]; br [dest] or [cond, ifTrue, ifFalse]; switch [cond, default, (value, dest)*];
///   binary [lhs, rhs]; cast [value]; icmp/fcmp [lhs, rhs]; select [cond, ifTrue, ifFalse];
///   phi [(value, block)*]; call [callee, args...]; alloca [count]; load [pointer];
///   store [value, pointer]; getelementptr [pointer, indices...]; extractvalue [aggregate];
///   insertvalue [aggregate, value]; atomicrmw [pointer, value]; cmpxchg [pointer, cmp, new];
///   extractelement [vector, index]; insertelement [vector, value, index];
///   shufflevector [v1, v2, mask]; va_arg [list]; fence []; unreachable []; freeze [value].
/// Extract/insertvalue indices are in LlvmModule::words (firstWord, numWords).
struct Instruction {
  Opcode opcode = Opcode::Unreachable;
  uint8_t flags = 0;     ///< kFlag*
  uint8_t fastMath = 0;  ///< kFastMath*
  uint8_t predicate = 0; ///< icmp/fcmp: LLVM's predicate; atomicrmw: RmwOp
  AtomicOrdering ordering = AtomicOrdering::NotAtomic;
  AtomicOrdering failureOrdering = AtomicOrdering::NotAtomic; ///< cmpxchg
  uint8_t syncScope = 1;                                      ///< 0: singlethread, 1: system
  TailKind tail = TailKind::None;                             ///< call
  uint32_t callingConv = 0;                                   ///< call
  uint64_t align = 0;          ///< alloca, load, store, atomics: bytes (0: none)
  uint32_t attributes = kNoId; ///< call: an attribute list
  uint32_t block = 0;          ///< into LlvmModule::blocks
  TypeId type = kNoId;         ///< the result type (void when there is none)
  TypeId auxType = kNoId;      ///< alloca: allocated; GEP: source element; call: callee
  ValueId value = kNoId;       ///< the result's id; kNoId when the type is void
  uint32_t firstOperand = 0, numOperands = 0; ///< into LlvmModule::operands
  uint32_t firstWord = 0, numWords = 0;       ///< into LlvmModule::words
  AttachmentRange attachments;
  uint32_t debugLoc = kNoId; ///< into LlvmModule::debugLocs (FUNC_CODE_DEBUG_LOC), or none
};

/// A source location of an instruction, as the bitcode gives it (not printed: the scopes are
/// debug-information records the printer does not interpret).
struct DebugLoc {
  uint32_t line = 0, column = 0;
  MetadataId scope = kNoId, inlinedAt = kNoId;
  bool implicitCode = false;
};

// ---------------------------------------------------------------------------------------------
// Metadata

enum class MetadataKind : uint8_t {
  String,       ///< string
  Value,        ///< value: a constant, global or (function-local) argument or instruction
  Node,         ///< operands: MetadataIds, kNoId for null
  DistinctNode, ///< the same, not uniqued
  Record,       ///< a specialized node (debug information...), kept as its record: code, words
};

struct Metadata {
  MetadataKind kind = MetadataKind::Node;
  uint32_t code = 0;         ///< Record: the METADATA_BLOCK record code
  uint32_t function = kNoId; ///< function-local metadata: the function's index
  StrRef string;
  ValueId value = kNoId;
  uint32_t firstOperand = 0, numOperands = 0; ///< into LlvmModule::metadataOperands
  uint32_t firstWord = 0, numWords = 0;       ///< Record: its operands, into words
};

struct NamedMetadata {
  StrRef name;
  uint32_t firstOperand = 0, numOperands = 0; ///< into LlvmModule::metadataOperands
};

/// A metadata kind ("dbg", "tbaa", "dx.precise"), with the id the bitcode gives it.
struct MetadataKindName {
  uint32_t id = 0;
  StrRef name;
};

struct Attachment {
  uint32_t kind = 0; ///< the bitcode's kind id (see metadataKinds)
  MetadataId node = kNoId;
};

// ---------------------------------------------------------------------------------------------
// Attributes

/// Attribute kinds, numbered as in the bitcode (ATTR_KIND_*).
enum class AttrKind : uint32_t {
  None = 0,
  Alignment = 1,
  AlwaysInline = 2,
  ByVal = 3,
  InlineHint = 4,
  InReg = 5,
  MinSize = 6,
  Naked = 7,
  Nest = 8,
  NoAlias = 9,
  NoBuiltin = 10,
  NoCapture = 11,
  NoDuplicate = 12,
  NoImplicitFloat = 13,
  NoInline = 14,
  NonLazyBind = 15,
  NoRedZone = 16,
  NoReturn = 17,
  NoUnwind = 18,
  OptimizeForSize = 19,
  ReadNone = 20,
  ReadOnly = 21,
  Returned = 22,
  ReturnsTwice = 23,
  SExt = 24,
  StackAlignment = 25,
  StackProtect = 26,
  StackProtectReq = 27,
  StackProtectStrong = 28,
  StructRet = 29,
  SanitizeAddress = 30,
  SanitizeThread = 31,
  SanitizeMemory = 32,
  UwTable = 33,
  ZExt = 34,
  Builtin = 35,
  Cold = 36,
  OptimizeNone = 37,
  InAlloca = 38,
  NonNull = 39,
  JumpTable = 40,
  Dereferenceable = 41,
  DereferenceableOrNull = 42,
  Convergent = 43,
  SafeStack = 44,
  ArgMemOnly = 45,
  SwiftSelf = 46,
  SwiftError = 47,
  NoRecurse = 48,
  InaccessibleMemOnly = 49,
  InaccessibleMemOrArgMemOnly = 50,
  AllocSize = 51,
  WriteOnly = 52,
  Speculatable = 53,
  StrictFp = 54,
  SanitizeHwAddress = 55,
  NoCfCheck = 56,
  OptForFuzzing = 57,
  ShadowCallStack = 58,
  SpeculativeLoadHardening = 59,
  ImmArg = 60,
  WillReturn = 61,
  NoFree = 62,
  NoSync = 63,
  SanitizeMemTag = 64,
  Preallocated = 65,
  NoMerge = 66,
  NullPointerIsValid = 67,
  NoUndef = 68,
  ByRef = 69,
  MustProgress = 70,
  NoCallback = 71,
  Hot = 72,
  NoProfile = 73,
  VScaleRange = 74,
  SwiftAsync = 75,
  NoSanitizeCoverage = 76,
  ElementType = 77,
  DisableSanitizerInstrumentation = 78,
};
inline constexpr uint32_t kNumAttrKinds = 79;

/// The attribute's name in LLVM assembly ("nounwind"), or empty when the kind is unknown.
std::string_view attrKindName(AttrKind kind);

struct Attribute {
  enum class Form : uint8_t { Enum, Int, Type, String };
  Form form = Form::Enum;
  AttrKind kind = AttrKind::None; ///< Enum, Int, Type
  uint64_t intValue = 0;          ///< Int: align in bytes, dereferenceable bytes...
  TypeId type = kNoId;            ///< Type: byval(<ty>)...
  StrRef key, value;              ///< String: "key"="value"
};

/// A set of attributes, sorted as LLVM sorts them (enum kinds, then strings by key).
struct AttributeSet {
  uint32_t first = 0, count = 0; ///< into LlvmModule::attributes
};

/// Attributes of a function or call: one set per position.
struct AttributeList {
  static constexpr uint32_t kFunction = 0xFFFFFFFFu;
  static constexpr uint32_t kReturn = 0;
  struct Entry {
    uint32_t position = 0; ///< kFunction, kReturn, or 1 + parameter number
    uint32_t set = 0;      ///< into LlvmModule::attributeSets
  };
  uint32_t first = 0, count = 0; ///< into LlvmModule::attributeListEntries
};

// ---------------------------------------------------------------------------------------------

/// The storage of one module's tables: a monotonic arena, sized from the input when the reader
/// makes it, freed at once with the module. Copies of a module do not share it (they use the
/// default heap); a module without an arena (built in memory by tests) uses the heap too.
class ModuleArena {
public:
  ModuleArena() = default;
  /// An arena whose first block holds `initialBytes`.
  explicit ModuleArena(size_t initialBytes)
      : resource_(std::make_unique<std::pmr::monotonic_buffer_resource>(initialBytes)) {}
  /// An arena that is `resource` (the reader's, monotonic too: its deallocate does nothing).
  explicit ModuleArena(std::unique_ptr<std::pmr::memory_resource> resource)
      : resource_(std::move(resource)) {}
  ModuleArena(const ModuleArena &) {}
  ModuleArena(ModuleArena &&) noexcept = default;
  ModuleArena &operator=(const ModuleArena &) = delete;
  ModuleArena &operator=(ModuleArena &&) = delete;
  std::pmr::memory_resource *resource() const {
    return resource_ ? resource_.get() : std::pmr::new_delete_resource();
  }
  /// Whether the tables' memory is this arena's own (freed at once with it, not one by one).
  bool owned() const { return resource_ != nullptr; }

private:
  std::unique_ptr<std::pmr::memory_resource> resource_;
};

template <class T> using ArenaVector = std::pmr::vector<T>;

/// A table of trivially copyable elements in a memory resource, as an ArenaVector holds them (a
/// copy uses the default resource), that a writer can also fill through a pointer: room() makes
/// room for `n` more and gives the end, the writer stores there and setEnd() commits what it
/// wrote. (A std::pmr::vector cannot be written so: its end is stored on every push_back, and a
/// loop of push_backs keeps it in memory, not in a register.)
template <class T> class ArenaTable {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);

public:
  using value_type = T;
  using size_type = size_t;
  using iterator = T *;
  using const_iterator = const T *;

  ArenaTable() : resource_(std::pmr::get_default_resource()) {}
  explicit ArenaTable(std::pmr::memory_resource *resource) : resource_(resource) {}
  ArenaTable(const ArenaTable &other) : resource_(std::pmr::get_default_resource()) {
    assign(other.begin(), other.end());
  }
  ArenaTable(ArenaTable &&other) noexcept
      : begin_(other.begin_), end_(other.end_), cap_(other.cap_), resource_(other.resource_) {
    other.begin_ = other.end_ = other.cap_ = nullptr;
  }
  ArenaTable &operator=(const ArenaTable &other) {
    if (this != &other)
      assign(other.begin(), other.end());
    return *this;
  }
  /// Takes the other's elements when both use one resource, copies them otherwise.
  ArenaTable &operator=(ArenaTable &&other) {
    if (this == &other)
      return *this;
    if (resource_ == other.resource_ || *resource_ == *other.resource_) {
      release();
      begin_ = other.begin_, end_ = other.end_, cap_ = other.cap_;
      other.begin_ = other.end_ = other.cap_ = nullptr;
    } else {
      assign(other.begin(), other.end());
    }
    return *this;
  }
  ArenaTable(std::initializer_list<T> init) : ArenaTable() { assign(init.begin(), init.end()); }
  ~ArenaTable() { release(); }

  size_t size() const { return size_t(end_ - begin_); }
  size_t capacity() const { return size_t(cap_ - begin_); }
  bool empty() const { return end_ == begin_; }
  T *data() { return begin_; }
  const T *data() const { return begin_; }
  T *begin() { return begin_; }
  T *end() { return end_; }
  const T *begin() const { return begin_; }
  const T *end() const { return end_; }
  T &operator[](size_t i) { return begin_[i]; }
  const T &operator[](size_t i) const { return begin_[i]; }
  T &front() { return *begin_; }
  const T &front() const { return *begin_; }
  T &back() { return end_[-1]; }
  const T &back() const { return end_[-1]; }
  std::pmr::memory_resource *resource() const { return resource_; }

  void push_back(const T &x) {
    if (end_ == cap_) [[unlikely]]
      grow(1);
    *end_++ = x;
  }
  template <class... Args> T &emplace_back(Args &&...args) {
    push_back(T{std::forward<Args>(args)...});
    return back();
  }
  void pop_back() { --end_; }
  void clear() { end_ = begin_; }
  void reserve(size_t n) {
    if (n > capacity())
      reallocate(n);
  }
  void resize(size_t n, const T &x = T{}) {
    reserve(n);
    while (end_ < begin_ + n)
      *end_++ = x;
    end_ = begin_ + n;
  }
  /// Room for `n` more elements (grown geometrically when short): the end, where a writer
  /// stores them before setEnd.
  T *room(size_t n) {
    if (size_t(cap_ - end_) < n) [[unlikely]]
      grow(n);
    return end_;
  }
  /// The end after a writer stored elements at room()'s pointer (at most the room it made).
  void setEnd(T *end) { end_ = end; }
  /// Inserts [first, last) before `pos` (any iterator: the source may be this table).
  template <class It> T *insert(const T *pos, It first, It last) {
    const size_t at = size_t(pos - begin_);
    const size_t n = size_t(std::distance(first, last));
    if (n == 0)
      return begin_ + at;
    bool inside = false; // (a source in this table moves when the tail moves: copied first)
    if constexpr (std::is_convertible_v<It, const T *>)
      inside = n && std::less_equal<const T *>()(begin_, &*first) &&
               std::less<const T *>()(&*first, end_);
    if (size_t(cap_ - end_) < n || inside) {
      ArenaTable copy(resource_); // (the source may be inside this table)
      copy.reserve(std::max(size() + n, capacity() * 2));
      copy.end_ = copy.begin_ + at;
      std::copy(begin_, begin_ + at, copy.begin_);
      for (; first != last; ++first)
        *copy.end_++ = *first;
      copy.end_ = std::copy(begin_ + at, end_, copy.end_);
      *this = std::move(copy);
      return begin_ + at;
    }
    std::memmove(begin_ + at + n, begin_ + at, (size() - at) * sizeof(T));
    T *out = begin_ + at;
    for (; first != last; ++first)
      *out++ = *first;
    end_ += n;
    return begin_ + at;
  }
  T *insert(const T *pos, std::initializer_list<T> list) {
    return insert(pos, list.begin(), list.end());
  }
  template <class Range>
  requires requires(const Range &r) { std::begin(r), std::end(r); }
  T *insert(const T *pos, const Range &range) {
    return insert(pos, std::begin(range), std::end(range));
  }
  T *insert(const T *pos, const T &x) { return insert(pos, &x, &x + 1); }
  template <class It> void assign(It first, It last) {
    clear();
    reserve(size_t(std::distance(first, last)));
    for (; first != last; ++first)
      *end_++ = *first;
  }
  friend bool operator==(const ArenaTable &a, const ArenaTable &b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
  }

private:
  [[gnu::noinline, gnu::cold]] void grow(size_t n) {
    reallocate(std::max(size() + n, capacity() ? capacity() * 2 : size_t(16)));
  }
  void reallocate(size_t n) {
    T *fresh = static_cast<T *>(resource_->allocate(n * sizeof(T), alignof(T)));
    const size_t count = size();
    if (count)
      std::memcpy(fresh, begin_, count * sizeof(T));
    release();
    begin_ = fresh, end_ = fresh + count, cap_ = fresh + n;
  }
  void release() {
    if (begin_)
      resource_->deallocate(begin_, capacity() * sizeof(T), alignof(T));
  }

  T *begin_ = nullptr, *end_ = nullptr, *cap_ = nullptr;
  std::pmr::memory_resource *resource_;
};

/// A fact the bitcode reader vouches for about the module it returned: a move keeps it, a copy
/// (made to be changed) does not, and code that changes a module in place clears it.
class ReaderFact {
public:
  ReaderFact() = default;
  ReaderFact(const ReaderFact &) {}
  ReaderFact(ReaderFact &&) noexcept = default;
  ReaderFact &operator=(const ReaderFact &) {
    holds_ = false;
    return *this;
  }
  ReaderFact &operator=(ReaderFact &&) noexcept = default;
  explicit operator bool() const { return holds_; }
  void set(bool holds) { holds_ = holds; }

private:
  bool holds_ = false;
};

struct LlvmModule {
  LlvmModule() = default;
  /// A module whose tables live in an arena of `arenaBytes` to begin with.
  explicit LlvmModule(size_t arenaBytes) : arena(arenaBytes) {}
  /// A module whose tables live in `resource`.
  explicit LlvmModule(std::unique_ptr<std::pmr::memory_resource> resource)
      : arena(std::move(resource)) {}
  LlvmModule(const LlvmModule &) = default;
  LlvmModule(LlvmModule &&) noexcept = default;
  LlvmModule &operator=(const LlvmModule &other);
  LlvmModule &operator=(LlvmModule &&other) noexcept;
  ~LlvmModule();

  /// First, so that it goes last: every table below allocates from it.
  ModuleArena arena;

  uint32_t version = 0; ///< MODULE_CODE_VERSION: 1 (LLVM 3.7, DXIL), 2 (string table)
  std::pmr::string triple{arena.resource()}, dataLayout{arena.resource()},
      sourceFilename{arena.resource()}, moduleAsm{arena.resource()},
      identification{arena.resource()};
  std::pmr::string strings{arena.resource()}; ///< every StrRef points here

  ArenaVector<Type> types{arena.resource()};
  ArenaVector<TypeId> typeElements{arena.resource()};

  ArenaVector<Value> values{arena.resource()};
  ArenaVector<GlobalVariable> globals{arena.resource()};
  ArenaVector<Function> functions{arena.resource()}; ///< in module order
  ArenaVector<Alias> aliases{arena.resource()};
  ArenaVector<Constant> constants{arena.resource()};
  ArenaVector<BasicBlock> blocks{arena.resource()};
  ArenaVector<Instruction> instructions{arena.resource()};
  /// Written through room()/setEnd() by the function reader's argument loops.
  ArenaTable<ValueId> operands{arena.resource()};
  ArenaVector<uint64_t> words{arena.resource()};
  ArenaVector<StrRef> sections{arena.resource()}, gcNames{arena.resource()};

  ArenaVector<Metadata> metadata{arena.resource()};
  ArenaVector<MetadataId> metadataOperands{arena.resource()};
  ArenaVector<NamedMetadata> namedMetadata{arena.resource()};
  ArenaVector<MetadataKindName> metadataKinds{arena.resource()};
  ArenaVector<Attachment> attachments{arena.resource()};
  ArenaVector<DebugLoc> debugLocs{arena.resource()};

  ArenaVector<Attribute> attributes{arena.resource()};
  ArenaVector<AttributeSet> attributeSets{arena.resource()};
  ArenaVector<AttributeList> attributeLists{arena.resource()};
  ArenaVector<AttributeList::Entry> attributeListEntries{arena.resource()};

  /// The reader checked every call: a call of a function names that function's type, and its
  /// arguments (as many as the parameters) have the parameters' types. The DXIL model then does
  /// not check them again.
  ReaderFact callsTyped;

  // Access helpers.
  std::string_view str(StrRef r) const {
    return std::string_view(strings).substr(r.offset, r.size);
  }
  const Type &type(TypeId id) const { return types[id]; }
  std::span<const TypeId> elements(TypeId id) const {
    const Type &t = types[id];
    return {typeElements.data() + t.firstElement, t.numElements};
  }
  /// Pointer, array, vector: the element or pointee type.
  TypeId elementType(TypeId id) const {
    const Type &t = types[id];
    return t.numElements ? typeElements[t.firstElement] : kNoId;
  }
  std::string_view name(ValueId v) const { return str(values[v].name); }
  TypeId typeOf(ValueId v) const { return values[v].type; }
  std::span<const ValueId> operandsOf(const Instruction &i) const {
    return {operands.data() + i.firstOperand, i.numOperands};
  }
  std::span<const ValueId> operandsOf(const Constant &c) const {
    return {operands.data() + c.firstOperand, c.numOperands};
  }
  std::span<const uint64_t> wordsOf(const Instruction &i) const {
    return {words.data() + i.firstWord, i.numWords};
  }
  std::span<const uint64_t> wordsOf(const Constant &c) const {
    return {words.data() + c.firstWord, c.numWords};
  }
  std::span<const MetadataId> operandsOf(const Metadata &m) const {
    return {metadataOperands.data() + m.firstOperand, m.numOperands};
  }
  std::span<const Attachment> attachmentsOf(AttachmentRange r) const {
    return {attachments.data() + r.first, r.count};
  }
  /// The constant behind a value, or null.
  const Constant *constant(ValueId v) const {
    return values[v].kind == ValueKind::Constant ? &constants[values[v].index] : nullptr;
  }
  /// True with the value when `v` is an integer constant of at most 64 bits (sign-extended).
  bool constantInt(ValueId v, int64_t &out) const;
  /// The function a call calls directly, or null (an indirect call or a cast).
  const Function *calledFunction(const Instruction &call) const;
  /// The attribute set at a position of a list (kNoId when none).
  uint32_t attributeSet(uint32_t list, uint32_t position) const;
  /// The name of a metadata kind id ("dx.precise"), or empty.
  std::string_view metadataKindName(uint32_t kind) const;
};

} // namespace spire::dxil
