//! `rmlir-bc decode`: any input to mlir-opt's generic text.

use crate::progress::Progress;
use crate::{input, load, output};
use std::path::Path;

/// How `decode` prints: with or without aliases, in the generic or the
/// custom form.
#[derive(Clone, Copy, Debug, Default)]
pub struct Form {
    /// `--local-scope`.
    pub local_scope: bool,
    /// `--custom`.
    pub custom: bool,
}

pub fn run(
    input: &Path,
    output: Option<&Path>,
    Form {
        local_scope,
        custom,
    }: Form,
    max_output_bytes: Option<u64>,
    layouts: load::Layouts,
    progress: &mut Progress,
) -> Result<(), String> {
    let inp = input::read_input(input, progress)?;
    let name = inp.name.clone();
    let max_output_bytes =
        max_output_bytes.unwrap_or_else(|| default_max_output(inp.data().len() as u64));
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
        custom,
        max_output_bytes: Some(max_output_bytes),
        host: Some(loaded.host),
        ..Default::default()
    };
    // Printed straight into the output file in ~1 MB pieces: the text
    // (often 7x the bytecode) is never held whole. A print over the limit
    // fails before its first byte, so the output is left as it was.
    let mut too_large = None;
    let result = output::write_output_with(output, |w| {
        let r = rmlir_writer::print_module_to(&loaded.module, opts, w);
        if let Err(e) = &r {
            too_large = e
                .get_ref()
                .and_then(|e| e.downcast_ref::<rmlir_writer::OutputTooLarge>())
                .cloned();
        }
        r
    });
    progress.finish();
    crate::exit_without_freeing(loaded);
    match too_large {
        Some(e) => Err(format!(
            "{name}: error: {e} (--max-output-bytes raises the limit)"
        )),
        None => result,
    }
}

/// `--max-output-bytes` when not given: 256 MiB plus 256 bytes for each
/// byte of input. Real modules print at well under 64 bytes per input
/// byte (dense `i1` elements, the densest, at 56 per packed byte).
fn default_max_output(input_bytes: u64) -> u64 {
    (256 << 20) + input_bytes.saturating_mul(256)
}
