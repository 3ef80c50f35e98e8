//! The llvm attribute kinds whose encoding changed after MLIR 22 (SPEC.md
//! §6.6.5), as the tools built on newer MLIR write them: jaxlib 0.10.2
//! (`MLIR23.0.0git`) and IREE 3.13 (`MLIR24.0.0git`), read from the files
//! each wrote for the corpus cases holding llvm debug info (every other
//! llvm kind's entries are byte for byte MLIR 22's there).
//!
//! Each newer kind adds parameters to MLIR 22's:
//! - `DICompileUnitAttr` (1): `recId`, `isRecSelf`,
//!   `isDebugInfoForProfiling`, `splitDebugFilename`, `importedEntities`;
//!   `id` and `file` become optional; `sourceLanguage` is a DWARF code in
//!   MLIR 23 and an attribute in MLIR 24,
//!   `#llvm.di_source_language_name<language = DW_LANG_…>`.
//! - `DICompositeTypeAttr` (2): `identifier`, `discriminator`.
//! - `DIDerivedTypeAttr` (3): `file`, `line`, `scope`, `flags`.
//!
//! Both tools print a value whose new parameters are unset as MLIR 22
//! does, but for `DICompileUnitAttr`'s `isOptimized` and `emissionKind`,
//! which have defaults from MLIR 23 on and are left out when they hold
//! them ([`printing`]). So such an entry is printed by MLIR 22's rules
//! with that change; one with a new parameter set is refused, naming it.
//! Written for a newer release, the new parameters are written unset.

use crate::upstream_encodings::{spec, DW_LANG, LLVM_ATTRS};
use rmlir_format::dialect_encodings::{
    AttrLookup, AttrSpec, BodyInterner, DialectSpec, Field, FieldError, KindSpec, Param, Read,
    Step, Value,
};
use rmlir_format::{AttrData, BodyPiece, DialectBody};
use std::sync::OnceLock;

const fn step(name: &'static str, read: Read) -> Step {
    Step { name, read }
}

/// One changed kind in one release: its reads, and where each of MLIR
/// 22's reads stands among them (the others are the new parameters).
struct Newer {
    code: u64,
    steps: &'static [Step],
    from_22: &'static [usize],
}

/// `DICompileUnitAttr`'s reads, with `sourceLanguage` read as `language`
/// (a VarInt in MLIR 23, an optional attribute in MLIR 24).
const fn compile_unit(language: Read) -> [Step; 12] {
    [
        step("recId", Read::OptAttr),
        step("isRecSelf", Read::Bool),
        step("id", Read::OptAttr),
        step("sourceLanguage", language),
        step("file", Read::OptAttr),
        step("producer", Read::OptAttr),
        step("isOptimized", Read::Bool),
        step("_rawEmissionKind", Read::VarInt),
        step("isDebugInfoForProfiling", Read::Bool),
        step("_rawNameTableKind", Read::VarInt),
        step("splitDebugFilename", Read::OptAttr),
        step("importedEntities", Read::OptArrayAttr),
    ]
}

static COMPILE_UNIT_23: &[Step] = &compile_unit(Read::VarInt);
static COMPILE_UNIT_24: &[Step] = &compile_unit(Read::OptAttr);

static COMPOSITE_TYPE: &[Step] = &[
    step("recId", Read::OptAttr),
    step("isRecSelf", Read::Bool),
    step("tag", Read::VarInt),
    step("name", Read::OptAttr),
    step("file", Read::OptAttr),
    step("line", Read::VarInt),
    step("scope", Read::OptAttr),
    step("baseType", Read::OptAttr),
    step("_rawflags", Read::VarInt),
    step("sizeInBits", Read::VarInt),
    step("alignInBits", Read::VarInt),
    step("dataLocation", Read::OptAttr),
    step("rank", Read::OptAttr),
    step("allocated", Read::OptAttr),
    step("associated", Read::OptAttr),
    step("identifier", Read::OptAttr),
    step("discriminator", Read::OptAttr),
    step("elements", Read::OptArrayAttr),
];

static DERIVED_TYPE: &[Step] = &[
    step("tag", Read::VarInt),
    step("name", Read::OptAttr),
    step("file", Read::OptAttr),
    step("line", Read::VarInt),
    step("scope", Read::OptAttr),
    step("baseType", Read::OptAttr),
    step("sizeInBits", Read::VarInt),
    step("alignInBits", Read::VarInt),
    step("offsetInBits", Read::VarInt),
    step("dwarfAddressSpace", Read::OptInt),
    step("_rawflags", Read::VarInt),
    step("extraData", Read::OptAttr),
];

const COMPILE_UNIT_FROM_22: &[usize] = &[2, 3, 4, 5, 6, 7, 9];
const COMPOSITE_FROM_22: &[usize] = &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17];
const DERIVED_FROM_22: &[usize] = &[0, 1, 5, 6, 7, 8, 9, 11];

/// The changed kinds of a release whose compile unit reads `compile_unit`
/// (MLIR 23 and 24 differ only there).
const fn with_compile_unit(compile_unit: &'static [Step]) -> [Newer; 3] {
    [
        Newer {
            code: 1,
            steps: compile_unit,
            from_22: COMPILE_UNIT_FROM_22,
        },
        Newer {
            code: 2,
            steps: COMPOSITE_TYPE,
            from_22: COMPOSITE_FROM_22,
        },
        Newer {
            code: 3,
            steps: DERIVED_TYPE,
            from_22: DERIVED_FROM_22,
        },
    ]
}

static IN_23: &[Newer] = &with_compile_unit(COMPILE_UNIT_23);
static IN_24: &[Newer] = &with_compile_unit(COMPILE_UNIT_24);

fn changes(mlir_major: u32) -> &'static [Newer] {
    match mlir_major {
        ..=22 => &[],
        23 => IN_23,
        _ => IN_24,
    }
}

/// The llvm tables of release `mlir_major`: MLIR 22's, with the changed
/// kinds replaced from MLIR 23 on.
pub fn spec_in(mlir_major: u32) -> Option<&'static DialectSpec> {
    static TABLES_23: OnceLock<DialectSpec> = OnceLock::new();
    static TABLES_24: OnceLock<DialectSpec> = OnceLock::new();
    let base = spec("llvm")?;
    let cell = match mlir_major {
        ..=22 => return Some(base),
        23 => &TABLES_23,
        _ => &TABLES_24,
    };
    Some(cell.get_or_init(|| {
        let attrs: Vec<KindSpec> = base
            .attrs
            .iter()
            .map(|k| KindSpec {
                code: k.code,
                class: k.class,
                steps: changes(mlir_major)
                    .iter()
                    .find(|n| n.code == k.code)
                    .map_or(k.steps, |n| n.steps),
            })
            .collect();
        DialectSpec {
            name: base.name,
            // Built once per process, as the generated tables are static.
            attrs: Box::leak(attrs.into_boxed_slice()),
            types: base.types,
        }
    }))
}

/// The change `kind` is, if it is a newer release's kind.
fn newer_of(kind: &KindSpec) -> Option<&'static Newer> {
    IN_23
        .iter()
        .chain(IN_24)
        .find(|n| n.code == kind.code && std::ptr::eq(n.steps, kind.steps))
}

/// MLIR 22's kind `code`.
fn kind_22(code: u64) -> Option<&'static KindSpec> {
    spec("llvm")?.attrs.iter().find(|k| k.code == code)
}

/// Whether a field holds its parameter's default (unset).
fn unset(v: &Value<'_>) -> bool {
    match v {
        Value::Attr(a) => a.is_none(),
        Value::Bool(b) => !b,
        Value::U(x) => *x == 0,
        Value::OptU(x) => x.is_none(),
        Value::Attrs(l) => l.is_empty(),
        _ => false,
    }
}

/// A newer entry as MLIR 22's kind and fields, or `None` for an entry of
/// an unchanged kind. `Err` names the first new parameter that is set.
/// The second value maps MLIR 22's field indices to the entry's.
#[allow(clippy::type_complexity)]
pub fn to_22<'a>(
    look: &dyn AttrLookup,
    kind: &KindSpec,
    values: &[Value<'a>],
) -> Option<Result<(&'static KindSpec, Vec<Value<'a>>, &'static [usize]), FieldError>> {
    let newer = newer_of(kind)?;
    let old = kind_22(newer.code)?;
    Some((|| {
        if values.len() != newer.steps.len() {
            return Err(FieldError::entry(format!(
                "llvm {}: {} fields where {} are read",
                kind.class,
                values.len(),
                newer.steps.len()
            )));
        }
        for (i, v) in values.iter().enumerate() {
            if !newer.from_22.contains(&i) && !unset(v) {
                let name = newer.steps[i].name;
                return Err(FieldError::field(
                    i,
                    format!(
                        "llvm {}, field '{name}': set, and we print this attribute only as MLIR 22 has it (without {name})",
                        kind.class
                    ),
                ));
            }
        }
        let mut out = Vec::with_capacity(old.steps.len());
        for (j, s) in old.steps.iter().enumerate() {
            let i = newer.from_22[j];
            let v = match (s.read, &values[i]) {
                // MLIR 24's source language attribute.
                (Read::VarInt, Value::Attr(Some(a))) => Value::U(language_code(look, *a).ok_or_else(|| {
                    FieldError::field(
                        i,
                        format!(
                            "llvm {}, field '{}': not a #llvm.di_source_language_name<language = DW_LANG_…> we know",
                            kind.class, s.name
                        ),
                    )
                })?),
                (Read::Attr, Value::Attr(None)) => {
                    return Err(FieldError::field(
                        i,
                        format!(
                            "llvm {}, field '{}': absent, which MLIR 22 does not allow",
                            kind.class, s.name
                        ),
                    ))
                }
                (_, v) => v.clone(),
            };
            out.push(v);
        }
        Ok((old, out, newer.from_22))
    })())
}

const LANGUAGE_PREFIX: &str = "di_source_language_name<language = ";

/// The DWARF code of MLIR 24's `#llvm.di_source_language_name<language =
/// DW_LANG_…>`.
fn language_code(look: &dyn AttrLookup, a: rmlir_format::AttrId) -> Option<u64> {
    let data = look.attr_data(a);
    let AttrData::Dialect { body, ty: None } = &*data else {
        return None;
    };
    let [BodyPiece::Text(t)] = &body.pieces[..] else {
        return None;
    };
    if &*body.dialect != "llvm" {
        return None;
    }
    let name = t.strip_prefix(LANGUAGE_PREFIX)?.strip_suffix('>')?.trim();
    DW_LANG
        .iter()
        .find(|(_, n)| *n == name)
        .map(|(c, _)| u64::from(*c))
}

/// MLIR 22's fields of kind `code` as release `mlir_major` writes them,
/// with the new parameters unset; the fields as they are for a kind that
/// did not change.
pub fn from_22(
    space: &mut dyn BodyInterner,
    code: u64,
    fields: Vec<Field>,
    mlir_major: u32,
) -> Option<Vec<Field>> {
    let Some(newer) = changes(mlir_major).iter().find(|n| n.code == code) else {
        return Some(fields);
    };
    let mut out: Vec<Option<Field>> = vec![None; newer.steps.len()];
    for (j, f) in fields.into_iter().enumerate() {
        let i = *newer.from_22.get(j)?;
        out[i] = Some(match (newer.steps[i].read, f) {
            (Read::OptAttr, Field::Attr(a)) => Field::OptAttr(Some(a)),
            (Read::OptAttr, Field::U(lang)) => {
                let name = DW_LANG.iter().find(|(c, _)| u64::from(*c) == lang)?.1;
                Field::OptAttr(Some(space.intern_attr(AttrData::Dialect {
                    body: Box::new(DialectBody {
                        dialect: "llvm".into(),
                        pieces: vec![BodyPiece::Text(format!("{LANGUAGE_PREFIX}{name}>").into())],
                    }),
                    ty: None,
                })))
            }
            (_, f) => f,
        });
    }
    out.into_iter()
        .zip(newer.steps)
        .map(|(f, s)| {
            f.or(match s.read {
                Read::OptAttr => Some(Field::OptAttr(None)),
                Read::Bool => Some(Field::Bool(false)),
                Read::VarInt => Some(Field::U(0)),
                Read::OptInt => Some(Field::OptU(None)),
                Read::OptArrayAttr => Some(Field::OptAttrs(Vec::new())),
                _ => None,
            })
        })
        .collect()
}

/// How MLIR 23 and 24 print kind `code`, where it differs from MLIR 22:
/// `DICompileUnitAttr` with `isOptimized` (default `false`) and
/// `emissionKind` (default `None`) optional.
pub fn printing(code: u64) -> Option<&'static AttrSpec> {
    static COMPILE_UNIT: OnceLock<AttrSpec> = OnceLock::new();
    if code != 1 {
        return None;
    }
    let base = LLVM_ATTRS.iter().find(|s| s.code == code)?;
    Some(COMPILE_UNIT.get_or_init(|| {
        let params: Vec<Param> = base
            .params
            .iter()
            .map(|p| Param {
                name: p.name,
                ty: p.ty,
                optional: p.optional || matches!(p.name, "isOptimized" | "emissionKind"),
                step: p.step,
            })
            .collect();
        AttrSpec {
            code: base.code,
            mnemonic: base.mnemonic,
            format: base.format,
            // Built once per process, as the generated tables are static.
            params: Box::leak(params.into_boxed_slice()),
        }
    }))
}
