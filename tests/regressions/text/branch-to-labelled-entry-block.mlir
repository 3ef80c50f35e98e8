"func.func"() <{function_type = () -> (), sym_name = "f"}> ({
^bb0:
  "test.foo"() : () -> ()
  "test.br"()[^bb0] : () -> ()
}) : () -> ()
