"t.op"() {x = #llvm.di_subprogram<scope type = #llvm.di_subroutine_type`_file>} : () -> ()
