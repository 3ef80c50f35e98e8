"builtin.module"() ({
  %0 = "foo"() : () -> !quant.uniform<u8:f32, 0X49646ABBA0000000:128>
  %1 = "foo"() : () -> !quant.uniform<u8:f32, 0x49646ABBA0000000:128>
}) : () -> ()
