// Test helper for the verifier's type rules: what the verifier says of a small module.
#pragma once

#include "spire/dialect/Text.h"
#include "spire/dialect/Verifier.h"

#include <string>
#include <string_view>

namespace spire::dialect::test {

/// What the verifier says of a module holding `globals` and a function @f taking `params` whose
/// body is `ops` followed by spirv.Return (unless `ops` ends the function itself); "" when the
/// module verifies, "parse: ..." when it does not parse.
inline std::string verdict(std::string_view params, std::string_view ops,
                           std::string_view globals = "") {
  std::string body(ops);
  if (body.find("spirv.Return") == std::string::npos)
    body += "\n    spirv.Return";
  std::string text = "spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {\n" +
                     std::string(globals) + "\n  spirv.func @f(" + std::string(params) +
                     ") \"None\" {\n    " + body + "\n  }\n}\n";
  Context context;
  Expected<OwningOp> module = parse(context, text);
  if (!module)
    return "parse: " + module.error().message;
  Status status = verify(**module);
  return status ? std::string() : status.error().message;
}

} // namespace spire::dialect::test
