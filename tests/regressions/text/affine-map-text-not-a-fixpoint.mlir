#map = affine_map<() -> (0)>
#map1 = affine_map<(d0, d1) -> (d0 + 1, d1 * 4 + 2)>
#map2 = affine_map<(d0, d1) -> (d1 - d0 + (d0 - d1 + 1) * 2 + d1 - 1, d1 * 4 + 2)>
#map3 = affine_map<(d0, d1) -> (d0 + 2, d1)>
#map4 = affine_map<(d0, d1)[s0] -> (d0 + s0, d1)>
#map5 = affine_map<(d0, d1)[s0] -> (d0 + s0, d1 + 5)>
#map6 = affine_map<(d0, d1)[s0] -> (d0 + d1 + s0, d1)>
#map7 = affine_map<(d0, d1)[s0] -> (d0 + d1 + s0 + 5, d1)>
#map8 = affine_map<(d0, d1)[s0] -> (d0 + d1 + 5, d1)>
#map9 = affine_map<(d0, d1)[s0] -> (d0 + d1 + 5, d1)>
#map10 = affine_map<(d0, d1)[s0] -> (d0 * 2, d1 * 3)>
#map11 = affine_map<(d0, d1)[s0] -> (d0 + (d1 + s0 * 3) * 5 + 12, d1)>
#map12 = affine_map<(d0, d1)[s0] -> (d0 * 5 + d1, d1)>
#map13 = affine_map<(d0, d1)[s0] -> (d0 + d1, d1)>
#map14 = affine_map<(d0, d1)[s0] -> (d0 + d1 + 7, d1 + 3)>
#map15 = affine_map<(d0, d1)[s0] -> (d0, 0)>
#map16 = affine_map<(d0, d1)[s0] -> (d0, d1 * s0)>
#map17 = affine_map<(d0, d1) -> (d0, d0 * 3 + d1)>
#map18 = affine_map<(d0, d1) -> (d0, d0 + d1 * 3)>
#map19 = affine_map<(d0, d1)[s0] -> (d0, d0 * ((s0 * s0) * 9) + 3)>
#map20 = affine_map<(d0, d1) -> (1, d0 + d1 * 3 + 5)>
#map21 = affine_map<(d0, d1)[s0] -> (s0 * 5, d0 + d1 * 3 + d0 * 5)>
#map22 = affine_map<(d0, d1)[s0, s1] -> (d0 * (s0 * s1), d1)>
#map23 = affine_map<(d0, d1)[s0, s1] -> (d0, d1 mod 5)>
#map24 = affine_map<(d0, d1)[s0, s1] -> (d0, d1 floordiv 5)>
#map25 = affine_map<(d0, d1)[s0, s1] -> (d0, d1 ceildiv 5)>
#map26 = affine_map<(d0, d1)[s0, s1] -> (d0, d0 - d1 - 5)>
#map27 = affine_map<(d0, d1)[s0, s1] -> (d0, d0 - d1 * s1 + 2)>
#map28 = affine_map<(d0, d1)[s0, s1] -> (d0 * -5, d1 * -3, -2, -(d0 + d1), -s0)>
#map29 = affine_map<(d0, d1) -> (-4, -d0)>
#map30 = affine_map<(d0, d1)[s0, s1] -> (d0, d1 floordiv s0, d1 mod s0)>
#map31 = affine_map<(d0, d1, d2)[s0, s1, s2] -> ((d0 * s1) * s2 + d1 * s1 + d2)>
#map32 = affine_map<(d0, d1) -> (8, 4, 1, 3, 2, 4)>
#map33 = affine_map<(d0, d1) -> (4, 11, 512, 15)>
#map34 = affine_map<(d0, d1) -> (d0 * 2 + 1, d1 + 2)>
#map35 = affine_map<(d0, d1)[s0, s1] -> (d0 * s0, d0 + s0, d0 + 2, d1 * 2, s1 * 2, s0 + 2)>
#map36 = affine_map<(d0, d1)[s0] -> ((d0 * 5) floordiv 4, (d1 ceildiv 7) mod s0)>
#map37 = affine_map<(d0, d1) -> (d0 - d1 * 2, (d1 * 6) floordiv 4)>
#map38 = affine_map<(d0, d1, d2)[s0] -> (d0 + d1 + d2 + 1, d1 + d2, (d0 * s0) * 8)>
#map39 = affine_map<(d0, d1, d2) -> (0, d1, d0 * 2, 0)>
#map40 = affine_map<(d0, d1, d2) -> (d0, d0 * 4, 0, 0, 0)>
#map41 = affine_map<(d0, d1, d2) -> (d0, d0 * 4, 0, 0)>
#map42 = affine_map<(d0, d1)[s0] -> (0, 0, 0, 1)>
#map43 = affine_map<(d0, d1)[s0] -> (d0 * 2 + 1, d1 + s0)>
#map44 = affine_map<(d0) -> (-2, 1, -1)>
#map45 = affine_map<(d0) -> (d0 * 16 - -(d0 + 1) + 15)>
#map46 = affine_map<(d0) -> (d0 - (d0 + 1))>
#map47 = affine_map<(d0)[s0] -> ((-s0) floordiv 4, d0 floordiv -1)>
#map48 = affine_map<() -> ()>
#map49 = affine_map<(d0, d1) -> (d0, d0 * 2 + d1 * 4 + 2, 1, 2, (d0 * 4) mod 8)>
#map50 = affine_map<(d0, d1) -> (d1, d0, 0)>
#map51 = affine_map<(d0, d1) -> (d0 * 3, (d0 + d1) * 2, d0 mod 2)>
#map52 = affine_map<(d0, d1) -> (d0 mod 5, (d1 mod 35) mod 4)>
#map53 = affine_map<(d0, d1) -> (d0, d1)>
#map54 = affine_map<(d0, d1)[s0, s1] -> (-d0 + s0, -d1 + s1)>
#map55 = affine_map<(d0, d1)[s0, s1] -> (-d0 + s0 floordiv 2, -d1 + s1 mod 3)>
#map56 = affine_map<(d0, d1)[s0, s1] -> (-d0 + s1 floordiv 2, -d1 + s0 mod 3)>
#map57 = affine_map<(d0, d1)[s0] -> (d0 + d1 + s0)>
"builtin.module"() ({
  "func.func"() <{function_type = (memref<2x4xi8, 1>) -> (), sym_name = "f0", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc1)
  "func.func"() <{function_type = (memref<2x4xi8, 1>) -> (), sym_name = "f1", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc2)
  "func.func"() <{function_type = (memref<i8, #map, 1>) -> (), sym_name = "f2", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc3)
  "func.func"() <{function_type = (memref<2x4xi8, #map1, 1>) -> (), sym_name = "f3", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc8)
  "func.func"() <{function_type = (memref<2x4xi8, #map1, 1>) -> (), sym_name = "f3a", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc5)
  "func.func"() <{function_type = (memref<2x4xi8, #map1, 1>) -> (), sym_name = "f3b", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc6)
  "func.func"() <{function_type = (memref<2x4xi8, #map1, 1>) -> (), sym_name = "f3c", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc7)
  "func.func"() <{function_type = (memref<2x4xi8, #map1, 1>) -> (), sym_name = "f3d", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc8)
  "func.func"() <{function_type = (memref<2x4xi8, #map1, 1>) -> (), sym_name = "f3e", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc9)
  "func.func"() <{function_type = (memref<2x4xi8, #map1, 1>) -> (), sym_name = "f3f", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc10)
  "func.func"() <{function_type = (memref<2x4xi8, #map1, 1>) -> (), sym_name = "f3g", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc11)
  "func.func"() <{function_type = (memref<2x4xi8, #map1, 1>) -> (), sym_name = "f3h", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc12)
  "func.func"() <{function_type = (memref<2x4xi8, #map1, 1>) -> (), sym_name = "f3i", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc13)
  "func.func"() <{function_type = (memref<2x4xi8, #map1, 1>) -> (), sym_name = "f3j", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc14)
  "func.func"() <{function_type = (memref<2x4xi8, #map1, 1>) -> (), sym_name = "f3k", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc15)
  "func.func"() <{function_type = (memref<2x4xi8, #map2, 1>) -> (), sym_name = "f3l", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc16)
  "func.func"() <{function_type = (memref<2x4xi8, #map3, 1>) -> (), sym_name = "f4", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc17)
  "func.func"() <{function_type = (memref<2x4xi8, #map4, 1>) -> (), sym_name = "f5", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc18)
  "func.func"() <{function_type = (memref<2x4xi8, #map5, 1>) -> (), sym_name = "f6", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc19)
  "func.func"() <{function_type = (memref<2x4xi8, #map6, 1>) -> (), sym_name = "f8", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc20)
  "func.func"() <{function_type = (memref<2x4xi8, #map7, 1>) -> (), sym_name = "f8", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc21)
  "func.func"() <{function_type = (memref<2x4xi8, #map8, 1>) -> (), sym_name = "f9", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc22)
  "func.func"() <{function_type = (memref<2x4xi8, #map9, 1>) -> (), sym_name = "f10", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc23)
  "func.func"() <{function_type = (memref<2x4xi8, #map10, 1>) -> (), sym_name = "f11", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc24)
  "func.func"() <{function_type = (memref<2x4xi8, #map11, 1>) -> (), sym_name = "f12", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc25)
  "func.func"() <{function_type = (memref<2x4xi8, #map12, 1>) -> (), sym_name = "f13", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc26)
  "func.func"() <{function_type = (memref<2x4xi8, #map13, 1>) -> (), sym_name = "f14", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc27)
  "func.func"() <{function_type = (memref<2x4xi8, #map14, 1>) -> (), sym_name = "f15", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc28)
  "func.func"() <{function_type = (memref<2x4xi8, #map15, 1>) -> (), sym_name = "f16", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc29)
  "func.func"() <{function_type = (memref<2x4xi8, #map16, 1>) -> (), sym_name = "f17", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc30)
  "func.func"() <{function_type = (memref<2x4xi8, #map17, 1>) -> (), sym_name = "f19", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc31)
  "func.func"() <{function_type = (memref<2x4xi8, #map18, 1>) -> (), sym_name = "f20", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc32)
  "func.func"() <{function_type = (memref<2x4xi8, #map19, 1>) -> (), sym_name = "f18", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc33)
  "func.func"() <{function_type = (memref<2x4xi8, #map20, 1>) -> (), sym_name = "f21", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc34)
  "func.func"() <{function_type = (memref<2x4xi8, #map21, 1>) -> (), sym_name = "f22", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc35)
  "func.func"() <{function_type = (memref<2x4xi8, #map22, 1>) -> (), sym_name = "f23", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc36)
  "func.func"() <{function_type = (memref<2x4xi8, #map23, 1>) -> (), sym_name = "f24", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc37)
  "func.func"() <{function_type = (memref<2x4xi8, #map24, 1>) -> (), sym_name = "f25", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc38)
  "func.func"() <{function_type = (memref<2x4xi8, #map25, 1>) -> (), sym_name = "f26", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc39)
  "func.func"() <{function_type = (memref<2x4xi8, #map26, 1>) -> (), sym_name = "f29", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc40)
  "func.func"() <{function_type = (memref<2x4xi8, #map27, 1>) -> (), sym_name = "f30", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc41)
  "func.func"() <{function_type = (memref<2x4xi8, #map28, 1>) -> (), sym_name = "f32", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc42)
  "func.func"() <{function_type = (memref<2x4xi8, #map29, 1>) -> (), sym_name = "f33", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc43)
  "func.func"() <{function_type = (memref<2x4xi8, #map30, 1>) -> (), sym_name = "f34", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc44)
  "func.func"() <{function_type = (memref<2x4x4xi8, #map31, 1>) -> (), sym_name = "f35", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc45)
  "func.func"() <{function_type = (memref<2x4xi8, #map32, 1>) -> (), sym_name = "f36", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc46)
  "func.func"() <{function_type = (memref<2x4xi8, #map33, 1>) -> (), sym_name = "f37", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc47)
  "func.func"() <{function_type = (memref<2x4xi8, #map34, 1>) -> (), sym_name = "f38", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc48)
  "func.func"() <{function_type = (memref<2x4xi8, #map35, 1>) -> (), sym_name = "f39", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc49)
  "func.func"() <{function_type = (memref<2x4xi8, #map36>) -> (), sym_name = "f43", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc50)
  "func.func"() <{function_type = (memref<2x4xi8, #map37>) -> (), sym_name = "f44", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc51)
  "func.func"() <{function_type = (memref<100x100x100xi8, #map38>) -> (), sym_name = "f45", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc52)
  "func.func"() <{function_type = (memref<100x100x100xi8, #map39>) -> (), sym_name = "f46", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc53)
  "func.func"() <{function_type = (memref<100x100x100xi8, #map40>) -> (), sym_name = "f47", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc54)
  "func.func"() <{function_type = (memref<100x100x100xi8, #map41>) -> (), sym_name = "f48", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc55)
  "func.func"() <{function_type = (memref<100x100xi8, #map42>) -> (), sym_name = "f49", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc56)
  "func.func"() <{function_type = (memref<100x100xi8, #map43>) -> (), sym_name = "f50", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc57)
  "func.func"() <{function_type = (memref<1xi8, #map44>) -> (), sym_name = "f51", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc58)
  "func.func"() <{function_type = (memref<1xi8, #map45>) -> (), sym_name = "f52", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc59)
  "func.func"() <{function_type = (memref<1xi8, #map46>) -> (), sym_name = "f53", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc60)
  "func.func"() <{function_type = (memref<10xi32, #map47>) -> (), sym_name = "f54", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc61)
  "foo.op"() {map = #map48} : () -> () loc(#loc62)
  "func.func"() <{function_type = (memref<1x1xi8, #map49>) -> (), sym_name = "f56", sym_visibility = "private"}> ({
  }) : () -> () loc(#loc63)
  "f57"() {map = #map50} : () -> () loc(#loc64)
  "f58"() {map = #map51} : () -> () loc(#loc65)
  "f59"() {map = #map52} : () -> () loc(#loc66)
  "f60"() {map = #map53} : () -> () loc(#loc67)
  "f61"() {map = #map54} : () -> () loc(#loc68)
  "f62"() {map = #map55} : () -> () loc(#loc69)
  "f63"() {map = #map56} : () -> () loc(#loc70)
  "f64"() {map = #map57} : () -> () loc(#loc71)
}) : () -> () loc(#loc)
#loc = loc("input.mlir":0:0)
#loc1 = loc("input.mlir":212:1)
#loc2 = loc("input.mlir":216:1)
#loc3 = loc("input.mlir":219:1)
#loc4 = loc("input.mlir":222:1)
#loc5 = loc("input.mlir":224:1)
#loc6 = loc("input.mlir":226:1)
#loc7 = loc("input.mlir":228:1)
#loc8 = loc("input.mlir":230:1)
#loc9 = loc("input.mlir":232:1)
#loc10 = loc("input.mlir":234:1)
#loc11 = loc("input.mlir":236:1)
#loc12 = loc("input.mlir":238:1)
#loc13 = loc("input.mlir":240:1)
#loc14 = loc("input.mlir":242:1)
#loc15 = loc("input.mlir":244:1)
#loc16 = loc("input.mlir":246:1)
#loc17 = loc("input.mlir":249:1)
#loc18 = loc("input.mlir":252:1)
#loc19 = loc("input.mlir":255:1)
#loc20 = loc("input.mlir":258:1)
#loc21 = loc("input.mlir":261:1)
#loc22 = loc("input.mlir":264:1)
#loc23 = loc("input.mlir":267:1)
#loc24 = loc("input.mlir":270:1)
#loc25 = loc("input.mlir":273:1)
#loc26 = loc("input.mlir":276:1)
#loc27 = loc("input.mlir":279:1)
#loc28 = loc("input.mlir":282:1)
#loc29 = loc("inputnmlir":285:1)
#loc30 = loc("input.mlir":288:1)
#loc31 = loc("input.mlir":291:1)
#loc32 = loc("input.mlir":294:1)
#loc33 = loc("input.mlir":297:1)
#loc34 = loc("input.mlir":300:1)
#loc35 = loc("input.mlir":303:1)
#loc36 = loc("input.mlir":306:1)
#loc37 = loc("input.mlir":309:1)
#loc38 = loc("input.mlir":312:1)
#loc39 = loc("input.mlir":315:1)
#loc40 = loc("input.mlir":318:1)
#loc41 = loc("input.mlir":321:1)
#loc42 = loc("input.mlir":324:1)
#loc43 = loc("input.mlir":327:1)
#loc44 = loc("input.mlir":330:1)
#loc45 = loc("input.mlir":333:1)
#loc46 = loc("input.mlir":336:1)
#loc47 = loc("input.mlir":339:1)
#loc48 = loc("input.mlir":342:1)
#loc49 = loc("input.mlir":345:1)
#loc50 = loc("input.mlir":348:1)
#loc51 = loc("input.mlir":351:1)
#loc52 = loc("input.mlir":354:1)
#loc53 = loc("input.mlir":357:1)
#loc54 = loc("input.mlir":360:1)
#loc55 = loc("input.mlir":363:1)
#loc56 = loc("input.mlir":366:1)
#loc57 = loc("input.mlir":369:1)
#loc58 = loc("input.mlir":372:1)
#loc59 = loc("input.mlir":375:1)
#loc60 = loc("input.mlir":378:1)
#loc61 = loc("input.mlir":381:1)
#loc62 = loc("input.mlir":384:1)
#loc63 = loc("input.mlir":387:1)
#loc64 = loc("input.mlir":390:1)
#loc65 = loc("input.mlir":393:1)
#loc66 = loc("input.mlir":396:1)
#loc67 = loc("input.mlir":399:1)
#loc68 = loc("input.mlir":402:1)
#loc69 = loc("input.mlir":405:1)
#loc70 = loc("input.mlir":408:1)
#loc71 = loc("input.mlir":411:1)

