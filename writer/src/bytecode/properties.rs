//! Operation properties (SPEC.md §6.9): which payload an op gets, the ODS
//! `writeProperties` encoding of a registered op (from the op registry's
//! layouts), and, before v5, the merged attribute dictionary — with an
//! error wherever the requested version cannot hold what the IR has.

use super::dialect_hooks::WriteHooks;
use super::entries::{int_words, Sink};
use super::interner::{AttrRef, DictSpace};
use super::WriteError;
use rmlir_format::bytecode::{VERSION_NATIVE_PROPERTIES, VERSION_NATIVE_SEGMENT_SIZES};
use rmlir_format::op_registry::{FieldKind, OpInfo, OpRegistry};
use rmlir_format::*;

/// The properties payload of one op.
pub enum OpProps<'m> {
    None,
    /// An unregistered op: one reference to its `<{…}>` attribute.
    Unregistered(AttrId),
    /// A registered op: its ODS layout, filled from the `<{…}>` entries.
    Ods {
        info: &'static OpInfo,
        entries: &'m [(Bytes, AttrId)],
    },
}

fn name(m: &Module, op: OpId) -> String {
    String::from_utf8_lossy(m.op_name(op)).into_owned()
}

/// The properties dictionary's entries of a registered op.
fn entries_of(m: &Module, op: OpId) -> Result<&[(Bytes, AttrId)], WriteError> {
    match m.op(op).properties {
        None => Ok(&[]),
        Some(p) => match m.ctx.attr(p) {
            AttrData::Dictionary(d) => Ok(d),
            _ => Err(WriteError::at(
                m,
                op,
                format!(
                    "the properties of registered operation '{}' are not a dictionary",
                    name(m, op)
                ),
            )),
        },
    }
}

pub fn classify<'m>(
    info: Option<&'static OpInfo>,
    m: &'m Module,
    op: OpId,
) -> Result<OpProps<'m>, WriteError> {
    if let Some(info) = info {
        check_entries(info, m, op)?;
    }
    classify_checked(info, m, op)
}

/// [`classify`] of an op the numbering classified without an error: the
/// checks that every entry is a field of the op are not made again.
pub fn classify_checked<'m>(
    info: Option<&'static OpInfo>,
    m: &'m Module,
    op: OpId,
) -> Result<OpProps<'m>, WriteError> {
    let o = m.op(op);
    let Some(info) = info else {
        return Ok(match o.properties {
            Some(p) => OpProps::Unregistered(p),
            None => OpProps::None,
        });
    };
    if !info.has_properties {
        return Ok(OpProps::None);
    }
    Ok(OpProps::Ods {
        info,
        entries: entries_of(m, op)?,
    })
}

/// That a registered op's properties are a dictionary of its fields, none
/// of which would be lost.
fn check_entries(info: &OpInfo, m: &Module, op: OpId) -> Result<(), WriteError> {
    let entries = entries_of(m, op)?;
    if !info.has_properties {
        if let Some((n, _)) = entries.first() {
            return Err(WriteError::at(
                m,
                op,
                format!(
                    "operation '{}' has no properties in MLIR 22, but the IR gives it property '{}'; it would be lost",
                    name(m, op),
                    String::from_utf8_lossy(n)
                ),
            ));
        }
        return Ok(());
    }
    for (n, _) in entries {
        if !info.fields_v6.iter().any(|f| f.name.as_bytes() == &n[..]) {
            return Err(WriteError::at(
                m,
                op,
                format!(
                    "'{}' is not a property of operation '{}' in MLIR 22; it would be lost",
                    String::from_utf8_lossy(n),
                    name(m, op)
                ),
            ));
        }
    }
    Ok(())
}

fn lookup(entries: &[(Bytes, AttrId)], name: &str) -> Option<AttrId> {
    entries
        .iter()
        .find(|(n, _)| &n[..] == name.as_bytes())
        .map(|(_, a)| *a)
}

/// Writes a registered op's ODS properties payload for `version`.
pub fn write_ods<S: Sink>(
    s: &mut S,
    m: &Module,
    op: OpId,
    info: &OpInfo,
    entries: &[(Bytes, AttrId)],
    version: u64,
) -> Result<(), WriteError> {
    let fields = if version >= VERSION_NATIVE_SEGMENT_SIZES {
        &info.fields_v6
    } else {
        &info.fields_v5
    };
    for f in fields {
        let v = lookup(entries, &f.name);
        write_field(s, m, &f.kind, v).map_err(|why| {
            WriteError::at(
                m,
                op,
                format!(
                    "cannot encode property '{}' of '{}': {why}",
                    f.name,
                    name(m, op)
                ),
            )
        })?;
    }
    Ok(())
}

fn integer(m: &Module, a: AttrId) -> Result<&num_bigint::BigInt, String> {
    match m.ctx.attr(a) {
        AttrData::Integer { value, .. } => Ok(value),
        _ => Err("expected an integer attribute".into()),
    }
}

/// An integer property's value, which mlir-opt shows (and reads) as a
/// signless integer attribute of exactly the property's width; another
/// width would be re-typed on the way through the positional payload.
fn integer_of_width(m: &Module, a: AttrId, bits: u32) -> Result<&num_bigint::BigInt, String> {
    match m.ctx.attr(a) {
        AttrData::Integer { value, ty }
            if matches!(m.ctx.ty(*ty), TypeData::Integer { width, .. } if *width == bits) =>
        {
            Ok(value)
        }
        AttrData::Integer { .. } => Err(format!(
            "expected an i{bits} integer (the property's width); a value of another type would read back re-typed"
        )),
        _ => Err("expected an integer attribute".into()),
    }
}

fn segment_sizes(m: &Module, a: AttrId) -> Result<Vec<u64>, String> {
    match m.ctx.attr(a) {
        // `DenseI32ArrayAttr`: signless, as MLIR's storage is (mlir-opt
        // refuses `array<ui32: …>` here; the payload has no element type,
        // so it would read back as `i32`).
        AttrData::DenseArray { elem, data }
            if matches!(
                m.ctx.ty(*elem),
                TypeData::Integer {
                    width: 32,
                    signedness: Signedness::Signless
                }
            ) =>
        {
            Ok(data
                .chunks_exact(4)
                .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]) as i64 as u64)
                .collect())
        }
        _ => Err("expected an array<i32: …> of segment sizes".into()),
    }
}

fn write_field<S: Sink>(
    s: &mut S,
    m: &Module,
    kind: &FieldKind,
    v: Option<AttrId>,
) -> Result<(), String> {
    match kind {
        FieldKind::Attr | FieldKind::LegacySegments => match v {
            Some(a) => {
                if matches!(kind, FieldKind::LegacySegments) {
                    segment_sizes(m, a)?;
                }
                s.attr(AttrRef::Id(a));
            }
            None => return Err("it is required but missing".into()),
        },
        FieldKind::OptAttr => s.opt_attr(v.map(AttrRef::Id)),
        FieldKind::SparseSegments { size } => {
            let Some(a) = v else {
                return Err("it is required but missing".into());
            };
            let vals = segment_sizes(m, a)?;
            if vals.len() != *size {
                return Err(format!(
                    "expected {size} segment sizes, found {}",
                    vals.len()
                ));
            }
            write_sparse_array(s, &vals);
        }
        FieldKind::Int { bits, signed } => {
            let x = match v {
                None => 0,
                Some(a) => {
                    let value = integer_of_width(m, a, *bits)?;
                    // The C++ storage converted to uint64_t: sign-extended
                    // for signed integers, zero-extended otherwise.
                    if *signed {
                        int_words(value, 64)[0]
                    } else {
                        int_words(value, (*bits).min(64))[0]
                    }
                }
            };
            s.varint(x);
        }
        FieldKind::Enum { bits } => {
            let x = match v {
                None => 0,
                Some(a) => int_words(integer_of_width(m, a, *bits)?, (*bits).min(64))[0],
            };
            s.varint(x);
        }
        FieldKind::Bool => {
            let b = match v {
                None => false,
                Some(a) => !integer(m, a)?.eq(&0.into()),
            };
            s.byte(b as u8);
        }
        FieldKind::Unit => {
            // mlir-opt shows a set unit property as a unit attribute and an
            // unset one as `false` (SPEC.md §7).
            let set = match v.map(|a| m.ctx.attr(a)) {
                None => false,
                Some(AttrData::Unit) => true,
                Some(AttrData::Integer { value, .. }) => !value.eq(&0.into()),
                Some(_) => return Err("expected a unit attribute or `false`".into()),
            };
            s.byte(set as u8);
        }
        FieldKind::String => match v {
            None => s.string(b""),
            Some(a) => match m.ctx.attr(a) {
                AttrData::String { value, .. } => s.string(value),
                _ => return Err("expected a string attribute".into()),
            },
        },
        FieldKind::Array(inner) => match v {
            None => s.varint(0),
            Some(a) => match m.ctx.attr(a) {
                AttrData::Array(elems) => {
                    s.varint(elems.len() as u64);
                    for &e in elems {
                        write_field(s, m, inner, Some(e))?;
                    }
                }
                _ => return Err("expected an array attribute".into()),
            },
        },
        // Shown as an array of zero or one element (SPEC.md §7).
        FieldKind::Optional(inner) => match v.map(|a| (a, m.ctx.attr(a))) {
            None => s.byte(0),
            Some((_, AttrData::Array(elems))) if elems.is_empty() => s.byte(0),
            Some((_, AttrData::Array(elems))) if elems.len() == 1 => {
                s.byte(1);
                write_field(s, m, inner, Some(elems[0]))?;
            }
            Some((_, AttrData::Array(_))) => {
                return Err("expected an optional value: an array of at most one element".into())
            }
            Some((a, _)) => {
                s.byte(1);
                write_field(s, m, inner, Some(a))?;
            }
        },
    }
    Ok(())
}

/// `writeSparseArray`: dense when the last nonzero index is above 256 or
/// more than half the entries are nonzero, else the nonzero entries with
/// their indexes packed into the low bits.
pub fn write_sparse_array<S: Sink>(s: &mut S, vals: &[u64]) {
    let n = vals.len() as u64;
    let nonzero = vals.iter().filter(|&&v| v != 0).count() as u64;
    let last = vals.iter().rposition(|&v| v != 0).unwrap_or(0) as u64;
    if last > 256 || nonzero > n / 2 {
        s.varint(n << 1);
        for &v in vals {
            s.varint(v);
        }
        return;
    }
    s.varint((nonzero << 1) | 1);
    if nonzero == 0 {
        return;
    }
    // ceil(log2(last + 1))
    let bits = 64 - last.leading_zeros() as u64;
    let bits = if last == 0 { 0 } else { bits };
    s.varint(bits);
    for (i, &v) in vals.iter().enumerate() {
        if v != 0 {
            s.varint((v << bits) | i as u64);
        }
    }
}

/// Whether a non-attribute property's value is what a reader of a
/// pre-v5 file gets anyway (the value-initialised storage).
fn is_zero_property(m: &Module, kind: &FieldKind, a: AttrId) -> bool {
    match (kind, m.ctx.attr(a)) {
        (
            FieldKind::Int { .. } | FieldKind::Enum { .. } | FieldKind::Bool,
            AttrData::Integer { value, .. },
        ) => value.eq(&0.into()),
        (FieldKind::Unit, AttrData::Integer { value, .. }) => value.eq(&0.into()),
        (FieldKind::String, AttrData::String { value, .. }) => value.is_empty(),
        (FieldKind::Array(_) | FieldKind::Optional(_), AttrData::Array(v)) => v.is_empty(),
        _ => false,
    }
}

/// Whether the dictionary [`op_dictionary`] gives for `o` is its own
/// attribute dictionary (from v5, or an op without properties), not one
/// merged with its properties.
pub fn dictionary_alone(o: &Operation, version: u64) -> bool {
    version >= VERSION_NATIVE_PROPERTIES || o.properties.is_none()
}

/// The attribute dictionary an op's header refers to: from v5 its
/// discardable attributes; before v5 those merged with its inherent
/// attributes (MLIR's `getAttrDictionary`). `None` when empty.
///
/// `empty` is the empty dictionary's id where it is known: an op whose
/// dictionary it is needs no look at the attribute (in a large module, a
/// cache miss per op).
#[allow(clippy::too_many_arguments)]
pub fn op_dictionary(
    space: &mut impl DictSpace,
    registry: &'static OpRegistry,
    hooks: &WriteHooks<'_>,
    m: &Module,
    op: OpId,
    version: u64,
    empty: Option<AttrId>,
) -> Result<Option<AttrId>, WriteError> {
    let o = m.op(op);
    let alone = dictionary_alone(o, version);
    if alone && empty == Some(o.attributes) {
        return Ok(None);
    }
    let discardable = match m.ctx.attr(o.attributes) {
        AttrData::Dictionary(d) => d,
        _ => {
            return Err(WriteError::at(
                m,
                op,
                "the attribute dictionary of an operation is not a dictionary".into(),
            ))
        }
    };
    if alone {
        return Ok((!discardable.is_empty()).then_some(o.attributes));
    }
    if let (None, Some(inherent)) = (
        super::op_info(m, registry, m.op_name(op)),
        hooks.inherent_attributes(m.op_name(op)),
    ) {
        // A hooked op (SPEC.md §9.3): its properties are its inherent
        // attributes, merged into the dictionary as MLIR does below v5.
        let AttrData::Dictionary(props) = m.ctx.attr(o.properties.expect("checked above")) else {
            return Err(WriteError::at(
                m,
                op,
                format!(
                    "bytecode version {version} cannot hold the non-dictionary properties of '{}'; they would be lost",
                    name(m, op)
                ),
            ));
        };
        let mut merged: Vec<(Bytes, AttrId)> = discardable.clone();
        for (n, a) in props {
            if !inherent.iter().any(|i| i.as_bytes() == &n[..]) {
                return Err(WriteError::at(
                    m,
                    op,
                    format!(
                        "bytecode version {version} cannot hold property '{}' of '{}' (non-attribute properties need version 5 or later); it would be lost",
                        String::from_utf8_lossy(n),
                        name(m, op)
                    ),
                ));
            }
            if !merged.iter().any(|(x, _)| x == n) {
                merged.push((n.clone(), *a));
            }
        }
        merged.sort_by(|a, b| a.0.cmp(&b.0));
        if merged.is_empty() {
            return Ok(None);
        }
        return interned(space, merged, m, op);
    }
    let Some(info) = super::op_info(m, registry, m.op_name(op)) else {
        return Err(WriteError::at(
            m,
            op,
            format!(
                "bytecode version {version} cannot hold the properties of unregistered operation '{}' (properties need version 5 or later); they would be lost",
                name(m, op)
            ),
        ));
    };
    let entries = entries_of(m, op)?;
    let mut merged: Vec<(Bytes, AttrId)> = discardable.clone();
    for (n, a) in entries {
        let Some(f) = info.fields_v6.iter().find(|f| f.name.as_bytes() == &n[..]) else {
            return Err(WriteError::at(
                m,
                op,
                format!(
                    "'{}' is not a property of operation '{}' in MLIR 22; it would be lost",
                    String::from_utf8_lossy(n),
                    name(m, op)
                ),
            ));
        };
        match f.kind {
            FieldKind::Attr
            | FieldKind::OptAttr
            | FieldKind::LegacySegments
            | FieldKind::SparseSegments { .. } => {
                if !merged.iter().any(|(x, _)| x == n) {
                    merged.push((n.clone(), *a));
                }
            }
            ref k => {
                if !is_zero_property(m, k, *a) {
                    return Err(WriteError::at(
                        m,
                        op,
                        format!(
                            "bytecode version {version} cannot hold property '{}' of '{}' (non-attribute properties need version 5 or later); it would be lost",
                            f.name,
                            name(m, op)
                        ),
                    ));
                }
            }
        }
    }
    if merged.is_empty() {
        return Ok(None);
    }
    merged.sort_by(|a, b| a.0.cmp(&b.0));
    interned(space, merged, m, op)
}

/// The id of the merged dictionary `entries` of `op`.
fn interned(
    space: &mut impl DictSpace,
    entries: Vec<(Bytes, AttrId)>,
    m: &Module,
    op: OpId,
) -> Result<Option<AttrId>, WriteError> {
    match space.dictionary(AttrData::Dictionary(entries)) {
        Some(d) => Ok(Some(d)),
        None => Err(WriteError::at(
            m,
            op,
            "internal error: the attribute dictionary was not numbered (please report this)".into(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Bytes(Vec<u64>);
    impl Sink for Bytes {
        const NUMBERING: bool = false;
        fn attr(&mut self, _: AttrRef<'_>) {}
        fn opt_attr(&mut self, _: Option<AttrRef<'_>>) {}
        fn ty(&mut self, _: TypeId) {}
        fn varint(&mut self, v: u64) {
            self.0.push(v);
        }
        fn signed_varint(&mut self, _: i64) {}
        fn byte(&mut self, _: u8) {}
        fn string(&mut self, _: &[u8]) {}
        fn blob(&mut self, _: &[u8]) {}
        fn resource(&mut self, _: &[u8]) {}
    }

    #[test]
    fn sparse_arrays() {
        let enc = |v: &[u64]| {
            let mut s = Bytes(Vec::new());
            write_sparse_array(&mut s, v);
            s.0
        };
        assert_eq!(enc(&[0, 0]), vec![1]);
        assert_eq!(enc(&[1, 0]), vec![3, 0, 1]);
        assert_eq!(enc(&[0, 1]), vec![3, 1, 3]);
        assert_eq!(enc(&[1, 1]), vec![4, 1, 1]);
        assert_eq!(enc(&[1, 3, 0]), vec![6, 1, 3, 0]);
        assert_eq!(enc(&[2, 0, 0, 0, 0]), vec![3, 0, 2]);
        assert_eq!(enc(&[0, 0, 0, 1, 0, 0, 0, 0]), vec![3, 2, (1 << 2) | 3]);
    }
}
