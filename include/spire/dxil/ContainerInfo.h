// Everything a DXIL container says, each part decoded into its typed record: what the translator
// and the runner start from, and what the summary `spire dis` prints is made of.
#pragma once

#include "spire/dxil/CompilerVersion.h"
#include "spire/dxil/Container.h"
#include "spire/dxil/ContainerDigest.h"
#include "spire/dxil/DebugName.h"
#include "spire/dxil/FeatureInfo.h"
#include "spire/dxil/PipelineStateValidation.h"
#include "spire/dxil/RootSignature.h"
#include "spire/dxil/RuntimeData.h"
#include "spire/dxil/ShaderHash.h"
#include "spire/dxil/Signature.h"
#include "spire/dxil/SourceInfo.h"

#include <optional>
#include <string>
#include <vector>

namespace spire::dxil {

/// Part codes of the parts spire decodes.
namespace part {
inline constexpr FourCC Dxil = FourCC::of("DXIL");
inline constexpr FourCC DebugDxil = FourCC::of("ILDB");
inline constexpr FourCC DebugName = FourCC::of("ILDN");
inline constexpr FourCC InputSignature = FourCC::of("ISG1");
inline constexpr FourCC OutputSignature = FourCC::of("OSG1");
inline constexpr FourCC PatchConstantSignature = FourCC::of("PSG1");
inline constexpr FourCC RootSignature = FourCC::of("RTS0");
inline constexpr FourCC PipelineStateValidation = FourCC::of("PSV0");
inline constexpr FourCC FeatureInfo = FourCC::of("SFI0");
inline constexpr FourCC Statistics = FourCC::of("STAT");
inline constexpr FourCC ShaderHash = FourCC::of("HASH");
inline constexpr FourCC RuntimeData = FourCC::of("RDAT");
inline constexpr FourCC SourceInfo = FourCC::of("SRCI");
inline constexpr FourCC CompilerVersion = FourCC::of("VERS");
} // namespace part

/// A container and its parts, decoded. Like the Container it holds, it views the caller's bytes
/// (names and strings are views into them): keep the bytes alive while it is used.
struct ContainerInfo {
  Container container;
  Digest computedDigest{}; ///< recomputed over the container's declared size
  DigestStatus digestStatus = DigestStatus::Unsigned;

  std::optional<ProgramHeader> program;      ///< DXIL
  std::optional<ProgramHeader> debugProgram; ///< ILDB: the program with debug information
  std::optional<ProgramHeader> statistics;   ///< STAT: the program with reflection metadata
  std::optional<ProgramSignature> inputSignature;
  std::optional<ProgramSignature> outputSignature;
  std::optional<ProgramSignature> patchConstantSignature; ///< or mesh primitives
  std::optional<PipelineStateValidation> pipelineStateValidation;
  std::optional<FeatureInfo> featureInfo;
  std::optional<ShaderHash> shaderHash;
  std::optional<CompilerVersion> compilerVersion;
  std::optional<RuntimeData> runtimeData;
  std::optional<DebugName> debugName;
  std::optional<RootSignature> rootSignature;
  std::optional<SourceInfo> sourceInfo;
  /// Indices into container.parts of the parts spire does not decode (PRIV, RDEF, ...): kept in
  /// the container, listed here.
  std::vector<size_t> unknownParts;
};

/// Decodes every part of a container read by readContainer. An unknown part is listed, never an
/// error; a known part that does not decode is (the error names it and the byte), and so is a
/// second part of a known code.
Expected<ContainerInfo> readContainerInfo(const Container &container);

/// The program header the summary describes the shader by: DXIL's, else ILDB's, else STAT's.
const ProgramHeader *mainProgram(const ContainerInfo &info);

/// Where the parts disagree with one another (PSV0's stage against the program's kind, PSV0's
/// element counts against the signature parts, RDAT's function kinds): one line each, empty when
/// they agree.
std::vector<std::string> checkConsistency(const ContainerInfo &info);

} // namespace spire::dxil
