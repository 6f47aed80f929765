// How `--device` names a device and which drivers the loader is then asked to load: a part of
// the device's name, "lavapipe" for lavapipe's "llvmpipe (LLVM ...)", and lavapipe's driver alone
// only when the value names lavapipe (an index or another name needs every driver).
#include "spire/run/Device.h"

#include <gtest/gtest.h>

namespace spire::run {
namespace {

TEST(DeviceSelection, ANamePartOrLavapipeMatches) {
  constexpr std::string_view kLavapipe = "llvmpipe (LLVM 15.0.6, 256 bits)";
  EXPECT_TRUE(deviceNameMatches(kLavapipe, "llvmpipe"));
  EXPECT_TRUE(deviceNameMatches(kLavapipe, "LLVM 15"));
  EXPECT_TRUE(deviceNameMatches(kLavapipe, "lavapipe"));
  EXPECT_FALSE(deviceNameMatches(kLavapipe, "Lavapipe"));
  EXPECT_FALSE(deviceNameMatches("NVIDIA H200", "lavapipe"));
  EXPECT_TRUE(deviceNameMatches("NVIDIA H200", "H200"));
  EXPECT_FALSE(deviceNameMatches("AMD Radeon (RADV NAVI21)", "llvmpipe"));
}

TEST(DeviceSelection, OnlyLavapipeNamesSelectOneDriver) {
  EXPECT_EQ(driverManifestGlob("lavapipe"), "*lvp_icd*");
  EXPECT_EQ(driverManifestGlob("llvmpipe"), "*lvp_icd*");
  EXPECT_EQ(driverManifestGlob("llvmpipe (LLVM 15.0.6, 256 bits)"), "*lvp_icd*");
  EXPECT_EQ(driverManifestGlob(""), "");       // the default looks for a GPU among all drivers
  EXPECT_EQ(driverManifestGlob("0"), "");      // indices count every driver's devices
  EXPECT_EQ(driverManifestGlob("LLVM"), "");   // not only lavapipe's name has it
  EXPECT_EQ(driverManifestGlob("NVIDIA"), ""); // the driver of a GPU name is not known
}

} // namespace
} // namespace spire::run
