// Builds an LlvmModule in memory for the DXIL model's tests: types, constants, metadata nodes,
// named metadata, function declarations and one defined function whose body is a list of calls.
#pragma once

#include "spire/dxil/LlvmModule.h"

#include <initializer_list>
#include <string_view>
#include <vector>

namespace spire::test {

class LlvmModuleBuilder {
public:
  using TypeId = dxil::TypeId;
  using ValueId = dxil::ValueId;
  using MetadataId = dxil::MetadataId;

  LlvmModuleBuilder() { m.version = 1; }

  dxil::LlvmModule m;

  dxil::StrRef str(std::string_view s) {
    dxil::StrRef r{uint32_t(m.strings.size()), uint32_t(s.size())};
    m.strings.append(s);
    return r;
  }

  TypeId type(dxil::TypeKind kind, uint32_t bits = 0, std::initializer_list<TypeId> elements = {},
              std::string_view name = {}) {
    dxil::Type t;
    t.kind = kind;
    t.bits = bits;
    t.firstElement = uint32_t(m.typeElements.size());
    t.numElements = uint32_t(elements.size());
    m.typeElements.insert(m.typeElements.end(), elements);
    if (!name.empty()) {
      t.identified = true;
      t.name = str(name);
    }
    m.types.push_back(t);
    return TypeId(m.types.size() - 1);
  }
  /// Scalars are made once, as the reader's types are uniqued.
  TypeId integer(uint32_t bits) { return scalar(dxil::TypeKind::Integer, bits); }
  TypeId f32() { return scalar(dxil::TypeKind::Float, 0); }
  TypeId voidType() { return scalar(dxil::TypeKind::Void, 0); }
  TypeId scalar(dxil::TypeKind kind, uint32_t bits) {
    for (TypeId t = 0; t < m.types.size(); ++t)
      if (m.types[t].kind == kind && m.types[t].bits == bits && m.types[t].numElements == 0 &&
          !m.types[t].identified)
        return t;
    return type(kind, bits);
  }
  TypeId pointer(TypeId pointee) {
    for (TypeId t = 0; t < m.types.size(); ++t)
      if (m.types[t].kind == dxil::TypeKind::Pointer && m.elementType(t) == pointee)
        return t;
    return type(dxil::TypeKind::Pointer, 0, {pointee});
  }
  TypeId structType(std::string_view name, std::initializer_list<TypeId> members) {
    return type(dxil::TypeKind::Struct, 0, members, name);
  }
  /// result, then the parameters
  TypeId function(std::initializer_list<TypeId> types) {
    return type(dxil::TypeKind::Function, 0, types);
  }

  ValueId value(dxil::ValueKind kind, TypeId type, uint32_t index, std::string_view name = {}) {
    dxil::Value v;
    v.kind = kind;
    v.type = type;
    v.index = index;
    if (!name.empty())
      v.name = str(name);
    m.values.push_back(v);
    return ValueId(m.values.size() - 1);
  }
  ValueId constInt(TypeId type, uint64_t bits) {
    dxil::Constant c;
    c.kind = dxil::ConstantKind::Integer;
    c.type = type;
    c.bits = bits;
    c.value = ValueId(m.values.size());
    m.constants.push_back(c);
    return value(dxil::ValueKind::Constant, type, uint32_t(m.constants.size() - 1));
  }
  ValueId constFloat(TypeId type, uint32_t bits) {
    ValueId v = constInt(type, bits);
    m.constants.back().kind = dxil::ConstantKind::Float;
    return v;
  }
  ValueId undef(TypeId type) {
    ValueId v = constInt(type, 0);
    m.constants.back().kind = dxil::ConstantKind::Undef;
    return v;
  }
  ValueId global(TypeId valueType, std::string_view name) {
    dxil::GlobalVariable g;
    g.valueType = valueType;
    g.value = value(dxil::ValueKind::GlobalVariable, pointer(valueType), uint32_t(m.globals.size()),
                    name);
    m.globals.push_back(g);
    return g.value;
  }
  /// A function: a declaration, or (`define`) a definition whose body the calls below fill.
  uint32_t declare(TypeId fnType, std::string_view name, bool define = false) {
    dxil::Function f;
    f.functionType = fnType;
    f.isDeclaration = !define;
    f.firstInstruction = uint32_t(m.instructions.size());
    f.value = value(dxil::ValueKind::Function, pointer(fnType), uint32_t(m.functions.size()), name);
    m.functions.push_back(f);
    return uint32_t(m.functions.size() - 1);
  }
  ValueId functionValue(uint32_t f) const { return m.functions[f].value; }
  /// Appends a call to the last function.
  uint32_t call(uint32_t callee, std::initializer_list<ValueId> args) {
    const dxil::Function &c = m.functions[callee];
    dxil::Instruction inst;
    inst.opcode = dxil::Opcode::Call;
    inst.auxType = c.functionType;
    inst.type = m.typeElements[m.types[c.functionType].firstElement];
    inst.firstOperand = uint32_t(m.operands.size());
    m.operands.push_back(c.value);
    m.operands.insert(m.operands.end(), args);
    inst.numOperands = uint32_t(args.size() + 1);
    m.instructions.push_back(inst);
    ++m.functions.back().numInstructions;
    return uint32_t(m.instructions.size() - 1);
  }

  MetadataId md(dxil::Metadata node) {
    m.metadata.push_back(node);
    return MetadataId(m.metadata.size() - 1);
  }
  MetadataId mdString(std::string_view s) {
    dxil::Metadata n;
    n.kind = dxil::MetadataKind::String;
    n.string = str(s);
    return md(n);
  }
  MetadataId mdValue(ValueId v) {
    dxil::Metadata n;
    n.kind = dxil::MetadataKind::Value;
    n.value = v;
    return md(n);
  }
  MetadataId mdI32(uint64_t v) { return mdValue(constInt(integer(32), v)); }
  MetadataId node(std::initializer_list<MetadataId> ops) {
    dxil::Metadata n;
    n.kind = dxil::MetadataKind::Node;
    n.firstOperand = uint32_t(m.metadataOperands.size());
    n.numOperands = uint32_t(ops.size());
    m.metadataOperands.insert(m.metadataOperands.end(), ops);
    return md(n);
  }
  void named(std::string_view name, std::initializer_list<MetadataId> ops) {
    dxil::NamedMetadata n;
    n.name = str(name);
    n.firstOperand = uint32_t(m.metadataOperands.size());
    n.numOperands = uint32_t(ops.size());
    m.metadataOperands.insert(m.metadataOperands.end(), ops);
    m.namedMetadata.push_back(n);
  }
};

} // namespace spire::test
