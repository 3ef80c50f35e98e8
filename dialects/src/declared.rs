//! A dialect whose bytecode encodings are loaded at run time, as data
//! (SPEC.md §6.6.5, §9.5): the JSON `tools/dialect-encodings/from_td.py`
//! makes from the dialect's own `.td` files (its `DialectAttributes` and
//! `DialectTypes` records, and the declarative assembly formats of the
//! attributes and types they encode).
//!
//! The reader and the writer interpret the kinds' reads as they do for the
//! upstream dialects that declare their encodings; this module supplies
//! the rest of [`BytecodeDialect`]: the text of a decoded value (its
//! mnemonic and the assembly format, printed with the spacing rules of
//! mlir-tblgen's generated printers), and the fields of a value read from
//! text (the same format, parsed).
//!
//! The formats interpreted are those whose elements are literals,
//! parameters, `params` and `struct(…)`, over parameters that print
//! without the dialect's own C++: integers, strings, booleans, builtin
//! attributes and builtin types. A kind outside that subset still has its
//! reads, so a file holding it is read and written; printing such an
//! entry is an error that names the kind and the reason the generator
//! recorded.

use rmlir_format::dialect_encodings::body_cursor::BodyCursor;
use rmlir_format::dialect_encodings::{
    BodyBuilder, BodyInterner, DialectSpec, Entry, Field, FieldError, KindSpec, Read, Step, Value,
};
use rmlir_format::dialect_hooks::{Builtin, BytecodeDialect};
use rmlir_format::{AttrData, BodyPiece, Context, DialectBody, TypeData};
use serde::Deserialize;

/// The schema version `from_td.py` writes.
const SCHEMA: u32 = 1;

/// A dialect loaded from an encodings file.
pub struct DeclaredDialect {
    name: String,
    spec: &'static DialectSpec,
    /// How each of `spec.attrs` prints, in the same order.
    attrs: Vec<Printing>,
    /// How each of `spec.types` prints, in the same order.
    types: Vec<Printing>,
}

/// How one kind prints.
#[derive(Clone, Debug)]
struct Printing {
    mnemonic: Option<String>,
    /// `Err(why)` when the format is outside what we interpret.
    format: Result<Vec<Element>, String>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileData {
    rmlir_dialect_encodings: u32,
    dialect: String,
    attrs: Vec<KindData>,
    types: Vec<KindData>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct KindData {
    code: u64,
    class: String,
    steps: Vec<StepData>,
    mnemonic: Option<String>,
    format: Option<Vec<Element>>,
    #[serde(default)]
    why: Option<String>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct StepData {
    name: String,
    read: String,
}

/// One element of a declarative assembly format.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
enum Element {
    /// A literal: punctuation or a keyword.
    Lit(String),
    /// A parameter, by its read step.
    Param(usize),
    /// `struct(…)`: `name = value` pairs, by read step.
    Struct(Vec<usize>),
}

fn read_of(name: &str) -> Option<Read> {
    Some(match name {
        "VarInt" => Read::VarInt,
        "SignedVarInt" => Read::SignedVarInt,
        "Str" => Read::Str,
        "Bool" => Read::Bool,
        "Attr" => Read::Attr,
        "OptAttr" => Read::OptAttr,
        "Type" => Read::Type,
        "OptInt" => Read::OptInt,
        "OptArrayAttr" => Read::OptArrayAttr,
        "OptArrayInt" => Read::OptArrayInt,
        "F64" => Read::F64,
        "ListF64" => Read::ListF64,
        "ListSignedVarInt" => Read::ListSignedVarInt,
        _ => return None,
    })
}

/// Whether a parameter read as `r` prints without the dialect's own C++.
fn printable(r: Read) -> bool {
    matches!(
        r,
        Read::VarInt | Read::SignedVarInt | Read::Str | Read::Bool | Read::Attr | Read::Type
    )
}

impl DeclaredDialect {
    /// Reads an encodings file. The tables are kept for the rest of the
    /// process, as the generated upstream ones are (the reader hands out
    /// `&'static` kinds): load a file once, not per module.
    pub fn from_json(text: &str) -> Result<Self, String> {
        let data: FileData = serde_json::from_str(text).map_err(|e| e.to_string())?;
        if data.rmlir_dialect_encodings != SCHEMA {
            return Err(format!(
                "schema {} (this rmlir-bc reads schema {SCHEMA})",
                data.rmlir_dialect_encodings
            ));
        }
        let dialect = data.dialect.to_ascii_lowercase();
        let (attr_kinds, attrs) = kinds(&dialect, "attribute", data.attrs)?;
        let (type_kinds, types) = kinds(&dialect, "type", data.types)?;
        let spec: &'static DialectSpec = Box::leak(Box::new(DialectSpec {
            name: Box::leak(dialect.clone().into_boxed_str()),
            attrs: Box::leak(attr_kinds.into_boxed_slice()),
            types: Box::leak(type_kinds.into_boxed_slice()),
        }));
        Ok(DeclaredDialect {
            name: dialect,
            spec,
            attrs,
            types,
        })
    }

    /// The attribute (`is_attr`) or type kinds, each with how it prints.
    fn kinds(&self, is_attr: bool) -> impl Iterator<Item = (&'static KindSpec, &Printing)> {
        let (specs, printing) = if is_attr {
            (self.spec.attrs, &self.attrs)
        } else {
            (self.spec.types, &self.types)
        };
        specs.iter().zip(printing)
    }

    /// The body of a decoded entry, printed by its kind's format.
    fn body_of(&self, is_attr: bool, e: Entry<'_, '_>) -> Result<DialectBody, FieldError> {
        let what = if is_attr { "attribute" } else { "type" };
        let (_, p) = self
            .kinds(is_attr)
            .find(|(k, _)| k.code == e.kind.code)
            .ok_or_else(|| {
                FieldError::entry(format!(
                    "{} {what} {}: no printing",
                    self.name, e.kind.class
                ))
            })?;
        let format = p.format.as_ref().map_err(|why| {
            FieldError::entry(format!(
                "{} {what} {} (code {}) cannot be printed: {why}",
                self.name, e.kind.class, e.kind.code
            ))
        })?;
        let mnemonic = p.mnemonic.as_deref().unwrap_or_default();
        let mut b = BodyBuilder::default();
        b.text(mnemonic);
        let mut sp = Spacing::default();
        for el in format {
            match el {
                Element::Lit(l) => sp.literal(&mut b, l),
                Element::Param(i) => sp.value(&mut b, &e, *i, &self.name)?,
                Element::Struct(members) => {
                    for (k, &i) in members.iter().enumerate() {
                        if k > 0 {
                            sp.literal(&mut b, ",");
                        }
                        sp.literal(&mut b, e.kind.steps[i].name);
                        sp.literal(&mut b, "=");
                        sp.value(&mut b, &e, i, &self.name)?;
                    }
                }
            }
        }
        Ok(DialectBody {
            dialect: self.name.as_str().into(),
            pieces: b.pieces,
        })
    }

    /// The kind and fields of a body read from text: the first kind (by
    /// code) with the body's mnemonic whose format reads the whole body.
    fn fields_of(
        &self,
        is_attr: bool,
        body: &DialectBody,
    ) -> Option<(&'static KindSpec, Vec<Field>)> {
        let mnemonic = body.mnemonic();
        self.kinds(is_attr).find_map(|(kind, p)| {
            let (Some(m), Ok(format)) = (&p.mnemonic, &p.format) else {
                return None;
            };
            if m != mnemonic {
                return None;
            }
            let fields = parse_fields(&body.pieces, m.len(), kind, format)?;
            Some((kind, fields))
        })
    }
}

fn kinds(
    dialect: &str,
    what: &str,
    data: Vec<KindData>,
) -> Result<(Vec<KindSpec>, Vec<Printing>), String> {
    let mut specs = Vec::with_capacity(data.len());
    let mut printing = Vec::with_capacity(data.len());
    for k in data {
        let at = format!("{dialect} {what} {} (code {})", k.class, k.code);
        if specs.iter().any(|s: &KindSpec| s.code == k.code) {
            return Err(format!("{at}: a second kind with this code"));
        }
        let mut steps = Vec::with_capacity(k.steps.len());
        for s in &k.steps {
            let read = read_of(&s.read)
                .ok_or_else(|| format!("{at}: unknown read '{}' of ${}", s.read, s.name))?;
            steps.push(Step {
                name: Box::leak(s.name.clone().into_boxed_str()),
                read,
            });
        }
        let format = match (k.format, &k.mnemonic) {
            (Some(f), Some(m)) if is_mnemonic(m) => {
                check_format(&f, &steps).map_err(|e| format!("{at}: {e}"))?;
                Ok(f)
            }
            (Some(_), _) => return Err(format!("{at}: a format without a valid mnemonic")),
            (None, _) => Err(k
                .why
                .unwrap_or_else(|| "the file gives no format".to_string())),
        };
        printing.push(Printing {
            mnemonic: k.mnemonic,
            format,
        });
        specs.push(KindSpec {
            code: k.code,
            class: Box::leak(k.class.into_boxed_str()),
            steps: Box::leak(steps.into_boxed_slice()),
        });
    }
    Ok((specs, printing))
}

fn is_mnemonic(m: &str) -> bool {
    !m.is_empty()
        && m.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.')
}

/// Every parameter is printed exactly once, in a form we print.
fn check_format(format: &[Element], steps: &[Step]) -> Result<(), String> {
    let mut seen = vec![false; steps.len()];
    let mut see = |i: usize| -> Result<(), String> {
        let s = steps
            .get(i)
            .ok_or_else(|| format!("the format names read {i}, of {}", steps.len()))?;
        if !printable(s.read) {
            return Err(format!(
                "${} is read as {:?}, which we do not print",
                s.name, s.read
            ));
        }
        if std::mem::replace(&mut seen[i], true) {
            return Err(format!("the format prints ${} twice", s.name));
        }
        Ok(())
    };
    for el in format {
        match el {
            Element::Lit(l) if l.is_empty() || l.contains(char::is_whitespace) => {
                return Err(format!("literal `{l}` is not one we print"));
            }
            Element::Lit(_) => {}
            Element::Param(i) => see(*i)?,
            Element::Struct(m) => {
                for &i in m {
                    see(i)?
                }
            }
        }
    }
    match seen.iter().position(|s| !s) {
        Some(i) => Err(format!("the format does not print ${}", steps[i].name)),
        None => Ok(()),
    }
}

/// mlir-tblgen's spacing between the elements of a generated attribute or
/// type printer (`AttrOrTypeFormatGen`, `shouldEmitSpaceBefore`).
struct Spacing {
    should_emit_space: bool,
    last_was_punctuation: bool,
}

impl Default for Spacing {
    fn default() -> Self {
        Spacing {
            should_emit_space: true,
            last_was_punctuation: false,
        }
    }
}

impl Spacing {
    fn literal(&mut self, b: &mut BodyBuilder, l: &str) {
        let first = l.as_bytes()[0];
        let before = if l.len() != 1 && l != "->" {
            true
        } else if self.last_was_punctuation {
            !b">)}],".contains(&first)
        } else {
            !b"<>(){}[],".contains(&first)
        };
        if self.should_emit_space && before {
            b.text(" ");
        }
        b.text(l);
        self.should_emit_space = l.len() != 1 || !b"<({[".contains(&first);
        self.last_was_punctuation = !(first == b'_' || first.is_ascii_alphabetic());
    }

    fn value(
        &mut self,
        b: &mut BodyBuilder,
        e: &Entry<'_, '_>,
        i: usize,
        dialect: &str,
    ) -> Result<(), FieldError> {
        if self.should_emit_space || !self.last_was_punctuation {
            b.text(" ");
        }
        self.should_emit_space = true;
        self.last_was_punctuation = false;
        match e.values.get(i) {
            Some(Value::U(v)) => b.text(&v.to_string()),
            Some(Value::S(v)) => b.text(&v.to_string()),
            Some(Value::Bool(v)) => b.text(if *v { "true" } else { "false" }),
            Some(Value::Str(s)) => {
                let mut q = String::with_capacity(s.len() + 2);
                rmlir_format::escape::write_quoted(s, &mut q);
                b.text(&q);
            }
            Some(Value::Attr(Some(a))) => b.attr(*a),
            Some(Value::Type(t)) => b.ty(*t),
            _ => {
                return Err(FieldError::field(
                    i,
                    format!(
                        "{dialect} {}: ${} has no value to print",
                        e.kind.class, e.kind.steps[i].name
                    ),
                ))
            }
        }
        Ok(())
    }
}

/// The fields of `kind` read from `pieces` (after the mnemonic's `skip`
/// bytes) by `format`, or `None` when the text does not fit.
fn parse_fields(
    pieces: &[BodyPiece],
    skip: usize,
    kind: &KindSpec,
    format: &[Element],
) -> Option<Vec<Field>> {
    let mut c = BodyCursor::new(pieces);
    c.pos = skip;
    let mut fields: Vec<Option<Field>> = vec![None; kind.steps.len()];
    for el in format {
        match el {
            Element::Lit(l) => {
                if !eat_literal(&mut c, l) {
                    return None;
                }
            }
            Element::Param(i) => fields[*i] = Some(parse_value(&mut c, kind.steps[*i].read)?),
            Element::Struct(members) => {
                // In any order, as the generated parser accepts them.
                for k in 0..members.len() {
                    if k > 0 && !c.eat(",") {
                        return None;
                    }
                    let name = c.ident()?;
                    let &i = members.iter().find(|&&i| kind.steps[i].name == name)?;
                    if fields[i].is_some() || !c.eat("=") {
                        return None;
                    }
                    fields[i] = Some(parse_value(&mut c, kind.steps[i].read)?);
                }
            }
        }
    }
    if !c.at_end() {
        return None;
    }
    fields.into_iter().collect()
}

/// A literal: punctuation as it is, a keyword as a whole word.
fn eat_literal(c: &mut BodyCursor<'_>, l: &str) -> bool {
    let first = l.as_bytes()[0];
    if first == b'_' || first.is_ascii_alphabetic() {
        let save = c.pos;
        if c.ident().as_deref() == Some(l) {
            return true;
        }
        c.pos = save;
        false
    } else {
        c.eat(l)
    }
}

fn parse_value(c: &mut BodyCursor<'_>, read: Read) -> Option<Field> {
    c.skip_ws();
    Some(match read {
        Read::VarInt => Field::U(number(c, false)?.parse().ok()?),
        Read::SignedVarInt => Field::S(number(c, true)?.parse().ok()?),
        Read::Bool => match c.ident()?.as_str() {
            "true" => Field::Bool(true),
            "false" => Field::Bool(false),
            _ => return None,
        },
        Read::Str => Field::Str(c.string_lit()?),
        Read::Attr => match c.piece()? {
            BodyPiece::Attr(a) => Field::Attr(*a),
            _ => return None,
        },
        Read::Type => match c.piece()? {
            BodyPiece::Type(t) => Field::Type(*t),
            _ => return None,
        },
        _ => return None,
    })
}

fn number(c: &mut BodyCursor<'_>, signed: bool) -> Option<String> {
    let mut s = String::new();
    if signed && c.peek_byte() == Some(b'-') {
        c.pos += 1;
        s.push('-');
    }
    while let Some(d) = c.peek_byte().filter(u8::is_ascii_digit) {
        s.push(d as char);
        c.pos += 1;
    }
    (s.len() > usize::from(s.starts_with('-'))).then_some(s)
}

impl BytecodeDialect for DeclaredDialect {
    fn name(&self) -> &str {
        &self.name
    }

    fn parses_bodies(&self) -> bool {
        true
    }

    fn declared_encodings(&self) -> Option<&'static DialectSpec> {
        Some(self.spec)
    }

    fn attr_from_fields(&self, _ctx: &Context, e: Entry<'_, '_>) -> Result<AttrData, FieldError> {
        Ok(AttrData::Dialect {
            body: Box::new(self.body_of(true, e)?),
            ty: None,
        })
    }

    fn type_from_fields(&self, _ctx: &Context, e: Entry<'_, '_>) -> Result<TypeData, FieldError> {
        Ok(TypeData::Dialect(self.body_of(false, e)?))
    }

    fn attr_fields(
        &self,
        _space: &mut dyn BodyInterner,
        body: &DialectBody,
    ) -> Option<(u64, Vec<Field>)> {
        self.fields_of(true, body)
            .map(|(kind, fields)| (kind.code, fields))
    }

    fn type_fields(
        &self,
        _space: &mut dyn BodyInterner,
        body: &DialectBody,
    ) -> Option<(u64, Vec<Field>)> {
        self.fields_of(false, body)
            .map(|(kind, fields)| (kind.code, fields))
    }

    /// A builtin value stands where a kind with this mnemonic has an
    /// attribute or type parameter: by name inside `struct(…)`; at a
    /// positional place only when every positional parameter of those
    /// kinds is of one sort (the parser does not say which place it is).
    fn builtin_at(&self, mnemonic: &str, is_attr: bool, param: Option<&str>) -> Option<Builtin> {
        let mut sorts = Vec::new();
        for (kind, p) in self
            .kinds(is_attr)
            .filter(|(_, p)| p.mnemonic.as_deref() == Some(mnemonic))
        {
            let Ok(format) = &p.format else {
                continue;
            };
            for el in format {
                let steps: Vec<usize> = match (el, param) {
                    (Element::Param(i), None) => vec![*i],
                    (Element::Struct(m), Some(n)) => m
                        .iter()
                        .copied()
                        .filter(|&i| kind.steps[i].name == n)
                        .collect(),
                    _ => continue,
                };
                sorts.extend(steps.iter().map(|&i| match kind.steps[i].read {
                    Read::Attr => Some(Builtin::Attr),
                    Read::Type => Some(Builtin::Type),
                    _ => None,
                }));
            }
        }
        let first = *sorts.first()?;
        sorts.iter().all(|s| *s == first).then_some(first).flatten()
    }

    /// A hand-written body is respelled as the dialect's printer would
    /// print the value it parses to.
    fn respell_body(
        &self,
        _space: &mut dyn BodyInterner,
        is_attr: bool,
        pieces: &[BodyPiece],
    ) -> Option<Vec<BodyPiece>> {
        let body = DialectBody {
            dialect: self.name.as_str().into(),
            pieces: pieces.to_vec(),
        };
        let (kind, fields) = self.fields_of(is_attr, &body)?;
        let values: Vec<Value<'_>> = fields.iter().map(Field::as_value).collect();
        let e = Entry {
            kind,
            values: &values,
        };
        self.body_of(is_attr, e).ok().map(|b| b.pieces)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toy() -> DeclaredDialect {
        DeclaredDialect::from_json(
            r#"{"rmlir_dialect_encodings": 1, "dialect": "Toy",
              "attrs": [{"code": 0, "class": "PairAttr", "mnemonic": "pair",
                         "steps": [{"name": "n", "read": "VarInt"}, {"name": "s", "read": "Str"}],
                         "format": [{"lit": "<"}, {"param": 0}, {"lit": ","}, {"param": 1}, {"lit": ">"}]},
                        {"code": 1, "class": "KvAttr", "mnemonic": "kv",
                         "steps": [{"name": "key", "read": "Str"}, {"name": "delta", "read": "SignedVarInt"}],
                         "format": [{"lit": "<"}, {"struct": [0, 1]}, {"lit": ">"}]},
                        {"code": 2, "class": "FileAttr", "mnemonic": "file",
                         "steps": [{"name": "name", "read": "Str"}, {"name": "dir", "read": "Str"}],
                         "format": [{"lit": "<"}, {"param": 0}, {"lit": "in"}, {"param": 1}, {"lit": ">"}]},
                        {"code": 3, "class": "OddAttr", "steps": [{"name": "x", "read": "F64"}],
                         "mnemonic": null, "format": null, "why": "custom printer"}],
              "types": []}"#,
        )
        .unwrap()
    }

    fn print(d: &DeclaredDialect, code: u64, values: &[Value<'_>]) -> Result<String, FieldError> {
        let kind = d.spec.attrs.iter().find(|k| k.code == code).unwrap();
        let body = d.body_of(true, Entry { kind, values })?;
        Ok(body
            .pieces
            .iter()
            .map(|p| match p {
                BodyPiece::Text(t) => t.to_string(),
                _ => "@".into(),
            })
            .collect())
    }

    /// Expected spellings derived by hand from mlir-tblgen's spacing
    /// rules: none after `<` or before `,` and `>`, one after `,`, around
    /// `=` and around keywords.
    #[test]
    fn prints_with_generated_spacing() {
        let d = toy();
        assert_eq!(
            print(&d, 0, &[Value::U(3), Value::Str(b"a\"b")]).unwrap(),
            r#"pair<3, "a\22b">"#
        );
        assert_eq!(
            print(&d, 1, &[Value::Str(b"k"), Value::S(-2)]).unwrap(),
            r#"kv<key = "k", delta = -2>"#
        );
        assert_eq!(
            print(&d, 2, &[Value::Str(b"a.c"), Value::Str(b"/d")]).unwrap(),
            r#"file<"a.c" in "/d">"#
        );
        let err = print(&d, 3, &[Value::F64(0)]).unwrap_err();
        assert_eq!(
            err.msg,
            "toy attribute OddAttr (code 3) cannot be printed: custom printer"
        );
    }

    #[test]
    fn parses_what_it_prints_and_any_struct_order() {
        let d = toy();
        let mut ctx = Context::new();
        let body = |t: &str| DialectBody {
            dialect: "toy".into(),
            pieces: vec![BodyPiece::Text(t.into())],
        };
        let (code, f) = d
            .attr_fields(&mut ctx, &body(r#"pair< 7 ,"x\0Ay" >"#))
            .unwrap();
        assert_eq!(code, 0);
        assert!(matches!(&f[..], [Field::U(7), Field::Str(s)] if s == b"x\ny"));
        let (code, f) = d
            .attr_fields(&mut ctx, &body(r#"kv<delta = -5, key = "q">"#))
            .unwrap();
        assert_eq!(code, 1);
        assert!(matches!(&f[..], [Field::Str(s), Field::S(-5)] if s == b"q"));
        let (code, _) = d
            .attr_fields(&mut ctx, &body(r#"file<"a" in "b">"#))
            .unwrap();
        assert_eq!(code, 2);
        // Not the format: a textual entry.
        assert!(d.attr_fields(&mut ctx, &body(r#"pair<7>"#)).is_none());
        assert!(d
            .attr_fields(&mut ctx, &body(r#"file<"a" inside "b">"#))
            .is_none());
        assert!(d.attr_fields(&mut ctx, &body(r#"pair<-1, "x">"#)).is_none());
        // Respelled as printed.
        let r = d
            .respell_body(&mut ctx, true, &body(r#"pair<7,"x">"#).pieces)
            .unwrap();
        assert_eq!(r, body(r#"pair<7, "x">"#).pieces);
    }

    #[test]
    fn bad_files_are_refused_with_the_kind_named() {
        let bad = |s: &str| DeclaredDialect::from_json(s).err().unwrap();
        let one = |kind: &str| {
            format!(
                r#"{{"rmlir_dialect_encodings": 1, "dialect": "t", "attrs": [{kind}], "types": []}}"#
            )
        };
        assert!(
            bad(r#"{"rmlir_dialect_encodings": 2, "dialect": "t", "attrs": [], "types": []}"#)
                .contains("schema 2")
        );
        let e = bad(&one(
            r#"{"code": 0, "class": "A", "steps": [{"name": "x", "read": "Blob"}], "mnemonic": null, "format": null}"#,
        ));
        assert_eq!(e, "t attribute A (code 0): unknown read 'Blob' of $x");
        let e = bad(&one(
            r#"{"code": 0, "class": "A", "steps": [{"name": "x", "read": "VarInt"}], "mnemonic": "a", "format": [{"lit": "<"}, {"lit": ">"}]}"#,
        ));
        assert_eq!(e, "t attribute A (code 0): the format does not print $x");
        let e = bad(&one(
            r#"{"code": 0, "class": "A", "steps": [], "mnemonic": "a", "format": [{"param": 4}]}"#,
        ));
        assert_eq!(e, "t attribute A (code 0): the format names read 4, of 0");
    }
}
