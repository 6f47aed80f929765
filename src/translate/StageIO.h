// The stage interface of one entry point: how each signature element became an Input/Output
// variable (or a built-in), and how a dx.op's (vertex, row, column) coordinates index it.
#pragma once

#include "spire/grammar/Grammar.h"

#include <cstdint>
#include <map>
#include <set>

namespace spire::translate {

/// Elements whose SPIR-V form is not a plain (array of) vector(s).
enum class IoSpecial : uint8_t {
  None,
  FragCoord,     ///< pixel SV_Position: Vulkan's .w is 1/w, D3D's is w
  VertexIndex,   ///< SV_VertexID: VertexIndex - BaseVertex
  InstanceIndex, ///< SV_InstanceID: InstanceIndex - BaseInstance
  FrontFacing,   ///< SV_IsFrontFace: a bool; as an integer, true is ~0 (D3D's convention)
  Flattened,     ///< a float array built-in (clip/cull distances, tess levels): the element's
                 ///< (row, column) is index base + row * cols + column
  ArrayOfOne,    ///< SampleMask: the word is element 0 of an array
  Dropped,       ///< a value Vulkan computes itself (a GS's SV_IsFrontFace): stores are no-ops
};

struct IoElement {
  uint32_t variable = 0;
  uint32_t scalarType = 0;     ///< the variable's component type
  uint32_t rows = 1, cols = 1; ///< the element's shape (what dx.op coordinates may reach)
  bool arrayed = false;        ///< an outer array per vertex, control point or primitive
  bool rowArray = false;       ///< an array of rows
  bool vector = false;         ///< a vector of columns
  IoSpecial special = IoSpecial::None;
  uint32_t base = 0; ///< Flattened: the element's first index
  grammar::StorageClass storage = grammar::StorageClass::Input;
};

/// Which signature a dx.op names.
enum class SignatureKind : uint8_t { Input, Output, PatchConstant };

struct StageInterface {
  std::map<uint32_t, IoElement> elements[3]; ///< by SignatureKind, then element id
  std::set<uint32_t> perVertexInputs;        ///< input ids read by AttributeAtVertex
  bool multiStream = false;                  ///< GS: streams other than 0 in use
  uint32_t taskPayload = 0;                  ///< MS/AS: the TaskPayloadWorkgroupEXT variable
  uint32_t discardFunction = 0;              ///< PS: void(bool) that demotes when true
  uint32_t patchConstantFunction = 0;        ///< HS: into LlvmModule::functions, or kNoId
};

} // namespace spire::translate
