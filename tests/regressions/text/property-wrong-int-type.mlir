#loc2 = loc("input.mlir":3:43)
#loc3 = loc("input.mlir":3:52)
#loc4 = loc("input.mlir":3:61)
"builtin.module"() ({
  "llvm.func"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<i64 (i64, i64, i64)>, linkage = #llvm.linkage<external>, sym_name = "dialect_attr_translation_multi", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({
  ^bb0(%arg0: i64 loc("input.mlir":3:43), %arg1: i64 loc("input.mlir":3:52), %arg2: i64 loc("input.mlir":3:61)):
    %0 = "llvm.add"(%arg0, %arg1) <{overflowFlags = 0 : i16}> {test.add_annotation = "add"} : (i64, i64) -> i64 loc(#loc5)
    %1 = "llvm.mul"(%0, %arg2) <{overflowFlags = 0 : i32}> {test.add_annotation = "mul"} : (i64, i64) -> i64 loc(#loc6)
    "llvm.return"(%1) {test.add_annotation = "ret"} : (i64) -> () loc(#loc7)
  }) : () -> () loc(#loc1)
}) : () -> () loc(#loc)
#loc = loc("input.mlir":0:0)
#loc1 = loc("input.mlir":3:1)
#loc5 = loc("input.mlir":7:9)
#loc6 = loc("input.mlir":8:8)
#loc7 = loc("input.mlir":9:3)

