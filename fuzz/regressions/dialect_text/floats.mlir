spirv.module Logical GLSL450 {
  spirv.func @f() "None" {
    %0 = spirv.Constant 0.899999976 : f32
    %1 = spirv.Constant 9.000000e-01 : f32
    %2 = spirv.Constant 0.93 : f32
    %3 = spirv.Constant 2.3 : f32
    %4 = spirv.Constant 0.9 : f64
    %5 = spirv.Constant 0.899999976158142 : f64
    %6 = spirv.Constant 123456792.0 : f32
    %7 = spirv.Constant -0.0 : f32
    %8 = spirv.Constant 1.0e-40 : f32
    %9 = spirv.Constant 1.0e+300 : f64
    %10 = spirv.Constant 0.1 : f16
    %11 = spirv.Constant 65504.0 : f16
    %12 = spirv.Constant 0x7F800000 : f32
    %13 = spirv.Constant 3.0e-320 : f64
    %14 = spirv.Constant 1.0e10 : f32
    %15 = spirv.Constant 0.001 : f32
    spirv.Return
  }
}
