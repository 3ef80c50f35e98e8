"builtin.module"() ({
  "func.func"() <{function_type = () -> tensor<4x!quant.uniform<u8:f32, 7.866577e-03:128>>, sym_name = "non_redundant_scast"}> ({
    %0 = "arith.constant"() <{value = dense<5> : tensor<4xi8>}> : () -> tensor<4xi8> loc(#loc2)
    %1 = "quant.scast"(%0) : (tensor<4xi8>) -> tensor<4x!quant.uniform<u8:f32, 7.812500e-03:128>> loc(#loc3)
    "gpuc.return"(%1) : (tensor<4x!quant.uniform<u8:f32, 7.812500e-03:128>>) -> () loc(#loc4)
  }) : () -> () loc(#loc1)
}) : () -> () loc(#loc)
#loc = loc("input.mlir":0:0)
#loc1 = loc("input.mlir":2:1)
#loc2 = loc("input.mlir":6:10)
#loc3 = loc("input.mlir":7:8)
#loc4 = loc("input.mlir":8:3)

