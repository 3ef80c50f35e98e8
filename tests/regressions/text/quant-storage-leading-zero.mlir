"builtin.module"() ({
  "test.op"() {t = !quant.uniform<i08:f32, 1.0>, u = !quant.uniform<u008:f32, 1.0>, v = !quant.uniform<i8<-008:0127>:f32, 1.0>} : () -> ()
}) : () -> ()
