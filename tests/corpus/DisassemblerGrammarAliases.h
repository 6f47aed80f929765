// Comparing disassembly texts made with different grammar revisions: a newer grammar may list
// another name first for the same opcode or enumerant (RayGenerationKHR for RayGenerationNV).
#pragma once

#include <string_view>

namespace spire::test {

/// Whether spire was built with the grammar the reference spirv-dis was built with (the same
/// spirv.core.grammar.json); when it was not, names may differ by design.
bool sameGrammarAsReference();

/// Whether two texts are the same but for names that spire's grammar gives the same opcode or
/// enumerant (inside friendly names too), and the alignment padding that follows from them.
bool equalModuloAliases(std::string_view a, std::string_view b);

} // namespace spire::test
