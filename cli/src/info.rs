//! `rmlir-bc info`: what a bytecode file holds, read lazily — the tables
//! and the top-level symbols, never the bodies of functions.

use crate::input::{self, Input};
use crate::load::Layouts;
use crate::output;
use crate::progress::Progress;
use rmlir_format::ResourceValue;
use rmlir_reader::{BytecodeReader, LayoutsChoice, TopLevelOp};
use serde::Serialize;
use std::io::Write;
use std::path::Path;

#[derive(Serialize)]
pub struct Info<'a> {
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
    /// Isolated region bodies decoded to produce this report: 0, the
    /// module body is scanned, not built (SPEC.md §6.7.5).
    pub region_bodies_decoded: usize,
    /// Bodies below the top op (functions, …) decoded: always 0, `info`
    /// never decodes a function body.
    pub nested_bodies_decoded: usize,
    /// Top-level ops whose isolated bodies (functions, …) were stepped
    /// over undecoded.
    pub region_bodies_pending: usize,
    /// What could not be decoded because no layout or encoding we have
    /// knows it (SPEC.md §8.6); the rest of the report stands.
    pub not_decoded: NotDecoded,
    /// The top-level ops, their names borrowed from the op name table and
    /// the mapped file (a module lists tens of thousands, SPEC.md §6.7.5).
    /// Written last, and not by serde ([`write_json`]).
    #[serde(skip)]
    pub top_level: Vec<TopLevelOp<'a>>,
}

/// What `info` read past (SPEC.md §8.6).
#[derive(Serialize, Default)]
pub struct NotDecoded {
    /// Registered ops whose properties layout we do not have, with how
    /// many of them sit at the top level (`info` reads no nested op).
    pub ops_without_layouts: Vec<OpCount>,
    /// Dialects whose custom attribute and type encodings we do not have,
    /// with the number of such entries in the table.
    pub dialects_without_encodings: Vec<DialectEntries>,
}

#[derive(Serialize)]
pub struct OpCount {
    pub op: String,
    pub at_top_level: usize,
}

#[derive(Serialize)]
pub struct DialectEntries {
    pub dialect: String,
    pub attributes: usize,
    pub types: usize,
}

impl NotDecoded {
    fn is_empty(&self) -> bool {
        self.ops_without_layouts.is_empty() && self.dialects_without_encodings.is_empty()
    }
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

fn lossy(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

pub fn collect(input: &Input, layouts: Layouts) -> Result<Info<'_>, String> {
    let mut release = input.range_releaser();
    let (r, top_level) = BytecodeReader::open_listing(
        &input.bytes,
        &rmlir_reader::ReadOptions {
            skip_unknown: true,
            ..layouts
                .with_terms_of((*input.bytes).as_ref())
                .read_options()
        },
        &mut release,
    )
    .map_err(|e| format!("{}: {e}", input.name))?;
    r.module()
        .top
        .ok_or_else(|| format!("{}: no top-level operation", input.name))?;
    let region_bodies_pending = top_level.iter().filter(|t| t.lazy_body).count();
    let m = r.module();
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
    let not_decoded = NotDecoded {
        ops_without_layouts: r
            .ops_without_layouts()
            .into_iter()
            .map(|name| OpCount {
                op: lossy(name),
                at_top_level: r.undecoded().properties.get(name).copied().unwrap_or(0),
            })
            .collect(),
        dialects_without_encodings: r
            .entries_without_encodings()
            .into_iter()
            .map(|(d, (attributes, types))| DialectEntries {
                dialect: lossy(&d),
                attributes,
                types,
            })
            .collect(),
    };
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
        region_bodies_decoded: r.stats().lazy_bodies_decoded,
        nested_bodies_decoded: r.stats().lazy_bodies_decoded,
        region_bodies_pending,
        not_decoded,
        top_level,
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
    let nd = &i.not_decoded;
    if nd.is_empty() {
        let _ = writeln!(s, "decoded: everything info reads");
    } else {
        let _ = writeln!(
            s,
            "not decoded (no layouts or encodings we have know them; the rest of the file is well-formed as far as info reads it):"
        );
        if !nd.ops_without_layouts.is_empty() {
            let _ = writeln!(
                s,
                "  operations whose properties layout we do not have ({}):",
                nd.ops_without_layouts.len()
            );
        }
        for o in &nd.ops_without_layouts {
            let _ = writeln!(s, "    {} ({} at the top level)", o.op, o.at_top_level);
        }
        for d in &nd.dialects_without_encodings {
            let _ = writeln!(
                s,
                "  custom entries of dialect {}: {} attributes, {} types",
                d.dialect, d.attributes, d.types
            );
        }
        let _ = writeln!(
            s,
            "  (made from the dialect's .td files: op layouts, given with --op-layouts FILE, decode properties; encodings, given with --dialect-encodings FILE, decode custom entries: README, \"Bring your own dialect\")"
        );
    }
    let _ = writeln!(
        s,
        "top-level operations ({}; {} region bodies decoded, {} stepped over):",
        i.top_level.len(),
        i.region_bodies_decoded,
        i.region_bodies_pending
    );
    for t in &i.top_level {
        let op = String::from_utf8_lossy(&t.name);
        match &t.symbol {
            Some(sym) => {
                let _ = writeln!(s, "  {op} @{}", String::from_utf8_lossy(sym));
            }
            None if nd.ops_without_layouts.iter().any(|o| o.op == op) => {
                let _ = writeln!(
                    s,
                    "  {op} (symbol not known: its properties were not decoded)"
                );
            }
            None => {
                let _ = writeln!(s, "  {op}");
            }
        }
    }
    s
}

/// `info --json`: the report as serde_json pretty-prints it, with
/// `top_level` last. serde_json spent ~1,400 instructions on each listed
/// op (18M of the 66M a 200 MB module's listing took, SPEC.md §8.4), so
/// the list is written here in the same layout: the other fields are
/// serialized, the object's closing `}` taken off, and the list streamed
/// after them.
fn write_json(w: &mut dyn Write, i: &Info) -> std::io::Result<()> {
    let mut head = serde_json::to_vec_pretty(i).map_err(std::io::Error::other)?;
    if head.ends_with(b"\n}") {
        head.truncate(head.len() - 2);
    } else {
        return Err(std::io::Error::other(
            "serde_json did not end the report with a closing brace",
        ));
    }
    w.write_all(&head)?;
    w.write_all(b",\n  \"top_level\": ")?;
    let mut out = Vec::with_capacity(1 << 16);
    top_level_json(&mut out, &i.top_level, |chunk| {
        w.write_all(chunk)?;
        chunk.clear();
        Ok(())
    })?;
    out.extend_from_slice(b"\n}\n");
    w.write_all(&out)
}

/// `list` as serde_json's pretty printer writes it as a field of the
/// top-level object (two spaces a level), into `out`, handed to `flush`
/// every 60 KiB or so (which should empty it).
fn top_level_json(
    out: &mut Vec<u8>,
    list: &[TopLevelOp],
    mut flush: impl FnMut(&mut Vec<u8>) -> std::io::Result<()>,
) -> std::io::Result<()> {
    if list.is_empty() {
        out.extend_from_slice(b"[]");
        return Ok(());
    }
    out.push(b'[');
    // Everything up to the symbol, for the last op name seen: the listed
    // ops share a few names (the op name table's, `Arc`s).
    let mut head: Option<(&std::sync::Arc<[u8]>, Vec<u8>)> = None;
    for (k, t) in list.iter().enumerate() {
        if k > 0 {
            out.push(b',');
        }
        match &head {
            Some((name, _)) if std::sync::Arc::ptr_eq(name, &t.name) => {}
            _ => {
                let mut h = b"\n    {\n      \"op\": ".to_vec();
                json_str(&mut h, &t.name);
                h.extend_from_slice(b",\n      \"symbol\": ");
                head = Some((&t.name, h));
            }
        }
        out.extend_from_slice(&head.as_ref().expect("set above").1);
        match &t.symbol {
            Some(s) => json_str(out, s),
            None => out.extend_from_slice(b"null"),
        }
        out.extend_from_slice(b"\n    }");
        if out.len() >= 60 << 10 {
            flush(out)?;
        }
    }
    out.extend_from_slice(b"\n  ]");
    Ok(())
}

/// `b` as a JSON string, invalid UTF-8 replaced: printable ASCII without
/// `"` or `\` as it is, anything else through serde_json.
fn json_str(out: &mut Vec<u8>, b: &[u8]) {
    // Without an early exit (names are short), so the check is vectorized.
    let plain = b.iter().fold(true, |ok, &c| {
        ok & (c.wrapping_sub(0x20) < 0x5f) & (c != b'"') & (c != b'\\')
    });
    if plain {
        out.push(b'"');
        out.extend_from_slice(b);
        out.push(b'"');
    } else {
        serde_json::to_writer(&mut *out, &*String::from_utf8_lossy(b))
            .expect("a string serializes into a vector");
    }
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
    progress.finish();
    let written = if json {
        // Streamed: the listing of a module with many symbols is large.
        output::write_output_with(None, |w| write_json(w, &i))
    } else {
        output::write_output(None, render_text(&i).as_bytes())
    };
    // Tens of thousands of listed ops are not freed one by one at exit.
    crate::exit_without_freeing(i);
    written
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The list written by hand is what serde_json's pretty printer writes
    /// for the same field, for names that need escaping, that are not
    /// UTF-8, that are missing, and for an empty list.
    #[test]
    fn top_level_is_written_as_serde_json_writes_it() {
        #[derive(Serialize)]
        struct Entry {
            op: String,
            symbol: Option<String>,
        }
        #[derive(Serialize)]
        struct Wrapper {
            top_level: Vec<Entry>,
        }
        let names: [&[u8]; 9] = [
            b"fn",
            b"with \"quotes\"",
            b"back\\slash",
            b"tab\tnewline\ncr\r",
            b"\x01\x1f\x7f",
            "caf\u{e9} \u{1f600}".as_bytes(),
            b"bad \xff\xfe utf-8",
            b"",
            b"~ !#$%&'()*+,-./:;<=>?@[]^_`{|}",
        ];
        let mut list: Vec<TopLevelOp> = names
            .iter()
            .map(|n| TopLevelOp {
                name: (*n).into(),
                symbol: Some((*n).into()),
                lazy_body: false,
            })
            .collect();
        list.push(TopLevelOp {
            name: b"builtin.module"[..].into(),
            symbol: None,
            lazy_body: true,
        });
        // Enough entries for several flushes.
        let many: Vec<TopLevelOp> = list.iter().cycle().take(5000).cloned().collect();
        // Runs of one op name (one `Arc`, as from the op name table), and
        // an equal name in another `Arc` after them.
        let shared: std::sync::Arc<[u8]> = b"func.\"func"[..].into();
        let mut runs: Vec<TopLevelOp> = (0..3)
            .map(|i| TopLevelOp {
                name: shared.clone(),
                symbol: Some(format!("f{i}").into_bytes().into()),
                lazy_body: true,
            })
            .collect();
        runs.push(TopLevelOp {
            name: b"func.\"func"[..].into(),
            symbol: None,
            lazy_body: false,
        });
        for name in [&b"x.a"[..], b"x.b", b"x.a"] {
            runs.push(TopLevelOp {
                name: name.into(),
                symbol: None,
                lazy_body: false,
            });
        }
        runs.extend(list.iter().cloned());
        for list in [&runs[..], &many[..], &list[..], &list[..1], &[]] {
            let lossy = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
            let entries = list
                .iter()
                .map(|t| Entry {
                    op: lossy(&t.name),
                    symbol: t.symbol.as_deref().map(lossy),
                })
                .collect();
            let expected = serde_json::to_string_pretty(&Wrapper { top_level: entries }).unwrap();
            let mut got = Vec::new();
            let mut out = Vec::new();
            let mut flushes = 0;
            top_level_json(&mut out, list, |chunk| {
                got.append(chunk);
                flushes += 1;
                Ok(())
            })
            .unwrap();
            got.append(&mut out);
            assert_eq!(flushes > 0, list.len() > 1000);
            let got = format!(
                "{{\n  \"top_level\": {}\n}}",
                String::from_utf8(got).unwrap()
            );
            assert_eq!(got, expected);
        }
    }
}
