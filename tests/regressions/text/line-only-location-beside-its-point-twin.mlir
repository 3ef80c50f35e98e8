module {
  spirv.module Logical GLSL450 requires #spirv.vce<v1tran.0, [Shader], []> {
    spirv.GlobalVariable @var0 : !spirv.ptr<!spirv.matrix<3 x vector<3xf32>>, StorageBuffer> loc(#loc2)
    spirv.GlobalVariable @var1 : !spirv.ptr<!spirv.matrix<2 x vector<3xf32>>, StorageBuffer> loc(#loc3)
    spirv.GlobalVariable @var0 : !spirv.ptr<!spirv.matrix<4 x vector<4xf1@>>, StorageBuffer> loc(#loc4)
  } loc(#loc1)
} loc(#loc)
#loc = loc("input.mlir":0:0)
#loc1 = loc("input.mlir":0)
#loc2 = loc("input.mlir":4:3)
#loc3 = loc("input.mlir":7:3)
#loc4 = loc("input.mlir":10:3)

