
#sp2 = #l<e =[]>
#block2 = #stablehlo.clock<e #sp2>
#label2 =#llvm.dibel<se = #block2>// :)
llvm.func @addr(%a: i64) {
  llvm.intr.dbg.label#label2
}