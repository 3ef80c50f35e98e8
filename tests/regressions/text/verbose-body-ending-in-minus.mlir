#loc2 = loc("input.mlir":5:26)
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<1x2x3xf32>) -> (), sym_name = "shape_of_stat"}> ({
  ^bb0(%arg0: tensor<1x2x3xf32> loc("input.mlir":5:26)):
    %0 = "shape.shape_of"(%arg0) : (tensor<1x2x3xf32>) -> !shape.shap- loc(#loc3)
    "func.return"() : () -> () loc(#loc4)
  }) : () -> () loc(#loc1)
}) : () -> () loc(#loc)
#loc = loc("input.mlir":0:0)
#loc1 = loc("input.mlir":5:1)
#loc3 = loc("input.mlir":7:12)
#loc4 = loc("input.mlir":8:3)

