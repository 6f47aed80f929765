// A work graph node shader's metadata (dx.entryPoints tags 13-22: launch, node id, dispatch
// grid, recursion, input and output records) and the SPV_AMDX_shader_enqueue objects made for
// it: payload array types, the input payload variable, node and record handles.
#pragma once

#include "spire/dxil/DxilModule.h"

#include <array>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace spire::translate {

/// D3D's NodeIOFlags bits (DXIL 1.8).
namespace node_io {
inline constexpr uint32_t Input = 0x1, Output = 0x2, ReadWrite = 0x4, EmptyRecord = 0x8,
                          NodeArray = 0x10, TrackRWInputSharing = 0x100;
} // namespace node_io

/// One input or output of a node (the model's NodeIo) and what its translation makes.
struct NodeRecordDecl : dxil::NodeIo {
  /// The LLVM record struct getNodeRecordPtr reads it as (kNoId: none does).
  dxil::TypeId recordType = dxil::kNoId;
  uint32_t arrayType = 0; ///< its OpTypeNodePayloadArrayAMDX (made on first use)
};

struct NodeShader {
  uint32_t launch = 0; ///< 1 broadcasting, 2 coalescing, 3 thread
  bool programEntry = false;
  std::optional<dxil::NodeId> id, sharesInputOf;
  std::optional<std::array<uint32_t, 3>> dispatchGrid, maxDispatchGrid;
  std::optional<uint32_t> maxRecursion;
  std::vector<NodeRecordDecl> inputs, outputs;
  uint32_t inputVariable = 0;
  /// NodeHandle values: the output and the node index id (0: the output's own node).
  struct OutputHandle {
    uint32_t output = 0, nodeIndex = 0;
  };
  std::unordered_map<dxil::ValueId, OutputHandle> outputHandles;
  /// NodeRecordHandle values: the payload array pointer (the input variable or an allocation),
  /// the output (kNoId: the input).
  struct RecordHandle {
    uint32_t payloads = 0, output = dxil::kNoId;
  };
  std::unordered_map<dxil::ValueId, RecordHandle> recordHandles;
};

} // namespace spire::translate
