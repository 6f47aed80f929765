// The dx.op signatures (opSignature) compiled into tokens when spire is compiled, so that the
// call resolver matches function types without reading the table's text.
#pragma once

#include "spire/dxil/DxilOps.h"

#include <cstdint>
#include <span>
#include <string_view>

namespace spire::dxil {

/// A signature token taken apart when compiling, for matching types without reading text.
/// The scalars, Void to Double, are one range.
enum class SignatureTokenKind : uint8_t {
  Unknown,         ///< no type: matches nothing
  Void,            ///< "void"
  Integer,         ///< "i<bits>"
  Half,            ///< "f16"
  Float,           ///< "f32"
  Double,          ///< "f64"
  Overload,        ///< "$o"
  OverloadPointer, ///< "$o*"
  Struct,          ///< "%name"
  StructOverload,  ///< "%head$otail": the overload's name between head and tail
};
struct SignatureToken {
  std::string_view text; ///< the token as written ("%dx.types.ResRet.$o")
  SignatureTokenKind kind = SignatureTokenKind::Unknown;
  /// The scalar overload the token names ("i32": I32), Void when none: a scalar token that is the
  /// function's own overload fixes the overload type.
  Overload scalarOverload = Overload::Void;
  uint16_t bits = 0;     ///< Integer
  uint16_t overload = 0; ///< StructOverload: where "$o" is in the name

  /// Struct: the name; StructOverload: the name before "$o".
  constexpr std::string_view head() const {
    return kind == SignatureTokenKind::StructOverload ? text.substr(1, overload) : text.substr(1);
  }
  /// StructOverload: the name after "$o".
  constexpr std::string_view tail() const { return text.substr(1 + overload + 2); }
};
/// opSignature's tokens, compiled: the result, then the parameters after the opcode; empty for
/// an operation whose signature is not checked.
std::span<const SignatureToken> opSignatureTokens(const OpInfo &op);

} // namespace spire::dxil
