//! Operation knowledge as data (SPEC.md §7): for each registered op, its
//! traits, its inherent attributes and the positional layout of its
//! properties payload at bytecode v5 and v6. The default registry is
//! MLIR 22's upstream dialects, generated from ODS by
//! `tools/ods-layouts/gen_layouts.py` into `format/data/ods-layouts-22.json`
//! and embedded as bincode by `build.rs`.

mod json;
mod model;

use crate::attrs::AttrData;
use crate::context::{AttrId, Context};
pub use model::{Field, FieldKind, OpInfo, RegistryData};
use std::collections::HashMap;
use std::sync::OnceLock;

/// Registered operations by name.
#[derive(Clone, Debug, Default)]
pub struct OpRegistry {
    release: String,
    ops: HashMap<Vec<u8>, OpInfo>,
}

static EMBEDDED: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/ods-layouts-22.bincode"));

impl OpRegistry {
    /// An empty registry: every op is unregistered.
    pub fn new() -> Self {
        Self::default()
    }

    /// MLIR 22's upstream dialects; what every reader uses unless given
    /// another registry.
    pub fn default_ref() -> &'static OpRegistry {
        static DEFAULT: OnceLock<OpRegistry> = OnceLock::new();
        DEFAULT.get_or_init(|| {
            let data: RegistryData =
                bincode::deserialize(EMBEDDED).expect("embedded op registry is valid bincode");
            OpRegistry::from_data(data)
        })
    }

    pub fn from_data(data: RegistryData) -> Self {
        let mut r = OpRegistry {
            release: data.mlir_release,
            ops: HashMap::with_capacity(data.ops.len()),
        };
        for op in data.ops {
            r.insert(op);
        }
        r
    }

    /// Adds the ops of a layout file made by `tools/ods-layouts/gen_layouts.py`
    /// (e.g. for an out-of-tree dialect), replacing ops of the same name.
    pub fn load_json(&mut self, text: &str) -> Result<usize, String> {
        let data = json::registry_data_from_json(text)?;
        let n = data.ops.len();
        for op in data.ops {
            self.insert(op);
        }
        Ok(n)
    }

    /// Adds (or replaces) an op, e.g. from a user's out-of-tree layout file.
    pub fn insert(&mut self, info: OpInfo) {
        self.ops.insert(info.name.as_bytes().to_vec(), info);
    }

    pub fn get(&self, name: &[u8]) -> Option<&OpInfo> {
        self.ops.get(name)
    }

    /// The MLIR release the data was generated from (`22.1.8`).
    pub fn release(&self) -> &str {
        &self.release
    }

    pub fn len(&self) -> usize {
        self.ops.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ops.is_empty()
    }
}

/// An op's properties as MLIR holds them after creating it (SPEC.md §7.1):
/// its `defaults` (a dictionary), with every entry of `given` (the
/// properties the input wrote, if any) replacing the default of the same
/// name. Non-dictionary properties are kept as given.
pub fn merge_default_properties(
    ctx: &mut Context,
    defaults: AttrId,
    given: Option<AttrId>,
) -> AttrId {
    let Some(given) = given else {
        return defaults;
    };
    let (AttrData::Dictionary(d), AttrData::Dictionary(g)) = (ctx.attr(defaults), ctx.attr(given))
    else {
        return given;
    };
    if d.iter().all(|(k, _)| g.iter().any(|(gk, _)| gk == k)) {
        return given;
    }
    let mut merged = g.clone();
    for (k, v) in d {
        if !g.iter().any(|(gk, _)| gk == k) {
            merged.push((k.clone(), *v));
        }
    }
    merged.sort_by(|a, b| a.0.cmp(&b.0));
    ctx.intern_attr(AttrData::Dictionary(merged))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_registry_has_every_upstream_op() {
        let r = OpRegistry::default_ref();
        assert_eq!(r.release(), "22.1.8");
        assert_eq!(r.len(), 2635);
        let f = r.get(b"func.func").expect("func.func");
        assert!(f.isolated_from_above);
        let names: Vec<&str> = f.fields_v6.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "arg_attrs",
                "function_type",
                "no_inline",
                "res_attrs",
                "sym_name",
                "sym_visibility"
            ]
        );
        let alloc = r.get(b"memref.alloc").unwrap();
        let mut user = OpRegistry::new();
        let n = user
            .load_json(r#"{"ops": [{"name": "my.op", "attr_names": ["a"], "write_properties": true,
                "v5": [{"name": "a", "kind": "opt_attr"}], "v6": [{"name": "a", "kind": "opt_attr"}]}]}"#)
            .unwrap();
        assert_eq!(n, 1);
        assert_eq!(
            user.get(b"my.op").unwrap().fields_v6[0].kind,
            FieldKind::OptAttr
        );
        assert!(user
            .load_json(r#"{"ops": [{"name": "x", "v6": [{"name": "f", "kind": "wat"}]}]}"#)
            .is_err());
        assert_eq!(alloc.fields_v5[1].kind, FieldKind::LegacySegments);
        assert_eq!(
            alloc.fields_v6[1].kind,
            FieldKind::SparseSegments { size: 2 }
        );
    }
}
