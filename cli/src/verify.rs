//! `rmlir-bc verify`: read everything (every lazily loaded region is
//! materialized) and check the structure of the IR without dialect
//! knowledge (SPEC.md §8.3). Exit status 0 when valid, 1 when not.

use crate::progress::Progress;
use crate::{input, load, output};
use rmlir_format::op_registry::OpRegistry;
use rmlir_format::verify::{verify, Diagnostic};
use rmlir_format::{AttrData, AttrId, Module};
use std::path::Path;
use std::process::ExitCode;

/// Diagnostics beyond this many are counted, not printed.
pub const MAX_SHOWN: usize = 20;

/// `file:line:col` of the first file location inside `loc`, if any.
pub fn file_position(m: &Module, loc: AttrId) -> Option<String> {
    let mut stack = vec![loc];
    let mut steps = 0;
    while let Some(l) = stack.pop() {
        steps += 1;
        if steps > 64 {
            return None;
        }
        match m.ctx.attr(l) {
            AttrData::FileLineCol { file, line, col } => {
                return Some(format!("{}:{line}:{col}", String::from_utf8_lossy(file)))
            }
            AttrData::FileLineColRange(r) => {
                return Some(format!(
                    "{}:{}:{}",
                    String::from_utf8_lossy(&r.file),
                    r.start_line,
                    r.start_col.unwrap_or(0)
                ))
            }
            AttrData::NameLoc { child, .. } => stack.push(*child),
            AttrData::CallSiteLoc { callee, .. } => stack.push(*callee),
            AttrData::FusedLoc { locations, .. } => stack.extend(locations.iter().rev()),
            _ => {}
        }
    }
    None
}

/// A compiler-style line: `file:line:col: error: 'op' op message`, or the
/// input's name and the op's position in walk order when it has no file
/// location.
pub fn render(m: &Module, input_name: &str, d: &Diagnostic) -> String {
    match d.op.filter(|op| op.index() < m.ops.len()) {
        Some(op) => {
            let name = String::from_utf8_lossy(m.op_name(op));
            match file_position(m, m.op(op).loc) {
                Some(pos) => format!("{pos}: error: '{name}' op {}", d.message),
                None => format!(
                    "{input_name}: error: '{name}' op (operation #{}) {}",
                    op.0, d.message
                ),
            }
        }
        None => format!("{input_name}: error: {}", d.message),
    }
}

/// Prints the diagnostics (standard error) or a summary line (standard
/// output, unless `quiet`); exit status 1 when invalid.
pub fn run(
    input: &Path,
    quiet: bool,
    layouts: load::Layouts,
    progress: &mut Progress,
) -> Result<ExitCode, String> {
    let inp = input::read_input(input, progress)?;
    let loaded = load::load_for_checking(&inp, layouts, progress)?;
    let registry = OpRegistry::default_ref();
    let (summary, diags) = verify(&loaded.module, registry, &mut |what, done, total| {
        progress.items(what, done, || total)
    });
    progress.finish();
    if !diags.is_empty() {
        for d in diags.iter().take(MAX_SHOWN) {
            eprintln!("{}", render(&loaded.module, &inp.name, d));
        }
        if diags.len() > MAX_SHOWN {
            eprintln!(
                "{}: note: {} more errors not shown",
                inp.name,
                diags.len() - MAX_SHOWN
            );
        }
        eprintln!(
            "{}: invalid: {} error{}",
            inp.name,
            diags.len(),
            if diags.len() == 1 { "" } else { "s" }
        );
        return Ok(ExitCode::from(1));
    }
    if !quiet {
        let form = match &loaded.header {
            Some(h) => format!("bytecode v{} (producer \"{}\")", h.version, h.producer),
            None => "generic text".to_string(),
        };
        let zst = if inp.compressed_bytes.is_some() {
            ", zstd-compressed"
        } else {
            ""
        };
        let text = format!(
            "{}: valid: {form}{zst}; {} operations, {} regions, {} blocks, {} values; {} lazily loaded bodies materialized\n",
            inp.name,
            summary.ops,
            summary.regions,
            summary.blocks,
            summary.values,
            loaded.bodies_materialized
        );
        let text = format!("{text}{}", not_checked(&inp.name, &loaded.undecoded));
        output::write_output(None, text.as_bytes())?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The line saying what `verify` read past (SPEC.md §8.6): properties
/// payloads no layout we have decodes (checked to exist, not read) and
/// custom entries no dialect encoding we have decodes. Empty when
/// everything was decoded.
fn not_checked(name: &str, u: &rmlir_reader::Undecoded) -> String {
    if u.is_empty() {
        return String::new();
    }
    let lossy = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    let mut parts = Vec::new();
    if !u.properties.is_empty() {
        let n: usize = u.properties.values().sum();
        let names: Vec<String> = u.properties.keys().map(|k| lossy(k)).collect();
        parts.push(format!(
            "the properties of {n} operations ({}: no op layouts we have)",
            names.join(", ")
        ));
    }
    for (what, map) in [("attribute", &u.attrs), ("type", &u.types)] {
        for (d, n) in map {
            parts.push(format!(
                "{n} custom {what} entries of dialect '{}' (no encodings we have)",
                lossy(d)
            ));
        }
    }
    format!("{name}: not checked: {}\n", parts.join("; "))
}
