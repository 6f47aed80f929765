// The custom syntax of the memory ops with sugar no format can say: loads and stores name the
// pointer's storage class and the pointee instead of the pointer type, with their memory access
// in brackets (`["Volatile|Aligned", 4]`); variables show their storage class through the
// pointer type and their decorations as bind(set, binding) and built_in("X"); a memory copy
// names both storage classes and both memory accesses (spaced as mlir-translate-16 spaces it
// under --mlir16).
#include "OpSyntax.h"
#include "TextParser.h"
#include "TextPrinter.h"

#include <string>

namespace spire::dialect::syntax {

using grammar::OperandKind;

namespace {

/// ` ["Volatile|Aligned", 4]` of a load or store (a copy's target: `memory_access` and
/// `alignment`; its source: `source_memory_access` and `source_alignment`); false when the
/// attributes cannot say it.
bool printMemoryAccess(const Operation &op, TextPrinter &p,
                       std::string_view access = "memory_access",
                       std::string_view alignment = "alignment") {
  Attribute a = op.attr(access);
  if (!a)
    return !op.attr(alignment);
  if (!a.is(AttrKind::Enum) || a.enumKind() != OperandKind::MemoryAccess)
    return false;
  std::string &out = p.out();
  out += " [\"";
  p.enumerant(OperandKind::MemoryAccess, a.enumValue());
  out += '"';
  Attribute al = op.attr(alignment);
  if (a.enumValue() & static_cast<uint32_t>(grammar::MemoryAccess::Aligned)) {
    if (!isInt(al, 32))
      return false;
    out += ", " + std::to_string(al.intValue());
  } else if (al) {
    return false;
  }
  out += ']';
  return true;
}

bool parseMemoryAccess(TextParser &p, OperationState &st, std::string_view access = "memory_access",
                       std::string_view alignment = "alignment") {
  if (!p.accept('['))
    return true;
  Attribute a = p.enumAttr(OperandKind::MemoryAccess, false, st.info->name, access);
  if (!a)
    return false;
  p.addAttr(st, access, a);
  // As MLIR reads it: an alignment exactly after "Aligned".
  if (a.enumValue() & static_cast<uint32_t>(grammar::MemoryAccess::Aligned)) {
    if (!p.expect(','))
      return false;
    std::optional<int64_t> n = p.integer();
    if (!n)
      return false;
    p.addAttr(st, alignment, attr::integer(p.context(), p.context().integer(32), *n));
  }
  return p.expect(']');
}

/// `"StorageClass"` of a pointer type.
void storageClass(TextPrinter &p, Type pointer) {
  p.out() += '"';
  p.enumerant(OperandKind::StorageClass, pointer.storageClass());
  p.out() += '"';
}

/// The op of a read through a pointer (`us[0]`, typed `pointerType` when known) giving a `t`,
/// or of a write through it of `us[1]`, a `t`.
Operation *finishReadWrite(TextParser &p, OperationState &st, const std::vector<Use> &us,
                           Type pointerType, Type t, bool read) {
  Value pointer = p.resolve(us[0], pointerType);
  if (!pointer)
    return nullptr;
  st.operands.push_back(pointer);
  if (read) {
    st.resultTypes.push_back(t);
  } else {
    Value v = p.resolve(us[1], t);
    if (!v)
      return nullptr;
    st.operands.push_back(v);
  }
  return p.finish(st);
}

} // namespace

/// `spirv.Load "Function" %p ["Volatile"] : f32`, `spirv.Store "Function" %p, %v : f32`.
bool printLoadStore(const Operation &op, TextPrinter &p, unsigned) {
  bool load = op.info().key == grammar::Op::Load;
  uint32_t n = op.numOperands();
  Type pointer = n ? op.operand(0).type() : Type();
  // The custom form names the pointee; the pointer it infers has no ArrayStride.
  if (!plain(op) || n != (load ? 1u : 2u) || op.numResults() != (load ? 1u : 0u) ||
      !pointer.is(TypeKind::Pointer) ||
      pointer.elementType() != (load ? op.result(0).type() : op.operand(1).type()) ||
      pointer.stride() != 0)
    return false;
  p.out() += ' ';
  storageClass(p, pointer);
  p.out() += ' ';
  p.operands(op, 0, n);
  if (!printMemoryAccess(op, p))
    return false;
  p.attrDict(op, {"memory_access", "alignment"});
  p.out() += " : ";
  p.type(pointer.elementType());
  return true;
}

Operation *parseLoadStore(const OpInfo &info, TextParser &p, size_t at) {
  OperationState st(&info);
  bool load = info.key == grammar::Op::Load;
  std::vector<Use> us;
  Type t;
  // MLIR's custom parsers' messages: a storage class attribute, then the operands.
  if (p.peek() != '"') {
    p.fail("expected attribute value");
    return nullptr;
  }
  Attribute sc = p.enumAttr(OperandKind::StorageClass, false);
  if (!sc)
    return nullptr;
  if (p.peek() != '%') {
    p.fail(load ? "expected SSA operand" : "expected operand");
    return nullptr;
  }
  if (!p.uses(us))
    return nullptr;
  if (!load && us.size() != 2) {
    p.failAt(at, "custom op '" + p.opName(info.name) + "' expected 2 operands");
    return nullptr;
  }
  if (!p.count(us, load ? 1 : 2, load ? 1 : 2, at) || !parseMemoryAccess(p, st) ||
      !p.optionalAttrDict(st) || !p.expect(':') || !(t = p.type()))
    return nullptr;
  return finishReadWrite(p, st, us, p.context().pointer(t, sc.enumValue()), t, load);
}

/// `%ptr : T` (a block read) and `%ptr, %value : T` (a block write), as their format prints them,
/// and the older form that names the pointer's storage class first (`"StorageBuffer" %ptr : T`),
/// where the pointer points to T's component type in that storage class.
Operation *parseBlockReadWrite(const OpInfo &info, TextParser &p, size_t at) {
  OperationState st(&info);
  bool read = info.key == grammar::Op::SubgroupBlockReadINTEL;
  Attribute sc;
  if (p.peek() == '"' && !(sc = p.enumAttr(OperandKind::StorageClass, false)))
    return nullptr;
  std::vector<Use> us;
  Type t;
  size_t n = read ? 1 : 2;
  if (!p.uses(us) || !p.count(us, n, n, at) || !p.expect(':') || !(t = p.type()))
    return nullptr;
  Type hint;
  if (sc)
    hint = p.context().pointer(t.is(TypeKind::Vector) ? t.elementType() : t, sc.enumValue());
  return finishReadWrite(p, st, us, hint, t, read);
}

void printVariableDecorations(const Operation &op, TextPrinter &p,
                              std::vector<std::string_view> &elided) {
  std::string &out = p.out();
  Attribute set = op.attr("descriptor_set"), binding = op.attr("binding");
  if (isInt(set, 32) && isInt(binding, 32)) {
    out +=
        " bind(" + std::to_string(set.intValue()) + ", " + std::to_string(binding.intValue()) + ")";
    elided.push_back("descriptor_set");
    elided.push_back("binding");
  }
  Attribute builtIn = op.attr("built_in");
  if (builtIn.is(AttrKind::String)) {
    out += " built_in(\"";
    out += builtIn.str();
    out += "\")";
    elided.push_back("built_in");
  }
}

bool parseVariableDecorations(TextParser &p, OperationState &st) {
  Context &ctx = p.context();
  if (p.acceptKeyword("bind")) {
    if (!p.expect('('))
      return false;
    std::optional<int64_t> set = p.integer();
    if (!set || !p.expect(','))
      return false;
    std::optional<int64_t> binding = p.integer();
    if (!binding || !p.expect(')'))
      return false;
    p.addAttr(st, "descriptor_set", attr::integer(ctx, ctx.integer(32), *set));
    p.addAttr(st, "binding", attr::integer(ctx, ctx.integer(32), *binding));
  }
  if (p.acceptKeyword("built_in")) {
    std::string s;
    if (!p.expect('(') || !p.string(s) || !p.expect(')'))
      return false;
    p.addAttr(st, "built_in", attr::string(ctx, s));
  }
  return true;
}

/// `spirv.Variable init(%x) bind(0, 1) : !spirv.ptr<f32, Function>`: the storage class is the
/// pointer type's.
bool printVariable(const Operation &op, TextPrinter &p, unsigned) {
  Attribute sc = op.attr("storage_class");
  Type r = op.numResults() == 1 ? op.result(0).type() : Type();
  if (!plain(op) || op.numOperands() > 1 || !r.is(TypeKind::Pointer) || !sc.is(AttrKind::Enum) ||
      sc.enumKind() != OperandKind::StorageClass || sc.enumValue() != r.storageClass())
    return false;
  if (op.numOperands()) {
    p.out() += " init(";
    p.use(op.operand(0));
    p.out() += ')';
  }
  std::vector<std::string_view> elided = {"storage_class"};
  printVariableDecorations(op, p, elided);
  p.attrDict(op, elided);
  p.out() += " : ";
  p.type(r);
  return true;
}

Operation *parseVariable(const OpInfo &info, TextParser &p, size_t) {
  OperationState st(&info);
  Use init;
  bool hasInit = p.acceptKeyword("init");
  if (hasInit && (!p.expect('(') || !p.use(init) || !p.expect(')')))
    return nullptr;
  if (!parseVariableDecorations(p, st) || !p.optionalAttrDict(st) || !p.expect(':'))
    return nullptr;
  size_t at = p.offset();
  Type t = p.type();
  if (!t)
    return nullptr;
  if (!t.is(TypeKind::Pointer)) {
    p.failAt(at, "expected spirv.ptr type"); // as MLIR words it
    return nullptr;
  }
  if (hasInit) {
    Value v = p.resolve(init, Type());
    if (!v)
      return nullptr;
    st.operands.push_back(v);
  }
  p.addAttr(st, "storage_class",
            attr::enumerant(p.context(), OperandKind::StorageClass, t.storageClass()));
  st.resultTypes.push_back(t);
  return p.finish(st);
}

/// `spirv.CopyMemory  "Function" %a,  "Function" %b,  : f32`, spaced as MLIR 16 prints it.
/// `spirv.CopyMemory "Function" %a, "Input" %b ["Aligned", 4], ["Volatile"] : f32` as today's
/// MLIR prints it (the target's memory access, then the source's); MLIR 16 spaces it
/// `spirv.CopyMemory  "Function" %a,  "Function" %b,  : f32` and has no memory access in it.
bool printCopyMemory(const Operation &op, TextPrinter &p, unsigned) {
  if (!plain(op) || op.numOperands() != 2 || op.numResults())
    return false;
  Type target = op.operand(0).type(), source = op.operand(1).type();
  if (!target.is(TypeKind::Pointer) || !source.is(TypeKind::Pointer) ||
      source.elementType() != target.elementType() || target.stride() != 0 || source.stride() != 0)
    return false;
  const bool mlir16 = p.mlir16();
  if (mlir16 ? !op.attributes().empty()
             : !op.attr("memory_access") &&
                   (op.attr("source_memory_access") || op.attr("source_alignment")))
    return false;
  const std::string_view gap = mlir16 ? "  " : " ";
  std::string &out = p.out();
  out += gap;
  storageClass(p, target);
  out += ' ';
  p.use(op.operand(0));
  out += ',';
  out += gap;
  storageClass(p, source);
  out += ' ';
  p.use(op.operand(1));
  if (mlir16) {
    out += ",  : ";
    p.type(target.elementType());
    return true;
  }
  if (!printMemoryAccess(op, p))
    return false;
  if (op.attr("source_memory_access")) {
    out += ',';
    if (!printMemoryAccess(op, p, "source_memory_access", "source_alignment"))
      return false;
  } else if (op.attr("source_alignment")) {
    return false;
  }
  p.attrDict(op, {"memory_access", "alignment", "source_memory_access", "source_alignment"});
  out += " : ";
  p.type(target.elementType());
  return true;
}

Operation *parseCopyMemory(const OpInfo &info, TextParser &p, size_t) {
  OperationState st(&info);
  Use target, source;
  Type t;
  Attribute ts = p.enumAttr(OperandKind::StorageClass, false);
  if (!ts || !p.use(target) || !p.expect(','))
    return nullptr;
  Attribute ss = p.enumAttr(OperandKind::StorageClass, false);
  if (!ss || !p.use(source) || !parseMemoryAccess(p, st))
    return nullptr;
  // The source's memory access after a comma; MLIR 16's form ends with a comma of its own.
  if (p.accept(',') && p.peek() == '[' &&
      !parseMemoryAccess(p, st, "source_memory_access", "source_alignment"))
    return nullptr;
  if (!p.optionalAttrDict(st) || !p.expect(':') || !(t = p.type()))
    return nullptr;
  Context &ctx = p.context();
  Value a = p.resolve(target, ctx.pointer(t, ts.enumValue()));
  Value b = a ? p.resolve(source, ctx.pointer(t, ss.enumValue())) : Value();
  if (!b)
    return nullptr;
  st.operands = {a, b};
  return p.finish(st);
}

} // namespace spire::dialect::syntax
