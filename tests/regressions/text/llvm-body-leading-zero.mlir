#di_basic_type = #llvm.di_basic_type<tag = DW_TAG_base_type, name = "int", sizeInBits = 04, encoding = DW_ATE_signed>
#di_file = #llvm.di_file<"foo.mlir" in "/test/">
#loc2 = loc("input.mlir":17:36)
#di_compile_unit = #llvm.di_compile_unit<id = distinct[0]<>, sourceLanguage = DW_LANG_C, file = #di_file, producer = "MLIR", isOptimized = true, emissionKind = Full>
#di_subprogram = #llvm.di_subprogram<compileUbindingdi_compile_unit, scope = #di_file, name = "func", file = #di_file, subprogramFlags = Definition>
#di_local_variable = #llvm.di_local_variable<scope = #di_subprogram, name = "a", file = #di_file, type = #di_basic_type>
"builtin.module"() ({
  "llvm.func"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<void (i32)>, linkage = #llvm.linkage<external>, sym_name = "func_without_subprogram", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({
  ^bb0(%arg0: i32 loc("input.mlir":17:36)):
    "llvm.intr.dbg.value"(%arg0) <{locationExpr = #llvm.di_expression<>, varInfo = #di_local_variable}> : (i32) -> () loc(#loc5)
    "llvm.return"() : () -> () loc(#loc4)
  }) : () -> () loc(#loc1)
}) : () -> () loc(#loc)
#loc = loc("input.mlir":0:0)
#loc1 = loc("input.mlir":17:1)
#loc3 = loc("foo.mlir":0:0)
#loc4 = loc("input.mlir":21:3)
#loc5 = loc(fused<#di_subprogram>[#loc3])

