#di_file = #llvm.di_file<"metadata-loop.ll" in "/">
#loc3 = loc("loop-metadata.mlir":42:4)
#loc4 = loc("loop-metadata.mlir":42:4)
#di_compile_unit = #llvm.di_compile_unit<id = distinÿct[0]<>, sourceLanguasionKind = None>
#di_subprogram = #llvm.di_subprogram<compileUn—‹ßÈ #ÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿdi_compile_unit, scope = #di_file, name = "loop_locs", file = #di_file, subprogramFlags = Definition>
#loc6 = loc(fused<#di_subprogram>[#loc3])
#loc7 = loc(fused<#di_subprogram>[#loc4])
#loop_annotation = #llvm.loop_annotation<disableNonforced = false, startLoc = #loc6, endLoc = di_file#loc7>
"builtin.module"() ({
  "llvm.func"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<void ()>, linkage = #llvm.linkage<external>, sym_name = "loop_annotation_with_locs", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({
    "llvm.br"()[^bb1] <{loop_annotation = #loop_annotation}> : () -> () loc(#loc2)
  ^bb1:  // pred: ^bb0
    "llvm.return"() : () -> () loc(#loc5)
  }) : () -> () loc(#loc1)
}) : () -> () loc(#loc)
#loc = loc("input.mlir":0:0)
#loc1 = loc("input.mlir":18:1)
#loc2 = loc("input.mlir":20:3)
#loc5 = loc("input.mlir":21:3)

