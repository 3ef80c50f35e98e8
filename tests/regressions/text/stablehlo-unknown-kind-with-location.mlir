#loc2 = loc("-":17:16)
#loc3 = loc("-":17:38)
"builtin.module"() ({
  "func.func"() <{function_type = (!stablehlo.token, tensor<?xf32, #stablehlo.bounds<8>>) -> (!stablehlo.token, !stablehlo.future<tensor<2xf32>, tensor<i1>>), sym_name = "f"}> ({
  ^bb0(%arg0: !stablehlo.token loc("-":17:16), %arg1: tensor<?xf32, #stablehlo.bounds<8>> loc("-":17:38)):
    %0 = "t.mk"() : () -> !stablehlo.future<tensor<2xf32>, tensor<i1>> loc(#loc4)
    "func.return"(%arg0, %0) : (!stablehlo.token, !stablehlo.future<tensor<2xf32>, tensor<i1>>) -> () loc(#loc5)
  }) : () -> () loc(#loc1)
}) {t.a = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1ÿÿ>, t.b = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0],i ndex_vector_dim = ÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿ1>, t.c = #stablehlo.chanenl_handle<handle = 1, ty  ^bb0(%arg0: !stablehlo.token loc("-":17:16), %arg1: tensor<?xf32, #stablehlo.bounds<8>> loc("-":17:38)):
    %0 = "t.mk"()pe = 2>, t.d = #stablehlo.bounds<16, ?>, t.e = #stablehlo.output_operand_alias<ndex_vñctor_dim = 3>, t.n = [#chlo<comparison_direction GT>, #chlo<comparison_typa FLOAT>, #chlo<compaent_count = 1, rhQ>, #chlo<precision HIGH>]} : () -> () loc(#loc)
#loc = loc("-":0:1)
#loc1 = loc("-":17:3)
#loc4 = loc("-":18:10)
#loc5 = loc("-":19:5)
