#include "spire/dxil/DxilOps.h"
#include "dxil/DxilOpTokens.h"

#include <gtest/gtest.h>

#include <optional>
#include <set>
#include <string>
#include <vector>

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
  // A class name is known by all its characters (the lookup compares a name in a few loads):
  // one character changed anywhere, or one more or fewer, names no class (or the class of that
  // name).
  for (size_t i = 0; i < opClassCount(); ++i) {
    const std::string name(opClassName(OpClass(i)));
    std::vector<std::string> near = {name + "x", name.substr(0, name.size() - 1)};
    for (size_t at = 0; at < name.size(); ++at) {
      near.push_back(name);
      near.back()[at] ^= 0x20;
    }
    for (const std::string &other : near) {
      std::optional<OpClass> found = opClassFromName(other);
      if (found)
        EXPECT_EQ(opClassName(*found), other) << name;
    }
  }
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
  for (unsigned i = unsigned(Overload::F16); i <= unsigned(Overload::I64); ++i)
    EXPECT_EQ(overloadFromName(overloadName(Overload(i))), Overload(i)) << i;
  // Only the scalar names: no other characters standing in for the digits.
  for (std::string_view other : {"", "i", "f", "f8", "i7", "f1F", "i3:", "f00", "i08", "i128",
                                 "x32", "i32 ", "F32", "obj", "void"})
    EXPECT_FALSE(overloadFromName(other)) << other;
}

TEST(DxilOps, EveryOperationHasASignatureOfKnownTokens) {
  size_t unchecked = 0;
  for (const OpInfo &op : opTable()) {
    OpSignature sig = opSignature(op);
    if (!sig.checked()) {
      ++unchecked;
      EXPECT_TRUE(op.name.starts_with("WaveMatrix_")) << op.name;
      continue;
    }
    std::string all = std::string(sig.result) + " " + std::string(sig.parameters);
    size_t pos = 0;
    bool usesOverload = false;
    while (pos < all.size()) {
      size_t end = all.find(' ', pos);
      if (end == std::string::npos)
        end = all.size();
      std::string token = all.substr(pos, end - pos);
      pos = end + 1;
      if (token.empty())
        continue;
      usesOverload |= token.find("$o") != std::string::npos;
      bool known = token == "void" || token == "$o" || token == "$o*" || token.starts_with("%") ||
                   overloadFromName(token).has_value();
      EXPECT_TRUE(known) << op.name << ": " << token;
    }
    // An operation with overloads names its overload type somewhere, unless the overload is a
    // fixed scalar written out.
    if (op.overloads != overloadBit(Overload::Void) && !usesOverload) {
      bool single = (op.overloads & (op.overloads - 1)) == 0;
      EXPECT_TRUE(single) << op.name;
    }
  }
  EXPECT_EQ(unchecked, 12u); // WaveMatrix_* (226-237)
  EXPECT_EQ(opSignature(*opInfo("WavePrefixBitCount")).parameters, "i1");
  EXPECT_EQ(opSignature(*opInfo("WavePrefixOp")).parameters, "$o i8 i8");
  EXPECT_EQ(opSignature(*opInfo("Sample")).result, "%dx.types.ResRet.$o");
}

// The compiled tokens are the text's, each of a known kind, with the parts matching reads.
TEST(DxilOps, CompiledSignatureTokensAreTheTable) {
  for (const OpInfo &op : opTable()) {
    OpSignature sig = opSignature(op);
    std::span<const SignatureToken> tokens = opSignatureTokens(op);
    if (!sig.checked()) {
      EXPECT_TRUE(tokens.empty()) << op.name;
      continue;
    }
    ASSERT_FALSE(tokens.empty()) << op.name;
    EXPECT_EQ(tokens[0].text, sig.result) << op.name;
    std::string params;
    for (const SignatureToken &t : tokens.subspan(1))
      params += (params.empty() ? "" : " ") + std::string(t.text);
    EXPECT_EQ(params, sig.parameters) << op.name;
    for (const SignatureToken &t : tokens)
      EXPECT_NE(t.kind, SignatureTokenKind::Unknown) << op.name << ": " << t.text;
  }
  std::span<const SignatureToken> sample = opSignatureTokens(*opInfo("Sample"));
  ASSERT_EQ(sample.size(), 11u);
  EXPECT_EQ(sample[0].kind, SignatureTokenKind::StructOverload);
  EXPECT_EQ(sample[0].head(), "dx.types.ResRet.");
  EXPECT_EQ(sample[0].tail(), "");
  EXPECT_EQ(sample[1].kind, SignatureTokenKind::Struct);
  EXPECT_EQ(sample[1].head(), "dx.types.Handle");
  EXPECT_EQ(sample[3].kind, SignatureTokenKind::Float);
  EXPECT_EQ(sample[3].scalarOverload, Overload::F32);
  EXPECT_EQ(sample[7].kind, SignatureTokenKind::Integer);
  EXPECT_EQ(sample[7].bits, 32u);
  std::span<const SignatureToken> unpack = opSignatureTokens(*opInfo("Unpack4x8"));
  ASSERT_EQ(unpack.size(), 3u);
  EXPECT_EQ(unpack[0].head(), "dx.types.four");
  EXPECT_EQ(unpack[1].kind, SignatureTokenKind::Integer);
  EXPECT_EQ(unpack[1].scalarOverload, Overload::I8);
  // The one override: WavePrefixBitCount takes an i1, not its class's parameters.
  std::span<const SignatureToken> prefix = opSignatureTokens(*opInfo("WavePrefixBitCount"));
  ASSERT_EQ(prefix.size(), 2u);
  EXPECT_EQ(prefix[1].kind, SignatureTokenKind::Integer);
  EXPECT_EQ(prefix[1].bits, 1u);
  EXPECT_EQ(prefix[1].scalarOverload, Overload::I1);
}

} // namespace
} // namespace spire::dxil
