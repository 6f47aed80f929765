#include "spire/support/Diagnostic.h"

namespace spire {

std::string Diagnostic::format(std::string_view source) const {
  std::string out(source.empty() ? std::string_view("<input>") : source);
  if (location.kind == Location::Kind::Text)
    out += ":" + std::to_string(location.line) + ":" + std::to_string(location.column);
  switch (severity) {
  case Severity::Note:
    out += ": note: ";
    break;
  case Severity::Warning:
    out += ": warning: ";
    break;
  case Severity::Error:
    out += ": error: ";
    break;
  }
  if (location.kind == Location::Kind::Binary)
    out += "word " + std::to_string(location.wordOffset) + " (instruction " +
           std::to_string(location.instIndex) + "): ";
  if (location.kind == Location::Kind::Container) {
    out += location.scope[0] ? "part " + std::string(location.scopeName()) + ", " : "";
    out += "byte " + std::to_string(location.offset) + ": ";
  }
  if (location.kind == Location::Kind::Bitcode) {
    if (location.scope[0])
      out += std::string(location.scopeName()) + " ";
    out += "record " + std::to_string(location.instIndex) + " (bit " +
           std::to_string(location.offset) + "): ";
  }
  for (char c : message)
    out += (c == '\n' || c == '\r') ? ' ' : c;
  return out;
}

std::string Diagnostic::formatWithNotes(std::string_view source) const {
  std::string out = format(source);
  for (size_t i = 0; i < notes.size(); ++i)
    out += "\n" + note(i).format(source);
  return out;
}

} // namespace spire
