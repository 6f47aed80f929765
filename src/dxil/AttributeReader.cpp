// PARAMATTR_GROUP_BLOCK and PARAMATTR_BLOCK: attribute groups (a set at a position) and the
// attribute lists functions and calls refer to. Sets are uniqued by content and sorted as LLVM
// sorts them.
#include "BitcodeReaderState.h"
#include "PerThread.h"
#include "ReaderSupport.h"
#include "spire/dxil/LlvmAttributes.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

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
    for (uint32_t k = 0; k < set.count && same; ++k) {
      // (attributeEqual, its common case inline: most sets hold enum and integer attributes)
      const Attribute &a = m.attributes[set.first + k], &b = unique[k];
      same = a.form != b.form ? false
             : a.form != Attribute::Form::String
                 ? a.kind == b.kind && a.intValue == b.intValue && a.type == b.type
                 : attributeEqual(m, a, b);
    }
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
  if (attrs.capacity() == 0) // (room made at the first use: most programs never read a group)
    attrs.reserve(16);
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
    if (attrs.capacity() == 0)
      attrs.reserve(16);
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

/// Attribute blocks this thread has read. Programs from one writer carry a few distinct pairs of
/// group and list blocks, in unabbreviated records: what a block adds to the attribute tables is
/// a function of its width, its bytes and what the tables held before it (for a list block, the
/// groups). So each remembered block names the table state it was read in and the state it
/// left; a block equal to one read in the same state gives what that one added, with the
/// strings it refers to copied (only their offsets in the module's strings differ).
class AttributeBlockMemo {
public:
  static constexpr unsigned kSlots = 32;
  static constexpr size_t kMaxBytes = 4096;
  struct Entry {
    uint64_t before = 0, after = 0; ///< the table states (see ReaderState::attributeState)
    uint64_t sample = 0;            ///< bodySample() of the body
    RememberedBody body;
    std::string strings; ///< the strings of `attributes`, whose offsets are relative to it
    std::vector<Attribute> attributes;
    /// Which of `attributes` are strings (the ones whose offsets move): a pass over these alone.
    std::vector<uint32_t> stringAttributes;
    std::vector<AttributeSet> sets;
    std::vector<AttributeList::Entry> listEntries;
    std::vector<AttributeList> lists;
    std::vector<uint32_t> listIds;
    std::vector<ReaderState::Group> groups; ///< all groups after the block
  };

  /// The entry found last for a state like `state` is tried first: a program's group block is
  /// read in the first state and its list block in the state the group block left, so a run of
  /// programs from one writer finds the same two entries again (without a pass over the slots).
  const Entry *find(uint64_t state, const BitstreamReader::BlockBody &body) {
    auto accept = [&](const Entry &e) {
      return e.after != 0 && e.before == state && e.sample == bodySample(body.bytes) &&
             e.body.matches(body);
    };
    const Entry *&hint = hints_[state % kHints];
    if (hint && accept(*hint))
      return hint;
    const Entry *e = ring_.find(body, accept);
    if (e)
      hint = e;
    return e;
  }
  /// The slot of the oldest entry, emptied (its storage kept for the new one), for `body`.
  Entry &insert(const BitstreamReader::BlockBody &body) {
    Entry &e = ring_.insert(body);
    e.strings.clear();
    e.attributes.clear();
    e.stringAttributes.clear();
    e.after = ++lastState_;
    return e;
  }
  static AttributeBlockMemo &forThread() { return detail::perThread<AttributeBlockMemo>(); }

private:
  static constexpr unsigned kHints = 8;
  BlockRing<Entry, kSlots> ring_;
  const Entry *hints_[kHints] = {}; ///< a slot's entry, checked in full before it is used
  uint64_t lastState_ = 0;
};

/// The attribute tables' sizes when a block starts: what the block adds is what lies past them.
struct AttributeTableSizes {
  explicit AttributeTableSizes(const ReaderState &s)
      : attributes(s.m.attributes.size()), sets(s.m.attributeSets.size()),
        listEntries(s.m.attributeListEntries.size()), lists(s.m.attributeLists.size()),
        listIds(s.attributeListIds.size()) {}
  size_t attributes, sets, listEntries, lists, listIds;
};

/// A block equal to one the memo holds, read in the same table state: its additions, and true
/// (for a reader that remembers: its caller tests that inline, so spire dis never calls this).
bool fromMemo(ReaderState &s) {
  if (s.attributeState == ReaderState::kUnknownAttributes)
    return false;
  const BitstreamReader::BlockBody body = s.bs.blockBody();
  if (body.bytes.empty())
    return false;
  const AttributeBlockMemo::Entry *e = AttributeBlockMemo::forThread().find(s.attributeState, body);
  if (!e)
    return false;
  LlvmModule &m = s.m;
  // (A group block adds attributes and sets, a list block list entries, lists and ids: the
  // tables it adds nothing to are not touched.)
  if (!e->attributes.empty()) {
    const uint32_t base = s.addString(e->strings).offset;
    const size_t first = m.attributes.size();
    m.attributes.insert(m.attributes.end(), e->attributes.begin(), e->attributes.end());
    Attribute *added = m.attributes.data() + first;
    for (uint32_t i : e->stringAttributes) {
      added[i].key.offset += base;
      added[i].value.offset += base;
    }
  }
  if (!e->sets.empty())
    m.attributeSets.insert(m.attributeSets.end(), e->sets.begin(), e->sets.end());
  if (!e->listEntries.empty())
    m.attributeListEntries.insert(m.attributeListEntries.end(), e->listEntries.begin(),
                                  e->listEntries.end());
  if (!e->lists.empty())
    m.attributeLists.insert(m.attributeLists.end(), e->lists.begin(), e->lists.end());
  if (!e->listIds.empty())
    s.attributeListIds.insert(s.attributeListIds.end(), e->listIds.begin(), e->listIds.end());
  s.groups.assign(e->groups.begin(), e->groups.end());
  s.attributeState = e->after;
  s.bs.leaveBlock();
  return true;
}

/// After a block read without error in a known state: remembers what it added (see
/// AttributeBlockMemo) and names the new state; a block that cannot be remembered makes the
/// state unknown.
void rememberAttributes(ReaderState &s, const BitstreamReader::BlockBody &body,
                        const AttributeTableSizes &from, bool plain) {
  const LlvmModule &m = s.m;
  bool typed = false;
  for (size_t i = from.attributes; i < m.attributes.size(); ++i)
    typed = typed || m.attributes[i].form == Attribute::Form::Type;
  if (!plain || typed || body.bytes.empty() || body.bytes.size() > AttributeBlockMemo::kMaxBytes ||
      s.attributeState == ReaderState::kUnknownAttributes) {
    s.attributeState = ReaderState::kUnknownAttributes;
    return;
  }
  AttributeBlockMemo::Entry &e = AttributeBlockMemo::forThread().insert(body);
  e.before = s.attributeState;
  e.body.assign(body);
  e.sample = bodySample(body.bytes);
  for (size_t i = from.attributes; i < m.attributes.size(); ++i) {
    Attribute a = m.attributes[i];
    if (a.form == Attribute::Form::String) {
      std::string_view key = m.str(a.key), value = m.str(a.value);
      a.key.offset = uint32_t(e.strings.size());
      e.strings += key;
      a.value.offset = uint32_t(e.strings.size());
      e.strings += value;
      e.stringAttributes.push_back(uint32_t(e.attributes.size()));
    }
    e.attributes.push_back(a);
  }
  e.sets.assign(m.attributeSets.begin() + from.sets, m.attributeSets.end());
  e.listEntries.assign(m.attributeListEntries.begin() + from.listEntries,
                       m.attributeListEntries.end());
  e.lists.assign(m.attributeLists.begin() + from.lists, m.attributeLists.end());
  e.listIds.assign(s.attributeListIds.begin() + from.listIds, s.attributeListIds.end());
  e.groups.assign(s.groups.begin(), s.groups.end());
  s.attributeState = e.after;
}

Status readBlock(ReaderState &s, bool groups) {
  const bool watch = s.bs.remembers() && s.attributeState != ReaderState::kUnknownAttributes;
  const BitstreamReader::BlockBody body = watch ? s.bs.blockBody() : BitstreamReader::BlockBody{};
  const AttributeTableSizes from(s);
  bool plain = true; // unabbreviated records only, no sub-blocks
  BitstreamEntry e;  // (next() sets it in a block: not reset for every entry)
  for (;;) {
    if (!s.bs.next(e))
      return s.bs.takeError();
    if (e.kind == BitstreamEntry::Kind::EndBlock) {
      if (watch)
        rememberAttributes(s, body, from, plain);
      else
        s.attributeState = ReaderState::kUnknownAttributes;
      return {};
    }
    if (e.kind == BitstreamEntry::Kind::SubBlock) {
      plain = false;
      if (Status st = s.bs.skipBlock(); !st)
        return st;
      continue;
    }
    if (e.kind != BitstreamEntry::Kind::Record)
      return s.bs.error("the data ends inside an attribute block");
    plain = plain && e.id == kAbbrevUnabbreviatedRecord;
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

bool attributesFromMemo(ReaderState &s) { return fromMemo(s); }
Status readParamAttrGroupBlock(ReaderState &s) { return readBlock(s, true); }
Status readParamAttrBlock(ReaderState &s) { return readBlock(s, false); }

} // namespace spire::dxil::detail
