//! `rmlir-bc decode`: any input to mlir-opt's generic text.

use crate::progress::Progress;
use crate::{input, load, output};
use std::path::Path;

pub fn run(
    input: &Path,
    output: Option<&Path>,
    local_scope: bool,
    layouts: load::Layouts,
    progress: &mut Progress,
) -> Result<(), String> {
    let inp = input::read_input(input, progress)?;
    let loaded = load::load(&inp, layouts, progress)?;
    progress.phase("printing");
    let text =
        rmlir_writer::print_module(&loaded.module, rmlir_writer::PrintOptions { local_scope });
    progress.finish();
    output::write_output(output, text.as_bytes())
}
