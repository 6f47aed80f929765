// Checks a structured CFG against SPIR-V's structured control flow rules (the spec's §2.11
// declaration and construct rules, and the shader rules on merges), over the graph alone.
#pragma once

#include "spire/analysis/Structurizer.h"
#include "spire/support/Expected.h"

namespace spire::analysis {

/// Ok, or the first rule the graph breaks, named as in the digest of the spec (C1..C15, S1..S3)
/// with the blocks involved. Also checks the shape of each block kind (successor counts, merge
/// instructions only before the branches they may precede, an entry no branch targets) and
/// that `layout` lists every block after its dominator. Switch case ordering (C16..C18) is not
/// checked: the structurizer never emits fall-through between cases.
Status checkStructured(const Cfg &input, const StructuredCfg &cfg);

} // namespace spire::analysis
