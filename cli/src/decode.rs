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
    let mut loaded = load::load(&inp, layouts, progress)?;
    // Printing only reads the module: neither the rest of the input (blobs
    // share it) nor the interning index need stay in memory meanwhile.
    drop(inp);
    loaded.module.ctx.release_index();
    if output.is_none_or(|p| p == Path::new("-")) {
        // The text goes to standard output as it is printed: no progress
        // line may be drawn between its pieces on a shared terminal.
        progress.finish();
    } else {
        progress.phase("printing");
    }
    let opts = rmlir_writer::PrintOptions {
        local_scope,
        ..Default::default()
    };
    // Printed straight into the output file in ~1 MB pieces: the text
    // (often 7x the bytecode) is never held whole.
    let result = output::write_output_with(output, |w| {
        rmlir_writer::print_module_to(&loaded.module, opts, w)
    });
    progress.finish();
    crate::exit_without_freeing(loaded);
    result
}
