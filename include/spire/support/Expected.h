// Expected<T>: a value, or the diagnostic that explains why there is none.
#pragma once

#include "spire/support/Diagnostic.h"

#include <cassert>
#include <optional>
#include <utility>
#include <variant>

namespace spire {

template <class T> class [[nodiscard]] Expected {
public:
  Expected(T value) : v_(std::move(value)) {}
  Expected(Diagnostic error) : v_(std::move(error)) {}
  /// The value made in place from `args` (no temporary moved in).
  template <class... Args>
  explicit Expected(std::in_place_t, Args &&...args)
      : v_(std::in_place_index<0>, std::forward<Args>(args)...) {}

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T &value() & {
    assert(ok());
    return std::get<0>(v_);
  }
  const T &value() const & {
    assert(ok());
    return std::get<0>(v_);
  }
  T &&value() && {
    assert(ok());
    return std::get<0>(std::move(v_));
  }
  T &operator*() & { return value(); }
  const T &operator*() const & { return value(); }
  T *operator->() { return &value(); }
  const T *operator->() const { return &value(); }

  const Diagnostic &error() const {
    assert(!ok());
    return std::get<1>(v_);
  }

private:
  std::variant<T, Diagnostic> v_;
};

/// Success, or the diagnostic of a failure. A success holds no Diagnostic: making, testing and
/// destroying one is a flag, not a whole record zeroed and its strings freed (a reader returns
/// one for every block and record it reads).
class [[nodiscard]] Status {
public:
  Status() = default;
  Status(Diagnostic error) : error_(std::move(error)) {}
  bool ok() const { return !error_.has_value(); }
  explicit operator bool() const { return ok(); }
  /// The failure's diagnostic (an empty one for a success, which has none).
  const Diagnostic &error() const {
    assert(!ok());
    return error_ ? *error_ : none();
  }

private:
  [[gnu::cold]] static const Diagnostic &none() {
    static const Diagnostic empty;
    return empty;
  }
  std::optional<Diagnostic> error_;
};

} // namespace spire
