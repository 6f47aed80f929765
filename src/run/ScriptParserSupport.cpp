#include "ScriptParserSupport.h"

namespace spire::run::detail {

Component componentAt(const BufferFormat &format, size_t i) {
  uint32_t per = format.componentsPerElement();
  if (per == 0)
    return Component{};
  size_t want = i % per, seen = 0;
  for (const Segment &s : format.segments) {
    if (s.padding)
      continue;
    if (seen++ == want)
      return s.component;
  }
  return Component{};
}

bool valueFits(const Token &token, Component component) {
  if (!token.isNumber())
    return false;
  if (component.isFloat())
    return true;
  return token.kind != TokenKind::Double;
}

size_t encodedLength(const BufferFormat &format, size_t count) {
  uint32_t per = format.componentsPerElement();
  if (per == 0)
    return 0;
  size_t bytes = count / per * format.stride, rest = count % per, offset = 0;
  for (const Segment &s : format.segments) {
    if (rest == 0)
      break;
    offset += s.component.bits / 8;
    if (!s.padding && --rest == 0)
      bytes += offset;
  }
  return bytes;
}

void encodeValues(const BufferFormat &format, std::span<const Value> values,
                  std::vector<uint8_t> &out) {
  uint32_t per = format.componentsPerElement();
  if (per == 0 || format.stride == 0)
    return;
  size_t elements = (values.size() + per - 1) / per;
  out.assign(elements * format.stride, 0);
  size_t vi = 0;
  for (size_t e = 0; e < elements; ++e) {
    size_t offset = e * format.stride;
    for (const Segment &s : format.segments) {
      if (!s.padding && vi < values.size())
        writeComponent(s.component, values[vi++], out.data() + offset);
      offset += s.component.bits / 8;
    }
  }
}

} // namespace spire::run::detail
