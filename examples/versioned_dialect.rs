//! An example of a dialect that evolves (SPEC.md §9.4): `vdemo`, with a
//! real migration from version 1.0 to 2.0.
//!
//! * Version 1.0 called the `vdemo.grid` attribute `dimensions`; 2.0 calls
//!   it `dims`. Files of 1.x are upgraded on read: the attribute is
//!   renamed.
//! * The custom type `!vdemo.vec<N x T>` is written as kind 0, the element
//!   type's name, then `N` in 1.x; as kind 1, `N`, then the element type's
//!   name in 2.0. The reader picks the layout from the file's version; the
//!   writer writes the layout of the version it is asked for.
//! * A file whose `vdemo` version is newer than 2.0 is rejected.
//!
//! The dialect is registered by the `rmlir-bc` command line (so that
//! `rmlir-bc upgrade` migrates its files) and by the tests; a user's own
//! dialect is registered the same way:
//!
//! ```ignore
//! let mut hooks = rmlir_dialects::upstream().clone();
//! hooks.register(std::sync::Arc::new(VDemo));
//! ```

use rmlir_format::dialect_hooks::{
    walk_ops, BytecodeDialect, DialectReader, DialectVersion, DialectWriter, HookError, HookResult,
    MajorMinor,
};
use rmlir_format::{AttrData, Module, OpId, TypeData, TypeId};
use std::sync::Arc;

pub struct VDemo;

const CURRENT: MajorMinor = MajorMinor { major: 2, minor: 0 };
const VEC_V1: u64 = 0;
const VEC_V2: u64 = 1;

/// `(N, element type text)` of a `vec<N x T>` body.
fn parse_vec(data: &[u8]) -> Option<(u64, &[u8])> {
    let inner = data.strip_prefix(b"vec<")?.strip_suffix(b">")?;
    let x = inner.windows(3).position(|w| w == b" x ")?;
    let n = std::str::from_utf8(&inner[..x]).ok()?.parse().ok()?;
    Some((n, &inner[x + 3..]))
}

impl BytecodeDialect for VDemo {
    fn name(&self) -> &str {
        "vdemo"
    }

    fn current_version(&self) -> Option<Arc<dyn DialectVersion>> {
        Some(Arc::new(CURRENT))
    }

    fn read_version(&self, r: &mut dyn DialectReader) -> HookResult<Arc<dyn DialectVersion>> {
        let v = MajorMinor::read(r)?;
        let mm = MajorMinor::of(v.as_ref()).expect("read as MajorMinor");
        if mm > CURRENT {
            return Err(HookError(format!(
                "vdemo version {mm} is newer than {CURRENT}, the newest this reader knows"
            )));
        }
        Ok(v)
    }

    fn write_version(&self, version: &dyn DialectVersion, w: &mut dyn DialectWriter) {
        MajorMinor::write(version, w)
    }

    fn parse_version(&self, text: &str) -> HookResult<Arc<dyn DialectVersion>> {
        let v = MajorMinor::parse(text)?;
        let mm = MajorMinor::of(v.as_ref()).expect("parsed as MajorMinor");
        if mm.major == 0 || mm > CURRENT {
            return Err(HookError(format!(
                "vdemo knows versions 1.x and {CURRENT}, not {mm}"
            )));
        }
        Ok(v)
    }

    fn read_type(&self, r: &mut dyn DialectReader) -> HookResult<Option<TypeId>> {
        let v = MajorMinor::or_current(r.dialect_version("vdemo"), CURRENT);
        let kind = r.read_varint()?;
        let (n, elem) = match (kind, v.major < 2) {
            (VEC_V1, true) => {
                let elem = r.read_string()?;
                (r.read_varint()?, elem)
            }
            (VEC_V2, false) => {
                let n = r.read_varint()?;
                (n, r.read_string()?)
            }
            _ => {
                return Err(HookError(format!(
                    "vdemo type kind {kind} is not one of version {v}"
                )))
            }
        };
        let mut data = format!("vec<{n} x ").into_bytes();
        data.extend_from_slice(&elem);
        data.push(b'>');
        Ok(Some(r.ctx().intern_type(TypeData::Opaque {
            dialect: "vdemo".into(),
            data: data.into(),
        })))
    }

    fn write_type(&self, ty: TypeId, w: &mut dyn DialectWriter) -> bool {
        let TypeData::Opaque { dialect, data } = w.ctx().ty(ty) else {
            return false;
        };
        if &**dialect != "vdemo" {
            return false;
        }
        let Some((n, elem)) = parse_vec(data) else {
            return false;
        };
        let elem = elem.to_vec();
        if MajorMinor::or_current(w.dialect_version("vdemo"), CURRENT).major < 2 {
            w.write_varint(VEC_V1);
            w.write_string(&elem);
            w.write_varint(n);
        } else {
            w.write_varint(VEC_V2);
            w.write_varint(n);
            w.write_string(&elem);
        }
        true
    }

    fn upgrade_from_version(
        &self,
        m: &mut Module,
        top: OpId,
        version: &dyn DialectVersion,
    ) -> HookResult<()> {
        let v = MajorMinor::of(version).unwrap_or(CURRENT);
        if v.major >= 2 {
            return Ok(());
        }
        // 1.x → 2.0: `vdemo.grid`'s `dimensions` became `dims`.
        for op in walk_ops(m, top) {
            if m.op_name(op) != b"vdemo.grid" {
                continue;
            }
            let AttrData::Dictionary(entries) = m.ctx.attr(m.op(op).attributes) else {
                continue;
            };
            if !entries.iter().any(|(k, _)| &k[..] == b"dimensions") {
                continue;
            }
            let mut entries: Vec<_> = entries
                .iter()
                .map(|(k, a)| {
                    let k = if &k[..] == b"dimensions" {
                        b"dims"[..].into()
                    } else {
                        k.clone()
                    };
                    (k, *a)
                })
                .collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            let d = m.ctx.intern_attr(AttrData::Dictionary(entries));
            m.op_mut(op).attributes = d;
        }
        Ok(())
    }
}
