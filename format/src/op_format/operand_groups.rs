//! Each op's operand groups in the releases whose bytecode we read, and
//! the segment sizes an older release's op implies (SPEC.md §7.2).
//!
//! An op with several variable-length operand groups stores how many
//! operands each holds (`operandSegmentSizes`). When a release adds such
//! a group to an op that had one variable group at most (MLIR 22's
//! `llvm.call` gained `op_bundle_operands` beside MLIR 19's
//! `callee_operands`), a file of the older release has no sizes, yet they
//! follow from its operand count: the groups it had hold what it wrote,
//! the new ones are empty. MLIR 22's groups are those of
//! `format/data/op-formats-22.json`; MLIR 19's are
//! `format/data/operand-groups-19.json` (both from
//! `tools/ods-json/gen_formats_json.py`, the latter with
//! `--operand-groups`).

use super::catalog::{Arity, Catalog, ValueSpec};
use crate::fasthash::FastMap as HashMap;
use serde::Deserialize;
use std::sync::OnceLock;

#[derive(Deserialize)]
struct GroupsFile {
    ops: Vec<OpGroups>,
}

#[derive(Deserialize)]
struct OpGroups {
    name: String,
    operands: Vec<ValueSpec>,
}

fn mlir_19() -> &'static HashMap<Box<[u8]>, Vec<ValueSpec>> {
    static GROUPS: OnceLock<HashMap<Box<[u8]>, Vec<ValueSpec>>> = OnceLock::new();
    GROUPS.get_or_init(|| {
        let f: GroupsFile = serde_json::from_str(include_str!("../../data/operand-groups-19.json"))
            .expect("the embedded operand groups are valid JSON");
        f.ops
            .into_iter()
            .map(|o| (o.name.into_bytes().into_boxed_slice(), o.operands))
            .collect()
    })
}

/// The operand groups of op `name` in ODS order, in MLIR release
/// `major` (19 or 22; `None` for another release or an op the data does
/// not have).
pub fn operand_groups(major: u32, name: &[u8]) -> Option<&'static [ValueSpec]> {
    match major {
        19 => mlir_19().get(name).map(Vec::as_slice),
        22 => Catalog::upstream().get(name).map(|o| o.operands.as_slice()),
        _ => None,
    }
}

/// Segment sizes derived for an op written without them
/// ([`derive_operand_segments`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DerivedSegments<'a> {
    /// One size per group of the newer release, in its order.
    pub sizes: Vec<i32>,
    /// The size attributes of the variadic-of-variadic groups the newer
    /// release added, which hold no group: each is an empty array.
    pub empty_lists: Vec<&'a str>,
}

/// The newer release's operand segment sizes of an op the older release
/// wrote with `n` operands and no sizes, where `old` and `new` are its
/// groups in each. They follow where the older op had one variable group
/// at most and every group it had is in the newer op, in the same order
/// and of the same arity; the groups the newer op added must be able to
/// hold nothing (optional or variadic). Otherwise, why not.
pub fn derive_operand_segments<'a>(
    old: &[ValueSpec],
    new: &'a [ValueSpec],
    n: usize,
) -> Result<DerivedSegments<'a>, String> {
    let variable: Vec<&ValueSpec> = old.iter().filter(|g| g.arity != Arity::Single).collect();
    if variable.len() > 1 {
        return Err(format!(
            "the older release has {} variable operand groups ({}) and no sizes for them",
            variable.len(),
            names(&variable)
        ));
    }
    let fixed = old.len() - variable.len();
    let Some(rest) = n.checked_sub(fixed) else {
        return Err(format!(
            "it has {n} operands, fewer than its {fixed} required groups"
        ));
    };
    match variable.first().map(|g| g.arity) {
        None if rest != 0 => {
            return Err(format!(
                "it has {n} operands, but its {fixed} groups hold one each"
            ))
        }
        Some(Arity::Optional) if rest > 1 => {
            return Err(format!(
                "it has {n} operands, more than its groups hold ({fixed} and an optional one)"
            ))
        }
        _ => {}
    }
    let mut sizes = Vec::with_capacity(new.len());
    let mut empty_lists = Vec::new();
    let mut next_old = 0;
    for g in new {
        match old.iter().position(|o| o.name == g.name) {
            Some(i) => {
                if i < next_old {
                    return Err(format!("operand group '{}' moved", g.name));
                }
                if old[i].arity != g.arity {
                    return Err(format!(
                        "operand group '{}' changed from {:?} to {:?}",
                        g.name, old[i].arity, g.arity
                    ));
                }
                next_old = i + 1;
                let size = if g.arity == Arity::Single { 1 } else { rest };
                sizes.push(i32::try_from(size).map_err(|_| "too many operands".to_string())?);
            }
            None => {
                match g.arity {
                    Arity::Single => {
                        return Err(format!(
                            "the newer release added operand group '{}', which cannot be empty",
                            g.name
                        ))
                    }
                    Arity::VariadicOfVariadic => match &g.segments {
                        Some(s) => empty_lists.push(s.as_str()),
                        None => {
                            return Err(format!(
                                "the data does not say which attribute holds the groups of '{}'",
                                g.name
                            ))
                        }
                    },
                    Arity::Optional | Arity::Variadic => {}
                }
                sizes.push(0);
            }
        }
    }
    if let Some(gone) = old.iter().find(|o| !new.iter().any(|g| g.name == o.name)) {
        return Err(format!(
            "operand group '{}' is not in the newer release",
            gone.name
        ));
    }
    Ok(DerivedSegments { sizes, empty_lists })
}

fn names(groups: &[&ValueSpec]) -> String {
    groups
        .iter()
        .map(|g| format!("'{}'", g.name))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(name: &str, arity: Arity) -> ValueSpec {
        ValueSpec {
            name: name.into(),
            arity,
            build: None,
            def: None,
            segments: (arity == Arity::VariadicOfVariadic).then(|| format!("{name}_sizes")),
        }
    }

    #[test]
    fn llvm_call_of_mlir_19_gets_an_empty_bundle_group() {
        let old = operand_groups(19, b"llvm.call").expect("MLIR 19 has llvm.call");
        let new = operand_groups(22, b"llvm.call").expect("MLIR 22 has llvm.call");
        let d = derive_operand_segments(old, new, 3).unwrap();
        assert_eq!(d.sizes, vec![3, 0]);
        assert_eq!(d.empty_lists, vec!["op_bundle_sizes"]);
    }

    #[test]
    fn fixed_groups_hold_one_and_the_variable_one_the_rest() {
        use Arity::*;
        let old = [g("a", Single), g("v", Variadic), g("b", Single)];
        let new = [
            g("a", Single),
            g("v", Variadic),
            g("b", Single),
            g("o", Optional),
        ];
        let d = derive_operand_segments(&old, &new, 5).unwrap();
        assert_eq!(d.sizes, vec![1, 3, 1, 0]);
        assert!(d.empty_lists.is_empty());
        assert!(derive_operand_segments(&old, &new, 1).is_err());
    }

    #[test]
    fn what_does_not_follow_is_refused() {
        use Arity::*;
        // Two variable groups and no sizes: which operand is whose?
        let two = [g("v", Variadic), g("w", Variadic)];
        let e = derive_operand_segments(&two, &two, 2).unwrap_err();
        assert!(e.contains("2 variable operand groups ('v', 'w')"), "{e}");
        // A required group added: the old op cannot have filled it.
        let old = [g("v", Variadic)];
        let new = [g("v", Variadic), g("s", Single)];
        let e = derive_operand_segments(&old, &new, 2).unwrap_err();
        assert!(e.contains("added operand group 's'"), "{e}");
        // Arity changed, group removed, optional overfilled.
        let e = derive_operand_segments(&[g("v", Optional)], &[g("v", Variadic)], 1).unwrap_err();
        assert!(e.contains("changed"), "{e}");
        let e =
            derive_operand_segments(&[g("v", Variadic), g("x", Single)], &[g("v", Variadic)], 2)
                .unwrap_err();
        assert!(e.contains("'x' is not in the newer release"), "{e}");
        let e = derive_operand_segments(
            &[g("v", Optional)],
            &[g("v", Optional), g("w", Variadic)],
            2,
        )
        .unwrap_err();
        assert!(e.contains("more than its groups hold"), "{e}");
    }
}
