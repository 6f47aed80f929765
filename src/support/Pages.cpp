#include "spire/support/Pages.h"

#include <cstdint>

#if __has_include(<sys/mman.h>)
#include <sys/mman.h>
#endif

namespace spire {

const void *releasePages(const void *from, const void *to) {
#if defined(MADV_DONTNEED)
  constexpr uintptr_t kPage = 4096;
  const uintptr_t begin = (reinterpret_cast<uintptr_t>(from) + kPage - 1) & ~(kPage - 1);
  const uintptr_t end = reinterpret_cast<uintptr_t>(to) & ~(kPage - 1);
  if (end <= begin)
    return from;
  madvise(reinterpret_cast<void *>(begin), end - begin, MADV_DONTNEED);
  return reinterpret_cast<const void *>(end);
#else
  (void)to;
  return from;
#endif
}

} // namespace spire
