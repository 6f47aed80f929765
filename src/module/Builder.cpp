#include "spire/module/Builder.h"

#include "spire/binary/Literal.h"

namespace spire {

InstWriter &InstWriter::string(std::string_view s) {
  // A literal string ends at its first NUL: what follows cannot be encoded (written whole, it
  // would leave the instruction longer than its string reads, and the module unreadable).
  binary::appendString(out_, s.substr(0, s.find('\0')));
  return *this;
}

void ModuleBuilder::append(Section section, std::span<const uint32_t> inst) {
  auto &out = sections_[static_cast<unsigned>(section)];
  out.insert(out.end(), inst.begin(), inst.end());
}

std::vector<uint32_t> ModuleBuilder::words() const {
  size_t total = binary::kHeaderWords;
  for (const auto &s : sections_)
    total += s.size();
  std::vector<uint32_t> out;
  out.reserve(total);
  out.insert(out.end(), {binary::kMagic, version_, generator_, nextId_, 0u});
  for (const auto &s : sections_)
    out.insert(out.end(), s.begin(), s.end());
  return out;
}

Expected<Module> ModuleBuilder::build(binary::DecodeOptions options) const {
  return Module::fromWords(words(), options);
}

} // namespace spire
