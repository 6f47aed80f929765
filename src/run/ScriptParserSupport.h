// What the AmberScript and VkScript parsers share: errors at a line, encoding values into a
// buffer's layout, and the lookup of buffers by name.
#pragma once

#include "spire/run/Script.h"
#include "spire/run/ScriptTokenizer.h"

#include <span>
#include <string>

namespace spire::run::detail {

/// An error at a script line; line breaks in what it quotes (an unterminated string) are shown
/// as \n so that it stays one line.
inline Diagnostic scriptError(uint32_t line, std::string message) {
  for (size_t i = 0; i < message.size(); ++i)
    if (message[i] == '\n' || message[i] == '\r') {
      message.replace(i, 1, message[i] == '\n' ? "\\n" : "\\r");
      ++i;
    }
  return makeError(Location::text(line, 0), std::move(message));
}

/// Writes `values` into successive non-padding components of elements of `format`, starting at
/// element 0 of `out` (which grows to whole elements, padding zeroed).
void encodeValues(const BufferFormat &format, std::span<const Value> values,
                  std::vector<uint8_t> &out);

/// The bytes that `count` values cover from the start of an element: whole elements, then the
/// components of a partial one (up to the end of its last value).
size_t encodedLength(const BufferFormat &format, size_t count);

/// Checks that a value token fits a component: float components take any number, integer
/// components integers and hex only. Returns false for a floating-point value on an integer
/// component (or a token that is not a number).
bool valueFits(const Token &token, Component component);

/// The component of `format` that value number `i` (padding skipped, cycling) lands on.
Component componentAt(const BufferFormat &format, size_t i);

} // namespace spire::run::detail
