// How an op folds (OpInfo::folder): its element-wise constant folder and its simplifications,
// declared by opcode (OpFoldElements.cpp, OpFoldRewrites.cpp) and attached to the records when
// the registry is made; and the scalar constants both work on.
#pragma once

#include "spire/dialect/Fold.h"
#include "spire/dialect/Ops.h"

#include <functional>
#include <optional>
#include <unordered_map>
#include <vector>

namespace spire::dialect {

/// A scalar constant: integers (and booleans) as their low bits, floats as doubles.
struct FoldScalar {
  uint64_t bits = 0;
  double f = 0;
};

/// Folds one element (operands of element type `in`, result of element type `out`); nullopt
/// when the result is undefined.
using ElementFolder =
    std::function<std::optional<FoldScalar>(const std::vector<FoldScalar> &, Type in, Type out)>;

struct OpFolder {
  /// Applied element by element when every operand is a constant scalar or vector; may be
  /// empty.
  ElementFolder element;
  /// The operand whose element type is the folder's `in` (spirv.Select's: its first object).
  uint8_t typedOperand = 0;
  /// Whether the element folder takes elements of any scalar type (spirv.Select passes its
  /// objects through as they are) instead of integers and floats only.
  bool anyElementType = false;
  /// The op's simplifications, tried when element-wise folding gives nothing; may be null.
  FoldResult (*rewrite)(Operation &op, Context &context) = nullptr;
};

namespace detail {

/// The folders being declared, by op key.
class FolderTable {
public:
  OpFolder &operator[](OpKey key) { return map_[code(key)]; }
  template <class Fn> void forEach(Fn &&fn) {
    for (auto &[code, folder] : map_)
      fn(OpKey(static_cast<OpSpace>(code >> 24), code & 0xFFFFFFu), folder);
  }

private:
  static uint32_t code(OpKey key) {
    return (static_cast<uint32_t>(key.space()) << 24) | key.number();
  }
  std::unordered_map<uint32_t, OpFolder> map_;
};

/// OpFoldElements.cpp: the element-wise folders.
void declareElementFolders(FolderTable &t);
/// OpFoldRewrites.cpp: the simplifications.
void declareRewrites(FolderTable &t);

// Scalars (OpFoldElements.cpp).
uint64_t maskOf(unsigned width);
int64_t signExtend(uint64_t bits, unsigned width);
/// `x` rounded to a float of `width` bits (16: half).
double roundTo(double x, unsigned width);
/// `x` rounded to a value of the float type `t` (f16, bf16, the 8-bit floats, f32, f64).
double roundTo(double x, Type t);
std::optional<FoldScalar> scalarOf(Attribute a);
Attribute scalarAttr(Context &ctx, Type t, const FoldScalar &s);
/// The element type of a vector, else the type itself.
Type elementOf(Type t);
/// The element constants of a scalar or vector constant value.
std::optional<std::vector<FoldScalar>> elementsOf(Attribute a, Type t);
Attribute valueAttr(Context &ctx, Type t, const std::vector<FoldScalar> &elems);
/// The value of `v` when a spirv.Constant defines it.
Attribute constantOf(Value v);

} // namespace detail

} // namespace spire::dialect
