// A GoogleTest fixture whose tests share one Vulkan context (validation layers on when
// installed), made once per suite; every test skips, saying why, when there is no device.
#pragma once

#include "spire/run/Device.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace spire::run {

class DeviceTestFixture : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    DeviceOptions o;
    o.validation = true;
    auto c = VulkanContext::create(o);
    if (c)
      ctx_ = std::move(*c);
    else
      why_ = c.error().message;
  }
  static void TearDownTestSuite() { ctx_.reset(); }
  void SetUp() override {
    if (!ctx_)
      GTEST_SKIP() << "no Vulkan device: " << why_;
  }

  static inline std::unique_ptr<VulkanContext> ctx_;
  static inline std::string why_;
};

} // namespace spire::run
