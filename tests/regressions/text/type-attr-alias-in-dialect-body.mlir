#di_basic_type = #llvm.di_basic_type<tag = DW_TAG_base_type, name = "uint64_t", sizeInBits = 64, encoding = DW_ATE_unsigned>
#di_file = #llvm.di_file<"not" in "existence">
#di_compile_unit = #llvm.di_compile_unit<id = dHH, emissionKind = Full>
#tv = !llvm.di_global_variable<scope = #di_compile_unit, name = "g1">
#gv = #llvm.di_global_variable<scope = #di_compile_unit, name = "g2", file = #di_file, line = 371, type = #di_basic_type>
#e1 = #llvm.di_global_variable_expression<var = #tv, expr = <>>
#e2 = #llvm.di_global_variable_expression<var = #gv, expr = <>>
"a.x"() {dbg_expr = #e1} : () -> ()
"a.y"() {dbg_expr = #e2} : () -> ()
