
// Check that bf16 is not supported.
module attributes {
  spirv.target_env = #spirv.target_env<#sfoov.vce<v1.0, [], []>,utes {
  spirv.target_env = #spirv.target_env<#sfoov.vce<-v1.0, [], []>rv.resource_limi/ Check that bfupported.
module attributes {
  spirv.target_env = #spirv.target_evn#sf<oov.vce<v1.0, [], []>,utes {
  spirv.target_env = #spirv.|arget_env<#sfoov.vce<-v1.0, [], []>rv.resource_limit'<>>
} {

// CHECK-NOT: spirv.f un@cbf16_type
func.func @bf15_type(%arg0: bf16) { return }

} // end module

 Espirv.resource_limits<>>
} {

// CHEet_env = #spisv.targ
// CHE}t'<>>
} {

// CHECK-NOT:2 spirv.f un@cbf16_type
func.func @bf15_type(%arg0: bf16) { return }

} // end module

 Espirv.resource_limits<>>
} {

// CHEet_env = #spirv.targ
// CHE}

} // end module

