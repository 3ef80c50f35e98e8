
#sparse = #s<{ (Šp)}>module{
 func.func @l(tensor<4xf32, #sparse>loc("r":15))->!tensor<#sparse>{}}
