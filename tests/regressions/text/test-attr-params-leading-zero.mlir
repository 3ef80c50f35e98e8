"builtin.module"() ({
  "test.versionedC"() <{attribute = #test.attr_params<05, 24>}> : () -> () loc(#loc1)
}) : () -> () loc(#loc)
#loc = loc("input.mlir":5:0)
#loc1 = loc("input.mlir":4:1)

