#include "DxilContainerTarget.h"

#include "spire/dxil/ContainerSummary.h"
#include "spire/translate/DxilToSpirv.h"

#include <cstdio>
#include <cstdlib>

namespace spire::fuzz {

namespace {

[[noreturn]] void broken(const char *property) {
  std::fprintf(stderr, "fuzz property broken: %s\n", property);
  std::abort();
}

void checkError(const Diagnostic &d) {
  if (d.location.kind != Location::Kind::Container)
    broken("a container error points into the container");
  if (d.message.empty() || d.message.find('\n') != std::string::npos)
    broken("an error is one line");
}

template <class T> void check(const Expected<T> &result) {
  if (!result)
    checkError(result.error());
}

/// The binding model's layouts of a root signature read from the container: each succeeds or
/// fails with one line, and what it lays out stays within the limits it checks.
void layOut(const dxil::RootSignature &signature) {
  for (bool heap : {false, true}) {
    translate::BindingModel model;
    Status s = translate::applyRootSignature(signature, heap, model, heap);
    if (!s && s.error().message.find('\n') != std::string::npos)
      broken("a root signature error is one line");
    for (const translate::RootConstants &c : model.rootConstants)
      if (s && uint64_t(c.offset) + 4ull * c.num32BitValues > 256)
        broken("root constants beyond 64 DWORDs");
  }
  translate::BindingModel local;
  Status s = translate::applyLocalRootSignature(signature, local);
  if (!s && s.error().message.find('\n') != std::string::npos)
    broken("a local root signature error is one line");
  for (const translate::RootDescriptorAddress &a : local.rootAddresses)
    if (s && (a.offset % 8 || a.offset + 8 > 4064))
      broken("a root descriptor's address misplaced in the shader record");
}

/// Every reader on one part's bytes, whatever its code says it is.
void readAsEveryPart(const dxil::ContainerPart &part) {
  check(dxil::readProgramHeader(part));
  check(dxil::readSignature(part));
  check(dxil::readPipelineStateValidation(part));
  check(dxil::readPipelineStateValidation(part, dxil::ShaderKind::Hull));
  check(dxil::readFeatureInfo(part));
  check(dxil::readShaderHash(part));
  check(dxil::readCompilerVersion(part));
  check(dxil::readDebugName(part));
  Expected<dxil::RootSignature> rs = dxil::readRootSignature(part);
  check(rs);
  if (rs)
    layOut(*rs);
  check(dxil::readSourceInfo(part));
  Expected<dxil::RuntimeData> rd = dxil::readRuntimeData(part);
  check(rd);
  if (rd)
    for (const dxil::RdatSubobject &s : rd->subobjects) {
      Expected<dxil::RootSignature> sub = dxil::readRootSignature(s.rootSignature, "RDAT", 0);
      check(sub);
      if (sub)
        layOut(*sub);
    }
}

/// Brackets and braces outside strings balance and the text ends with a newline.
bool balanced(const std::string &json) {
  int depth = 0;
  bool inString = false;
  for (size_t i = 0; i < json.size(); ++i) {
    char c = json[i];
    if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        inString = false;
      else if (uint8_t(c) < 0x20)
        return false;
      continue;
    }
    if (c == '"')
      inString = true;
    else if (c == '{' || c == '[')
      ++depth;
    else if (c == '}' || c == ']')
      if (--depth < 0)
        return false;
  }
  return depth == 0 && !inString && !json.empty() && json.back() == '\n';
}

} // namespace

void dxilContainer(const uint8_t *data, size_t size) {
  std::span<const uint8_t> bytes(data, size);
  // The bytes as a part of each kind, without a container around them.
  readAsEveryPart(dxil::ContainerPart{dxil::FourCC::of("XXXX"), 0, bytes});

  Expected<dxil::Container> c = dxil::readContainer(bytes);
  if (!c) {
    checkError(c.error());
    return;
  }
  for (const dxil::ContainerPart &p : c->parts)
    readAsEveryPart(p);
  Expected<dxil::ContainerInfo> info = dxil::readContainerInfo(*c);
  if (!info) {
    checkError(info.error());
    return;
  }
  if ((info->digestStatus == dxil::DigestStatus::Signed) != (info->computedDigest == c->digest))
    broken("a signed container stores the digest recomputed from it");
  std::string text;
  dxil::printContainerSummary(*info, text);
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos)
      broken("the summary ends with a newline");
    if (text[start] != ';')
      broken("every line of the summary is a comment");
    start = end + 1;
  }
  std::string json;
  dxil::printContainerJson(*info, json, 0);
  if (!balanced(json))
    broken("the JSON's brackets balance");
}

} // namespace spire::fuzz
