// The rule families of the validator. Each checks one group of rules over the whole module and
// reports through State; each must be safe on any module the reader accepts (ids that are not
// defined, operands of the wrong kind, instructions in the wrong place), because families run
// on modules that other families find invalid.
#pragma once

#include "State.h"

namespace spire::val {

// Structure: run first; the others assume what these establish only where they say so.
void checkLayout(State &s);       ///< RulesLayout.cpp: logical layout (2.4)
void checkIds(State &s);          ///< RulesIds.cpp: definitions, uses, forward references, SSA
                                  ///< dominance (2.2, 2.5)
void checkAvailability(State &s); ///< RulesAvailability.cpp: version, capabilities, extensions
void checkLimits(State &s);       ///< RulesLimits.cpp: universal limits (2.17)

// Declarations and instructions.
void checkTypes(State &s);           ///< RulesTypes.cpp: type declarations and constants
void checkFunctions(State &s);       ///< RulesFunctions.cpp: functions, parameters, blocks, calls
void checkControlFlow(State &s);     ///< RulesControlFlow.cpp: branches, OpPhi, structured
                                     ///< control flow (2.11)
void checkMemory(State &s);          ///< RulesMemory.cpp: variables, loads, stores, access chains
void checkArithmetic(State &s);      ///< RulesArithmetic.cpp: arithmetic, bit, logical, relational,
                                     ///< conversion and composite instructions
void checkImages(State &s);          ///< RulesImages.cpp: image types and instructions
void checkAtomicsBarriers(State &s); ///< RulesAtomics.cpp: atomics, barriers, scopes, semantics
void checkGroups(State &s);          ///< RulesGroups.cpp: group and non-uniform instructions
void checkPipesEnqueue(State &s);    ///< RulesPipesEnqueue.cpp: pipes, device-side enqueue
void checkRayTracing(State &s);      ///< RulesRayTracing.cpp: ray tracing and ray query
void checkMeshShading(State &s);     ///< RulesMeshShading.cpp: SPV_EXT_mesh_shader
void checkCoopMatrix(State &s);      ///< RulesCooperativeMatrix.cpp: NV and KHR cooperative
                                     ///< matrices
void checkJointMatrix(State &s);     ///< RulesJointMatrix.cpp: INTEL joint matrices
void checkOperandTypes(State &s);    ///< RulesOperandTypes.cpp: the shared operand type table
                                     ///< (AVC motion estimation, NV hit objects)
void checkIntel(State &s);           ///< RulesIntel.cpp: INTEL vendor instructions' operand and
                                     ///< result types
void checkVendor(State &s);          ///< RulesVendor.cpp: NV and AMD vendor instructions' operand
                                     ///< and result types (hit objects, bindless textures, ...)
void checkExtInst(State &s);         ///< RulesExtInst.cpp: GLSL.std.450 and OpenCL.std
void checkMisc(State &s);            ///< RulesMisc.cpp: miscellaneous instructions (clock,
                                     ///< expect/assume, OpSizeOf) and integer dot products
void checkDecorations(State &s);     ///< RulesDecorations.cpp: decorations, groups, linkage
void checkModes(State &s);           ///< RulesModes.cpp: execution models and modes, entry point
                                     ///< interfaces

/// RulesAvailability.cpp: reports, under `rule`, each OpCapability that `supported` refuses and no
/// declared extension enables, as "the <name> capability is not one <client> supports, and no
/// declared extension enables it" (the client environments' capability tables).
void checkClientCapabilities(State &s, bool (*supported)(const State &, grammar::Capability),
                             std::string_view rule, const std::string &client);

// Client environments.
void checkVulkan(State &s);         ///< RulesVulkan.cpp: Vulkan's standalone SPIR-V rules
void checkVulkanBuiltIns(State &s); ///< RulesVulkanBuiltIns.cpp: types, models and storage
                                    ///< classes of Vulkan's built-in variables
void checkOpenCL(State &s);    ///< RulesOpenCL.cpp: the OpenCL environment (also for Level Zero)
void checkLevelZero(State &s); ///< RulesLevelZero.cpp: the Level Zero environment (LZ-A ... LZ-K)

} // namespace spire::val
