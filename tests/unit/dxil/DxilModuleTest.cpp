// The DXIL model over small in-memory modules: each metadata record kind decoded, each dx.op
// check, and each error a one-line diagnostic.
#include "LlvmModuleBuilder.h"

#include "spire/dxil/ContainerSummary.h"
#include "spire/dxil/DxilModule.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <thread>

namespace spire::test {
namespace {

using namespace spire::dxil;

/// A module with dx.version 1.6, the given shader model and, unless `entry` is false, a
/// defined function @main the entry record names.
struct Shader : LlvmModuleBuilder {
  TypeId i1 = integer(1), i8 = integer(8), i32 = integer(32), i64 = integer(64), f = f32();
  TypeId handle = structType("dx.types.Handle", {pointer(i8)});
  uint32_t main = 0;

  explicit Shader(std::string_view kind = "cs", uint32_t minor = 6) {
    named("dx.version", {node({mdI32(1), mdI32(6)})});
    named("dx.valver", {node({mdI32(1), mdI32(7)})});
    named("dx.shaderModel", {node({mdString(kind), mdI32(6), mdI32(minor)})});
  }
  /// Declares the dx.op function and returns it.
  uint32_t op(std::string_view name, std::initializer_list<TypeId> signature) {
    return declare(function(signature), name);
  }
  void defineMain() { main = declare(function({voidType()}), "main", true); }
  MetadataId mainMd() { return mdValue(functionValue(main)); }
  MetadataId i64Md(uint64_t v) { return mdValue(constInt(i64, v)); }
  MetadataId boolMd(bool v) { return mdValue(constInt(i1, v)); }
  MetadataId entry(MetadataId signatures, MetadataId resources, MetadataId properties) {
    MetadataId e = node({mainMd(), mdString("main"), signatures, resources, properties});
    named("dx.entryPoints", {e});
    return e;
  }
  Expected<DxilModule> decode(std::optional<DxilContainerInfo> info = std::nullopt) {
    return decodeDxil(m, info);
  }
};

std::string errorOf(const Expected<DxilModule> &d) {
  return d ? std::string("decoded") : d.error().message;
}

TEST(DxilModule, DecodesAComputeShaderAndResolvesItsCalls) {
  Shader s;
  uint32_t threadId = s.op("dx.op.threadId.i32", {s.i32, s.i32, s.i32});
  uint32_t createHandle = s.op("dx.op.createHandle", {s.handle, s.i32, s.i8, s.i32, s.i32, s.i1});
  s.defineMain();
  uint32_t first = s.call(threadId, {s.constInt(s.i32, 93), s.constInt(s.i32, 1)});
  uint32_t second =
      s.call(createHandle, {s.constInt(s.i32, 57), s.constInt(s.i8, 1), s.constInt(s.i32, 0),
                            s.constInt(s.i32, 0), s.constInt(s.i1, 0)});
  ValueId buffer = s.global(s.structType("class.RWStructuredBuffer<float>", {s.f}), "buf");
  MetadataId uav = s.node({s.mdI32(0), s.mdValue(buffer), s.mdString("buf"), s.mdI32(2), s.mdI32(3),
                           s.mdI32(1), s.mdI32(12), s.boolMd(false), s.boolMd(true),
                           s.boolMd(false), s.node({s.mdI32(1), s.mdI32(4)})});
  MetadataId lists = s.node({kNoId, s.node({uav}), kNoId, kNoId});
  s.named("dx.resources", {lists});
  s.entry(kNoId, kNoId,
          s.node({s.mdI32(0), s.i64Md(0x10), s.mdI32(4),
                  s.node({s.mdI32(8), s.mdI32(4), s.mdI32(1)}), s.mdI32(99), s.mdI32(7)}));

  Expected<DxilModule> d = s.decode(DxilContainerInfo{ShaderKind::Compute, 6, 6});
  ASSERT_TRUE(d) << errorOf(d);
  EXPECT_EQ(d->dxilMajor, 1u);
  EXPECT_EQ(d->dxilMinor, 6u);
  ASSERT_TRUE(d->validatorVersion);
  EXPECT_EQ((*d->validatorVersion)[1], 7u);
  EXPECT_EQ(d->kind, ShaderKind::Compute);
  EXPECT_EQ(d->shaderModelMinor, 6u);
  ASSERT_EQ(d->entryPoints.size(), 1u);
  const EntryPoint &e = d->entryPoints[0];
  EXPECT_EQ(e.name, "main");
  EXPECT_EQ(e.functionIndex, s.main);
  EXPECT_EQ(e.kind, ShaderKind::Compute);
  ASSERT_TRUE(e.properties.shaderFlags);
  EXPECT_EQ(*e.properties.shaderFlags, 0x10u);
  ASSERT_TRUE(e.properties.numThreads);
  EXPECT_EQ((*e.properties.numThreads)[0], 8u);
  EXPECT_EQ((*e.properties.numThreads)[1], 4u);
  ASSERT_EQ(e.properties.otherTags.size(), 1u); // tag 99 kept raw
  EXPECT_EQ(e.properties.otherTags[0].tag, 99u);
  EXPECT_EQ(d->entryOf(s.main), &e);

  ASSERT_EQ(d->resources.uavs.size(), 1u);
  const DxilResource &r = d->resources.uavs[0];
  EXPECT_EQ(r.resourceClass, ResourceClass::UAV);
  EXPECT_EQ(r.name, "buf");
  EXPECT_EQ(r.global, buffer);
  EXPECT_EQ(r.space, 2u);
  EXPECT_EQ(r.lowerBound, 3u);
  EXPECT_EQ(r.rangeSize, 1u);
  EXPECT_EQ(r.kind, ResourceKind::StructuredBuffer);
  EXPECT_TRUE(r.hasCounter);
  EXPECT_FALSE(r.globallyCoherent);
  ASSERT_TRUE(r.stride);
  EXPECT_EQ(*r.stride, 4u);
  EXPECT_EQ(d->resources.find(ResourceClass::UAV, 0), &r);
  EXPECT_EQ(d->resources.find(ResourceClass::SRV, 0), nullptr);

  ASSERT_EQ(d->opCalls.size(), 2u);
  const DxilOpCall *call = d->opCallAt(first);
  ASSERT_NE(call, nullptr);
  EXPECT_EQ(call->op->name, "ThreadId");
  EXPECT_EQ(call->overload, Overload::I32);
  EXPECT_EQ(call->overloadType, s.i32);
  EXPECT_EQ(call->function, s.main);
  ASSERT_EQ(d->opArguments(*call).size(), 1u);
  call = d->opCallAt(second);
  ASSERT_NE(call, nullptr);
  EXPECT_EQ(call->op->opClass, OpClass::CreateHandle);
  EXPECT_EQ(call->overloadType, kNoId);
  EXPECT_EQ(d->opArguments(*call).size(), 4u);
  EXPECT_EQ(d->opCallAt(9999), nullptr);
}

TEST(DxilModule, SummaryListsEntriesAndResources) {
  Shader s;
  s.defineMain();
  ValueId buffer = s.global(s.structType("class.RWBuffer<float>", {s.f}), "buf");
  MetadataId uav = s.node({s.mdI32(0), s.mdValue(buffer), s.mdString("out"), s.mdI32(1), s.mdI32(5),
                           s.mdI32(0xFFFFFFFF), s.mdI32(10), s.boolMd(true), s.boolMd(false),
                           s.boolMd(false), s.node({s.mdI32(0), s.mdI32(9)})});
  MetadataId lists = s.node({kNoId, s.node({uav}), kNoId, kNoId});
  s.named("dx.resources", {lists});
  s.entry(kNoId, lists, s.node({s.mdI32(4), s.node({s.mdI32(8), s.mdI32(8), s.mdI32(1)})}));
  std::string text;
  printModelSummary(s.m, std::nullopt, text);
  EXPECT_NE(text.find("; DXIL model: cs_6_6, DXIL 1.6, 1 entry point, 0 dx.op calls\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("; main  compute      0       0          0 8,8,1\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("; out  UAV   TypedBuffer coherent f32     0 u5       1 unbounded\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("Resources of entry"), std::string::npos) << text; // the same lists

  s.m.namedMetadata.pop_back(); // dx.entryPoints
  text.clear();
  printModelSummary(s.m, std::nullopt, text);
  EXPECT_EQ(text, ";\n; DXIL model: not decoded: !dx.entryPoints: a cs shader needs exactly one "
                  "entry point, found 0\n");
}

TEST(DxilModule, DecodesSignatureElements) {
  Shader s("ps", 0);
  s.defineMain();
  MetadataId position =
      s.node({s.mdI32(0), s.mdString("SV_Position"), s.mdI32(9), s.mdI32(3), s.node({s.mdI32(0)}),
              s.mdI32(4), s.mdI32(1), s.mdI32(4), s.mdI32(0), s.mdI32(0),
              s.node({s.mdI32(3), s.mdI32(15), s.mdI32(42), s.mdI32(1)})});
  MetadataId color = s.node({s.mdI32(1), s.mdString("COLOR"), s.mdI32(9), s.mdI32(0),
                             s.node({s.mdI32(2), s.mdI32(3)}), s.mdI32(2), s.mdI32(2), s.mdI32(3),
                             s.mdI32(0xFFFFFFFF), s.mdI32(0xFFFFFFFF), kNoId});
  MetadataId target =
      s.node({s.mdI32(0), s.mdString("SV_Target"), s.mdI32(9), s.mdI32(16), s.node({s.mdI32(0)}),
              s.mdI32(0), s.mdI32(1), s.mdI32(4), s.mdI32(0), s.mdI32(0), kNoId});
  s.entry(s.node({s.node({position, color}), s.node({target}), kNoId}), kNoId, kNoId);
  Expected<DxilModule> d = s.decode();
  ASSERT_TRUE(d) << errorOf(d);
  const Signatures &sig = d->entryPoints[0].signatures;
  ASSERT_EQ(sig.inputs.size(), 2u);
  ASSERT_EQ(sig.outputs.size(), 1u);
  EXPECT_TRUE(sig.patchConstants.empty());
  const DxilSignatureElement &p = sig.inputs[0];
  EXPECT_EQ(p.name, "SV_Position");
  EXPECT_EQ(p.componentType, DxilComponentType::F32);
  EXPECT_EQ(p.semanticKind, SemanticKind::Position);
  EXPECT_EQ(p.interpolation, InterpolationMode::LinearNoperspective);
  EXPECT_EQ(p.rows, 1u);
  EXPECT_EQ(p.cols, 4u);
  EXPECT_EQ(p.startRow, 0);
  ASSERT_TRUE(p.usageMask);
  EXPECT_EQ(*p.usageMask, 15u);
  ASSERT_EQ(p.otherTags.size(), 1u);
  EXPECT_EQ(p.otherTags[0].tag, 42u);
  const DxilSignatureElement &c = sig.inputs[1];
  EXPECT_EQ(c.id, 1u);
  EXPECT_EQ(c.semanticIndices, (std::vector<uint32_t>{2, 3}));
  EXPECT_EQ(c.startRow, -1);
  EXPECT_EQ(c.startCol, -1);
  EXPECT_FALSE(c.usageMask);
  EXPECT_EQ(sig.outputs[0].semanticKind, SemanticKind::Target);
  EXPECT_EQ(dxilComponentTypeName(p.componentType), "f32");
}

TEST(DxilModule, SemanticIndicesInsideTheElementOrOnTheHeap) {
  // Up to SemanticIndices::kInline indices live in the element, more on the heap: both decoded,
  // copied and moved whole.
  Shader s("ps", 0);
  s.defineMain();
  auto element = [&](uint32_t id, MetadataId indices, uint32_t rows) {
    return s.node({s.mdI32(id), s.mdString("TEXCOORD"), s.mdI32(9), s.mdI32(0), indices, s.mdI32(2),
                   s.mdI32(rows), s.mdI32(4), s.mdI32(0), s.mdI32(0), kNoId});
  };
  static_assert(SemanticIndices::kInline == 5);
  MetadataId few =
      element(0, s.node({s.mdI32(7), s.mdI32(8), s.mdI32(9), s.mdI32(10), s.mdI32(11)}), 5);
  MetadataId many = element(
      1,
      s.node({s.mdI32(1), s.mdI32(2), s.mdI32(3), s.mdI32(4), s.mdI32(5), s.mdI32(6), s.mdI32(20)}),
      7);
  s.entry(s.node({s.node({few, many}), kNoId, kNoId}), kNoId, kNoId);
  Expected<DxilModule> d = s.decode();
  ASSERT_TRUE(d) << errorOf(d);
  const std::vector<DxilSignatureElement> &in = d->entryPoints[0].signatures.inputs;
  ASSERT_EQ(in.size(), 2u);
  EXPECT_EQ(in[0].semanticIndices, (std::vector<uint32_t>{7, 8, 9, 10, 11}));
  EXPECT_EQ(in[1].semanticIndices, (std::vector<uint32_t>{1, 2, 3, 4, 5, 6, 20}));
  EXPECT_EQ(in[1].semanticIndices[6], 20u);
  EXPECT_EQ(std::vector<uint32_t>(in[1].semanticIndices.begin(), in[1].semanticIndices.end()),
            (std::vector<uint32_t>{1, 2, 3, 4, 5, 6, 20}));

  // Copies own their indices; a moved-from list is empty.
  std::vector<DxilSignatureElement> copy = in;
  EXPECT_EQ(copy[0].semanticIndices, in[0].semanticIndices);
  EXPECT_EQ(copy[1].semanticIndices, in[1].semanticIndices);
  EXPECT_NE(copy[1].semanticIndices.data(), in[1].semanticIndices.data());
  SemanticIndices moved = std::move(copy[1].semanticIndices);
  EXPECT_TRUE(copy[1].semanticIndices.empty());
  EXPECT_EQ(moved, (std::vector<uint32_t>{1, 2, 3, 4, 5, 6, 20}));
  SemanticIndices small = std::move(copy[0].semanticIndices);
  EXPECT_EQ(small, (std::vector<uint32_t>{7, 8, 9, 10, 11}));
  moved = small; // heap to inline
  EXPECT_EQ(moved, (std::vector<uint32_t>{7, 8, 9, 10, 11}));
  small = in[1].semanticIndices; // inline to heap
  EXPECT_EQ(small, (std::vector<uint32_t>{1, 2, 3, 4, 5, 6, 20}));
  EXPECT_EQ(SemanticIndices({4, 2}), (std::vector<uint32_t>{4, 2}));
  EXPECT_TRUE(SemanticIndices().empty());
}

TEST(DxilModule, RecordsValueInitializedHoldTheirInitializers) {
  // The records have constructors of their own (no zeroing first): value-initialized, in a
  // vector's resize too, each field still holds its initializer.
  std::vector<DxilSignatureElement> elements(2);
  EXPECT_EQ(elements[1].startRow, -1);
  EXPECT_EQ(elements[1].node, kNoId);
  EXPECT_TRUE(elements[1].semanticIndices.empty());
  EXPECT_FALSE(elements[1].usageMask);
  std::vector<DxilResource> resources(2);
  EXPECT_EQ(resources[1].symbol, kNoId);
  EXPECT_EQ(resources[1].global, kNoId);
  EXPECT_FALSE(resources[1].hasCounter);
  EXPECT_FALSE(resources[1].elementType);
  std::vector<EntryPoint> entries(2);
  EXPECT_EQ(entries[1].functionIndex, kNoId);
  EXPECT_EQ(entries[1].kind, ShaderKind::Library);
  EXPECT_EQ(entries[1].resources.node, kNoId);
  EXPECT_FALSE(entries[1].properties.numThreads);
  DxilModule d{};
  EXPECT_EQ(d.llvm, nullptr);
  EXPECT_EQ(d.kind, ShaderKind::Pixel);
  EXPECT_EQ(d.resources.node, kNoId);
  EXPECT_FALSE(d.validatorVersion);
  EXPECT_TRUE(d.opCalls.empty());
}

TEST(DxilModule, DecodesStageStates) {
  Shader s("hs", 0);
  s.defineMain();
  uint32_t patch = s.declare(s.function({s.voidType()}), "patch", true);
  MetadataId hs = s.node({s.mdValue(s.functionValue(patch)), s.mdI32(3), s.mdI32(4), s.mdI32(3),
                          s.mdI32(3), s.mdI32(4), s.mdValue(s.constFloat(s.f, 0x41800000))});
  MetadataId gs = s.node({s.mdI32(3), s.mdI32(12), s.mdI32(1), s.mdI32(5), s.mdI32(2)});
  MetadataId ds = s.node({s.mdI32(2), s.mdI32(3)});
  MetadataId ms = s.node({s.node({s.mdI32(32), s.mdI32(1), s.mdI32(1)}), s.mdI32(64), s.mdI32(126),
                          s.mdI32(2), s.mdI32(16)});
  MetadataId as = s.node({s.node({s.mdI32(8), s.mdI32(1), s.mdI32(1)}), s.mdI32(12)});
  MetadataId wave = s.node({s.mdI32(16), s.mdI32(64), s.mdI32(32)});
  s.entry(kNoId, kNoId,
          s.node({s.mdI32(3), hs, s.mdI32(1), gs, s.mdI32(2), ds, s.mdI32(9), ms, s.mdI32(10), as,
                  s.mdI32(23), wave, s.mdI32(5), s.node({s.mdI32(7)}), s.mdI32(6), s.mdI32(20),
                  s.mdI32(7), s.mdI32(8)}));
  Expected<DxilModule> d = s.decode();
  ASSERT_TRUE(d) << errorOf(d);
  const EntryProperties &p = d->entryPoints[0].properties;
  ASSERT_TRUE(p.hs);
  EXPECT_EQ(p.hs->patchConstantFunction, s.functionValue(patch));
  EXPECT_EQ(p.hs->outputControlPoints, 4u);
  EXPECT_EQ(p.hs->outputPrimitive, 4u);
  EXPECT_EQ(p.hs->maxTessFactor, 16.0f);
  ASSERT_TRUE(p.gs);
  EXPECT_EQ(p.gs->maxVertexCount, 12u);
  EXPECT_EQ(p.gs->instanceCount, 2u);
  ASSERT_TRUE(p.ds);
  EXPECT_EQ(p.ds->inputControlPoints, 3u);
  ASSERT_TRUE(p.ms);
  EXPECT_EQ(p.ms->numThreads[0], 32u);
  EXPECT_EQ(p.ms->maxPrimitiveCount, 126u);
  EXPECT_EQ(p.ms->payloadSize, 16u);
  ASSERT_TRUE(p.as);
  EXPECT_EQ(p.as->payloadSize, 12u);
  ASSERT_TRUE(p.waveSize);
  EXPECT_EQ(p.waveSize->preferred, 32u);
  EXPECT_EQ(p.autoBindingSpace, 7u);
  EXPECT_EQ(p.rayPayloadSize, 20u);
  EXPECT_EQ(p.rayAttributeSize, 8u);
}

TEST(DxilModule, DecodesEveryResourceClass) {
  Shader s("ps", 0);
  s.defineMain();
  ValueId tex = s.global(s.structType("class.Texture2D<float4>", {s.f}), "tex");
  MetadataId srv = s.node({s.mdI32(0), s.mdValue(tex), s.mdString("tex"), s.mdI32(0), s.mdI32(0),
                           s.mdI32(0xFFFFFFFF), s.mdI32(2), s.mdI32(0),
                           s.node({s.mdI32(0), s.mdI32(9), s.mdI32(3), s.boolMd(true)})});
  MetadataId cbv = s.node(
      {s.mdI32(0), kNoId, s.mdString(""), s.mdI32(1), s.mdI32(2), s.mdI32(1), s.mdI32(64), kNoId});
  MetadataId sampler = s.node({s.mdI32(0), kNoId, s.mdString("smp"), s.mdI32(0), s.mdI32(0),
                               s.mdI32(1), s.mdI32(1), kNoId});
  MetadataId lists = s.node({s.node({srv}), kNoId, s.node({cbv}), s.node({sampler})});
  s.named("dx.resources", {lists});
  s.entry(kNoId, lists, kNoId);
  Expected<DxilModule> d = s.decode();
  ASSERT_TRUE(d) << errorOf(d);
  ASSERT_EQ(d->resources.size(), 3u);
  const DxilResource &t = d->resources.srvs[0];
  EXPECT_EQ(t.kind, ResourceKind::Texture2D);
  EXPECT_EQ(t.rangeSize, 0xFFFFFFFFu);
  EXPECT_EQ(t.elementType, DxilComponentType::F32);
  EXPECT_TRUE(t.atomic64Use);
  EXPECT_EQ(d->resources.cbvs[0].kind, ResourceKind::CBuffer);
  EXPECT_EQ(d->resources.cbvs[0].cbufferSize, 64u);
  EXPECT_EQ(d->resources.cbvs[0].symbol, kNoId);
  EXPECT_EQ(d->resources.samplers[0].samplerKind, SamplerKind::Comparison);
  EXPECT_EQ(d->entryPoints[0].resources.size(), 3u);
}

TEST(DxilModule, DecodesTypeAnnotationsAndViewIdState) {
  Shader s("vs", 1);
  s.defineMain();
  s.entry(kNoId, kNoId, kNoId);
  TypeId data = s.structType("struct.Data", {s.f, s.f});
  MetadataId field0 =
      s.node({s.mdI32(6), s.mdString("a"), s.mdI32(3), s.mdI32(0), s.mdI32(7), s.mdI32(9),
              s.mdI32(2), s.node({s.mdI32(4), s.mdI32(4), s.mdI32(2)})});
  MetadataId field1 = s.node({s.mdI32(6), s.mdString("b"), s.mdI32(3), s.mdI32(16), s.mdI32(8),
                              s.boolMd(true), s.mdI32(77), s.mdI32(1)});
  MetadataId structs =
      s.node({s.mdI32(0), s.mdValue(s.undef(data)), s.node({s.mdI32(20), field0, field1})});
  MetadataId param =
      s.node({s.mdI32(1), s.node({s.mdI32(4), s.mdString("COLOR")}), s.node({s.mdI32(0)})});
  MetadataId functions =
      s.node({s.mdI32(1), s.mainMd(), s.node({s.node({s.mdI32(0), kNoId}), param})});
  MetadataId future = s.node({s.mdI32(5), s.mdString("later")});
  s.named("dx.typeAnnotations", {structs, functions, future});
  // [3 x i32] [1, 2, 3]
  TypeId array = s.type(TypeKind::Array, 0, {s.i32});
  s.m.types[array].count = 3;
  dxil::Constant words;
  words.kind = ConstantKind::Data;
  words.type = array;
  words.firstWord = uint32_t(s.m.words.size());
  words.numWords = 3;
  s.m.words.insert(s.m.words.end(), {1, 2, 3});
  s.m.constants.push_back(words);
  ValueId view = s.value(ValueKind::Constant, array, uint32_t(s.m.constants.size() - 1));
  s.named("dx.viewIdState", {s.node({s.mdValue(view)})});

  Expected<DxilModule> d = s.decode();
  ASSERT_TRUE(d) << errorOf(d);
  ASSERT_EQ(d->structAnnotations.size(), 1u);
  const StructAnnotation &st = d->structAnnotations[0];
  EXPECT_EQ(st.type, data);
  EXPECT_EQ(st.sizeInBytes, 20u);
  ASSERT_EQ(st.fields.size(), 2u);
  EXPECT_EQ(st.fields[0].name, "a");
  EXPECT_EQ(st.fields[0].componentType, DxilComponentType::F32);
  ASSERT_TRUE(st.fields[0].matrix);
  EXPECT_EQ((*st.fields[0].matrix)[2], 2u);
  EXPECT_EQ(st.fields[1].cbufferOffset, 16u);
  EXPECT_TRUE(st.fields[1].precise);
  ASSERT_EQ(st.fields[1].otherTags.size(), 1u);
  EXPECT_EQ(st.fields[1].otherTags[0].tag, 77u);
  ASSERT_EQ(d->functionAnnotations.size(), 1u);
  const FunctionAnnotation &fa = d->functionAnnotations[0];
  EXPECT_EQ(fa.function, s.functionValue(s.main));
  ASSERT_EQ(fa.parameters.size(), 2u);
  EXPECT_EQ(fa.parameters[1].inputOutput, 1u);
  EXPECT_EQ(fa.parameters[1].field.semantic, "COLOR");
  EXPECT_EQ(fa.parameters[1].semanticIndices, (std::vector<uint32_t>{0}));
  EXPECT_EQ(d->viewIdState, (std::vector<uint32_t>{1, 2, 3}));
  ASSERT_TRUE(d->viewId); // 1 input, 2 outputs, the input's row
  EXPECT_EQ(d->viewId->inputsContributingToOutputs[0], (std::vector<uint32_t>{3}));
  EXPECT_EQ(d->otherTypeAnnotations, (std::vector<MetadataId>{future}));
}

TEST(DxilModule, LibraryEntriesHaveTheirOwnKinds) {
  Shader s("lib", 3);
  uint32_t dispatch = s.op("dx.op.dispatchRaysIndex.i32", {s.i32, s.i32, s.i8});
  uint32_t threadId = s.op("dx.op.threadId.i32", {s.i32, s.i32, s.i32});
  s.defineMain();
  s.call(dispatch, {s.constInt(s.i32, 145), s.constInt(s.i8, 0)});
  uint32_t helper = s.declare(s.function({s.voidType()}), "helper", true);
  s.call(threadId, {s.constInt(s.i32, 93), s.constInt(s.i32, 0)}); // undecidable: not checked
  MetadataId raygen =
      s.node({s.mainMd(), s.mdString("main"), kNoId, kNoId, s.node({s.mdI32(8), s.mdI32(7)})});
  s.named("dx.entryPoints", {s.node({kNoId, s.mdString(""), kNoId, kNoId, kNoId}), raygen});
  Expected<DxilModule> d = s.decode();
  ASSERT_TRUE(d) << errorOf(d);
  ASSERT_EQ(d->entryPoints.size(), 2u);
  EXPECT_EQ(d->entryPoints[0].function, kNoId);
  EXPECT_EQ(d->entryPoints[0].kind, ShaderKind::Library);
  EXPECT_EQ(d->entryPoints[1].kind, ShaderKind::RayGeneration);
  EXPECT_EQ(d->opCalls.size(), 2u);

  // The same call in the raygeneration entry itself is not allowed.
  s.m.functions[s.main].numInstructions = 2;
  s.m.functions[helper].numInstructions = 0;
  EXPECT_EQ(errorOf(s.decode()), "@main: instruction 1: call of @dx.op.threadId.i32: opcode 93 "
                                 "(ThreadId) is not allowed in a raygeneration shader");
}

// Work graph node tags 13-22: launch, id, entry, grids, recursion, and the input and output
// records with their own tag lists (the record type's size and SV_DispatchGrid); a malformed
// node tag is a one-line error naming its metadata.
TEST(DxilModule, DecodesWorkGraphNodeProperties) {
  Shader s("lib", 8);
  s.defineMain();
  auto nodeId = [&](const char *name, uint32_t index) {
    return s.node({s.mdString(name), s.mdI32(index)});
  };
  MetadataId grid = s.node({s.mdI32(4), s.mdI32(5), s.mdI32(3)});
  MetadataId input =
      s.node({s.mdI32(1), s.mdI32(97), s.mdI32(2),
              s.node({s.mdI32(0), s.mdI32(16), s.mdI32(1), grid}), s.mdI32(3), s.mdI32(1)});
  MetadataId output =
      s.node({s.mdI32(1), s.mdI32(22), s.mdI32(2), s.node({s.mdI32(0), s.mdI32(8)}), s.mdI32(3),
              s.mdI32(0), s.mdI32(4), s.mdI32(0), s.mdI32(5), s.mdI32(4), s.mdI32(6),
              s.mdValue(s.constInt(s.i1, 1)), s.mdI32(0), nodeId("Next", 2)});
  MetadataId tags = s.node({s.mdI32(8),  s.mdI32(15),
                            s.mdI32(13), s.mdI32(1),
                            s.mdI32(14), s.mdValue(s.constInt(s.i1, 1)),
                            s.mdI32(15), nodeId("Main", 3),
                            s.mdI32(16), s.mdI32(2),
                            s.mdI32(17), nodeId("Other", 0),
                            s.mdI32(19), s.mdI32(6),
                            s.mdI32(20), s.node({input}),
                            s.mdI32(21), s.node({output}),
                            s.mdI32(22), s.node({s.mdI32(64), s.mdI32(1), s.mdI32(1)}),
                            s.mdI32(4),  s.node({s.mdI32(8), s.mdI32(1), s.mdI32(1)})});
  s.named("dx.entryPoints", {s.node({kNoId, s.mdString(""), kNoId, kNoId, kNoId}),
                             s.node({s.mainMd(), s.mdString("main"), kNoId, kNoId, tags})});
  Expected<DxilModule> d = s.decode();
  ASSERT_TRUE(d) << errorOf(d);
  const EntryProperties &p = d->entryPoints[1].properties;
  ASSERT_TRUE(p.node);
  const NodeProperties &n = *p.node;
  EXPECT_EQ(n.launch, 1u);
  EXPECT_TRUE(n.programEntry);
  ASSERT_TRUE(n.id);
  EXPECT_EQ(n.id->name, "Main");
  EXPECT_EQ(n.id->index, 3u);
  EXPECT_EQ(n.localRootArgumentsTableIndex, 2u);
  ASSERT_TRUE(n.sharesInputOf);
  EXPECT_EQ(n.sharesInputOf->name, "Other");
  EXPECT_EQ(n.maxRecursionDepth, 6u);
  EXPECT_FALSE(n.dispatchGrid);
  EXPECT_EQ(n.maxDispatchGrid, (std::array<uint32_t, 3>{64, 1, 1}));
  ASSERT_EQ(n.inputs.size(), 1u);
  EXPECT_EQ(n.inputs[0].flags, 97u);
  EXPECT_EQ(n.inputs[0].recordSize, 16u);
  EXPECT_EQ(n.inputs[0].dispatchGrid, (std::array<uint32_t, 3>{4, 5, 3}));
  EXPECT_EQ(n.inputs[0].maxRecords, 1u);
  ASSERT_EQ(n.outputs.size(), 1u);
  const NodeIo &o = n.outputs[0];
  EXPECT_EQ(o.flags, 22u);
  EXPECT_EQ(o.recordSize, 8u);
  EXPECT_EQ(o.maxRecordsSharedWith, 0u);
  EXPECT_EQ(o.arraySize, 4u);
  EXPECT_TRUE(o.allowSparse);
  EXPECT_EQ(o.target.name, "Next");
  EXPECT_EQ(o.target.index, 2u);
  EXPECT_TRUE(p.otherTags.empty());
  EXPECT_EQ(p.numThreads, (std::array<uint32_t, 3>{8, 1, 1}));

  // A node id that is not {name, index}.
  Shader bad("lib", 8);
  bad.defineMain();
  MetadataId badId = bad.node({bad.mdI32(1), bad.mdI32(0)});
  bad.named("dx.entryPoints",
            {bad.node({bad.mainMd(), bad.mdString("main"), kNoId, kNoId,
                       bad.node({bad.mdI32(8), bad.mdI32(15), bad.mdI32(15), badId})})});
  EXPECT_NE(errorOf(bad.decode()).find("node name"), std::string::npos) << errorOf(bad.decode());
}

TEST(DxilModule, LibraryFunctionsTakeTheStagesOfTheEntriesReachingThem) {
  Shader s("lib", 3);
  uint32_t threadId = s.op("dx.op.threadId.i32", {s.i32, s.i32, s.i32});
  uint32_t helper = s.declare(s.function({s.voidType()}), "helper", true);
  s.call(threadId, {s.constInt(s.i32, 93), s.constInt(s.i32, 0)});
  s.defineMain();
  s.call(helper, {});
  MetadataId compute =
      s.node({s.mainMd(), s.mdString("main"), kNoId, kNoId, s.node({s.mdI32(8), s.mdI32(5)})});
  s.named("dx.entryPoints", {compute});
  Expected<DxilModule> d = s.decode();
  ASSERT_TRUE(d) << errorOf(d);
  EXPECT_EQ(d->opCalls.size(), 1u);
  EXPECT_EQ(d->opCalls[0].function, helper);

  s.m.metadataOperands[s.m.metadata[compute].firstOperand + 4] =
      s.node({s.mdI32(8), s.mdI32(10)}); // closesthit
  EXPECT_EQ(errorOf(s.decode()), "@helper: instruction 0: call of @dx.op.threadId.i32: opcode 93 "
                                 "(ThreadId) is not allowed in a closesthit shader");
}

/// A compute shader calling one dx.op function; `mutate` breaks it.
std::string callError(std::string_view kind, uint32_t minor, std::string_view name, uint64_t opcode,
                      bool asIs = true) {
  Shader s(kind, minor);
  uint32_t fn = name == "dx.op.threadId.f32x" ? s.op("dx.op.threadId.i32", {s.i32, s.i32, s.f})
                                              : s.op(name, {s.i32, s.i32, s.i32});
  s.defineMain();
  ValueId arg = name == "dx.op.threadId.f32x" ? s.constFloat(s.f, 0) : s.constInt(s.i32, 0);
  s.call(fn, {asIs ? s.constInt(s.i32, opcode) : s.undef(s.i32), arg});
  s.entry(kNoId, kNoId, kNoId);
  return errorOf(s.decode());
}

TEST(DxilModule, CallErrors) {
  EXPECT_EQ(callError("cs", 0, "dx.op.threadId.i32", 93), "decoded");
  EXPECT_EQ(callError("cs", 0, "dx.op.threadId.i32", 93, false),
            "@main: instruction 0: call of @dx.op.threadId.i32: the opcode is not a constant");
  EXPECT_EQ(callError("cs", 0, "dx.op.threadId.i32", 94),
            "@main: instruction 0: call of @dx.op.threadId.i32: opcode 94 (GroupId) is of class "
            "groupId");
  EXPECT_EQ(callError("cs", 0, "dx.op.threadId.i32", 999),
            "@main: instruction 0: call of @dx.op.threadId.i32: opcode 999 is not an operation");
  EXPECT_EQ(callError("cs", 0, "dx.op.threadId.i64", 93),
            "@main: instruction 0: call of @dx.op.threadId.i64: not a dx.op function of a known "
            "class and overload");
  EXPECT_EQ(callError("cs", 0, "dx.op.threadId.f32x", 93),
            "@main: instruction 0: call of @dx.op.threadId.i32: opcode 93 (ThreadId): operand 1 "
            "is not i32");
  EXPECT_EQ(callError("ps", 0, "dx.op.threadId.i32", 93),
            "@main: instruction 0: call of @dx.op.threadId.i32: opcode 93 (ThreadId) is not "
            "allowed in a pixel shader");
  // An i32 where the class takes the overload type.
  EXPECT_EQ(callError("cs", 0, "dx.op.unary.f32", 6),
            "@main: instruction 0: call of @dx.op.unary.f32: opcode 6 (FAbs): operand 1 is not "
            "$o (f32)");
}

// The first $o of a scalar overload fixes the overload type: the suffix's own type (an integer of
// its width), not an integer of another width or a float.
TEST(DxilModule, TheFirstOverloadOperandIsTheSuffixsType) {
  struct Case {
    std::string_view function;
    uint64_t opcode;
    TypeKind kind;
    uint32_t bits;
    std::string_view error; // "" when it decodes
  };
  const Case cases[] = {
      {"dx.op.binary.i32", 37, TypeKind::Integer, 32, ""},
      {"dx.op.binary.i32", 37, TypeKind::Integer, 16, "operand 1 is not $o (i32)"},
      {"dx.op.binary.i32", 37, TypeKind::Integer, 64, "operand 1 is not $o (i32)"},
      {"dx.op.binary.i32", 37, TypeKind::Float, 0, "operand 1 is not $o (i32)"},
      {"dx.op.binary.i16", 37, TypeKind::Integer, 16, ""},
      {"dx.op.binary.f32", 35, TypeKind::Float, 0, ""},
      {"dx.op.binary.f32", 35, TypeKind::Half, 0, "operand 1 is not $o (f32)"},
      {"dx.op.binary.f32", 35, TypeKind::Integer, 32, "operand 1 is not $o (f32)"},
      {"dx.op.binary.f16", 35, TypeKind::Half, 0, ""},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(std::string(c.function) + " " + std::to_string(int(c.kind)) + " " +
                 std::to_string(c.bits));
    Shader s;
    TypeId type = s.scalar(c.kind, c.bits);
    uint32_t fn = s.op(c.function, {type, s.i32, type, type});
    s.defineMain();
    ValueId arg = s.undef(type);
    s.call(fn, {s.constInt(s.i32, c.opcode), arg, arg});
    s.entry(kNoId, kNoId, kNoId);
    s.m.callsTyped.set(true);
    const std::string op = c.opcode == 37 ? "opcode 37 (IMax): " : "opcode 35 (FMax): ";
    EXPECT_EQ(errorOf(s.decode()), c.error.empty() ? "decoded"
                                                   : "@main: instruction 0: call of @" +
                                                         std::string(c.function) + ": " + op +
                                                         std::string(c.error));
  }
}

// A struct of a fixed name in a signature (%dx.types.Handle) is known by its whole name: one
// of the same size that differs in a character, a longer or shorter one, or a literal struct is
// not it.
TEST(DxilModule, FixedStructNamesAreComparedWhole) {
  for (std::string_view name : {"dx.types.Handle", "dx.types.Handlf", "dx.types.Hbndle",
                                "ex.types.Handle", "dx.types.Handle2", "dx.types.Handl",
                                "dx.Handle", "", "dx.types.Handle.with.a.long.tail"}) {
    SCOPED_TRACE(name);
    Shader s;
    TypeId type = name.empty() ? s.type(TypeKind::Struct, 0, {s.pointer(s.i8)}) // literal
                               : s.structType(name, {s.pointer(s.i8)});
    uint32_t createHandle = s.op("dx.op.createHandle", {type, s.i32, s.i8, s.i32, s.i32, s.i1});
    s.defineMain();
    s.call(createHandle, {s.constInt(s.i32, 57), s.constInt(s.i8, 1), s.constInt(s.i32, 0),
                          s.constInt(s.i32, 0), s.constInt(s.i1, 0)});
    s.entry(kNoId, kNoId, kNoId);
    s.m.callsTyped.set(true);
    EXPECT_EQ(errorOf(s.decode()),
              name == "dx.types.Handle"
                  ? "decoded"
                  : "@main: instruction 0: call of @dx.op.createHandle: opcode 57 (CreateHandle): "
                    "the result is not %dx.types.Handle");
  }
}

// A function whose instructions run past the module's (only hostile bitcode has one) is an
// error, a declaration's as a definition's.
TEST(DxilModule, FunctionInstructionsOutOfRange) {
  for (bool declaration : {false, true}) {
    SCOPED_TRACE(declaration ? "a declaration" : "a definition");
    Shader s;
    uint32_t threadId = s.op("dx.op.threadId.i32", {s.i32, s.i32, s.i32});
    s.defineMain();
    s.call(threadId, {s.constInt(s.i32, 93), s.constInt(s.i32, 0)});
    s.entry(kNoId, kNoId, kNoId);
    ASSERT_EQ(errorOf(s.decode()), "decoded");
    Function &f = s.m.functions[declaration ? threadId : s.main];
    if (declaration)
      f.firstInstruction = uint32_t(s.m.instructions.size()) + 1;
    else
      f.numInstructions += 1;
    const std::string error = errorOf(s.decode());
    EXPECT_TRUE(error.starts_with(declaration ? "@dx.op.threadId.i32: " : "@main: ")) << error;
    EXPECT_TRUE(error.ends_with(": instructions out of range")) << error;
  }
}

TEST(DxilModule, ArgumentTypesAreCheckedUnlessTheReaderVouchesForThem) {
  Shader s;
  uint32_t threadId = s.op("dx.op.threadId.i32", {s.i32, s.i32, s.i32});
  s.defineMain();
  s.call(threadId, {s.constInt(s.i32, 93), s.constInt(s.i8, 1)}); // an i8 component
  s.entry(kNoId, kNoId, kNoId);
  const std::string wrong =
      "@main: instruction 0: call of @dx.op.threadId.i32: argument 1 has the wrong type";
  EXPECT_EQ(errorOf(s.decode()), wrong);
  // What the reader vouches for is not checked again; a copy (made to be changed) loses it.
  s.m.callsTyped.set(true);
  EXPECT_EQ(errorOf(s.decode()), "decoded");
  LlvmModule copy = s.m;
  EXPECT_FALSE(copy.callsTyped);
  EXPECT_EQ(errorOf(decodeDxil(copy)), wrong);
  LlvmModule moved = std::move(s.m);
  EXPECT_TRUE(moved.callsTyped);

  // The count is checked all the same, on the calls after the first too.
  Shader t;
  uint32_t id = t.op("dx.op.threadId.i32", {t.i32, t.i32, t.i32});
  t.defineMain();
  t.call(id, {t.constInt(t.i32, 93), t.constInt(t.i32, 0)});
  t.call(id, {t.constInt(t.i32, 93), t.constInt(t.i32, 1), t.constInt(t.i32, 2)});
  t.entry(kNoId, kNoId, kNoId);
  t.m.callsTyped.set(true);
  EXPECT_EQ(errorOf(t.decode()),
            "@main: instruction 1: call of @dx.op.threadId.i32: 3 arguments for 2 parameters");
}

// The calls after a function's first with an opcode reuse what the first found (by the opcode
// constant, or by its value when another constant gives it): the count, the argument types, the
// opcode's class and the caller's stage are still each call's own.
TEST(DxilModule, RepeatedCallsAreCheckedEachOnTheirOwn) {
  const std::string prefix = "@main: instruction 1: call of @dx.op.threadId.i32: ";
  for (bool sameConstant : {true, false}) {
    SCOPED_TRACE(sameConstant ? "the same opcode constant" : "another constant, the same opcode");
    // A first call, then `second` with the opcode operand to give.
    auto build = [&](Shader &s, auto &&second) {
      uint32_t id = s.op("dx.op.threadId.i32", {s.i32, s.i32, s.i32});
      s.defineMain();
      ValueId opcode = s.constInt(s.i32, 93);
      s.call(id, {opcode, s.constInt(s.i32, 0)});
      second(id, sameConstant ? opcode : s.constInt(s.i32, 93));
      s.entry(kNoId, kNoId, kNoId);
    };
    Shader good;
    build(good, [&](uint32_t id, ValueId opcode) {
      good.call(id, {opcode, good.constInt(good.i32, 2)});
    });
    Expected<DxilModule> d = good.decode();
    ASSERT_TRUE(d) << errorOf(d);
    ASSERT_EQ(d->opCalls.size(), 2u);
    EXPECT_EQ(d->opCalls[1].op, opInfo(93));
    EXPECT_EQ(d->opCalls[1].overloadType, good.i32);

    Shader wrongType;
    build(wrongType, [&](uint32_t id, ValueId opcode) {
      wrongType.call(id, {opcode, wrongType.constInt(wrongType.i8, 2)});
    });
    EXPECT_EQ(errorOf(wrongType.decode()), prefix + "argument 1 has the wrong type");
    Shader wrongCount;
    build(wrongCount, [&](uint32_t id, ValueId opcode) {
      wrongCount.call(id, {opcode, wrongCount.constInt(wrongCount.i32, 2),
                           wrongCount.constInt(wrongCount.i32, 3)});
    });
    wrongCount.m.callsTyped.set(true);
    EXPECT_EQ(errorOf(wrongCount.decode()), prefix + "3 arguments for 2 parameters");
  }
  // Another opcode of the same function is checked as a first call.
  Shader s;
  uint32_t id = s.op("dx.op.threadId.i32", {s.i32, s.i32, s.i32});
  s.defineMain();
  ValueId threadId = s.constInt(s.i32, 93);
  s.call(id, {threadId, s.constInt(s.i32, 0)});
  s.call(id, {s.constInt(s.i32, 94), s.constInt(s.i32, 0)});
  s.entry(kNoId, kNoId, kNoId);
  EXPECT_EQ(errorOf(s.decode()), prefix + "opcode 94 (GroupId) is of class groupId");
}

// In a library the stage is each caller's: a call allowed in one function is not thereby allowed
// in another that a different entry reaches, with the same opcode constant or another.
TEST(DxilModule, RepeatedCallsTakeTheirCallersStages) {
  for (bool sameConstant : {true, false}) {
    SCOPED_TRACE(sameConstant ? "the same opcode constant" : "another constant, the same opcode");
    Shader s("lib", 3);
    uint32_t threadId = s.op("dx.op.threadId.i32", {s.i32, s.i32, s.i32});
    ValueId opcode = s.constInt(s.i32, 93);
    uint32_t compute = s.declare(s.function({s.voidType()}), "compute", true);
    s.call(threadId, {opcode, s.constInt(s.i32, 0)});
    s.call(threadId, {sameConstant ? opcode : s.constInt(s.i32, 93), s.constInt(s.i32, 1)});
    uint32_t hit = s.declare(s.function({s.voidType()}), "hit", true);
    s.call(threadId, {sameConstant ? opcode : s.constInt(s.i32, 93), s.constInt(s.i32, 0)});
    MetadataId computeEntry = s.node({s.mdValue(s.functionValue(compute)), s.mdString("compute"),
                                      kNoId, kNoId, s.node({s.mdI32(8), s.mdI32(5)})});
    MetadataId hitEntry = s.node({s.mdValue(s.functionValue(hit)), s.mdString("hit"), kNoId, kNoId,
                                  s.node({s.mdI32(8), s.mdI32(10)})});
    s.named("dx.entryPoints", {computeEntry, hitEntry});
    EXPECT_EQ(errorOf(s.decode()), "@hit: instruction 0: call of @dx.op.threadId.i32: opcode 93 "
                                   "(ThreadId) is not allowed in a closesthit shader");
    // The same where the reader vouches for the calls (the resolver's loop records them).
    s.m.callsTyped.set(true);
    EXPECT_EQ(errorOf(s.decode()), "@hit: instruction 0: call of @dx.op.threadId.i32: opcode 93 "
                                   "(ThreadId) is not allowed in a closesthit shader");
  }
}

// Two functions claiming one instruction (only hostile bitcode does) resolve it twice, as many
// calls as there are call instructions and more.
TEST(DxilModule, OverlappingFunctionsRecordTheirCallsEach) {
  Shader s;
  uint32_t id = s.op("dx.op.threadId.i32", {s.i32, s.i32, s.i32});
  s.defineMain();
  s.call(id, {s.constInt(s.i32, 93), s.constInt(s.i32, 0)});
  uint32_t other = s.declare(s.function({s.voidType()}), "other", true);
  s.m.functions[other].firstInstruction = s.m.functions[s.main].firstInstruction;
  s.m.functions[other].numInstructions = 1;
  s.entry(kNoId, kNoId, kNoId);
  Expected<DxilModule> d = s.decode();
  ASSERT_TRUE(d) << errorOf(d);
  ASSERT_EQ(d->opCalls.size(), 2u);
  EXPECT_EQ(d->opCalls[0].function, s.main);
  EXPECT_EQ(d->opCalls[1].function, other);
  EXPECT_EQ(d->opCalls[1].instruction, d->opCalls[0].instruction);
}

/// A shader whose function "other" spans main's three threadId calls (overlapping functions),
/// with or without the reader's word on the calls' types; and the checks that both functions'
/// calls are recorded, "other"'s after main's.
Shader overlappingCalls(bool typed) {
  Shader s;
  uint32_t id = s.op("dx.op.threadId.i32", {s.i32, s.i32, s.i32});
  s.defineMain();
  for (int k = 0; k < 3; ++k)
    s.call(id, {s.constInt(s.i32, 93), s.constInt(s.i32, k)});
  uint32_t other = s.declare(s.function({s.voidType()}), "other", true);
  s.m.functions[other].firstInstruction = s.m.functions[s.main].firstInstruction;
  s.m.functions[other].numInstructions = 3;
  s.entry(kNoId, kNoId, kNoId);
  s.m.callsTyped.set(typed);
  return s;
}
void expectOverlappingCallsRecorded(const Shader &s, const DxilModule &d) {
  const uint32_t other = uint32_t(s.m.functions.size() - 1);
  ASSERT_EQ(d.opCalls.size(), 6u);
  for (size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(d.opCalls[k].function, s.main);
    EXPECT_EQ(d.opCalls[3 + k].function, other);
    EXPECT_EQ(d.opCalls[3 + k].instruction, d.opCalls[k].instruction);
    EXPECT_EQ(d.opCallAt(d.opCalls[k].instruction), &d.opCalls[3 + k]);
  }
}

// The same with several calls: the slots grow in the middle of the second function's calls
// (with and without the reader's word on the calls' types, which takes the resolver's fast path).
TEST(DxilModule, OverlappingFunctionsWithSeveralCallsRecordThemAll) {
  for (bool typed : {false, true}) {
    SCOPED_TRACE(typed ? "typed" : "untyped");
    Shader s = overlappingCalls(typed);
    Expected<DxilModule> d = s.decode();
    ASSERT_TRUE(d) << errorOf(d);
    expectOverlappingCallsRecorded(s, *d);
  }
}

// The calls are recorded into slots a thread keeps from one program to the next: a program
// decoded after a larger one gets its own calls alone, and the growth of the slots
// (overlapping functions) works on a thread that has kept none.
TEST(DxilModule, CallSlotsKeptByTheThreadGiveEachProgramItsOwnCalls) {
  auto shader = [](int calls) {
    Shader s;
    uint32_t id = s.op("dx.op.threadId.i32", {s.i32, s.i32, s.i32});
    s.defineMain();
    for (int k = 0; k < calls; ++k)
      s.call(id, {s.constInt(s.i32, 93), s.constInt(s.i32, k % 3)});
    s.entry(kNoId, kNoId, kNoId);
    s.m.callsTyped.set(true);
    return s;
  };
  Shader large = shader(40), small = shader(2);
  for (int round = 0; round < 2; ++round) {
    Expected<DxilModule> a = large.decode();
    ASSERT_TRUE(a) << errorOf(a);
    ASSERT_EQ(a->opCalls.size(), 40u);
    Expected<DxilModule> b = small.decode();
    ASSERT_TRUE(b) << errorOf(b);
    ASSERT_EQ(b->opCalls.size(), 2u);
    for (uint32_t k = 0; k < 2; ++k) {
      EXPECT_EQ(b->opCalls[k].instruction, small.m.functions[small.main].firstInstruction + k);
      EXPECT_EQ(b->opCalls[k].function, small.main);
      EXPECT_EQ(b->opCalls[k].op, opInfo(93));
      EXPECT_EQ(b->opCallAt(b->opCalls[k].instruction), &b->opCalls[k]);
    }
  }
  std::thread([] {
    Shader s = overlappingCalls(true);
    Expected<DxilModule> d = s.decode();
    ASSERT_TRUE(d) << errorOf(d);
    expectOverlappingCallsRecorded(s, *d);
  }).join();
}

// The resolver's lists (per function what its name makes it, the opcodes checked) are kept by
// the thread from one program to the next: each program starts them anew. Two programs whose
// function 0 is another dx.op function called with the same constant ids, in turn.
TEST(DxilModule, ResolverListsKeptByTheThreadStartAnewForEachProgram) {
  auto shader = [](std::string_view function, uint32_t opcode, bool library) {
    Shader s(library ? "lib" : "cs", library ? 3 : 6);
    uint32_t id = s.op(function, {s.i32, s.i32, s.i32});
    s.defineMain();
    s.call(id, {s.constInt(s.i32, opcode), s.constInt(s.i32, 0)});
    s.call(id, {s.constInt(s.i32, opcode), s.constInt(s.i32, 1)});
    if (library)
      s.named("dx.entryPoints", {s.node({s.mainMd(), s.mdString("main"), kNoId, kNoId,
                                         s.node({s.mdI32(8), s.mdI32(5)})})});
    else
      s.entry(kNoId, kNoId, kNoId);
    s.m.callsTyped.set(true);
    return s;
  };
  Shader threadId = shader("dx.op.threadId.i32", 93, false);
  Shader groupId = shader("dx.op.groupId.i32", 94, true);
  Shader notAnOp = shader("dx.op.notAClass.i32", 93, false);
  for (int round = 0; round < 2; ++round) {
    for (Shader *s : {&threadId, &groupId, &threadId, &notAnOp, &groupId}) {
      Expected<DxilModule> d = s->decode();
      if (s == &notAnOp) {
        EXPECT_EQ(errorOf(d), "@main: instruction 0: call of @dx.op.notAClass.i32: not a dx.op "
                              "function of a known class and overload");
        continue;
      }
      ASSERT_TRUE(d) << errorOf(d);
      ASSERT_EQ(d->opCalls.size(), 2u);
      for (const DxilOpCall &call : d->opCalls)
        EXPECT_EQ(call.op, opInfo(s == &threadId ? 93 : 94));
    }
  }
}

TEST(DxilModule, ShaderModelAndDxilVersionAreChecked) {
  Shader s("cs", 5);
  TypeId handle = s.handle;
  uint32_t heap = s.op("dx.op.createHandleFromHeap", {handle, s.i32, s.i32, s.i1, s.i1});
  s.defineMain();
  s.call(heap,
         {s.constInt(s.i32, 218), s.constInt(s.i32, 0), s.constInt(s.i1, 0), s.constInt(s.i1, 0)});
  s.entry(kNoId, kNoId, kNoId);
  EXPECT_EQ(errorOf(s.decode()),
            "@main: instruction 0: call of @dx.op.createHandleFromHeap: opcode 218 "
            "(CreateHandleFromHeap) needs shader model 6.6, the module is 6.5");
}

// The decoder finds its named metadata in one pass: the first of a name counts (as a search
// by name gives), in any order, and others' names of the same size are passed over.
TEST(DxilModule, NamedMetadataFoundInOnePassTakeTheFirstOfEachName) {
  Shader s;
  s.defineMain();
  s.entry(kNoId, kNoId, kNoId);
  s.named("dx.shaderModel", {s.node({s.mdString("ps"), s.mdI32(6), s.mdI32(0)})});
  s.named("dx.valveR", {s.node({s.mdI32(9), s.mdI32(9)})});
  // dx.valver after the others: found all the same.
  std::rotate(s.m.namedMetadata.begin(), s.m.namedMetadata.begin() + 2, s.m.namedMetadata.end());
  Expected<DxilModule> d = s.decode();
  ASSERT_TRUE(d) << errorOf(d);
  EXPECT_EQ(d->kind, ShaderKind::Compute);
  EXPECT_EQ(d->shaderModelMinor, 6u);
  EXPECT_EQ(d->dxilMinor, 6u);
  ASSERT_TRUE(d->validatorVersion);
  EXPECT_EQ((*d->validatorVersion)[1], 7u);
  EXPECT_EQ(d->entryPoints.size(), 1u);
}

// The decoder compares a named metadata only with the names of its size: names of the sizes of
// several (14: dx.shaderModel, dx.entryPoints, dx.viewIdState), differing in their last
// character, and names longer than any it looks for come first and are passed over.
TEST(DxilModule, NamedMetadataComparedWithTheNamesOfTheirSize) {
  Shader s;
  s.defineMain();
  s.entry(kNoId, kNoId, kNoId);
  const size_t real = s.m.namedMetadata.size();
  s.named("dx.entryPointZ", {s.node({})});
  s.named("dx.shaderModeL", {s.node({s.mdString("ps"), s.mdI32(6), s.mdI32(0)})});
  s.named("dx.viewIdStatE", {s.node({})});
  s.named("dx.typeAnnotationS", {s.node({s.mdI32(7)})});
  s.named("dx.some.named.metadata.longer.than.32", {s.node({})});
  s.named("dx.versioN", {s.node({s.mdI32(9), s.mdI32(9)})});
  std::rotate(s.m.namedMetadata.begin(), s.m.namedMetadata.begin() + real, s.m.namedMetadata.end());
  Expected<DxilModule> d = s.decode();
  ASSERT_TRUE(d) << errorOf(d);
  EXPECT_EQ(d->kind, ShaderKind::Compute);
  EXPECT_EQ(d->shaderModelMinor, 6u);
  EXPECT_EQ(d->dxilMajor, 1u);
  EXPECT_EQ(d->dxilMinor, 6u);
  EXPECT_EQ(d->entryPoints.size(), 1u);
  EXPECT_TRUE(d->viewIdState.empty());
  EXPECT_TRUE(d->structAnnotations.empty());
  EXPECT_TRUE(d->otherTypeAnnotations.empty());
}

// The view ID state is read into the module's own state: the second reading (with the view ID
// masks) after the first fails, and the first reading's error when neither fits.
/// Fills a stretch of the stack with junk, for a test that the decoder's own state does not
/// rely on what its frame held before.
[[gnu::noinline]] void smearStack() {
  volatile unsigned char junk[32768];
  for (size_t i = 0; i < sizeof junk; ++i)
    junk[i] = 0xAB;
}

// The named metadata a module lacks are empty (the decoder clears what it looks for).
TEST(DxilModule, AbsentNamedMetadataAreEmptyWhateverTheStackHeld) {
  Shader s;
  s.m.namedMetadata.erase(s.m.namedMetadata.begin() + 1); // dx.valver
  s.defineMain();
  s.entry(kNoId, kNoId, kNoId);
  smearStack();
  Expected<DxilModule> d = s.decode();
  ASSERT_TRUE(d) << errorOf(d);
  EXPECT_FALSE(d->validatorVersion.has_value()) << "no dx.valver";
  EXPECT_TRUE(d->resources.srvs.empty() && d->resources.uavs.empty() && d->resources.cbvs.empty() &&
              d->resources.samplers.empty());
  EXPECT_TRUE(d->structAnnotations.empty() && d->functionAnnotations.empty());
  EXPECT_TRUE(d->viewIdState.empty());
  EXPECT_FALSE(d->rootSignature.has_value());
}

TEST(DxilModule, ViewIdStateReadInPlaceWithAndWithoutTheMasks) {
  auto decode = [](std::vector<uint64_t> values, MetadataId *node = nullptr) {
    Shader s("vs", 1);
    s.defineMain();
    s.entry(kNoId, kNoId, kNoId);
    TypeId array = s.type(TypeKind::Array, 0, {s.i32});
    s.m.types[array].count = uint32_t(values.size());
    dxil::Constant words;
    words.kind = ConstantKind::Data;
    words.type = array;
    words.firstWord = uint32_t(s.m.words.size());
    words.numWords = uint32_t(values.size());
    s.m.words.insert(s.m.words.end(), values.begin(), values.end());
    s.m.constants.push_back(words);
    ValueId view = s.value(ValueKind::Constant, array, uint32_t(s.m.constants.size() - 1));
    MetadataId value = s.mdValue(view);
    if (node)
      *node = value;
    s.named("dx.viewIdState", {s.node({value})});
    return s.decode();
  };
  Expected<DxilModule> with = decode({2, 4, 8, 1, 2});
  ASSERT_TRUE(with) << errorOf(with);
  ASSERT_TRUE(with->viewId);
  EXPECT_TRUE(with->viewId->usesViewId);
  EXPECT_EQ(with->viewId->outputsDependentOnViewId[0], (std::vector<uint32_t>{8}));
  EXPECT_EQ(with->viewId->inputsContributingToOutputs[0], (std::vector<uint32_t>{1, 2}));
  Expected<DxilModule> without = decode({2, 4, 8, 1});
  ASSERT_TRUE(without) << errorOf(without);
  ASSERT_TRUE(without->viewId);
  EXPECT_FALSE(without->viewId->usesViewId);
  EXPECT_TRUE(without->viewId->outputsDependentOnViewId[0].empty());
  EXPECT_EQ(without->viewId->inputsContributingToOutputs[0], (std::vector<uint32_t>{8, 1}));
  MetadataId node = kNoId;
  Expected<DxilModule> neither = decode({2, 4, 1}, &node);
  EXPECT_EQ(errorOf(neither), "!dx.viewIdState: metadata #" + std::to_string(node) +
                                  ": view ID state: a table of 2 words at word 2, 1 left");
}

// The shader model's kind is known by its whole prefix: each kind's, and nothing that only
// begins or ends like one.
TEST(DxilModule, ShaderKindPrefixesAreComparedWhole) {
  for (unsigned k = 0; k <= unsigned(ShaderKind::Node); ++k) {
    const char *prefix = shaderKindPrefix(ShaderKind(k));
    if (!prefix)
      continue;
    SCOPED_TRACE(prefix);
    Shader s(prefix);
    Expected<DxilModule> d = s.decode();
    if (ShaderKind(k) == ShaderKind::Library) {
      ASSERT_TRUE(d) << errorOf(d);
      EXPECT_EQ(d->kind, ShaderKind::Library);
    } else {
      EXPECT_EQ(errorOf(d), "!dx.entryPoints: a " + std::string(prefix) +
                                " shader needs exactly one entry point, found 0");
    }
  }
  for (std::string_view bad : {"p", "pt", "psx", "li", "lip", "libs", "Cs", "cS", "", "s", "xs"}) {
    SCOPED_TRACE(bad);
    Shader s(bad);
    EXPECT_NE(errorOf(s.decode()).find("unknown shader kind \"" + std::string(bad) + "\""),
              std::string::npos)
        << errorOf(s.decode());
  }
}

TEST(DxilModule, MetadataErrors) {
  // A value operand that is a string, or a value metadata naming no value: one-line errors; a
  // null one is kNoId (value()'s inline path and the rest out of line); a name that is not a
  // string (string()'s failure, out of line).
  for (int k = 0; k < 4; ++k) {
    Shader s;
    s.defineMain();
    MetadataId symbol = k == 0 ? s.mdString("x") : k == 1 ? s.mdValue(ValueId(9999)) : kNoId;
    MetadataId name = k == 3 ? s.mdI32(1) : s.mdString("cb");
    MetadataId cbv =
        s.node({s.mdI32(0), symbol, name, s.mdI32(0), s.mdI32(0), s.mdI32(1), s.mdI32(16), kNoId});
    s.named("dx.resources", {s.node({kNoId, kNoId, s.node({cbv}), kNoId})});
    s.entry(kNoId, kNoId, kNoId);
    Expected<DxilModule> d = s.decode();
    if (k < 2) {
      EXPECT_EQ(errorOf(d), "!dx.resources: metadata #" + std::to_string(symbol) +
                                ": symbol: expected a value");
      continue;
    }
    if (k == 3) {
      EXPECT_EQ(errorOf(d),
                "!dx.resources: metadata #" + std::to_string(name) + ": name: expected a string");
      continue;
    }
    ASSERT_TRUE(d) << errorOf(d);
    ASSERT_EQ(d->resources.cbvs.size(), 1u);
    EXPECT_EQ(d->resources.cbvs[0].symbol, kNoId);
    EXPECT_EQ(d->resources.cbvs[0].global, kNoId);
    EXPECT_EQ(d->resources.cbvs[0].name, "cb");
  }
  {
    Shader s;
    s.m.namedMetadata.erase(s.m.namedMetadata.begin() + 2); // dx.shaderModel
    EXPECT_EQ(errorOf(s.decode()), "!dx.shaderModel: missing");
  }
  {
    Shader s("xs");
    EXPECT_NE(errorOf(s.decode()).find("unknown shader kind \"xs\""), std::string::npos);
  }
  {
    // The shader kind not a string (text()'s failure, out of line).
    Shader s;
    MetadataId kind = s.mdI32(5);
    s.m.namedMetadata.erase(s.m.namedMetadata.begin() + 2); // dx.shaderModel
    s.named("dx.shaderModel", {s.node({kind, s.mdI32(6), s.mdI32(0)})});
    s.defineMain();
    s.entry(kNoId, kNoId, kNoId);
    EXPECT_EQ(errorOf(s.decode()), "!dx.shaderModel: metadata #" + std::to_string(kind) +
                                       ": shader kind: expected a string");
  }
  {
    Shader s;
    s.defineMain();
    EXPECT_EQ(errorOf(s.decode()),
              "!dx.entryPoints: a cs shader needs exactly one entry point, found 0");
  }
  {
    Shader s;
    s.defineMain();
    MetadataId e = s.node({s.mainMd(), s.mdString("main"), kNoId});
    s.named("dx.entryPoints", {e});
    EXPECT_EQ(errorOf(s.decode()), "!dx.entryPoints: metadata #" + std::to_string(e) +
                                       ": expected at least 5 operands, found 3");
  }
  {
    Shader s;
    s.defineMain();
    MetadataId odd = s.node({s.mdI32(0)});
    s.entry(kNoId, kNoId, odd);
    EXPECT_EQ(errorOf(s.decode()), "!dx.entryPoints: metadata #" + std::to_string(odd) +
                                       ": a tag list with an odd number of operands");
  }
  {
    Shader s;
    s.defineMain();
    MetadataId cbv = s.node({s.mdI32(1), kNoId, s.mdString(""), s.mdI32(0), s.mdI32(0), s.mdI32(1),
                             s.mdI32(16), kNoId});
    s.named("dx.resources", {s.node({kNoId, kNoId, s.node({cbv}), kNoId})});
    s.entry(kNoId, kNoId, kNoId);
    EXPECT_EQ(errorOf(s.decode()),
              "!dx.resources: metadata #" + std::to_string(cbv) + ": resource id 1 at position 0");
  }
  {
    Shader s;
    s.defineMain();
    s.entry(kNoId, kNoId, s.node({s.mdI32(4), s.mdString("x")}));
    EXPECT_NE(errorOf(s.decode()).find("expected a metadata node"), std::string::npos);
  }
  {
    Shader s;
    s.defineMain();
    s.entry(kNoId, kNoId, kNoId);
    EXPECT_EQ(errorOf(s.decode(DxilContainerInfo{ShaderKind::Compute, 6, 0})),
              "!dx.shaderModel: cs_6_6 differs from the program header's");
  }
  {
    Shader s;
    s.defineMain();
    MetadataId bad = s.node({s.mdI32(0), kNoId, s.mdString(""), s.mdI32(0), s.mdI32(0), s.mdI32(1),
                             s.mdI32(40), s.mdI32(0), kNoId});
    s.named("dx.resources", {s.node({s.node({bad}), kNoId, kNoId, kNoId})});
    s.entry(kNoId, kNoId, kNoId);
    EXPECT_EQ(errorOf(s.decode()),
              "!dx.resources: metadata #" +
                  std::to_string(s.m.metadataOperands[s.m.metadata[bad].firstOperand + 6]) +
                  ": unknown resource kind 40");
  }
  {
    Shader s("gs", 0);
    s.defineMain();
    MetadataId gs = s.node({s.mdI32(3), s.mdI32(12)});
    s.entry(kNoId, kNoId, s.node({s.mdI32(1), gs}));
    EXPECT_EQ(errorOf(s.decode()), "!dx.entryPoints: metadata #" + std::to_string(gs) +
                                       ": expected at least 5 operands, found 2");
  }
  {
    Shader s("ps", 0);
    s.defineMain();
    MetadataId element =
        s.node({s.mdI32(0), s.mdString("A"), s.mdI32(9), s.mdI32(60), kNoId, s.mdI32(0), s.mdI32(1),
                s.mdI32(1), s.mdI32(0), s.mdI32(0), kNoId});
    s.entry(s.node({s.node({element}), kNoId, kNoId}), kNoId, kNoId);
    EXPECT_NE(errorOf(s.decode()).find("unknown semantic kind 60"), std::string::npos);
  }
  {
    Shader s;
    s.defineMain();
    s.entry(kNoId, kNoId, kNoId);
    s.named("dx.typeAnnotations", {s.node({s.mdI32(0), s.mdValue(s.undef(s.f))})});
    EXPECT_NE(errorOf(s.decode()).find("annotation pairs expected after the kind"),
              std::string::npos);
  }
  {
    Shader s;
    s.defineMain();
    s.entry(kNoId, kNoId, kNoId);
    s.named("dx.viewIdState", {s.node({s.mdI32(3)})});
    EXPECT_NE(errorOf(s.decode()).find("view ID state: expected an i32 array"), std::string::npos);
  }
  {
    // Operands that point nowhere are errors, not reads out of bounds.
    Shader s;
    s.defineMain();
    s.named("dx.entryPoints", {9999});
    EXPECT_NE(errorOf(s.decode()).find("expected a metadata node"), std::string::npos);
  }
}

} // namespace
} // namespace spire::test
