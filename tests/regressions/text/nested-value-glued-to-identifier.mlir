// Nested values glued to identifier characters inside llvm bodies that are
// no valid llvm attribute (mlir-opt 22 rejects each at the glued character).
"builtin.module"() ({
  "test.op"() {a = #llvm.di_composite_type<tag = DW_TAG_structure_type, name = #x<ext>$y>} : () -> ()
  "test.op"() {a = #llvm.di_composite_type<tag = DW_TAG_structure_type, name = #x<ext>-z>} : () -> ()
  "test.op"() {a = #llvm.di_composite_type<tag = DW_TAG_structure_type, name = !x<ext>$y>} : () -> ()
  "test.op"() {a = #llvm.di_composite_type<tag = DW_TAG_structure_type, name = #llvm.di_file<"a" in "b">$y>, b = #llvm.di_file<"a" in "b">} : () -> ()
}) : () -> ()
