#include "spire/dxil/DxilOps.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace spire::dxil {
namespace {

TEST(DxilOps, TheTableIsDenseWithUniqueNames) {
  std::span<const OpInfo> ops = opTable();
  ASSERT_EQ(ops.size(), 258u);
  std::set<std::string_view> names;
  for (size_t i = 0; i < ops.size(); ++i) {
    EXPECT_EQ(ops[i].opcode, i);
    EXPECT_TRUE(names.insert(ops[i].name).second) << ops[i].name;
    EXPECT_EQ(opInfo(uint32_t(i)), &ops[i]);
    EXPECT_EQ(opInfo(ops[i].name), &ops[i]);
    EXPECT_NE(ops[i].overloads, 0) << ops[i].name;
    EXPECT_NE(ops[i].stages, 0u) << ops[i].name;
    EXPECT_EQ(ops[i].stages & ~0xffffu, 0u) << ops[i].name;
    EXPECT_EQ(ops[i].minShaderModelMajor, 6) << ops[i].name;
    EXPECT_EQ(ops[i].dxilMajor, 1) << ops[i].name;
    // Void means "not overloaded": it never comes with another overload.
    if (ops[i].allows(Overload::Void)) {
      EXPECT_EQ(ops[i].overloads, overloadBit(Overload::Void)) << ops[i].name;
    }
  }
  EXPECT_EQ(opInfo(258u), nullptr);
  EXPECT_EQ(opInfo("NoSuchOp"), nullptr);
}

TEST(DxilOps, EveryClassIsUsedAndNamedOnce) {
  std::set<std::string_view> names;
  std::vector<int> uses(opClassCount());
  for (const OpInfo &op : opTable()) {
    ASSERT_LT(size_t(op.opClass), opClassCount()) << op.name;
    ++uses[size_t(op.opClass)];
  }
  for (size_t i = 0; i < opClassCount(); ++i) {
    std::string_view name = opClassName(OpClass(i));
    EXPECT_FALSE(name.empty());
    EXPECT_TRUE(names.insert(name).second) << name;
    EXPECT_GT(uses[i], 0) << name;
    EXPECT_EQ(opClassFromName(name), OpClass(i));
  }
  EXPECT_EQ(opClassCount(), 182u);
  EXPECT_FALSE(opClassFromName("Sample")); // function names are lower camel case
}

// The number of opcodes each DXIL version defines (DXIL 1.0: 137, ... 1.8: 258).
TEST(DxilOps, DxilVersionsFollowTheOpcodeCounts) {
  const uint32_t counts[] = {137, 139, 141, 162, 165, 216, 222, 226, 258};
  for (const OpInfo &op : opTable()) {
    uint32_t minor = 0;
    while (op.opcode >= counts[minor])
      ++minor;
    EXPECT_EQ(op.dxilMinor, minor) << op.name;
  }
}

// A sample of rows against DXIL.rst's table (../shared/docs/notes/dxil.md section 2) and the
// published properties.
TEST(DxilOps, SampleEntries) {
  const OpInfo *sample = opInfo(60);
  ASSERT_TRUE(sample);
  EXPECT_EQ(sample->name, "Sample");
  EXPECT_EQ(opClassName(sample->opClass), "sample");
  EXPECT_TRUE(sample->allows(Overload::F16));
  EXPECT_TRUE(sample->allows(Overload::F32));
  EXPECT_FALSE(sample->allows(Overload::F64));
  EXPECT_TRUE(sample->readOnly());
  EXPECT_TRUE(sample->allowedIn(ShaderKind::Pixel));
  EXPECT_FALSE(sample->allowedIn(ShaderKind::Vertex));

  const OpInfo *fabs = opInfo("FAbs");
  ASSERT_TRUE(fabs);
  EXPECT_EQ(fabs->opcode, 6u);
  EXPECT_EQ(opClassName(fabs->opClass), "unary");
  EXPECT_TRUE(fabs->readNone());
  EXPECT_EQ(opInfo("Cos")->opClass, fabs->opClass); // one function serves many opcodes

  const OpInfo *threadId = opInfo(93);
  EXPECT_EQ(threadId->name, "ThreadId");
  EXPECT_TRUE(threadId->allowedIn(ShaderKind::Compute));
  EXPECT_TRUE(threadId->allowedIn(ShaderKind::Node));
  EXPECT_FALSE(threadId->allowedIn(ShaderKind::Pixel));

  const OpInfo *attr = opInfo("AttributeAtVertex");
  EXPECT_EQ(attr->opcode, 137u);
  EXPECT_EQ(attr->minShaderModelMinor, 1);
  EXPECT_EQ(attr->dxilMinor, 1);

  const OpInfo *traceRay = opInfo(157);
  EXPECT_EQ(traceRay->name, "TraceRay");
  EXPECT_EQ(traceRay->overloads, overloadBit(Overload::Udt));
  EXPECT_EQ(traceRay->minShaderModelMinor, 3);

  const OpInfo *annotate = opInfo(216);
  EXPECT_EQ(annotate->name, "AnnotateHandle");
  EXPECT_EQ(annotate->minShaderModelMinor, 6);
  EXPECT_TRUE(annotate->translatable);

  EXPECT_EQ(opInfo(222)->name, "QuadVote");
  EXPECT_EQ(opInfo(222)->dxilMinor, 7);
  EXPECT_EQ(opInfo(238)->name, "AllocateNodeOutputRecords");
  EXPECT_TRUE(opInfo(238)->allowedIn(ShaderKind::Node));
  EXPECT_EQ(opInfo(257)->name, "StartInstanceLocation");
  EXPECT_EQ(opInfo(257)->stages, 1u << unsigned(ShaderKind::Vertex));
  EXPECT_EQ(opInfo(80)->attribute, OpAttribute::NoDuplicate);
  EXPECT_EQ(opInfo(155)->attribute, OpAttribute::NoReturn);
}

TEST(DxilOps, ParsesFunctionNames) {
  std::optional<OpFunction> f = parseOpFunctionName("dx.op.sample.f32");
  ASSERT_TRUE(f);
  EXPECT_EQ(opClassName(f->opClass), "sample");
  EXPECT_EQ(f->overload, Overload::F32);
  f = parseOpFunctionName("dx.op.createHandle");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->overload, Overload::Void);
  f = parseOpFunctionName("dx.op.traceRay.struct.Payload");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->overload, Overload::Udt);
  EXPECT_EQ(f->suffix, "struct.Payload");
  f = parseOpFunctionName("dx.op.createHandleForLib.dx.types.Handle");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->overload, Overload::Obj);
  EXPECT_FALSE(parseOpFunctionName("dx.op.sample.f64"));       // not an allowed overload
  EXPECT_FALSE(parseOpFunctionName("dx.op.createHandle.i32")); // not overloaded
  EXPECT_FALSE(parseOpFunctionName("dx.op.unary"));            // overloaded: needs a suffix
  EXPECT_FALSE(parseOpFunctionName("dx.op.noSuchClass.f32"));
  EXPECT_FALSE(parseOpFunctionName("llvm.dbg.value"));
  EXPECT_EQ(overloadFromName("i1"), Overload::I1);
  EXPECT_FALSE(overloadFromName("udt"));
}

} // namespace
} // namespace spire::dxil
