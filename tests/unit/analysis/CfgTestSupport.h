// Control flow graphs for the structurizer's tests: written by hand or generated at random
// (reducible by construction), and the seeded branch oracle the interpreter runs them with.
#pragma once

#include "spire/analysis/CfgInterpreter.h"
#include "spire/analysis/Structurizer.h"

#include <cstdint>
#include <initializer_list>
#include <random>
#include <utility>
#include <vector>

namespace spire::analysis::test {

/// A CFG from a successor list per node; the terminator follows from the count (0: return,
/// 1: branch, 2: conditional branch, more: switch with case values 1, 2, ...). Nodes listed in
/// `switches` are switches even with two successors; `unreachable` nodes end in Unreachable.
Cfg makeCfg(const std::vector<std::vector<uint32_t>> &succs,
            std::initializer_list<uint32_t> switches = {},
            std::initializer_list<uint32_t> unreachable = {});

/// The same from vectors: switches[v] and unreachable[v] flag node v (both sized like `succs`).
Cfg makeCfg(const std::vector<std::vector<uint32_t>> &succs, const std::vector<uint8_t> &switches,
            const std::vector<uint8_t> &unreachable);

/// A random reducible CFG of `n` nodes: a random forward DAG (every node reached from node 0)
/// plus back edges from nodes to their dominators, so every cycle is entered at its header.
Cfg randomReducibleCfg(std::mt19937 &rng, uint32_t n);

/// A random CFG of nested structured pieces (sequences, if/else, loops, switches) with random
/// extra edges that break out of or continue enclosing loops, or return, from deep inside.
Cfg randomNestedCfg(std::mt19937 &rng, uint32_t budget);

/// A decision per (node, visit), the same for every run with the same seed.
BranchOracle seededOracle(uint64_t seed);

} // namespace spire::analysis::test
