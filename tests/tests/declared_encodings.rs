//! A dialect whose bytecode encodings are declared as data (SPEC.md
//! §6.6.5, `BytecodeDialect::declared_encodings`) is read and written by
//! the reader's and writer's generic interpreters: registering its hook is
//! all it takes. The dialect here, `toy`, exists only in this file:
//! `#toy.pair<N, "S">` is kind 0 with a VarInt and a string.
//!
//! Expected bytes are derived by hand from SPEC.md §6.1 and §6.6.5.

use rmlir_format::dialect_encodings::{
    BodyInterner, DialectSpec, Entry, Field, FieldError, KindSpec, Read, Step, Value,
};
use rmlir_format::dialect_hooks::{BytecodeDialect, DialectRegistry};
use rmlir_format::op_registry::OpRegistry;
use rmlir_format::{AttrData, BodyPiece, Context, DialectBody};
use rmlir_reader::BytecodeReader;
use rmlir_writer::{print_module, write_bytecode_with, WriteOptions};
use std::sync::{Arc, OnceLock};

static TOY: DialectSpec = DialectSpec {
    name: "toy",
    attrs: &[KindSpec {
        code: 0,
        class: "PairAttr",
        steps: &[
            Step {
                name: "n",
                read: Read::VarInt,
            },
            Step {
                name: "s",
                read: Read::Str,
            },
        ],
    }],
    types: &[],
};

struct Toy;

impl BytecodeDialect for Toy {
    fn name(&self) -> &str {
        "toy"
    }

    fn parses_bodies(&self) -> bool {
        true
    }

    fn declared_encodings(&self) -> Option<&'static DialectSpec> {
        Some(&TOY)
    }

    fn attr_from_fields(&self, _ctx: &Context, e: Entry<'_, '_>) -> Result<AttrData, FieldError> {
        let (ni, n) = e.field("toy", "n")?;
        let (_, s) = e.field("toy", "s")?;
        let (Value::U(n), Value::Str(s)) = (n, s) else {
            return Err(FieldError::entry("toy PairAttr: unexpected fields"));
        };
        if *n > 100 {
            return Err(FieldError::field(
                ni,
                format!("toy PairAttr: {n} is over 100"),
            ));
        }
        let s = std::str::from_utf8(s).map_err(|_| FieldError::entry("toy PairAttr: not UTF-8"))?;
        Ok(AttrData::Dialect {
            body: Box::new(DialectBody {
                dialect: "toy".into(),
                pieces: vec![BodyPiece::Text(format!("pair<{n}, \"{s}\">").into())],
            }),
            ty: None,
        })
    }

    fn attr_fields(
        &self,
        _space: &mut dyn BodyInterner,
        body: &DialectBody,
    ) -> Option<(u64, Vec<Field>)> {
        let [BodyPiece::Text(t)] = &body.pieces[..] else {
            return None;
        };
        let inner = t.strip_prefix("pair<")?.strip_suffix("\">")?;
        let (n, s) = inner.split_once(", \"")?;
        Some((0, vec![Field::U(n.parse().ok()?), Field::Str(s.into())]))
    }
}

fn hooks() -> &'static DialectRegistry {
    static R: OnceLock<DialectRegistry> = OnceLock::new();
    R.get_or_init(|| {
        let mut r = rmlir_dialects::upstream().clone();
        r.register(Arc::new(Toy));
        r
    })
}

const TEXT: &str = r#""builtin.module"() ({
  "test.op"() {a = #toy.pair<7, "hi">} : () -> ()
}) : () -> ()
"#;

fn encode(text: &str) -> Vec<u8> {
    let m = rmlir_reader::parse_module_releasing_deferred_with(
        text.as_bytes(),
        "toy.mlir",
        Default::default(),
        Some(hooks()),
        &|_| {},
    )
    .unwrap();
    write_bytecode_with(
        &m,
        &WriteOptions::default(),
        OpRegistry::default_ref(),
        hooks(),
    )
    .unwrap()
}

/// The attribute `a` of the one op, as printed after reading `data`.
fn read(data: &[u8], dialects: &'static DialectRegistry) -> rmlir_reader::Result<String> {
    let mut r =
        BytecodeReader::open_with_dialects(data, OpRegistry::default_ref(), dialects, None)?;
    r.materialize_all()?;
    let text = print_module(&r.into_module(), Default::default());
    let attr = text
        .split_once("{a = ")
        .and_then(|(_, rest)| rest.split_once('}'))
        .map(|(a, _)| a.to_string());
    Ok(attr.unwrap_or(text))
}

/// Where `needle` is in `hay`.
fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

#[test]
fn a_declared_dialect_is_written_custom_and_read_back() {
    let bc = encode(TEXT);
    // Written by the declared steps, not as text: kind 0, then 7, then a
    // string-table index; "hi" is in the string table, `pair<` nowhere.
    assert!(
        find(&bc, &[0x01, (7 << 1) | 1]).is_some(),
        "no kind 0 with 7"
    );
    assert!(find(&bc, b"pair<").is_none(), "written as text");
    assert!(find(&bc, b"hi").is_some(), "the string field is missing");
    assert_eq!(read(&bc, hooks()).unwrap(), r#"#toy.pair<7, "hi">"#);
}

#[test]
fn a_declared_dialect_reports_field_errors_at_the_field() {
    // Text holding 101 would stay opaque (the hook cannot make it), so the
    // bytes of a valid entry are patched: the kind code 0 (a one-byte
    // VarInt, `(0 << 1) | 1` = 0x01), then 42 (0x55) becomes 101 (0xCB).
    let mut bc = encode(&TEXT.replace("<7,", "<42,"));
    let at = find(&bc, &[0x01, 0x55]).expect("the entry's bytes") + 1;
    bc[at] = (101 << 1) | 1;
    let e = read(&bc, hooks()).unwrap_err().to_string();
    assert!(e.contains("toy PairAttr: 101 is over 100"), "{e}");
    // At the VarInt's offset, one past the kind code.
    assert!(e.contains(&format!("byte offset {at:#x}")), "{e}");
}

#[test]
fn without_its_hook_a_declared_dialect_is_refused_by_name() {
    let bc = encode(TEXT);
    let e = read(&bc, rmlir_dialects::upstream())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("dialect 'toy' does not implement the bytecode interface"),
        "{e}"
    );
}
