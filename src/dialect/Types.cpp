#include "spire/dialect/Types.h"

#include "AttrStore.h"
#include "UnregisteredOps.h"

#include "spire/grammar/Grammar.h"

#include <algorithm>
#include <bit>
#include <deque>
#include <unordered_map>

namespace spire::dialect {

namespace detail {

/// A float type without an FP Encoding operand (an IEEE binary float).
constexpr uint32_t kNoEncoding = ~0u;

struct TypeStorage {
  TypeKind kind = TypeKind::None;
  Signedness signedness = Signedness::Signless;
  // Each number has its own field; a kind leaves those it has not 0.
  uint32_t width = 0;        ///< Integer, Float: bits
  uint32_t count = 0;        ///< Vector components, Array length, Matrix columns, coop rows
  uint32_t stride = 0;       ///< Array, RuntimeArray, Pointer: ArrayStride (0: none)
  uint32_t storageClass = 0; ///< Pointer
  uint32_t columns = 0, scope = 0, use = 0; ///< CooperativeMatrix (use ~0u: NV's, without one)
  uint32_t layout = 0;                      ///< JointMatrix (columns and scope too)
  uint32_t opcode = 0;                      ///< Opaque: the declaring opcode
  uint32_t encoding = kNoEncoding;          ///< Float: the FP Encoding operand
  Type element;
  ImageInfo image;
  std::vector<Type> list;    // function inputs
  std::vector<Type> results; // function results
  std::vector<StructMember> members;
  std::vector<MemberDecoration> structDecorations;
  std::vector<uint32_t> words; // opaque types' operand words
  std::string name;            // identified structs, an array's length symbol
  // A cooperative matrix's operands that are specialization constants: their symbols in
  // CoopOperand order ("" for literals), or empty when all are literals.
  std::vector<std::string> symbols;
  bool identified = false, hasBody = true;
};

} // namespace detail

namespace {

// The uniquing key of a type: its kind and parameters, with nested types by address. It is
// hashed, compared and (for a new type) copied at every unique(), so it is kept short: the
// numbers every type has as 32-bit words written at once, an image's own fields only for an
// image (a kind leaves the fields it has not as they were made), and of the lists only those
// that are not empty, after a word that says which.
void keyOf(const detail::TypeStorage &s, std::string &k) {
  const uint64_t element = reinterpret_cast<uintptr_t>(s.element.opaque());
  constexpr uint32_t kList = 1, kResults = 2, kMembers = 4, kWords = 8, kName = 16,
                     kStructDecorations = 32, kSymbols = 64;
  const uint32_t present = (s.list.empty() ? 0 : kList) | (s.results.empty() ? 0 : kResults) |
                           (s.members.empty() ? 0 : kMembers) | (s.words.empty() ? 0 : kWords) |
                           (s.name.empty() ? 0 : kName) |
                           (s.structDecorations.empty() ? 0 : kStructDecorations) |
                           (s.symbols.empty() ? 0 : kSymbols);
  const uint32_t fixed[] = {static_cast<uint32_t>(s.kind) | static_cast<uint32_t>(s.signedness)
                                                                << 8,
                            s.width,
                            s.count,
                            s.stride,
                            s.storageClass,
                            s.columns,
                            s.scope,
                            s.use,
                            s.layout,
                            s.opcode,
                            s.encoding,
                            static_cast<uint32_t>(element),
                            static_cast<uint32_t>(element >> 32),
                            present};
  k.clear();
  k.append(reinterpret_cast<const char *>(fixed), sizeof fixed);
  auto put = [&](uint64_t v) { k.append(reinterpret_cast<const char *>(&v), sizeof v); };
  auto put32 = [&](uint32_t v) { k.append(reinterpret_cast<const char *>(&v), sizeof v); };
  auto putType = [&](Type t) { put(reinterpret_cast<uintptr_t>(t.opaque())); };
  auto putDecoration = [&](const MemberDecoration &d) {
    put(d.decoration);
    put(d.value ? uint64_t(*d.value) : ~uint64_t(0));
    put(d.text ? d.text->size() : ~uint64_t(0));
    if (d.text)
      k.append(*d.text);
  };
  if (s.kind == TypeKind::Image) {
    const ImageInfo &i = s.image;
    putType(i.sampledType);
    const uint32_t fields[] = {i.dim, i.depth, i.arrayed, i.ms, i.sampled, i.format, i.access};
    k.append(reinterpret_cast<const char *>(fields), sizeof fields);
  }
  if (present == 0)
    return;
  if (present & kList) {
    put32(static_cast<uint32_t>(s.list.size()));
    for (Type t : s.list)
      putType(t);
  }
  if (present & kResults) {
    put32(static_cast<uint32_t>(s.results.size()));
    for (Type t : s.results)
      putType(t);
  }
  if (present & kMembers) {
    put32(static_cast<uint32_t>(s.members.size()));
    for (const StructMember &m : s.members) {
      putType(m.type);
      put(m.offset ? uint64_t(*m.offset) : ~uint64_t(0));
      put(m.decorations.size());
      for (const MemberDecoration &d : m.decorations)
        putDecoration(d);
    }
  }
  if (present & kWords) {
    put32(static_cast<uint32_t>(s.words.size()));
    for (uint32_t w : s.words)
      put32(w);
  }
  if (present & kName) { // an array's length symbol (identified structs are not uniqued here)
    put(s.name.size());
    k.append(s.name);
  }
  if (present & kStructDecorations) {
    put32(static_cast<uint32_t>(s.structDecorations.size()));
    for (const MemberDecoration &d : s.structDecorations)
      putDecoration(d);
  }
  if (present & kSymbols) {
    put32(static_cast<uint32_t>(s.symbols.size()));
    for (const std::string &symbol : s.symbols) {
      put(symbol.size());
      k.append(symbol);
    }
  }
}

const detail::TypeStorage &storage(const detail::TypeStorage *s) { return *s; }

} // namespace

struct Context::Impl {
  std::deque<detail::TypeStorage> types;
  std::unordered_map<std::string, const detail::TypeStorage *, detail::KeyHash> uniqued;
  std::string key; ///< unique()'s scratch: the key of the type looked up, reused
  std::unordered_map<std::string, detail::TypeStorage *> identified;
};

Context::Context()
    : impl_(std::make_unique<Impl>()), attrs_(std::make_unique<detail::AttrStore>()) {}
Context::~Context() = default;

Type Context::unique(detail::TypeStorage &&key) {
  // Looked up without allocating: only a new type's key is copied into the map.
  std::string &k = impl_->key;
  keyOf(key, k);
  auto it = impl_->uniqued.find(k);
  if (it != impl_->uniqued.end())
    return Type(it->second);
  impl_->types.push_back(std::move(key));
  const detail::TypeStorage *s = &impl_->types.back();
  impl_->uniqued.emplace(k, s);
  return Type(s);
}

Type Context::none() {
  detail::TypeStorage s;
  s.kind = TypeKind::None;
  return unique(std::move(s));
}

Type Context::integer(unsigned width, Signedness signedness) {
  detail::TypeStorage s;
  s.kind = TypeKind::Integer;
  s.width = width;
  s.signedness = signedness;
  return unique(std::move(s));
}

Type Context::floating(unsigned width, std::optional<uint32_t> encoding) {
  detail::TypeStorage s;
  s.kind = TypeKind::Float;
  s.width = width;
  s.encoding = encoding.value_or(detail::kNoEncoding);
  return unique(std::move(s));
}

Type Context::vector(Type element, uint32_t count) {
  detail::TypeStorage s;
  s.kind = TypeKind::Vector;
  s.element = element;
  s.count = count;
  return unique(std::move(s));
}

Type Context::array(Type element, uint32_t count, uint32_t stride) {
  detail::TypeStorage s;
  s.kind = TypeKind::Array;
  s.element = element;
  s.count = count;
  s.stride = stride;
  return unique(std::move(s));
}

Type Context::specArray(Type element, std::string_view lengthSymbol, uint32_t stride) {
  detail::TypeStorage s;
  s.kind = TypeKind::Array;
  s.element = element;
  s.stride = stride;
  s.name = lengthSymbol;
  return unique(std::move(s));
}

Type Context::runtimeArray(Type element, uint32_t stride) {
  detail::TypeStorage s;
  s.kind = TypeKind::RuntimeArray;
  s.element = element;
  s.stride = stride;
  return unique(std::move(s));
}

Type Context::pointer(Type pointee, uint32_t storageClass, uint32_t stride) {
  detail::TypeStorage s;
  s.kind = TypeKind::Pointer;
  s.element = pointee;
  s.storageClass = storageClass;
  s.stride = stride;
  return unique(std::move(s));
}

Type Context::image(const ImageInfo &info) {
  detail::TypeStorage s;
  s.kind = TypeKind::Image;
  s.image = info;
  s.element = info.sampledType;
  return unique(std::move(s));
}

Type Context::sampledImage(Type image) {
  detail::TypeStorage s;
  s.kind = TypeKind::SampledImage;
  s.element = image;
  return unique(std::move(s));
}

Type Context::sampler() {
  detail::TypeStorage s;
  s.kind = TypeKind::Sampler;
  return unique(std::move(s));
}

Type Context::matrix(Type column, uint32_t columns) {
  detail::TypeStorage s;
  s.kind = TypeKind::Matrix;
  s.element = column;
  s.count = columns;
  return unique(std::move(s));
}

Type Context::cooperativeMatrix(Type element, uint32_t rows, uint32_t columns, uint32_t scope,
                                uint32_t use) {
  const CoopParam params[] = {{scope, {}}, {rows, {}}, {columns, {}}, {use, {}}};
  return cooperativeMatrix(element, std::span(params, use == ~0u ? 3 : 4));
}

Type Context::jointMatrix(Type element, uint32_t rows, uint32_t columns, uint32_t layout,
                          uint32_t scope) {
  detail::TypeStorage s;
  s.kind = TypeKind::JointMatrix;
  s.element = element;
  s.count = rows;
  s.columns = columns;
  s.layout = layout;
  s.scope = scope;
  s.use = ~0u; // (hasUse: a cooperative matrix's)
  return unique(std::move(s));
}

Type Context::cooperativeMatrix(Type element, std::span<const CoopParam> params) {
  detail::TypeStorage s;
  s.kind = TypeKind::CooperativeMatrix;
  s.element = element;
  uint32_t *fields[] = {&s.scope, &s.count, &s.columns, &s.use}; // in CoopOperand order
  s.use = ~0u;
  bool bySymbol = false;
  for (size_t k = 0; k < params.size() && k < 4; ++k) {
    *fields[k] = params[k].symbol.empty() ? params[k].value : 0;
    bySymbol |= !params[k].symbol.empty();
  }
  if (bySymbol)
    for (size_t k = 0; k < 4; ++k)
      s.symbols.emplace_back(k < params.size() ? params[k].symbol : std::string_view());
  return unique(std::move(s));
}

namespace {
/// The storage of a function or graph type.
detail::TypeStorage signature(TypeKind kind, std::span<const Type> inputs,
                              std::span<const Type> results) {
  detail::TypeStorage s;
  s.kind = kind;
  s.list.assign(inputs.begin(), inputs.end());
  s.results.assign(results.begin(), results.end());
  return s;
}
} // namespace

Type Context::function(std::span<const Type> inputs, std::span<const Type> results) {
  return unique(signature(TypeKind::Function, inputs, results));
}

Type Context::tensor(Type element, std::span<const uint32_t> shape) {
  detail::TypeStorage s;
  s.kind = TypeKind::Tensor;
  s.element = element;
  s.count = static_cast<uint32_t>(shape.size());
  s.words.assign(shape.begin(), shape.end());
  return unique(std::move(s));
}

Type Context::graphArm(std::span<const Type> inputs, std::span<const Type> results) {
  return unique(signature(TypeKind::GraphArm, inputs, results));
}

Type Context::tensorArm(Type element, std::optional<std::span<const uint32_t>> shape) {
  detail::TypeStorage s;
  s.kind = TypeKind::TensorArm;
  s.element = element;
  s.count = shape ? static_cast<uint32_t>(shape->size()) : Type::kUnranked;
  if (shape)
    s.words.assign(shape->begin(), shape->end());
  return unique(std::move(s));
}

Type Context::opaque(uint32_t opcode, std::span<const uint32_t> words, Type operand) {
  detail::TypeStorage s;
  s.kind = TypeKind::Opaque;
  s.opcode = opcode;
  s.element = operand;
  s.words.assign(words.begin(), words.end());
  return unique(std::move(s));
}

Type Context::nodePayloadArray(Type payload, std::span<const MemberDecoration> decorations,
                               std::string_view nodeName, Type sharesLimitsWith) {
  detail::TypeStorage s;
  s.kind = TypeKind::Opaque;
  s.opcode = static_cast<uint32_t>(grammar::Op::TypeNodePayloadArrayAMDX);
  s.element = payload;
  s.structDecorations.assign(decorations.begin(), decorations.end());
  std::sort(s.structDecorations.begin(), s.structDecorations.end(),
            [](const MemberDecoration &a, const MemberDecoration &b) {
              return std::make_pair(a.decoration, a.value) < std::make_pair(b.decoration, b.value);
            });
  s.structDecorations.erase(std::unique(s.structDecorations.begin(), s.structDecorations.end()),
                            s.structDecorations.end());
  s.name = nodeName;
  if (sharesLimitsWith)
    s.list.push_back(sharesLimitsWith);
  return unique(std::move(s));
}

Type Context::literalStruct(std::span<const StructMember> members,
                            std::span<const MemberDecoration> decorations) {
  detail::TypeStorage s;
  s.kind = TypeKind::Struct;
  s.members.assign(members.begin(), members.end());
  s.structDecorations.assign(decorations.begin(), decorations.end());
  return unique(std::move(s));
}

Type Context::identifiedStruct(std::string_view name) {
  std::string key(name);
  auto it = impl_->identified.find(key);
  if (it != impl_->identified.end())
    return Type(it->second);
  impl_->types.emplace_back();
  detail::TypeStorage *s = &impl_->types.back();
  s->kind = TypeKind::Struct;
  s->identified = true;
  s->hasBody = false;
  s->name = key;
  impl_->identified.emplace(std::move(key), s);
  return Type(s);
}

bool Context::setStructBody(Type identified, std::span<const StructMember> members,
                            std::span<const MemberDecoration> decorations) {
  if (!identified.is(TypeKind::Struct) || !identified.isIdentified())
    return false;
  auto it = impl_->identified.find(std::string(identified.name()));
  if (it == impl_->identified.end())
    return false;
  detail::TypeStorage *s = it->second;
  if (s->hasBody)
    return std::equal(s->members.begin(), s->members.end(), members.begin(), members.end()) &&
           std::equal(s->structDecorations.begin(), s->structDecorations.end(), decorations.begin(),
                      decorations.end());
  s->members.assign(members.begin(), members.end());
  s->structDecorations.assign(decorations.begin(), decorations.end());
  s->hasBody = true;
  return true;
}

TypeKind Type::kind() const { return storage(s_).kind; }
bool Type::isBool() const { return is(TypeKind::Integer) && s_->width == 1; }
unsigned Type::width() const { return s_->width; }
std::optional<uint32_t> Type::fpEncoding() const {
  if (s_->encoding == detail::kNoEncoding)
    return std::nullopt;
  return s_->encoding;
}
Signedness Type::signedness() const { return s_->signedness; }
Type Type::elementType() const { return s_->element; }
uint32_t Type::count() const { return s_->count; }
std::string_view Type::lengthSymbol() const {
  return s_->kind == TypeKind::Array ? std::string_view(s_->name) : std::string_view();
}
uint32_t Type::stride() const { return s_->stride; }
uint32_t Type::storageClass() const { return s_->storageClass; }
const ImageInfo &Type::image() const { return s_->image; }
uint32_t Type::columns() const { return s_->columns; }
uint32_t Type::scope() const { return s_->scope; }
uint32_t Type::use() const { return s_->use; }
uint32_t Type::matrixLayout() const { return s_->layout; }
CoopParam Type::coopParam(CoopOperand which) const {
  const auto k = static_cast<size_t>(which);
  const uint32_t values[] = {s_->scope, s_->count, s_->columns, s_->use};
  return {values[k],
          k < s_->symbols.size() ? std::string_view(s_->symbols[k]) : std::string_view()};
}
bool Type::hasUse() const { return s_->use != ~0u; }
bool Type::isIdentified() const { return s_->identified; }
std::string_view Type::name() const { return s_->name; }
bool Type::hasBody() const { return s_->hasBody; }
std::span<const StructMember> Type::members() const { return s_->members; }
std::span<const MemberDecoration> Type::structDecorations() const { return s_->structDecorations; }
std::string_view Type::nodeName() const {
  return s_->kind == TypeKind::Opaque ? std::string_view(s_->name) : std::string_view();
}
Type Type::sharesPayloadLimitsWith() const {
  return s_->kind == TypeKind::Opaque && !s_->list.empty() ? s_->list[0] : Type();
}
std::span<const Type> Type::inputs() const { return s_->list; }
uint32_t Type::opcode() const { return s_->opcode; }
std::span<const uint32_t> Type::words() const { return s_->words; }
std::span<const uint32_t> Type::shape() const { return s_->words; }
std::span<const Type> Type::results() const { return s_->results; }

bool isNodePayloadArray(Type type) {
  return type.is(TypeKind::Opaque) &&
         type.opcode() == static_cast<uint32_t>(grammar::Op::TypeNodePayloadArrayAMDX);
}

std::optional<SmallFloat> smallFloatOf(Type type) {
  if (!type || !type.is(TypeKind::Float))
    return std::nullopt;
  if (std::optional<uint32_t> encoding = type.fpEncoding()) {
    switch (static_cast<grammar::FPEncoding>(*encoding)) {
    case grammar::FPEncoding::BFloat16KHR:
      return SmallFloat::BFloat16;
    case grammar::FPEncoding::Float8E4M3EXT:
      return SmallFloat::E4M3;
    case grammar::FPEncoding::Float8E5M2EXT:
      return SmallFloat::E5M2;
    default:
      return std::nullopt;
    }
  }
  if (type.width() == 16)
    return SmallFloat::Half;
  return std::nullopt;
}

uint64_t bitsOfFloat(Type type, double value) {
  if (std::optional<SmallFloat> small = smallFloatOf(type))
    return smallFloatFromDouble(*small, value);
  if (type && type.is(TypeKind::Float) && type.width() == 32)
    return std::bit_cast<uint32_t>(static_cast<float>(value));
  return std::bit_cast<uint64_t>(value);
}

double floatOfBits(Type type, uint64_t bits) {
  if (std::optional<SmallFloat> small = smallFloatOf(type))
    return smallFloatToDouble(*small, static_cast<uint32_t>(bits));
  if (type && type.is(TypeKind::Float) && type.width() == 32)
    return std::bit_cast<float>(static_cast<uint32_t>(bits));
  return std::bit_cast<double>(bits);
}

} // namespace spire::dialect
