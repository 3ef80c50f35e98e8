func.func @f(%a: tensor<f32>) {
  %0 = stablehlo.reduce(%a init: %b) across dimensions = [] : (tensor<f32>, tensor<f32>) -> tensor<f32>
   reducer(%b: tensor<f32>, %c: tensor<f32>) {
    stablehlo.return %b : tensor<f32>
  }
  return
}
