#sparse = #r.-// eomp
func.func @si(tensor<f32, #sparse>)
