// PARAMATTR_GROUP_BLOCK and PARAMATTR_BLOCK: attribute groups (a set at a position) and the
// attribute lists functions and calls refer to. Sets are uniqued by content and sorted as LLVM
// sorts them.
#include "BitcodeReaderState.h"
#include "spire/dxil/LlvmAttributes.h"

#include <algorithm>

namespace spire::dxil::detail {

namespace {

/// Stores a set (sorting `attrs` in place) and returns its index, reusing an equal set.
uint32_t internSet(ReaderState &s, std::span<Attribute> attrs) {
  LlvmModule &m = s.m;
  auto less = [&](const Attribute &a, const Attribute &b) { return attributeLess(m, a, b); };
  if (attrs.size() <= 32) { // a stable insertion sort: sets are small, and this allocates nothing
    for (size_t i = 1; i < attrs.size(); ++i)
      for (size_t k = i; k > 0 && less(attrs[k], attrs[k - 1]); --k)
        std::swap(attrs[k], attrs[k - 1]);
  } else {
    std::stable_sort(attrs.begin(), attrs.end(), less);
  }
  // One attribute per kind (per key for strings), as LLVM keeps them: the first of each run.
  size_t count = size_t(std::unique(attrs.begin(), attrs.end(),
                                    [&](const Attribute &a, const Attribute &b) {
                                      return attributeSameKind(m, a, b);
                                    }) -
                        attrs.begin());
  std::span<const Attribute> unique = attrs.first(count);
  for (uint32_t i = 0; i < m.attributeSets.size(); ++i) {
    const AttributeSet &set = m.attributeSets[i];
    if (set.count != unique.size())
      continue;
    bool same = true;
    for (uint32_t k = 0; k < set.count && same; ++k)
      same = attributeEqual(m, m.attributes[set.first + k], unique[k]);
    if (same)
      return i;
  }
  AttributeSet set{uint32_t(m.attributes.size()), uint32_t(unique.size())};
  m.attributes.insert(m.attributes.end(), unique.begin(), unique.end());
  m.attributeSets.push_back(set);
  return uint32_t(m.attributeSets.size() - 1);
}

Status readGroup(ReaderState &s) {
  const auto &r = s.rec.ops;
  if (r.size() < 2)
    return s.error("attribute group record too short");
  if (r[0] > 0xFFFFFFFFu || r[1] > 0xFFFFFFFFu)
    return s.error("attribute group id or position out of range");
  ReaderState::Vector<Attribute> &attrs = s.attributeScratch;
  attrs.clear();
  for (size_t i = 2; i < r.size();) {
    Attribute a;
    uint64_t form = r[i++];
    auto readString = [&](StrRef &out) -> Status {
      size_t start = i;
      while (i < r.size() && r[i] != 0)
        ++i;
      if (i >= r.size())
        return s.error("attribute string without its terminator");
      out = s.addString(std::span<const uint64_t>(r).subspan(start, i - start));
      ++i;
      return {};
    };
    switch (form) {
    case 0:
    case 1:
    case 5:
    case 6: {
      if (i >= r.size())
        return s.error("attribute without its kind");
      uint64_t kind = r[i++];
      if (kind == 0 || kind >= kNumAttrKinds || attrKindName(AttrKind(kind)).empty())
        return s.error("unknown attribute kind " + std::to_string(kind));
      a.kind = AttrKind(kind);
      AttrForm expected = attrKindForm(a.kind);
      if (form == 1) {
        if (i >= r.size())
          return s.error("integer attribute without its value");
        a.form = Attribute::Form::Int;
        a.intValue = r[i++];
      } else if (form == 5 || form == 6) {
        a.form = Attribute::Form::Type;
        if (form == 5) {
          if (i >= r.size())
            return s.error("type attribute without its type");
          Expected<TypeId> t = s.type(r[i++]);
          if (!t)
            return t.error();
          a.type = *t;
        }
      } else {
        a.form = expected == AttrForm::Type ? Attribute::Form::Type : Attribute::Form::Enum;
      }
      if ((expected == AttrForm::Int) != (a.form == Attribute::Form::Int) &&
          !(expected == AttrForm::Int && form == 0))
        return s.error("attribute " + std::string(attrKindName(a.kind)) + " with the wrong form");
      if (a.form == Attribute::Form::Enum && expected == AttrForm::Int)
        a.form = Attribute::Form::Int; // an integer attribute written without its value
      break;
    }
    case 3:
    case 4:
      a.form = Attribute::Form::String;
      if (Status st = readString(a.key); !st)
        return st;
      if (form == 4)
        if (Status st = readString(a.value); !st)
          return st;
      break;
    default:
      return s.error("unknown attribute encoding " + std::to_string(form));
    }
    attrs.push_back(a);
  }
  ReaderState::Group g;
  g.id = uint32_t(r[0]);
  g.position = uint32_t(r[1]);
  g.set = internSet(s, attrs);
  for (ReaderState::Group &old : s.groups)
    if (old.id == g.id) {
      old = g;
      return {};
    }
  s.groups.push_back(g);
  return {};
}

Status readList(ReaderState &s) {
  LlvmModule &m = s.m;
  const auto &r = s.rec.ops;
  // Positions may repeat across groups: their sets merge. The groups' positions, in the order
  // they first appear, then each position's attributes gathered from its groups.
  ReaderState::Vector<uint32_t> &positions = s.positionScratch;
  ReaderState::Vector<const ReaderState::Group *> &groups = s.groupScratch;
  positions.clear();
  groups.clear();
  for (uint64_t id : r) {
    const ReaderState::Group *g = s.group(id);
    if (!g)
      return s.error("attribute list names group " + std::to_string(id) + " that does not exist");
    groups.push_back(g);
    if (std::find(positions.begin(), positions.end(), g->position) == positions.end())
      positions.push_back(g->position);
  }
  AttributeList list;
  list.first = uint32_t(m.attributeListEntries.size());
  for (uint32_t position : positions) {
    ReaderState::Vector<Attribute> &attrs = s.attributeScratch;
    attrs.clear();
    for (const ReaderState::Group *g : groups) {
      if (g->position != position)
        continue;
      const AttributeSet &set = m.attributeSets[g->set];
      attrs.insert(attrs.end(), m.attributes.begin() + set.first,
                   m.attributes.begin() + set.first + set.count);
    }
    if (attrs.empty())
      continue;
    m.attributeListEntries.push_back({position, internSet(s, attrs)});
  }
  list.count = uint32_t(m.attributeListEntries.size() - list.first);
  s.attributeListIds.push_back(uint32_t(m.attributeLists.size()));
  m.attributeLists.push_back(list);
  return {};
}

Status readBlock(ReaderState &s, bool groups) {
  for (;;) {
    BitstreamEntry e;
    if (!s.bs.next(e))
      return s.bs.takeError();
    if (e.kind == BitstreamEntry::Kind::EndBlock)
      return {};
    if (e.kind == BitstreamEntry::Kind::SubBlock) {
      if (Status st = s.bs.skipBlock(); !st)
        return st;
      continue;
    }
    if (e.kind != BitstreamEntry::Kind::Record)
      return s.bs.error("the data ends inside an attribute block");
    if (!s.bs.read(e.id, s.rec))
      return s.bs.takeError();
    if (groups && s.rec.code == 3) {
      if (Status st = readGroup(s); !st)
        return st;
    } else if (!groups && s.rec.code == 2) {
      if (Status st = readList(s); !st)
        return st;
    } else if (!groups && s.rec.code == 1) {
      return s.error("attributes from before LLVM 3.3 are not supported");
    }
  }
}

} // namespace

Status readParamAttrGroupBlock(ReaderState &s) { return readBlock(s, true); }
Status readParamAttrBlock(ReaderState &s) { return readBlock(s, false); }

} // namespace spire::dxil::detail
