// The readers' memos of what repeats across bitstreams (abbreviation definitions, BLOCKINFO,
// kind and attribute blocks) are kept per thread, made on a thread's first use of each.
#pragma once

#include <memory>

namespace spire::dxil::detail {

/// This thread's object of type T, made (value-initialized) the first time it is asked for.
template <typename T> T &perThread() {
  thread_local std::unique_ptr<T> object;
  if (!object) [[unlikely]]
    object = std::make_unique<T>();
  return *object;
}

} // namespace spire::dxil::detail
