// A small module in MLIR's generic form, written for rmlir-bc's README.
// `rmlir-bc decode examples/hello.mlir` prints it the way
// `mlir-opt --allow-unregistered-dialect --mlir-print-op-generic --mlir-print-debuginfo` does.
#map = affine_map<(d0, d1) -> (d1, d0 floordiv 2)>
"builtin.module"() ({
  "func.func"() <{function_type = (i32, f32) -> i32, sym_name = "hello"}> ({
  ^bb0(%a: i32, %b: f32):
    %c = "arith.constant"() <{value = 42 : i32}> : () -> i32
    %s = "arith.addi"(%a, %c) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    "demo.use"(%b) {layout = #map, weights = dense<[1.5, 2.0]> : tensor<2xf32>} : (f32) -> ()
    "cf.br"(%s)[^exit] : (i32) -> ()
  ^exit(%r: i32):
    "func.return"(%r) : (i32) -> ()
  }) : () -> () loc("hello.py":3:1)
}) : () -> ()
