// Reading dx.viewIdState's words into a ViewIdState in place (decodeViewIdState's reader, for
// the DXIL model's decoder, which fills its module's state without moving one).
#pragma once

#include "spire/dxil/ViewIdState.h"

#include <string>

namespace spire::dxil::detail {

inline uint64_t wordsFor(uint64_t scalars) { return (scalars + 31) / 32; }

/// Reads the array in order into `s` (a default state); `usesViewId` selects whether the view
/// ID masks are present.
class ViewIdReader {
public:
  ViewIdReader(std::span<const uint32_t> words, ShaderKind kind, bool usesViewId, ViewIdState &s)
      : w_(words), kind_(kind), s_(s) {
    s_.usesViewId = usesViewId;
  }

  /// True with the state read, false with `error_` set when the words do not fit this reading.
  bool read() {
    if (!count(s_.inputScalars))
      return false;
    s_.streams = kind_ == ShaderKind::Geometry ? 4 : 1;
    for (uint32_t i = 0; i < s_.streams; ++i) {
      if (!count(s_.outputScalars[i]))
        return false;
      uint64_t row = wordsFor(s_.outputScalars[i]);
      if ((s_.usesViewId && !table(row, s_.outputsDependentOnViewId[i])) ||
          !table(row * s_.inputScalars, s_.inputsContributingToOutputs[i]))
        return false;
    }
    if (kind_ == ShaderKind::Hull || kind_ == ShaderKind::Domain || kind_ == ShaderKind::Mesh) {
      s_.hasPatchConstOrPrim = true;
      if (!count(s_.patchConstOrPrimScalars))
        return false;
      uint64_t row = wordsFor(s_.patchConstOrPrimScalars);
      if (kind_ == ShaderKind::Domain) {
        if (!table(wordsFor(s_.outputScalars[0]) * s_.patchConstOrPrimScalars,
                   s_.patchConstInputsContributingToOutputs))
          return false;
      } else if ((s_.usesViewId && !table(row, s_.patchConstOrPrimDependentOnViewId)) ||
                 !table(row * s_.inputScalars, s_.inputsContributingToPatchConstOrPrim)) {
        return false;
      }
    }
    if (at_ != w_.size()) {
      error_ = std::to_string(w_.size() - at_) + " words after the tables";
      return false;
    }
    return true;
  }

  const std::string &error() const { return error_; }

private:
  std::span<const uint32_t> w_;
  ShaderKind kind_;
  ViewIdState &s_;
  size_t at_ = 0;
  std::string error_;

  bool count(uint32_t &out) {
    if (at_ >= w_.size()) {
      error_ = "ends at word " + std::to_string(at_) + ", where a count belongs";
      return false;
    }
    out = w_[at_++];
    return true;
  }
  /// `n` words into `out`, when there are that many left (checked before allocating).
  bool table(uint64_t n, std::vector<uint32_t> &out) {
    if (n > w_.size() - at_) {
      error_ = "a table of " + std::to_string(n) + " words at word " + std::to_string(at_) + ", " +
               std::to_string(w_.size() - at_) + " left";
      return false;
    }
    out.assign(w_.begin() + at_, w_.begin() + at_ + n);
    at_ += size_t(n);
    return true;
  }
};

/// Reads `words` into `s` (a default state): without the view ID masks first (most programs
/// do not use the view ID), then with them; false with the first reading's error in `error`
/// when neither fits (`s` is then unspecified).
inline bool readViewIdState(std::span<const uint32_t> words, ShaderKind kind, ViewIdState &s,
                            std::string &error) {
  ViewIdReader without(words, kind, false, s);
  if (without.read())
    return true;
  s = ViewIdState();
  ViewIdReader with(words, kind, true, s);
  if (with.read())
    return true;
  error = without.error();
  return false;
}

} // namespace spire::dxil::detail
