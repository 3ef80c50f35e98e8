//! The reading core every command shares: text or bytecode, told apart by
//! the bytecode magic (after zstd decompression, see `input.rs`).

use crate::input::Input;
use crate::progress::Progress;
use rmlir_format::op_registry::OpRegistry;
use rmlir_format::Module;
use rmlir_reader::{BytecodeReader, ReadOptions};

/// What a bytecode input's header said.
pub struct BytecodeHeader {
    pub version: u64,
    pub producer: String,
    /// The MLIR release whose op layouts decoded its properties.
    pub layouts_release: String,
}

pub struct Loaded {
    pub module: Module,
    /// `None` for text input.
    pub header: Option<BytecodeHeader>,
    /// Lazily loaded region groups that were materialized.
    pub bodies_materialized: usize,
}

/// Parses `--layouts`: `auto` (from the producer string) or a release we
/// have layouts for (`mlir-19`, `19`, `22.1.8`).
pub fn parse_layouts(s: &str) -> Result<Layouts, String> {
    if s == "auto" {
        return Ok(Layouts(None));
    }
    OpRegistry::for_release(s)
        .map(|r| Layouts(Some(r)))
        .ok_or_else(|| {
            format!(
                "no op layouts for MLIR release '{s}'; known: auto, {}",
                OpRegistry::known_releases()
                    .iter()
                    .map(|r| format!("mlir-{}", r.split('.').next().unwrap_or(r)))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
}

/// Which op layouts decode bytecode properties (`--layouts`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Layouts(pub Option<&'static OpRegistry>);

impl Layouts {
    pub fn read_options(self) -> ReadOptions {
        ReadOptions {
            layouts: self.0,
            dialects: Some(crate::dialects::registry()),
            out_of_tree: Some(crate::dialects::out_of_tree_layouts),
            ..Default::default()
        }
    }
}

/// Reads the whole module, materializing every lazily loaded region.
pub fn load(inp: &Input, layouts: Layouts, progress: &mut Progress) -> Result<Loaded, String> {
    if !inp.is_bytecode() {
        progress.phase("parsing text");
        let module = rmlir_reader::parse_module_releasing_deferred_with(
            inp.data(),
            &inp.name,
            rmlir_reader::Limits::default(),
            Some(crate::dialects::registry()),
            &inp.releaser(),
        )
        .map_err(|e| e.to_string())?;
        return Ok(Loaded {
            module,
            header: None,
            bodies_materialized: 0,
        });
    }
    let at = |e: rmlir_reader::Error| format!("{}: {e}", inp.name);
    let mut r = BytecodeReader::open_shared_with_options(&inp.bytes, &layouts.read_options())
        .map_err(at)?;
    let header = BytecodeHeader {
        version: r.version(),
        producer: String::from_utf8_lossy(r.producer()).into_owned(),
        layouts_release: r.layouts_release().0.to_string(),
    };
    materialize_all(&mut r, progress).map_err(at)?;
    let bodies_materialized = r.stats().lazy_bodies_decoded;
    Ok(Loaded {
        module: r.into_module(),
        header: Some(header),
        bodies_materialized,
    })
}

/// `BytecodeReader::materialize_all`, one body at a time so the progress
/// bar can count them (materializing a body may reveal nested ones); or,
/// where the bodies are large enough to pay for it, on all cores at once
/// (SPEC.md §6.7.6), shown as one phase.
pub fn materialize_all(
    r: &mut BytecodeReader<'_>,
    progress: &mut Progress,
) -> rmlir_reader::Result<()> {
    r.reserve_for_full_read();
    if r.parallel_parts() > 1 {
        progress.phase("materializing regions");
        r.materialize_all_parallel()?;
        return Ok(());
    }
    let mut done = 0;
    loop {
        let next = r.pending().next();
        let Some(op) = next else { break };
        r.materialize(op)?;
        done += 1;
        progress.items("materializing regions", done, || done + r.pending().count());
    }
    Ok(())
}
