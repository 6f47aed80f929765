// Names and small queries of the LLVM module model: see LlvmModule.h and LlvmAttributes.h.
#include "spire/dxil/LlvmModule.h"

#include "spire/dxil/LlvmAttributes.h"

#include <memory>
#include <type_traits>

namespace spire::dxil {

std::string_view opcodeName(Opcode op) {
  static constexpr std::string_view kNames[] = {"ret",
                                                "br",
                                                "switch",
                                                "indirectbr",
                                                "unreachable",
                                                "fneg",
                                                "add",
                                                "fadd",
                                                "sub",
                                                "fsub",
                                                "mul",
                                                "fmul",
                                                "udiv",
                                                "sdiv",
                                                "fdiv",
                                                "urem",
                                                "srem",
                                                "frem",
                                                "shl",
                                                "lshr",
                                                "ashr",
                                                "and",
                                                "or",
                                                "xor",
                                                "alloca",
                                                "load",
                                                "store",
                                                "getelementptr",
                                                "fence",
                                                "cmpxchg",
                                                "atomicrmw",
                                                "trunc",
                                                "zext",
                                                "sext",
                                                "fptoui",
                                                "fptosi",
                                                "uitofp",
                                                "sitofp",
                                                "fptrunc",
                                                "fpext",
                                                "ptrtoint",
                                                "inttoptr",
                                                "bitcast",
                                                "addrspacecast",
                                                "icmp",
                                                "fcmp",
                                                "phi",
                                                "call",
                                                "select",
                                                "va_arg",
                                                "extractelement",
                                                "insertelement",
                                                "shufflevector",
                                                "extractvalue",
                                                "insertvalue",
                                                "freeze"};
  return kNames[size_t(op)];
}

bool isCast(Opcode op) { return op >= Opcode::Trunc && op <= Opcode::AddrSpaceCast; }
bool isBinary(Opcode op) { return op >= Opcode::Add && op <= Opcode::Xor; }
bool isTerminator(Opcode op) { return op <= Opcode::Unreachable; }

std::string_view predicateName(uint8_t p) {
  static constexpr std::string_view kFloat[] = {"false", "oeq", "ogt", "oge", "olt", "ole",
                                                "one",   "ord", "uno", "ueq", "ugt", "uge",
                                                "ult",   "ule", "une", "true"};
  static constexpr std::string_view kInt[] = {"eq",  "ne",  "ugt", "uge", "ult",
                                              "ule", "sgt", "sge", "slt", "sle"};
  if (p < 16)
    return kFloat[p];
  if (p >= 32 && p < 42)
    return kInt[p - 32];
  return "unknown";
}

std::string_view rmwOpName(RmwOp op) {
  static constexpr std::string_view kNames[] = {"xchg", "add", "sub",  "and",  "nand", "or",  "xor",
                                                "max",  "min", "umax", "umin", "fadd", "fsub"};
  return kNames[size_t(op)];
}

namespace {

struct AttrInfo {
  std::string_view name;   ///< in assembly
  std::string_view sortAs; ///< LLVM's internal kind name, which orders a set
  AttrForm form;
};

constexpr AttrInfo kAttrs[kNumAttrKinds] = {
    {"", "", AttrForm::Enum},
    {"align", "Alignment", AttrForm::Int},
    {"alwaysinline", "AlwaysInline", AttrForm::Enum},
    {"byval", "ByVal", AttrForm::Type},
    {"inlinehint", "InlineHint", AttrForm::Enum},
    {"inreg", "InReg", AttrForm::Enum},
    {"minsize", "MinSize", AttrForm::Enum},
    {"naked", "Naked", AttrForm::Enum},
    {"nest", "Nest", AttrForm::Enum},
    {"noalias", "NoAlias", AttrForm::Enum},
    {"nobuiltin", "NoBuiltin", AttrForm::Enum},
    {"nocapture", "NoCapture", AttrForm::Enum},
    {"noduplicate", "NoDuplicate", AttrForm::Enum},
    {"noimplicitfloat", "NoImplicitFloat", AttrForm::Enum},
    {"noinline", "NoInline", AttrForm::Enum},
    {"nonlazybind", "NonLazyBind", AttrForm::Enum},
    {"noredzone", "NoRedZone", AttrForm::Enum},
    {"noreturn", "NoReturn", AttrForm::Enum},
    {"nounwind", "NoUnwind", AttrForm::Enum},
    {"optsize", "OptimizeForSize", AttrForm::Enum},
    {"readnone", "ReadNone", AttrForm::Enum},
    {"readonly", "ReadOnly", AttrForm::Enum},
    {"returned", "Returned", AttrForm::Enum},
    {"returns_twice", "ReturnsTwice", AttrForm::Enum},
    {"signext", "SExt", AttrForm::Enum},
    {"alignstack", "StackAlignment", AttrForm::Int},
    {"ssp", "StackProtect", AttrForm::Enum},
    {"sspreq", "StackProtectReq", AttrForm::Enum},
    {"sspstrong", "StackProtectStrong", AttrForm::Enum},
    {"sret", "StructRet", AttrForm::Type},
    {"sanitize_address", "SanitizeAddress", AttrForm::Enum},
    {"sanitize_thread", "SanitizeThread", AttrForm::Enum},
    {"sanitize_memory", "SanitizeMemory", AttrForm::Enum},
    {"uwtable", "UWTable", AttrForm::Enum},
    {"zeroext", "ZExt", AttrForm::Enum},
    {"builtin", "Builtin", AttrForm::Enum},
    {"cold", "Cold", AttrForm::Enum},
    {"optnone", "OptimizeNone", AttrForm::Enum},
    {"inalloca", "InAlloca", AttrForm::Type},
    {"nonnull", "NonNull", AttrForm::Enum},
    {"jumptable", "JumpTable", AttrForm::Enum},
    {"dereferenceable", "Dereferenceable", AttrForm::Int},
    {"dereferenceable_or_null", "DereferenceableOrNull", AttrForm::Int},
    {"convergent", "Convergent", AttrForm::Enum},
    {"safestack", "SafeStack", AttrForm::Enum},
    {"argmemonly", "ArgMemOnly", AttrForm::Enum},
    {"swiftself", "SwiftSelf", AttrForm::Enum},
    {"swifterror", "SwiftError", AttrForm::Enum},
    {"norecurse", "NoRecurse", AttrForm::Enum},
    {"inaccessiblememonly", "InaccessibleMemOnly", AttrForm::Enum},
    {"inaccessiblemem_or_argmemonly", "InaccessibleMemOrArgMemOnly", AttrForm::Enum},
    {"allocsize", "AllocSize", AttrForm::Int},
    {"writeonly", "WriteOnly", AttrForm::Enum},
    {"speculatable", "Speculatable", AttrForm::Enum},
    {"strictfp", "StrictFP", AttrForm::Enum},
    {"sanitize_hwaddress", "SanitizeHWAddress", AttrForm::Enum},
    {"nocf_check", "NoCfCheck", AttrForm::Enum},
    {"optforfuzzing", "OptForFuzzing", AttrForm::Enum},
    {"shadowcallstack", "ShadowCallStack", AttrForm::Enum},
    {"speculative_load_hardening", "SpeculativeLoadHardening", AttrForm::Enum},
    {"immarg", "ImmArg", AttrForm::Enum},
    {"willreturn", "WillReturn", AttrForm::Enum},
    {"nofree", "NoFree", AttrForm::Enum},
    {"nosync", "NoSync", AttrForm::Enum},
    {"sanitize_memtag", "SanitizeMemTag", AttrForm::Enum},
    {"preallocated", "Preallocated", AttrForm::Type},
    {"nomerge", "NoMerge", AttrForm::Enum},
    {"null_pointer_is_valid", "NullPointerIsValid", AttrForm::Enum},
    {"noundef", "NoUndef", AttrForm::Enum},
    {"byref", "ByRef", AttrForm::Type},
    {"mustprogress", "MustProgress", AttrForm::Enum},
    {"nocallback", "NoCallback", AttrForm::Enum},
    {"hot", "Hot", AttrForm::Enum},
    {"noprofile", "NoProfile", AttrForm::Enum},
    {"vscale_range", "VScaleRange", AttrForm::Int},
    {"swiftasync", "SwiftAsync", AttrForm::Enum},
    {"nosanitize_coverage", "NoSanitizeCoverage", AttrForm::Enum},
    {"elementtype", "ElementType", AttrForm::Type},
    {"disable_sanitizer_instrumentation", "DisableSanitizerInstrumentation", AttrForm::Enum},
};

} // namespace

std::string_view attrKindName(AttrKind kind) {
  return uint32_t(kind) < kNumAttrKinds ? kAttrs[uint32_t(kind)].name : std::string_view();
}

AttrForm attrKindForm(AttrKind kind) {
  return uint32_t(kind) < kNumAttrKinds ? kAttrs[uint32_t(kind)].form : AttrForm::Enum;
}

bool attributeLess(const LlvmModule &m, const Attribute &a, const Attribute &b) {
  bool as = a.form == Attribute::Form::String, bs = b.form == Attribute::Form::String;
  if (as != bs)
    return bs;
  if (!as) {
    AttrForm fa = attrKindForm(a.kind), fb = attrKindForm(b.kind);
    if (fa != fb)
      return fa < fb;
    if (a.kind != b.kind)
      return kAttrs[uint32_t(a.kind)].sortAs < kAttrs[uint32_t(b.kind)].sortAs;
    return a.intValue < b.intValue;
  }
  std::string_view ka = m.str(a.key), kb = m.str(b.key);
  if (ka != kb)
    return ka < kb;
  return m.str(a.value) < m.str(b.value);
}

bool attributeEqual(const LlvmModule &m, const Attribute &a, const Attribute &b) {
  if (a.form != b.form)
    return false;
  if (a.form == Attribute::Form::String)
    return m.str(a.key) == m.str(b.key) && m.str(a.value) == m.str(b.value);
  return a.kind == b.kind && a.intValue == b.intValue && a.type == b.type;
}

bool attributeSameKind(const LlvmModule &m, const Attribute &a, const Attribute &b) {
  bool as = a.form == Attribute::Form::String, bs = b.form == Attribute::Form::String;
  if (as != bs)
    return false;
  return as ? m.str(a.key) == m.str(b.key) : a.kind == b.kind;
}

// A module whose tables live in its own arena leaves them to the arena, which frees its blocks at
// once: each table is made empty in place (its elements need no destructor), so that its own
// destructor gives nothing back (a virtual deallocate that does nothing, about 15 instructions a
// table, 27 tables a module).
LlvmModule::~LlvmModule() {
  if (!arena.owned())
    return;
  std::pmr::memory_resource *r = arena.resource();
  auto forget = [r]<class Table>(Table &table) {
    static_assert(std::is_trivially_destructible_v<typename Table::value_type>);
    std::construct_at(&table, r);
  };
  forget(triple), forget(dataLayout), forget(sourceFilename), forget(moduleAsm);
  forget(identification), forget(strings);
  forget(types), forget(typeElements), forget(values), forget(globals), forget(functions);
  forget(aliases), forget(constants), forget(blocks), forget(instructions), forget(operands);
  forget(words), forget(sections), forget(gcNames);
  forget(metadata), forget(metadataOperands), forget(namedMetadata), forget(metadataKinds);
  forget(attachments), forget(debugLocs);
  forget(attributes), forget(attributeSets), forget(attributeLists), forget(attributeListEntries);
}

LlvmModule &LlvmModule::operator=(const LlvmModule &other) {
  if (this != &other) {
    LlvmModule copy(other);
    *this = std::move(copy);
  }
  return *this;
}

// The tables and the arena they live in change owner together: memberwise assignment would free
// this module's arena before its tables, or copy the other's tables into it.
LlvmModule &LlvmModule::operator=(LlvmModule &&other) noexcept {
  if (this != &other) {
    std::destroy_at(this);
    std::construct_at(this, std::move(other));
  }
  return *this;
}

bool LlvmModule::constantInt(ValueId v, int64_t &out) const {
  const Constant *c = constant(v);
  if (!c)
    return false;
  const Type &t = types[c->type];
  if (t.kind != TypeKind::Integer || t.bits > 64)
    return false;
  if (c->kind == ConstantKind::Null) {
    out = 0;
    return true;
  }
  if (c->kind != ConstantKind::Integer)
    return false;
  uint64_t bits = c->bits;
  if (t.bits < 64 && (bits >> (t.bits - 1)) & 1)
    bits |= ~uint64_t(0) << t.bits;
  out = int64_t(bits);
  return true;
}

const Function *LlvmModule::calledFunction(const Instruction &call) const {
  if (call.opcode != Opcode::Call || call.numOperands == 0)
    return nullptr;
  const Value &callee = values[operands[call.firstOperand]];
  return callee.kind == ValueKind::Function ? &functions[callee.index] : nullptr;
}

uint32_t LlvmModule::attributeSet(uint32_t list, uint32_t position) const {
  if (list == kNoId)
    return kNoId;
  const AttributeList &l = attributeLists[list];
  for (uint32_t i = 0; i < l.count; ++i)
    if (attributeListEntries[l.first + i].position == position)
      return attributeListEntries[l.first + i].set;
  return kNoId;
}

std::string_view LlvmModule::metadataKindName(uint32_t kind) const {
  for (const MetadataKindName &k : metadataKinds)
    if (k.id == kind)
      return str(k.name);
  return {};
}

} // namespace spire::dxil
