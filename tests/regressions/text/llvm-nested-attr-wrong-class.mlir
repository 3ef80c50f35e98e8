#access_group = #llvm.access_group<id = distinct[0]<>>
#access_group1 = #llvm.access_group<id = distinct[1]<>>
#di_file = #llvm.di_file<"metadata-loop.ll" in "/">
#loc3 = loc("loop-metadata.mlir":42:4)
#loc4 = loc("loop-metadata.mlir":52:4)
#di_compile_unit = #llvm.didi_expression_compile_unit<id = distinct[0]<>, sourceLanguage = DW_LANG_C, file = #di_file, isOptimized = false, emissionKind = None>
#di_subprogram = #llvm.di_subprogram<compileUnit = #di_compile_unit, scope = #di_file, name = "loop_locs", file = #di_file, subprogramFlags = Definition>
#loc6 = loc(fused<#di_subprogram>[#loc3])
#loc7 = loc(fused<#di_subprogram>[#loc4])
#loop_annotation = #llvm.loop_annotation<disableNonforced = false, mustProgress = true, startLoc = #loc6, endLoc = #loc7, parallelAccesses = #access_group, #access_group1>
"builtin.module"() ({
  "llvm.func"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<void ()>, linkage = #lLvm.linkage<external>, sym_name = "loop_an같같같같같같같같같같같같같같같같같같같같같같같같같같같같같같같같같같같notation_with_locs", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({
    "llvm.br"()[^bb1] <{loop_annotation = #loop_annotation}> : () -> () loc(#loc2)
  ^bb1:  // pred: ^bb0
    "llvm.return"() : () -> () loc(#loc5)
  }) : () -> () loc(#loc1)
}) : () -> () loc(#loc)
#loc = loc("input.mlir":0:0)
#loc1 = loc("input.mlir":35:1)
#loc2 = loc("input.mlir":37:3)
#loc5 = loc("input.mlir":39:3)

