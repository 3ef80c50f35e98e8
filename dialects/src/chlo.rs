//! CHLO (SPEC.md §10.2), StableHLO's client dialect (`chlo.erf`,
//! `chlo.top_k`, …) that jaxlib's modules hold beside stablehlo ops. Its
//! bytecode interface (`ChloBytecode.cpp`) encodes two attributes: after
//! the kind code, the enum's value as a varint. Every other chlo attribute
//! is written as text, which the reader parses as any dialect's text.

use crate::body::Body;
use crate::hlo::{COMPARISON_DIRECTION, COMPARISON_TYPE};
use crate::out::Out;
use crate::unbody::{attr_body, Unbody};
use rmlir_format::dialect_hooks::{
    BytecodeDialect, DialectReader, DialectWriter, HookError, HookResult,
};
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
        let Some(&(mnemonic, (_, cases))) = ATTRS.iter().find(|a| a.1 .0 == code) else {
            return Err(HookError(format!(
                "unknown chlo attribute code {code}: this reader knows StableHLO 1.20.0's (0 comparison_direction, 1 comparison_type)"
            )));
        };
        let v = r.read_varint()?;
        let Some(&(_, name)) = cases.iter().find(|c| c.0 == v) else {
            return Err(HookError(format!("chlo {mnemonic} of unknown value {v}")));
        };
        // Printed `#chlo<comparison_direction GT>`.
        let b = Body::new(&format!("{mnemonic} {name}"));
        Ok(Some(b.into_attr(DIALECT, r.ctx())))
    }

    /// The two encoded enums; every other chlo attribute stays text.
    fn write_attribute(&self, attr: AttrId, w: &mut dyn DialectWriter) -> bool {
        let Some(body) = attr_body(w, DIALECT, attr) else {
            return false;
        };
        let encoded = (|| {
            let (mut u, mnemonic) = Unbody::new(&body.pieces)?;
            let &(code, cases) = ATTRS.iter().find(|a| a.0 == mnemonic).map(|(_, c)| c)?;
            let name = u.ident()?;
            let &(v, _) = cases.iter().find(|c| c.1 == name)?;
            let mut out = Out::default();
            out.u(code).u(v);
            u.at_end().then_some(out)
        })();
        match encoded {
            Some(out) => out.flush(w),
            None => false,
        }
    }

    fn parses_bodies(&self) -> bool {
        true
    }

    fn op_syntax(&self) -> Option<&'static rmlir_format::op_format::catalog::Catalog> {
        Some(crate::hlo::op_syntax())
    }
}

/// The encoded attributes: (mnemonic, (kind code, cases)).
const ATTRS: &[(&str, (u64, crate::hlo::Cases))] = &[
    ("comparison_direction", (0, COMPARISON_DIRECTION)),
    ("comparison_type", (1, COMPARISON_TYPE)),
];
