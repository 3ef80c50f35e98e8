"builtin.module"() ({
  "func.func"() <{function_type = () -> !shape.shape, sym_name = "f"}> ({
    %0 = "shape.const_shape"() <{shape = dense<2> : tensor<1xindex>}> : () -> !shape.shape loc(#loc2)
    %1 = "shape.const_shape"() <{shape = dense<7> : tensor<0xindex>}> : () -> !shape.shape loc(#loc3)
    %2 = "shape.broadcast"(%0, %1) : (!shape.shape, !shape.shape) -> !shape.shape loc(#loc4)
    "func.return"(%2) : (!shape.shape) -> () loc(#loc5)
  }) : () -> () loc(#loc1)
}) : () -> () loc(#loc)
#loc = loc("input.mlir":0:0)
#loc1 = loc("input.mlir":4:1)
#loc2 = loc("input.mlir":6:8)
#loc3 = loc("input.mlir":7:8)
#loc4 = loc("input.mlir":8:8)
#loc5 = loc("input.mlir":9:3)

