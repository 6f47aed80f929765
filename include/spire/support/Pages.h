// Giving memory pages back to the system while their allocation lives on.
#pragma once

namespace spire {

/// Gives back the memory pages that lie wholly inside [from, to): memory the process does not
/// read again (a page given back reads as zeros after). Returns the end of the last page given
/// back, or `from` when none is (a range within one page, or a system without the advice).
const void *releasePages(const void *from, const void *to);

} // namespace spire
