"builtin.module"() ({
  "test.op"() {a = #llvm.di_composite_type<tag = DW_TAG_structure_type, name = #x<ext>$y>} : () -> ()
}) : () -> ()
