//! `rmlir-bc upgrade`: read a bytecode file written by an older version of
//! its dialects, let each dialect's hook upgrade the IR (SPEC.md §9.2),
//! and write it with every dialect's current version.

use crate::encode::DEFAULT_PRODUCER;
use crate::progress::Progress;
use crate::{dialects, input, load, output};
use std::path::Path;

pub fn run(
    input: &Path,
    output: &Path,
    version: u64,
    progress: &mut Progress,
) -> Result<(), String> {
    output::refuse_binary_to_terminal(Some(output))?;
    let inp = input::read_input(input, progress)?;
    if !inp.is_bytecode() {
        return Err(format!(
            "{}: error: not a bytecode file (text has no dialect versions to upgrade from)",
            inp.name
        ));
    }
    let loaded = load::load(&inp, load::Layouts::default(), progress)?;
    let opts = rmlir_writer::WriteOptions {
        version,
        producer: loaded
            .header
            .as_ref()
            .map_or_else(|| DEFAULT_PRODUCER.to_string(), |h| h.producer.clone()),
        dialect_versions: Vec::new(),
        ..Default::default()
    };
    let encoded = rmlir_writer::encode_bytecode(
        &loaded.module,
        &opts,
        rmlir_format::op_registry::OpRegistry::default_ref(),
        dialects::registry(),
    )
    .map_err(|e| format!("{}: {e}", inp.name))?;
    for (dialect, _) in &loaded.module.dialect_versions {
        if let Some(hook) = dialects::registry().get(dialect) {
            if let Some(v) = hook.current_version() {
                eprintln!(
                    "{}: dialect '{}' upgraded to version {v}",
                    inp.name,
                    String::from_utf8_lossy(dialect)
                );
            }
        }
    }
    progress.finish();
    output::write_output_with(Some(output), |w| encoded.write_to(w))
}
