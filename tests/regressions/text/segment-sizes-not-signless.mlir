"func.func"() <{function_type = (memref<?xi1>, memref<?xi1>, memref<i1>) -> (), sym_name = "dot_bool"}> ({
^bb0(%a: memref<?xi1>, %b: memref<?xi1>, %c: memref<i1>):
  "linalg.dot"(%a, %b, %c) <{operandSegmentSizes = array<ui32: 2, 1>}> ({
  ^bb0(%x: i1, %y: i1, %z: i1):
    %0 = "arith.andi"(%x, %y) : (i1, i1) -> i1
    %1 = "arith.ori"(%z, %0) : (i1, i1) -> i1
    "linalg.yield"(%1) : (i1) -> ()
  }) : (memref<?xi1>, memref<?xi1>, memref<i1>) -> ()
  "func.return"() : () -> ()
}) : () -> ()
