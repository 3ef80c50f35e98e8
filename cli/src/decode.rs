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
    /// `--no-generic-fallback`: with `custom`, refuse a module holding an
    /// op whose custom printer we lack.
    pub no_generic_fallback: bool,
}

pub fn run(
    input: &Path,
    output: Option<&Path>,
    Form {
        local_scope,
        custom,
        no_generic_fallback,
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
    if custom && no_generic_fallback {
        let unported = rmlir_writer::unported_custom_ops(&loaded.module, Some(loaded.host));
        if !unported.is_empty() {
            progress.finish();
            return Err(unported_error(&name, &loaded.module, &unported));
        }
    }
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

/// The refusal of `--no-generic-fallback`: how many ops, of which names
/// (most frequent first), and what would print the module.
fn unported_error(name: &str, m: &rmlir_format::Module, ops: &[rmlir_format::OpId]) -> String {
    let mut counts: Vec<(&[u8], usize)> = Vec::new();
    for &op in ops {
        let n = m.op_name(op);
        match counts.iter_mut().find(|(k, _)| *k == n) {
            Some((_, c)) => *c += 1,
            None => counts.push((n, 1)),
        }
    }
    counts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let listed: Vec<String> = counts
        .iter()
        .take(8)
        .map(|(n, c)| format!("`{}` ({c})", String::from_utf8_lossy(n)))
        .collect();
    let more = if counts.len() > 8 {
        format!(" and {} more kinds", counts.len() - 8)
    } else {
        String::new()
    };
    let (what, have, they) = if ops.len() == 1 {
        ("op", "has", "it prints")
    } else {
        ("ops", "have", "they print")
    };
    format!(
        "{name}: error: {} {what} {have} a custom form mlir-opt prints that we do not: {}{more}; without --no-generic-fallback {they} in the generic form, which reads back as the same IR",
        ops.len(),
        listed.join(", ")
    )
}

/// `--max-output-bytes` when not given: 256 MiB plus 256 bytes for each
/// byte of input. Real modules print at well under 64 bytes per input
/// byte (dense `i1` elements, the densest, at 56 per packed byte).
fn default_max_output(input_bytes: u64) -> u64 {
    (256 << 20) + input_bytes.saturating_mul(256)
}
