// The DXIL operations: every dx.op opcode with its name, class (the dx.op.<class> function family),
// allowed overloads, stages, minimum shader model, DXIL version and memory attribute. Generated
// from the single table DxilOps.def beside this header.
#pragma once

#include "spire/dxil/Container.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace spire::dxil {

/// The operation classes, in the order of their first operation.
enum class OpClass : uint16_t {
#define DXIL_OP_CLASS(Class, functionName) Class,
#include "spire/dxil/DxilOps.def"
};

/// The operations by name, numbered by opcode (DxOp::Sample is 60).
enum class DxOp : uint32_t {
#define DXIL_OP(opcode, Name, ...) Name = opcode,
#include "spire/dxil/DxilOps.def"
};

/// Overload types, as bits of OpInfo::overloads. Void means "not overloaded": the function is
/// dx.op.<class> with no suffix.
enum class Overload : uint8_t { Void, F16, F32, F64, I1, I8, I16, I32, I64, Udt, Obj };
inline constexpr unsigned kOverloadCount = 11;
constexpr uint16_t overloadBit(Overload o) { return uint16_t(1u << unsigned(o)); }

/// What an operation does to memory, as the attribute of its function declaration.
enum class OpAttribute : uint8_t { None, ReadNone, ReadOnly, NoDuplicate, NoReturn, ArgMemOnly };

struct OpInfo {
  uint32_t opcode;
  std::string_view name; ///< "Sample"
  OpClass opClass;
  uint16_t overloads; ///< overloadBit()s
  uint32_t stages;    ///< bit n: a shader of kind n may call it
  uint8_t minShaderModelMajor;
  uint8_t minShaderModelMinor;
  bool translatable; ///< lowered by the compiler for shader models down to 6.0
  uint8_t dxilMajor;
  uint8_t dxilMinor; ///< the first DXIL version that defines it
  OpAttribute attribute;

  bool readNone() const { return attribute == OpAttribute::ReadNone; }
  bool readOnly() const { return attribute == OpAttribute::ReadOnly; }
  bool allows(Overload o) const { return overloads & overloadBit(o); }
  bool allowedIn(ShaderKind kind) const {
    return unsigned(kind) < 32 && stages >> unsigned(kind) & 1;
  }
};

/// Every operation, indexed by opcode (dense from 0).
std::span<const OpInfo> opTable();
/// The operation with this opcode, or null.
const OpInfo *opInfo(uint32_t opcode);
/// The operation with this name ("Sample", case-sensitive), or null.
const OpInfo *opInfo(std::string_view name);

/// The class's function name ("sample", "unary").
std::string_view opClassName(OpClass opClass);
/// The class with this function name, or nothing.
std::optional<OpClass> opClassFromName(std::string_view functionName);
/// The number of classes.
size_t opClassCount();

/// An overload's function name suffix ("f32", "i1"); "" for Void, "udt" and "obj" for the
/// struct overloads (whose functions carry the struct's name instead).
std::string_view overloadName(Overload o);
/// The scalar overload with this suffix ("f16" ... "i64"), or nothing.
std::optional<Overload> overloadFromName(std::string_view suffix);

/// A dx.op function name taken apart: "dx.op.sample.f32" is class sample, overload F32;
/// "dx.op.createHandle" is createHandle, Void; "dx.op.traceRay.struct.Payload" is traceRay with a
/// struct overload (Udt or Obj, whichever the class's operations allow).
struct OpFunction {
  OpClass opClass;
  Overload overload;
  std::string_view suffix; ///< what follows the class name and its dot; empty for Void
};
/// Nothing when the name does not start with "dx.op.", names no class, or carries an overload no
/// operation of the class allows.
std::optional<OpFunction> parseOpFunctionName(std::string_view name);

/// The types of an operation's function, as the table writes them (see DxilOps.def): the result
/// and the space-separated parameters after the opcode, in tokens such as "i32", "$o",
/// "%dx.types.ResRet.$o" and "$o*".
struct OpSignature {
  std::string_view result;
  std::string_view parameters;
  /// False for the operations whose signatures the table does not give (result "?").
  bool checked() const { return result != "?"; }
};
OpSignature opSignature(const OpInfo &op);

/// Whether some operation of the class allows the overload.
bool classAllows(OpClass opClass, Overload o);

} // namespace spire::dxil
