#!/usr/bin/env python3
"""Generates spire's grammar tables from the SPIR-V grammar JSON files.

Reads spirv.core.grammar.json and every extinst.*.grammar.json of one grammar
directory, and the generator (tool) registry spir-v.xml from that directory,
its parent or third_party/spirv-headers, and writes two files:
  Generated.h        enums: Op, OperandKind, InstructionClass, ExtInstSet,
                     Extension, one enum per core operand kind with enumerants,
                     one enum per extended instruction set
  GrammarTables.cpp  constant tables that src/grammar/Grammar.cpp looks up

Entries that share a value (older grammars list aliases as separate entries)
are merged: the first one listed is the canonical name, the others become
aliases, and their availability is the union of theirs.

The core grammar is completed by spire's own supplements (src/grammar/supplement/*.json,
in the core grammar's shape): instructions and enumerants that no SPIRV-Headers grammar
lists any more (SPV_INTEL_joint_matrix). An entry the grammar already has under the same
name is left to the grammar; one whose value the grammar gives another name stops the
build.
"""

import argparse
import json
import os
import re
import sys
import xml.etree.ElementTree as ElementTree

CPP_KEYWORDS = {
    "alignas", "alignof", "and", "asm", "auto", "bool", "break", "case", "catch", "char",
    "class", "const", "constexpr", "continue", "default", "delete", "do", "double", "else",
    "enum", "explicit", "export", "extern", "false", "float", "for", "friend", "goto", "if",
    "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "nullptr",
    "operator", "or", "private", "protected", "public", "register", "return", "short",
    "signed", "sizeof", "static", "struct", "switch", "template", "this", "throw", "true",
    "try", "typedef", "typeid", "typename", "union", "unsigned", "using", "virtual", "void",
    "volatile", "while", "xor", "NULL", "EOF", "TRUE", "FALSE", "DEBUG", "linux", "unix",
}

NO_VERSION = 0xFFFFFFFF
# How many words of a trailing variadic id or integer operand the constant operand lists of
# fixed-shape instructions cover; longer instructions get their operands decoded one by one.
FIXED_TAIL = 32


def parse_version(text, default):
    if text is None:
        return default
    if text == "None":
        return NO_VERSION
    major, minor = text.split(".")
    return (int(major) << 16) | (int(minor) << 8)


def cpp_ident(name, prefix):
    ident = re.sub(r"[^A-Za-z0-9_]", "_", name)
    if ident[0].isdigit():
        ident = prefix + ident
    if ident in CPP_KEYWORDS:
        ident += "_"
    return ident


def camel(text):
    return "".join(p[:1].upper() + p[1:] for p in re.split(r"[^A-Za-z0-9]+", text) if p)


def cstr(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def value_of(v):
    return int(v, 0) if isinstance(v, str) else int(v)


class Availability:
    def __init__(self, entry, default_version):
        self.version = parse_version(entry.get("version"), default_version)
        self.last = parse_version(entry.get("lastVersion"), NO_VERSION)
        self.caps = list(entry.get("capabilities", []))
        self.exts = list(entry.get("extensions", []))
        self.provisional = bool(entry.get("provisional", False))

    def merge(self, other):
        self.version = min(self.version, other.version)
        self.last = max(self.last, other.last) if self.last != NO_VERSION else NO_VERSION
        for c in other.caps:
            if c not in self.caps:
                self.caps.append(c)
        for e in other.exts:
            if e not in self.exts:
                self.exts.append(e)


def merge_by_value(entries, value_key, name_key, default_version):
    """Groups entries by value, keeping grammar order within a value (stable)."""
    merged = {}
    order = []
    for e in entries:
        v = value_of(e[value_key])
        avail = Availability(e, default_version)
        if v not in merged:
            merged[v] = {"name": e[name_key], "value": v, "avail": avail,
                         "aliases": list(e.get("aliases", [])), "entry": e}
            order.append(v)
        else:
            m = merged[v]
            m["avail"].merge(avail)
            for n in [e[name_key]] + list(e.get("aliases", [])):
                if n != m["name"] and n not in m["aliases"]:
                    m["aliases"].append(n)
    return [merged[v] for v in sorted(order)]


SUPPLEMENT_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "supplement")


def merge_supplement(core, supplement, origin):
    """Adds a supplement's instructions and enumerants to the core grammar (in place)."""
    def clash(what, value, theirs, ours):
        sys.exit("%s: %s %d is %s in the grammar, %s in the supplement" % (
            origin, what, value, theirs, ours))

    by_opcode = {value_of(i["opcode"]): i for i in core["instructions"]}
    by_opname = {i["opname"]: i for i in core["instructions"]}
    for ins in supplement.get("instructions", []):
        theirs = by_opcode.get(value_of(ins["opcode"]))
        if theirs is not None:
            if theirs["opname"] != ins["opname"]:
                clash("opcode", value_of(ins["opcode"]), theirs["opname"], ins["opname"])
            continue
        if ins["opname"] in by_opname:
            sys.exit("%s: %s has opcode %s in the grammar" % (
                origin, ins["opname"], by_opname[ins["opname"]]["opcode"]))
        core["instructions"].append(ins)
    kinds = {k["kind"]: k for k in core["operand_kinds"]}
    for k in supplement.get("operand_kinds", []):
        if k["kind"] not in kinds:
            core["operand_kinds"].append(k)
            kinds[k["kind"]] = k
            continue
        mine = kinds[k["kind"]]
        if mine["category"] != k["category"]:
            sys.exit("%s: operand kind %s is a %s in the grammar" % (
                origin, k["kind"], mine["category"]))
        by_value = {value_of(e["value"]): e for e in mine.get("enumerants", [])}
        for e in k.get("enumerants", []):
            theirs = by_value.get(value_of(e["value"]))
            if theirs is not None:
                if theirs["enumerant"] != e["enumerant"] and \
                        e["enumerant"] not in theirs.get("aliases", []):
                    clash(k["kind"], value_of(e["value"]), theirs["enumerant"], e["enumerant"])
                continue
            mine.setdefault("enumerants", []).append(e)


def load_core(grammar_dir, supplement_dir=SUPPLEMENT_DIR):
    """spirv.core.grammar.json of `grammar_dir` with spire's supplements merged into it."""
    with open(os.path.join(grammar_dir, "spirv.core.grammar.json")) as f:
        core = json.load(f)
    if supplement_dir and os.path.isdir(supplement_dir):
        for n in sorted(os.listdir(supplement_dir)):
            if n.endswith(".json"):
                with open(os.path.join(supplement_dir, n)) as f:
                    merge_supplement(core, json.load(f), n)
    return core


def find_registry(grammar_dir):
    """The generator registry spir-v.xml beside the grammar, above it, or the vendored one."""
    vendored = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "third_party",
                            "spirv-headers", "include", "spirv")
    candidates = [grammar_dir, os.path.dirname(os.path.normpath(grammar_dir)), vendored]
    for d in candidates:
        path = os.path.join(d, "spir-v.xml")
        if os.path.isfile(path):
            return path
    return None


def read_generators(path):
    """(tool id, vendor, tool) of every <id> in the <ids type="vendor"> block, sorted by id."""
    if path is None:
        return []
    tools = {}
    for ids in ElementTree.parse(path).getroot().iter("ids"):
        if ids.get("type") != "vendor":
            continue
        for entry in ids.iter("id"):
            value = value_of(entry.get("value"))
            if value not in tools:
                tools[value] = (entry.get("vendor", ""), entry.get("tool", ""))
    return [(v, tools[v][0], tools[v][1]) for v in sorted(tools)]


def write_lines(path, lines):
    """Writes the lines to `path` unless it holds them already (so that nothing rebuilds)."""
    text = "\n".join(lines) + "\n"
    old = None
    if os.path.exists(path):
        with open(path) as f:
            old = f.read()
    if old != text:
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)


class Writer:
    def __init__(self):
        self.lines = []

    def __call__(self, text=""):
        self.lines.append(text)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--grammar-dir", required=True)
    ap.add_argument("--header", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--registry", help="spir-v.xml (default: searched beside the grammar)")
    ap.add_argument("--names-grammar-dir",
                    help="another grammar directory (the vendored one) whose opcode and "
                         "enumerant names the enums hold too, so that code naming them builds "
                         "with an older grammar; the tables come from --grammar-dir alone")
    args = ap.parse_args()
    generators = read_generators(args.registry or find_registry(args.grammar_dir))

    core = load_core(args.grammar_dir)
    ext_files = sorted(n for n in os.listdir(args.grammar_dir)
                       if n.startswith("extinst.") and n.endswith(".grammar.json"))
    ext_sets = []
    for n in ext_files:
        with open(os.path.join(args.grammar_dir, n)) as f:
            g = json.load(f)
        key = n[len("extinst."):-len(".grammar.json")]
        ext_sets.append({"key": key, "ident": camel(key), "grammar": g})

    # ---- operand kinds ---------------------------------------------------
    kinds = []  # dicts: ident, name, category, owner, enumerants, bases
    kind_index = {}  # (owner, name) -> ident

    def add_kind(k, owner_ident):
        prefix = "" if owner_ident == "None" else owner_ident + "_"
        ident = prefix + k["kind"]
        enumerants = []
        if k["category"] in ("BitEnum", "ValueEnum"):
            enumerants = merge_by_value(k.get("enumerants", []), "value", "enumerant", 0x10000)
        kinds.append({"ident": ident, "name": k["kind"], "category": k["category"],
                      "owner": owner_ident, "enumerants": enumerants,
                      "bases": k.get("bases", [])})
        kind_index[(owner_ident, k["kind"])] = ident

    for k in core["operand_kinds"]:
        add_kind(k, "None")
    for s in ext_sets:
        for k in s["grammar"].get("operand_kinds", []):
            add_kind(k, s["ident"])

    def resolve_kind(name, owner):
        if (owner, name) in kind_index:
            return kind_index[(owner, name)]
        if ("None", name) in kind_index:
            return kind_index[("None", name)]
        sys.exit("unknown operand kind %s in %s" % (name, owner))

    # ---- extensions --------------------------------------------------------
    extensions = set()
    for i in core["instructions"]:
        extensions.update(i.get("extensions", []))
    for k in core["operand_kinds"]:
        for e in k.get("enumerants", []):
            extensions.update(e.get("extensions", []))
    for s in ext_sets:
        for i in s["grammar"]["instructions"]:
            extensions.update(i.get("extensions", []))
        for k in s["grammar"].get("operand_kinds", []):
            for e in k.get("enumerants", []):
                extensions.update(e.get("extensions", []))
    extensions = sorted(extensions)
    ext_ids = {e: i for i, e in enumerate(extensions)}

    capability_kind = next(k for k in kinds if k["ident"] == "Capability")
    capability_value = {}
    for e in capability_kind["enumerants"]:
        capability_value[e["name"]] = e["value"]
        for a in e["aliases"]:
            capability_value[a] = e["value"]

    # ---- instructions ------------------------------------------------------
    instructions = merge_by_value(core["instructions"], "opcode", "opname", 0x10000)
    classes = []
    for i in core["instructions"]:
        c = camel(i["class"]) or "Exclude"
        if c not in classes:
            classes.append(c)

    # ---- output helpers ----------------------------------------------------
    src = Writer()
    pool = {"operands": [], "caps": [], "exts": [], "aliases": [], "fixed": []}
    seen = {}

    def pooled(kind, ctype, prefix, items):
        """Emits an array once per distinct content and returns its name."""
        if not items:
            return "{}"
        key = (kind, tuple(items))
        if key not in seen:
            seen[key] = "%s%d" % (prefix, len(pool[kind]))
            pool[kind].append("static constexpr %s %s[] = {%s};" % (ctype, seen[key], ", ".join(items)))
        return seen[key]

    def operand_list(ops, owner):
        items = []
        for o in ops:
            q = {None: "One", "?": "Optional", "*": "Variadic"}[o.get("quantifier")]
            name = " ".join(o.get("name", "").replace("+", " ").split()).strip("'")
            items.append("{OperandKind::%s, Quantifier::%s, %s}" % (
                resolve_kind(o["kind"], owner), q, cstr(name)))
        return pooled("operands", "OperandDesc", "kOperands", items)

    def cap_list(caps):
        for c in caps:
            if c not in capability_value:
                sys.exit("unknown capability %s" % c)
        return pooled("caps", "Capability", "kCaps",
                      ["static_cast<Capability>(%du)" % capability_value[c] for c in caps])

    def ext_list(exts):
        return pooled("exts", "Extension", "kExts",
                      ["Extension::%s" % cpp_ident(e, "E") for e in exts])

    def alias_list(aliases):
        return pooled("aliases", "std::string_view", "kAliases", [cstr(a) for a in aliases])

    def avail(a):
        return "{0x%08Xu, 0x%08Xu, %s, %s, %s}" % (
            a.version, a.last, cap_list(a.caps), ext_list(a.exts),
            "true" if a.provisional else "false")

    body = Writer()

    # instructions
    kind_category = {k["name"]: k["category"] for k in kinds if k["owner"] == "None"}
    inst_rows = []
    for ins in instructions:
        e = ins["entry"]
        ops = e.get("operands", [])
        has_type = any(o["kind"] == "IdResultType" for o in ops)
        has_result = any(o["kind"] == "IdResult" for o in ops)
        # Leading operands that are exactly one word each (ids and plain integers, no
        # quantifier): the decoder takes them in one tight loop.
        def one_word(o):
            return kind_category[o["kind"]] == "Id" or o["kind"] == "LiteralInteger"
        simple = 0
        for o in ops:
            if o.get("quantifier") or not one_word(o):
                break
            simple += 1
        # An instruction has a fixed shape when its required operands are one word each (an id,
        # a plain integer or an enumerant) and everything after them may be absent: then an
        # instance whose enumerants bring no parameters has as decoded operands a prefix of one
        # constant list: the required operands, then the optional one-word ones, then (for a
        # trailing variadic id or integer) copies of it at the following words.
        def word_sized(o):
            return one_word(o) or kind_category[o["kind"]] in ("ValueEnum", "BitEnum")
        required = 0
        for o in ops:
            if o.get("quantifier") or not word_sized(o):
                break
            required += 1
        rest = ops[required:]
        fixed = all(o.get("quantifier") in ("?", "*") for o in rest)
        fixed_ops = []
        if fixed:
            kinds_list = [o["kind"] for o in ops[:required]]
            for o in rest:
                if not word_sized(o):
                    break
                if o["quantifier"] == "?":
                    kinds_list.append(o["kind"])
                elif one_word(o):
                    kinds_list += [o["kind"]] * FIXED_TAIL
                    break
                else:
                    break
            for i, k in enumerate(kinds_list):
                number = "NumberKind::Unsigned, 32" if k == "LiteralInteger" else "NumberKind::None, 0"
                fixed_ops.append("{%d, 1, OperandKind::%s, %s}" % (i + 1, k, number))
        fixed_label = pooled("fixed", "DecodedOperand", "kFixed", fixed_ops)
        inst_rows.append("  {%s, %du, InstructionClass::%s, %s, %s, %d, %d, %s, %s, %s, %s, %s}," % (
            cstr(ins["name"]), ins["value"], camel(e["class"]) or "Exclude",
            "true" if has_type else "false", "true" if has_result else "false", simple,
            required, "true" if fixed else "false", fixed_label,
            operand_list(ops, "None"), avail(ins["avail"]), alias_list(ins["aliases"])))
    body("static constexpr InstructionDesc kInstructions[] = {")
    body("\n".join(inst_rows))
    body("};")

    # Every opcode (vendor ones reach past 6000) has a slot: 14 KB of constant data, read only
    # where a module's opcodes fall, makes each lookup one load instead of a binary search over
    # the vendor half of the table.
    dense_limit = max(ins["value"] for ins in instructions) + 1
    dense = ["-1"] * dense_limit
    for idx, ins in enumerate(instructions):
        if ins["value"] < dense_limit:
            dense[ins["value"]] = str(idx)
    body("static constexpr int16_t kDenseOpcodeIndex[%d] = {%s};" % (dense_limit, ", ".join(dense)))

    names = []
    for idx, ins in enumerate(instructions):
        names.append((ins["name"], idx))
        for a in ins["aliases"]:
            names.append((a, idx))
    names.sort()
    body("static constexpr NameIndex kInstructionNames[] = {%s};" % ", ".join(
        "{%s, %d}" % (cstr(n), i) for n, i in names))

    # enumerants per kind
    kind_rows = []
    for k in kinds:
        elabel = "{}"
        nlabel = "{}"
        if k["enumerants"]:
            owner = k["owner"]
            rows = []
            for en in k["enumerants"]:
                rows.append("{%s, %du, %s, %s, %s}" % (
                    cstr(en["name"]), en["value"],
                    operand_list(en["entry"].get("parameters", []), owner),
                    avail(en["avail"]), alias_list(en["aliases"])))
            elabel = "kEnumerants_%s" % k["ident"]
            body("static constexpr EnumerantDesc %s[] = {%s};" % (elabel, ",\n  ".join(rows)))
            enames = []
            for idx, en in enumerate(k["enumerants"]):
                enames.append((en["name"], idx))
                for a in en["aliases"]:
                    enames.append((a, idx))
            enames.sort()
            nlabel = "kEnumerantNames_%s" % k["ident"]
            body("static constexpr NameIndex %s[] = {%s};" % (
                nlabel, ", ".join("{%s, %d}" % (cstr(n), i) for n, i in enames)))
        blabel = "{}"
        if k["bases"]:
            blabel = "kBases_%s" % k["ident"]
            body("static constexpr OperandKind %s[] = {%s};" % (blabel, ", ".join(
                "OperandKind::%s" % resolve_kind(b, k["owner"]) for b in k["bases"])))
        literal_float = k["category"] == "Literal" and k["name"].endswith("Float")
        kind_rows.append("  {%s, OperandCategory::%s, ExtInstSet::%s, %s, %s, %s, %s}," % (
            cstr(k["name"]), k["category"], k["owner"], elabel, nlabel, blabel,
            "true" if literal_float else "false"))
    body("static constexpr OperandKindDesc kOperandKinds[] = {")
    body("\n".join(kind_rows))
    body("};")

    # Every enumerant by (kind, value) in an open-addressing hash table, laid out here so that
    # no process builds it: Grammar.cpp's findEnumerant probes it with the same hash.
    keys = []
    for kind_number, k in enumerate(kinds):
        for idx, en in enumerate(k["enumerants"]):
            keys.append((kind_number, en["value"], idx))
    size = 64
    while size < 2 * len(keys):
        size *= 2
    shift = 64 - (size.bit_length() - 1)
    slots = [None] * size
    for kind_number, value, idx in keys:
        key = (kind_number << 32) | value
        i = ((key * 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF) >> shift
        while slots[i] is not None and slots[i][:2] != (kind_number, value):
            i = (i + 1) & (size - 1)
        if slots[i] is None:  # the first of a value's names
            slots[i] = (kind_number, value, idx)
    body("static constexpr EnumerantSlot kEnumerantSlots[] = {%s};" % ", ".join(
        "{%du, %d, %d}" % (sl[1], sl[0], sl[2]) if sl is not None else "{}" for sl in slots))
    enumerant_shift = shift

    # extended instruction sets
    set_rows = []
    for s in ext_sets:
        insts = merge_by_value(s["grammar"]["instructions"], "opcode", "opname", 0x10000)
        rows = []
        for ins in insts:
            rows.append("{%s, %du, %s, %s}" % (
                cstr(ins["name"]), ins["value"],
                operand_list(ins["entry"].get("operands", []), s["ident"]), avail(ins["avail"])))
        label = "kExtInsts_%s" % s["ident"]
        body("static constexpr ExtInstDesc %s[] = {%s};" % (label, ",\n  ".join(rows)))
        enames = sorted((ins["name"], idx) for idx, ins in enumerate(insts))
        nlabel = "kExtInstNames_%s" % s["ident"]
        body("static constexpr NameIndex %s[] = {%s};" % (
            nlabel, ", ".join("{%s, %d}" % (cstr(n), i) for n, i in enames)))
        set_rows.append("  {ExtInstSet::%s, %s, %s, %s}," % (s["ident"], cstr(s["key"]), label, nlabel))
        s["insts"] = insts

    body("static constexpr ExtInstSetDesc kExtInstSets[] = {")
    body("\n".join(set_rows))
    body("};")
    body("static constexpr std::string_view kExtensionNames[] = {%s};" % ", ".join(
        cstr(e) for e in extensions))
    body("static constexpr GeneratorDesc kGenerators[] = {%s};" % ", ".join(
        "{%du, %s, %s}" % (v, cstr(vendor), cstr(tool)) for v, vendor, tool in generators)
        if generators else "static constexpr std::span<const GeneratorDesc> kGenerators;")

    src("// Generated by src/grammar/generate_tables.py from %s. Do not edit." %
        os.path.basename(os.path.normpath(args.grammar_dir)))
    src('#include "GrammarTablesData.h"')
    src()
    src("namespace spire::grammar::detail {")
    src()
    src("\n".join(pool["caps"]))
    src("\n".join(pool["exts"]))
    src("\n".join(pool["aliases"]))
    src("\n".join(pool["operands"]))
    src("\n".join(pool["fixed"]))
    src()
    src("\n".join(body.lines))
    src()
    src("const GrammarData kGrammar = {")
    src("    kInstructions, kDenseOpcodeIndex, kInstructionNames, kOperandKinds,")
    src("    kExtInstSets, kExtensionNames, 0x%08Xu, %du, kGenerators, kEnumerantSlots, %du};" % (
        (core["major_version"] << 16) | (core["minor_version"] << 8), core["revision"],
        enumerant_shift))
    src()
    src("} // namespace spire::grammar::detail")

    # ---- header ------------------------------------------------------------
    hdr = Writer()
    hdr("// Generated by src/grammar/generate_tables.py. Do not edit.")
    hdr("// Enumerations of the SPIR-V grammar: opcodes, operand kinds, enumerants.")
    hdr("#pragma once")
    hdr("#include <cstdint>")
    hdr()
    hdr("namespace spire::grammar {")
    hdr()
    names_core = None
    if args.names_grammar_dir and os.path.abspath(args.names_grammar_dir) != os.path.abspath(
            args.grammar_dir):
        with open(os.path.join(args.names_grammar_dir, "spirv.core.grammar.json")) as f:
            names_core = json.load(f)

    def extra_names(entries, value_key, name_key, known):
        """(name, value) of the names grammar's entries and aliases this grammar lacks."""
        out = []
        for e in entries:
            for n in [e[name_key]] + list(e.get("aliases", [])):
                if n not in known:
                    known.add(n)
                    out.append((n, value_of(e[value_key])))
        return out

    hdr("/// Opcodes of the core grammar (every name, aliases included).")
    hdr("enum class Op : uint16_t {")
    op_names = set()
    for ins in instructions:
        for n in [ins["name"]] + ins["aliases"]:
            op_names.add(n)
            hdr("  %s = %d," % (cpp_ident(n[2:] if n.startswith("Op") else n, "Op"), ins["value"]))
    if names_core:
        extra = extra_names(names_core["instructions"], "opcode", "opname", op_names)
        if extra:
            hdr("  // Named by the vendored grammar only: no table of this build knows them.")
        for n, v in extra:
            hdr("  %s = %d," % (cpp_ident(n[2:] if n.startswith("Op") else n, "Op"), v))
    hdr("};")
    hdr()
    hdr("/// Operand kinds of the core grammar, then those of each extended instruction set")
    hdr("/// (prefixed with the set), then the kinds the decoder adds.")
    hdr("enum class OperandKind : uint8_t {")
    for k in kinds:
        hdr("  %s," % k["ident"])
    hdr("  /// A literal number whose width and type come from another id (OpConstant, OpSwitch).")
    hdr("  TypedLiteralNumber,")
    hdr("  /// Words of an instruction the grammar does not describe.")
    hdr("  RawWords,")
    hdr("};")
    hdr("inline constexpr unsigned kGrammarOperandKindCount = %d;" % len(kinds))
    hdr()
    hdr("enum class OperandCategory : uint8_t { Id, Literal, Composite, BitEnum, ValueEnum };")
    hdr("/// The category of each operand kind, decoder-added kinds (literals) included.")
    hdr("inline constexpr OperandCategory kOperandCategories[] = {")
    for k in kinds:
        hdr("    OperandCategory::%s," % k["category"])
    hdr("    OperandCategory::Literal, // TypedLiteralNumber")
    hdr("    OperandCategory::Literal, // RawWords")
    hdr("};")
    hdr()
    hdr("enum class InstructionClass : uint8_t {")
    for c in classes:
        hdr("  %s," % c)
    hdr("};")
    hdr()
    hdr("/// Extended instruction sets known to the grammar, named after their grammar file.")
    hdr("enum class ExtInstSet : uint8_t {")
    hdr("  None,")
    for s in ext_sets:
        hdr("  %s," % s["ident"])
    hdr("};")
    hdr()
    hdr("enum class Extension : uint16_t {")
    for e in extensions:
        hdr("  %s," % cpp_ident(e, "E"))
    hdr("};")
    hdr()
    names_kinds = {k["kind"]: k for k in (names_core or {}).get("operand_kinds", [])
                   if k["category"] in ("BitEnum", "ValueEnum")}
    for k in kinds:
        if k["owner"] != "None" or not k["enumerants"]:
            continue
        hdr("enum class %s : uint32_t {" % k["ident"])
        known = set()
        for en in k["enumerants"]:
            for n in [en["name"]] + en["aliases"]:
                known.add(n)
                hdr("  %s = 0x%Xu," % (cpp_ident(n, k["ident"]), en["value"]))
        if k["name"] in names_kinds:
            extra = extra_names(names_kinds[k["name"]].get("enumerants", []), "value",
                                "enumerant", known)
            if extra:
                hdr("  // Named by the vendored grammar only.")
            for n, v in extra:
                hdr("  %s = 0x%Xu," % (cpp_ident(n, k["ident"]), v))
        hdr("};")
        hdr()
    own_kinds = {k["name"] for k in kinds if k["owner"] == "None"}
    for name, k in names_kinds.items():
        if name in own_kinds or not k.get("enumerants"):
            continue
        hdr("/// Named by the vendored grammar only: this build's grammar has no such operand kind.")
        hdr("enum class %s : uint32_t {" % name)
        for n, v in extra_names(k["enumerants"], "value", "enumerant", set()):
            hdr("  %s = 0x%Xu," % (cpp_ident(n, name), v))
        hdr("};")
        hdr()
    for s in ext_sets:
        hdr("/// Instructions of the extended instruction set %s." % s["key"])
        hdr("enum class %sInst : uint32_t {" % s["ident"])
        for ins in s["insts"]:
            hdr("  %s = %d," % (cpp_ident(ins["name"], "I"), ins["value"]))
        hdr("};")
        hdr()
    hdr("} // namespace spire::grammar")

    for path, lines in ((args.header, hdr.lines), (args.source, src.lines)):
        write_lines(path, lines)


if __name__ == "__main__":
    main()
