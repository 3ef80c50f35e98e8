//! Nested dialect attributes printed "stripped" (SPEC.md §2.4) in the two
//! forms the text parser has to recognise beyond `name = <…>`: the first
//! positional parameter of a sparse_tensor type, and the further elements
//! of a list-valued llvm parameter. Our prints of mlir-opt's generic text
//! (with aliases, and in local scope) must equal mlir-opt's, and reading
//! either back must give the same IR. Needs mlir-opt 22.

use rmlir_tests::{first_diff, oracle};
use rmlir_writer::{print_module, PrintOptions};

const SRC: &str = r#"
#csr = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#coo = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton(soa)) }>
#ag = #llvm.access_group<id = distinct[0]<>>
#ag2 = #llvm.access_group<id = distinct[1]<>>
#ag3 = #llvm.access_group<id = distinct[2]<>>
#la = #llvm.loop_annotation<mustProgress = true, parallelAccesses = #ag, #ag2, #ag3>
#la2 = #llvm.loop_annotation<parallelAccesses = #ag3>
module attributes {t.a = [#la, #la2]} {
  func.func @f(%t: tensor<4x8xf32, #coo>, %it: !sparse_tensor.iterator<#coo, lvls = 0>)
      -> (!sparse_tensor.iter_space<#coo, lvls = 1>, !sparse_tensor.iter_space<#csr, lvls = 0 to 2>) {
    %0 = sparse_tensor.extract_iteration_space %t at %it lvls = 1 : tensor<4x8xf32, #coo>, !sparse_tensor.iterator<#coo, lvls = 0> -> !sparse_tensor.iter_space<#coo, lvls = 1>
    %c = "t.c"() : () -> tensor<4x8xf32, #csr>
    %1 = sparse_tensor.extract_iteration_space %c lvls = 0 to 2 : tensor<4x8xf32, #csr> -> !sparse_tensor.iter_space<#csr, lvls = 0 to 2>
    return %0, %1 : !sparse_tensor.iter_space<#coo, lvls = 1>, !sparse_tensor.iter_space<#csr, lvls = 0 to 2>
  }
}
"#;

fn mlir_opt(path: &std::path::Path, local: bool) -> String {
    let mut args = vec![
        "--allow-unregistered-dialect",
        "--mlir-print-op-generic",
        "--mlir-print-debuginfo",
    ];
    if local {
        args.push("--mlir-print-local-scope");
    }
    args.push(path.to_str().unwrap());
    String::from_utf8(oracle::run(&args).unwrap_or_else(|e| panic!("mlir-opt: {e}"))).unwrap()
}

#[test]
fn positional_and_list_stripped_parameters_print_like_mlir_opt() {
    let dir = std::env::temp_dir().join(format!("rmlir-stripped-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("in.mlir");
    std::fs::write(&input, SRC).unwrap();
    let generic = mlir_opt(&input, false);
    let local = mlir_opt(&input, true);
    let _ = std::fs::remove_dir_all(&dir);
    for (name, text) in [("generic", &generic), ("local", &local)] {
        let m = rmlir_reader::parse_module(text.as_bytes(), "in.mlir")
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let ours = print_module(&m, PrintOptions::default());
        assert!(
            ours == generic,
            "{name} -> generic: {}",
            first_diff(&generic, &ours)
        );
        let ours = print_module(
            &m,
            PrintOptions {
                local_scope: true,
                ..Default::default()
            },
        );
        assert!(
            ours == local,
            "{name} -> local: {}",
            first_diff(&local, &ours)
        );
    }
}
