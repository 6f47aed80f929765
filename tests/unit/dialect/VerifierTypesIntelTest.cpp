// The verifier's type rules for INTEL vendor ops (VerifierTypes.cpp): AVC motion estimation
// beyond its evaluations.
#include "Verdict.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>

using spire::dialect::test::verdict;

TEST(DialectVerifierTypes, MotionEstimationPayloadsAndResultsHaveTheirKindsAndWidths) {
  std::string_view params =
      "%mp: !spirv.avc_mce_payload_intel, %ip: !spirv.avc_ime_payload_intel, "
      "%mr: !spirv.avc_mce_result_intel, %ir: !spirv.avc_ime_result_intel, "
      "%so: !spirv.avc_ime_result_single_reference_streamout_intel, "
      "%sp: !spirv.avc_sic_payload_intel, %sr: !spirv.avc_sic_result_intel, %b: i8, %h: i16, "
      "%w: i32, %l: i64, %c: vector<2xi16>, %t: vector<2xi32>";
  auto op = [&](std::string_view name, std::string_view operands, std::string_view types,
                std::string_view result) {
    return verdict(params, "%0 = \"spirv.INTEL.SubgroupAvc" + std::string(name) + "\"(" +
                               std::string(operands) + ") : (" + std::string(types) + ") -> " +
                               std::string(result));
  };
  // MCE: defaults by slice type and Qp, setters of the generic payload, conversions.
  EXPECT_EQ(op("MceGetDefaultInterShapePenalty", "%b, %b", "i8, i8", "i64"), "");
  EXPECT_EQ(op("MceGetDefaultInterShapePenalty", "%b, %b", "i8, i8", "i32"),
            "spirv.INTEL.SubgroupAvcMceGetDefaultInterShapePenalty: the result must be a 64-bit "
            "integer scalar, not i32");
  EXPECT_EQ(op("MceGetDefaultInterMotionVectorCostTable", "%b, %w", "i8, i32", "vector<2xi32>"),
            "spirv.INTEL.SubgroupAvcMceGetDefaultInterMotionVectorCostTable: operand 1 must be an "
            "8-bit integer scalar, not i32");
  EXPECT_EQ(op("MceSetMotionVectorCostFunction", "%l, %t, %b, %mp",
               "i64, vector<2xi32>, i8, !spirv.avc_mce_payload_intel",
               "!spirv.avc_mce_payload_intel"),
            "");
  EXPECT_EQ(op("MceSetInterShapePenalty", "%l, %ip", "i64, !spirv.avc_ime_payload_intel",
               "!spirv.avc_mce_payload_intel"),
            "spirv.INTEL.SubgroupAvcMceSetInterShapePenalty: operand 1 must be a generic MCE "
            "payload, not !spirv.avc_ime_payload_intel");
  EXPECT_EQ(op("ImeConvertToMcePayload", "%ip", "!spirv.avc_ime_payload_intel",
               "!spirv.avc_mce_payload_intel"),
            "");
  EXPECT_EQ(op("MceConvertToImeResult", "%ir", "!spirv.avc_ime_result_intel",
               "!spirv.avc_ime_result_intel"),
            "spirv.INTEL.SubgroupAvcMceConvertToImeResult: operand 0 must be a generic MCE "
            "result, not !spirv.avc_ime_result_intel");
  // The MCE result readers take the generic result (as producers pass it) or the IME result
  // (as the extension's text says).
  EXPECT_EQ(op("MceGetMotionVectors", "%mr", "!spirv.avc_mce_result_intel", "i64"), "");
  EXPECT_EQ(op("MceGetMotionVectors", "%ir", "!spirv.avc_ime_result_intel", "i64"), "");
  EXPECT_EQ(op("MceGetMotionVectors", "%sr", "!spirv.avc_sic_result_intel", "i64"),
            "spirv.INTEL.SubgroupAvcMceGetMotionVectors: operand 0 must be an IME result or "
            "generic MCE result, not !spirv.avc_sic_result_intel");
  // IME: coordinates and offsets are pairs of 16-bit integers; every setter gives the payload.
  EXPECT_EQ(
      op("ImeInitialize", "%c, %b, %b", "vector<2xi16>, i8, i8", "!spirv.avc_ime_payload_intel"),
      "");
  EXPECT_EQ(
      op("ImeInitialize", "%t, %b, %b", "vector<2xi32>, i8, i8", "!spirv.avc_ime_payload_intel"),
      "spirv.INTEL.SubgroupAvcImeInitialize: operand 0 must be a 2-component 16-bit integer "
      "vector, not vector<2xi32>");
  EXPECT_EQ(op("ImeSetEarlySearchTerminationThreshold", "%b, %ip",
               "i8, !spirv.avc_ime_payload_intel", "i8"),
            "spirv.INTEL.SubgroupAvcImeSetEarlySearchTerminationThreshold: the result must be an "
            "IME payload, not i8");
  EXPECT_EQ(op("ImeGetStreamoutSingleReferenceMajorShapeDistortions", "%so, %b",
               "!spirv.avc_ime_result_single_reference_streamout_intel, i8", "i16"),
            "");
  EXPECT_EQ(op("ImeGetStreamoutSingleReferenceMajorShapeDistortions", "%ir, %b",
               "!spirv.avc_ime_result_intel, i8", "i16"),
            "spirv.INTEL.SubgroupAvcImeGetStreamoutSingleReferenceMajorShapeDistortions: operand "
            "0 must be an IME single-reference streamout result, not !spirv.avc_ime_result_intel");
  // REF: motion vectors are packed in 64 bits.
  EXPECT_EQ(op("FmeInitialize", "%c, %w, %b, %b, %b, %b, %b",
               "vector<2xi16>, i32, i8, i8, i8, i8, i8", "!spirv.avc_ref_payload_intel"),
            "spirv.INTEL.SubgroupAvcFmeInitialize: operand 1 must be a 64-bit integer scalar, not "
            "i32");
  // SIC: the skip block partition type is 8-bit in the text, 32-bit in the built-ins; the
  // chroma edge pixels 8-bit and 16-bit.
  for (std::string_view partition : {"%b, %w", "%w, %w"}) {
    std::string types = partition == "%b, %w" ? "i8, i32" : "i32, i32";
    EXPECT_EQ(op("SicConfigureSkc", std::string(partition) + ", %l, %b, %b, %sp",
                 types + ", i64, i8, i8, !spirv.avc_sic_payload_intel",
                 "!spirv.avc_sic_payload_intel"),
              "");
  }
  EXPECT_EQ(op("SicConfigureSkc", "%h, %w, %l, %b, %b, %sp",
               "i16, i32, i64, i8, i8, !spirv.avc_sic_payload_intel",
               "!spirv.avc_sic_payload_intel"),
            "spirv.INTEL.SubgroupAvcSicConfigureSkc: operand 0 must be an 8- or 32-bit integer "
            "scalar, not i16");
  EXPECT_EQ(op("SicConfigureIpeLumaChroma", "%b, %b, %b, %b, %b, %b, %h, %h, %b, %b, %sp",
               "i8, i8, i8, i8, i8, i8, i16, i16, i8, i8, !spirv.avc_sic_payload_intel",
               "!spirv.avc_sic_payload_intel"),
            "");
  EXPECT_EQ(op("SicGetPackedSkcLumaSumThreshold", "%sr", "!spirv.avc_sic_result_intel", "i32"),
            "spirv.INTEL.SubgroupAvcSicGetPackedSkcLumaSumThreshold: the result must be a 64-bit "
            "integer scalar, not i32");
}
