//! A structural check of a module without dialect knowledge (SPEC.md
//! §8.3): every op, block and region is held once and its parent link
//! agrees, results and block arguments name their owner, operands name
//! values visible at the use (never across an op isolated from above, as
//! the op registry says), successors name blocks of the same region but
//! its entry, only a block's last op has successors, attribute
//! dictionaries hold no name twice, and locations are locations. What
//! `rmlir-bc verify` runs after reading a file, and what the `verify`
//! fuzz target runs on whatever reads.

use crate::op_registry::OpRegistry;
use crate::{AttrData, BlockId, Module, OpId, RegionId, ValueDef};

/// A finding: the op it is about, when there is one, and what is wrong.
#[derive(Debug)]
pub struct Diagnostic {
    /// The op concerned, if any.
    pub op: Option<OpId>,
    /// What is wrong.
    pub message: String,
}

/// What the check walked.
#[derive(Debug, Default)]
pub struct Summary {
    /// Operations reached from the top.
    pub ops: usize,
    /// Blocks of those operations' regions.
    pub blocks: usize,
    /// Regions of those operations.
    pub regions: usize,
    /// Results of those operations and arguments of those blocks.
    pub values: usize,
}

/// Where each op, block and region sits in the tree reached from the top.
struct Tree {
    op_block: Vec<Option<BlockId>>,
    op_seen: Vec<bool>,
    block_region: Vec<Option<RegionId>>,
    region_op: Vec<Option<OpId>>,
    order: Vec<OpId>,
}

impl Tree {
    fn region_of_op(&self, op: OpId) -> Option<RegionId> {
        self.op_block[op.index()].and_then(|b| self.block_region[b.index()])
    }
}

/// Checks `m`'s structure; `registry` says which ops are isolated from
/// above. `progress` is told `(phase, done, total)` every 4,096 ops.
pub fn verify(
    m: &Module,
    registry: &OpRegistry,
    progress: &mut dyn FnMut(&str, usize, usize),
) -> (Summary, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let mut summary = Summary::default();
    let Some(top) = m.top else {
        diags.push(Diagnostic {
            op: None,
            message: "the module has no top-level operation".into(),
        });
        return (summary, diags);
    };
    let tree = walk(m, top, &mut summary, &mut diags, progress);
    check_references(m, registry, &tree, &mut diags, progress);
    (summary, diags)
}

/// Pass 1: ownership. Every op, block and region is reached once, its
/// parent link agrees with where it was reached, and results and block
/// arguments say which op or block defines them.
fn walk(
    m: &Module,
    top: OpId,
    summary: &mut Summary,
    diags: &mut Vec<Diagnostic>,
    progress: &mut dyn FnMut(&str, usize, usize),
) -> Tree {
    let mut t = Tree {
        op_block: vec![None; m.ops.len()],
        op_seen: vec![false; m.ops.len()],
        block_region: vec![None; m.blocks.len()],
        region_op: vec![None; m.regions.len()],
        order: Vec::new(),
    };
    let mut d = |op: OpId, message: String| {
        diags.push(Diagnostic {
            op: Some(op),
            message,
        })
    };
    if top.index() >= m.ops.len() {
        d(top, "the top-level operation id is out of range".into());
        return t;
    }
    if m.op(top).parent.is_some() {
        d(top, "the top-level operation claims a parent block".into());
    }
    let mut stack = vec![top];
    while let Some(op) = stack.pop() {
        if t.op_seen[op.index()] {
            d(op, "operation appears more than once in the tree".into());
            continue;
        }
        t.op_seen[op.index()] = true;
        t.order.push(op);
        summary.ops += 1;
        if summary.ops & 4095 == 0 {
            progress("checking structure", summary.ops, m.ops.len());
        }
        let o = m.op(op);
        if op != top && o.parent != t.op_block[op.index()] {
            d(
                op,
                "operation's parent link does not name the block that holds it".into(),
            );
        }
        let end = o.first_result as usize + o.num_results as usize;
        if end > m.values.len() {
            d(
                op,
                format!("results #{}..{end} are out of range", o.first_result),
            );
        } else {
            summary.values += o.num_results as usize;
            for (i, v) in o.results().enumerate() {
                if m.value(v).def
                    != (ValueDef::Result {
                        op,
                        index: i as u32,
                    })
                {
                    d(
                        op,
                        format!("result #{i} is not recorded as defined by this operation"),
                    );
                }
            }
        }
        match m.ctx.attr(o.attributes) {
            AttrData::Dictionary(entries) => {
                let mut keys: Vec<&[u8]> = entries.iter().map(|(k, _)| &**k).collect();
                keys.sort_unstable();
                if let Some(w) = keys.windows(2).find(|w| w[0] == w[1]) {
                    d(
                        op,
                        format!(
                            "attribute '{}' appears more than once",
                            String::from_utf8_lossy(w[0])
                        ),
                    );
                }
            }
            _ => d(op, "the attribute dictionary is not a dictionary".into()),
        }
        if !m.ctx.attr(o.loc).is_location() {
            d(op, "the location is not a location attribute".into());
        }
        for (ri, &r) in o.regions().iter().enumerate() {
            if r.index() >= m.regions.len() {
                d(op, format!("region #{ri} is out of range"));
                continue;
            }
            if t.region_op[r.index()].is_some() {
                d(
                    op,
                    format!("region #{ri} is also held by another operation"),
                );
                continue;
            }
            t.region_op[r.index()] = Some(op);
            summary.regions += 1;
            let region = m.region(r);
            if region.parent != Some(op) {
                d(
                    op,
                    format!("region #{ri}'s parent link does not name this operation"),
                );
            }
            for (bi, &b) in region.blocks.iter().enumerate() {
                if b.index() >= m.blocks.len() {
                    d(op, format!("block #{bi} of region #{ri} is out of range"));
                    continue;
                }
                if t.block_region[b.index()].is_some() {
                    d(
                        op,
                        format!("block #{bi} of region #{ri} is also held by another region"),
                    );
                    continue;
                }
                t.block_region[b.index()] = Some(r);
                summary.blocks += 1;
                let block = m.block(b);
                if block.parent != Some(r) {
                    d(
                        op,
                        format!(
                            "block #{bi} of region #{ri}: its parent link does not name the region"
                        ),
                    );
                }
                summary.values += block.args.len();
                for (ai, &a) in block.args.iter().enumerate() {
                    if a.index() >= m.values.len() {
                        d(
                            op,
                            format!(
                                "argument #{ai} of block #{bi} in region #{ri} is out of range"
                            ),
                        );
                        continue;
                    }
                    let v = m.value(a);
                    if v.def
                        != (ValueDef::BlockArg {
                            block: b,
                            index: ai as u32,
                        })
                    {
                        d(op, format!("argument #{ai} of block #{bi} in region #{ri} is not recorded as owned by its block"));
                    }
                    if v.loc.is_some_and(|l| !m.ctx.attr(l).is_location()) {
                        d(op, format!("argument #{ai} of block #{bi} in region #{ri} has a location that is not a location attribute"));
                    }
                }
                for &child in block.ops.iter().rev() {
                    if child.index() >= m.ops.len() {
                        d(
                            op,
                            format!("an operation in block #{bi} of region #{ri} is out of range"),
                        );
                        continue;
                    }
                    if t.op_block[child.index()].is_none() {
                        t.op_block[child.index()] = Some(b);
                    }
                    stack.push(child);
                }
            }
        }
    }
    t
}

/// Pass 2: references. Operands name values that are defined in the tree,
/// in the use's region or an enclosing one, without crossing an operation
/// that is isolated from above; successors name blocks of the same region,
/// never its entry block, and only the last op of a block has them.
fn check_references(
    m: &Module,
    registry: &OpRegistry,
    t: &Tree,
    diags: &mut Vec<Diagnostic>,
    progress: &mut dyn FnMut(&str, usize, usize),
) {
    let isolated = |op: OpId| {
        registry
            .get(m.op_name(op))
            .is_some_and(|i| i.isolated_from_above)
    };
    for (n, &op) in t.order.iter().enumerate() {
        if n & 4095 == 0 {
            progress("checking references", n, t.order.len());
        }
        let o = m.op(op);
        let mut d = |message: String| {
            diags.push(Diagnostic {
                op: Some(op),
                message,
            })
        };
        let use_region = t.region_of_op(op);
        for (i, &v) in m.operands(op).iter().enumerate() {
            if v.index() >= m.values.len() {
                d(format!("operand #{i} is out of range"));
                continue;
            }
            let def_region = match m.value(v).def {
                ValueDef::Placeholder => {
                    d(format!(
                        "operand #{i} refers to a value that is never defined"
                    ));
                    continue;
                }
                ValueDef::Result { op: def, .. } => {
                    if !t.op_seen.get(def.index()).copied().unwrap_or(false) {
                        d(format!(
                            "operand #{i} refers to a result of an operation that is not in the module"
                        ));
                        continue;
                    }
                    t.region_of_op(def)
                }
                ValueDef::BlockArg { block, .. } => {
                    let r = t.block_region.get(block.index()).copied().flatten();
                    if r.is_none() {
                        d(format!(
                            "operand #{i} refers to an argument of a block that is not in the module"
                        ));
                        continue;
                    }
                    r
                }
            };
            let mut r = use_region;
            loop {
                match r {
                    Some(r) if Some(r) == def_region => break,
                    Some(cur) => {
                        let parent = t.region_op[cur.index()].expect("reached regions have an op");
                        if isolated(parent) {
                            d(format!(
                                "operand #{i} uses a value defined above '{}', which is isolated from above",
                                String::from_utf8_lossy(m.op_name(parent))
                            ));
                            break;
                        }
                        r = t.region_of_op(parent);
                    }
                    None => {
                        d(format!(
                            "operand #{i} uses a value that is not defined in an enclosing region"
                        ));
                        break;
                    }
                }
            }
        }
        if o.successors().is_empty() {
            continue;
        }
        let Some(block) = t.op_block[op.index()] else {
            d("the top-level operation has successors".into());
            continue;
        };
        if m.block(block).ops.last() != Some(&op) {
            d("operation with block successors must terminate its parent block".into());
        }
        for (i, &s) in o.successors().iter().enumerate() {
            let sr = t.block_region.get(s.index()).copied().flatten();
            match sr {
                None => d(format!(
                    "successor #{i} is a block that is not in the module"
                )),
                Some(sr) if Some(sr) != use_region => d(format!(
                    "successor #{i} is a block of another region (branching out of a region)"
                )),
                Some(sr) => {
                    if m.region(sr).blocks.first() == Some(&s) {
                        d(format!(
                            "successor #{i} is the entry block of its region, which may not have predecessors"
                        ));
                    }
                }
            }
        }
    }
}
