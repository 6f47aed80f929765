// Building modules: instructions are appended to the sections they belong to, then the sections
// are joined and indexed into a Module.
#pragma once

#include "spire/grammar/Grammar.h"
#include "spire/module/Module.h"

#include <array>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace spire {

/// Appends one instruction to a word vector; the word count is filled in when the writer is
/// destroyed, so use it as a temporary: `InstWriter(words, Op::TypeInt).result(id).literal(32)`.
class InstWriter {
public:
  InstWriter(std::vector<uint32_t> &out, grammar::Op op) : out_(out), start_(out.size()) {
    out_.push_back(static_cast<uint32_t>(op));
  }
  InstWriter(const InstWriter &) = delete;
  InstWriter &operator=(const InstWriter &) = delete;
  ~InstWriter() {
    size_t count = out_.size() - start_;
    // A count that does not fit makes the instruction unreadable: the reader reports it.
    out_[start_] = (out_[start_] & 0xFFFF) | (count > 0xFFFF ? 0 : uint32_t(count) << 16);
  }

  InstWriter &id(uint32_t v) { return word(v); }
  InstWriter &ids(std::span<const uint32_t> v) { return words(v); }
  InstWriter &literal(uint32_t v) { return word(v); }
  InstWriter &literal64(uint64_t v) {
    word(static_cast<uint32_t>(v));
    return word(static_cast<uint32_t>(v >> 32));
  }
  /// A literal string: `s` up to its first NUL, if it has one.
  InstWriter &string(std::string_view s);
  InstWriter &word(uint32_t v) {
    out_.push_back(v);
    return *this;
  }
  InstWriter &words(std::span<const uint32_t> v) {
    out_.insert(out_.end(), v.begin(), v.end());
    return *this;
  }

private:
  std::vector<uint32_t> &out_;
  size_t start_;
};

class ModuleBuilder {
public:
  explicit ModuleBuilder(uint32_t version = grammar::makeVersion(1, 6), uint32_t generator = 0)
      : version_(version), generator_(generator) {}

  /// A fresh id; ids are handed out from 1 up.
  uint32_t newId() { return nextId_++; }
  /// Makes sure ids below `bound` are never handed out (for callers that number ids themselves).
  void reserveIds(uint32_t bound) {
    if (bound > nextId_)
      nextId_ = bound;
  }
  uint32_t bound() const { return nextId_; }

  /// Starts an instruction at the end of a section.
  InstWriter add(Section section, grammar::Op op) {
    return InstWriter(sections_[static_cast<unsigned>(section)], op);
  }
  /// Appends a complete instruction (opcode word with its count first).
  void append(Section section, std::span<const uint32_t> inst);
  std::vector<uint32_t> &sectionWords(Section section) {
    return sections_[static_cast<unsigned>(section)];
  }

  /// The words of the module: header (bound = the highest id handed out + 1), then the sections
  /// in layout order.
  std::vector<uint32_t> words() const;
  /// Joins the sections and reads them back as a Module, checking every instruction.
  Expected<Module> build(binary::DecodeOptions options = {}) const;

private:
  std::array<std::vector<uint32_t>, kSectionCount> sections_;
  uint32_t version_;
  uint32_t generator_;
  uint32_t nextId_ = 1;
};

} // namespace spire
