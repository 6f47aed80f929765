#include "spire/run/ShaderRun.h"

#include "spire/run/AccelerationStructure.h"
#include "spire/run/ComputePipeline.h"
#include "spire/run/DataType.h"
#include "spire/run/ScriptTokenizer.h"

#include "ScriptParserSupport.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <memory>

namespace spire::run {

namespace {

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  size_t pos = 0;
  for (;;) {
    size_t at = s.find(sep, pos);
    parts.push_back(
        s.substr(pos, at == std::string_view::npos ? std::string_view::npos : at - pos));
    if (at == std::string_view::npos)
      return parts;
    pos = at + 1;
  }
}

std::optional<uint64_t> parseCount(std::string_view s) {
  uint64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size())
    return std::nullopt;
  return v;
}

/// One number as a script would write it.
std::optional<Value> parseNumber(std::string_view s) {
  ScriptTokenizer tok(s);
  Token t = tok.next();
  if (!t.isNumber() || !tok.next().isEnd())
    return std::nullopt;
  return t.value();
}

constexpr uint64_t kMaxBytes = uint64_t(1) << 30;

/// Bytes per texel of a format a shader run binds: the colour formats spire knows and
/// D32_SFLOAT (for depth comparisons); 0 for others.
uint32_t texelBytesOf(uint32_t format) {
  if (format == VK_FORMAT_D32_SFLOAT)
    return 4;
  auto type = parseFormatName(formatName(format));
  return type ? layoutOf(*type).stride : 0;
}

Diagnostic specError(std::string_view spec, std::string why) {
  return makeError({}, "buffer '" + std::string(spec) + "': " + why);
}

} // namespace

std::optional<std::pair<uint32_t, uint32_t>> parseBindingName(std::string_view text) {
  auto parts = split(text, ':');
  if (parts.size() > 2)
    return std::nullopt;
  std::vector<uint32_t> nums;
  for (std::string_view p : parts) {
    auto v = parseCount(p);
    if (!v || *v > 0xFFFFFFFFu)
      return std::nullopt;
    nums.push_back(static_cast<uint32_t>(*v));
  }
  if (nums.size() == 1)
    return std::make_pair(0u, nums[0]);
  return std::make_pair(nums[0], nums[1]);
}

Expected<std::vector<uint8_t>>
bufferFromSpec(std::string_view spec,
               const std::function<Expected<std::vector<uint8_t>>(const std::string &)> &loader) {
  auto parts = split(spec, ':');
  std::string_view kind = parts[0];
  if (kind == "random" || kind == "zero") {
    size_t want = kind == "random" ? 3 : 2;
    if (parts.size() != want)
      return specError(spec,
                       kind == "random" ? "expected random:SEED:BYTES" : "expected zero:BYTES");
    auto bytes = parseCount(parts.back());
    if (!bytes || *bytes > kMaxBytes)
      return specError(spec, "a byte count up to 1 GiB");
    std::vector<uint8_t> out(*bytes, 0);
    if (kind == "random") {
      auto seed = parseCount(parts[1]);
      if (!seed)
        return specError(spec, "the seed is not a number");
      // splitmix64: the same bytes for the same seed on every machine.
      uint64_t state = *seed;
      for (size_t i = 0; i < out.size(); i += 8) {
        uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        z ^= z >> 31;
        for (size_t b = 0; b < 8 && i + b < out.size(); ++b)
          out[i + b] = static_cast<uint8_t>(z >> (8 * b));
      }
    }
    return out;
  }
  if (kind == "series" || kind == "fill" || kind == "data") {
    size_t want = kind == "series" ? 5 : kind == "fill" ? 4 : 3;
    if (parts.size() != want)
      return specError(spec, kind == "series" ? "expected series:TYPE:START:STEP:COUNT"
                             : kind == "fill" ? "expected fill:TYPE:VALUE:COUNT"
                                              : "expected data:TYPE:V1,V2,...");
    auto type = parseAmberType(parts[1]);
    if (!type)
      type = parseFormatName(parts[1]);
    if (!type)
      return specError(spec, "unknown type " + std::string(parts[1]));
    BufferFormat format = layoutOf(*type);
    uint32_t per = format.componentsPerElement();
    std::vector<Value> values;
    if (kind == "data") {
      for (std::string_view v : split(parts[2], ',')) {
        auto n = parseNumber(v);
        if (!n)
          return specError(spec, "'" + std::string(v) + "' is not a number");
        values.push_back(*n);
      }
      if (values.size() % per != 0)
        return specError(spec, "the values do not fill whole elements of " + type->name);
    } else {
      auto count = parseCount(parts.back());
      if (!count || *count * format.stride > kMaxBytes)
        return specError(spec, "an element count up to 1 GiB of data");
      auto start = parseNumber(parts[2]);
      std::optional<Value> step = kind == "series" ? parseNumber(parts[3]) : Value::integer(0);
      if (!start || !step)
        return specError(spec, "the start or step is not a number");
      bool isFloat =
          type->isFormat() ? type->formatComponents[0].isFloat() : type->scalar.isFloat();
      for (uint64_t i = 0; i < *count; ++i) {
        Value v = isFloat ? Value::real(start->asDouble() + double(i) * step->asDouble())
                          : Value::integer(start->asBits() + i * step->asBits());
        for (uint32_t c = 0; c < per; ++c)
          values.push_back(v);
      }
    }
    std::vector<uint8_t> out;
    detail::encodeValues(format, values, out);
    return out;
  }
  std::string path(kind == "file" ? spec.substr(5) : spec);
  auto bytes = loader(path);
  if (!bytes)
    return specError(spec, bytes.error().message);
  if (bytes->size() > kMaxBytes)
    return specError(spec, "larger than 1 GiB");
  return std::move(*bytes);
}

std::array<uint32_t, 4> imageExtent(const Resource &r) {
  const uint32_t layers = r.arrayed ? 4 : 1;
  switch (r.imageDim) {
  case 0:
    return {64, 1, 1, layers};
  case 2:
    return {8, 8, 8, 1};
  case 3:
    return {8, 8, 1, 6 * layers};
  default:
    return {16, 16, 1, layers};
  }
}

uint32_t bindingFormat(const Resource &r, const ShaderRunRequest &req) {
  auto it = req.formats.find({r.set, r.binding});
  if (it != req.formats.end())
    return it->second;
  if (r.imageFormat)
    return r.imageFormat;
  switch (r.sampledType) {
  case 'f':
    return VK_FORMAT_R32G32B32A32_SFLOAT;
  case 'i':
    return VK_FORMAT_R32G32B32A32_SINT;
  case 'u':
    return VK_FORMAT_R32G32B32A32_UINT;
  default:
    return VK_FORMAT_UNDEFINED;
  }
}

std::optional<std::string> unmetBindingRequirement(const VulkanContext &ctx,
                                                   const ModuleInterface &mi,
                                                   const ShaderRunRequest &req) {
  if (std::find(mi.capabilities.begin(), mi.capabilities.end(), "StorageImageReadWithoutFormat") ==
      mi.capabilities.end())
    return std::nullopt;
  for (const Resource &r : mi.resources) {
    if (r.imageFormat || !r.texelsRead ||
        (r.kind != DescriptorKind::StorageImage && r.kind != DescriptorKind::StorageTexelBuffer))
      continue;
    const uint32_t format = bindingFormat(r, req);
    VkFormatProperties3 p3{VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_3};
    VkFormatProperties2 p2{VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_2, &p3};
    ctx.vk().vkGetPhysicalDeviceFormatProperties2(ctx.physicalDevice(), VkFormat(format), &p2);
    const VkFormatFeatureFlags2 features =
        r.kind == DescriptorKind::StorageImage ? p3.optimalTilingFeatures : p3.bufferFeatures;
    if (!(features & VK_FORMAT_FEATURE_2_STORAGE_READ_WITHOUT_FORMAT_BIT))
      return ctx.deviceName() + " cannot read " + std::string(formatName(format)) +
             " without a format (binding " + std::to_string(r.set) + ":" +
             std::to_string(r.binding) + ", which the module reads without one)";
  }
  return std::nullopt;
}

Expected<ShaderRunResult> runShader(VulkanContext &ctx, const ModuleInterface &mi,
                                    const ShaderRunRequest &req) {
  const EntryPoint *entry = nullptr;
  for (const EntryPoint &ep : mi.entryPoints)
    if (req.entryPoint.empty() ? ep.model == "GLCompute" : ep.name == req.entryPoint) {
      entry = &ep;
      break;
    }
  if (!entry)
    return makeError({}, req.entryPoint.empty()
                             ? std::string("the module has no GLCompute entry point")
                             : "the module has no entry point " + req.entryPoint);
  if (entry->model != "GLCompute")
    return makeError({}, "entry point " + entry->name + " is a " + entry->model +
                             " shader; spire run dispatches compute shaders");
  for (const auto &[key, data] : req.buffers)
    if (!mi.find(key.first, key.second))
      return makeError({}, "the module has no binding " + std::to_string(key.first) + ":" +
                               std::to_string(key.second));

  if (mi.pushConstantSize > ctx.properties().limits.maxPushConstantsSize)
    return makeError({}, "the push constants take " + std::to_string(mi.pushConstantSize) +
                             " bytes, beyond the device's " +
                             std::to_string(ctx.properties().limits.maxPushConstantsSize));
  if (auto why = unmetBindingRequirement(ctx, mi, req))
    return makeError({}, *why);
  ComputePipelineDesc desc;
  desc.spirv = req.words;
  desc.entryPoint = entry->name;
  desc.specialization = req.specialization;
  desc.pushConstantSize = mi.pushConstantSize;
  struct Bound {
    const Resource *resource;
    uint32_t count;                                     ///< descriptors
    std::vector<std::unique_ptr<DeviceBuffer>> buffers; ///< one per element (texel views too)
    std::vector<std::unique_ptr<DeviceImage>> images;   ///< one per element
    std::unique_ptr<DeviceSampler> sampler;             ///< every element's
    std::vector<std::unique_ptr<DeviceAccelerationStructure>> structures; ///< one per element
    VkFormat format = VK_FORMAT_UNDEFINED;
    size_t bytes = 0; ///< of each element's data
  };
  std::vector<Bound> bound;
  for (const Resource &r : mi.resources) {
    // Variables that alias one binding (views of a buffer with other element types) share its
    // descriptor; the resources come sorted by set and binding.
    if (!bound.empty() && bound.back().resource->set == r.set &&
        bound.back().resource->binding == r.binding) {
      if (bound.back().resource->kind != r.kind)
        return makeError({}, "binding " + std::to_string(r.set) + ":" + std::to_string(r.binding) +
                                 " is declared with two descriptor types");
      continue;
    }
    const std::string where = std::to_string(r.set) + ":" + std::to_string(r.binding);
    Bound b{&r, r.count, {}, {}, nullptr};
    if (r.count == 0) {
      if (!req.runtimeArrayDescriptors)
        return makeError(
            {}, "binding " + where +
                    " is a runtime array of descriptors; give how many to bind (--descriptors)");
      b.count = req.runtimeArrayDescriptors;
    }
    desc.bindings.push_back(LayoutBinding{r.set, r.binding, r.kind, b.count});
    // An array of descriptors: the data in equal parts, one per element.
    auto it = req.buffers.find({r.set, r.binding});
    if (it != req.buffers.end() && !it->second.empty() &&
        (r.kind == DescriptorKind::Sampler || it->second.size() % b.count))
      return makeError({}, r.kind == DescriptorKind::Sampler
                               ? "binding " + where + " is a sampler: it takes no data"
                               : "binding " + where + " is an array of " + std::to_string(b.count) +
                                     " descriptors: its data must split into equal parts");
    const size_t part = it != req.buffers.end() ? it->second.size() / b.count : 0;
    const uint8_t *data = it != req.buffers.end() ? it->second.data() : nullptr;
    if (r.kind == DescriptorKind::AccelerationStructure) {
      // Triangles, three vertices of three floats each, in every element's part.
      if (part % 36)
        return makeError({}, "binding " + where +
                                 " is an acceleration structure: its data is triangles, 36 bytes "
                                 "each (three vertices of three floats)");
      if (part * b.count > kMaxBytes)
        return makeError({}, "binding " + where + " would take more than 1 GiB");
      for (uint32_t e = 0; e < b.count; ++e) {
        auto as = DeviceAccelerationStructure::create(
            ctx, std::span<const uint8_t>(data ? data + e * part : nullptr, part));
        if (!as)
          return makeError({}, "binding " + where + ": " + as.error().message);
        b.structures.push_back(std::make_unique<DeviceAccelerationStructure>(std::move(*as)));
      }
    }
    if (r.kind == DescriptorKind::Sampler || r.kind == DescriptorKind::CombinedImageSampler) {
      auto sd = req.samplers.find({r.set, r.binding});
      auto sampler =
          DeviceSampler::create(ctx, sd == req.samplers.end() ? SamplerDesc{} : sd->second);
      if (!sampler)
        return sampler.error();
      b.sampler = std::make_unique<DeviceSampler>(std::move(*sampler));
    }
    if (isImageKind(r.kind) || isTexelBufferKind(r.kind)) {
      b.format = static_cast<VkFormat>(bindingFormat(r, req));
      if (texelBytesOf(b.format) == 0)
        return makeError({}, "binding " + where + " has no format: give one");
    }
    if (isImageKind(r.kind)) {
      const std::array<uint32_t, 4> e = imageExtent(r);
      ImageDesc id;
      id.type = r.imageDim == 0   ? VK_IMAGE_TYPE_1D
                : r.imageDim == 2 ? VK_IMAGE_TYPE_3D
                                  : VK_IMAGE_TYPE_2D;
      id.format = b.format;
      id.width = e[0], id.height = e[1], id.depth = e[2], id.layers = e[3];
      id.cube = r.imageDim == 3;
      id.arrayed = r.arrayed;
      id.usage = r.kind == DescriptorKind::StorageImage ? VK_IMAGE_USAGE_STORAGE_BIT
                                                        : VK_IMAGE_USAGE_SAMPLED_BIT;
      id.texelBytes = texelBytesOf(b.format);
      b.bytes = size_t(e[0]) * e[1] * e[2] * e[3] * id.texelBytes;
      if (r.multisampled) {
        // No copy fills or reads a multisampled image: it starts cleared, and what the shader
        // writes is seen through what it reads back into other bindings.
        if (data)
          return makeError({}, "binding " + where +
                                   " is a multisampled image: it takes no data (it starts "
                                   "cleared to zero and is not read back)");
        id.samples = kMultisampledImageSamples;
        b.bytes = 0;
      }
      for (uint32_t i = 0; i < b.count; ++i) {
        auto img = DeviceImage::create(ctx, id);
        if (!img)
          return makeError({}, "binding " + where + ": " + img.error().message);
        auto owned = std::make_unique<DeviceImage>(std::move(*img));
        if (owned->hasStaging()) {
          std::memset(owned->staging().data(), 0, owned->staging().size());
          if (data)
            std::memcpy(owned->staging().data(), data + i * part, std::min(part, b.bytes));
        }
        b.images.push_back(std::move(owned));
      }
    } else if (isBufferKind(r.kind) || isTexelBufferKind(r.kind)) {
      size_t size = it != req.buffers.end() ? part : r.blockSize;
      if (it == req.buffers.end() && (r.runtimeStride || isTexelBufferKind(r.kind)))
        return makeError({},
                         "binding " + where +
                             (r.runtimeStride ? " ends in a runtime array" : " is a texel buffer") +
                             ": give its data with --buffer");
      if (size * b.count > kMaxBytes)
        return makeError({}, "binding " + where + " would take more than 1 GiB");
      VkBufferUsageFlags usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                 VK_BUFFER_USAGE_TRANSFER_DST_BIT | vkBufferUsage(r.kind);
      b.bytes = size;
      for (uint32_t e = 0; e < b.count; ++e) {
        auto buf = DeviceBuffer::create(ctx, size, usage);
        if (!buf)
          return buf.error();
        auto owned = std::make_unique<DeviceBuffer>(std::move(*buf));
        std::memset(owned->data(), 0, owned->size());
        if (data && size)
          std::memcpy(owned->data(), data + e * size, size);
        b.buffers.push_back(std::move(owned));
      }
    }
    bound.push_back(std::move(b));
  }
  ctx.takeMessages();
  auto pipeline = ComputePipeline::create(ctx, desc);
  if (!pipeline)
    return pipeline.error();
  Dispatch d;
  for (Bound &b : bound) {
    BoundBinding bb;
    bb.set = b.resource->set;
    bb.binding = b.resource->binding;
    bb.kind = b.resource->kind;
    for (uint32_t i = 0; i < b.count; ++i) {
      BoundElement e;
      if (b.sampler)
        e.sampler = b.sampler->handle();
      if (!b.structures.empty())
        e.accelerationStructure = b.structures[i]->handle();
      if (!b.images.empty()) {
        e.imageView = b.images[i]->view();
        d.images.push_back({b.images[i].get(), true});
      }
      if (!b.buffers.empty()) {
        e.buffer = b.buffers[i]->handle();
        if (isTexelBufferKind(b.resource->kind)) {
          auto view = b.buffers[i]->view(b.format);
          if (!view)
            return view.error();
          e.texelView = *view;
        }
      }
      bb.elements.push_back(e);
    }
    d.bindings.push_back(std::move(bb));
  }
  std::vector<uint8_t> push = req.pushConstants;
  std::map<uint32_t, DeviceBuffer> addressed;
  for (const auto &[offset, bytes] : req.addressBuffers) {
    if (uint64_t(offset) + 8 > mi.pushConstantSize)
      return makeError({}, "an address buffer's address at push constant offset " +
                               std::to_string(offset) + " is outside the module's " +
                               std::to_string(mi.pushConstantSize) + " bytes of push constants");
    if (bytes.size() > kMaxBytes)
      return makeError({}, "an address buffer would take more than 1 GiB");
    auto buf = DeviceBuffer::create(
        ctx, bytes.size(), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,
        true);
    if (!buf)
      return buf.error();
    std::memset(buf->data(), 0, buf->size());
    std::memcpy(buf->data(), bytes.data(), bytes.size());
    const uint64_t address = buf->deviceAddress();
    push.resize(std::max<size_t>(push.size(), offset + 8), 0);
    std::memcpy(push.data() + offset, &address, 8);
    addressed.emplace(offset, std::move(*buf));
  }
  if (mi.pushConstantSize) {
    push.resize(mi.pushConstantSize, 0);
    d.pushConstants = push;
  }
  for (int i = 0; i < 3; ++i)
    d.groups[i] = req.groups[i];
  d.timed = req.timed;
  auto r = dispatch(ctx, *pipeline, d);
  if (!r)
    return r.error();
  ShaderRunResult result;
  result.gpuMilliseconds = r->gpuMilliseconds;
  for (Bound &b : bound) {
    if (b.resource->kind == DescriptorKind::Sampler ||
        b.resource->kind == DescriptorKind::AccelerationStructure)
      continue;
    std::vector<uint8_t> &out = result.buffers[{b.resource->set, b.resource->binding}];
    for (const std::unique_ptr<DeviceBuffer> &buffer : b.buffers)
      out.insert(out.end(), buffer->data(), buffer->data() + b.bytes);
    for (const std::unique_ptr<DeviceImage> &image : b.images)
      if (image->hasStaging())
        out.insert(out.end(), image->staging().data(), image->staging().data() + b.bytes);
  }
  for (const auto &[offset, buffer] : addressed)
    result.addressBuffers[offset].assign(buffer.data(),
                                         buffer.data() + req.addressBuffers.at(offset).size());
  result.validationMessages = ctx.takeMessages();
  return result;
}

} // namespace spire::run
