//! `rmlir-bc info`: what a bytecode file holds, read lazily — the tables
//! and the top-level symbols, never the bodies of functions.

use crate::input::{self, Input};
use crate::load::Layouts;
use crate::output;
use crate::progress::Progress;
use rmlir_format::{AttrData, Module, OpId, ResourceValue};
use rmlir_reader::{BytecodeReader, LayoutsChoice};
use serde::Serialize;
use std::path::Path;

#[derive(Serialize)]
pub struct Info {
    pub version: u64,
    pub producer: String,
    /// The MLIR release whose op layouts decode the properties, and why:
    /// `producer` (named by the producer string), `default`, `given`.
    pub layouts: String,
    pub layouts_from: &'static str,
    /// Size of the bytecode (after decompression, for a zstd input).
    pub file_bytes: usize,
    /// Size on disk when the input was a zstd frame.
    pub zstd_compressed_bytes: Option<usize>,
    pub sections: Vec<SectionJson>,
    pub dialects: Vec<DialectJson>,
    pub strings: usize,
    pub attributes: usize,
    pub types: usize,
    pub op_names: Vec<String>,
    pub resources: Vec<ResourceJson>,
    pub top_level: Vec<SymbolJson>,
    /// Region bodies decoded to produce this report (the module body only).
    pub region_bodies_decoded: usize,
    /// Bodies below the top op (functions, …) decoded: always 0, `info`
    /// never decodes a function body.
    pub nested_bodies_decoded: usize,
    /// Isolated bodies (functions, …) left undecoded.
    pub region_bodies_pending: usize,
}

#[derive(Serialize)]
pub struct SectionJson {
    pub name: &'static str,
    pub id: u8,
    pub offset: usize,
    pub bytes: usize,
    pub alignment: u64,
}

#[derive(Serialize)]
pub struct DialectJson {
    pub name: String,
    /// The dialect's version payload in hex, when it wrote one.
    pub version: Option<String>,
}

#[derive(Serialize)]
pub struct ResourceJson {
    pub group: String,
    pub external: bool,
    pub key: String,
    pub kind: &'static str,
    pub bytes: usize,
    pub alignment: Option<u32>,
}

#[derive(Serialize)]
pub struct SymbolJson {
    pub op: String,
    pub symbol: Option<String>,
}

fn lossy(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn symbol_of(m: &Module, op: OpId) -> Option<String> {
    let o = m.op(op);
    [o.properties, Some(o.attributes)]
        .into_iter()
        .flatten()
        .find_map(|d| match m.ctx.attr(d) {
            AttrData::Dictionary(entries) => entries
                .iter()
                .find(|(k, _)| &**k == b"sym_name")
                .and_then(|(_, v)| match m.ctx.attr(*v) {
                    AttrData::String { value, .. } => Some(lossy(value)),
                    _ => None,
                }),
            _ => None,
        })
}

pub fn collect(input: &Input, layouts: Layouts) -> Result<Info, String> {
    let mut r = BytecodeReader::open_shared_with_options(&input.bytes, &layouts.read_options())
        .map_err(|e| format!("{}: {e}", input.name))?;
    let top = r
        .module()
        .top
        .ok_or_else(|| format!("{}: no top-level operation", input.name))?;
    let top_was_lazy = r.is_pending(top);
    r.materialize(top)
        .map_err(|e| format!("{}: {e}", input.name))?;
    let m = r.module();
    let mut top_level = Vec::new();
    if let Some(&region) = m.op(top).regions().first() {
        for &b in &m.region(region).blocks {
            for &op in &m.block(b).ops {
                top_level.push(SymbolJson {
                    op: lossy(m.op_name(op)),
                    symbol: symbol_of(m, op),
                });
            }
        }
    }
    let mut resources = Vec::new();
    for (external, groups) in [(false, &m.resources.dialect), (true, &m.resources.external)] {
        for g in groups {
            for (k, v) in &g.entries {
                let (kind, bytes, alignment) = match v {
                    ResourceValue::Blob { alignment, data } => {
                        ("blob", data.len(), Some(*alignment))
                    }
                    ResourceValue::Bool(_) => ("bool", 1, None),
                    ResourceValue::String(s) => ("string", s.len(), None),
                };
                resources.push(ResourceJson {
                    group: lossy(&g.name),
                    external,
                    key: lossy(k),
                    kind,
                    bytes,
                    alignment,
                });
            }
        }
    }
    let (attributes, types) = r.num_attrs_types();
    let info = Info {
        version: r.version(),
        producer: lossy(r.producer()),
        layouts: r.layouts_release().0.to_string(),
        layouts_from: match r.layouts_release().1 {
            LayoutsChoice::Producer => "producer",
            LayoutsChoice::Default => "default",
            LayoutsChoice::Given => "given",
        },
        file_bytes: input.data().len(),
        zstd_compressed_bytes: input.compressed_bytes,
        sections: r
            .sections()
            .iter()
            .map(|s| SectionJson {
                name: s.id.name(),
                id: s.id as u8,
                offset: s.offset,
                bytes: s.len,
                alignment: s.alignment,
            })
            .collect(),
        dialects: r
            .dialects()
            .map(|(n, v)| DialectJson {
                name: lossy(n),
                version: v.map(|b| b.iter().map(|x| format!("{x:02x}")).collect()),
            })
            .collect(),
        strings: r.num_strings(),
        attributes,
        types,
        op_names: r.op_names().map(|(n, _)| lossy(n)).collect(),
        resources,
        top_level,
        region_bodies_decoded: r.stats().lazy_bodies_decoded,
        nested_bodies_decoded: r.stats().lazy_bodies_decoded - usize::from(top_was_lazy),
        region_bodies_pending: r.pending().count(),
    };
    crate::exit_without_freeing(r);
    Ok(info)
}

pub fn render_text(i: &Info) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "bytecode version {} (producer \"{}\"), {} bytes{}",
        i.version,
        i.producer,
        i.file_bytes,
        i.zstd_compressed_bytes
            .map(|z| format!(" (zstd-compressed: {z} bytes)"))
            .unwrap_or_default()
    );
    let _ = writeln!(
        s,
        "op layouts: MLIR {} ({})",
        i.layouts,
        match i.layouts_from {
            "producer" => "named by the producer",
            "given" => "given with --layouts",
            _ => "the default",
        }
    );
    let _ = writeln!(s, "sections:");
    for sec in &i.sections {
        let _ = writeln!(
            s,
            "  {:<16} id {}  offset {:#x}  {} bytes{}",
            sec.name,
            sec.id,
            sec.offset,
            sec.bytes,
            if sec.alignment > 1 {
                format!("  align {}", sec.alignment)
            } else {
                String::new()
            }
        );
    }
    let _ = writeln!(s, "dialects ({}):", i.dialects.len());
    for d in &i.dialects {
        match &d.version {
            Some(v) => {
                let _ = writeln!(s, "  {} (version payload {v})", d.name);
            }
            None => {
                let _ = writeln!(s, "  {}", d.name);
            }
        }
    }
    let _ = writeln!(
        s,
        "tables: {} strings, {} attributes, {} types, {} operation names",
        i.strings,
        i.attributes,
        i.types,
        i.op_names.len()
    );
    if !i.resources.is_empty() {
        let _ = writeln!(s, "resources:");
        for r in &i.resources {
            let _ = writeln!(
                s,
                "  {}{}.{}: {} {} bytes{}",
                if r.external { "external " } else { "" },
                r.group,
                r.key,
                r.kind,
                r.bytes,
                r.alignment
                    .map(|a| format!(", alignment {a}"))
                    .unwrap_or_default()
            );
        }
    }
    let _ = writeln!(
        s,
        "top-level operations ({}; {} region bodies decoded, {} left lazy):",
        i.top_level.len(),
        i.region_bodies_decoded,
        i.region_bodies_pending
    );
    for t in &i.top_level {
        match &t.symbol {
            Some(sym) => {
                let _ = writeln!(s, "  {} @{sym}", t.op);
            }
            None => {
                let _ = writeln!(s, "  {}", t.op);
            }
        }
    }
    s
}

pub fn run(
    input: &Path,
    json: bool,
    layouts: Layouts,
    progress: &mut Progress,
) -> Result<(), String> {
    let inp = input::read_input(input, progress)?;
    if !inp.is_bytecode() {
        return Err(format!(
            "{}: error: not an MLIR bytecode file (no 'ML\\xEFR' magic); 'info' describes bytecode, 'rmlir-bc encode' writes it",
            inp.name
        ));
    }
    let i = collect(&inp, layouts)?;
    let text = if json {
        serde_json::to_string_pretty(&i).expect("serializable") + "\n"
    } else {
        render_text(&i)
    };
    progress.finish();
    output::write_output(None, text.as_bytes())
}
