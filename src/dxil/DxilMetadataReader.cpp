#include "DxilMetadataReader.h"
#include "ShortText.h"

#include <algorithm>
#include <bit>
#include <cstring>

namespace spire::dxil {

namespace {
/// a == b; every dx.* name (8 to 16 characters) in two loads of each.
bool sameText(std::string_view a, std::string_view b) {
  return a.size() == b.size() && detail::sameShortText(a.data(), b.data(), a.size());
}
} // namespace

std::span<const MetadataId> DxilMetadataReader::named(std::string_view name) {
  context_ = name;
  for (const NamedMetadata &n : m_.namedMetadata)
    if (n.name.size == name.size() && sameText(m_.str(n.name), name)) {
      if (uint64_t(n.firstOperand) + n.numOperands > m_.metadataOperands.size())
        return {};
      return {m_.metadataOperands.data() + n.firstOperand, n.numOperands};
    }
  return {};
}

void DxilMetadataReader::findNamed(const NamedSet &set) {
  static_assert(kMaxNamed <= 8, "a name's bit in a byte");
  namedNames_ = set.names;
  for (Found &f : namedFound_) // all of them: namedAt() past the set's names is empty too
    f = {nullptr, 0};
  // A named metadata is compared only with the names of its size not found yet.
  unsigned remaining = (1u << set.count) - 1;
  const size_t numOperands = m_.metadataOperands.size();
  for (const NamedMetadata &n : m_.namedMetadata) {
    for (unsigned candidates = set.bySize[std::min<size_t>(n.name.size, kNamedBySize)] & remaining;
         candidates; candidates &= candidates - 1) {
      const unsigned i = unsigned(std::countr_zero(candidates));
      const std::string_view name = set.names[i];
      if (n.name.size == name.size() && sameText(m_.str(n.name), name)) {
        remaining &= ~(1u << i); // the first of the name, as named()
        if (uint64_t(n.firstOperand) + n.numOperands <= numOperands)
          namedFound_[i] = {m_.metadataOperands.data() + n.firstOperand, n.numOperands};
        break;
      }
    }
    if (remaining == 0)
      break;
  }
}

bool DxilMetadataReader::hasNamed(std::string_view name) const {
  for (const NamedMetadata &n : m_.namedMetadata)
    if (m_.str(n.name) == name)
      return true;
  return false;
}

bool DxilMetadataReader::isNode(MetadataId id) const {
  if (id >= m_.metadata.size())
    return false;
  MetadataKind k = m_.metadata[id].kind;
  return k == MetadataKind::Node || k == MetadataKind::DistinctNode;
}

bool DxilMetadataReader::nodeSlow(MetadataId id, std::span<const MetadataId> &ops,
                                  size_t minOperands) {
  if (!isNode(id))
    return fail(id, "expected a metadata node");
  const Metadata &md = m_.metadata[id];
  if (uint64_t(md.firstOperand) + md.numOperands > m_.metadataOperands.size())
    return fail(id, "node operands out of range");
  ops = m_.operandsOf(md);
  if (ops.size() < minOperands)
    return fail(id, "expected at least " + std::to_string(minOperands) + " operands, found " +
                        std::to_string(ops.size()));
  return true;
}

bool DxilMetadataReader::integerSlow(MetadataId id, int64_t &out, std::string_view what) {
  if (id < m_.metadata.size() && m_.metadata[id].kind == MetadataKind::Value) {
    ValueId v = m_.metadata[id].value;
    if (v < m_.values.size() && m_.values[v].type < m_.types.size() && m_.constantInt(v, out))
      return true;
  }
  return fail(id, std::string(what) + ": expected an integer constant");
}

bool DxilMetadataReader::u32Slow(MetadataId id, uint32_t &out, std::string_view what) {
  int64_t v = 0;
  if (!integer(id, v, what))
    return false;
  if (v < INT32_MIN || v > int64_t(UINT32_MAX))
    return outOfRange(id, what);
  out = uint32_t(v);
  return true;
}

bool DxilMetadataReader::outOfRange(MetadataId id, std::string_view what) {
  return fail(id, std::string(what) + ": value out of 32-bit range");
}

bool DxilMetadataReader::floating(MetadataId id, double &out, std::string_view what) {
  if (id < m_.metadata.size() && m_.metadata[id].kind == MetadataKind::Value) {
    ValueId v = m_.metadata[id].value;
    const Constant *c = v < m_.values.size() ? m_.constant(v) : nullptr;
    if (c && c->type < m_.types.size()) {
      TypeKind k = m_.types[c->type].kind;
      if (c->kind == ConstantKind::Null && (k == TypeKind::Float || k == TypeKind::Double)) {
        out = 0;
        return true;
      }
      if (c->kind == ConstantKind::Float && k == TypeKind::Float) {
        out = std::bit_cast<float>(uint32_t(c->bits));
        return true;
      }
      if (c->kind == ConstantKind::Float && k == TypeKind::Double) {
        out = std::bit_cast<double>(c->bits);
        return true;
      }
    }
  }
  return fail(id, std::string(what) + ": expected a float constant");
}

bool DxilMetadataReader::string(MetadataId id, std::string &out, std::string_view what) {
  if (id < numMetadata_ && metadata_[id].kind == MetadataKind::String) [[likely]] {
    out = m_.str(metadata_[id].string);
    return true;
  }
  return stringSlow(id, what); // the message's frame out of this path
}

bool DxilMetadataReader::stringSlow(MetadataId id, std::string_view what) {
  return fail(id, std::string(what) + ": expected a string");
}

bool DxilMetadataReader::textSlow(MetadataId id, std::string_view &out, std::string_view what) {
  if (id < m_.metadata.size() && m_.metadata[id].kind == MetadataKind::String) {
    out = m_.str(m_.metadata[id].string);
    return true;
  }
  return fail(id, std::string(what) + ": expected a string");
}

bool DxilMetadataReader::valueSlow(MetadataId id, ValueId &out, std::string_view what) {
  out = kNoId;
  if (id == kNoId)
    return true;
  if (id < m_.metadata.size() && m_.metadata[id].kind == MetadataKind::Value &&
      m_.metadata[id].value < m_.values.size()) {
    out = m_.metadata[id].value;
    return true;
  }
  return fail(id, std::string(what) + ": expected a value");
}

ValueId DxilMetadataReader::stripCasts(ValueId v) const {
  for (int depth = 0; depth < 8 && v < m_.values.size(); ++depth) {
    const Value &val = m_.values[v];
    if (val.kind == ValueKind::GlobalVariable || val.kind == ValueKind::Function)
      return v;
    const Constant *c = m_.constant(v);
    if (!c || c->kind != ConstantKind::Expr || c->numOperands == 0 ||
        uint64_t(c->firstOperand) + c->numOperands > m_.operands.size())
      return kNoId;
    v = m_.operands[c->firstOperand];
  }
  return kNoId;
}

bool DxilMetadataReader::fail(MetadataId id, std::string_view message) {
  if (error_)
    return false;
  std::string text = context_.empty() ? std::string("metadata") : "!" + std::string(context_);
  if (id != kNoId)
    text += ": metadata #" + std::to_string(id);
  text += ": ";
  text += message;
  error_ = makeError(Location(), std::move(text));
  return false;
}

} // namespace spire::dxil
