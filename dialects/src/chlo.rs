//! CHLO (SPEC.md §10.2), StableHLO's client dialect (`chlo.erf`,
//! `chlo.top_k`, …) that jaxlib's modules hold beside stablehlo ops. Its
//! bytecode interface (`ChloBytecode.cpp`) encodes two attributes: after
//! the kind code, the enum's value as a varint. Every other chlo attribute
//! is written as text, which the reader parses as any dialect's text.

use crate::body::Body;
use crate::hlo::{COMPARISON_DIRECTION, COMPARISON_TYPE};
use rmlir_format::dialect_hooks::{BytecodeDialect, DialectReader, HookError, HookResult};
use rmlir_format::AttrId;

/// The CHLO dialect's bytecode hooks.
pub struct Chlo;

/// The dialect's name.
pub const DIALECT: &str = "chlo";

impl BytecodeDialect for Chlo {
    fn name(&self) -> &str {
        DIALECT
    }

    fn read_attribute(&self, r: &mut dyn DialectReader) -> HookResult<Option<AttrId>> {
        let code = r.read_varint()?;
        let (mnemonic, cases) = match code {
            0 => ("comparison_direction", COMPARISON_DIRECTION),
            1 => ("comparison_type", COMPARISON_TYPE),
            _ => {
                return Err(HookError(format!(
                    "unknown chlo attribute code {code}: this reader knows StableHLO 1.20.0's (0 comparison_direction, 1 comparison_type)"
                )))
            }
        };
        let v = r.read_varint()?;
        let Some(&(_, name)) = cases.iter().find(|c| c.0 == v) else {
            return Err(HookError(format!("chlo {mnemonic} of unknown value {v}")));
        };
        // Printed `#chlo<comparison_direction GT>`.
        let b = Body::new(&format!("{mnemonic} {name}"));
        Ok(Some(b.into_attr(DIALECT, r.ctx())))
    }
}
