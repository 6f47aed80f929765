#include "DxilOpCalls.h"
#include "DxilOpTokens.h"
#include "ShortText.h"

#include "spire/dxil/ContainerSummary.h"

#include <bit>
#include <cstddef>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <vector>

namespace spire::dxil {

namespace {

/// A scalar overload's type (as SignatureMatcher::scalar(Overload, Type) takes it): its kind
/// (Void: not a scalar overload) and, for an integer, its width.
struct ScalarOverload {
  TypeKind kind = TypeKind::Void;
  uint32_t bits = 0;
};
constexpr ScalarOverload kScalarOverloads[kOverloadCount] = {
    {},                      // Void
    {TypeKind::Half, 0},     // F16
    {TypeKind::Float, 0},    // F32
    {TypeKind::Double, 0},   // F64
    {TypeKind::Integer, 1},  // I1
    {TypeKind::Integer, 8},  // I8
    {TypeKind::Integer, 16}, // I16
    {TypeKind::Integer, 32}, // I32
    {TypeKind::Integer, 64}, // I64
    {},                      // Udt
    {},                      // Obj
};

/// Matches function types against an operation's compiled signature tokens.
class SignatureMatcher {
public:
  SignatureMatcher(const LlvmModule &m, const OpFunction &f)
      : m_(m), f_(f), types_(m.types.data()), numTypes_(m.types.size()), strings_(m.strings.data()),
        numStrings_(m.strings.size()) {
    const ScalarOverload &o =
        kScalarOverloads[size_t(f.overload) < kOverloadCount ? size_t(f.overload)
                                                             : size_t(Overload::Void)];
    overloadKind_ = o.kind;
    overloadBits_ = o.bits;
  }

  TypeId overloadType() const { return overloadType_; }

  /// matches() for the common tokens, inline: a scalar, "$o" once the overload type is known or
  /// (a scalar overload) the first "$o", which fixes it, and a struct of a fixed name.
  [[gnu::always_inline]] bool matchesFast(const SignatureToken &token, TypeId type) {
    if (type < numTypes_) [[likely]] {
      const Type &t = types_[type];
      if (token.kind == SignatureTokenKind::Overload) {
        if (overloadType_ != kNoId)
          return type == overloadType_;
        if (overloadKind_ != TypeKind::Void) { // as matches()
          if (t.kind != overloadKind_ ||
              (overloadKind_ == TypeKind::Integer && t.bits != overloadBits_))
            return false;
          overloadType_ = type;
          return true;
        }
      } else if (token.kind >= SignatureTokenKind::Void &&
                 token.kind <= SignatureTokenKind::Double) {
        return scalarToken(token, t, type);
      } else if (token.kind == SignatureTokenKind::Struct) {
        // A struct of a fixed name ("%dx.types.Handle"): its name compared here, not in a call.
        if (t.kind != TypeKind::Struct || !t.identified)
          return false;
        const std::string_view head = token.head();
        if (t.name.size != head.size())
          return false;
        if (uint64_t(t.name.offset) + t.name.size <= numStrings_)
          return sameText(strings_ + t.name.offset, head);
      }
    }
    return matches(token, type);
  }

  /// A scalar token against `t` (the type `type`): a scalar written as the overload's own type
  /// ("i32" in dx.op.threadId.i32) is the overload.
  [[gnu::always_inline]] bool scalarToken(const SignatureToken &token, const Type &t, TypeId type) {
    if (!scalar(token, t))
      return false;
    if (overloadType_ == kNoId && token.scalarOverload != Overload::Void &&
        token.scalarOverload == f_.overload)
      overloadType_ = type;
    return true;
  }

  /// True when `type` is what `token` names; the first `$o` fixes the overload type.
  /// A scalar, or the first `$o` of a scalar overload, without a frame; the rest (structs and
  /// their names, pointers) in matchesSlow().
  [[gnu::noinline]] bool matches(const SignatureToken &token, TypeId type) {
    if (type < numTypes_) [[likely]] {
      const Type &t = types_[type];
      if (token.kind >= SignatureTokenKind::Void && token.kind <= SignatureTokenKind::Double)
        return scalarToken(token, t, type);
      if (token.kind == SignatureTokenKind::Overload && overloadType_ == kNoId &&
          f_.overload != Overload::Void && f_.overload != Overload::Udt &&
          f_.overload != Overload::Obj) {
        if (!scalar(f_.overload, t))
          return false;
        overloadType_ = type;
        return true;
      }
    }
    return matchesSlow(token, type);
  }
  [[gnu::noinline]] bool matchesSlow(const SignatureToken &token, TypeId type) {
    if (type >= numTypes_)
      return false;
    const Type &t = types_[type];
    switch (token.kind) {
    case SignatureTokenKind::Overload:
      return overload(type);
    case SignatureTokenKind::OverloadPointer:
      if (t.kind != TypeKind::Pointer || t.numElements == 0)
        return false;
      return overload(m_.elementType(type));
    case SignatureTokenKind::Struct:
    case SignatureTokenKind::StructOverload: {
      if (t.kind != TypeKind::Struct || !t.identified)
        return false;
      // The struct's name against the token's, "$o" standing for the overload's name.
      std::string_view actual = m_.str(t.name), head = token.head();
      if (token.kind == SignatureTokenKind::Struct)
        return actual == head;
      std::string_view over = overloadName(f_.overload), tail = token.tail();
      if (actual.size() != head.size() + over.size() + tail.size() || !actual.starts_with(head) ||
          actual.substr(head.size(), over.size()) != over || !actual.ends_with(tail))
        return false;
      // %dx.types.ResRet.$o and its kin hold the overload type as their first member.
      if (overloadType_ != kNoId || t.numElements == 0)
        return true;
      return overload(m_.elementType(type));
    }
    default: // Unknown matches nothing; matches() took the scalars (of a type in range)
      return false;
    }
  }

  /// True when `type` is a scalar the token names.
  static bool scalar(const SignatureToken &token, const Type &t) {
    switch (token.kind) {
    case SignatureTokenKind::Void:
      return t.kind == TypeKind::Void;
    case SignatureTokenKind::Integer:
      return t.kind == TypeKind::Integer && t.bits == token.bits;
    case SignatureTokenKind::Half:
      return t.kind == TypeKind::Half;
    case SignatureTokenKind::Float:
      return t.kind == TypeKind::Float;
    case SignatureTokenKind::Double:
      return t.kind == TypeKind::Double;
    default:
      return false;
    }
  }

private:
  const LlvmModule &m_;
  const OpFunction &f_;
  const Type *const types_; ///< the module's types (the module does not change)
  const size_t numTypes_;
  const char *const strings_; ///< and its strings
  const size_t numStrings_;
  TypeId overloadType_ = kNoId;
  /// kScalarOverloads' entry for the function's overload.
  TypeKind overloadKind_ = TypeKind::Void;
  uint32_t overloadBits_ = 0;

  /// `a` (as many characters as `b`) is `b`; the dx.types names (8-16 characters) in two loads
  /// each.
  static bool sameText(const char *a, std::string_view b) {
    return detail::sameShortText(a, b.data(), b.size());
  }

  /// A scalar overload's type.
  static bool scalar(Overload o, const Type &t) {
    switch (o) {
    case Overload::F16:
      return t.kind == TypeKind::Half;
    case Overload::F32:
      return t.kind == TypeKind::Float;
    case Overload::F64:
      return t.kind == TypeKind::Double;
    case Overload::I1:
      return t.kind == TypeKind::Integer && t.bits == 1;
    case Overload::I8:
      return t.kind == TypeKind::Integer && t.bits == 8;
    case Overload::I16:
      return t.kind == TypeKind::Integer && t.bits == 16;
    case Overload::I32:
      return t.kind == TypeKind::Integer && t.bits == 32;
    case Overload::I64:
      return t.kind == TypeKind::Integer && t.bits == 64;
    default:
      return false;
    }
  }

  bool overload(TypeId type) {
    if (type >= numTypes_)
      return false;
    if (overloadType_ != kNoId)
      return type == overloadType_;
    const Type &t = types_[type];
    bool ok = false;
    switch (f_.overload) {
    case Overload::Void:
      ok = false;
      break;
    case Overload::Udt:
    case Overload::Obj:
      ok = t.kind == TypeKind::Struct && t.identified && m_.str(t.name) == f_.suffix;
      break;
    default:
      ok = scalar(f_.overload, t);
      break;
    }
    if (ok)
      overloadType_ = type;
    return ok;
  }
};

/// A signature token for a message, with the overload it stands for: "$o (f32)".
std::string tokenText(const SignatureToken &token, const OpFunction &f) {
  std::string text(token.text);
  if (token.text.find("$o") != std::string_view::npos && f.overload != Overload::Void)
    text += " (" + std::string(f.suffix) + ")";
  return text;
}

/// "opcode 60 (Sample)", for messages.
std::string opText(const OpInfo &op) {
  return "opcode " + std::to_string(op.opcode) + " (" + std::string(op.name) + ")";
}

std::string versionText(unsigned major, unsigned minor) {
  return std::to_string(major) + "." + std::to_string(minor);
}

class Resolver {
public:
  explicit Resolver(DxilModule &module)
      : d_(module), m_(*module.llvm), types_(m_.types.data()), values_(m_.values.data()),
        constants_(m_.constants.data()), numTypes_(m_.types.size()), numValues_(m_.values.size()),
        numConstants_(m_.constants.size()), numOperands_(m_.operands.size()) {}

  std::optional<Diagnostic> run() {
    d_.opCallIndex.assign(m_.instructions.size(), kNoId);
    // The thread's lists of its last program, their room reused (up to kKeptEntries).
    KeptLists &kept = keptLists();
    callees_ = std::move(kept.callees);
    checked_ = std::move(kept.checked);
    stages_ = std::move(kept.stages);
    callees_.assign(m_.functions.size(), Callee());
    checked_.clear();
    checked_.reserve(24); // a program calls a few dozen (function, opcode) pairs
    // The calls are recorded into raw slots, one per instruction (a function's calls are among
    // its instructions), and copied to opCalls at the end: recording is a store, and the slots
    // are neither counted nor initialized first.
    // The thread keeps the slots of its last program for the next (up to kKeptSlots).
    SlotCache &cache = slotCache();
    if (cache.size >= m_.instructions.size()) {
      slots_ = std::move(cache.slots);
      numSlots_ = cache.size;
      cache.size = 0;
    } else {
      growSlots(m_.instructions.size());
    }
    std::optional<Diagnostic> error = resolve();
    d_.opCalls.assign(slots_.get(), slots_.get() + numCalls_);
    if (numSlots_ <= kKeptSlots && numSlots_ > cache.size) {
      cache.slots = std::move(slots_);
      cache.size = numSlots_;
    }
    if (callees_.capacity() <= kKeptEntries && checked_.capacity() <= kKeptEntries &&
        stages_.capacity() <= kKeptEntries) {
      kept.callees = std::move(callees_);
      kept.checked = std::move(checked_);
      kept.stages = std::move(stages_);
    }
    return error;
  }

private:
  std::optional<Diagnostic> resolve() {
    shaderModel_ = d_.shaderModelMajor * 100u + d_.shaderModelMinor;
    dxil_ = d_.dxilMajor * 100u + d_.dxilMinor;
    if (d_.isLibrary())
      findStages();
    // The module's sizes in locals (the calls' records may not be taken to change them).
    const Function *const functions = m_.functions.data();
    const size_t numFunctions = m_.functions.size(), numInstructions = m_.instructions.size();
    const bool library = d_.isLibrary();
    const uint32_t kindStages = 1u << unsigned(d_.kind);
    for (uint32_t fi = 0; fi < numFunctions; ++fi) {
      const Function &f = functions[fi];
      uint64_t end = uint64_t(f.firstInstruction) + f.numInstructions;
      if (end > numInstructions)
        return fail(fi, 0, "instructions out of range");
      if (f.numInstructions == 0) // a declaration
        continue;
      caller_ = fi;
      callerStages_ = library ? stages_[fi] : kindStages;
      if (!calls(f.firstInstruction, uint32_t(end)))
        return error_;
    }
    return std::nullopt;
  }

private:
  DxilModule &d_;
  const LlvmModule &m_;
  // The module's tables as the first calls read them (the module does not change).
  const Type *const types_;
  const Value *const values_;
  const Constant *const constants_;
  const size_t numTypes_, numValues_, numConstants_, numOperands_;
  enum : uint8_t { kNotSeen, kNotDxOp, kDxOp };
  /// Per function, what its name makes it, and the opcodes it was called with.
  struct Callee {
    std::optional<OpFunction> parsed; ///< a dx.op function's class and overload
    uint32_t checked = kNoId;         ///< the head of its list in checked_
    uint8_t state = kNotSeen;
  };
  std::vector<Callee> callees_;
  /// The opcodes whose signature a function's type was found to match, with the overload type:
  /// one flat list, linked per function from Callee::checked (kNoId: none yet). An entry is
  /// known by its opcode operand's value: the same constant is the same opcode (a function's
  /// own constants may give the same opcode another value, which gets an entry of its own).
  struct Checked {
    ValueId opcodeValue = kNoId;
    uint32_t next = kNoId;
    uint32_t numOperands = 0;   ///< the callee and the arguments, as the function type has them
    uint32_t allowedStages = 0; ///< the callers' stages the operation was found allowed in
    // As DxilOpCall from its `op` on (writeCall() copies them in one move).
    const OpInfo *op = nullptr;
    Overload overload = Overload::Void;
    TypeId overloadType = kNoId;
    uint32_t opcode = 0;

    /// numOperands and allowedStages in one load (the higher half the stages).
    uint64_t countAndStages() const {
      static_assert(offsetof(Checked, allowedStages) == offsetof(Checked, numOperands) + 4);
      uint64_t word;
      std::memcpy(&word, reinterpret_cast<const char *>(this) + offsetof(Checked, numOperands),
                  sizeof word);
      return std::endian::native == std::endian::little ? word : word >> 32 | word << 32;
    }
  };
  std::vector<Checked> checked_;
  /// Records a repeated call into raw storage: its instruction and caller as one word
  /// (`instructionAndCaller`: the caller in the higher half), its operation, overload and
  /// overload type copied from the entry in one move.
  static void writeCall(DxilOpCall *slot, uint64_t instructionAndCaller, const Checked &k) {
    static_assert(std::endian::native == std::endian::little);
    static_assert(offsetof(DxilOpCall, instruction) == 0 && offsetof(DxilOpCall, function) == 4);
    constexpr size_t kTail = sizeof(DxilOpCall) - offsetof(DxilOpCall, op);
    static_assert(kTail == 16 && offsetof(Checked, overloadType) + 4 - offsetof(Checked, op) == 16);
    static_assert(offsetof(DxilOpCall, overload) - offsetof(DxilOpCall, op) ==
                      offsetof(Checked, overload) - offsetof(Checked, op) &&
                  offsetof(DxilOpCall, overloadType) - offsetof(DxilOpCall, op) ==
                      offsetof(Checked, overloadType) - offsetof(Checked, op));
    char *to = reinterpret_cast<char *>(slot);
    std::memcpy(to, &instructionAndCaller, sizeof instructionAndCaller);
    std::memcpy(to + offsetof(DxilOpCall, op),
                reinterpret_cast<const char *>(&k) + offsetof(Checked, op), kTail);
  }
  uint32_t caller_ = 0;
  uint32_t numCalls_ = 0; ///< the calls recorded in slots_
  struct FreeSlots {
    void operator()(DxilOpCall *p) const { ::operator delete[](p); }
  };
  std::unique_ptr<DxilOpCall, FreeSlots> slots_; ///< raw storage for numSlots_ calls
  struct SlotCache {
    std::unique_ptr<DxilOpCall, FreeSlots> slots;
    size_t size = 0;
  };
  static constexpr size_t kKeptSlots = 1 << 16; ///< 1.5 MB
  static SlotCache &slotCache() {
    static thread_local SlotCache cache;
    return cache;
  }
  size_t numSlots_ = 0;
  uint32_t callerStages_ = 0;           ///< the caller's stages (allowed())
  uint32_t shaderModel_ = 0, dxil_ = 0; ///< the module's, as major * 100 + minor
  std::vector<uint32_t> stages_;        ///< library: per function, the entry kinds reaching it
  /// The lists' room, kept by the thread from one program to the next (no allocation for most
  /// programs); lists grown past kKeptEntries are freed.
  struct KeptLists {
    std::vector<Callee> callees;
    std::vector<Checked> checked;
    std::vector<uint32_t> stages;
  };
  static constexpr size_t kKeptEntries = 1 << 12;
  static KeptLists &keptLists() {
    static thread_local KeptLists lists;
    return lists;
  }
  std::optional<Diagnostic> error_;

  std::optional<Diagnostic> fail(uint32_t function, uint32_t instruction, std::string message) {
    const Function &f = m_.functions[function];
    std::string text = "@" + std::string(m_.name(f.value)) + ": instruction " +
                       std::to_string(instruction - f.firstInstruction) + ": " + message;
    return makeError(Location(), std::move(text));
  }
  /// failCall() naming the callee (its name looked up for the message only).
  [[gnu::cold, gnu::noinline]] bool failCall(uint32_t instruction, const Function &callee,
                                             std::string message) {
    return failCall(instruction, m_.name(callee.value), std::move(message));
  }
  bool failCall(uint32_t instruction, std::string_view callee, std::string message) {
    error_ = fail(caller_, instruction, "call of @" + std::string(callee) + ": " + message);
    return false;
  }

  /// stages_: each entry's kind marks its function and every function it calls, directly or
  /// not.
  void findStages() {
    stages_.assign(m_.functions.size(), 0);
    std::vector<uint32_t> work;
    for (const EntryPoint &e : d_.entryPoints) {
      if (e.functionIndex >= m_.functions.size() || unsigned(e.kind) >= 32)
        continue;
      uint32_t bit = 1u << unsigned(e.kind);
      work.push_back(e.functionIndex);
      while (!work.empty()) {
        uint32_t fi = work.back();
        work.pop_back();
        if (stages_[fi] & bit)
          continue;
        stages_[fi] |= bit;
        const Function &f = m_.functions[fi];
        uint64_t end = uint64_t(f.firstInstruction) + f.numInstructions;
        for (uint64_t i = f.firstInstruction; i < end && i < m_.instructions.size(); ++i) {
          const Instruction &inst = m_.instructions[i];
          if (inst.opcode != Opcode::Call ||
              uint64_t(inst.firstOperand) + inst.numOperands > m_.operands.size())
            continue;
          if (const Function *callee = m_.calledFunction(inst))
            if (!callee->isDeclaration)
              work.push_back(m_.values[callee->value].index);
        }
      }
    }
  }

  /// The calls among instructions [first, end) of the caller; false at the first that does
  /// not resolve. The common call, a (function, opcode constant) pair seen before in a module
  /// whose calls the reader checked, from a caller of stages found allowed, is recorded here;
  /// the others go to call().
  bool calls(uint32_t first, uint32_t end) {
    // The module's arrays in locals: the stores into opCalls may not be taken to change them.
    const Instruction *const instructions = m_.instructions.data();
    const ValueId *const operands = m_.operands.data();
    const size_t numOperands = m_.operands.size();
    const Value *const values = m_.values.data();
    // Every call through call() where the calls' argument types are not checked, or where the
    // slots might not hold a call for each of the function's instructions (functions whose
    // instructions overlap: record() grows them); the loop below tests no room for each call.
    if (!m_.callsTyped || uint64_t(numCalls_) + (end - first) > numSlots_) {
      for (uint32_t i = first; i < end; ++i)
        if (instructions[i].opcode == Opcode::Call && !call(i))
          return false;
      return true;
    }
    // A repeated call's operand count and caller's stages against the first's, as one word.
    const uint64_t stages = uint64_t(callerStages_) << 32;
    // The calls recorded here go straight into the slots (numCalls_ and the arrays in locals,
    // written back before call(), which may record and grow them).
    uint32_t *const callIndex = d_.opCallIndex.data();
    DxilOpCall *opCalls = slots_.get();
    uint32_t n = numCalls_;
    const size_t slots = numSlots_;
    const uint64_t caller = uint64_t(caller_) << 32; // writeCall()'s word, the instruction 0
    // The resolver's lists too (call() may add to checked_: read again after it).
    const Callee *const callees = callees_.data();
    const Checked *checked = checked_.data();
    for (uint32_t i = first; i < end; ++i) {
      const Instruction &inst = instructions[i];
      if (inst.opcode != Opcode::Call)
        continue;
      if (uint64_t(inst.firstOperand) + inst.numOperands <= numOperands && inst.numOperands >= 2)
          [[likely]] {
        const ValueId *ops = operands + inst.firstOperand;
        const Value &calleeValue = values[ops[0]];
        if (calleeValue.kind != ValueKind::Function)
          continue;
        // A function not of dx.op has no entries (no test of its state before the search).
        const Callee &callee = callees[calleeValue.index];
        const Checked *k = nullptr;
        for (uint32_t c = callee.checked; c != kNoId; c = checked[c].next)
          if (checked[c].opcodeValue == ops[1]) {
            k = &checked[c];
            break;
          }
        if (k && k->countAndStages() == (stages | inst.numOperands)) [[likely]] {
          callIndex[i] = n;
          writeCall(&opCalls[n++], caller | i, *k);
          continue;
        }
        if (callee.state == kNotDxOp)
          continue;
      }
      numCalls_ = n;
      if (!call(i))
        return false;
      n = numCalls_;
      opCalls = slots_.get();
      checked = checked_.data();
      if (numSlots_ != slots) // grown: the next calls take record()'s path
        return calls(i + 1, end);
    }
    numCalls_ = n;
    return true;
  }

  [[gnu::noinline]] bool call(uint32_t index) {
    const Instruction &inst = m_.instructions[index];
    if (inst.opcode != Opcode::Call)
      return true;
    if (uint64_t(inst.firstOperand) + inst.numOperands > numOperands_) [[unlikely]]
      return failCall(index, "?", "operands out of range");
    if (inst.numOperands == 0) [[unlikely]]
      return true;
    const ValueId *ops = m_.operands.data() + inst.firstOperand;
    const Value &calleeValue = values_[ops[0]];
    if (calleeValue.kind != ValueKind::Function)
      return true;
    const uint32_t calleeIndex = calleeValue.index;
    // The callee's name is looked at once per function, not once per call.
    Callee &callee = callees_[calleeIndex];
    if (callee.state == kNotSeen) [[unlikely]]
      callee.state = classify(callee, m_.functions[calleeIndex]);
    if (callee.state == kNotDxOp)
      return true;
    // Most calls repeat a (function, opcode) pair seen before, whose name, operation, overload
    // and function type are checked already: only the argument types and the stage remain.
    int64_t opcode = -1;
    bool known = false; // the opcode operand's value is in `opcode`
    if (inst.numOperands >= 2) [[likely]] {
      for (uint32_t c = callee.checked; c != kNoId; c = checked_[c].next)
        if (checked_[c].opcodeValue == ops[1])
          return repeatCall(index, calleeIndex, ops, inst.numOperands, checked_[c]);
      // The same opcode as another constant.
      known = constantInt(ops[1], opcode);
      if (known)
        for (uint32_t c = callee.checked; c != kNoId; c = checked_[c].next)
          if (checked_[c].opcode == opcode) {
            Checked k = checked_[c];
            k.opcodeValue = ops[1];
            k.next = callee.checked;
            checked_.push_back(k);
            callee.checked = uint32_t(checked_.size() - 1);
            return repeatCall(index, calleeIndex, ops, inst.numOperands, checked_.back());
          }
    }
    return firstCall(index, calleeIndex, ops, inst.numOperands, known ? &opcode : nullptr);
  }

  bool repeatCall(uint32_t index, uint32_t calleeIndex, const ValueId *ops, uint32_t count,
                  Checked &k) {
    // A module whose calls the reader checked needs only the count (as the first call's).
    if (!(m_.callsTyped && count == k.numOperands) &&
        !argumentTypes(index, m_.functions[calleeIndex], ops, count))
      return false;
    if (callerStages_ != k.allowedStages) {
      if (!allowed(index, *k.op))
        return false;
      k.allowedStages = callerStages_;
    }
    record(index, k);
    return true;
  }

  /// An integer constant's value, as LlvmModule::constantInt (inline: one per call).
  bool constantInt(ValueId id, int64_t &out) const {
    if (id >= numValues_)
      return false;
    const Value &v = values_[id];
    if (v.kind != ValueKind::Constant || v.index >= numConstants_)
      return false;
    const Constant &c = constants_[v.index];
    if (c.kind != ConstantKind::Integer || c.type >= numTypes_)
      return m_.constantInt(id, out);
    const Type &t = types_[c.type];
    if (t.kind != TypeKind::Integer || t.bits - 1 >= 64)
      return m_.constantInt(id, out);
    uint64_t bits = c.bits;
    if (t.bits < 64 && (bits >> (t.bits - 1)) & 1)
      bits |= ~uint64_t(0) << t.bits;
    out = int64_t(bits);
    return true;
  }

  /// Records the call at `index` as the entry `k` says.
  void record(uint32_t index, const Checked &k) {
    d_.opCallIndex[index] = numCalls_;
    if (numCalls_ == numSlots_) [[unlikely]] // functions whose instructions overlap
      growSlots(numSlots_ * 2 + 1);
    writeCall(slots_.get() + numCalls_++, uint64_t(caller_) << 32 | index, k);
  }

  /// Room for `n` calls in slots_, keeping those recorded (uninitialized storage: DxilOpCall is
  /// trivially copyable and each slot is constructed when recorded).
  void growSlots(size_t n) {
    static_assert(std::is_trivially_copyable_v<DxilOpCall> &&
                  std::is_trivially_destructible_v<DxilOpCall>);
    std::unique_ptr<DxilOpCall, FreeSlots> grown(
        static_cast<DxilOpCall *>(::operator new[](n * sizeof(DxilOpCall))));
    if (numCalls_)
      std::memcpy(static_cast<void *>(grown.get()), slots_.get(), numCalls_ * sizeof(DxilOpCall));
    slots_ = std::move(grown);
    numSlots_ = n;
  }

  /// The call's argument types are the function's parameter types. The common call (a module
  /// whose calls the reader checked, a function type in range with as many parameters) without
  /// a frame; the rest, which checks each argument and reports, out of line.
  [[gnu::noinline]] bool argumentTypes(uint32_t index, const Function &callee, const ValueId *ops,
                                       uint32_t count) {
    const TypeId fnType = callee.functionType;
    if (fnType < numTypes_ && m_.callsTyped) [[likely]] {
      const Type &ft = types_[fnType];
      if (ft.kind == TypeKind::Function && ft.numElements == count &&
          uint64_t(ft.firstElement) + ft.numElements <= m_.typeElements.size()) [[likely]]
        return true;
    }
    return argumentTypesSlow(index, callee, ops, count);
  }
  [[gnu::noinline]] bool argumentTypesSlow(uint32_t index, const Function &callee,
                                           const ValueId *ops, uint32_t count) {
    TypeId fnType = callee.functionType;
    if (fnType >= numTypes_ || types_[fnType].kind != TypeKind::Function) [[unlikely]]
      return failCall(index, m_.name(callee.value), "not a function type");
    const Type &ft = types_[fnType];
    if (uint64_t(ft.firstElement) + ft.numElements > m_.typeElements.size()) [[unlikely]]
      return failCall(index, m_.name(callee.value), "function type out of range");
    const TypeId *types = m_.typeElements.data() + ft.firstElement; // result, parameters
    const uint32_t args = count - 1;
    if (ft.numElements != args + 1) [[unlikely]]
      return failCall(index, m_.name(callee.value),
                      std::to_string(args) + " arguments for " +
                          std::to_string(ft.numElements - 1) + " parameters");
    if (m_.callsTyped) // the reader checked them
      return true;
    const Value *values = m_.values.data();
    const size_t numValues = m_.values.size();
    for (uint32_t i = 1; i <= args; ++i)
      if (ops[i] >= numValues || values[ops[i]].type != types[i]) [[unlikely]]
        return failCall(index, m_.name(callee.value),
                        "argument " + std::to_string(i - 1) + " has the wrong type");
    return true;
  }

  /// The first call of a function with an opcode: the name, operation, overload and the function
  /// type against the operation's signature; remembered for the calls after it.
  /// `knownOpcode`: the opcode operand's value when the caller has it.
  [[gnu::noinline]] bool firstCall(uint32_t index, uint32_t calleeIndex, const ValueId *ops,
                                   uint32_t count, const int64_t *knownOpcode) {
    const Function &callee = m_.functions[calleeIndex];
    const std::optional<OpFunction> &fn = callees_[calleeIndex].parsed;
    if (!fn)
      return failCall(index, callee, "not a dx.op function of a known class and overload");
    int64_t opcode = knownOpcode ? *knownOpcode : -1;
    if (!knownOpcode && (count < 2 || !m_.constantInt(ops[1], opcode)))
      return failCall(index, callee, "the opcode is not a constant");
    const OpInfo *op = opcode >= 0 && opcode <= UINT32_MAX ? opInfo(uint32_t(opcode)) : nullptr;
    if (!op)
      return failCall(index, callee, "opcode " + std::to_string(opcode) + " is not an operation");
    if (op->opClass != fn->opClass)
      return failCall(index, callee,
                      opText(*op) + " is of class " + std::string(opClassName(op->opClass)));
    if (!op->allows(fn->overload))
      return failCall(index, callee,
                      opText(*op) + " has no " +
                          std::string(fn->overload == Overload::Void
                                          ? "unoverloaded form"
                                          : "overload " + std::string(overloadName(fn->overload))));
    if (!argumentTypes(index, callee, ops, count))
      return false;
    TypeId overloadType = kNoId;
    if (!signature(index, callee, *fn, *op, overloadType))
      return false;
    if (!allowed(index, *op))
      return false;
    uint32_t &head = callees_[calleeIndex].checked;
    checked_.push_back(
        {ops[1], head, count, callerStages_, op, fn->overload, overloadType, op->opcode});
    head = uint32_t(checked_.size() - 1);
    record(index, checked_.back());
    return true;
  }

  uint8_t classify(Callee &c, const Function &callee) {
    std::string_view name = m_.name(callee.value);
    if (!name.starts_with("dx.op."))
      return kNotDxOp;
    c.parsed = parseOpFunctionName(name);
    return kDxOp;
  }

  bool signature(uint32_t index, const Function &callee, const OpFunction &fn, const OpInfo &op,
                 TypeId &overloadType) {
    std::span<const TypeId> types = m_.elements(callee.functionType); // result, parameters
    if (types.size() < 2 || types[1] >= numTypes_ || types_[types[1]].kind != TypeKind::Integer ||
        types_[types[1]].bits != 32)
      return failCall(index, callee, "the opcode parameter is not an i32");
    std::span<const SignatureToken> sig = opSignatureTokens(op); // result, parameters
    if (sig.empty())
      return true;
    SignatureMatcher matcher(m_, fn);
    const size_t params = sig.size() - 1;
    for (size_t k = 1; k <= params; ++k) {
      const size_t position = k + 1;
      if (position >= types.size())
        return failCall(index, callee, countText(op, params, types.size()));
      if (!matcher.matchesFast(sig[k], types[position]))
        return failCall(index, callee,
                        opText(op) + ": operand " + std::to_string(position - 1) + " is not " +
                            tokenText(sig[k], fn));
    }
    if (params + 2 != types.size())
      return failCall(index, callee, countText(op, params, types.size()));
    // The result too: most are void, a scalar or the overload known by now (inline, as the
    // parameters).
    if (!matcher.matchesFast(sig[0], types[0]))
      return failCall(index, callee, opText(op) + ": the result is not " + tokenText(sig[0], fn));
    overloadType = matcher.overloadType();
    if (overloadType == kNoId && fn.overload != Overload::Void)
      return failCall(index, callee, opText(op) + ": the overload type appears nowhere");
    return true;
  }

  [[gnu::cold]] static std::string countText(const OpInfo &op, size_t params, size_t types) {
    return opText(op) + " takes " + std::to_string(params) +
           " operands after the opcode, the function " + std::to_string(types - 2);
  }

  bool allowed(uint32_t index, const OpInfo &op) {
    // The stages: the module's kind, or in a library the kinds of the entries whose functions
    // reach the caller (none for a function no entry reaches: not decidable).
    if ((callerStages_ & ~op.stages) == 0 &&
        shaderModel_ >= op.minShaderModelMajor * 100u + op.minShaderModelMinor &&
        dxil_ >= op.dxilMajor * 100u + op.dxilMinor) [[likely]]
      return true; // the common case, in one step
    return notAllowed(index, op);
  }

  std::string_view calleeName(uint32_t index) const {
    const Function *callee = m_.calledFunction(m_.instructions[index]);
    return callee ? m_.name(callee->value) : std::string_view("?");
  }

  [[gnu::cold, gnu::noinline]] bool notAllowed(uint32_t index, const OpInfo &op) {
    uint32_t stages = d_.isLibrary() ? stages_[caller_] : 1u << unsigned(d_.kind);
    std::string_view name = calleeName(index);
    for (unsigned k = 0; k < 32; ++k)
      if ((stages >> k & 1) && !op.allowedIn(ShaderKind(k))) {
        const char *kind = shaderKindName(ShaderKind(k));
        return failCall(index, name,
                        opText(op) + " is not allowed in a " +
                            (kind ? std::string(kind) : "kind " + std::to_string(k)) + " shader");
      }
    if (d_.shaderModelMajor * 100 + d_.shaderModelMinor <
        op.minShaderModelMajor * 100u + op.minShaderModelMinor)
      return failCall(index, name,
                      opText(op) + " needs shader model " +
                          versionText(op.minShaderModelMajor, op.minShaderModelMinor) +
                          ", the module is " +
                          versionText(d_.shaderModelMajor, d_.shaderModelMinor));
    if (d_.dxilMajor * 100 + d_.dxilMinor < op.dxilMajor * 100u + op.dxilMinor)
      return failCall(index, name,
                      opText(op) + " needs DXIL " + versionText(op.dxilMajor, op.dxilMinor) +
                          ", the module is " + versionText(d_.dxilMajor, d_.dxilMinor));
    return true;
  }
};

} // namespace

std::optional<Diagnostic> resolveOpCalls(DxilModule &module) { return Resolver(module).run(); }

} // namespace spire::dxil
