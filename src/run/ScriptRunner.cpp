#include "spire/run/ScriptRunner.h"

#include "spire/run/ComputePipeline.h"
#include "spire/run/Expectations.h"
#include "spire/run/Reflection.h"
#include "spire/run/ScriptTokenizer.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <memory>
#include <optional>

namespace spire::run {

namespace {

using Clock = std::chrono::steady_clock;

/// memcpy for buffers that may be empty (whose data() may be null).
void copyBytes(void *to, const void *from, size_t n) {
  if (n)
    std::memcpy(to, from, n);
}

double msSince(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

/// The first requirement the device does not meet, as a skip reason.
std::optional<std::string> unmetRequirement(const VulkanContext &ctx, const Requirements &r,
                                            const ExtraRequirements *extra) {
  std::string device = ctx.deviceName();
  for (const std::string &e : r.instanceExtensions)
    if (!ctx.hasInstanceExtension(e))
      return "the Vulkan instance lacks " + e;
  for (const std::string &e : r.deviceExtensions)
    if (!ctx.hasExtension(e))
      return device + " lacks " + e;
  for (const std::string &f : r.features)
    if (!ctx.hasFeature(f))
      return device + " lacks feature " + f;
  for (const std::string &p : r.properties)
    if (!ctx.hasProperty(p))
      return device + " lacks property " + p;
  if (extra) {
    for (const std::string &e : extra->deviceExtensions)
      if (!ctx.hasExtension(e))
        return device + " lacks " + e + " (required by the test suite)";
    for (const std::string &f : extra->features)
      if (!ctx.hasFeature(f))
        return device + " lacks feature " + f + " (required by the test suite)";
    for (const std::string &f : extra->skipIfFeatures)
      if (ctx.hasFeature(f))
        return "the test suite skips this test where " + f + " is supported";
    // A part of the device's name and, when listed, of its driver's version ("22.3": a bug one
    // release of the driver has).
    auto driverMatches = [&] {
      if (extra->skipOnDrivers.empty())
        return true;
      const std::string driver = ctx.driverInfo();
      return std::any_of(extra->skipOnDrivers.begin(), extra->skipOnDrivers.end(),
                         [&](const std::string &d) { return driver.find(d) != std::string::npos; });
    };
    for (const std::string &d : extra->skipOnDevices)
      if (device.find(d) != std::string::npos && driverMatches())
        return "known problem of " + device + ": " +
               (extra->note.empty() ? std::string("listed as skipped on this device")
                                    : extra->note);
  }
  return std::nullopt;
}

/// The options shaders are compiled with: the run's, in the suite's environment if it sets one.
CompileOptions compileOptions(const RunOptions &o) {
  CompileOptions co = o.compile;
  if (o.extra && !o.extra->targetEnv.empty())
    co.defaultTargetEnv = o.extra->targetEnv;
  return co;
}

struct PreparedPipeline {
  std::unique_ptr<ComputePipeline> pipeline;
  uint32_t pushSize = 0;
};

class Interpreter {
public:
  Interpreter(VulkanContext &ctx, Script &s, const RunOptions &o, const CompiledShaders *compiled)
      : ctx_(ctx), s_(s), opts_(o), precompiled_(compiled) {}
  ScriptResult run();

private:
  ScriptResult fail(uint32_t line, std::string message) {
    result_.outcome = ScriptResult::Outcome::Fail;
    result_.line = line;
    result_.message = std::move(message);
    return result_;
  }
  ScriptResult skip(std::string reason) {
    result_.outcome = ScriptResult::Outcome::Skip;
    result_.message = std::move(reason);
    return result_;
  }
  /// A validation message since the last check, as a failure at `line`.
  std::optional<std::string> validationMessage() {
    std::vector<std::string> msgs = ctx_.takeMessages();
    if (msgs.empty())
      return std::nullopt;
    std::string m = "validation: " + msgs.front();
    if (msgs.size() > 1)
      m += " (and " + std::to_string(msgs.size() - 1) + " more)";
    return m;
  }
  std::optional<std::string> execute(const Command &c);
  std::optional<std::string> unsupportedImage() const;
  /// Brings a buffer's host copy up to date with its device buffer.
  std::optional<std::string> syncToHost(uint32_t buffer);
  /// Marks a buffer's host copy as changed, to be uploaded before the next dispatch.
  void hostWrote(uint32_t buffer);

  struct Resident {
    std::unique_ptr<DeviceBuffer> buffer;
    bool writable = false;    ///< some binding of the script may write it
    bool hostNewer = false;   ///< the host copy changed since the upload
    bool deviceNewer = false; ///< a dispatch may have changed it since the last read-back
  };
  std::map<uint32_t, Resident> resident_;
  std::optional<std::string> runPipeline(const Command &c);

  VulkanContext &ctx_;
  Script &s_;
  const RunOptions &opts_;
  const CompiledShaders *precompiled_;
  ScriptResult result_;
  std::vector<PreparedPipeline> pipelines_;
  std::vector<std::unique_ptr<DeviceSampler>> samplers_;
};

ScriptResult Interpreter::run() {
  if (auto why = unmetRequirement(ctx_, s_.requirements, opts_.extra))
    return skip(*why);
  if (auto why = unsupportedImage())
    return skip(*why);
  ctx_.takeMessages();

  // The shaders of every pipeline; a skip (OpenCL C, HLSL) skips the script.
  CompiledShaders shaders = precompiled_ ? *precompiled_ : compileScriptShaders(s_, opts_);
  shaders.shaders.resize(s_.shaders.size());
  auto compiled = [&](uint32_t si) -> const CompiledShader & {
    if (!shaders.shaders[si]) // not in the caller's set: compiled now
      shaders.shaders[si] = compileShader(s_.shaders[si], compileOptions(opts_));
    return *shaders.shaders[si];
  };
  for (const ScriptPipeline &p : s_.pipelines) {
    if (!p.compute)
      return skip("graphics pipelines are not supported by spire run");
    if (!p.shader)
      return fail(p.line, "pipeline " + p.name + " has no shader");
    if (compiled(p.shader->shader).outcome == CompiledShader::Outcome::Skip)
      return skip(compiled(p.shader->shader).message);
  }
  for (size_t i = 0; i < shaders.shaders.size(); ++i)
    if (shaders.shaders[i] && shaders.shaders[i]->outcome == CompiledShader::Outcome::Error)
      return fail(s_.shaders[i].line, shaders.shaders[i]->message);
  result_.timings.compileMs = shaders.compileMs;

  // Modules' own requirements, then the pipelines.
  Clock::time_point t0 = Clock::now();
  for (const ScriptPipeline &p : s_.pipelines) {
    const CompiledShader &cs = compiled(p.shader->shader);
    auto m = Module::fromWords(cs.words);
    if (!m)
      return fail(s_.shaders[p.shader->shader].line, m.error().message);
    auto mi = reflect(*m);
    if (!mi)
      return fail(s_.shaders[p.shader->shader].line, mi.error().message);
    if (auto why = unmetModuleRequirement(ctx_, *mi))
      return skip(*why);
    bool found = false;
    for (const EntryPoint &ep : mi->entryPoints)
      found |= ep.name == p.shader->entryPoint;
    if (!found)
      return fail(p.line, "shader " + s_.shaders[p.shader->shader].name + " has no entry point " +
                              p.shader->entryPoint);
    ComputePipelineDesc desc;
    desc.spirv = cs.words;
    desc.entryPoint = p.shader->entryPoint;
    desc.specialization = p.shader->specialization;
    desc.fullSubgroups = p.shader->fullSubgroups;
    desc.varyingSubgroupSize = p.shader->varyingSubgroupSize;
    uint32_t req = p.shader->requiredSubgroupSize;
    if (req == kSubgroupSizeMin)
      req = ctx_.subgroupSizeControl().minSubgroupSize;
    else if (req == kSubgroupSizeMax)
      req = ctx_.subgroupSizeControl().maxSubgroupSize;
    if (req && (req < ctx_.subgroupSizeControl().minSubgroupSize ||
                req > ctx_.subgroupSizeControl().maxSubgroupSize))
      return fail(p.line, "Required subgroup size is not supported by the device");
    desc.requiredSubgroupSize = req;
    for (const ScriptBinding &b : p.bindings)
      desc.bindings.push_back(LayoutBinding{b.set, b.binding, b.kind,
                                            static_cast<uint32_t>(b.kind == DescriptorKind::Sampler
                                                                      ? b.samplers.size()
                                                                      : b.buffers.size())});
    PreparedPipeline pp;
    if (p.pushConstants) {
      // The range covers what the shader declares and what the script gives.
      pp.pushSize = std::max<uint32_t>(mi->pushConstantSize, 4);
      pp.pushSize = std::min(pp.pushSize, ctx_.properties().limits.maxPushConstantsSize);
    }
    desc.pushConstantSize = pp.pushSize;
    auto cp = ComputePipeline::create(ctx_, desc);
    if (!cp) { // a validation error that aborted the call says more than its VkResult
      const auto v = validationMessage();
      return fail(p.line, "pipeline " + p.name + ": " + (v ? *v : cp.error().message));
    }
    pp.pipeline = std::make_unique<ComputePipeline>(std::move(*cp));
    pipelines_.push_back(std::move(pp));
    if (auto v = validationMessage())
      return fail(p.line, "pipeline " + p.name + ": " + *v);
  }
  for (const ScriptSampler &smp : s_.samplers) {
    SamplerDesc d;
    d.magFilter = smp.magLinear ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
    d.minFilter = smp.minLinear ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
    d.addressU = static_cast<VkSamplerAddressMode>(smp.addressU);
    d.addressV = static_cast<VkSamplerAddressMode>(smp.addressV);
    d.addressW = static_cast<VkSamplerAddressMode>(smp.addressW);
    d.borderColor = static_cast<VkBorderColor>(smp.borderColor);
    d.minLod = smp.minLod;
    d.maxLod = smp.maxLod;
    d.normalized = smp.normalized;
    d.compare = smp.compare;
    d.compareOp = static_cast<VkCompareOp>(smp.compareOp);
    auto ds = DeviceSampler::create(ctx_, d);
    if (!ds)
      return fail(smp.line, "sampler " + smp.name + ": " + ds.error().message);
    samplers_.push_back(std::make_unique<DeviceSampler>(std::move(*ds)));
  }
  result_.timings.pipelineMs = msSince(t0);

  t0 = Clock::now();
  for (const Command &c : s_.commands) {
    if (auto failure = execute(c)) {
      result_.timings.runMs = msSince(t0);
      return fail(c.line, *failure);
    }
  }
  for (auto &[bi, r] : resident_)
    syncToHost(bi);
  result_.timings.runMs = msSince(t0);
  if (auto v = validationMessage())
    return fail(0, *v);
  return result_;
}

// An image the device cannot make (a sample count or format it lacks for that use).
std::optional<std::string> Interpreter::unsupportedImage() const {
  for (const ScriptPipeline &p : s_.pipelines)
    for (const ScriptBinding &b : p.bindings) {
      if (!isImageKind(b.kind))
        continue;
      for (uint32_t bi : b.buffers) {
        const ScriptBuffer &sb = s_.buffers[bi];
        VkFormat format = static_cast<VkFormat>(vkFormatOf(sb.format->type));
        VkImageType type = sb.dim == ImageDim::Dim1D   ? VK_IMAGE_TYPE_1D
                           : sb.dim == ImageDim::Dim3D ? VK_IMAGE_TYPE_3D
                                                       : VK_IMAGE_TYPE_2D;
        VkImageUsageFlags usage =
            VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
            (b.kind == DescriptorKind::StorageImage ? VK_IMAGE_USAGE_STORAGE_BIT
                                                    : VK_IMAGE_USAGE_SAMPLED_BIT);
        VkImageFormatProperties props{};
        VkResult r = ctx_.vk().vkGetPhysicalDeviceImageFormatProperties(
            ctx_.physicalDevice(), format, type, VK_IMAGE_TILING_OPTIMAL, usage, 0, &props);
        std::string what = std::string(formatName(format)) + " " +
                           std::string(descriptorKindName(b.kind)) + " images";
        if (r != VK_SUCCESS)
          return ctx_.deviceName() + " does not support " + what;
        if (!(props.sampleCounts & sb.samples))
          return ctx_.deviceName() + " does not support " + std::to_string(sb.samples) +
                 " samples for " + what;
      }
    }
  return std::nullopt;
}

std::optional<std::string> Interpreter::execute(const Command &c) {
  switch (c.kind) {
  case Command::Kind::Run:
    return runPipeline(c);
  case Command::Kind::Expect:
  case Command::Kind::ExpectBuffer:
  case Command::Kind::ExpectRgba:
    syncToHost(c.buffer);
    if (c.kind == Command::Kind::ExpectBuffer)
      syncToHost(c.otherBuffer);
    return checkExpectation(s_, c);
  case Command::Kind::Repeat:
    for (uint64_t i = 0; i < c.count; ++i)
      for (const Command &b : c.body)
        if (auto f = execute(b))
          return f;
    return std::nullopt;
  case Command::Kind::Resize: {
    syncToHost(c.buffer);
    hostWrote(c.buffer);
    ScriptBuffer &b = s_.buffers[c.buffer];
    if (c.count > (uint64_t(1) << 30) / b.stride())
      return "buffer " + b.name + " would be larger than 1 GiB";
    b.bytes.resize(c.count * b.stride(), 0);
    return std::nullopt;
  }
  case Command::Kind::Write: {
    syncToHost(c.buffer);
    hostWrote(c.buffer);
    ScriptBuffer &b = s_.buffers[c.buffer];
    if (c.offset > (uint64_t(1) << 30) || c.offset + c.bytes.size() > (uint64_t(1) << 30))
      return "buffer " + b.name + " would be larger than 1 GiB";
    if (b.bytes.size() < c.offset + c.bytes.size())
      b.bytes.resize(c.offset + c.bytes.size(), 0);
    std::copy(c.bytes.begin(), c.bytes.end(), b.bytes.begin() + static_cast<ptrdiff_t>(c.offset));
    return std::nullopt;
  }
  case Command::Kind::Copy: {
    syncToHost(c.buffer);
    syncToHost(c.otherBuffer);
    hostWrote(c.otherBuffer);
    const ScriptBuffer &from = s_.buffers[c.buffer];
    ScriptBuffer &to = s_.buffers[c.otherBuffer];
    if (from.width != to.width || from.height != to.height)
      return "COPY between buffers of differing dimensions";
    to.bytes = from.bytes;
    return std::nullopt;
  }
  }
  return std::nullopt;
}

/// The usage flags every binding of a script asks of a buffer, and whether one writes it.
void bufferUses(const Script &s, uint32_t buffer, VkBufferUsageFlags &usage, bool &writable) {
  usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  writable = false;
  for (const ScriptPipeline &p : s.pipelines)
    for (const ScriptBinding &b : p.bindings)
      for (uint32_t bi : b.buffers) {
        if (bi != buffer)
          continue;
        writable |= isWritableKind(b.kind);
        usage |= vkBufferUsage(b.kind);
      }
}

std::optional<std::string> Interpreter::syncToHost(uint32_t buffer) {
  auto it = resident_.find(buffer);
  if (it == resident_.end() || !it->second.deviceNewer)
    return std::nullopt;
  ScriptBuffer &sb = s_.buffers[buffer];
  copyBytes(sb.bytes.data(), it->second.buffer->data(),
            std::min<size_t>(sb.bytes.size(), it->second.buffer->size()));
  it->second.deviceNewer = false;
  return std::nullopt;
}

void Interpreter::hostWrote(uint32_t buffer) {
  auto it = resident_.find(buffer);
  if (it != resident_.end())
    it->second.hostNewer = true;
}

std::optional<std::string> Interpreter::runPipeline(const Command &c) {
  const ScriptPipeline &p = s_.pipelines[c.pipeline];
  const PreparedPipeline &pp = pipelines_[c.pipeline];

  // Buffers stay on the device between dispatches (one VkBuffer per script buffer, with the
  // union of its uses, so aliased bindings see each other's writes); the host copy is brought
  // up to date only when a command reads or writes it. Images are made for each dispatch.
  std::map<uint32_t, std::unique_ptr<DeviceImage>> images;
  Dispatch d;
  for (const ScriptBinding &b : p.bindings)
    for (uint32_t bi : b.buffers) {
      ScriptBuffer &sb = s_.buffers[bi];
      if (isImageKind(b.kind)) {
        if (images.count(bi))
          continue;
        if (auto f = syncToHost(bi))
          return f;
        VkImageUsageFlags usage = 0;
        uint32_t baseMip = 0;
        for (const ScriptBinding &o : p.bindings)
          for (uint32_t x : o.buffers)
            if (x == bi && isImageKind(o.kind)) {
              usage |= o.kind == DescriptorKind::StorageImage ? VK_IMAGE_USAGE_STORAGE_BIT
                                                              : VK_IMAGE_USAGE_SAMPLED_BIT;
              baseMip = o.baseMipLevel;
            }
        ImageDesc desc;
        desc.type = sb.dim == ImageDim::Dim1D   ? VK_IMAGE_TYPE_1D
                    : sb.dim == ImageDim::Dim3D ? VK_IMAGE_TYPE_3D
                                                : VK_IMAGE_TYPE_2D;
        desc.format = static_cast<VkFormat>(vkFormatOf(sb.format->type));
        desc.width = sb.width;
        desc.height = std::max(sb.height, 1u);
        desc.depth = std::max(sb.depth, 1u);
        desc.mipLevels = sb.mipLevels;
        desc.samples = sb.samples;
        desc.usage = usage;
        desc.baseMipLevel = baseMip;
        desc.texelBytes = sb.format->stride;
        auto img = DeviceImage::create(ctx_, desc);
        if (!img)
          return "image " + sb.name + ": " + img.error().message;
        auto owned = std::make_unique<DeviceImage>(std::move(*img));
        if (owned->hasStaging()) {
          DeviceBuffer &st = owned->staging();
          copyBytes(st.data(), sb.bytes.data(), std::min<size_t>(sb.bytes.size(), st.size()));
        }
        d.images.push_back({owned.get(), true});
        images[bi] = std::move(owned);
        continue;
      }
      Resident &r = resident_[bi];
      if (!r.buffer || r.buffer->size() != std::max<uint64_t>(sb.bytes.size(), 4)) {
        if (auto f = syncToHost(bi))
          return f;
        VkBufferUsageFlags usage;
        bufferUses(s_, bi, usage, r.writable);
        auto buf = DeviceBuffer::create(ctx_, sb.bytes.size(), usage);
        if (!buf)
          return "buffer " + sb.name + ": " + buf.error().message;
        r.buffer = std::make_unique<DeviceBuffer>(std::move(*buf));
        r.hostNewer = true;
      }
      if (r.hostNewer) {
        std::memset(r.buffer->data(), 0, r.buffer->size());
        copyBytes(r.buffer->data(), sb.bytes.data(), sb.bytes.size());
        r.hostNewer = false;
      }
    }

  for (const ScriptBinding &b : p.bindings) {
    BoundBinding bb;
    bb.set = b.set;
    bb.binding = b.binding;
    bb.kind = b.kind;
    if (b.kind == DescriptorKind::Sampler) {
      for (uint32_t si : b.samplers) {
        BoundElement e;
        e.sampler = samplers_[si]->handle();
        bb.elements.push_back(e);
      }
    }
    for (size_t i = 0; i < b.buffers.size(); ++i) {
      uint32_t bi = b.buffers[i];
      BoundElement e;
      if (isImageKind(b.kind)) {
        e.imageView = images[bi]->view();
        if (b.kind == DescriptorKind::CombinedImageSampler && !b.samplers.empty())
          e.sampler = samplers_[b.samplers[0]]->handle();
      } else if (isTexelBufferKind(b.kind)) {
        DeviceBuffer &buf = *resident_[bi].buffer;
        e.buffer = buf.handle();
        const ScriptBuffer &sb = s_.buffers[bi];
        auto view = buf.view(static_cast<VkFormat>(vkFormatOf(sb.format->type)));
        if (!view)
          return "buffer " + sb.name + ": " + view.error().message;
        e.texelView = *view;
      } else {
        DeviceBuffer &buf = *resident_[bi].buffer;
        e.buffer = buf.handle();
        e.offset = i < b.descriptorOffsets.size() ? b.descriptorOffsets[i] : 0;
        e.range = i < b.descriptorRanges.size() ? b.descriptorRanges[i] : kWholeSize;
        e.dynamicOffset = i < b.dynamicOffsets.size() ? b.dynamicOffsets[i] : 0;
        if (e.range == kWholeSize) {
          e.range = VK_WHOLE_SIZE;
          if (isDynamicKind(b.kind)) {
            uint64_t used = uint64_t(e.dynamicOffset) + e.offset;
            e.range = buf.size() > used ? buf.size() - used : 0;
          }
        }
      }
      bb.elements.push_back(e);
    }
    d.bindings.push_back(std::move(bb));
  }
  std::vector<uint8_t> push;
  if (p.pushConstants) {
    if (auto f = syncToHost(*p.pushConstants))
      return f;
    push = s_.buffers[*p.pushConstants].bytes;
    push.resize(pp.pushSize, 0);
    d.pushConstants = push;
  }
  d.groups[0] = c.groups[0];
  d.groups[1] = c.groups[1];
  d.groups[2] = c.groups[2];
  d.timed = c.timed;
  d.timeoutNs = s_.fenceTimeoutMs == ~0u ? ~uint64_t(0) : uint64_t(s_.fenceTimeoutMs) * 1'000'000;
  if (auto v = validationMessage())
    return v;
  auto r = dispatch(ctx_, *pp.pipeline, d);
  if (!r)
    return "RUN " + p.name + ": " + r.error().message;
  if (r->gpuMilliseconds > 0)
    result_.timings.timedGpuMs += r->gpuMilliseconds;
  if (auto v = validationMessage())
    return v;
  // Buffers the shader may have written are now newer on the device; images come back now.
  for (const ScriptBinding &b : p.bindings)
    for (uint32_t bi : b.buffers)
      if (!isImageKind(b.kind) && resident_[bi].writable)
        resident_[bi].deviceNewer = true;
  for (auto &[bi, img] : images) {
    ScriptBuffer &sb = s_.buffers[bi];
    if (img->hasStaging()) {
      DeviceBuffer &st = img->staging();
      copyBytes(sb.bytes.data(), st.data(), std::min<size_t>(sb.bytes.size(), st.size()));
    }
  }
  return std::nullopt;
}

std::string jsonEscape(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += c;
    }
  }
  return out;
}

} // namespace

CompiledShaders compileScriptShaders(const Script &script, const RunOptions &options) {
  Clock::time_point t0 = Clock::now();
  CompileOptions co = compileOptions(options);
  CompiledShaders out;
  out.shaders.resize(script.shaders.size());
  for (const ScriptPipeline &p : script.pipelines) {
    if (!p.compute || !p.shader)
      break;
    std::optional<CompiledShader> &slot = out.shaders[p.shader->shader];
    if (!slot)
      slot = compileShader(script.shaders[p.shader->shader], co);
    if (slot->outcome == CompiledShader::Outcome::Skip)
      break;
  }
  out.compileMs = msSince(t0);
  return out;
}

ScriptResult runScript(VulkanContext &ctx, Script &script, const RunOptions &options,
                       const CompiledShaders *compiled) {
  return Interpreter(ctx, script, options, compiled).run();
}

std::string resultLine(std::string_view file, const ScriptResult &r) {
  std::string f(file);
  switch (r.outcome) {
  case ScriptResult::Outcome::Pass:
    return "PASS " + f;
  case ScriptResult::Outcome::Skip:
    return "SKIP " + f + ": " + r.message;
  case ScriptResult::Outcome::Fail:
    return "FAIL " + f + (r.line ? ":" + std::to_string(r.line) : "") + ": " + r.message;
  }
  return "";
}

std::string resultJson(std::string_view file, const ScriptResult &r) {
  const char *status = r.outcome == ScriptResult::Outcome::Pass   ? "pass"
                       : r.outcome == ScriptResult::Outcome::Skip ? "skip"
                                                                  : "fail";
  char timings[200];
  std::snprintf(timings, sizeof timings,
                "\"compile_ms\":%.3f,\"pipeline_ms\":%.3f,\"run_ms\":%.3f,\"timed_gpu_ms\":%.3f",
                r.timings.compileMs, r.timings.pipelineMs, r.timings.runMs, r.timings.timedGpuMs);
  return "{\"file\":\"" + jsonEscape(file) + "\",\"status\":\"" + status +
         "\",\"line\":" + std::to_string(r.line) + ",\"message\":\"" + jsonEscape(r.message) +
         "\"," + timings + "}";
}

Status parseExtraRequirements(std::string_view text,
                              std::map<std::string, ExtraRequirements> &out) {
  uint32_t line = 0;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t eol = text.find('\n', pos);
    if (eol == std::string_view::npos)
      eol = text.size();
    std::string_view l = text.substr(pos, eol - pos);
    pos = eol + 1;
    ++line;
    size_t hash = l.find('#');
    if (hash != std::string_view::npos)
      l = l.substr(0, hash);
    std::vector<std::string_view> words;
    size_t i = 0;
    std::string_view note;
    while (i < l.size()) {
      while (i < l.size() && (l[i] == ' ' || l[i] == '\t' || l[i] == '\r'))
        ++i;
      size_t start = i;
      while (i < l.size() && l[i] != ' ' && l[i] != '\t' && l[i] != '\r')
        ++i;
      if (i > start) {
        std::string_view w = l.substr(start, i - start);
        if (w.starts_with("note=")) {
          note = l.substr(start + 5);
          while (!note.empty() && (note.back() == ' ' || note.back() == '\r'))
            note.remove_suffix(1);
          break;
        }
        words.push_back(w);
      }
    }
    if (words.empty())
      continue;
    ExtraRequirements &r = out[std::string(words[0])];
    if (!note.empty())
      r.note = std::string(note);
    for (size_t k = 1; k < words.size(); ++k) {
      std::string_view w = words[k];
      size_t eq = w.find('=');
      if (eq == std::string_view::npos)
        return makeError(Location::text(line, 1),
                         "expected key=value, got '" + std::string(w) + "'");
      std::string_view key = w.substr(0, eq), value = w.substr(eq + 1);
      if (key == "env")
        r.targetEnv = std::string(value);
      else if (key == "feature")
        r.features.emplace_back(value);
      else if (key == "extension")
        r.deviceExtensions.emplace_back(value);
      else if (key == "skip-if-feature")
        r.skipIfFeatures.emplace_back(value);
      else if (key == "skip-on-device")
        r.skipOnDevices.emplace_back(value);
      else if (key == "skip-on-driver")
        r.skipOnDrivers.emplace_back(value);
      else
        return makeError(Location::text(line, 1), "unknown key '" + std::string(key) + "'");
    }
  }
  return {};
}

} // namespace spire::run
