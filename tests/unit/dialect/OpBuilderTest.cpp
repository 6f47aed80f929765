// Building a whole function with the typed op classes (GeneratedOps.h, StructuralOps.h), as a
// translator into the dialect does: globals, arithmetic, access chains, loads and stores,
// composites, GLSL.std.450 instructions, a selection and a loop, a call. No op names, no operand
// positions.
#include "spire/dialect/Builder.h"
#include "spire/dialect/GeneratedOps.h"
#include "spire/dialect/StructuralOps.h"
#include "spire/dialect/Text.h"
#include "spire/dialect/Verifier.h"

#include <gtest/gtest.h>

#include <string>

namespace spire::dialect {
namespace {

using grammar::StorageClass;

constexpr std::string_view kExpected = R"mlir(spirv.module Logical GLSL450 {
  spirv.GlobalVariable @data bind(0, 1) : !spirv.ptr<!spirv.rtarray<vector<4xf32>, stride=16>, StorageBuffer>
  spirv.func @scale(%arg0: f32) -> f32 "None" {
    %cst_f32 = spirv.Constant 0.000000e+00 : f32
    %0 = spirv.GL.FMax %arg0, %cst_f32 : f32
    %1 = spirv.GL.Sqrt %0 : f32
    spirv.ReturnValue %1 : f32
  }
  spirv.func @main(%arg0: i32) "None" {
    %0 = spirv.Variable : !spirv.ptr<f32, Function>
    %cst4_i32 = spirv.Constant 4 : i32
    %1 = spirv.SLessThan %arg0, %cst4_i32 : i32
    spirv.mlir.selection {
      spirv.BranchConditional %1, ^bb1, ^bb2
    ^bb1:  // pred: ^bb0
      %data_addr = spirv.mlir.addressof @data : !spirv.ptr<!spirv.rtarray<vector<4xf32>, stride=16>, StorageBuffer>
      %2 = spirv.AccessChain %data_addr[%arg0] : !spirv.ptr<!spirv.rtarray<vector<4xf32>, stride=16>, StorageBuffer>, i32
      %3 = spirv.Load "StorageBuffer" %2 : vector<4xf32>
      %4 = spirv.CompositeExtract %3[0 : i32] : vector<4xf32>
      %5 = spirv.FunctionCall @scale(%4) : (f32) -> f32
      %cst_f32 = spirv.Constant 1.000000e+00 : f32
      %6 = spirv.FAdd %5, %cst_f32 : f32
      %7 = spirv.CompositeConstruct %6, %6, %6, %6 : (f32, f32, f32, f32) -> vector<4xf32>
      spirv.Store "StorageBuffer" %2, %7 : vector<4xf32>
      spirv.Branch ^bb2
    ^bb2:  // 2 preds: ^bb0, ^bb1
      spirv.mlir.merge
    }
    spirv.mlir.loop {
      %cst0_i32 = spirv.Constant 0 : i32
      spirv.Branch ^bb1(%cst0_i32 : i32)
    ^bb1(%2: i32):  // 2 preds: ^bb0, ^bb3
      %3 = spirv.SLessThan %2, %arg0 : i32
      spirv.BranchConditional %3, ^bb2, ^bb4
    ^bb2:  // pred: ^bb1
      %4 = spirv.ConvertSToF %2 : i32 to f32
      spirv.Store "Function" %0, %4 : f32
      spirv.Branch ^bb3
    ^bb3:  // pred: ^bb2
      %cst1_i32 = spirv.Constant 1 : i32
      %5 = spirv.IAdd %2, %cst1_i32 : i32
      spirv.Branch ^bb1(%5 : i32)
    ^bb4:  // pred: ^bb1
      spirv.mlir.merge
    }
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main
}
)mlir";

TEST(DialectOpBuilder, BuildsAFunctionWithTheTypedOps) {
  Context ctx;
  OpBuilder b(ctx);
  Type f32 = ctx.floating(32), i32 = ctx.integer(32), i1 = ctx.boolean();
  Type vec4 = ctx.vector(f32, 4);
  Type buffer =
      ctx.pointer(ctx.runtimeArray(vec4, 16), static_cast<uint32_t>(StorageClass::StorageBuffer));
  Type elementPtr = ctx.pointer(vec4, static_cast<uint32_t>(StorageClass::StorageBuffer));
  Type localPtr = ctx.pointer(f32, static_cast<uint32_t>(StorageClass::Function));

  OwningOp module(
      ModuleOp::create(b, grammar::AddressingModel::Logical, grammar::MemoryModel::GLSL450)
          .operation());
  b.setInsertionPointToEnd(ModuleOp(module.get()).body());
  GlobalVariableOp data = b.create<GlobalVariableOp>("data", buffer);
  data.setBinding(b, 0, 1);

  // float scale(float x) { return sqrt(max(x, 0)) ; }
  Type scaleType = ctx.function(std::span(&f32, 1), std::span(&f32, 1));
  FuncOp scale = b.create<FuncOp>("scale", scaleType);
  {
    OpBuilder fb(ctx);
    fb.setInsertionPointToEnd(scale.entryBlock());
    Value zero = ConstantOp::floating(fb, f32, 0.0).result();
    Value m = fb.create<GLFMaxOp>(f32, scale.argument(0), zero).result();
    Value r = fb.create<GLSqrtOp>(f32, m).result();
    fb.create<ReturnValueOp>(r);
  }

  // void main(i32 n): data[n] = vec4(scale(data[n].x) + 1, ...) if n < 4; then a loop that
  // counts to n in a function variable.
  Type mainType = ctx.function(std::span(&i32, 1), {});
  FuncOp main = b.create<FuncOp>("main", mainType);
  OpBuilder fb(ctx);
  fb.setInsertionPointToEnd(main.entryBlock());
  Value n = main.argument(0);
  Value counter = fb.create<VariableOp>(localPtr, StorageClass::Function).result();
  Value four = ConstantOp::integer(fb, i32, 4).result();
  Value small = fb.create<SLessThanOp>(i1, n, four).result();
  SelectionOp sel = fb.create<SelectionOp>();
  {
    Region &r = sel.body();
    Block *head = r.addBlock(), *then = r.addBlock(), *merge = r.addBlock();
    OpBuilder sb(ctx);
    sb.setInsertionPointToEnd(head);
    sb.create<BranchConditionalOp>(small, then, merge);
    sb.setInsertionPointToEnd(then);
    Value base = sb.create<AddressOfOp>(data).result();
    Value ptr = sb.create<AccessChainOp>(elementPtr, base, std::span(&n, 1)).result();
    Value v = sb.create<LoadOp>(vec4, ptr).result();
    uint32_t x[] = {0};
    Value vx = sb.create<CompositeExtractOp>(f32, v, x).result();
    Value s = sb.create<FunctionCallOp>(scale, std::span(&vx, 1)).result();
    Value one = ConstantOp::floating(sb, f32, 1.0).result();
    Value sum = sb.create<FAddOp>(f32, s, one).result();
    Value parts[] = {sum, sum, sum, sum};
    Value nv = sb.create<CompositeConstructOp>(vec4, parts).result();
    sb.create<StoreOp>(ptr, nv);
    sb.create<BranchOp>(merge);
    sb.setInsertionPointToEnd(merge);
    sb.create<MergeOp>();
  }
  LoopOp loop = fb.create<LoopOp>();
  {
    Region &r = loop.body();
    Block *entry = r.addBlock(), *header = r.addBlock(), *body = r.addBlock(), *cont = r.addBlock(),
          *exit = r.addBlock();
    OpBuilder lb(ctx);
    lb.setInsertionPointToEnd(entry);
    Value i = header->addArgument(i32);
    Value zero = ConstantOp::integer(lb, i32, 0).result();
    lb.create<BranchOp>(header, std::span(&zero, 1));
    lb.setInsertionPointToEnd(header);
    Value more = lb.create<SLessThanOp>(i1, i, n).result();
    lb.create<BranchConditionalOp>(more, body, exit);
    lb.setInsertionPointToEnd(body);
    Value fi = lb.create<ConvertSToFOp>(f32, i).result();
    lb.create<StoreOp>(counter, fi);
    lb.create<BranchOp>(cont);
    lb.setInsertionPointToEnd(cont);
    Value one = ConstantOp::integer(lb, i32, 1).result();
    Value next = lb.create<IAddOp>(i32, i, one).result();
    lb.create<BranchOp>(header, std::span(&next, 1));
    lb.setInsertionPointToEnd(exit);
    lb.create<MergeOp>();
  }
  fb.create<ReturnOp>();
  b.create<EntryPointOp>(grammar::ExecutionModel::GLCompute, "main");

  Status verified = verify(*module);
  EXPECT_TRUE(verified) << verified.error().message;
  std::string text = toString(*module);
  EXPECT_EQ(text, kExpected);
  auto reparsed = parse(ctx, text);
  ASSERT_TRUE(reparsed) << reparsed.error().message;
  EXPECT_EQ(toString(**reparsed), text);
}

} // namespace
} // namespace spire::dialect
