//! Ports of the tosa dialect's hand-written printers (`TosaOps.cpp`).

use super::*;

/// The tosa enum attributes printed by their value alone (`printNamedAttr`).
const TOSA_ENUMS: [&str; 3] = ["nan_mode", "rounding_mode", "resize_mode"];

impl Printer<'_, '_> {
    /// `tosa.maximum %a, %b {attr = …, mode = VALUE} : (t, u) -> v`
    /// (`printWithNanPropagationHandling` where `nan_default`: a
    /// `nan_mode` holding `PROPAGATE` left out; else
    /// `printWithEnumHandling`).
    pub(super) fn tosa_op(&mut self, op: OpId, nan_default: bool) {
        let m = self.shared.m;
        let o = m.op(op);
        self.out.push(' ');
        let ops = m.operands(op).to_vec();
        self.value_list(&ops);
        let mut entries = op_attrs(m, op);
        if nan_default {
            let default = entries
                .iter()
                .position(|(_, a)| self.tosa_enum(*a).as_deref() == Some("nan_mode<PROPAGATE>"));
            if let Some(i) = default {
                entries.remove(i);
            }
        }
        if !entries.is_empty() {
            self.out.push_str(" {");
            for (k, (name, a)) in entries.iter().enumerate() {
                if k > 0 {
                    self.out.push_str(", ");
                }
                self.out.push_str(&String::from_utf8_lossy(name));
                self.out.push_str(" = ");
                match self.tosa_enum(*a) {
                    Some(text) => {
                        let value = text
                            .split_once('<')
                            .map(|(_, v)| v.trim_end_matches('>'))
                            .unwrap_or_default();
                        self.out.push_str(value);
                    }
                    None => self.attr(*a, Elide::Never),
                }
            }
            self.out.push('}');
        }
        self.out.push_str(" : ");
        let ins: Vec<TypeId> = ops.iter().map(|&v| m.value(v).ty).collect();
        let outs: Vec<TypeId> = o.results().map(|v| m.value(v).ty).collect();
        self.functional_type(&ins, &outs);
    }

    /// The text `mnemonic<VALUE>` of a tosa enum attribute, if `a` is one.
    fn tosa_enum(&mut self, a: AttrId) -> Option<String> {
        let m = self.shared.m;
        let AttrData::Dialect { body, ty: None } = m.ctx.attr(a) else {
            return None;
        };
        if &*body.dialect != "tosa" {
            return None;
        }
        let text = self.body_string(body);
        let (mnemonic, _) = text.split_once('<')?;
        TOSA_ENUMS.contains(&mnemonic).then_some(text)
    }
}
