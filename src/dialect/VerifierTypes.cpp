#include "VerifierTypes.h"

#include "OpOverlay.h"

#include "spire/dialect/Ops.h"
#include "spire/dialect/Verifier.h"
#include "spire/grammar/OperandTypes.h"

#include <array>
#include <cctype>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace spire::dialect {

namespace {

// --- Classes of types ------------------------------------------------------------------------

/// What a type may be: element kinds (bool, integer, float) in the shapes that hold them (scalar,
/// vector, cooperative matrix), the other kinds of types, and width limits on the elements.
enum : uint64_t {
  kBool = uint64_t(1) << 0,
  kInt = uint64_t(1) << 1,
  kFloat = uint64_t(1) << 2,
  kScalar = uint64_t(1) << 3,
  kVector = uint64_t(1) << 4,
  kCoop = uint64_t(1) << 5,
  kPointer = uint64_t(1) << 6,
  kStruct = uint64_t(1) << 7,
  kMatrix = uint64_t(1) << 8,
  kArray = uint64_t(1) << 9, ///< array or runtime array
  kImage = uint64_t(1) << 10,
  kSampledImage = uint64_t(1) << 11,
  kSampler = uint64_t(1) << 12,
  kAnyType = uint64_t(1) << 13,
  // Element widths: with one or more of them, the elements have one of those widths.
  kW32 = uint64_t(1) << 14,
  kW16 = uint64_t(1) << 15,
  // The opaque types (TypeKind::Opaque), one class per declaring opcode, and function types.
  kEvent = uint64_t(1) << 16,
  kDeviceEvent = uint64_t(1) << 17,
  kReserveId = uint64_t(1) << 18,
  kQueue = uint64_t(1) << 19,
  kPipe = uint64_t(1) << 20,
  kPipeStorage = uint64_t(1) << 21,
  kAccelStruct = uint64_t(1) << 22,
  kRayQuery = uint64_t(1) << 23,
  kHitObject = uint64_t(1) << 24,
  kFunctionType = uint64_t(1) << 25,
  kNamedBarrier = uint64_t(1) << 26,
  // SPV_INTEL_device_side_avc_motion_estimation: the VME image and the payloads and results.
  kVmeImage = uint64_t(1) << 27,
  kImePayload = uint64_t(1) << 28,
  kRefPayload = uint64_t(1) << 29,
  kSicPayload = uint64_t(1) << 30,
  kImeResult = uint64_t(1) << 31,
  kImeSingleStreamout = uint64_t(1) << 32,
  kImeDualStreamout = uint64_t(1) << 33,
  kImeSingleStreamin = uint64_t(1) << 34,
  kImeDualStreamin = uint64_t(1) << 35,
  kRefResult = uint64_t(1) << 36,
  kSicResult = uint64_t(1) << 37,
  kMcePayload = uint64_t(1) << 38,
  kMceResult = uint64_t(1) << 39,
  kW8 = uint64_t(1) << 40,
  kW64 = uint64_t(1) << 41,
  // Floats with an FP encoding (bf16, the 8-bit floats) are floats only where a class says so
  // too: SPV_KHR_bfloat16 and SPV_EXT_float8 allow them in conversions, bit casts, cooperative
  // matrices and moves of data, not in arithmetic.
  kEncodedFloat = uint64_t(1) << 42,
  // Vectors of any length (2 and more components), as MLIR describes the bitwise instructions'
  // operands; it changes only the description (a vector type's length is the type's to check).
  kAnyLength = uint64_t(1) << 43,
  // INTEL joint matrices (a shape, as kCoop).
  kJoint = uint64_t(1) << 44,
};
constexpr uint64_t kWidths = kW8 | kW16 | kW32 | kW64, kW16or32 = kW16 | kW32;
constexpr uint64_t kNum = kInt | kFloat;
constexpr uint64_t kSV = kScalar | kVector;
constexpr uint64_t kSVM = kSV | kCoop;
constexpr uint64_t kBoolS = kBool | kScalar, kBoolSV = kBool | kSV;
constexpr uint64_t kIntS = kInt | kScalar, kIntV = kInt | kVector, kIntSV = kInt | kSV;
constexpr uint64_t kFloatS = kFloat | kScalar, kFloatV = kFloat | kVector, kFloatSV = kFloat | kSV;
constexpr uint64_t kScalarOrVector = kBool | kNum | kSV | kEncodedFloat;
constexpr uint64_t kI32 = kIntS | kW32, kF32 = kFloatS | kW32, kF32V = kFloatV | kW32;

/// The class of each opaque type, by the opcode that declares it (the acceleration structure's
/// opcode is shared by its NV and KHR names).
constexpr std::pair<grammar::Op, uint64_t> kOpaqueClasses[] = {
    {grammar::Op::TypeEvent, kEvent},
    {grammar::Op::TypeDeviceEvent, kDeviceEvent},
    {grammar::Op::TypeReserveId, kReserveId},
    {grammar::Op::TypeQueue, kQueue},
    {grammar::Op::TypePipe, kPipe},
    {grammar::Op::TypePipeStorage, kPipeStorage},
    {grammar::Op::TypeNamedBarrier, kNamedBarrier},
    {grammar::Op::TypeRayQueryKHR, kRayQuery},
    {grammar::Op::TypeHitObjectNV, kHitObject},
    {grammar::Op::TypeAccelerationStructureKHR, kAccelStruct},
    {grammar::Op::TypeVmeImageINTEL, kVmeImage},
    {grammar::Op::TypeAvcImePayloadINTEL, kImePayload},
    {grammar::Op::TypeAvcRefPayloadINTEL, kRefPayload},
    {grammar::Op::TypeAvcSicPayloadINTEL, kSicPayload},
    {grammar::Op::TypeAvcMcePayloadINTEL, kMcePayload},
    {grammar::Op::TypeAvcMceResultINTEL, kMceResult},
    {grammar::Op::TypeAvcImeResultINTEL, kImeResult},
    {grammar::Op::TypeAvcImeResultSingleReferenceStreamoutINTEL, kImeSingleStreamout},
    {grammar::Op::TypeAvcImeResultDualReferenceStreamoutINTEL, kImeDualStreamout},
    {grammar::Op::TypeAvcImeSingleReferenceStreaminINTEL, kImeSingleStreamin},
    {grammar::Op::TypeAvcImeDualReferenceStreaminINTEL, kImeDualStreamin},
    {grammar::Op::TypeAvcRefResultINTEL, kRefResult},
    {grammar::Op::TypeAvcSicResultINTEL, kSicResult},
};

/// The class of an opaque type; 0 for the opaque types no rule names.
uint64_t opaqueClass(Type t) {
  for (auto [opcode, cls] : kOpaqueClasses)
    if (t.opcode() == static_cast<uint32_t>(opcode))
      return cls;
  return 0;
}

/// The scalar type of a scalar, vector, matrix or cooperative matrix; null for other types.
Type scalarOf(Type t) {
  if (!t)
    return {};
  switch (t.kind()) {
  case TypeKind::Integer:
  case TypeKind::Float:
    return t;
  case TypeKind::Vector:
  case TypeKind::CooperativeMatrix:
  case TypeKind::JointMatrix:
    return t.elementType();
  case TypeKind::Matrix: {
    Type column = t.elementType();
    return column.is(TypeKind::Vector) ? column.elementType() : Type();
  }
  default:
    return {};
  }
}

/// The width classes and the widths they stand for.
constexpr std::pair<uint64_t, unsigned> kWidthClasses[] = {
    {kW8, 8}, {kW16, 16}, {kW32, 32}, {kW64, 64}};

uint64_t widthClass(unsigned width) {
  for (auto [cls, w] : kWidthClasses)
    if (w == width)
      return cls;
  return 0;
}

bool matches(Type t, uint64_t cls, uint32_t count) {
  if (!t)
    return false;
  if (count && !(t.is(TypeKind::Vector) && t.count() == count))
    return false;
  if (cls & kAnyType)
    return true;
  uint64_t shape = 0;
  switch (t.kind()) {
  case TypeKind::Integer:
  case TypeKind::Float:
    shape = kScalar;
    break;
  case TypeKind::Vector:
    shape = kVector;
    break;
  case TypeKind::CooperativeMatrix:
    shape = kCoop;
    break;
  case TypeKind::JointMatrix:
    shape = kJoint;
    break;
  case TypeKind::Pointer:
    return cls & kPointer;
  case TypeKind::Struct:
    return cls & kStruct;
  case TypeKind::Matrix:
    return cls & kMatrix;
  case TypeKind::Array:
  case TypeKind::RuntimeArray:
    return cls & kArray;
  case TypeKind::Image:
    return cls & kImage;
  case TypeKind::SampledImage:
    return cls & kSampledImage;
  case TypeKind::Sampler:
    return cls & kSampler;
  case TypeKind::Opaque:
    return cls & opaqueClass(t);
  case TypeKind::Function:
    return cls & kFunctionType;
  default:
    return false;
  }
  Type e = scalarOf(t);
  if (!(cls & shape) || !e)
    return false;
  uint64_t kind = e.is(TypeKind::Float) ? kFloat : e.isBool() ? kBool : kInt;
  if (!(cls & kind) || (e.fpEncoding() && !(cls & kEncodedFloat)))
    return false;
  if (uint64_t widths = cls & kWidths)
    return (widths & widthClass(e.width())) != 0;
  return true;
}

std::string joinOr(const std::vector<std::string> &parts) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i)
    out += (i ? " or " : "") + parts[i];
  return out;
}

/// "a 32-bit integer scalar or vector", "a pointer", "a 4-component float vector".
std::string describe(uint64_t cls, uint32_t count) {
  if (cls & kAnyType)
    return count ? "a vector of " + std::to_string(count) + " components" : "any type";
  std::vector<std::string> parts;
  if (cls & (kBool | kInt | kFloat)) {
    std::vector<std::string> kinds, shapes;
    for (auto [bit, name] : {std::pair{kBool, "bool"}, {kInt, "integer"}, {kFloat, "float"}})
      if (cls & bit)
        kinds.push_back(name);
    for (auto [bit, name] : {std::pair{kScalar, "scalar"},
                             {kVector, "vector"},
                             {kCoop, "cooperative matrix"},
                             {kJoint, "joint matrix"}})
      if (cls & bit)
        shapes.push_back(name);
    // "32-bit ", "16- or 32-bit ".
    std::string width;
    for (auto [bit, w] : kWidthClasses)
      if (cls & bit)
        width += (width.empty() ? "" : " or ") + std::to_string(w) + "-";
    if (!width.empty())
      width += "bit ";
    std::string size = count ? std::to_string(count) + "-component " : "";
    parts.push_back(size + width + joinOr(kinds) + " " + joinOr(shapes));
  }
  for (auto [bit, name] : {std::pair{kPointer, "pointer"},
                           {kStruct, "struct"},
                           {kMatrix, "matrix"},
                           {kArray, "array"},
                           {kImage, "image"},
                           {kSampledImage, "sampled image"},
                           {kSampler, "sampler"},
                           {kEvent, "event"},
                           {kDeviceEvent, "device event"},
                           {kReserveId, "reserve id"},
                           {kQueue, "queue"},
                           {kPipe, "pipe"},
                           {kPipeStorage, "pipe storage"},
                           {kAccelStruct, "acceleration structure"},
                           {kRayQuery, "ray query"},
                           {kHitObject, "hit object"},
                           {kFunctionType, "function"},
                           {kNamedBarrier, "named barrier"},
                           {kVmeImage, "VME image"},
                           {kImePayload, "IME payload"},
                           {kRefPayload, "REF payload"},
                           {kSicPayload, "SIC payload"},
                           {kMcePayload, "generic MCE payload"},
                           {kImeResult, "IME result"},
                           {kImeSingleStreamout, "IME single-reference streamout result"},
                           {kImeDualStreamout, "IME dual-reference streamout result"},
                           {kImeSingleStreamin, "IME single-reference streamin"},
                           {kImeDualStreamin, "IME dual-reference streamin"},
                           {kRefResult, "REF result"},
                           {kSicResult, "SIC result"},
                           {kMceResult, "generic MCE result"}})
    if (cls & bit)
      parts.push_back(name);
  std::string text = joinOr(parts);
  bool vowel = !text.empty() && std::string_view("aeiouAEIOU8").find(text[0]) != std::string::npos;
  return (vowel ? "an " : "a ") + text;
}

/// A class as MLIR's op definitions describe their operands and results (ODS type constraints:
/// "8/16/32/64-bit integer or vector of 8/16/32/64-bit integer values of length 2/3/4/8/16");
/// empty for the classes with no such description (structs, images, the opaque types). The
/// floats with an FP encoding (bf16) that some classes take too are not named: MLIR's
/// constraints of the same ops name the IEEE floats only.
std::string odsDescribe(uint64_t cls, uint32_t count) {
  constexpr uint64_t kDescribed =
      kBool | kNum | kSVM | kWidths | kPointer | kEncodedFloat | kAnyLength | kJoint;
  if ((cls & ~kDescribed) || !(cls & (kBool | kNum | kPointer)))
    return {};
  auto widths = [&](std::initializer_list<unsigned> all) {
    std::string out;
    for (unsigned w : all)
      if (!(cls & kWidths) || (cls & widthClass(w)))
        out += (out.empty() ? "" : "/") + std::to_string(w);
    return out + "-bit ";
  };
  // Scalars name the integers first, vectors their bool elements first (as MLIR's do).
  std::vector<std::string> numbers, scalars, elements;
  if (cls & kInt)
    numbers.push_back(widths({8, 16, 32, 64}) + "integer");
  if (cls & kFloat)
    numbers.push_back(widths({16, 32, 64}) + "float");
  scalars = numbers;
  if (cls & kBool) {
    scalars.push_back("bool");
    elements.push_back("bool");
  }
  elements.insert(elements.end(), numbers.begin(), numbers.end());
  std::vector<std::string> parts;
  if ((cls & kScalar) && !count)
    parts.push_back(joinOr(scalars));
  if ((cls & kVector) && !elements.empty()) {
    std::string length = count                ? std::to_string(count)
                         : (cls & kAnyLength) ? "2-4294967295"
                                              : "2/3/4/8/16";
    parts.push_back("vector of " + joinOr(elements) + " values of length " + length);
  }
  if ((cls & kCoop) && !count && (cls & kNum))
    parts.push_back("Cooperative Matrix of " + joinOr(elements) + " values");
  if (cls & kJoint)
    parts.push_back("any SPIR-V joint matrix type");
  if (cls & kPointer)
    parts.push_back("any SPIR-V pointer type");
  return joinOr(parts);
}

/// MLIR's message for a value outside its constraint: "operand #1 must be ..., but got 'f32'".
std::string odsMismatch(int who, uint64_t cls, uint32_t count, Type t) {
  std::string what = odsDescribe(cls, count);
  if (what.empty())
    what = describe(cls, count);
  return (who < 0 ? std::string("result #0") : "operand #" + std::to_string(who)) + " must be " +
         what + ", but got '" + (t ? toString(t) : std::string("no type")) + "'";
}

constexpr CoopOperand kCoopOperands[] = {CoopOperand::Scope, CoopOperand::Rows,
                                         CoopOperand::Columns, CoopOperand::Use};

/// Whether two operands of cooperative matrix types may be equal once specialized: equal
/// literals, the same specialization constant, or a specialization constant against anything
/// else (its value is not known; spirv-val compares only constants too).
bool mayEqual(CoopParam a, CoopParam b) { return a == b || !a.symbol.empty() || !b.symbol.empty(); }

/// Two cooperative matrices whose scope, rows, columns and use may be equal once specialized.
bool coopShapesMayMatch(Type a, Type b) {
  if (a.hasUse() != b.hasUse())
    return false;
  for (CoopOperand o : kCoopOperands)
    if (!mayEqual(a.coopParam(o), b.coopParam(o)))
      return false;
  return true;
}

/// Equal types, or integer types (scalars, vectors, cooperative matrices) that differ only in
/// signedness: SPIR-V lets most integer instructions mix OpTypeInt 32 0 and 32 1 (iN and siN).
bool alike(Type a, Type b) {
  if (a == b)
    return true;
  if (!a || !b || a.kind() != b.kind())
    return false;
  switch (a.kind()) {
  case TypeKind::Integer:
    return a.width() == b.width();
  case TypeKind::Vector:
    return a.count() == b.count() && alike(a.elementType(), b.elementType());
  case TypeKind::CooperativeMatrix:
    // The same operands, specialization constants by the same symbol.
    for (CoopOperand o : kCoopOperands)
      if (a.coopParam(o) != b.coopParam(o))
        return false;
    return alike(a.elementType(), b.elementType());
  default:
    return false;
  }
}

/// The same shape: both scalars, vectors of as many components, or cooperative matrices of the
/// same dimensions (as far as specialization constants let one tell).
bool sameShape(Type a, Type b) {
  if (!a || !b)
    return false;
  bool va = a.is(TypeKind::Vector), vb = b.is(TypeKind::Vector);
  if (va || vb)
    return va && vb && a.count() == b.count();
  bool ca = a.is(TypeKind::CooperativeMatrix), cb = b.is(TypeKind::CooperativeMatrix);
  if (ca || cb)
    return ca && cb && coopShapesMayMatch(a, b);
  return true;
}

std::string str(Type t) { return t ? toString(t) : std::string("no type"); }

// --- The table -------------------------------------------------------------------------------

/// How a type relates to another value's (the result's or another operand's).
enum class Rel : uint8_t {
  None,
  Same,        ///< the same type
  Like,        ///< the same type, signedness aside (alike)
  Shape,       ///< as many components (sameShape)
  Elem,        ///< its scalar type is the other type
  ElemOf,      ///< it is the other's scalar type
  PointerTo,   ///< a pointer to the other type
  PointeeOf,   ///< the other is a pointer to it
  SamePointee, ///< a pointer to what the other points to
};

constexpr int8_t kResult = -1;

/// What one operand (or the result) must be: of a class, related to another value, a vector of
/// `count` components, a pointer to a value of class `pointee`. All four are optional.
struct Constraint {
  uint64_t cls = 0;
  uint64_t pointee = 0;
  Rel rel = Rel::None;
  int8_t ref = kResult;
  uint8_t count = 0;
  constexpr bool empty() const {
    return cls == 0 && rel == Rel::None && count == 0 && pointee == 0;
  }
};

constexpr Constraint of(uint64_t cls, uint8_t count = 0) {
  return {cls, 0, Rel::None, kResult, count};
}
constexpr Constraint ptrToClass(uint64_t pointee) {
  return {kPointer, pointee, Rel::None, kResult, 0};
}
constexpr Constraint anyType() { return of(kAnyType); }
constexpr Constraint same(int8_t ref = kResult) { return {0, 0, Rel::Same, ref}; }
constexpr Constraint like(int8_t ref = kResult) { return {0, 0, Rel::Like, ref}; }
constexpr Constraint shaped(uint64_t cls, int8_t ref = kResult) {
  return {cls, 0, Rel::Shape, ref};
}
constexpr Constraint elem(uint64_t cls, int8_t ref = kResult) { return {cls, 0, Rel::Elem, ref}; }
constexpr Constraint elemOf(int8_t ref = kResult) { return {0, 0, Rel::ElemOf, ref}; }
constexpr Constraint ptrTo(int8_t ref = kResult) { return {kPointer, 0, Rel::PointerTo, ref}; }
constexpr Constraint pointee(int8_t ref = kResult) { return {0, 0, Rel::PointeeOf, ref}; }
constexpr Constraint samePointee(int8_t ref) { return {kPointer, 0, Rel::SamePointee, ref}; }

struct Check;
using Special = bool (*)(Check &);

} // namespace

/// One row: the ops it names, what their result must be, what their first operands must be (the
/// last one for all further operands when `variadic`), and a function for what the columns
/// cannot say. Each op's record points to its row.
struct TypeRule {
  std::initializer_list<OpKey> ops;
  Constraint result;
  std::array<Constraint, 14> operands{};
  bool variadic = false;
  Special special = nullptr;
};

namespace {

using Row = TypeRule;

/// `t` stands in relation `rel` to `other`.
bool holds(Rel rel, Type t, Type other) {
  switch (rel) {
  case Rel::None:
    return true;
  case Rel::Same:
    return t == other;
  case Rel::Like:
    return alike(t, other);
  case Rel::Shape:
    return sameShape(t, other);
  case Rel::Elem:
    return scalarOf(t) == other;
  case Rel::ElemOf:
    return t == scalarOf(other);
  case Rel::PointerTo:
    return t.is(TypeKind::Pointer) && t.elementType() == other;
  case Rel::PointeeOf:
    return other.is(TypeKind::Pointer) && other.elementType() == t;
  case Rel::SamePointee:
    return t.is(TypeKind::Pointer) && other.is(TypeKind::Pointer) &&
           t.elementType() == other.elementType();
  }
  return true;
}

/// One op being checked.
struct Check {
  const Operation &op;
  TypeVerifier &verifier;
  std::string message;

  bool fail(std::string m) {
    message = std::move(m);
    return false;
  }
  uint32_t numOperands() const { return op.numOrdinaryOperands(); }
  Type operand(uint32_t i) const {
    return i < numOperands() && op.operand(i) ? op.operand(i).type() : Type();
  }
  Type result() const { return op.numResults() ? op.result(0).type() : Type(); }
  static std::string name(int i) {
    return i == kResult ? std::string("the result") : "operand " + std::to_string(i);
  }

  /// The constraint of operand `i` in `row`; null for an operand the row says nothing of.
  static const Constraint *operandConstraint(const Row &row, uint32_t i) {
    size_t listed = 0;
    for (size_t k = 0; k < row.operands.size(); ++k)
      if (!row.operands[k].empty())
        listed = k + 1;
    if (!listed || (i >= listed && !row.variadic))
      return nullptr;
    return &row.operands[i < listed ? i : listed - 1];
  }

  /// The class a value's own constraint names: its constraint's, or, for a value of another
  /// value's type, that value's (MLIR's op definitions give both one type constraint).
  static uint64_t ownClass(const Row &row, const Constraint &c) {
    if (c.cls || (c.rel != Rel::Same && c.rel != Rel::Like))
      return c.cls;
    if (c.ref == kResult)
      return row.result.cls;
    const Constraint *other = operandConstraint(row, static_cast<uint32_t>(c.ref));
    return other ? other->cls : 0;
  }

  /// The value `who` against its own constraint, with MLIR's message.
  bool ownConstraint(const Row &row, Type t, int who, const Constraint &c) {
    uint64_t cls = ownClass(row, c);
    if (!t || (!cls && !c.count))
      return true;
    cls = cls ? cls : kAnyType;
    return matches(t, cls, c.count) || fail(odsMismatch(who, cls, c.count, t));
  }

  /// The name MLIR's op definition gives the value `i`: the grammar's operand name in lower
  /// case ("Operand 1": operand1, "Base": base), "result" for the result.
  std::string odsName(int i) const {
    if (i == kResult)
      return "result";
    // The shifts' definitions name their operands as the binary ops' do.
    for (grammar::Op shift : {grammar::Op::ShiftLeftLogical, grammar::Op::ShiftRightLogical,
                              grammar::Op::ShiftRightArithmetic})
      if (op.info().key == shift)
        return "operand" + std::to_string(i + 1);
    std::string_view grammarName;
    int k = 0;
    for (const OperandMapping &m : op.info().operands) {
      if (m.kind != OperandMapping::Kind::Value)
        continue;
      grammarName = m.name;
      if (k++ == i)
        break;
    }
    if (grammarName.empty())
      return "operand" + std::to_string(i);
    std::string out;
    for (size_t j = 0; j < grammarName.size(); ++j) {
      char ch = grammarName[j];
      if (ch == ' ') {
        if (j + 1 < grammarName.size() &&
            !std::isdigit(static_cast<unsigned char>(grammarName[j + 1])))
          out += '_';
        continue;
      }
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    }
    return out;
  }

  /// Every operand of the row has the result's type (MLIR's SameOperandsAndResultType).
  static bool sameForAll(const Row &row) {
    if (!row.variadic)
      return false;
    for (const Constraint &c : row.operands)
      if (!c.empty() && (c.cls || c.ref != kResult || (c.rel != Rel::Same && c.rel != Rel::Like)))
        return false;
    return true;
  }

  /// `t` (the value `who`) meets `c`.
  bool meets(const Row &row, Type t, int who, const Constraint &c) {
    if (!t)
      return true;
    if ((c.cls || c.count) && !matches(t, c.cls ? c.cls : kAnyType, c.count))
      return fail(odsMismatch(who, c.cls ? c.cls : kAnyType, c.count, t));
    if (c.pointee && !matches(t.elementType(), c.pointee, 0))
      return fail(name(who) + " must be a pointer to " + describe(c.pointee, 0) + ", not " +
                  str(t));
    if (c.rel == Rel::None)
      return true;
    Type other = c.ref == kResult ? result() : operand(c.ref);
    if (!other)
      return true;
    if (holds(c.rel, t, other))
      return true;
    std::string whose = c.ref == kResult ? "the result's" : name(c.ref) + "'s";
    std::string says = name(who) + " (" + str(t) + ") must ";
    std::string theirs = whose + " type (" + str(other) + ")";
    // MLIR's wording of its traits that tie a value's type to the result's ({operand1,
    // result}); spire's own, naming both positions, for two operands.
    std::string pair = "{" + odsName(who) + ", result}";
    switch (c.rel) {
    case Rel::None:
      break;
    case Rel::Same:
    case Rel::Like:
      if (c.ref == kResult && sameForAll(row))
        return fail("requires the same type for all operands and results");
      if (c.ref == kResult)
        return fail("failed to verify that all of " + pair + " have same type");
      return fail(says + "have " + theirs + (c.rel == Rel::Like ? ", signedness aside" : ""));
    case Rel::Shape:
      return fail(says + "have as many components as " + theirs);
    case Rel::Elem:
      if (c.ref == kResult)
        return fail("failed to verify that all of " + pair + " have same element type");
      return fail(says + "have components of " + theirs);
    case Rel::ElemOf:
      return fail(says + "be the component type of " + theirs);
    case Rel::PointerTo:
      return fail(says + "point to " + theirs);
    case Rel::PointeeOf:
      return fail(says + "be what " + theirs + " points to");
    case Rel::SamePointee:
      return fail(says + "point to what " + theirs + " points to");
    }
    return true;
  }

  bool run(const Row &row) {
    // MLIR's order: each operand against its own constraint, then the result, then how the
    // values relate to each other.
    for (uint32_t i = 0; i < numOperands(); ++i)
      if (const Constraint *c = operandConstraint(row, i);
          c && !ownConstraint(row, operand(i), static_cast<int>(i), *c))
        return false;
    if (op.numResults() && !ownConstraint(row, result(), kResult, row.result))
      return false;
    if (!row.result.empty() && op.numResults() && !meets(row, result(), kResult, row.result))
      return false;
    for (uint32_t i = 0; i < numOperands(); ++i) {
      const Constraint *c = operandConstraint(row, i);
      if (!c)
        break;
      if (!meets(row, operand(i), static_cast<int>(i), *c))
        return false;
    }
    if (!row.special)
      return true;
    // The functions may take the types of the result and of the operands the op's instruction
    // has (grammarShape has counted them) as given.
    if (op.numResults() && !result())
      return true;
    for (uint32_t i = 0; i < numOperands(); ++i)
      if (!operand(i))
        return true;
    return row.special(*this);
  }
};

// --- Rules the table cannot state ------------------------------------------------------------

/// The integer value of a spirv.Constant defining `v`, or none.
std::optional<uint64_t> constantIndex(Value v) {
  const Operation *def = v ? v.definingOp() : nullptr;
  if (!def || &def->info() != &ops::constant())
    return std::nullopt;
  Attribute a = def->attr("value");
  if (!a.is(AttrKind::Integer))
    return std::nullopt;
  return a.bits();
}

/// The member, element, component or column `index` selects in `t`; fails (naming index `k`)
/// when there is none. `constant`: the index is known (struct members need one).
Type selectPart(Check &c, Type t, std::optional<uint64_t> index, uint32_t k, bool boundsOfAll) {
  auto which = [&] { return "index " + std::to_string(k); };
  auto outOfBounds = [&](uint64_t n, const char *what) {
    c.fail(which() + " (" + std::to_string(*index) + ") is out of bounds of " + str(t) + " (" +
           std::to_string(n) + " " + what + ")");
    return Type();
  };
  if (!t) {
    c.fail(which() + " selects into no type");
    return {};
  }
  switch (t.kind()) {
  case TypeKind::Struct:
    if (!index) {
      c.fail(which() + " into " + str(t) + " is not a constant");
      return {};
    }
    if (*index >= t.members().size())
      return outOfBounds(t.members().size(), "members");
    return t.members()[*index].type;
  case TypeKind::Array:
    if (boundsOfAll && index && t.lengthSymbol().empty() && *index >= t.count())
      return outOfBounds(t.count(), "elements");
    return t.elementType();
  case TypeKind::Vector:
    if (boundsOfAll && index && *index >= t.count())
      return outOfBounds(t.count(), "components");
    return t.elementType();
  case TypeKind::Matrix:
    if (boundsOfAll && index && *index >= t.count())
      return outOfBounds(t.count(), "columns");
    return t.elementType();
  case TypeKind::RuntimeArray:
  case TypeKind::CooperativeMatrix:
    return t.elementType();
  default:
    c.fail(which() + " selects into " + str(t) + ", which is not a composite");
    return {};
  }
}

/// The elements of a literal list attribute (`indices`, `components`): an array, or one value.
std::span<const Attribute> literals(const Attribute &list) {
  if (list.is(AttrKind::Array))
    return list.elements();
  return list ? std::span<const Attribute>(&list, 1) : std::span<const Attribute>();
}

/// The type the literal `indices` attribute selects in `composite`.
Type walkLiteral(Check &c, Type composite) {
  Attribute indices = c.op.attr("indices");
  std::span<const Attribute> list = literals(indices);
  Type t = composite;
  for (uint32_t k = 0; k < list.size(); ++k) {
    if (!list[k].is(AttrKind::Integer)) {
      c.fail("index " + std::to_string(k) + " is not an integer");
      return {};
    }
    if (t.is(TypeKind::RuntimeArray)) {
      c.fail("index " + std::to_string(k) + " selects into a runtime array (" + str(t) + ")");
      return {};
    }
    t = selectPart(c, t, list[k].bits(), k, true);
    if (!t)
      return {};
  }
  return t;
}

/// The last operand of a non-uniform reduction: a ClusterSize (an integer scalar), except under
/// SPV_NV_shader_subgroup_partitioned's three group operations, where it is the ballot naming
/// the invocation's partition (a four-component integer vector, as OpGroupNonUniformPartitionNV
/// gives it; spire val and spirv-val ask the same).
bool groupReductionCluster(Check &c) {
  if (c.numOperands() < 2)
    return true;
  Attribute operation = c.op.attr("group_operation");
  const uint32_t g = operation && operation.is(AttrKind::Enum) ? operation.enumValue() : 0;
  const bool partitioned = g == uint32_t(grammar::GroupOperation::PartitionedReduceNV) ||
                           g == uint32_t(grammar::GroupOperation::PartitionedInclusiveScanNV) ||
                           g == uint32_t(grammar::GroupOperation::PartitionedExclusiveScanNV);
  const uint64_t cls = partitioned ? kIntV : kIntS;
  const uint32_t count = partitioned ? 4 : 0;
  return matches(c.operand(1), cls, count) || c.fail(odsMismatch(1, cls, count, c.operand(1)));
}

bool compositeExtract(Check &c) {
  Type part = walkLiteral(c, c.operand(0));
  if (!part)
    return false;
  return part == c.result() ||
         c.fail("the result (" + str(c.result()) + ") must have the type the indices select (" +
                str(part) + ")");
}

bool compositeInsert(Check &c) {
  Type part = walkLiteral(c, c.operand(1));
  if (!part)
    return false;
  return part == c.operand(0) ||
         c.fail("operand 0 (" + str(c.operand(0)) + ") must have the type the indices select (" +
                str(part) + ")");
}

bool compositeConstruct(Check &c) {
  Type r = c.result();
  uint32_t n = c.numOperands();
  auto expect = [&](uint32_t i, Type want) {
    return c.operand(i) == want ||
           c.fail("operand " + std::to_string(i) + " (" + str(c.operand(i)) + ") must be " +
                  str(want) + ", a constituent of " + str(r));
  };
  auto count = [&](uint64_t want, const char *what) {
    return n == want || c.fail("has " + std::to_string(n) + " constituents for the " +
                               std::to_string(want) + " " + what + " of " + str(r));
  };
  switch (r.kind()) {
  case TypeKind::Vector: {
    uint64_t total = 0;
    for (uint32_t i = 0; i < n; ++i) {
      Type t = c.operand(i);
      if (t == r.elementType())
        ++total;
      else if (t.is(TypeKind::Vector) && t.elementType() == r.elementType())
        total += t.count();
      else
        return c.fail("operand " + std::to_string(i) + " (" + str(t) + ") must be " +
                      str(r.elementType()) + " or a vector of it");
    }
    return total == r.count() ||
           c.fail("constituents have " + std::to_string(total) + " components for the " +
                  std::to_string(r.count()) + " of " + str(r));
  }
  case TypeKind::Array:
    if (r.lengthSymbol().empty() && !count(r.count(), "elements"))
      return false;
    for (uint32_t i = 0; i < n; ++i)
      if (!expect(i, r.elementType()))
        return false;
    return true;
  case TypeKind::Matrix:
    if (!count(r.count(), "columns"))
      return false;
    for (uint32_t i = 0; i < n; ++i)
      if (!expect(i, r.elementType()))
        return false;
    return true;
  case TypeKind::Struct:
    if (!count(r.members().size(), "members"))
      return false;
    for (uint32_t i = 0; i < n; ++i)
      if (!expect(i, r.members()[i].type))
        return false;
    return true;
  case TypeKind::CooperativeMatrix:
    return (count(1, "value") && expect(0, r.elementType()));
  default:
    return c.fail("the result must be a composite type, not " + str(r));
  }
}

bool vectorShuffle(Check &c) {
  Type r = c.result(), a = c.operand(0), b = c.operand(1);
  for (uint32_t i = 0; i < 2; ++i)
    if (c.operand(i).elementType() != r.elementType())
      return c.fail("operand " + std::to_string(i) + " (" + str(c.operand(i)) +
                    ") must have the result's component type (" + str(r.elementType()) + ")");
  Attribute components = c.op.attr("components");
  std::span<const Attribute> list = literals(components);
  if (list.size() != r.count())
    return c.fail("selects " + std::to_string(list.size()) + " components for the " +
                  std::to_string(r.count()) + " of the result (" + str(r) + ")");
  uint64_t total = uint64_t(a.count()) + b.count();
  for (uint32_t k = 0; k < list.size(); ++k) {
    if (!list[k].is(AttrKind::Integer))
      return c.fail("component " + std::to_string(k) + " is not an integer");
    uint64_t v = list[k].bits() & 0xffffffffu;
    if (v != 0xffffffffu && v >= total)
      return c.fail("component " + std::to_string(k) + " (" + std::to_string(v) +
                    ") selects past the " + std::to_string(total) + " components of the operands");
  }
  return true;
}

/// AccessChain and InBoundsAccessChain (`element` false); PtrAccessChain and
/// InBoundsPtrAccessChain, whose Element operand does not select.
bool accessChain(Check &c, bool element) {
  Type base = c.operand(0), r = c.result();
  uint32_t first = element ? 2 : 1;
  if (element && c.numOperands() < 2)
    return c.fail("needs an element operand");
  Type t = base.elementType();
  for (uint32_t i = 1; i < c.numOperands(); ++i) {
    if (!matches(c.operand(i), kIntS, 0))
      return c.fail("operand " + std::to_string(i) + " (" + str(c.operand(i)) +
                    ") must be an integer scalar");
    if (i < first)
      continue;
    if (isNodePayloadArray(t)) { // its records, by any index
      t = t.elementType();
      continue;
    }
    t = selectPart(c, t, constantIndex(c.op.operand(i)), i - first, false);
    if (!t)
      return false;
  }
  if (r.elementType() != t)
    return c.fail("the result (" + str(r) + ") must point to the type the indices select (" +
                  str(t) + ")");
  if (r.storageClass() != base.storageClass())
    return c.fail("the result (" + str(r) + ") must have the storage class of operand 0 (" +
                  str(base) + ")");
  return true;
}
bool plainAccessChain(Check &c) { return accessChain(c, false); }
bool ptrAccessChain(Check &c) { return accessChain(c, true); }

bool selectOp(Check &c) {
  Type cond = c.operand(0), r = c.result();
  if (c.operand(1) != r || c.operand(2) != r)
    return c.fail("failed to verify that all of {true_value, false_value, result} have same type");
  if (!cond.is(TypeKind::Vector))
    return true;
  if (!r.is(TypeKind::Vector))
    return c.fail("result expected to be of vector type when condition is of vector type");
  return r.count() == cond.count() ||
         c.fail("result should have the same number of elements as the condition when "
                "condition is of vector type");
}

/// CopyMemory: the target and the source point to one type.
bool copyMemory(Check &c) {
  return c.operand(0).elementType() == c.operand(1).elementType() ||
         c.fail("both operands must be pointers to the same type");
}

/// VectorTimesScalar: a vector of the result's type and a scalar of its component type.
bool vectorTimesScalar(Check &c) {
  Type r = c.result();
  if (c.operand(0) != r)
    return c.fail("vector operand and result type mismatch");
  return c.operand(1) == r.elementType() || c.fail("scalar operand and result element type match");
}

/// A message MLIR's verifier gives through emitError: the whole message, with no "'op' op" in
/// front.
std::string whole(std::string m) { return std::string(1, detail::kWholeMessage) + std::move(m); }

/// The bits of a scalar or vector (MLIR's getBitWidth: a pointer counts as 64).
uint64_t bitWidth(Type t) {
  if (t.is(TypeKind::Pointer))
    return 64;
  return uint64_t(t.is(TypeKind::Vector) ? t.count() : 1u) * scalarOf(t).width();
}

/// Bitcast: as many bits on both sides (MLIR's words), or a pointer and another pointer or an
/// integer scalar or vector. MLIR's verifier also rejects a cast to the operand's own type and
/// one between a pointer and an integer; valid modules do both (glslang's buffer references
/// from uvec2, OpenCL's pointer casts, clspv's casts to the same type), and the dialect keeps
/// them.
bool bitcast(Check &c) {
  Type r = c.result(), v = c.operand(0);
  constexpr uint64_t kCastable = kNum | kSV | kPointer | kEncodedFloat;
  if (!matches(r, kCastable, 0))
    return c.fail("the result must be a pointer or a numeric scalar or vector, not " + str(r));
  if (!matches(v, kCastable, 0))
    return c.fail("operand 0 must be a pointer or a numeric scalar or vector, not " + str(v));
  bool pr = r.is(TypeKind::Pointer), pv = v.is(TypeKind::Pointer);
  if (pv && !pr && !matches(r, kIntSV, 0))
    return c.fail(whole("unhandled bit cast conversion from pointer type to non-pointer type"));
  if (!pv && pr && !matches(v, kIntSV, 0))
    return c.fail(whole("unhandled bit cast conversion from non-pointer type to pointer type"));
  if (pr || pv)
    return true;
  uint64_t bitsR = bitWidth(r), bitsV = bitWidth(v);
  if (bitsR != bitsV)
    return c.fail("mismatch in result type bitwidth " + std::to_string(bitsR) +
                  " and operand type bitwidth " + std::to_string(bitsV));
  return true;
}

/// FConvert, SConvert and UConvert, as MLIR checks its casts: shapes first (vectors of as many
/// components, its SameOperandsAndResultShape), then the kinds (a vector to a vector, a
/// cooperative matrix to one of its own kind, KHR or NV, a scalar to a scalar), then the
/// component widths, which differ (a float's encoding counts as a difference: SPV_KHR_bfloat16
/// converts between bf16 and f16).
bool convertWidth(Check &c) {
  Type r = c.result(), v = c.operand(0);
  bool vr = r.is(TypeKind::Vector), vv = v.is(TypeKind::Vector);
  if (vr != vv || (vr && r.count() != v.count()))
    return c.fail("requires the same shape for all operands and results");
  bool cr = r.is(TypeKind::CooperativeMatrix), cv = v.is(TypeKind::CooperativeMatrix);
  if (cr != cv || (cr && r.hasUse() != v.hasUse()))
    return c.fail("incompatible operand and result types");
  if (cr && !coopShapesMayMatch(r, v))
    return c.fail("operand 0 (" + str(v) + ") must have as many components as the result's type (" +
                  str(r) + ")");
  Type er = scalarOf(r), ev = scalarOf(v);
  if (er.width() == ev.width() && er.fpEncoding() == ev.fpEncoding())
    return c.fail("expected the different bit widths for operand type and result type, but "
                  "provided '" +
                  str(ev) + "' and '" + str(er) + "'");
  return true;
}

/// PtrCastToGeneric casts a Workgroup, CrossWorkgroup or Function pointer to a Generic one of
/// the same pointee; GenericCastToPtr(Explicit) the other way (MLIR's checks and words).
bool genericCast(Check &c) {
  using SC = grammar::StorageClass;
  Type r = c.result(), v = c.operand(0);
  auto specific = [](Type t) {
    uint32_t sc = t.storageClass();
    return sc == uint32_t(SC::Workgroup) || sc == uint32_t(SC::CrossWorkgroup) ||
           sc == uint32_t(SC::Function);
  };
  bool toGeneric = c.op.info().key == grammar::Op::PtrCastToGeneric;
  if (toGeneric && !specific(v))
    return c.fail(
        whole("pointer must point to the Workgroup, CrossWorkgroup, or Function Storage Class"));
  if (toGeneric && r.storageClass() != uint32_t(SC::Generic))
    return c.fail(whole("result type must be of storage class Generic"));
  if (!toGeneric && v.storageClass() != uint32_t(SC::Generic))
    return c.fail(whole("pointer type must be of storage class Generic"));
  if (!toGeneric && !specific(r))
    return c.fail(
        whole("result must point to the Workgroup, CrossWorkgroup, or Function Storage Class"));
  return r.elementType() == v.elementType() ||
         c.fail("pointer operand's pointee type must have the same as the op result type, but "
                "found '" +
                str(v.elementType()) + "' vs '" + str(r.elementType()) + "'");
}

/// ConvertPtrToU and ConvertUToPtr, as MLIR checks them: the integer is signless (MLIR says
/// "result" of ConvertUToPtr's operand too), and in a spirv.module the pointer is physical: not
/// under the Logical addressing model, and in PhysicalStorageBuffer memory under
/// PhysicalStorageBuffer64.
bool pointerIntegerCast(Check &c) {
  bool toInteger = c.op.info().key == grammar::Op::ConvertPtrToU;
  Type integer = toInteger ? c.result() : c.operand(0);
  Type pointer = toInteger ? c.operand(0) : c.result();
  if (integer.signedness() != Signedness::Signless)
    return c.fail(whole("result must be a scalar type of unsigned integer"));
  const Operation *module = c.op.parentOp();
  while (module && &module->info() != &ops::module())
    module = module->parentOp();
  Attribute model = module ? module->attr("addressing_model") : Attribute();
  if (!model.is(AttrKind::Enum))
    return true;
  using AM = grammar::AddressingModel;
  bool logical = model.enumValue() == uint32_t(AM::Logical);
  bool psb64 = model.enumValue() == uint32_t(AM::PhysicalStorageBuffer64);
  if (logical ||
      (psb64 && pointer.storageClass() != uint32_t(grammar::StorageClass::PhysicalStorageBuffer)))
    return c.fail(whole(toInteger ? "operand must be a physical pointer"
                                  : "result must be a physical pointer"));
  return true;
}

/// The result of IAddCarry, ISubBorrow, UMulExtended, SMulExtended: a struct of two members of
/// the operands' type.
bool twoMemberResult(Check &c) {
  Type r = c.result();
  if (!r.is(TypeKind::Struct) || r.members().size() != 2)
    return c.fail("expected result struct type containing two members");
  for (uint32_t i = 0; i < c.numOperands(); ++i)
    for (const StructMember &m : r.members())
      if (!alike(c.operand(i), m.type))
        return c.fail("expected all operand types and struct member types are the same");
  return true;
}

/// GL.ModfStruct and GL.FrexpStruct: a struct of the operand's type and (Frexp) an integer
/// scalar or vector of its shape, or (Modf) the operand's type again.
bool structOfOperand(Check &c, bool frexp) {
  Type r = c.result(), x = c.operand(0);
  bool ok = r.is(TypeKind::Struct) && r.members().size() == 2 && r.members()[0].type == x;
  if (ok && frexp)
    ok = matches(r.members()[1].type, kIntSV, 0) && sameShape(r.members()[1].type, x);
  else if (ok)
    ok = r.members()[1].type == x;
  return ok || c.fail("the result (" + str(r) + ") must be a struct of operand 0's type (" +
                      str(x) + ") and " +
                      (frexp ? "an integer scalar or vector of its shape" : "that type again"));
}
bool modfStruct(Check &c) { return structOfOperand(c, false); }
bool frexpStruct(Check &c) { return structOfOperand(c, true); }

bool squareMatrix(Check &c, Type m, const char *who) {
  if (!m.is(TypeKind::Matrix) || !m.elementType().is(TypeKind::Vector) ||
      m.elementType().count() != m.count())
    return c.fail(std::string(who) + " must be a square matrix, not " + str(m));
  return true;
}
bool determinant(Check &c) {
  Type m = c.operand(0);
  if (!squareMatrix(c, m, "operand 0"))
    return false;
  return scalarOf(m) == c.result() ||
         c.fail("the result (" + str(c.result()) + ") must be the component type of " + str(m));
}
bool matrixInverse(Check &c) { return squareMatrix(c, c.result(), "the result"); }

/// A matrix's number of rows (components of a column).
uint32_t rows(Type m) { return m.elementType() ? m.elementType().count() : 0; }

bool matrixTimesVector(Check &c) {
  Type m = c.operand(0), v = c.operand(1);
  if (m.elementType() != c.result())
    return c.fail("the result (" + str(c.result()) + ") must be the column type of " + str(m));
  return v.count() == m.count() ||
         c.fail("operand 1 (" + str(v) + ") must have a component per column of " + str(m));
}

bool vectorTimesMatrix(Check &c) {
  Type v = c.operand(0), m = c.operand(1), r = c.result();
  if (scalarOf(m) != r.elementType() || v.elementType() != r.elementType())
    return c.fail("operands must have the result's component type (" + str(r.elementType()) + ")");
  if (v.count() != rows(m))
    return c.fail("operand 0 (" + str(v) + ") must have a component per row of " + str(m));
  return r.count() == m.count() ||
         c.fail("the result (" + str(r) + ") must have a component per column of " + str(m));
}

// The matrix ops check their shapes in MLIR's order, with its messages.
bool matrixTimesMatrix(Check &c) {
  Type a = c.operand(0), b = c.operand(1), r = c.result();
  if (a.count() != rows(b))
    return c.fail("left matrix columns' count must be equal to the right matrix rows' count");
  if (b.count() != r.count())
    return c.fail("right and result matrices must have equal columns' count");
  if (scalarOf(b) != scalarOf(r))
    return c.fail("right and result matrices' component type must be the same");
  if (scalarOf(a) != scalarOf(r))
    return c.fail("left and result matrices' component type must be the same");
  return rows(a) == rows(r) || c.fail("left and result matrices must have equal rows' count");
}

/// A matrix (as MLIR checks it), a float or a cooperative matrix (which keep their type) times
/// a scalar of its component type.
bool matrixTimesScalar(Check &c) {
  Type m = c.operand(0), k = c.operand(1), r = c.result();
  if (!m.is(TypeKind::Matrix) || !r.is(TypeKind::Matrix)) {
    if (m != r)
      return c.fail("operand 0 (" + str(m) + ") must have the result's type (" + str(r) + ")");
    return k == scalarOf(r) ||
           c.fail("operand 1 (" + str(k) + ") must be the component type of the result's type (" +
                  str(r) + ")");
  }
  if (k != scalarOf(m))
    return c.fail("input matrix components' type and scaling value must have the same type");
  if (m.count() != r.count())
    return c.fail("input and result matrices must have the same number of columns");
  if (rows(m) != rows(r))
    return c.fail("input and result matrices' columns must have the same size");
  return scalarOf(m) == scalarOf(r) ||
         c.fail("input and result matrices' columns must have the same component type");
}

bool outerProduct(Check &c) {
  Type a = c.operand(0), b = c.operand(1), r = c.result();
  if (a != r.elementType())
    return c.fail("operand 0 (" + str(a) + ") must be the result's column type (" +
                  str(r.elementType()) + ")");
  return (b.elementType() == scalarOf(r) && b.count() == r.count()) ||
         c.fail("operand 1 (" + str(b) + ") must have a component per column of the result (" +
                str(r) + ")");
}

bool transpose(Check &c) {
  Type m = c.operand(0), r = c.result();
  if (rows(m) != r.count())
    return c.fail("input matrix rows count must be equal to output matrix columns count");
  if (m.count() != rows(r))
    return c.fail("input matrix columns count must be equal to output matrix rows count");
  return scalarOf(m) == scalarOf(r) ||
         c.fail("input and output matrices must have the same component type");
}

bool arrayLength(Check &c) {
  Type p = c.operand(0);
  Attribute member = c.op.attr("array_member");
  if (!p || !member.is(AttrKind::Integer))
    return true;
  Type s = p.elementType();
  if (!s.is(TypeKind::Struct) || s.members().empty() ||
      !s.members().back().type.is(TypeKind::RuntimeArray))
    return c.fail("operand 0 (" + str(p) +
                  ") must point to a struct whose last member is a runtime array");
  return member.bits() == s.members().size() - 1 ||
         c.fail("array_member (" + std::to_string(member.bits()) +
                ") must be the index of the last member of " + str(s));
}

bool variable(Check &c) {
  Type r = c.result();
  Attribute sc = c.op.attr("storage_class");
  if (sc.is(AttrKind::Enum) && sc.enumValue() != r.storageClass())
    return c.fail("its storage class (" + enumText(sc.enumKind(), sc.enumValue()) +
                  ") must be the result's (" + str(r) + ")");
  constexpr uint32_t kFunction = uint32_t(grammar::StorageClass::Function);
  if (r.storageClass() != kFunction)
    return c.fail("can only be used to model function-level variables. Use spirv.GlobalVariable "
                  "for module-level variables.");
  // An initializer is a constant or a global (OpVariable's rule): what deserialization makes of
  // those at a use.
  if (c.op.numOperands() > 0) {
    const Operation *def = c.op.operand(0).definingOp();
    const OpInfo *info = def ? &def->info() : nullptr;
    bool constant =
        info &&
        (info == &ops::constant() || info == &ops::referenceOf() || info == &ops::addressOf() ||
         info == &ops::specConstantOperation() || info->key == grammar::Op::ConstantNull ||
         info->key == grammar::Op::Undef || info->key == grammar::Op::ConstantSampler ||
         info->key == grammar::Op::ConstantPipeStorage);
    if (!constant)
      return c.fail("initializer must be the result of a constant or spirv.GlobalVariable op");
  }
  for (std::string_view name : {"descriptor_set", "binding", "built_in"})
    if (c.op.attr(name))
      return c.fail("cannot have '" + std::string(name) +
                    "' attribute (only allowed in spirv.GlobalVariable)");
  // SPV_KHR_physical_storage_buffer: a variable holding a PhysicalStorageBuffer pointer (or an
  // array of them) says how it aliases, once.
  Type held = r.elementType();
  if (held && held.is(TypeKind::Array))
    held = held.elementType();
  if (held && held.is(TypeKind::Pointer) &&
      held.storageClass() == uint32_t(grammar::StorageClass::PhysicalStorageBuffer)) {
    bool aliased = bool(c.op.attr("aliased_pointer")),
         restricted = bool(c.op.attr("restrict_pointer"));
    if (!aliased && !restricted)
      return c.fail("with physical buffer pointer must be decorated either 'AliasedPointer' or "
                    "'RestrictPointer'");
    if (aliased && restricted)
      return c.fail("with physical buffer pointer must have exactly one aliasing decoration");
  }
  return true;
}

/// `value` can be a spirv.Constant (or initializer) of type `t`.
bool constantFits(Attribute value, Type t, int depth = 0) {
  if (!value || !t || depth > 64)
    return false;
  switch (value.kind()) {
  case AttrKind::Undef: // typed by its place
  case AttrKind::Null:
    return true;
  case AttrKind::Bool:
    return t.isBool();
  case AttrKind::Integer:
  case AttrKind::Float:
    return value.type() == t;
  case AttrKind::Dense:
    // A dense value of MLIR's builtin tensor type of rank 1 holds an array's elements.
    if (Type v = value.type(); v.is(TypeKind::Tensor) && t.is(TypeKind::Array))
      return v.count() == 1 && t.lengthSymbol().empty() && v.shape()[0] == t.count() &&
             v.elementType() == t.elementType();
    return value.type() == t;
  case AttrKind::Array: {
    std::span<const Attribute> elems = value.elements();
    auto all = [&](Type e) {
      for (Attribute a : elems)
        if (!constantFits(a, e, depth + 1))
          return false;
      return true;
    };
    switch (t.kind()) {
    case TypeKind::Array:
      return (!t.lengthSymbol().empty() || elems.size() == t.count()) && all(t.elementType());
    case TypeKind::Matrix:
    case TypeKind::Vector:
      return elems.size() == t.count() && all(t.elementType());
    case TypeKind::Struct:
      if (elems.size() != t.members().size())
        return false;
      for (size_t i = 0; i < elems.size(); ++i)
        if (!constantFits(elems[i], t.members()[i].type, depth + 1))
          return false;
      return true;
    case TypeKind::Sampler:
      // OpConstantSampler: addressing mode, normalized (0 or 1), filter mode.
      return elems.size() == 3 && elems[0].is(AttrKind::Enum) && elems[1].is(AttrKind::Integer) &&
             elems[2].is(AttrKind::Enum);
    default:
      return false;
    }
  }
  default:
    return false;
  }
}

bool constant(Check &c) {
  Type r = c.result();
  if (!r)
    return c.fail("has no result");
  if (r.is(TypeKind::CooperativeMatrix))
    return true; // a value for every element: MLIR writes it as one scalar
  Attribute value = c.op.attr("value");
  if (!value)
    return true; // structuralAttributes reports it
  // MLIR's words for an array value of the wrong type.
  if (value.is(AttrKind::Array) && r.is(TypeKind::RuntimeArray))
    return c.fail("must have spirv.array result type for array value");
  if (value.is(AttrKind::Array) && r.is(TypeKind::Array)) {
    for (Attribute e : value.elements())
      if (Type t = e.type(); t && t != r.elementType())
        return c.fail("result or element type ('" + str(r.elementType()) +
                      "') does not match value type ('" + str(t) + "')");
  }
  return constantFits(value, r) || c.fail("its value (" + toString(value) +
                                          ") is not a value of the result's type (" + str(r) + ")");
}

/// The type of the value a symbol stands for: a global variable's pointer type, a
/// specialization constant's type.
Type symbolType(const Operation *def) {
  if (!def)
    return {};
  const OpInfo *info = &def->info();
  if (info == &ops::globalVariable() || info == &ops::specConstantComposite()) {
    Attribute t = def->attr("type");
    return t.is(AttrKind::Type) ? t.type() : Type();
  }
  if (info == &ops::specConstant()) {
    Attribute v = def->attr("default_value");
    if (v.is(AttrKind::Integer) || v.is(AttrKind::Float))
      return v.type();
    return {};
  }
  if (info == &ops::specConstantOperationSymbol()) {
    // The type of the value its region yields.
    if (def->numRegions() != 1 || def->region().empty())
      return {};
    const Operation *y = def->region().front()->back();
    return y && y->numOperands() == 1 ? y->operand(0).type() : Type();
  }
  if (info == &ops::func()) {
    Attribute t = def->attr("function_type");
    return t.is(AttrKind::Type) ? t.type() : Type();
  }
  return {};
}

/// `def` (a symbol's op) stands for a value of type `t`: a bool specialization constant for i1,
/// others for the type symbolType gives.
bool symbolHasType(const Operation *def, Type t) {
  if (def && &def->info() == &ops::specConstant() && def->attr("default_value").is(AttrKind::Bool))
    return t.isBool();
  Type own = symbolType(def);
  return !own || alike(own, t); // signedness aside, as for operands
}

/// Whether a spirv.module or builtin.module holds `op` (where its symbols are looked up).
bool inSymbolTable(const Operation &op) {
  const Operation *table = op.parentOp();
  while (table && !ops::isSymbolTable(table->info()))
    table = table->parentOp();
  return table;
}

/// The symbol `attrName` names is an `a` or a `b` (else `wrongSymbol`), of the result's type
/// (else `wrongType`): MLIR's words for spirv.mlir.addressof and spirv.mlir.referenceof.
bool symbolResult(Check &c, std::string_view attrName, const OpInfo *a, const OpInfo *b,
                  std::string_view wrongSymbol, std::string_view wrongType) {
  Attribute sym = c.op.attr(attrName);
  if (!sym.is(AttrKind::SymbolRef))
    return true;
  const Operation *def = c.verifier.symbol(c.op, sym.str());
  if (!def && !inSymbolTable(c.op))
    return true; // an op verified on its own
  if (!def || (&def->info() != a && &def->info() != b))
    return c.fail(std::string(wrongSymbol));
  return symbolHasType(def, c.result()) || c.fail(std::string(wrongType));
}
bool addressOf(Check &c) {
  return symbolResult(c, "variable", &ops::globalVariable(), &ops::globalVariable(),
                      "expected spirv.GlobalVariable symbol",
                      "result type mismatch with the referenced global variable's type");
}
bool referenceOf(Check &c) {
  // A specialization constant, or (spire's additions) a module-level specialization constant
  // operation or a function given as an operand (OpEnqueueKernel's invoke).
  Attribute sym = c.op.attr("spec_const");
  const Operation *def = sym.is(AttrKind::SymbolRef) ? c.verifier.symbol(c.op, sym.str()) : nullptr;
  constexpr std::string_view wrongSymbol =
      "expected spirv.SpecConstant or spirv.SpecConstantComposite symbol";
  constexpr std::string_view wrongType =
      "result type mismatch with the referenced specialization constant's type";
  if (def && &def->info() == &ops::specConstantOperationSymbol())
    return symbolResult(c, "spec_const", &ops::specConstantOperationSymbol(),
                        &ops::specConstantOperationSymbol(), wrongSymbol, wrongType);
  if (def && &def->info() == &ops::func())
    return symbolResult(c, "spec_const", &ops::func(), &ops::func(), wrongSymbol, wrongType);
  return symbolResult(c, "spec_const", &ops::specConstant(), &ops::specConstantComposite(),
                      wrongSymbol, wrongType);
}

/// How many parts (members, elements, columns, components) a constituent list gives a
/// composite of type `t`; 0 for a type that is not a composite.
uint64_t partCount(Type t) {
  switch (t.kind()) {
  case TypeKind::Vector:
  case TypeKind::Matrix:
  case TypeKind::Array:
    return t.count();
  case TypeKind::Struct:
    return t.members().size();
  case TypeKind::CooperativeMatrix:
    return 1;
  default:
    return 0;
  }
}

/// The type of part `i` of `t` (i < partCount(t)).
Type partType(Type t, size_t i) {
  return t.is(TypeKind::Struct) ? t.members()[i].type : t.elementType();
}

bool specConstantComposite(Check &c) {
  Attribute type = c.op.attr("type"), constituents = c.op.attr("constituents");
  if (!type.is(AttrKind::Type) || !constituents.is(AttrKind::Array))
    return true; // structuralAttributes reports it
  Type t = type.type();
  if (t.is(TypeKind::Array) && !t.lengthSymbol().empty())
    return true; // as many constituents as the specialization constant says
  // MLIR's checks and words.
  std::span<const Attribute> given = constituents.elements();
  uint64_t parts = partCount(t);
  if (parts == 0)
    return c.fail("result type must be a composite type, but provided " + str(t));
  if (t.is(TypeKind::CooperativeMatrix))
    return c.fail("unsupported composite type  " + str(t));
  if (given.size() != parts)
    return c.fail("has incorrect number of operands: expected " + std::to_string(parts) +
                  ", but provided " + std::to_string(given.size()));
  for (size_t i = 0; i < given.size(); ++i) {
    Type part = partType(t, i);
    const Operation *def =
        given[i].is(AttrKind::SymbolRef) ? c.verifier.symbol(c.op, given[i].str()) : nullptr;
    bool fits =
        given[i].is(AttrKind::SymbolRef) ? symbolHasType(def, part) : constantFits(given[i], part);
    if (!fits) {
      Type own = def ? symbolType(def) : Type();
      return c.fail("has incorrect types of operands: expected '" + str(part) +
                    "', but provided '" + (own ? str(own) : toString(given[i])) + "'");
    }
  }
  return true;
}

bool globalVariable(Check &c) {
  Attribute t = c.op.attr("type");
  if (!t.is(AttrKind::Type) || !t.type().is(TypeKind::Pointer))
    return true; // structuralAttributes reports it
  Type ptr = t.type();
  // MLIR's checks and words.
  constexpr uint32_t kFunction = uint32_t(grammar::StorageClass::Function);
  constexpr uint32_t kGeneric = uint32_t(grammar::StorageClass::Generic);
  if (ptr.storageClass() == kFunction || ptr.storageClass() == kGeneric)
    return c.fail(std::string("storage class cannot be '") +
                  (ptr.storageClass() == kFunction ? "Function" : "Generic") + "'");
  Attribute init = c.op.attr("initializer");
  if (!init)
    return true;
  if (init.is(AttrKind::SymbolRef)) {
    // Another module-level variable (its address) may initialize it: MLIR checks no type.
    const Operation *def = c.verifier.symbol(c.op, init.str());
    if (def && &def->info() == &ops::globalVariable())
      return true;
    if (inSymbolTable(c.op) && (!def || (&def->info() != &ops::specConstant() &&
                                         &def->info() != &ops::specConstantComposite() &&
                                         &def->info() != &ops::specConstantOperationSymbol())))
      return c.fail("initializer must be result of a spirv.SpecConstant or spirv.GlobalVariable "
                    "or spirv.SpecConstantCompositeOp op");
    Type it = symbolType(def);
    return !it || it == ptr.elementType() ||
           c.fail("its initializer @" + std::string(init.str()) + " (" + str(it) +
                  ") must have the type the variable holds (" + str(ptr.elementType()) + ")");
  }
  return constantFits(init, ptr.elementType()) ||
         c.fail("its initializer (" + toString(init) + ") is not a value of the type it holds (" +
                str(ptr.elementType()) + ")");
}

/// The function type of the spirv.func or func.func around `op`, or null.
Type enclosingFunctionType(const Operation &op) {
  for (const Operation *p = op.parentOp(); p; p = p->parentOp())
    if (ops::isFunction(p->info())) {
      Attribute t = p->attr("function_type");
      return t.is(AttrKind::Type) && t.type().is(TypeKind::Function) ? t.type() : Type();
    }
  return {};
}

/// Whether a function (spirv.func, func.func) holds `op` (MLIR's InFunctionScope).
bool inFunction(const Operation &op) {
  for (const Operation *p = op.parentOp(); p; p = p->parentOp())
    if (ops::isFunction(p->info()))
      return true;
  return false;
}

bool returnValue(Check &c) {
  if (!inFunction(c.op))
    return c.fail("must appear in a function-like op's block");
  Type fn = enclosingFunctionType(c.op);
  if (!fn)
    return true;
  if (fn.results().size() != 1)
    return c.fail("returns 1 value but enclosing function requires " +
                  std::to_string(fn.results().size()) + " results");
  return c.operand(0) == fn.results()[0] ||
         c.fail("return value's type ('" + str(c.operand(0)) +
                "') mismatch with function's result type ('" + str(fn.results()[0]) + "')");
}

bool returnNothing(Check &c) {
  if (!inFunction(c.op))
    return c.fail("must appear in a function-like op's block");
  Type fn = enclosingFunctionType(c.op);
  return !fn || fn.results().empty() || c.fail("cannot be used in functions returning value");
}

bool func(Check &c) {
  Attribute t = c.op.attr("function_type");
  if (!t.is(AttrKind::Type) || !t.type().is(TypeKind::Function))
    return true;
  Type fn = t.type();
  if (fn.results().size() > 1)
    return c.fail("cannot have more than one result");
  if (c.op.numRegions() == 0 || c.op.region().empty())
    return true;
  const Block *entry = c.op.region().front();
  for (uint32_t i = 0; i < entry->numArguments() && i < fn.inputs().size(); ++i)
    if (entry->argument(i).type() != fn.inputs()[i])
      return c.fail("entry block argument " + std::to_string(i) + " (" +
                    str(entry->argument(i).type()) + ") must have parameter " + std::to_string(i) +
                    "'s type (" + str(fn.inputs()[i]) + ")");
  return true;
}

bool functionCall(Check &c) {
  Attribute callee = c.op.attr("callee");
  if (!callee.is(AttrKind::SymbolRef))
    return true;
  // MLIR's checks in its order and words.
  const Operation *fn = c.verifier.symbol(c.op, callee.str());
  if (!fn) {
    const Operation *table = c.op.parentOp();
    while (table && !ops::isSymbolTable(table->info()))
      table = table->parentOp();
    return !table || c.fail("callee function '" + std::string(callee.str()) +
                            "' not found in nearest symbol table");
  }
  std::string name = "@" + std::string(callee.str());
  if (&fn->info() != &ops::func())
    return c.fail("callee " + name + " is a " + std::string(fn->name()) + ", not a spirv.func");
  Attribute t = fn->attr("function_type");
  if (!t.is(AttrKind::Type) || !t.type().is(TypeKind::Function))
    return true;
  Type type = t.type();
  if (c.op.numResults() > 1)
    return c.fail("expected callee function to have 0 or 1 result, but provided " +
                  std::to_string(c.op.numResults()));
  if (c.numOperands() != type.inputs().size())
    return c.fail("has incorrect number of operands for callee: expected " +
                  std::to_string(type.inputs().size()) + ", but provided " +
                  std::to_string(c.numOperands()));
  for (uint32_t i = 0; i < c.numOperands(); ++i)
    if (c.operand(i) != type.inputs()[i])
      return c.fail("operand type mismatch: expected operand type '" + str(type.inputs()[i]) +
                    "', but provided '" + str(c.operand(i)) + "' for operand number " +
                    std::to_string(i));
  if (type.results().size() != c.op.numResults())
    return c.fail("has incorrect number of results has for callee: expected " +
                  std::to_string(type.results().size()) + ", but provided " +
                  std::to_string(c.op.numResults()));
  return type.results().empty() || c.result() == type.results()[0] ||
         c.fail("result type mismatch: expected '" + str(type.results()[0]) + "', but provided '" +
                str(c.result()) + "'");
}

/// func.return: the values of the func.func around it, as MLIR's func dialect says it.
bool funcReturn(Check &c) {
  const Operation *fn = c.op.parentOp();
  if (!fn || &fn->info() != &ops::funcFunc())
    return c.fail("expects parent op 'func.func'");
  Attribute t = fn->attr("function_type"), sym = fn->attr("sym_name");
  if (!t.is(AttrKind::Type) || !t.type().is(TypeKind::Function) || !sym.is(AttrKind::String))
    return true;
  auto results = t.type().results();
  std::string name = "@" + std::string(sym.str());
  if (c.numOperands() != results.size())
    return c.fail("has " + std::to_string(c.numOperands()) + " operands, but enclosing function (" +
                  name + ") returns " + std::to_string(results.size()));
  for (uint32_t i = 0; i < c.numOperands(); ++i)
    if (c.operand(i) != results[i])
      return c.fail("type of return operand " + std::to_string(i) + " ('" + str(c.operand(i)) +
                    "') doesn't match function result type ('" + str(results[i]) +
                    "') in function " + name);
  return true;
}

/// func.call: a func.func of the enclosing module, called with its parameter and result types.
bool funcCall(Check &c) {
  Attribute callee = c.op.attr("callee");
  if (!callee.is(AttrKind::SymbolRef))
    return c.fail("requires a 'callee' symbol reference attribute");
  const Operation *fn = c.verifier.symbol(c.op, callee.str());
  Attribute t = fn ? fn->attr("function_type") : Attribute();
  if (!fn || &fn->info() != &ops::funcFunc() || !t.is(AttrKind::Type) ||
      !t.type().is(TypeKind::Function))
    return c.fail("'" + std::string(callee.str()) + "' does not reference a valid function");
  Type type = t.type();
  if (c.numOperands() != type.inputs().size())
    return c.fail("incorrect number of operands for callee");
  for (uint32_t i = 0; i < c.numOperands(); ++i)
    if (c.operand(i) != type.inputs()[i])
      return c.fail("operand type mismatch: expected operand type '" + str(type.inputs()[i]) +
                    "', but provided '" + str(c.operand(i)) + "' for operand number " +
                    std::to_string(i));
  if (c.op.numResults() != type.results().size())
    return c.fail("incorrect number of results for callee");
  for (uint32_t i = 0; i < c.op.numResults(); ++i)
    if (c.op.result(i).type() != type.results()[i])
      return c.fail("result type mismatch at index " + std::to_string(i));
  return true;
}

/// spirv.EXT.EmitMeshTasks: the payload, when given, is in TaskPayloadWorkgroupEXT.
bool meshPayload(Check &c) {
  constexpr uint32_t kPayload = uint32_t(grammar::StorageClass::TaskPayloadWorkgroupEXT);
  Type payload = c.operand(3);
  return !payload || !payload.is(TypeKind::Pointer) || payload.storageClass() == kPayload ||
         c.fail("payload must be a variable with a storage class of TaskPayloadWorkgroupEXT");
}

bool specConstantOperation(Check &c) {
  if (c.op.numRegions() == 0 || c.op.region().empty())
    return c.fail("has no region");
  const Operation *y = c.op.region().front()->back();
  if (!y || &y->info() != &ops::yield() || y->numOperands() != 1 || !y->operand(0))
    return c.fail("its region must end with spirv.mlir.yield of one value");
  return y->operand(0).type() == c.result() ||
         c.fail("yields " + str(y->operand(0).type()) + " for a result of type " + str(c.result()));
}

/// The result of a sparse image instruction: a struct of an integer scalar (the residency
/// code) and the texel, of class `texel` (a vector of `count` components when count is not 0).
bool sparseResult(Check &c, uint64_t texel, uint8_t count) {
  Type r = c.result();
  if (r.is(TypeKind::Struct) && r.members().size() == 2 && matches(r.members()[0].type, kIntS, 0) &&
      matches(r.members()[1].type, texel, count))
    return true;
  return c.fail("the result must be a struct of an integer scalar (the residency code) and " +
                describe(texel, count) + " (the texel), not " + str(r));
}
bool sparseTexel(Check &c) { return sparseResult(c, kNum | kSV, 0); }
bool sparseDrefTexel(Check &c) { return sparseResult(c, kNum | kScalar, 0); }
bool sparseGatheredTexel(Check &c) { return sparseResult(c, kNum | kVector, 4); }

/// SDot, UDot, SUDot and their AccSat forms, as MLIR checks them: two operands of one type
/// (signedness aside: SUDot's second is unsigned where its first is signed), the accumulator of
/// the result's type, a format exactly for 32-bit integer scalars holding packed vectors, no
/// other attribute, and a result as wide as all of an operand's bits.
bool integerDot(Check &c) {
  Type a = c.operand(0), b = c.operand(1), r = c.result();
  if (!alike(a, b))
    return c.fail("requires the same type for both vector operands");
  if (c.numOperands() == 3 && !alike(c.operand(2), r))
    return c.fail("requires the same accumulator operand and result types");
  Attribute format = c.op.attr("format");
  if (!a.is(TypeKind::Vector)) {
    if (!format)
      return c.fail("requires Packed Vector Format attribute for integer vector operands");
    if (a.width() != 32)
      return c.fail("with specified Packed Vector Format (" +
                    enumText(format.enumKind(), format.enumValue()) +
                    ") requires integer vector operands to be 32-bits wide");
  } else if (format) {
    return c.fail("with invalid format attribute for vector operands of type '" + str(a) + "'");
  }
  for (const NamedAttribute &n : c.op.attributes())
    if (n.name != "format")
      return c.fail("only supports the 'format' #spirv.packed_vector_format attribute");
  uint64_t factorBits = bitWidth(a);
  return factorBits <= r.width() ||
         c.fail("result type has insufficient bit-width (" + std::to_string(r.width()) +
                " bits) for the specified vector operand type (" + std::to_string(factorBits) +
                " bits)");
}

/// The first check MLIR makes of a matrix load or store pointer (NV cooperative and INTEL joint
/// matrices), in its words: it points to a scalar or a vector.
bool pointsToScalarOrVector(Check &c, Type p) {
  Type pointee = p.elementType();
  return pointee.is(TypeKind::Integer) || pointee.is(TypeKind::Float) ||
         pointee.is(TypeKind::Vector) ||
         c.fail("Pointer must point to a scalar or vector type but provided " + str(pointee));
}

/// The pointer of spirv.NV.CooperativeMatrixLoad / Store, as MLIR checks it (and words it): to
/// a scalar or a vector, in Workgroup, StorageBuffer or PhysicalStorageBuffer memory.
bool coopPointerNV(Check &c) {
  Type p = c.operand(0);
  if (!pointsToScalarOrVector(c, p))
    return false;
  using SC = grammar::StorageClass;
  const uint32_t sc = p.storageClass();
  if (sc != uint32_t(SC::Workgroup) && sc != uint32_t(SC::StorageBuffer) &&
      sc != uint32_t(SC::PhysicalStorageBuffer))
    return c.fail("Pointer storage class must be Workgroup, StorageBuffer or "
                  "PhysicalStorageBufferEXT but provided " +
                  enumText(grammar::OperandKind::StorageClass, sc));
  return true;
}

/// spirv.NV.CooperativeMatrixLength's type attribute is an NV cooperative matrix.
bool coopLengthNV(Check &c) {
  Attribute t = c.op.attr("cooperative_matrix_type");
  return (t.is(AttrKind::Type) && t.type().is(TypeKind::CooperativeMatrix) && !t.type().hasUse()) ||
         c.fail("type attribute must be a '!spirv.NV.coopmatrix'");
}

/// NV.CooperativeMatrixMulAdd and KHR.CooperativeMatrixMulAdd: A (M x K) times B (K x N) plus C
/// (M x N) gives the result (M x N), all of one scope; KHR matrices are used as MatrixA, MatrixB,
/// MatrixAcc and MatrixAcc. A dimension, scope or use given by a specialization constant
/// matches what it may equal once specialized (mayEqual).
bool coopMulAdd(Check &c) {
  Type a = c.operand(0), b = c.operand(1), acc = c.operand(2), r = c.result();
  const bool khr = c.op.info().key == grammar::Op::CooperativeMatrixMulAddKHR;
  for (Type t : {a, b, acc, r})
    if (t.hasUse() != khr)
      return c.fail("operands and result must be " + std::string(khr ? "KHR" : "NV") +
                    " cooperative matrices, not " + str(t));
  constexpr uint32_t kMatrixA = uint32_t(grammar::CooperativeMatrixUse::MatrixAKHR),
                     kMatrixB = uint32_t(grammar::CooperativeMatrixUse::MatrixBKHR), kMatrixAcc = 2;
  if (khr && (!mayEqual(a.coopParam(CoopOperand::Use), {kMatrixA, {}}) ||
              !mayEqual(b.coopParam(CoopOperand::Use), {kMatrixB, {}}) ||
              !mayEqual(acc.coopParam(CoopOperand::Use), {kMatrixAcc, {}}) ||
              !mayEqual(r.coopParam(CoopOperand::Use), {kMatrixAcc, {}})))
    return c.fail("operands 0, 1 and 2 and the result must be used as MatrixA, MatrixB, "
                  "MatrixAcc and MatrixAcc");
  auto param = [](Type t, CoopOperand o) { return t.coopParam(o); };
  auto may = [&](Type x, CoopOperand ox, Type y, CoopOperand oy) {
    return mayEqual(param(x, ox), param(y, oy));
  };
  const CoopOperand scope = CoopOperand::Scope, rows = CoopOperand::Rows,
                    cols = CoopOperand::Columns;
  auto text = [](CoopParam p) {
    return p.symbol.empty() ? std::to_string(p.value) : "@" + std::string(p.symbol);
  };
  auto dims = [&](Type t) {
    CoopParam rows = param(t, CoopOperand::Rows), cols = param(t, CoopOperand::Columns);
    return text(rows) + (rows.symbol.empty() && cols.symbol.empty() ? "x" : " x ") + text(cols);
  };
  auto shapes = [&] {
    return "operands 0 (" + dims(a) + ") and 1 (" + dims(b) +
           ") must multiply to the result's shape (" + dims(r) + ")";
  };
  if (!khr) {
    // As MLIR checks the NV product, in its order and its words (then the shapes): the
    // accumulator has the result's type, A (MxK) times B (KxN) is MxN, one scope, and A and B
    // of one element type (of one width, for integers).
    if (acc != r)
      return c.fail("result and third operand type must match");
    if (!may(a, rows, r, rows) || !may(b, cols, r, cols) || !may(a, cols, b, rows))
      return c.fail("matrix size must match: " + shapes());
    if (!may(a, scope, r, scope) || !may(b, scope, r, scope) || !may(acc, scope, r, scope))
      return c.fail("matrix scope must match: operands 0, 1 and 2 must have the result's scope");
    Type ea = a.elementType(), eb = b.elementType();
    if (ea.is(TypeKind::Integer) && eb.is(TypeKind::Integer))
      return ea.width() == eb.width() ||
             c.fail("matrix A and B integer element types must be the same bit width");
    return ea == eb || c.fail("matrix A and B non-integer element types must match");
  }
  if (!may(a, scope, r, scope) || !may(b, scope, r, scope) || !may(acc, scope, r, scope))
    return c.fail("operands 0, 1 and 2 must have the result's scope");
  if (!may(a, rows, r, rows) || !may(b, cols, r, cols) || !may(a, cols, b, rows))
    return c.fail(shapes());
  return (may(acc, rows, r, rows) && may(acc, cols, r, cols)) ||
         c.fail("operand 2 (" + dims(acc) + ") must have the result's shape (" + dims(r) + ")");
}

/// The pointer of spirv.INTEL.JointMatrixLoad / Store, as MLIR checks it (and words it): to a
/// scalar or a vector, in Workgroup or CrossWorkgroup memory.
bool jointPointer(Check &c) {
  Type p = c.operand(0);
  if (!pointsToScalarOrVector(c, p))
    return false;
  using SC = grammar::StorageClass;
  const uint32_t sc = p.storageClass();
  return sc == uint32_t(SC::Workgroup) || sc == uint32_t(SC::CrossWorkgroup) ||
         c.fail("Pointer storage class must be Workgroup or CrossWorkgroup but provided " +
                enumText(grammar::OperandKind::StorageClass, sc));
}

/// spirv.INTEL.JointMatrixMad: A (M x K) times B (K x N) plus C (M x N), as MLIR checks it, in
/// its order and words: C has the result's type, the sizes multiply, one scope, A and B of one
/// element type.
bool jointMad(Check &c) {
  Type a = c.operand(0), b = c.operand(1), acc = c.operand(2), r = c.result();
  if (acc != r)
    return c.fail("result and third operand must have the same type");
  auto dims = [](Type t) { return std::to_string(t.count()) + "x" + std::to_string(t.columns()); };
  if (a.count() != r.count() || a.columns() != b.count() || b.columns() != r.columns())
    return c.fail("matrix size must match: operands 0 (" + dims(a) + ") and 1 (" + dims(b) +
                  ") must multiply to the result's shape (" + dims(r) + ")");
  if (a.scope() != r.scope() || b.scope() != r.scope())
    return c.fail("matrix scope must match: operands 0 and 1 must have the result's scope");
  return a.elementType() == b.elementType() ||
         c.fail("matrix element type must match: operands 0 and 1 have " + str(a.elementType()) +
                " and " + str(b.elementType()));
}

/// spirv.INTEL.JointMatrixWorkItemLength's type attribute is a joint matrix.
bool jointLength(Check &c) {
  Attribute t = c.op.attr("joint_matrix_type");
  return (t.is(AttrKind::Type) && t.type().is(TypeKind::JointMatrix)) ||
         c.fail("type attribute must be a '!spirv.jointmatrix'");
}

/// A value that is a 4x3 matrix of 32-bit floats (four columns of three): an object-to-world or
/// world-to-object transform.
bool transformResult(Check &c) {
  Type r = c.result();
  return (r.is(TypeKind::Matrix) && r.count() == 4 && matches(r.elementType(), kF32V, 3)) ||
         c.fail("the result must be a matrix of four columns of three 32-bit floats, not " +
                str(r));
}

/// A 64-bit integer scalar or a vector of two 32-bit integers (a clock, the address of an
/// acceleration structure, a bindless handle).
bool is64Bits(Type t) {
  return matches(t, kIntS, 0) ? t.width() == 64 : matches(t, kIntV | kW32, 2);
}
bool addressResult(Check &c) {
  return is64Bits(c.result()) ||
         c.fail("the result must be a 64-bit integer scalar or a vector of two 32-bit integers, "
                "not " +
                str(c.result()));
}
bool addressOperand(Check &c) {
  return is64Bits(c.operand(0)) ||
         c.fail("operand 0 must be a 64-bit integer scalar or a vector of two 32-bit integers, "
                "not " +
                str(c.operand(0)));
}

/// A bindless handle (SPV_NV_bindless_texture): 64 bits as above or, under
/// OpSamplerImageAddressingModeNV 32, a 32-bit integer scalar. The structured IR does not keep
/// the addressing mode, so either is accepted here; spire val checks the one the module declares.
bool isHandle(Type t) { return is64Bits(t) || (matches(t, kIntS, 0) && t.width() == 32); }
bool handleResult(Check &c) {
  return isHandle(c.result()) ||
         c.fail("the result must be a 32- or 64-bit integer scalar or a vector of two 32-bit "
                "integers, not " +
                str(c.result()));
}
bool handleOperand(Check &c) {
  return isHandle(c.operand(0)) ||
         c.fail("operand 0 must be a 32- or 64-bit integer scalar or a vector of two 32-bit "
                "integers, not " +
                str(c.operand(0)));
}

/// The pipe (operand 0) of a pipe instruction has the access qualifier `access` (SPIR-V's
/// AccessQualifier: 0 ReadOnly, 1 WriteOnly).
bool pipeAccess(Check &c, uint32_t access) {
  Type p = c.operand(0);
  std::span<const uint32_t> w = p.words();
  return (!w.empty() && w[0] == access) || c.fail("operand 0 (" + str(p) + ") must be a " +
                                                  (access ? "WriteOnly" : "ReadOnly") + " pipe");
}
bool readPipe(Check &c) { return pipeAccess(c, 0); }
bool writePipe(Check &c) { return pipeAccess(c, 1); }

/// The ND Range operand `i` of a device-side enqueue instruction: OpBuildNDRange's struct, or
/// (as the SPIR-V LLVM translator writes it, and validators accept) a pointer to one.
bool ndRange(Check &c, uint32_t i) {
  Type t = c.operand(i);
  return matches(t, kStruct, 0) ||
         (matches(t, kPointer, 0) && matches(t.elementType(), kStruct, 0)) ||
         c.fail("operand " + std::to_string(i) +
                " must be a struct or a pointer to a struct, not " + str(t));
}
bool enqueuedNdRange(Check &c) { return ndRange(c, 2); }
bool queriedNdRange(Check &c) { return ndRange(c, 0); }

/// INTEL.VmeImage: the VME image of operand 0's image type.
bool vmeImage(Check &c) {
  return c.result().elementType() == c.operand(0) ||
         c.fail("the result (" + str(c.result()) + ") must be the VME image of operand 0's type (" +
                str(c.operand(0)) + ")");
}

/// Types that CopyLogical may copy between: the same type, or arrays of as many logically
/// matching elements, or structs of as many logically matching members (decorations aside).
bool logicallyMatch(Type a, Type b, int depth = 0) {
  if (a == b)
    return true;
  if (!a || !b || a.kind() != b.kind() || depth > 64)
    return false;
  if (a.is(TypeKind::Array))
    return a.count() == b.count() && a.lengthSymbol() == b.lengthSymbol() &&
           logicallyMatch(a.elementType(), b.elementType(), depth + 1);
  if (!a.is(TypeKind::Struct) || a.members().size() != b.members().size())
    return false;
  for (size_t i = 0; i < a.members().size(); ++i)
    if (!logicallyMatch(a.members()[i].type, b.members()[i].type, depth + 1))
      return false;
  return true;
}
bool copyLogical(Check &c) {
  if (c.operand(0) == c.result())
    return c.fail("the result must not have operand 0's type (" + str(c.result()) +
                  "): that copy is spirv.CopyObject");
  return logicallyMatch(c.operand(0), c.result()) ||
         c.fail("operand 0 (" + str(c.operand(0)) + ") must logically match the result's type (" +
                str(c.result()) + ")");
}

/// The integer literal of the first of `names` the op has: grammars name an operand
/// differently (SPV_INTEL_arbitrary_precision_floating_point's M1 is Ma in newer ones, Mout
/// Mresult).
std::optional<std::pair<std::string_view, uint64_t>>
literalNamed(const Operation &op, std::initializer_list<std::string_view> names) {
  for (std::string_view name : names)
    if (Attribute a = op.attr(name); a.is(AttrKind::Integer))
      return std::pair{name, a.bits()};
  return std::nullopt;
}

/// The results of the SinCos instructions of SPV_INTEL_arbitrary_precision_floating_point and
/// _fixed_point hold two values, the sine and the cosine: a vector of two integers (the
/// extensions' text) or an integer twice as wide (their first revisions, as the SYCL headers
/// still declare them). The width of one value; 0 (and an error) for any other result.
unsigned sinCosValueWidth(Check &c) {
  Type r = c.result();
  unsigned w = r.is(TypeKind::Vector) ? (r.count() == 2 ? scalarOf(r).width() : 0)
                                      : (r.width() % 2 == 0 ? r.width() / 2 : 0);
  if (!w)
    c.fail("the result (" + str(r) +
           ") must be a vector of two integers or an integer of even width (the sine and the "
           "cosine)");
  return w;
}

/// SPV_INTEL_arbitrary_precision_floating_point: a value is an integer of 1 + E + M bits (sign,
/// exponent, mantissa) whose mantissa width M a literal gives: M must leave the sign bit room,
/// M <= width - 1. `sinCos`: the result holds two values.
bool arbitraryFloat(Check &c, bool sinCos) {
  auto fits = [&](std::initializer_list<std::string_view> names, unsigned width, Type t,
                  const std::string &who) {
    auto m = literalNamed(c.op, names);
    return !m || m->second < width ||
           c.fail(std::string(m->first) + " (" + std::to_string(m->second) +
                  ") must be less than the " + std::to_string(width) + " bits of " + who + " (" +
                  str(t) + ")");
  };
  Type r = c.result();
  unsigned resultWidth = sinCos ? sinCosValueWidth(c) : r.is(TypeKind::Integer) ? r.width() : 0;
  if (sinCos && !resultWidth)
    return false;
  if (!fits({"ma", "m1"}, c.operand(0).width(), c.operand(0), "operand 0"))
    return false;
  if (c.numOperands() > 1 && !fits({"mb", "m2"}, c.operand(1).width(), c.operand(1), "operand 1"))
    return false;
  return !resultWidth || fits({"mresult", "m_result", "mout"}, resultWidth, r,
                              sinCos ? "each value of the result" : "the result");
}
bool arbitraryFloatValues(Check &c) { return arbitraryFloat(c, false); }
bool arbitraryFloatSinCos(Check &c) { return arbitraryFloat(c, true); }

/// The input of an op whose Debian grammar lists an operand the extension has not before it:
/// the last operand; fails when there is none.
std::optional<uint32_t> inputOperand(Check &c) {
  if (c.numOperands() == 0) {
    c.fail("needs an input operand");
    return std::nullopt;
  }
  return c.numOperands() - 1;
}

/// SPV_INTEL_arbitrary_precision_fixed_point: the input is an integer scalar of the fixed-point
/// width; the literals place the binary point and say the signedness, which the types do not
/// carry. The input is the last operand: Debian's grammar lists an Input Type id before it,
/// which later grammars (and the extension) dropped.
bool fixedPoint(Check &c, bool sinCos) {
  std::optional<uint32_t> in = inputOperand(c);
  if (!in)
    return false;
  Type t = c.operand(*in);
  if (!matches(t, kIntS, 0))
    return c.fail("operand " + std::to_string(*in) +
                  " (the input) must be an integer scalar, not " + str(t));
  return !sinCos || sinCosValueWidth(c) != 0;
}
bool fixedPointValue(Check &c) { return fixedPoint(c, false); }
bool fixedPointSinCos(Check &c) { return fixedPoint(c, true); }

/// INTEL.FPGAReg: the input, the last operand, has the result's type (SPV_INTEL_fpga_reg: any
/// type; Debian's grammar lists a Result id before the input, which the extension has not).
bool fpgaReg(Check &c) {
  std::optional<uint32_t> in = inputOperand(c);
  if (!in)
    return false;
  return c.operand(*in) == c.result() ||
         c.fail("operand " + std::to_string(*in) + " (" + str(c.operand(*in)) +
                ") must have the result's type (" + str(c.result()) + ")");
}

/// ALTERA.ReadPipeBlocking / WritePipeBlocking (INTEL in older grammars): the packet size and
/// alignment, the last two operands, are 32-bit integers. Grammars before SPIR-V 1.6 revision 7
/// list only those two, with a result; later ones put the pipe and the pointer first, as the
/// extension does, and give no result.
bool blockingPipe(Check &c) {
  const uint32_t n = c.numOperands();
  if (n < 2)
    return c.fail("needs a packet size and a packet alignment");
  for (uint32_t i = n - 2; i < n; ++i)
    if (Type t = c.operand(i); t && !matches(t, kI32, 0))
      return c.fail("operand " + std::to_string(i) + " (the packet " +
                    (i + 2 == n ? "size" : "alignment") + ") must be a 32-bit integer, not " +
                    str(t));
  return true;
}

/// INTEL.ConstantFunctionPointer: the pointer is in the CodeSectionINTEL storage class.
bool codeSectionPointer(Check &c) {
  constexpr uint32_t kCodeSectionINTEL = uint32_t(grammar::StorageClass::CodeSectionINTEL);
  return c.result().storageClass() == kCodeSectionINTEL ||
         c.fail("the result (" + str(c.result()) +
                ") must be in the CodeSectionINTEL storage class");
}

/// INTEL.FunctionPointerCall: operand 0 is the function pointer, the others the arguments.
/// When it points to a function type (producers of untyped pointers pass an i8 pointer), the
/// arguments have its parameter types and the result its return type.
bool functionPointerCall(Check &c) {
  if (c.numOperands() == 0)
    return c.fail("needs a function pointer");
  Type fn = c.operand(0).elementType();
  if (!fn.is(TypeKind::Function))
    return true;
  if (c.numOperands() - 1 != fn.inputs().size())
    return c.fail("passes " + std::to_string(c.numOperands() - 1) + " arguments to a function of " +
                  "type " + str(fn) + ", which takes " + std::to_string(fn.inputs().size()));
  for (uint32_t i = 1; i < c.numOperands(); ++i)
    if (c.operand(i) != fn.inputs()[i - 1])
      return c.fail("operand " + std::to_string(i) + " (" + str(c.operand(i)) +
                    ") must have parameter " + std::to_string(i - 1) + "'s type (" +
                    str(fn.inputs()[i - 1]) + ")");
  Type r = c.result();
  if (fn.results().empty())
    return !r || r.is(TypeKind::None) ||
           c.fail("has a result (" + str(r) + "); " + str(fn) + " returns none");
  return r == fn.results()[0] ||
         c.fail("the result (" + str(r) + ") must have the return type of " + str(fn) + " (" +
                str(fn.results()[0]) + ")");
}

/// INTEL.AsmCall: operand 0 is an inline assembly (spirv.INTEL.Asm), whose type is its
/// function type's return type, and the call returns that type.
bool asmCall(Check &c) {
  const Operation *def = c.numOperands() ? c.op.operand(0).definingOp() : nullptr;
  return (def && def->info().key == grammar::Op::AsmINTEL) ||
         c.fail("operand 0 must be a spirv.INTEL.Asm");
}

using Op = grammar::Op;
using GL = grammar::GlslStd450Inst;
using CL = grammar::OpenclStd100Inst;
using D = DialectOp;

const Row kRows[] = {
    // Arithmetic (SPIR-V 3.52.13): integer instructions take operands of the result's width and
    // shape whatever their signedness; float ones the result's type.
    {{Op::IAdd, Op::ISub, Op::IMul, Op::SDiv, Op::UDiv, Op::SRem, Op::SMod, Op::UMod, Op::SNegate},
     of(kInt | kSVM),
     {like()},
     true},
    {{Op::FAdd, Op::FSub, Op::FMul, Op::FDiv, Op::FRem, Op::FMod, Op::FNegate},
     of(kFloat | kSVM),
     {same()},
     true},
    {{Op::VectorTimesScalar}, of(kFloatV), {of(kFloatV), of(kFloatS)}, false, vectorTimesScalar},
    {{Op::MatrixTimesScalar}, of(kMatrix | kFloat | kCoop), {}, false, matrixTimesScalar},
    {{Op::MatrixTimesVector}, of(kFloatV), {of(kMatrix), of(kFloatV)}, false, matrixTimesVector},
    {{Op::VectorTimesMatrix}, of(kFloatV), {of(kFloatV), of(kMatrix)}, false, vectorTimesMatrix},
    {{Op::MatrixTimesMatrix}, of(kMatrix), {of(kMatrix), of(kMatrix)}, false, matrixTimesMatrix},
    {{Op::OuterProduct}, of(kMatrix), {of(kFloatV), of(kFloatV)}, false, outerProduct},
    {{Op::Transpose}, of(kMatrix), {of(kMatrix)}, false, transpose},
    {{Op::Dot}, of(kFloatS | kEncodedFloat), {elem(kFloatV | kEncodedFloat), same(0)}},
    {{Op::IAddCarry, Op::ISubBorrow, Op::UMulExtended, Op::SMulExtended},
     of(kStruct),
     {},
     false,
     twoMemberResult},
    {{Op::DPdx, Op::DPdy, Op::Fwidth, Op::DPdxFine, Op::DPdyFine, Op::FwidthFine, Op::DPdxCoarse,
      Op::DPdyCoarse, Op::FwidthCoarse},
     of(kFloatSV),
     {same()}},
    // Bit instructions.
    {{Op::BitwiseAnd, Op::BitwiseOr, Op::BitwiseXor}, of(kIntSV | kAnyLength), {like()}, true},
    {{Op::Not, Op::BitReverse}, of(kIntSV), {like()}, true},
    {{Op::ShiftLeftLogical, Op::ShiftRightLogical, Op::ShiftRightArithmetic},
     of(kIntSV),
     {like(), shaped(kIntSV)}},
    {{Op::BitFieldInsert}, of(kIntSV), {like(), like(), of(kIntS), of(kIntS)}},
    {{Op::BitFieldSExtract, Op::BitFieldUExtract}, of(kIntSV), {like(), of(kIntS), of(kIntS)}},
    {{Op::BitCount}, of(kIntSV), {shaped(kIntSV)}},
    // Relational and logical instructions: a bool of the operands' shape.
    {{Op::IEqual, Op::INotEqual, Op::UGreaterThan, Op::SGreaterThan, Op::UGreaterThanEqual,
      Op::SGreaterThanEqual, Op::ULessThan, Op::SLessThan, Op::ULessThanEqual, Op::SLessThanEqual},
     of(kBoolSV),
     {shaped(kIntSV), like(0)}},
    {{Op::FOrdEqual, Op::FUnordEqual, Op::FOrdNotEqual, Op::FUnordNotEqual, Op::FOrdLessThan,
      Op::FUnordLessThan, Op::FOrdGreaterThan, Op::FUnordGreaterThan, Op::FOrdLessThanEqual,
      Op::FUnordLessThanEqual, Op::FOrdGreaterThanEqual, Op::FUnordGreaterThanEqual,
      Op::LessOrGreater, Op::Ordered, Op::Unordered},
     of(kBoolSV),
     {shaped(kFloatSV), same(0)}},
    {{Op::LogicalEqual, Op::LogicalNotEqual, Op::LogicalOr, Op::LogicalAnd, Op::LogicalNot},
     of(kBoolSV),
     {same()},
     true},
    {{Op::Any, Op::All}, of(kBoolS), {of(kBool | kVector)}},
    {{Op::IsNan, Op::IsInf, Op::IsFinite, Op::IsNormal, Op::SignBitSet},
     of(kBoolSV),
     {shaped(kFloatSV)}},
    {{Op::Select}, {}, {of(kBoolSV), anyType(), anyType()}, false, selectOp},
    // Conversions: per component, so of the result's shape.
    {{Op::ConvertFToU, Op::ConvertFToS}, of(kInt | kSVM), {shaped(kFloat | kSVM)}},
    {{Op::ConvertSToF, Op::ConvertUToF}, of(kFloat | kSVM), {shaped(kInt | kSVM)}},
    {{Op::SatConvertSToU, Op::SatConvertUToS}, of(kInt | kSVM), {shaped(kInt | kSVM)}},
    {{Op::UConvert, Op::SConvert}, of(kInt | kSVM), {of(kInt | kSVM)}, false, convertWidth},
    {{Op::FConvert},
     of(kFloat | kSVM | kEncodedFloat),
     {of(kFloat | kSVM | kEncodedFloat)},
     false,
     convertWidth},
    {{Op::QuantizeToF16}, of(kFloatSV | kW32), {same()}},
    {{Op::ConvertPtrToU}, of(kIntS), {of(kPointer)}, false, pointerIntegerCast},
    {{Op::ConvertUToPtr}, of(kPointer), {of(kIntS)}, false, pointerIntegerCast},
    {{Op::PtrCastToGeneric, Op::GenericCastToPtr, Op::GenericCastToPtrExplicit},
     of(kPointer),
     {of(kPointer)},
     false,
     genericCast},
    {{Op::Bitcast}, {}, {}, false, bitcast},
    // Composites.
    {{Op::CopyObject}, {}, {same()}},
    {{Op::VectorExtractDynamic},
     of(kScalarOrVector & ~kVector),
     {elem(kScalarOrVector & ~kScalar), of(kIntS)}},
    {{Op::VectorInsertDynamic}, of(kScalarOrVector & ~kScalar), {same(), elemOf(), of(kIntS)}},
    {{Op::VectorShuffle},
     of(kScalarOrVector & ~kScalar),
     {of(kScalarOrVector & ~kScalar), of(kScalarOrVector & ~kScalar)},
     false,
     vectorShuffle},
    {{Op::CompositeConstruct}, {}, {}, false, compositeConstruct},
    {{Op::CompositeExtract}, {}, {}, false, compositeExtract},
    {{Op::CompositeInsert}, {}, {anyType(), same()}, false, compositeInsert},
    // Memory.
    {{Op::Load}, {}, {ptrTo()}},
    {{Op::Store}, {}, {ptrTo(1)}},
    {{Op::AccessChain, Op::InBoundsAccessChain},
     of(kPointer),
     {of(kPointer)},
     false,
     plainAccessChain},
    {{Op::PtrAccessChain, Op::InBoundsPtrAccessChain},
     of(kPointer),
     {of(kPointer)},
     false,
     ptrAccessChain},
    {{Op::Variable}, of(kPointer), {pointee()}, false, variable},
    {{Op::CopyMemory}, {}, {of(kPointer), of(kPointer)}, false, copyMemory},
    {{Op::CopyMemorySized}, {}, {of(kPointer), of(kPointer), of(kIntS)}},
    {{Op::ArrayLength}, of(kIntS), {of(kPointer)}, false, arrayLength},
    {{Op::PtrEqual, Op::PtrNotEqual}, of(kBoolS), {of(kPointer), same(0)}},
    {{Op::PtrDiff}, of(kIntS), {of(kPointer), same(0)}},
    {{D::GlobalVariable}, {}, {}, false, globalVariable},
    {{D::AddressOf}, of(kPointer), {}, false, addressOf},
    {{D::ReferenceOf}, {}, {}, false, referenceOf},
    {{D::Constant}, {}, {}, false, constant},
    {{D::SpecConstantOperation}, {}, {}, false, specConstantOperation},
    {{D::SpecConstantComposite}, {}, {}, false, specConstantComposite},
    // Atomics: the pointer points to the result's type, and values have it.
    {{Op::AtomicLoad}, of(kNum | kSV), {ptrTo()}},
    {{Op::AtomicStore}, {}, {ptrTo(1), of(kNum | kSV)}},
    {{Op::AtomicExchange}, of(kNum | kSV), {ptrTo(), same()}},
    {{Op::AtomicCompareExchange, Op::AtomicCompareExchangeWeak},
     of(kInt | kSV),
     {ptrTo(), same(), same()}},
    {{Op::AtomicIIncrement, Op::AtomicIDecrement}, of(kInt | kSV), {ptrTo()}},
    {{Op::AtomicIAdd, Op::AtomicISub, Op::AtomicSMin, Op::AtomicUMin, Op::AtomicSMax,
      Op::AtomicUMax, Op::AtomicAnd, Op::AtomicOr, Op::AtomicXor},
     of(kInt | kSV),
     {ptrTo(), same()}},
    {{Op::AtomicFAddEXT, Op::AtomicFMinEXT, Op::AtomicFMaxEXT},
     of(kFloat | kSV),
     {ptrTo(), same()}},
    {{Op::AtomicFlagTestAndSet}, of(kBoolS), {of(kPointer)}},
    {{Op::AtomicFlagClear}, {}, {of(kPointer)}},
    // Control flow and functions.
    {{Op::BranchConditional}, {}, {of(kBoolS)}},
    {{Op::Switch}, {}, {of(kIntS)}},
    {{Op::ReturnValue}, {}, {}, false, returnValue},
    {{Op::Return}, {}, {}, false, returnNothing},
    {{Op::FunctionCall}, {}, {}, false, functionCall},
    {{D::Func}, {}, {}, false, func},
    {{D::FuncReturn}, {}, {}, false, funcReturn},
    {{D::FuncCall}, {}, {}, false, funcCall},
    // Groups and subgroups: the value keeps its type (signedness aside: modules mix them).
    {{Op::GroupNonUniformElect}, of(kBoolS)},
    {{Op::GroupNonUniformAll, Op::GroupNonUniformAny, Op::GroupAll, Op::GroupAny,
      Op::SubgroupAllKHR, Op::SubgroupAnyKHR},
     of(kBoolS),
     {of(kBoolS)}},
    {{Op::GroupNonUniformAllEqual, Op::SubgroupAllEqualKHR}, of(kBoolS), {of(kScalarOrVector)}},
    {{Op::GroupNonUniformBroadcast, Op::GroupNonUniformShuffle, Op::GroupNonUniformShuffleXor,
      Op::GroupNonUniformShuffleUp, Op::GroupNonUniformShuffleDown,
      Op::GroupNonUniformQuadBroadcast, Op::GroupNonUniformQuadSwap, Op::SubgroupReadInvocationKHR},
     of(kScalarOrVector),
     {like(), of(kIntS)}},
    {{Op::GroupNonUniformRotateKHR}, of(kScalarOrVector), {like(), of(kIntS), of(kIntS)}},
    {{Op::GroupNonUniformBroadcastFirst, Op::SubgroupFirstInvocationKHR},
     of(kScalarOrVector),
     {like()}},
    {{Op::GroupNonUniformBallot, Op::SubgroupBallotKHR}, of(kIntV | kW32, 4), {of(kBoolS)}},
    {{Op::GroupNonUniformInverseBallot}, of(kBoolS), {of(kIntV | kW32, 4)}},
    {{Op::GroupNonUniformBallotBitExtract}, of(kBoolS), {of(kIntV | kW32, 4), of(kIntS)}},
    {{Op::GroupNonUniformBallotBitCount, Op::GroupNonUniformBallotFindLSB,
      Op::GroupNonUniformBallotFindMSB},
     of(kIntS),
     {of(kIntV | kW32, 4)}},
    {{Op::GroupNonUniformIAdd, Op::GroupNonUniformIMul, Op::GroupNonUniformSMin,
      Op::GroupNonUniformUMin, Op::GroupNonUniformSMax, Op::GroupNonUniformUMax,
      Op::GroupNonUniformBitwiseAnd, Op::GroupNonUniformBitwiseOr, Op::GroupNonUniformBitwiseXor},
     of(kIntSV),
     {like(), {}},
     false,
     groupReductionCluster},
    {{Op::GroupNonUniformFAdd, Op::GroupNonUniformFMul, Op::GroupNonUniformFMin,
      Op::GroupNonUniformFMax},
     of(kFloatSV),
     {same(), {}},
     false,
     groupReductionCluster},
    {{Op::GroupNonUniformLogicalAnd, Op::GroupNonUniformLogicalOr, Op::GroupNonUniformLogicalXor},
     of(kBoolSV),
     {same(), {}},
     false,
     groupReductionCluster},
    {{Op::GroupBroadcast}, of(kScalarOrVector), {like(), of(kIntSV)}},
    {{Op::GroupIAdd, Op::GroupUMin, Op::GroupSMin, Op::GroupUMax, Op::GroupSMax, Op::GroupIMulKHR,
      Op::GroupBitwiseAndKHR, Op::GroupBitwiseOrKHR, Op::GroupBitwiseXorKHR},
     of(kIntSV),
     {like()}},
    {{Op::GroupFAdd, Op::GroupFMin, Op::GroupFMax, Op::GroupFMulKHR}, of(kFloatSV), {same()}},
    {{Op::GroupLogicalAndKHR, Op::GroupLogicalOrKHR, Op::GroupLogicalXorKHR},
     of(kBoolSV),
     {same()}},
    // Images: the operands' kinds.
    {{Op::SampledImage}, of(kSampledImage), {of(kImage), of(kSampler)}},
    {{Op::Image}, of(kImage), {of(kSampledImage)}},
    {{Op::ImageSampleImplicitLod, Op::ImageSampleExplicitLod, Op::ImageSampleProjImplicitLod,
      Op::ImageSampleProjExplicitLod},
     of(kNum | kSV),
     {of(kSampledImage), of(kNum | kSV)}},
    {{Op::ImageSampleDrefImplicitLod, Op::ImageSampleDrefExplicitLod,
      Op::ImageSampleProjDrefImplicitLod, Op::ImageSampleProjDrefExplicitLod},
     of(kNum | kScalar),
     {of(kSampledImage), of(kNum | kSV), of(kFloatS)}},
    {{Op::ImageGather}, of(kNum | kVector), {of(kSampledImage), of(kNum | kSV), of(kIntS)}},
    {{Op::ImageDrefGather}, of(kNum | kVector), {of(kSampledImage), of(kNum | kSV), of(kFloatS)}},
    {{Op::ImageFetch, Op::ImageRead}, of(kNum | kSV), {of(kImage), of(kNum | kSV)}},
    {{Op::ImageWrite}, {}, {of(kImage), of(kNum | kSV), of(kNum | kSV)}},
    {{Op::ImageQuerySize, Op::ImageQuerySizeLod}, of(kIntSV), {of(kImage), of(kIntS)}},
    {{Op::ImageQueryLevels, Op::ImageQuerySamples, Op::ImageQueryFormat, Op::ImageQueryOrder},
     of(kIntS),
     {of(kImage)}},
    {{Op::ImageQueryLod}, of(kFloatV, 2), {of(kSampledImage), of(kNum | kSV)}},
    {{Op::ImageTexelPointer}, of(kPointer), {of(kPointer), of(kIntSV), of(kIntS)}},
    // GLSL.std.450: float functions take and give one type (the trigonometric, exponential and
    // power ones 16 or 32 bits wide), integer ones one width and shape.
    {{GL::Round,  GL::RoundEven, GL::Trunc,     GL::FAbs,        GL::FSign,  GL::Floor,
      GL::Ceil,   GL::Fract,     GL::Sqrt,      GL::InverseSqrt, GL::FMin,   GL::FMax,
      GL::FClamp, GL::FMix,      GL::Step,      GL::SmoothStep,  GL::Fma,    GL::NMin,
      GL::NMax,   GL::NClamp,    GL::Normalize, GL::FaceForward, GL::Reflect},
     of(kFloatSV),
     {same()},
     true},
    {{GL::Radians, GL::Degrees, GL::Sin,  GL::Cos,  GL::Tan,   GL::Asin,  GL::Acos,
      GL::Atan,    GL::Sinh,    GL::Cosh, GL::Tanh, GL::Asinh, GL::Acosh, GL::Atanh,
      GL::Atan2,   GL::Pow,     GL::Exp,  GL::Log,  GL::Exp2,  GL::Log2},
     of(kFloatSV | kW16or32),
     {same()},
     true},
    {{GL::SAbs, GL::SSign, GL::UMin, GL::SMin, GL::UMax, GL::SMax, GL::UClamp, GL::SClamp,
      GL::FindILsb},
     of(kIntSV),
     {like()},
     true},
    {{GL::FindSMsb, GL::FindUMsb}, of(kIntSV | kW32), {like()}},
    {{GL::Cross}, of(kFloatV, 3), {same(), same()}},
    {{GL::Length}, of(kFloatS), {elem(kFloatSV)}},
    {{GL::Distance}, of(kFloatS), {elem(kFloatSV), same(0)}},
    {{GL::Refract}, of(kFloatSV), {same(), same(), of(kFloatS)}},
    {{GL::Ldexp}, of(kFloatSV), {same(), shaped(kIntSV)}},
    {{GL::Modf}, of(kFloatSV), {same(), ptrTo()}},
    {{GL::Frexp}, of(kFloatSV), {same(), of(kPointer)}},
    {{GL::ModfStruct}, of(kStruct), {of(kFloatSV)}, false, modfStruct},
    {{GL::FrexpStruct}, of(kStruct), {of(kFloatSV)}, false, frexpStruct},
    {{GL::Determinant}, of(kFloatS), {of(kMatrix)}, false, determinant},
    {{GL::MatrixInverse}, of(kMatrix), {same()}, false, matrixInverse},
    {{GL::PackSnorm4x8, GL::PackUnorm4x8}, of(kIntS | kW32), {of(kFloatV | kW32, 4)}},
    {{GL::PackSnorm2x16, GL::PackUnorm2x16, GL::PackHalf2x16},
     of(kIntS | kW32),
     {of(kFloatV | kW32, 2)}},
    {{GL::PackDouble2x32}, of(kFloatS), {of(kIntV | kW32, 2)}},
    {{GL::UnpackSnorm4x8, GL::UnpackUnorm4x8}, of(kFloatV | kW32, 4), {of(kIntS | kW32)}},
    {{GL::UnpackSnorm2x16, GL::UnpackUnorm2x16, GL::UnpackHalf2x16},
     of(kFloatV | kW32, 2),
     {of(kIntS | kW32)}},
    {{GL::UnpackDouble2x32}, of(kIntV | kW32, 2), {of(kFloatS)}},
    {{GL::InterpolateAtCentroid}, of(kFloatSV | kW32), {ptrTo()}},
    {{GL::InterpolateAtSample}, of(kFloatSV | kW32), {ptrTo(), of(kIntS)}},
    {{GL::InterpolateAtOffset}, of(kFloatSV | kW32), {ptrTo(), of(kFloatV, 2)}},
    // OpenCL.std: gentype functions take and give one type.
    {{CL::acos,          CL::acosh,         CL::acospi,       CL::asin,        CL::asinh,
      CL::asinpi,        CL::atan,          CL::atan2,        CL::atanh,       CL::atanpi,
      CL::atan2pi,       CL::cbrt,          CL::ceil,         CL::copysign,    CL::cos,
      CL::cosh,          CL::cospi,         CL::erfc,         CL::erf,         CL::exp,
      CL::exp2,          CL::exp10,         CL::expm1,        CL::fabs,        CL::fdim,
      CL::floor,         CL::fma,           CL::fmax,         CL::fmin,        CL::fmod,
      CL::hypot,         CL::lgamma,        CL::log,          CL::log2,        CL::log10,
      CL::log1p,         CL::logb,          CL::mad,          CL::maxmag,      CL::minmag,
      CL::nextafter,     CL::pow,           CL::powr,         CL::remainder,   CL::rint,
      CL::round,         CL::rsqrt,         CL::sin,          CL::sinh,        CL::sinpi,
      CL::sqrt,          CL::tan,           CL::tanh,         CL::tanpi,       CL::tgamma,
      CL::trunc,         CL::half_cos,      CL::half_divide,  CL::half_exp,    CL::half_exp2,
      CL::half_exp10,    CL::half_log,      CL::half_log2,    CL::half_log10,  CL::half_powr,
      CL::half_recip,    CL::half_rsqrt,    CL::half_sin,     CL::half_sqrt,   CL::half_tan,
      CL::native_cos,    CL::native_divide, CL::native_exp,   CL::native_exp2, CL::native_exp10,
      CL::native_log,    CL::native_log2,   CL::native_log10, CL::native_powr, CL::native_recip,
      CL::native_rsqrt,  CL::native_sin,    CL::native_sqrt,  CL::native_tan,  CL::fclamp,
      CL::degrees,       CL::fmax_common,   CL::fmin_common,  CL::mix,         CL::radians,
      CL::step,          CL::smoothstep,    CL::sign,         CL::cross,       CL::normalize,
      CL::fast_normalize},
     of(kFloatSV),
     {same()},
     true},
    {{CL::pown, CL::rootn, CL::ldexp}, of(kFloatSV), {same(), shaped(kIntSV)}},
    {{CL::fract, CL::modf, CL::sincos}, of(kFloatSV), {same(), ptrTo()}},
    {{CL::frexp, CL::lgamma_r}, of(kFloatSV), {same(), of(kPointer)}},
    {{CL::remquo}, of(kFloatSV), {same(), same(), of(kPointer)}},
    {{CL::ilogb}, of(kIntSV), {shaped(kFloatSV)}},
    {{CL::nan}, of(kFloatSV), {shaped(kIntSV)}},
    {{CL::s_abs,   CL::u_abs,     CL::s_abs_diff, CL::u_abs_diff, CL::s_add_sat, CL::u_add_sat,
      CL::s_hadd,  CL::u_hadd,    CL::s_rhadd,    CL::u_rhadd,    CL::s_clamp,   CL::u_clamp,
      CL::clz,     CL::ctz,       CL::s_mad_hi,   CL::u_mad_hi,   CL::u_mad_sat, CL::s_mad_sat,
      CL::s_max,   CL::u_max,     CL::s_min,      CL::u_min,      CL::s_mul_hi,  CL::u_mul_hi,
      CL::rotate,  CL::s_sub_sat, CL::u_sub_sat,  CL::popcount,   CL::s_mad24,   CL::u_mad24,
      CL::s_mul24, CL::u_mul24},
     of(kIntSV),
     {like()},
     true},
    {{CL::s_upsample, CL::u_upsample}, of(kIntSV), {shaped(kIntSV), like(0)}},
    {{CL::bitselect}, of(kNum | kSV), {same()}, true},
    {{CL::select}, of(kNum | kSV), {same(), same(), shaped(kIntSV)}},
    {{CL::length, CL::fast_length}, of(kFloatS), {elem(kFloatSV)}},
    {{CL::distance, CL::fast_distance}, of(kFloatS), {elem(kFloatSV), same(0)}},
    {{CL::printf}, of(kIntS), {of(kPointer)}},
    {{CL::prefetch}, {}, {of(kPointer), of(kIntS)}},
    {{CL::vloadn}, of(kNum | kVector), {of(kIntS), of(kPointer)}},
    {{CL::vload_half}, of(kFloatS), {of(kIntS), of(kPointer)}},
    {{CL::vload_halfn, CL::vloada_halfn}, of(kFloatV), {of(kIntS), of(kPointer)}},
    {{CL::vstoren}, {}, {of(kNum | kVector), of(kIntS), of(kPointer)}},
    {{CL::vstore_half, CL::vstore_half_r}, {}, {of(kFloatS), of(kIntS), of(kPointer)}},
    {{CL::vstore_halfn, CL::vstore_halfn_r, CL::vstorea_halfn, CL::vstorea_halfn_r},
     {},
     {of(kFloatV), of(kIntS), of(kPointer)}},
    {{CL::shuffle}, of(kNum | kVector), {of(kNum | kVector), shaped(kIntV)}},
    {{CL::shuffle2}, of(kNum | kVector), {of(kNum | kVector), same(0), shaped(kIntV)}},
    // Sparse images: the operands of the non-sparse forms; the result holds the residency code
    // and the texel.
    {{Op::ImageSparseSampleImplicitLod, Op::ImageSparseSampleExplicitLod,
      Op::ImageSparseSampleProjImplicitLod, Op::ImageSparseSampleProjExplicitLod},
     of(kStruct),
     {of(kSampledImage), of(kNum | kSV)},
     false,
     sparseTexel},
    {{Op::ImageSparseSampleDrefImplicitLod, Op::ImageSparseSampleDrefExplicitLod,
      Op::ImageSparseSampleProjDrefImplicitLod, Op::ImageSparseSampleProjDrefExplicitLod},
     of(kStruct),
     {of(kSampledImage), of(kNum | kSV), of(kFloatS)},
     false,
     sparseDrefTexel},
    {{Op::ImageSparseFetch, Op::ImageSparseRead},
     of(kStruct),
     {of(kImage), of(kNum | kSV)},
     false,
     sparseTexel},
    {{Op::ImageSparseGather},
     of(kStruct),
     {of(kSampledImage), of(kNum | kSV), of(kIntS)},
     false,
     sparseGatheredTexel},
    {{Op::ImageSparseDrefGather},
     of(kStruct),
     {of(kSampledImage), of(kNum | kSV), of(kFloatS)},
     false,
     sparseGatheredTexel},
    {{Op::ImageSparseTexelsResident}, of(kBoolS), {of(kIntS)}},
    // Integer dot products; the accumulator has the result's type.
    {{Op::SDot, Op::UDot, Op::SUDot},
     of(kIntS),
     {of(kInt | kSV), of(kInt | kSV)},
     false,
     integerDot},
    {{Op::SDotAccSat, Op::UDotAccSat, Op::SUDotAccSat},
     of(kIntS),
     {of(kInt | kSV), of(kInt | kSV), of(kIntS)},
     false,
     integerDot},
    // Cooperative matrices (NV): memory through pointers with an integer stride and a bool
    // column-major flag. The products, NV and KHR, in their shapes.
    {{Op::CooperativeMatrixLoadNV},
     of(kCoop | kNum | kEncodedFloat),
     {of(kPointer), of(kIntS), of(kBoolS)},
     false,
     coopPointerNV},
    {{Op::CooperativeMatrixStoreNV},
     {},
     {of(kPointer), of(kCoop | kNum | kEncodedFloat), of(kIntS), of(kBoolS)},
     false,
     coopPointerNV},
    {{Op::CooperativeMatrixLengthNV}, of(kIntS), {}, false, coopLengthNV},
    {{Op::CooperativeMatrixMulAddNV},
     of(kCoop | kNum | kEncodedFloat),
     {of(kCoop | kNum | kEncodedFloat), of(kCoop | kNum | kEncodedFloat),
      of(kCoop | kNum | kEncodedFloat)},
     false,
     coopMulAdd},
    {{Op::CooperativeMatrixMulAddKHR},
     of(kCoop | kNum | kEncodedFloat),
     {of(kCoop | kNum | kEncodedFloat), of(kCoop | kNum | kEncodedFloat),
      of(kCoop | kNum | kEncodedFloat)},
     false,
     coopMulAdd},
    // INTEL joint matrices: memory through pointers with an integer stride; the product.
    {{Op::JointMatrixLoadINTEL}, of(kJoint | kNum), {of(kPointer), of(kIntS)}, false, jointPointer},
    {{Op::JointMatrixStoreINTEL},
     {},
     {of(kPointer), of(kJoint | kNum), of(kIntS)},
     false,
     jointPointer},
    {{Op::JointMatrixMadINTEL},
     of(kJoint | kNum),
     {of(kJoint | kNum), of(kJoint | kNum), of(kJoint | kNum)},
     false,
     jointMad},
    {{Op::JointMatrixWorkItemLengthINTEL}, of(kI32), {}, false, jointLength},
    // Ray tracing: an acceleration structure, 32-bit integer flags, mask and shader binding
    // table operands, then the ray (origin, Tmin, direction, Tmax as 32-bit floats), then the
    // payload (a variable, or for NV's Trace a location).
    {{Op::TraceRayKHR},
     {},
     {of(kAccelStruct), of(kI32), of(kI32), of(kI32), of(kI32), of(kI32), of(kF32V, 3), of(kF32),
      of(kF32V, 3), of(kF32), of(kPointer)}},
    {{Op::TraceNV},
     {},
     {of(kAccelStruct), of(kI32), of(kI32), of(kI32), of(kI32), of(kI32), of(kF32V, 3), of(kF32),
      of(kF32V, 3), of(kF32), of(kI32)}},
    {{Op::TraceRayMotionNV},
     {},
     {of(kAccelStruct), of(kI32), of(kI32), of(kI32), of(kI32), of(kI32), of(kF32V, 3), of(kF32),
      of(kF32V, 3), of(kF32), of(kF32), of(kPointer)}},
    {{Op::TraceMotionNV},
     {},
     {of(kAccelStruct), of(kI32), of(kI32), of(kI32), of(kI32), of(kI32), of(kF32V, 3), of(kF32),
      of(kF32V, 3), of(kF32), of(kF32), of(kI32)}},
    {{Op::ExecuteCallableKHR}, {}, {of(kI32), of(kPointer)}},
    {{Op::ExecuteCallableNV}, {}, {of(kI32), of(kI32)}},
    {{Op::ReportIntersectionKHR, Op::ReportIntersectionKHR}, of(kBoolS), {of(kF32), of(kI32)}},
    {{Op::ConvertUToAccelerationStructureKHR},
     of(kAccelStruct),
     {of(kInt | kSV)},
     false,
     addressOperand},
    // Ray queries: a pointer to the query, then what each instruction takes (an Intersection
    // operand is a 32-bit integer).
    {{Op::RayQueryInitializeKHR},
     {},
     {ptrToClass(kRayQuery), of(kAccelStruct), of(kI32), of(kI32), of(kF32V, 3), of(kF32),
      of(kF32V, 3), of(kF32)}},
    {{Op::RayQueryTerminateKHR, Op::RayQueryConfirmIntersectionKHR}, {}, {ptrToClass(kRayQuery)}},
    {{Op::RayQueryGenerateIntersectionKHR}, {}, {ptrToClass(kRayQuery), of(kF32)}},
    {{Op::RayQueryProceedKHR, Op::RayQueryGetIntersectionCandidateAABBOpaqueKHR},
     of(kBoolS),
     {ptrToClass(kRayQuery)}},
    {{Op::RayQueryGetIntersectionFrontFaceKHR}, of(kBoolS), {ptrToClass(kRayQuery), of(kI32)}},
    {{Op::RayQueryGetRayTMinKHR}, of(kF32), {ptrToClass(kRayQuery)}},
    {{Op::RayQueryGetRayFlagsKHR}, of(kI32), {ptrToClass(kRayQuery)}},
    {{Op::RayQueryGetIntersectionTKHR}, of(kF32), {ptrToClass(kRayQuery), of(kI32)}},
    {{Op::RayQueryGetIntersectionTypeKHR, Op::RayQueryGetIntersectionInstanceCustomIndexKHR,
      Op::RayQueryGetIntersectionInstanceIdKHR,
      Op::RayQueryGetIntersectionInstanceShaderBindingTableRecordOffsetKHR,
      Op::RayQueryGetIntersectionGeometryIndexKHR, Op::RayQueryGetIntersectionPrimitiveIndexKHR},
     of(kI32),
     {ptrToClass(kRayQuery), of(kI32)}},
    {{Op::RayQueryGetIntersectionBarycentricsKHR}, of(kF32V, 2), {ptrToClass(kRayQuery), of(kI32)}},
    {{Op::RayQueryGetIntersectionObjectRayDirectionKHR,
      Op::RayQueryGetIntersectionObjectRayOriginKHR},
     of(kF32V, 3),
     {ptrToClass(kRayQuery), of(kI32)}},
    {{Op::RayQueryGetWorldRayDirectionKHR, Op::RayQueryGetWorldRayOriginKHR},
     of(kF32V, 3),
     {ptrToClass(kRayQuery)}},
    {{Op::RayQueryGetIntersectionObjectToWorldKHR, Op::RayQueryGetIntersectionWorldToObjectKHR},
     of(kMatrix),
     {ptrToClass(kRayQuery), of(kI32)},
     false,
     transformResult},
    // Pipes: packet sizes, alignments, counts and indexes are 32-bit integers; reads take
    // ReadOnly pipes, writes WriteOnly ones.
    {{Op::ReadPipe}, of(kI32), {of(kPipe), of(kPointer), of(kI32), of(kI32)}, false, readPipe},
    {{Op::WritePipe}, of(kI32), {of(kPipe), of(kPointer), of(kI32), of(kI32)}, false, writePipe},
    {{Op::ReservedReadPipe},
     of(kI32),
     {of(kPipe), of(kReserveId), of(kI32), of(kPointer), of(kI32), of(kI32)},
     false,
     readPipe},
    {{Op::ReservedWritePipe},
     of(kI32),
     {of(kPipe), of(kReserveId), of(kI32), of(kPointer), of(kI32), of(kI32)},
     false,
     writePipe},
    {{Op::ReserveReadPipePackets, Op::GroupReserveReadPipePackets},
     of(kReserveId),
     {of(kPipe), of(kI32), of(kI32), of(kI32)},
     false,
     readPipe},
    {{Op::ReserveWritePipePackets, Op::GroupReserveWritePipePackets},
     of(kReserveId),
     {of(kPipe), of(kI32), of(kI32), of(kI32)},
     false,
     writePipe},
    {{Op::CommitReadPipe, Op::GroupCommitReadPipe},
     {},
     {of(kPipe), of(kReserveId), of(kI32), of(kI32)},
     false,
     readPipe},
    {{Op::CommitWritePipe, Op::GroupCommitWritePipe},
     {},
     {of(kPipe), of(kReserveId), of(kI32), of(kI32)},
     false,
     writePipe},
    {{Op::IsValidReserveId}, of(kBoolS), {of(kReserveId)}},
    {{Op::GetNumPipePackets, Op::GetMaxPipePackets}, of(kI32), {of(kPipe), of(kI32), of(kI32)}},
    {{Op::CreatePipeFromPipeStorage}, of(kPipe), {of(kPipeStorage)}},
    // Device-side enqueue: queues, device events (by pointer in wait lists), ND ranges (structs),
    // invoked functions, their parameter block and its 32-bit size and alignment; the local sizes
    // of an enqueued kernel are integers of any width (the specification names none).
    {{Op::EnqueueMarker},
     of(kI32),
     {of(kQueue), of(kI32), ptrToClass(kDeviceEvent), ptrToClass(kDeviceEvent)}},
    {{Op::EnqueueKernel},
     of(kI32),
     {of(kQueue), of(kIntS), of(kStruct | kPointer), of(kI32), ptrToClass(kDeviceEvent),
      ptrToClass(kDeviceEvent), of(kFunctionType), of(kPointer), of(kI32), of(kI32), of(kIntS)},
     true,
     enqueuedNdRange},
    {{Op::GetKernelNDrangeSubGroupCount, Op::GetKernelNDrangeMaxSubGroupSize},
     of(kI32),
     {of(kStruct | kPointer), of(kFunctionType), of(kPointer), of(kI32), of(kI32)},
     false,
     queriedNdRange},
    {{Op::GetKernelWorkGroupSize, Op::GetKernelPreferredWorkGroupSizeMultiple,
      Op::GetKernelMaxNumSubgroups},
     of(kI32),
     {of(kFunctionType), of(kPointer), of(kI32), of(kI32)}},
    {{Op::GetKernelLocalSizeForSubgroupCount},
     of(kI32),
     {of(kI32), of(kFunctionType), of(kPointer), of(kI32), of(kI32)}},
    {{Op::RetainEvent, Op::ReleaseEvent}, {}, {of(kDeviceEvent)}},
    {{Op::CreateUserEvent}, of(kDeviceEvent)},
    {{Op::IsValidEvent}, of(kBoolS), {of(kDeviceEvent)}},
    {{Op::SetUserEventStatus}, {}, {of(kDeviceEvent), of(kI32)}},
    {{Op::CaptureEventProfilingInfo}, {}, {of(kDeviceEvent), of(kIntS), of(kPointer)}},
    {{Op::GetDefaultQueue}, of(kQueue)},
    {{Op::BuildNDRange}, of(kStruct), {of(kIntS | kArray), same(0), same(0)}},
    {{Op::GroupAsyncCopy},
     of(kEvent),
     {of(kPointer), samePointee(0), of(kIntS), of(kIntS), same()}},
    {{Op::GroupWaitEvents}, {}, {of(kIntS), ptrToClass(kEvent)}},
    // Vendor instructions of the corpus and their neighbours.
    {{Op::ExpectKHR}, of(kBool | kInt | kSV), {same(), same()}},
    {{Op::AssumeTrueKHR}, {}, {of(kBoolS)}},
    {{Op::ReadClockKHR}, of(kInt | kSV), {}, false, addressResult},
    {{Op::IsHelperInvocationEXT}, of(kBoolS)},
    {{Op::SetMeshOutputsEXT}, {}, {of(kI32), of(kI32)}},
    {{Op::EmitMeshTasksEXT}, {}, {of(kI32), of(kI32), of(kI32), of(kPointer)}, false, meshPayload},
    {{Op::ImageSampleFootprintNV},
     of(kStruct),
     {of(kSampledImage), of(kFloat | kSV), of(kIntS), of(kBoolS)}},
    {{Op::GroupIAddNonUniformAMD, Op::GroupUMinNonUniformAMD, Op::GroupSMinNonUniformAMD,
      Op::GroupUMaxNonUniformAMD, Op::GroupSMaxNonUniformAMD},
     of(kIntSV),
     {like()}},
    {{Op::GroupFAddNonUniformAMD, Op::GroupFMinNonUniformAMD, Op::GroupFMaxNonUniformAMD},
     of(kFloatSV),
     {same()}},
    {{Op::FragmentMaskFetchAMD}, of(kIntS), {of(kImage), of(kIntSV)}},
    {{Op::FragmentFetchAMD}, of(kNum | kSV), {of(kImage), of(kIntSV), of(kIntS)}},
    {{Op::SubgroupShuffleINTEL, Op::SubgroupShuffleXorINTEL}, of(kNum | kSV), {same(), of(kIntS)}},
    {{Op::SubgroupShuffleDownINTEL, Op::SubgroupShuffleUpINTEL},
     of(kNum | kSV),
     {same(), same(), of(kIntS)}},
    {{Op::SubgroupBlockReadINTEL}, of(kIntSV), {of(kPointer)}},
    {{Op::SubgroupBlockWriteINTEL}, {}, {of(kPointer), of(kIntSV)}},
    {{Op::SubgroupImageBlockReadINTEL}, of(kIntSV), {of(kImage), of(kIntV)}},
    {{Op::SubgroupImageBlockWriteINTEL}, {}, {of(kImage), of(kIntV), of(kIntSV)}},
    {{Op::GroupNonUniformPartitionEXT}, of(kIntV | kW32, 4), {of(kScalarOrVector)}},
    {{Op::WritePackedPrimitiveIndices4x8NV}, {}, {of(kI32), of(kI32)}},
    {{Op::ConvertUToImageNV}, of(kImage), {of(kInt | kSV)}, false, handleOperand},
    {{Op::ConvertUToSamplerNV}, of(kSampler), {of(kInt | kSV)}, false, handleOperand},
    {{Op::ConvertUToSampledImageNV}, of(kSampledImage), {of(kInt | kSV)}, false, handleOperand},
    {{Op::ConvertImageToUNV}, of(kInt | kSV), {of(kImage)}, false, handleResult},
    {{Op::ConvertSamplerToUNV}, of(kInt | kSV), {of(kSampler)}, false, handleResult},
    {{Op::ConvertSampledImageToUNV}, of(kInt | kSV), {of(kSampledImage)}, false, handleResult},
    {{Op::PtrCastToCrossWorkgroupALTERA, Op::CrossWorkgroupCastToPtrALTERA},
     of(kPointer),
     {of(kPointer)}},
    {{Op::VariableLengthArrayINTEL}, of(kPointer), {of(kIntS)}},
    {{Op::SaveMemoryINTEL}, of(kPointer)},
    {{Op::RestoreMemoryINTEL}, {}, {of(kPointer)}},
    // Geometry streams, lifetimes, sizes, named barriers.
    {{Op::EmitStreamVertex, Op::EndStreamPrimitive}, {}, {of(kIntS)}},
    {{Op::LifetimeStart, Op::LifetimeStop}, {}, {of(kPointer)}},
    {{Op::SizeOf}, of(kI32), {of(kPointer)}},
    {{Op::GenericPtrMemSemantics}, of(kI32), {of(kPointer)}},
    {{Op::NamedBarrierInitialize}, of(kNamedBarrier), {of(kI32)}},
    {{Op::MemoryNamedBarrier}, {}, {of(kNamedBarrier)}},
    {{Op::ConstantPipeStorage}, of(kPipeStorage)},
    // Arbitrary precision floating point (INTEL): integers hold the values, literal attributes
    // their mantissa widths; comparisons give a bool, SinCos both values.
    {{Op::ArbitraryFloatAddALTERA, Op::ArbitraryFloatSubALTERA, Op::ArbitraryFloatMulALTERA,
      Op::ArbitraryFloatDivALTERA, Op::ArbitraryFloatHypotALTERA, Op::ArbitraryFloatATan2INTEL,
      Op::ArbitraryFloatPowINTEL, Op::ArbitraryFloatPowRINTEL, Op::ArbitraryFloatPowNINTEL},
     of(kIntS),
     {of(kIntS), of(kIntS)},
     false,
     arbitraryFloatValues},
    {{Op::ArbitraryFloatGTALTERA, Op::ArbitraryFloatGEALTERA, Op::ArbitraryFloatLTALTERA,
      Op::ArbitraryFloatLEALTERA, Op::ArbitraryFloatEQALTERA},
     of(kBoolS),
     {of(kIntS), of(kIntS)},
     false,
     arbitraryFloatValues},
    {{Op::ArbitraryFloatCastALTERA,      Op::ArbitraryFloatCastFromIntALTERA,
      Op::ArbitraryFloatCastToIntALTERA, Op::ArbitraryFloatRecipALTERA,
      Op::ArbitraryFloatRSqrtALTERA,     Op::ArbitraryFloatCbrtALTERA,
      Op::ArbitraryFloatSqrtALTERA,      Op::ArbitraryFloatLogINTEL,
      Op::ArbitraryFloatLog2INTEL,       Op::ArbitraryFloatLog10INTEL,
      Op::ArbitraryFloatLog1pINTEL,      Op::ArbitraryFloatExpINTEL,
      Op::ArbitraryFloatExp2INTEL,       Op::ArbitraryFloatExp10INTEL,
      Op::ArbitraryFloatExpm1INTEL,      Op::ArbitraryFloatSinINTEL,
      Op::ArbitraryFloatCosINTEL,        Op::ArbitraryFloatSinPiINTEL,
      Op::ArbitraryFloatCosPiINTEL,      Op::ArbitraryFloatASinINTEL,
      Op::ArbitraryFloatASinPiINTEL,     Op::ArbitraryFloatACosINTEL,
      Op::ArbitraryFloatACosPiINTEL,     Op::ArbitraryFloatATanINTEL,
      Op::ArbitraryFloatATanPiINTEL},
     of(kIntS),
     {of(kIntS)},
     false,
     arbitraryFloatValues},
    {{Op::ArbitraryFloatSinCosINTEL, Op::ArbitraryFloatSinCosPiALTERA},
     of(kInt | kSV),
     {of(kIntS)},
     false,
     arbitraryFloatSinCos},
    // Arbitrary precision fixed point (INTEL).
    {{Op::FixedSqrtALTERA, Op::FixedRecipALTERA, Op::FixedRsqrtALTERA, Op::FixedSinALTERA,
      Op::FixedCosALTERA, Op::FixedSinPiALTERA, Op::FixedCosPiALTERA, Op::FixedLogALTERA,
      Op::FixedExpALTERA},
     of(kIntS),
     {},
     false,
     fixedPointValue},
    {{Op::FixedSinCosALTERA, Op::FixedSinCosPiALTERA}, of(kInt | kSV), {}, false, fixedPointSinCos},
    // FPGA registers, blocking pipes (the grammar has a result and the packet size and alignment
    // where the extension has the pipe and pointer operands first), function pointers and calls
    // of inline assembly (INTEL).
    {{Op::FPGARegALTERA}, {}, {}, false, fpgaReg},
    {{Op::ReadPipeBlockingALTERA, Op::WritePipeBlockingALTERA}, {}, {}, false, blockingPipe},
    {{Op::ConstantFunctionPointerINTEL}, ptrTo(0), {of(kFunctionType)}, false, codeSectionPointer},
    {{Op::FunctionPointerCallINTEL}, {}, {of(kPointer)}, false, functionPointerCall},
    {{Op::AsmCallINTEL}, same(0), {}, false, asmCall},
    // Constants and copies that are ops of their own.
    {{Op::ConstantNull},
     of(kBool | kNum | kSV | kCoop | kMatrix | kArray | kStruct | kPointer | kEvent | kDeviceEvent |
        kReserveId | kQueue)},
    {{Op::ConstantSampler}, of(kSampler)},
    {{Op::CopyLogical}, of(kArray | kStruct), {of(kArray | kStruct)}, false, copyLogical},
};

// --- The table shared with spire val ---------------------------------------------------------
// The AVC motion estimation, NV hit object, INTEL integer function and media block instructions
// are rows of
// include/spire/grammar/OperandTypes.h, which spire val reads too; each becomes a row of this
// verifier's, its shapes classes of uniqued types.

/// The class of the types `t` declares (an image, a sampler, an opaque type).
uint64_t declaredClass(Op t) {
  if (t == Op::TypeImage)
    return kImage;
  if (t == Op::TypeSampler)
    return kSampler;
  for (auto [opcode, cls] : kOpaqueClasses)
    if (opcode == t)
      return cls;
  return kAnyType;
}

Constraint sharedConstraint(const grammar::TypeConstraint &k) {
  using S = grammar::TypeShape;
  switch (k.shape) {
  case S::None:
    return {};
  case S::Int:
    return of(kIntS);
  case S::Int8:
    return of(kIntS | kW8);
  case S::Int16:
    return of(kIntS | kW16);
  case S::Int32:
  case S::UInt32: // the IR's integers of these instructions carry no signedness to check
    return of(kI32);
  case S::Int64:
    return of(kIntS | kW64);
  case S::Int8or16:
    return of(kIntS | kW8 | kW16);
  case S::Int8or32:
    return of(kIntS | kW8 | kW32);
  case S::IntScalarOrVector:
    return of(kIntSV);
  case S::Int32ScalarOrVector:
    return of(kIntSV | kW32);
  case S::LikeResult:
    return like();
  case S::IntPair:
    return of(kIntV, 2);
  case S::StorageImage: // Sampled: spire val
    return of(kImage);
  case S::Int16x2:
    return of(kIntV | kW16, 2);
  case S::Int32x2:
    return of(kIntV | kW32, 2);
  case S::Bool:
    return of(kBoolS);
  case S::Float32:
    return of(kF32);
  case S::Float32x3:
    return of(kF32V, 3);
  case S::Float32Mat4x3: // its columns: transformResult
    return of(kMatrix);
  case S::Float32Pair:
  case S::Float32x3Pair:
    return of(kArray);
  case S::Type:
    return of(declaredClass(k.type));
  case S::TypeOrAlt:
    return of(declaredClass(k.type) | declaredClass(k.alt));
  case S::PointerToType:
    return ptrToClass(declaredClass(k.type));
  case S::RayPayload: // the storage class is the variable's: spire val checks it
  case S::HitAttributes:
    return of(kPointer);
  }
  return {};
}

/// The verifier's rows of the shared table, in its order.
const std::vector<TypeRule> &sharedRows() {
  static const auto *rows = [] {
    auto *v = new std::vector<TypeRule>; // never torn down
    for (const grammar::OperandTypeRule &r : grammar::operandTypeRules()) {
      TypeRule row;
      row.result = sharedConstraint(r.result);
      for (size_t k = 0; k < r.operands.size() && k < row.operands.size(); ++k)
        row.operands[k] = sharedConstraint(r.operands[k]);
      if (r.ops[0] == Op::VmeImageINTEL)
        row.special = vmeImage;
      else if (r.result.shape == grammar::TypeShape::Float32Mat4x3)
        row.special = transformResult;
      v->push_back(row);
    }
    return v;
  }();
  return *rows;
}

/// Calls `f(key, row)` for every op every row names.
template <class F> void forEachRowKey(F f) {
  for (const TypeRule &row : kRows)
    for (OpKey key : row.ops)
      f(key, row);
  std::span<const grammar::OperandTypeRule> shared = grammar::operandTypeRules();
  for (size_t i = 0; i < shared.size(); ++i)
    for (Op op : shared[i].ops)
      if (op != Op::Nop)
        f(OpKey(op), sharedRows()[i]);
}

} // namespace

const Operation *TypeVerifier::symbol(const Operation &op, std::string_view name) {
  const Operation *module = &op;
  while (module && !ops::isSymbolTable(module->info()))
    module = module->parentOp();
  if (!module || module->numRegions() == 0 || module->region().empty())
    return nullptr;
  if (module != module_) {
    module_ = module;
    symbols_.clear();
    for (const Operation *def : *module->region().front())
      if (Attribute s = def->attr("sym_name"); s.is(AttrKind::String))
        symbols_.emplace(s.str(), def);
  }
  auto it = symbols_.find(name);
  return it == symbols_.end() ? nullptr : it->second;
}

std::string TypeVerifier::check(const Operation &op) {
  detail::attachTypeRulesOnce();
  const TypeRule *row = op.info().typeRule;
  if (!row)
    return {};
  // A scope or memory semantics given by an operand (a unit attribute in its place: OpenCL
  // kernels pass runtime values) shifts the operands the rows describe; such ops keep the
  // checks of their operand counts only.
  for (const OperandMapping &m : op.info().operands)
    if (m.kind == OperandMapping::Kind::IdEnum)
      if (Attribute a = op.attr(m.name); a && a.is(AttrKind::Unit))
        return {};
  Check c{op, *this, {}};
  if (c.run(*row))
    return {};
  return c.message.empty() ? std::string("has operand or result types it cannot have")
                           : std::move(c.message);
}

namespace detail {

void attachTypeRules(const OpRecords &records) {
  forEachRowKey([&](OpKey key, const TypeRule &row) {
    if (OpInfo *info = records.find(key); info && !info->typeRule)
      info->typeRule = &row;
  });
}

} // namespace detail

std::vector<OpKey> typeRuleKeysWithoutOp() {
  std::vector<OpKey> keys;
  forEachRowKey([&](OpKey key, const TypeRule &) {
    if (!findOp(key))
      keys.push_back(key);
  });
  return keys;
}

bool hasTypeRule(std::string_view opName) {
  detail::attachTypeRulesOnce();
  const OpInfo *info = findOp(opName);
  return info && info->typeRule;
}

} // namespace spire::dialect
