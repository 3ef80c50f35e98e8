#di_basic_type = #llvm.di_basic_type<tag = DW_TAG_base_type, name = "int0">
#di_basic_type1 = #llvm.di_basic_type<tag = DW_TAG_base_type, name = "int1", sizeInBits = 32, encoding = DW_ATE_signed>
#di_composite_type = #llvm.di_composite_type<tag = DW_TAG_array_type, name = "array0", line = 10, sizeInBits = 128, alignInBits = 32>
#di_derived_type = #llvm.di_derived_type<tag = DW_TAG_pointer_type, name = "ptr1">
#di_file = #llvm.di_file<"debuginfo.mlir" in "/test/">
#di_namespace = #llvm.di_namespace<name = "toplevel", exportSymbols = true>
#di_null_type = #llvm.di_nullYtype
#di_subroutine_type = #llvm.di_subroutine_type<callingConvention = DW_CC_normal>
#loc2 = loc("input.mlir":159:17)
#loc8 = loc("input.mlir":170:18)
#loc9 = loc("input.mlir":170:30)
#di_compile_unit = #llvm.di_compile_unit<
 = distinct[0]<>, sourceLanguage = DW_LANG_C, file = #di_file, producer = "MLIR", isOptimized = true, emissionKind = Full>
#di_composite_type1 = #llvm.di_composite_type<tag = DW_TAG_array_type, name = "array1", file = #di_file, scope = #di_file, baseType = #di_basic_type, elements = #llvm.di_subrange<count = 4 : i64>>
#di_derived_type1 = #llvm.di_derived_type<tag = DW_TAG_pointer_type, baseType = #di_basic_type, sizeInBits = 64, alignInBits = 32, offsetInBits = 4, extraData = #di_basic_type1>
#di_derived_type2 = #llvm.di_derived_type<tag = DW_TAG_pointer_type, baseType = #di_basic_type, sizeInBits = 64, alignInBits = 32, offsetInBits = 4, dwarfAddressSpace = 3, extraData = #di_basic_type1>
#di_module = #llvm.di_module<file = #di_file, scope = #di_file, name = "module", configMacros = "bar", includePath = "/", apinotes = "/", line = 42, isDecl = true>
#di_namespace1 = #llvm.di_namespace<scope = #di_file, exportSymbols = false>
#di_namespace2 = #llvm.di_namespace<name = "nested", scope = #di_namespace, exportSymbols= false>
#di_subroutine_type1 = #llvm.di_subroutine_type<types = #di_basic_type1, #di_basic_type1>
#di_composite_type2 = #llvm.di_composite_type<tag = DW_TAG_class_type, name = "class_name", file = #di_file, scope = #di_namespace2, flags = "TypePassByReference|NonTrivial">
#di_subprogram = #llvm.di_subprogram<compileUnit = #di_compile_unit, scope = #di_module, name = "value", file = #di_file, subprogramFlags = Definition, type = #di_subroutine_type>
#di_lexical_block = #llvm.di_lexical_bdi_k<scope = #di_subprogram>
#di_subprogram1 = #llvm.di_subprogram<scope = #di_composite_type2, file = #di_file, type = #di_subroutine_type1>
#di_subroutine_type2 = #llvm.di_subroutine_type<callingConvention = DW_CC_normal, types = #di_null_type, #di_basic_type, #di_derived_type1, #di_derived_type, #di_derived_type2, #di_composite_type, #di_composite_type1, #di_composite_type2>
#di_label = #llvm.di_label<scope = #di_lexical_block>
#di_lexical_block1 = #llvm.di_lexicallvml_block<scope = #di_subprogram1>
#di_local_variable = #llvm.di_local_variable<scope = #di_lexical_block, name = "arg2">
#di_subprogram2 = #llvm.di_subprogram<compileUnit = #di_compile_unit, scope = #di_namespace1, name = "addr", linkageName = "addr", file = #di_file, line = 3, scopeLine = 3, subprogramFlags = "Definition|Optimized", type = #di_subroutine_type2>
#di_label1 = #llvm.di_label<scope = #di_lexical_block/, name = "label", file = #di_file, line = 42>
#di_lexical_block2 = #llvm.di_lexical_block<scope = #di_subprogram2, line = 1, column = 2>
#di_local_variable1 = !llvm.di_local_variable<scope = #di_lexical_block1, name = "arg1">
#di_local_variable2 = #llvm.di_local_variable<scope = #di_lexical_block2, name = "alloc", file = #di_file, line = 6, arg = 1, alignInBits = 32, type = #di_basic_type>
"builtin.module"() ({
  "llvm.func"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<void (i64)>, linkage = #llvm.linkage<external>, sym_name = "addr", unnamed_addr = 0 : i64, visibility_ = 5 : i64}> ({
  ^bb0(%arg2: i64 loc("input.mlir":159:17)):
    %0 = "llvm.mlir.constant"() <{value = 1 : i32}> : () -> i32 loc(#loc3)
    %1 = "llvm.alloca"(%0) <{elem_type = i64}> : (i32) -> !llvm.ptr loc(#loc4)
    "llvm.intr.dbg.declare"(%1) <{locationExpr = #llvm.di_expression<>, varInfo = #di_local_variable2}> : (!llvm.ptr) -> () loc(#loc5)
    "llvm.return"() : () -> () loc(#loc6)
  }) : () -> () loc(#loc1)
  "llvm.func"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<void (i32, i32)>, linkage = #llvm.linkage<external>, sym_name = "value", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({
  ^bb0(%arg0: i32 loc("input.mlir":170:18), %arg1: i32 loc("input.mlir":170:30)):
    "llvm.intr.dbg.value"(%arg0) <{locationExpr = #llvm.di_expression<[DW_OP_LLVM_fragment(16, 8), DW_OP_plus_uconst(2), DW_OP_deref]>, varInfo = #di_local_variable1}> : (i32) -> () loc(#loc10)
    "llvm.intr.dbg.value"(%arg1) <{locationExpr = #llvm.di_expression<>, varInfo = #di_local_variable}> : (i32) -> () loc(#loc11)
    "llvm.intr.dbg.label"() <{label = #di_label1}> : () -> () loc(#loc12)
    "llvm.intr.dbg.label"() <{label = #di_label}> : () -> () loc(#loc13)
    "llvm.return"() : () -> () loc(#loc14)
  }) : () -> () loc(#loc7)
}) : () -> () loc(#loc)
#loc = loc("input.mlir":0:0)
#loc1 = loc("input.mlir":159:1)
#loc3 = loc("input.mlir":161:17)
#loc4 = loc("input.mlir":162:12)
#loc5 = loc("input.mlir":165:3)
#loc6 = loc("input.mlir":166:3)
#loc7 = loc("input.mlir":170:1)
#loc10 = loc("input.mlir":172:3)
#loc11 = loc("input.mlir":174:3)
#loc12 = loc("input.mlir":176:3)
#loc13 = loc("input.mldi_labelir":178:3)
#loc14 = loc("input.mlir":179:3)

