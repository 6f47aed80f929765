// Expected<T>: a value, or the diagnostic that explains why there is none.
#pragma once

#include "spire/support/Diagnostic.h"

#include <cassert>
#include <utility>
#include <variant>

namespace spire {

template <class T> class [[nodiscard]] Expected {
public:
  Expected(T value) : v_(std::move(value)) {}
  Expected(Diagnostic error) : v_(std::move(error)) {}

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

/// Success, or the diagnostic of a failure.
class [[nodiscard]] Status {
public:
  Status() = default;
  Status(Diagnostic error) : error_(std::move(error)), failed_(true) {}
  bool ok() const { return !failed_; }
  explicit operator bool() const { return ok(); }
  const Diagnostic &error() const { return error_; }

private:
  Diagnostic error_;
  bool failed_ = false;
};

} // namespace spire
