// --split-input-file and --verify-diagnostics: see SplitInput.h. The splitting and matching
// rules are those MLIR's tools follow (../shared/docs/notes/mlir_testing.md, sections 3 and 4).
#include "SplitInput.h"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <regex>

namespace spire::tool {

namespace {

constexpr std::string_view kMarker = "// -----";

uint32_t countLines(std::string_view text) {
  return uint32_t(std::count(text.begin(), text.end(), '\n'));
}

InputChunk makeChunk(std::string_view whole, size_t begin, size_t end) {
  InputChunk c;
  uint32_t before = countLines(whole.substr(0, begin));
  c.firstLine = before + 1;
  c.text.assign(before, '\n');
  c.text.append(whole.substr(begin, end - begin));
  return c;
}

} // namespace

std::vector<InputChunk> splitInput(std::string_view text, bool split) {
  std::vector<InputChunk> chunks;
  if (!split) {
    chunks.push_back(makeChunk(text, 0, text.size()));
    return chunks;
  }
  // MLIR splits at every "// ---" followed by "--" and a third byte that is not '0'; the chunk
  // goes on right after the marker (normally the newline that ends its line).
  const std::string_view head = kMarker.substr(0, kMarker.size() - 2);
  size_t chunkBegin = 0, search = 0;
  while (true) {
    size_t at = text.find(head, search);
    if (at == std::string_view::npos)
      break;
    size_t rest = at + head.size();
    if (text.substr(rest, 2) == "--" && rest + 2 < text.size() && text[rest + 2] != '0') {
      chunks.push_back(makeChunk(text, chunkBegin, at));
      chunkBegin = rest + 2;
    } else if (text.substr(rest, 2) == "--" && rest + 2 == text.size()) {
      chunks.push_back(makeChunk(text, chunkBegin, at));
      chunkBegin = text.size();
    }
    search = rest;
  }
  if (chunkBegin < text.size())
    chunks.push_back(makeChunk(text, chunkBegin, text.size()));
  return chunks;
}

namespace {

/// One line's annotation, if it is one: the ERE
/// `expected-(error|note|remark|warning)(-re)? *(@([+-][0-9]+|above|below|unknown))? *{{(.*)}}$`
/// searched anywhere in the line (trailing blanks trimmed).
struct Annotation {
  Severity severity;
  bool remark = false, regex = false;
  enum class Where { Here, Offset, Above, Below, Unknown } where = Where::Here;
  int offset = 0;
  std::string message;
};

std::optional<Annotation> parseAnnotation(std::string_view line) {
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r'))
    line.remove_suffix(1);
  size_t from = 0;
  while (true) {
    size_t at = line.find("expected-", from);
    if (at == std::string_view::npos)
      return std::nullopt;
    from = at + 1;
    std::string_view s = line.substr(at + 9);
    Annotation a;
    if (s.starts_with("error"))
      a.severity = Severity::Error, s.remove_prefix(5);
    else if (s.starts_with("warning"))
      a.severity = Severity::Warning, s.remove_prefix(7);
    else if (s.starts_with("note"))
      a.severity = Severity::Note, s.remove_prefix(4);
    else if (s.starts_with("remark"))
      a.severity = Severity::Note, a.remark = true, s.remove_prefix(6);
    else
      continue;
    if (s.starts_with("-re"))
      a.regex = true, s.remove_prefix(3);
    auto skipSpaces = [&] {
      while (!s.empty() && s[0] == ' ')
        s.remove_prefix(1);
    };
    skipSpaces();
    if (s.starts_with("@")) {
      s.remove_prefix(1);
      if (s.starts_with("above"))
        a.where = Annotation::Where::Above, s.remove_prefix(5);
      else if (s.starts_with("below"))
        a.where = Annotation::Where::Below, s.remove_prefix(5);
      else if (s.starts_with("unknown"))
        a.where = Annotation::Where::Unknown, s.remove_prefix(7);
      else if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
        bool minus = s[0] == '-';
        s.remove_prefix(1);
        size_t digits = 0;
        while (digits < s.size() && s[digits] >= '0' && s[digits] <= '9')
          ++digits;
        if (digits == 0 || digits > 6)
          continue;
        int n = std::stoi(std::string(s.substr(0, digits)));
        s.remove_prefix(digits);
        a.where = Annotation::Where::Offset;
        a.offset = minus ? -n : n;
      } else
        continue;
      skipSpaces();
    }
    // `{{` then everything up to the last `}}`, which must end the line.
    if (!s.starts_with("{{") || s.size() < 4 || !s.ends_with("}}"))
      continue;
    a.message = std::string(s.substr(2, s.size() - 4));
    return a;
  }
}

bool isAnnotationLine(std::string_view line) { return parseAnnotation(line).has_value(); }

/// The pattern of an `-re` annotation: text outside `{{...}}` literal, inside a regex.
std::string regexOf(std::string_view message) {
  std::string out;
  size_t pos = 0;
  while (pos < message.size()) {
    size_t open = message.find("{{", pos);
    std::string_view literal =
        message.substr(pos, open == std::string_view::npos ? std::string_view::npos : open - pos);
    for (char c : literal) {
      if (std::string_view(".[]{}()\\*+?|^$").find(c) != std::string_view::npos)
        out += '\\';
      out += c;
    }
    if (open == std::string_view::npos)
      break;
    size_t close = message.find("}}", open + 2);
    if (close == std::string_view::npos) {
      out += std::string(message.substr(open));
      break;
    }
    out += "(" + std::string(message.substr(open + 2, close - open - 2)) + ")";
    pos = close + 2;
  }
  return out;
}

const char *kindName(Severity s, bool remark) {
  if (remark)
    return "remark";
  switch (s) {
  case Severity::Error:
    return "error";
  case Severity::Warning:
    return "warning";
  case Severity::Note:
    return "note";
  }
  return "error";
}

} // namespace

std::vector<ExpectedDiagnostic>
expectedDiagnostics(std::string_view chunk,
                    const std::function<void(const Diagnostic &)> &problem) {
  std::vector<std::string_view> lines;
  for (size_t pos = 0; pos <= chunk.size();) {
    size_t end = chunk.find('\n', pos);
    if (end == std::string_view::npos)
      end = chunk.size();
    lines.push_back(chunk.substr(pos, end - pos));
    pos = end + 1;
  }
  std::vector<ExpectedDiagnostic> out;
  for (size_t i = 0; i < lines.size(); ++i) {
    std::optional<Annotation> a = parseAnnotation(lines[i]);
    if (!a)
      continue;
    ExpectedDiagnostic e;
    e.severity = a->severity;
    e.remark = a->remark;
    e.regex = a->regex;
    e.message = a->message;
    e.annotationLine = uint32_t(i + 1);
    long target = long(i) + 1;
    switch (a->where) {
    case Annotation::Where::Here:
    case Annotation::Where::Unknown:
      break;
    case Annotation::Where::Offset:
      target += a->offset;
      break;
    case Annotation::Where::Above: {
      long j = long(i) - 1;
      while (j >= 0 && isAnnotationLine(lines[size_t(j)]))
        --j;
      target = j + 1;
      break;
    }
    case Annotation::Where::Below: {
      size_t j = i + 1;
      while (j < lines.size() && isAnnotationLine(lines[j]))
        ++j;
      target = long(j) + 1;
      break;
    }
    }
    if (a->where == Annotation::Where::Unknown)
      target = 0;
    else if (target < 1 || size_t(target) > lines.size()) {
      problem(makeError(Location::text(uint32_t(i + 1), 1),
                        "expected diagnostic designator points outside the input"));
      continue;
    }
    e.line = uint32_t(target);
    if (e.regex) {
      try {
        std::regex check(regexOf(e.message), std::regex::extended);
      } catch (const std::regex_error &) {
        problem(makeError(Location::text(uint32_t(i + 1), 1),
                          "invalid regular expression in '" + e.message + "'"));
        continue;
      }
    }
    out.push_back(std::move(e));
  }
  return out;
}

bool checkExpectedDiagnostics(std::vector<ExpectedDiagnostic> &expected,
                              const std::vector<Diagnostic> &produced, std::string_view source) {
  bool ok = true;
  auto print = [&](uint32_t line, const std::string &message) {
    std::fprintf(stderr, "%.*s:%u: error: %s\n", int(source.size()), source.data(), line,
                 message.c_str());
  };
  for (const Diagnostic &d : produced) {
    uint32_t line = d.location.kind == Location::Kind::Text ? d.location.line : 0;
    auto textMatches = [&](const ExpectedDiagnostic &e) {
      if (e.line != line)
        return false;
      if (!e.regex)
        return d.message.find(e.message) != std::string::npos;
      return std::regex_search(d.message, std::regex(regexOf(e.message), std::regex::extended));
    };
    ExpectedDiagnostic *match = nullptr, *nearMiss = nullptr;
    for (ExpectedDiagnostic &e : expected) {
      if (!textMatches(e))
        continue;
      if (e.severity == d.severity && !e.remark) {
        match = &e;
        break;
      }
      if (!nearMiss)
        nearMiss = &e;
    }
    if (match) {
      match->seen = true;
      continue;
    }
    ok = false;
    if (nearMiss) {
      nearMiss->seen = true;
      print(nearMiss->annotationLine, "'" + std::string(kindName(d.severity, false)) +
                                          "' diagnostic emitted when expecting a '" +
                                          kindName(nearMiss->severity, nearMiss->remark) + "'");
    } else {
      print(line, "unexpected " + std::string(kindName(d.severity, false)) + ": " + d.message);
    }
  }
  for (const ExpectedDiagnostic &e : expected)
    if (!e.seen) {
      ok = false;
      print(e.annotationLine, "expected " + std::string(kindName(e.severity, e.remark)) + " \"" +
                                  e.message + "\" was not produced");
    }
  return ok;
}

bool runChunks(std::string_view text, std::string_view source, bool split, bool verifyDiagnostics,
               const ChunkAction &action, std::string_view separator, std::string &out) {
  bool ok = true;
  std::vector<InputChunk> chunks = splitInput(text, split);
  for (size_t i = 0; i < chunks.size(); ++i) {
    if (i > 0)
      out += separator;
    const InputChunk &chunk = chunks[i];
    std::vector<Diagnostic> produced;
    std::string chunkOut;
    if (!verifyDiagnostics) {
      bool done = action(chunk, chunkOut, [&](const Diagnostic &d) {
        std::fprintf(stderr, "%s\n", d.formatWithNotes(source).c_str());
      });
      if (done)
        out += chunkOut;
      ok = ok && done;
      continue;
    }
    bool annotationsOk = true;
    std::vector<ExpectedDiagnostic> expected =
        expectedDiagnostics(chunk.text, [&](const Diagnostic &d) {
          std::fprintf(stderr, "%s\n", d.format(source).c_str());
          annotationsOk = false;
        });
    // A diagnostic's notes are checked as diagnostics of their own, as MLIR's verifier does.
    bool done = action(chunk, chunkOut, [&](const Diagnostic &d) {
      produced.push_back(d);
      for (size_t n = 0; n < d.notes.size(); ++n)
        produced.push_back(d.note(n));
    });
    if (done)
      out += chunkOut;
    ok = checkExpectedDiagnostics(expected, produced, source) && annotationsOk && ok;
  }
  return ok;
}

} // namespace spire::tool
