//! The reading core every command shares: text or bytecode, told apart by
//! the bytecode magic (after zstd decompression, see `input.rs`).

use crate::input::Input;
use crate::progress::Progress;
use rmlir_dialects::hosts::{self, Host};
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
    /// The tool whose terms it was read in (SPEC.md §7.4): the one
    /// `--target` names, else, for bytecode, that of the release whose
    /// layouts read it (`Host::for_producer`, or `--layouts`).
    pub host: &'static Host,
    /// `None` for text input.
    pub header: Option<BytecodeHeader>,
    /// Lazily loaded region groups that were materialized.
    pub bodies_materialized: usize,
    /// What [`load_for_checking`] read past.
    pub undecoded: rmlir_reader::Undecoded,
}

/// Parses `--layouts`: `auto` (from the producer string) or a release we
/// have layouts for (`mlir-19`, `19`, `22.1.8`).
pub fn parse_layouts(s: &str) -> Result<Layouts, String> {
    if s == "auto" {
        return Ok(Layouts::default());
    }
    OpRegistry::for_release(s)
        .map(|r| Layouts {
            given: Some(r),
            terms: None,
        })
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

/// Which op layouts decode bytecode properties (`--layouts`), and the
/// release whose terms the module is read into.
#[derive(Clone, Copy, Debug, Default)]
pub struct Layouts {
    /// `--layouts`; `None` picks them from the producer string.
    pub given: Option<&'static OpRegistry>,
    /// The tool (and its MLIR release) whose terms the module is read in
    /// (`--target` of `encode` and `convert`); `None` is mlir-opt 22.
    pub terms: Option<&'static Host>,
}

impl Layouts {
    /// With no `--target`, a bytecode file is read in the terms of the
    /// tool of the release whose layouts read it (SPEC.md §7.4): the
    /// release `--layouts` names, or the one its producer string picks.
    pub fn with_terms_of(self, data: &[u8]) -> Layouts {
        if self.terms.is_some() {
            return self;
        }
        let host = match self.given {
            Some(_) => self.given_release_host(),
            None => rmlir_reader::producer_of(data).ok().map(Host::for_producer),
        };
        Layouts {
            terms: host,
            ..self
        }
    }

    /// The tool whose terms a text file is read in: `--target`'s, else
    /// that of the release `--layouts` names (`mlir-23`: jaxlib's, so that
    /// `decode --custom` prints JAX's StableHLO text as jaxlib does), else
    /// mlir-opt 22 (text has no producer string to pick one by).
    pub fn text_terms(self) -> &'static Host {
        self.terms
            .or_else(|| self.given_release_host())
            .unwrap_or(&hosts::MLIR_OPT_22)
    }

    /// The tool of the release `--layouts` names, if it names one that
    /// a tool we know carries.
    fn given_release_host(self) -> Option<&'static Host> {
        self.given
            .and_then(|r| r.release_major())
            .and_then(Host::for_release)
    }

    pub fn read_options(self) -> ReadOptions {
        ReadOptions {
            layouts: self.given,
            host: self.terms,
            dialects: Some(crate::dialects::registry()),
            out_of_tree: Some(crate::dialects::out_of_tree_layouts),
            ..Default::default()
        }
    }
}

/// Reads the whole module, materializing every lazily loaded region.
pub fn load(inp: &Input, layouts: Layouts, progress: &mut Progress) -> Result<Loaded, String> {
    load_with(inp, layouts, false, progress)
}

/// [`load`] for checking the structure (`verify`): what no layout or
/// encoding we have decodes is read past and counted in
/// [`Loaded::undecoded`] (`ReadOptions::skip_unknown`).
pub fn load_for_checking(
    inp: &Input,
    layouts: Layouts,
    progress: &mut Progress,
) -> Result<Loaded, String> {
    load_with(inp, layouts, true, progress)
}

fn load_with(
    inp: &Input,
    layouts: Layouts,
    skip_unknown: bool,
    progress: &mut Progress,
) -> Result<Loaded, String> {
    if !inp.is_bytecode() {
        progress.phase("parsing text");
        let host = layouts.text_terms();
        let module = rmlir_reader::parse_module_in_release(
            inp.data(),
            &inp.name,
            rmlir_reader::Limits::default(),
            Some(crate::dialects::registry()),
            host,
            &inp.releaser(),
        )
        .map_err(|e| e.to_string())?;
        return Ok(Loaded {
            module,
            host,
            header: None,
            bodies_materialized: 0,
            undecoded: Default::default(),
        });
    }
    let at = |e: rmlir_reader::Error| format!("{}: {e}", inp.name);
    let layouts = layouts.with_terms_of((*inp.bytes).as_ref());
    let opts = rmlir_reader::ReadOptions {
        skip_unknown,
        ..layouts.read_options()
    };
    let mut r = BytecodeReader::open_shared_with_options(&inp.bytes, &opts).map_err(at)?;
    let header = BytecodeHeader {
        version: r.version(),
        producer: String::from_utf8_lossy(r.producer()).into_owned(),
        layouts_release: r.layouts_release().0.to_string(),
    };
    materialize_all(&mut r, progress).map_err(at)?;
    let bodies_materialized = r.stats().lazy_bodies_decoded;
    let undecoded = r.undecoded().clone();
    Ok(Loaded {
        host: layouts.terms.unwrap_or(&hosts::MLIR_OPT_22),
        module: r.into_module(),
        header: Some(header),
        bodies_materialized,
        undecoded,
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
