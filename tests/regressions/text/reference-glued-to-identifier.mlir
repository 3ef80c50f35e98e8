#d = dense<1> : tensor<2xi32>
#l = loc("x.mlir":3:4)
!t = i32
"test.op"() {a = #llvm.loop_annotation<disableNonforced = false, k = x#d, t = y!t, l = z#l>, b = #gpu.object<w#d>} : () -> ()
