#!/usr/bin/env python3
"""Generates the SPIR-V dialect's op table and its typed op classes from the grammar.

Reads the same grammar directory as src/grammar/generate_tables.py (whose loading helpers it
uses, so that instructions merge and order the same way) and writes:
  OpTable.cpp       the ops the registry (Ops.cpp) is made of: every core instruction and every
                    GLSL.std.450, OpenCL.std and TOSA.001000.1 instruction, its op name, how each
                    grammar operand appears in the op (an SSA operand, an attribute and its name,
                    a constant held as an attribute, ...), its traits
  GeneratedOps.h    one class per op that builds IR (include/spire/dialect/OpView.h): named
                    operand and attribute accessors, operand index constants, a builder
  GeneratedOps.cpp  the builders

What the grammar does not say is the short overlay below: MLIR's spellings of attribute names,
which instructions end a block, which ones the dialect reshapes (successors, callee symbols) or
replaces by ops of its own (module-level declarations), which ones are pure.
"""

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "grammar"))
from generate_tables import (camel, cpp_ident, cstr, load_core, merge_by_value,  # noqa: E402
                             write_lines)

# A vendor suffix moves to the front of the op name: OpSubgroupBallotKHR is spirv.KHR.SubgroupBallot.
VENDORS = ["KHR", "EXT", "INTEL", "ALTERA", "NV", "NVX", "AMD", "AMDX", "ARM", "QCOM", "GOOGLE",
           "HUAWEI", "ANDROID", "VALVE"]

# Instructions that end a block.
TERMINATORS = {"OpReturn", "OpReturnValue", "OpUnreachable", "OpKill", "OpTerminateInvocation",
               "OpBranch", "OpBranchConditional", "OpSwitch", "OpIgnoreIntersectionKHR",
               "OpTerminateRayKHR", "OpEmitMeshTasksEXT"}

# Ops whose operands the dialect reshapes: blocks as successors, the callee as a symbol. Their
# classes are written by hand (StructuralOps.h).
RESHAPED = {"OpBranch", "OpBranchConditional", "OpSwitch", "OpFunctionCall", "OpSelectionMerge",
            "OpLoopMerge"}

# Instructions that never become ops of their own (the dialect holds them as types, attributes,
# symbols, regions or block arguments), by class and by name: no op class is generated for them.
NOT_OPS_CLASSES = {"Type-Declaration", "Annotation", "Debug", "Mode-Setting", "Extension",
                   "Function", "@exclude", "Reserved"}
NOT_OPS = {"OpPhi", "OpLabel", "OpConstant", "OpConstantTrue", "OpConstantFalse",
           "OpConstantComposite", "OpSpecConstant", "OpSpecConstantTrue", "OpSpecConstantFalse",
           "OpSpecConstantComposite", "OpSpecConstantOp", "OpConstantCompositeReplicateEXT",
           "OpSpecConstantCompositeReplicateEXT", "OpLine", "OpNoLine", "OpNop"}

# Pure ops (no side effects, the result a function of the operands): those of these classes
# with a result, and these.
PURE_CLASSES = {"Composite", "Conversion", "Arithmetic", "Relational_and_Logical", "Bit"}
PURE = {"OpUndef", "OpConstantNull", "OpAccessChain", "OpInBoundsAccessChain", "OpPtrAccessChain",
        "OpInBoundsPtrAccessChain", "OpCopyObject"}
# GLSL.std.450 instructions are pure except these, which write through a pointer.
GLSL_IMPURE = {"Modf", "Frexp"}

# Extended instruction sets with ops, and the prefix of their names.
EXT_PREFIXES = {"glsl.std.450": ("spirv.GL.", "Glsl"), "opencl.std.100": ("spirv.CL.", "OpenCl"),
                "opencl.std": ("spirv.CL.", "OpenCl"), "tosa.001000.1": ("spirv.Tosa.", "Tosa")}

# TOSA.001000.1: what MLIR's ops add to the grammar (whose operands are all ids). An op's name
# is its instruction's in CamelCase ("AVG_POOL2D" is AvgPool2D), but for these; the operands
# that MLIR holds as attributes are ids of constants, by attribute kind (Ops.h: ConstAttr).
TOSA_NAMES = {"ARGMAX": "ArgMax", "MATMUL": "MatMul", "INTDIV": "IntDiv", "FFT2D": "FFT2D",
              "RFFT2D": "RFFT2D"}
_CONV = {"pad": "I32Tensor", "stride": "I32Tensor", "dilation": "I32Tensor",
         "acc_type": "AccType", "local_bound": "Bool"}
TOSA_ATTRS = {
    "ARGMAX": {"axis": "I32", "nan_mode": "NanMode"},
    "AVG_POOL2D": {"kernel": "I32Tensor", "stride": "I32Tensor", "pad": "I32Tensor",
                   "acc_type": "AccType"},
    "CONV2D": _CONV, "CONV3D": _CONV, "DEPTHWISE_CONV2D": _CONV,
    "FFT2D": {"inverse": "Bool", "local_bound": "Bool"},
    "MAX_POOL2D": {"kernel": "I32Tensor", "stride": "I32Tensor", "pad": "I32Tensor",
                   "nan_mode": "NanMode"},
    "RFFT2D": {"local_bound": "Bool"},
    "TRANSPOSE_CONV2D": {"out_pad": "I32Tensor", "stride": "I32Tensor", "acc_type": "AccType",
                         "local_bound": "Bool"},
    "CLAMP": {"min_val": "Scalar", "max_val": "Scalar", "nan_mode": "NanMode"},
    "ARITHMETIC_RIGHT_SHIFT": {"round": "Bool"},
    "MAXIMUM": {"nan_mode": "NanMode"}, "MINIMUM": {"nan_mode": "NanMode"},
    "REDUCE_ALL": {"axis": "I32"}, "REDUCE_ANY": {"axis": "I32"},
    "REDUCE_MAX": {"axis": "I32", "nan_mode": "NanMode"},
    "REDUCE_MIN": {"axis": "I32", "nan_mode": "NanMode"},
    "REDUCE_PRODUCT": {"axis": "I32"}, "REDUCE_SUM": {"axis": "I32"},
    "CONCAT": {"axis": "I32"}, "REVERSE": {"axis": "I32"},
    "TRANSPOSE": {"perms": "I32Tensor"},
    "RESIZE": {"mode": "ResizeMode"},
    "RESCALE": {"scale32": "Bool", "rounding_mode": "RoundingMode", "per_channel": "Bool",
                "input_unsigned": "Bool", "output_unsigned": "Bool"},
}


def tosa_name(opname):
    """AVG_POOL2D -> AvgPool2D: each word capitalized, a D after a digit kept upper case."""
    if opname in TOSA_NAMES:
        return TOSA_NAMES[opname]
    out = ""
    for word in opname.split("_"):
        w = word[:1] + word[1:].lower()
        out += w[:-1] + "D" if len(w) > 1 and w[-1] == "d" and w[-2].isdigit() else w
    return out

# Names the views' members may not take (OpView's own).
RESERVED_MEMBERS = {"operation", "result", "create", "valueAt", "optionalValueAt", "valuesFrom",
                    "valueAfterEnums", "attrNamed", "builder", "resultType", "args"}


def op_name(opname):
    """OpSubgroupBallotKHR -> spirv.KHR.SubgroupBallot."""
    base = opname[2:]
    if base and base[-1].isupper():
        for v in VENDORS:
            if len(base) > len(v) and base.endswith(v) and base[-len(v) - 1].isalnum():
                return "spirv.%s.%s" % (v, base[:-len(v)])
    return "spirv." + base


def snake_case(name):
    """The dialect's snakeCase (AsmText.cpp): RelaxedPrecision -> relaxed_precision."""
    out = ""
    for i, c in enumerate(name):
        if "A" <= c <= "Z":
            if i > 0 and out and out[-1] != "_":
                prev = name[i - 1]
                next_lower = i + 1 < len(name) and "a" <= name[i + 1] <= "z"
                if prev.islower() or prev.isdigit() or (prev.isupper() and next_lower):
                    out += "_"
            out += c.lower()
        elif c.islower() or c.isdigit():
            out += c
        elif out and out[-1] != "_":
            out += "_"
    return out.rstrip("_")


def clean_name(text):
    """An operand's name as the grammar tables keep it."""
    return " ".join(text.replace("+", " ").split()).strip("'")


def lower_camel(text):
    c = camel(text)
    return c[:1].lower() + c[1:] if c else c


class Kinds:
    def __init__(self, core, ext_sets):
        self.category = {}
        self.ident = {}
        for k in core["operand_kinds"]:
            self.ident[("None", k["kind"])] = k["kind"]
            self.category[k["kind"]] = k["category"]
        self.enum_kinds = {k["kind"] for k in core["operand_kinds"]
                           if k["category"] in ("BitEnum", "ValueEnum") and k.get("enumerants")}
        for s in ext_sets:
            for k in s["grammar"].get("operand_kinds", []):
                ident = s["ident"] + "_" + k["kind"]
                self.ident[(s["ident"], k["kind"])] = ident
                self.category[ident] = k["category"]

    def resolve(self, name, owner):
        return self.ident.get((owner, name)) or self.ident[("None", name)]


class Mapper:
    """How each grammar operand of an instruction appears in its op (Ops.h: OperandMapping)."""

    def __init__(self, kinds):
        self.kinds = kinds

    def attr_name(self, op, kind, name, seen_memory_access):
        n = snake_case(name)
        if kind == "IdScope":
            return "scope" if n == "scope" else n + "_scope"
        if kind == "IdMemorySemantics":
            if op in ("spirv.ControlBarrier", "spirv.MemoryBarrier"):
                return "memory_semantics"
            return n if n == "semantics" else n + "_semantics"
        if kind == "ImageOperands":
            return "imageoperands"  # MLIR's spelling (spirv.ImageDrefGather)
        if self.kinds.category[kind] in ("BitEnum", "ValueEnum"):
            if op in ("spirv.CopyMemory", "spirv.CopyMemorySized") and kind == "MemoryAccess":
                return "source_memory_access" if seen_memory_access else "memory_access"
            if kind == "PackedVectorFormat":
                return "format"  # MLIR's name on the integer dot product ops
            return snake_case(kind)
        if n == "indexes":
            return "indices"
        return n or snake_case(kind)

    def cooperative_matrix(self, op, kind, name):
        """MLIR's KHR cooperative matrix ops: the layout id an enum attribute, the memory and
        matrix operands named its way; the Length ops take their matrix type as a type attribute."""
        if op in ("spirv.KHR.CooperativeMatrixLength", "spirv.NV.CooperativeMatrixLength") and \
                name == "Type":
            return ("TypeId", "cooperative_matrix_type", None)
        if op not in ("spirv.KHR.CooperativeMatrixLoad", "spirv.KHR.CooperativeMatrixStore",
                      "spirv.KHR.CooperativeMatrixMulAdd"):
            return None
        if name == "MemoryLayout" and "CooperativeMatrixLayout" in self.kinds.category:
            return ("IdEnum", "matrix_layout", "CooperativeMatrixLayout")
        if kind == "MemoryAccess":
            return ("Attribute", "memory_operand", None)
        if kind == "CooperativeMatrixOperands":
            return ("Attribute", "matrix_operands", None)
        return None

    def joint_matrix(self, op, name):
        """MLIR's INTEL joint matrix ops: the layout id an enum attribute `layout`; the length op
        takes its matrix type as a type attribute."""
        if op == "spirv.INTEL.JointMatrixWorkItemLength" and name == "Type":
            return ("TypeId", "joint_matrix_type", None)
        if name == "Layout" and "JointMatrixLayoutINTEL" in self.kinds.category:
            return ("IdEnum", "layout", "JointMatrixLayoutINTEL")
        return None

    def map(self, op, operands, owner, constants=None):
        out = []
        seen_memory_access = False
        for o in operands:
            kind = self.kinds.resolve(o["kind"], owner)
            if kind in ("IdResultType", "IdResult"):
                continue
            q = {None: "One", "?": "Optional", "*": "Variadic"}[o.get("quantifier")]
            name = clean_name(o.get("name", ""))
            cat = self.kinds.category[kind]
            m = {"kind": "Other", "operand_kind": kind, "quantifier": q, "name": "",
                 "attr_kind": None, "grammar_name": name, "const_attr": "None"}
            special = self.cooperative_matrix(op, kind, name) if "CooperativeMatrix" in op else \
                self.joint_matrix(op, name) if op.startswith("spirv.INTEL.JointMatrix") else None
            if constants and name in constants:
                m["kind"] = "Constant"
                m["name"] = name
                m["const_attr"] = constants[name]
            elif kind in ("IdScope", "IdMemorySemantics"):
                m["kind"] = "IdEnum"
                m["attr_kind"] = "Scope" if kind == "IdScope" else "MemorySemantics"
                m["name"] = self.attr_name(op, kind, name, seen_memory_access)
            elif special:
                m["kind"], m["name"], m["attr_kind"] = special
            elif cat == "Id":
                m["kind"] = "Value"
                m["name"] = name
            elif op == "spirv.GenericCastToPtrExplicit" and kind == "StorageClass":
                # Always the result pointer's storage class; MLIR's op has no attribute for it.
                m["kind"] = "ResultStorage"
            elif cat in ("Literal", "BitEnum", "ValueEnum"):
                m["kind"] = "Attribute"
                m["name"] = self.attr_name(op, kind, name, seen_memory_access)
                if kind == "MemoryAccess":
                    seen_memory_access = True
            out.append(m)
        return out


def load(grammar_dir):
    core = load_core(grammar_dir)
    ext_sets = []
    for n in sorted(os.listdir(grammar_dir)):
        if n.startswith("extinst.") and n.endswith(".grammar.json"):
            with open(os.path.join(grammar_dir, n)) as f:
                key = n[len("extinst."):-len(".grammar.json")]
                ext_sets.append({"key": key, "ident": camel(key), "grammar": json.load(f)})
    return core, ext_sets


def collect_ops(core, ext_sets):
    """The ops in registry order: core instructions by opcode, then each set's instructions."""
    kinds = Kinds(core, ext_sets)
    mapper = Mapper(kinds)
    ops = []
    taken = set()
    for ins in merge_by_value(core["instructions"], "opcode", "opname", 0x10000):
        name = op_name(ins["name"])
        if name in taken:
            continue  # another instruction's op has the name
        taken.add(name)
        e = ins["entry"]
        operands = e.get("operands", [])
        cls = e.get("class", "")
        all_names = [ins["name"]] + ins["aliases"]
        flags = []
        if ins["name"] in TERMINATORS:
            flags.append("kTerminator")
        if ins["name"] in RESHAPED:
            flags.append("kStructural")
        has_result = any(o["kind"] == "IdResult" for o in operands)
        if ins["name"] in PURE or (cls in PURE_CLASSES and has_result):
            flags.append("kPure")
        ops.append({
            "name": name, "key": "OpKey(static_cast<grammar::Op>(%d))" % ins["value"],
            "space": "Core", "number": ins["value"], "opname": ins["name"],
            "flags": flags, "mappings": mapper.map(name, operands, "None"),
            "has_type": any(o["kind"] == "IdResultType" for o in operands),
            "has_result": has_result,
            "aliases": [op_name(a) for a in ins["aliases"]],
            "view": not (set(all_names) & (NOT_OPS | RESHAPED)) and cls not in NOT_OPS_CLASSES,
            "doc": ins["name"]})
    for s in ext_sets:
        if s["key"] not in EXT_PREFIXES:
            continue
        prefix, space = EXT_PREFIXES[s["key"]]
        tosa = space == "Tosa"
        for ins in merge_by_value(s["grammar"]["instructions"], "opcode", "opname", 0x10000):
            # TOSA's ops have no effects but their results (MLIR's Pure or NoMemoryEffect).
            pure = tosa or (s["key"] == "glsl.std.450" and ins["name"] not in GLSL_IMPURE)
            name = prefix + (tosa_name(ins["name"]) if tosa else ins["name"])
            ops.append({
                "name": name,
                "key": "OpKey(OpSpace::%s, %d)" % (space, ins["value"]),
                "space": space, "number": ins["value"], "set": s["ident"], "opname": ins["name"],
                "flags": ["kPure"] if pure else [], "has_type": True, "has_result": True,
                "mappings": mapper.map(name, ins["entry"].get("operands", []), s["ident"],
                                       TOSA_ATTRS.get(ins["name"], {}) if tosa else None),
                # No builder classes for TOSA's ops: their attributes are not literals.
                "aliases": [], "view": not tosa, "doc": "%s %s" % (s["key"], ins["name"])})
    for op in ops:
        # No class for what a builder cannot take: composite operands, lists of enumerants.
        op["view"] = op["view"] and all(
            m["kind"] != "Other" and not (m["kind"] == "Attribute" and m["quantifier"] ==
                                          "Variadic" and kinds.category[m["operand_kind"]] in
                                          ("BitEnum", "ValueEnum"))
            for m in op["mappings"])
    return ops, kinds


def class_name(op_name_text):
    """spirv.KHR.SubgroupBallot -> KHRSubgroupBallotOp, spirv.CL.s_abs -> CLSAbsOp."""
    parts = op_name_text.split(".")[1:]
    return "".join(p[:1].upper() + p[1:] if "_" not in p else camel(p) for p in parts) + "Op"


def write_table(ops):
    lines = ["// Generated by src/dialect/generate_ops.py. Do not edit.",
             "// The ops derived from the grammar, for the registry (Ops.cpp).",
             '#include "OpTable.h"', "", "namespace spire::dialect::detail {", "",
             "using K = OperandMapping::Kind;", "using grammar::OperandKind;",
             "using grammar::Quantifier;", ""]
    mappings = []
    rows = []
    aliases = []
    for i, op in enumerate(ops):
        first = len(mappings)
        for m in op["mappings"]:
            attr_kind = "OperandKind::%s" % m["attr_kind"] if m["attr_kind"] else "OperandKind{}"
            mappings.append("  {K::%s, OperandKind::%s, Quantifier::%s, %s, %s, ConstAttr::%s}," % (
                m["kind"], m["operand_kind"], m["quantifier"],
                cstr(m["name"]), attr_kind, m["const_attr"]))
        flags = " | ".join("OpInfo::%s" % f for f in op["flags"]) or "0"
        where = "grammar::ExtInstSet::%s" % op["set"] if op.get("set") else \
            "grammar::ExtInstSet::None"
        rows.append("  {%s, %s, %s, %s, %d, %d}," % (cstr(op["name"]), op["key"], flags, where,
                                                    first, len(op["mappings"])))
        for a in op["aliases"]:
            aliases.append("  {%s, %d}," % (cstr(a), i))
    lines.append("constexpr OperandMapping kMappings[] = {")
    lines += mappings or ["  {}"]
    lines.append("};")
    lines.append("")
    lines.append("constexpr GeneratedOp kOps[] = {")
    lines += rows
    lines.append("};")
    lines.append("")
    lines.append("constexpr GeneratedAlias kAliases[] = {")
    lines += aliases or ['  {"", 0}']
    lines.append("};")
    lines.append("")
    lines.append("std::span<const GeneratedOp> generatedOps() { return kOps; }")
    lines.append("std::span<const OperandMapping> generatedMappings() { return kMappings; }")
    lines.append("std::span<const GeneratedAlias> generatedAliases() {")
    lines.append("  return std::span(kAliases).first(%d);" % len(aliases))
    lines.append("}")
    lines.append("")
    lines.append("} // namespace spire::dialect::detail")
    return lines


def view_members(op, kinds):
    """The accessors, index constants and builder parameters of an op's class."""
    used = set(RESERVED_MEMBERS)

    def member(text, fallback):
        n = cpp_ident(lower_camel(text) or fallback, "v")
        base = n
        k = 2
        while n in used:
            n = "%s%d" % (base, k)
            k += 1
        used.add(n)
        return n

    values = []  # (accessor, quantifier, static index or None, IdEnum names before it)
    attrs = []   # (accessor, attribute name, mapping)
    params = []  # (C++ type, name, conversion, optional)
    position = 0
    static = True
    enums_before = []
    for m in op["mappings"]:
        if m["kind"] == "ResultStorage":
            continue  # written from the result type
        if m["kind"] == "Value":
            name = member(m["name"], "operand%d" % position)
            values.append((name, m["quantifier"], position if static else None, list(enums_before)))
            if m["quantifier"] == "One":
                params.append(("Value", name, "value", False))
                position += 1
            elif m["quantifier"] == "Optional":
                params.append(("Value", name, "optionalValue", True))
                static = False
            else:
                params.append(("std::span<const Value>", name, "values", True))
                static = False
            continue
        name = member(m["name"], "attr")
        attrs.append((name, m["name"], m))
        optional = m["quantifier"] != "One"
        if m["kind"] == "IdEnum":
            enums_before.append(m["name"])
            params.append(("grammar::%s" % m["attr_kind"], name, "enumerant:" + m["attr_kind"],
                           False))
        elif m["kind"] == "TypeId":
            params.append(("Type", name, "type", optional))
        else:
            kind = m["operand_kind"]
            cat = kinds.category[kind]
            if cat in ("BitEnum", "ValueEnum") and kind in kinds.enum_kinds:
                t = "grammar::%s" % kind
                if optional:
                    params.append(("std::optional<%s>" % t, name, "optionalEnumerant:" + kind, True))
                else:
                    params.append((t, name, "enumerant:" + kind, False))
            elif kind == "LiteralString":
                params.append(("std::string_view", name, "string", optional))
            elif m["quantifier"] == "Variadic":
                params.append(("std::span<const uint32_t>", name, "integers", True))
            elif optional:
                params.append(("std::optional<uint32_t>", name, "optionalInteger", True))
            else:
                params.append(("uint32_t", name, "integer", False))
    return values, attrs, params


def write_views(ops, kinds):
    h = ["// Generated by src/dialect/generate_ops.py. Do not edit.",
         "// One class per op derived from the grammar: named accessors of its operands and",
         "// attributes, the indices of its operands, a builder (OpView.h says how to use them).",
         "#pragma once", "", '#include "spire/dialect/OpView.h"', "",
         "#include <optional>", "#include <span>", "#include <string_view>", "",
         "namespace spire::dialect {", ""]
    c = ["// Generated by src/dialect/generate_ops.py. Do not edit.",
         '#include "spire/dialect/GeneratedOps.h"', "",
         '#include "spire/dialect/Builder.h"', "",
         "namespace spire::dialect {", "",
         "using detail::BuildArgs;", ""]
    seen = set()
    for op in ops:
        if not op["view"]:
            continue
        cls = class_name(op["name"])
        if cls in seen:
            continue
        seen.add(cls)
        values, attrs, params = view_members(op, kinds)
        h.append("/// %s (%s)." % (op["name"], op["doc"]))
        h.append("class %s : public OpView {" % cls)
        h.append("public:")
        h.append("  static constexpr OpKey kKey = %s;" % op["key"])
        h.append("  using OpView::OpView;")
        for name, q, index, enums in values:
            if index is not None and not enums:
                h.append("  static constexpr uint32_t k%s = %d;" % (name[:1].upper() + name[1:],
                                                                     index))
        for name, q, index, enums in values:
            if q == "One" and index is not None:
                if enums:
                    h.append("  Value %s() const { return valueAfterEnums(%d, {%s}); }" % (
                        name, index, ", ".join(cstr(e) for e in enums)))
                else:
                    h.append("  Value %s() const { return valueAt(%d); }" % (name, index))
            elif q == "Optional" and index is not None and not enums:
                h.append("  Value %s() const { return optionalValueAt(%d); }" % (name, index))
            elif q == "Variadic" and index is not None and not enums:
                h.append("  ValueRange %s() const { return valuesFrom(%d); }" % (name, index))
        for name, attr_name, m in attrs:
            h.append("  Attribute %s() const { return attrNamed(%s); }" % (name, cstr(attr_name)))
        sig = ["OpBuilder &builder"]
        if op["has_type"]:
            sig.append("Type resultType")
        # Defaults only for a tail of optional parameters.
        tail = len(params)
        while tail > 0 and params[tail - 1][3]:
            tail -= 1
        for i, (ctype, name, _, optional) in enumerate(params):
            sig.append("%s %s%s" % (ctype, name, " = {}" if i >= tail else ""))
        h.append("  static %s create(%s);" % (cls, ", ".join(sig)))
        h.append("};")
        h.append("")
        c.append("%s %s::create(%s) {" % (cls, cls, ", ".join(s.split(" = ")[0] for s in sig)))
        c.append("  BuildArgs args(builder, kKey);")
        if op["has_type"]:
            c.append("  args.result(resultType);")
        built = [m for m in op["mappings"] if m["kind"] != "ResultStorage"]
        for m, (ctype, name, conv, _) in zip(built, params):
            what, _, kind = conv.partition(":")
            attr = cstr(m["name"])
            if what in ("value", "optionalValue", "values"):
                c.append("  args.%s(%s);" % (what, name))
            elif what == "enumerant":
                c.append("  args.enumerant(%s, grammar::OperandKind::%s, static_cast<uint32_t>(%s));"
                         % (attr, kind, name))
            elif what == "optionalEnumerant":
                c.append("  if (%s)" % name)
                c.append("    args.enumerant(%s, grammar::OperandKind::%s, "
                         "static_cast<uint32_t>(*%s));" % (attr, kind, name))
            elif what == "optionalInteger":
                c.append("  if (%s)" % name)
                c.append("    args.integer(%s, *%s);" % (attr, name))
            else:
                c.append("  args.%s(%s, %s);" % (what, attr, name))
        c.append("  return %s(args.finish());" % cls)
        c.append("}")
        c.append("")
    h.append("} // namespace spire::dialect")
    c.append("} // namespace spire::dialect")
    return h, c


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--grammar-dir", required=True)
    ap.add_argument("--table", required=True)
    ap.add_argument("--views-header", required=True)
    ap.add_argument("--views-source", required=True)
    args = ap.parse_args()
    core, ext_sets = load(args.grammar_dir)
    ops, kinds = collect_ops(core, ext_sets)
    write_lines(args.table, write_table(ops))
    h, c = write_views(ops, kinds)
    write_lines(args.views_header, h)
    write_lines(args.views_source, c)


if __name__ == "__main__":
    main()
