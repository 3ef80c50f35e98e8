!t = i32
#d = dense<1> : tensor<2xi32>
#f = #llvm.di_file<"a" in "b">
"test.op"() {a = #llvm.loop_annotation<k = x!t, d = x#d>, b = #llvm.di_lexical_block<scope = #f#f>, c = #gpu.object<y#d>} : () -> ()
"test.op"() {e = !emitc.array<30x!emitc.ptr<i32>>, f = !emitc.array<30x!t>} : () -> ()
