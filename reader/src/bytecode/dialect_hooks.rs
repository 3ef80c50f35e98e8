//! The reader's side of dialect hooks (SPEC.md §9): versions parsed on
//! first use by the dialect's hook, custom entries and properties read
//! through a [`DialectReader`] over the entry's bytes, and upgrades run
//! when a read scope is complete.

use super::binary_reader::Reader;
use super::BytecodeReader;
use crate::error::{Error, ErrorKind, Result};
use rmlir_format::dialect_hooks::{
    BytecodeDialect, DialectReader, DialectVersion, HookError, HookResult,
};
use rmlir_format::{AttrId, Context, OpId, TypeId};
use std::sync::Arc;

/// A [`DialectReader`] over one entry (or properties payload). The first
/// low-level error is kept so that it can be reported with its offset.
pub(super) struct HookReader<'r, 'a> {
    pub br: &'r mut BytecodeReader<'a>,
    pub r: &'r mut Reader<'a>,
    pub error: Option<Error>,
}

impl HookReader<'_, '_> {
    fn keep<T>(&mut self, res: Result<T>) -> HookResult<T> {
        res.map_err(|e| {
            let msg = e.message().to_string();
            if self.error.is_none() {
                self.error = Some(e);
            }
            HookError(msg)
        })
    }

    /// The error to report for a hook failure: the underlying read error
    /// when there was one, else the hook's message at `at`.
    pub fn into_error(self, e: HookError, at: usize) -> Error {
        match self.error {
            Some(err) => err,
            None => self.r.error_at(at, ErrorKind::Semantic, e.0),
        }
    }
}

impl DialectReader for HookReader<'_, '_> {
    fn read_varint(&mut self) -> HookResult<u64> {
        let r = self.r.read_varint();
        self.keep(r)
    }
    fn read_signed_varint(&mut self) -> HookResult<i64> {
        let r = self.r.read_signed_varint();
        self.keep(r)
    }
    fn read_byte(&mut self) -> HookResult<u8> {
        let r = self.r.read_u8();
        self.keep(r)
    }
    fn read_string(&mut self) -> HookResult<Vec<u8>> {
        let r = self.br.string_ref(self.r).map(<[u8]>::to_vec);
        self.keep(r)
    }
    fn read_attribute(&mut self) -> HookResult<AttrId> {
        let r = self.br.attr_ref(self.r);
        self.keep(r)
    }
    fn read_optional_attribute(&mut self) -> HookResult<Option<AttrId>> {
        let at = self.r.offset();
        let r = self.r.read_varint_flag();
        let (idx, present) = self.keep(r)?;
        if !present {
            return Ok(None);
        }
        let r = self.br.attr_at(idx, self.r, at);
        self.keep(r).map(Some)
    }
    fn read_type(&mut self) -> HookResult<TypeId> {
        let r = self.br.type_ref(self.r);
        self.keep(r)
    }
    fn read_blob(&mut self) -> HookResult<Vec<u8>> {
        let r = self.r.read_blob().map(<[u8]>::to_vec);
        self.keep(r)
    }
    fn ctx(&mut self) -> &mut Context {
        &mut self.br.module.ctx
    }
    fn dialect_version(&self, dialect: &str) -> Option<Arc<dyn DialectVersion>> {
        self.br.dialect_version(dialect.as_bytes()).ok().flatten()
    }
}

/// A version payload: plain numbers and bytes, no table references.
struct PayloadReader<'p, 'a> {
    r: Reader<'a>,
    strings: &'p [&'a [u8]],
    ctx: Context,
}

impl DialectReader for PayloadReader<'_, '_> {
    fn read_varint(&mut self) -> HookResult<u64> {
        self.r
            .read_varint()
            .map_err(|e| HookError(e.message().into()))
    }
    fn read_signed_varint(&mut self) -> HookResult<i64> {
        self.r
            .read_signed_varint()
            .map_err(|e| HookError(e.message().into()))
    }
    fn read_byte(&mut self) -> HookResult<u8> {
        self.r.read_u8().map_err(|e| HookError(e.message().into()))
    }
    fn read_string(&mut self) -> HookResult<Vec<u8>> {
        let idx = self.read_varint()?;
        self.strings
            .get(idx as usize)
            .map(|s| s.to_vec())
            .ok_or_else(|| HookError(format!("invalid string index: {idx}")))
    }
    fn read_attribute(&mut self) -> HookResult<AttrId> {
        Err("a dialect version payload cannot refer to attributes".into())
    }
    fn read_optional_attribute(&mut self) -> HookResult<Option<AttrId>> {
        Err("a dialect version payload cannot refer to attributes".into())
    }
    fn read_type(&mut self) -> HookResult<TypeId> {
        Err("a dialect version payload cannot refer to types".into())
    }
    fn ctx(&mut self) -> &mut Context {
        &mut self.ctx
    }
    fn dialect_version(&self, _: &str) -> Option<Arc<dyn DialectVersion>> {
        None
    }
}

impl<'a> BytecodeReader<'a> {
    /// The hook registered for `dialect`, if any.
    pub(super) fn hook(&self, dialect: &[u8]) -> Option<Arc<dyn BytecodeDialect>> {
        self.hooks.get(dialect).cloned()
    }

    /// The version the file declares for `dialect`, parsed by its hook on
    /// first use; `None` when the file has none or no hook reads it.
    pub fn dialect_version(&self, dialect: &[u8]) -> Result<Option<Arc<dyn DialectVersion>>> {
        let Some(i) = self
            .dialects
            .dialects
            .iter()
            .position(|d| d.name == dialect)
        else {
            return Ok(None);
        };
        if let Some(v) = self.versions.borrow().get(&i) {
            return Ok(v.clone());
        }
        let entry = &self.dialects.dialects[i];
        let parsed = match (entry.version, self.hooks.get(dialect)) {
            (Some(payload), Some(hook)) => {
                let mut pr = PayloadReader {
                    r: Reader::new(payload, entry.version_offset, "Dialect"),
                    strings: &self.strings,
                    ctx: Context::default(),
                };
                let v = hook.read_version(&mut pr).map_err(|e| {
                    pr.r.error_at(
                        entry.version_offset,
                        ErrorKind::Semantic,
                        format!(
                            "cannot read the version of dialect '{}': {e}",
                            String::from_utf8_lossy(dialect)
                        ),
                    )
                })?;
                Some(v)
            }
            _ => None,
        };
        self.versions.borrow_mut().insert(i, parsed.clone());
        Ok(parsed)
    }

    /// Runs every versioned dialect's upgrade over the ops under `top`
    /// (SPEC.md §9.2).
    pub(super) fn run_upgrades(&mut self, top: OpId) -> Result<()> {
        let names: Vec<&'a [u8]> = self
            .dialects
            .dialects
            .iter()
            .filter(|d| d.version.is_some())
            .map(|d| d.name)
            .collect();
        for name in names {
            let Some(hook) = self.hook(name) else {
                continue;
            };
            let Some(v) = self.dialect_version(name)? else {
                continue;
            };
            if let Err(e) = hook.upgrade_from_version(&mut self.module, top, v.as_ref()) {
                let ir = self
                    .sections
                    .iter()
                    .find(|s| s.id == rmlir_format::bytecode::SectionId::Ir)
                    .map_or(0, |s| s.offset);
                return Err(Reader::new(&[], ir, "IR").error_at(
                    ir,
                    ErrorKind::Semantic,
                    format!(
                        "dialect '{}' (version {v}) cannot upgrade this file: {e}",
                        String::from_utf8_lossy(name)
                    ),
                ));
            }
        }
        Ok(())
    }
}
