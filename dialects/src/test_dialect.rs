//! The bytecode hooks of mlir-opt 22's `test` dialect (SPEC.md §9.3), as
//! upstream's versioning tests exercise them: version `major.minor`
//! (current 2.0), the `#test.attr_params<v0, v1>` custom encoding whose
//! two numbers swapped places in 2.0, `test.versionedA` whose `modifier`
//! property exists only from 2.0 (an upgrade from older files sets it to
//! `false`), and `test.with_versioned_properties` whose second number
//! exists only from 2.0.

use num_bigint::BigInt;
use rmlir_format::attrs::{AttrData, BodyPiece, DialectBody};
use rmlir_format::context::{AttrId, Context};
use rmlir_format::dialect_hooks::{
    walk_ops, BytecodeDialect, DialectReader, DialectVersion, DialectWriter, HookError, HookResult,
    MajorMinor,
};
use rmlir_format::ir::{Module, OpId};
use rmlir_format::types::{Signedness, TypeData};
use std::sync::Arc;

const CURRENT: MajorMinor = MajorMinor { major: 2, minor: 0 };
/// The kind code of `#test.attr_params`.
const ATTR_PARAMS: u64 = 0;
/// The kind code of `!test.i32`.
const TEST_I32: u64 = 99;

fn is_test_i32(ctx: &Context, t: rmlir_format::context::TypeId) -> bool {
    matches!(ctx.ty(t), TypeData::Dialect(b) if &*b.dialect == "test"
        && matches!(b.pieces.as_slice(), [BodyPiece::Text(s)] if &**s == "i32"))
}

/// The bytecode hooks of mlir-opt's `test` dialect (SPEC.md §9.3).
pub struct TestDialect;

fn attr_params(ctx: &mut Context, v0: i64, v1: i64) -> AttrId {
    ctx.intern_attr(AttrData::Dialect {
        body: Box::new(DialectBody {
            dialect: "test".into(),
            pieces: vec![BodyPiece::Text(format!("attr_params<{v0}, {v1}>").into())],
        }),
        ty: None,
    })
}

/// `(v0, v1)` of a `#test.attr_params<v0, v1>`.
fn attr_params_of(ctx: &Context, a: AttrId) -> Option<(i64, i64)> {
    let AttrData::Dialect { body, ty: None } = ctx.attr(a) else {
        return None;
    };
    if &*body.dialect != "test" {
        return None;
    }
    let [BodyPiece::Text(t)] = body.pieces.as_slice() else {
        return None;
    };
    let inner = t.strip_prefix("attr_params<")?.strip_suffix('>')?;
    let (a, b) = inner.split_once(',')?;
    let (a, b): (i64, i64) = (a.trim().parse().ok()?, b.trim().parse().ok()?);
    // Only the printed spelling: `<05, 24>` written in binary would read
    // back as `<5, 24>`, so it stays a textual entry (the text parser
    // keeps dialect bodies as written; fuzz finding, SPEC.md §9.3).
    (format!("attr_params<{a}, {b}>") == **t).then_some((a, b))
}

fn int_attr(ctx: &mut Context, width: u32, v: u64) -> AttrId {
    let ty = ctx.intern_type(TypeData::Integer {
        width,
        signedness: Signedness::Signless,
    });
    ctx.intern_attr(AttrData::Integer {
        value: BigInt::from(v),
        ty,
    })
}

fn int_value(ctx: &Context, a: AttrId) -> Option<u64> {
    match ctx.attr(a) {
        AttrData::Integer { value, .. } => u64::try_from(value).ok(),
        _ => None,
    }
}

fn dict(ctx: &mut Context, mut entries: Vec<(&str, AttrId)>) -> AttrId {
    entries.sort_by(|a, b| a.0.cmp(b.0));
    ctx.intern_attr(AttrData::Dictionary(
        entries
            .into_iter()
            .map(|(k, v)| (k.as_bytes().into(), v))
            .collect(),
    ))
}

fn dict_get(ctx: &Context, a: Option<AttrId>, key: &str) -> Option<AttrId> {
    match ctx.attr(a?) {
        AttrData::Dictionary(e) => e
            .iter()
            .find(|(k, _)| &k[..] == key.as_bytes())
            .map(|(_, v)| *v),
        _ => None,
    }
}

const VERSIONED_A: &[u8] = b"test.versionedA";
const VERSIONED_B: &[u8] = b"test.versionedB";
const WITH_VERSIONED_PROPS: &[u8] = b"test.with_versioned_properties";

impl BytecodeDialect for TestDialect {
    fn name(&self) -> &str {
        "test"
    }

    fn current_version(&self) -> Option<Arc<dyn DialectVersion>> {
        Some(Arc::new(CURRENT))
    }

    fn read_version(&self, r: &mut dyn DialectReader) -> HookResult<Arc<dyn DialectVersion>> {
        MajorMinor::read(r)
    }

    fn write_version(&self, version: &dyn DialectVersion, w: &mut dyn DialectWriter) {
        MajorMinor::write(version, w)
    }

    fn parse_version(&self, text: &str) -> HookResult<Arc<dyn DialectVersion>> {
        MajorMinor::parse(text)
    }

    fn read_attribute(&self, r: &mut dyn DialectReader) -> HookResult<Option<AttrId>> {
        let v = MajorMinor::or_current(r.dialect_version("test"), CURRENT);
        if v.major >= 2 && v != CURRENT {
            return Err(HookError(format!(
                "test dialect attribute encoding of version {v} is unknown (this reader knows up to {CURRENT})"
            )));
        }
        if r.read_varint()? != ATTR_PARAMS {
            return Ok(None);
        }
        let (first, second) = (r.read_varint()?, r.read_varint()?);
        // Before 2.0 the parameters were written v1 first.
        let (v0, v1) = if v.major < 2 {
            (second, first)
        } else {
            (first, second)
        };
        // MLIR keeps them as C++ `int`.
        let (v0, v1) = (v0 as u32 as i32 as i64, v1 as u32 as i32 as i64);
        Ok(Some(attr_params(r.ctx(), v0, v1)))
    }

    fn write_attribute(&self, attr: AttrId, w: &mut dyn DialectWriter) -> bool {
        let Some((v0, v1)) = attr_params_of(w.ctx(), attr) else {
            return false;
        };
        let (v0, v1) = (v0 as i32 as u32 as u64, v1 as i32 as u32 as u64);
        w.write_varint(ATTR_PARAMS);
        if MajorMinor::or_current(w.dialect_version("test"), CURRENT).major < 2 {
            w.write_varint(v1);
            w.write_varint(v0);
        } else {
            w.write_varint(v0);
            w.write_varint(v1);
        }
        true
    }

    fn read_type(
        &self,
        r: &mut dyn DialectReader,
    ) -> HookResult<Option<rmlir_format::context::TypeId>> {
        if r.read_varint()? != TEST_I32 {
            return Ok(None);
        }
        Ok(Some(r.ctx().intern_type(TypeData::Dialect(DialectBody {
            dialect: "test".into(),
            pieces: vec![BodyPiece::Text("i32".into())],
        }))))
    }

    fn write_type(&self, ty: rmlir_format::context::TypeId, w: &mut dyn DialectWriter) -> bool {
        if !is_test_i32(w.ctx(), ty) {
            return false;
        }
        w.write_varint(TEST_I32);
        true
    }

    fn inherent_attributes(&self, op: &[u8]) -> Option<Vec<String>> {
        let names: &[&str] = match op {
            VERSIONED_A => &["dims", "modifier"],
            VERSIONED_B => &["attribute"],
            WITH_VERSIONED_PROPS => &[],
            _ => return None,
        };
        Some(names.iter().map(|s| s.to_string()).collect())
    }

    fn handles_properties(&self, op: &[u8]) -> bool {
        matches!(op, VERSIONED_A | VERSIONED_B | WITH_VERSIONED_PROPS)
    }

    fn read_properties(&self, op: &[u8], r: &mut dyn DialectReader) -> HookResult<Option<AttrId>> {
        let v = MajorMinor::or_current(r.dialect_version("test"), CURRENT);
        match op {
            VERSIONED_A => {
                let dims = r.read_attribute()?;
                let mut entries = vec![("dims", dims)];
                if v.major >= 2 {
                    entries.push(("modifier", r.read_attribute()?));
                }
                Ok(Some(dict(r.ctx(), entries)))
            }
            VERSIONED_B => {
                let a = r.read_attribute()?;
                Ok(Some(dict(r.ctx(), vec![("attribute", a)])))
            }
            WITH_VERSIONED_PROPS => {
                let value1 = r.read_varint()?;
                let value2 = if v.major >= 2 { r.read_varint()? } else { 0 };
                let ctx = r.ctx();
                let (a, b) = (int_attr(ctx, 32, value1), int_attr(ctx, 32, value2));
                let inner = dict(ctx, vec![("value1", a), ("value2", b)]);
                Ok(Some(dict(ctx, vec![("prop", inner)])))
            }
            _ => Err(HookError(format!(
                "the test dialect does not read the properties of '{}'",
                String::from_utf8_lossy(op)
            ))),
        }
    }

    fn write_properties(
        &self,
        op: &[u8],
        props: Option<AttrId>,
        w: &mut dyn DialectWriter,
    ) -> HookResult<()> {
        let v = MajorMinor::or_current(w.dialect_version("test"), CURRENT);
        let need = |key: &str, a: Option<AttrId>| {
            a.ok_or_else(|| {
                HookError(format!(
                    "'{}' needs property '{key}'",
                    String::from_utf8_lossy(op)
                ))
            })
        };
        match op {
            VERSIONED_A => {
                let ctx = w.ctx();
                let dims = need("dims", dict_get(ctx, props, "dims"))?;
                let modifier = dict_get(ctx, props, "modifier");
                w.write_attribute(dims);
                if v.major >= 2 {
                    w.write_attribute(need("modifier", modifier)?);
                }
            }
            VERSIONED_B => {
                let a = need("attribute", dict_get(w.ctx(), props, "attribute"))?;
                w.write_attribute(a);
            }
            WITH_VERSIONED_PROPS => {
                let ctx = w.ctx();
                let inner = dict_get(ctx, props, "prop");
                let value = |k| dict_get(ctx, inner, k).and_then(|a| int_value(ctx, a));
                let (a, b) = (value("value1"), value("value2"));
                let a = a.ok_or_else(|| {
                    HookError("'test.with_versioned_properties' needs prop.value1".into())
                })?;
                w.write_varint(a);
                if v.major >= 2 {
                    w.write_varint(b.unwrap_or(0));
                }
            }
            _ => {
                return Err(HookError(format!(
                    "the test dialect does not write the properties of '{}'",
                    String::from_utf8_lossy(op)
                )))
            }
        }
        Ok(())
    }

    fn upgrade_from_version(
        &self,
        m: &mut Module,
        top: OpId,
        version: &dyn DialectVersion,
    ) -> HookResult<()> {
        let v = MajorMinor::of(version).unwrap_or(CURRENT);
        if v == CURRENT {
            return Ok(());
        }
        if v > CURRENT {
            return Err(HookError(format!(
                "current test dialect version is {CURRENT}, can't parse version: {v}"
            )));
        }
        // Before 2.0, `test.versionedA` had no `modifier`: it is false.
        let ops = walk_ops(m, top);
        for op in ops {
            if m.op_name(op) != VERSIONED_A {
                continue;
            }
            let given = m.op(op).properties;
            let i1 = m.ctx.intern_type(TypeData::signless(1));
            let f = m.ctx.intern_attr(AttrData::Integer {
                ty: i1,
                value: BigInt::from(0),
            });
            let mut entries: Vec<(rmlir_format::attrs::Bytes, AttrId)> =
                match given.map(|p| m.ctx.attr(p)) {
                    Some(AttrData::Dictionary(e)) => e.clone(),
                    _ => Vec::new(),
                };
            entries.retain(|(k, _)| &k[..] != b"modifier");
            entries.push((b"modifier"[..].into(), f));
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            let p = m.ctx.intern_attr(AttrData::Dictionary(entries));
            m.op_mut(op).properties = Some(p);
            // What the test dialect's verifier then insists on.
            if dict_get(&m.ctx, Some(p), "dims").is_none() {
                return Err(HookError(
                    "'test.versionedA' op requires attribute 'dims'".into(),
                ));
            }
        }
        Ok(())
    }
}
