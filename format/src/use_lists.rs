//! Use-list orders (SPEC.md §2.8): the order in which MLIR keeps the uses
//! of a value in memory, which bytecode v3+ records when it is not the
//! reference order.
//!
//! A *use* is an operand slot `(owner op, operand number)`. The reference
//! order of a value's uses sorts them by descending
//! `(pre-order id of the owner, operand number)` — the order MLIR gets by
//! building IR in pre-order and pushing every new use to the front. A
//! value whose in-memory order differs gets an entry in
//! [`Module::use_list_orders`]: `order[k]` is the in-memory position of the
//! k-th use in reference order.

use crate::fasthash::FastMap as HashMap;
use crate::ir::{Module, OpId, ValueId};

/// Use-list orders by value (`order[k]`: the in-memory position of the
/// k-th use in reference order).
pub type Orders = HashMap<ValueId, Vec<u32>>;

/// Numbers of uses by value.
pub type UseCounts = HashMap<ValueId, usize>;

/// Every use of every value of the ops reachable from the top, grouped by
/// value (compressed rows: the uses of value `v` are
/// `uses[start[v]..start[v + 1]]`, each in ascending op-id order, operand
/// numbers ascending within one op).
pub struct UseTable {
    start: Vec<u32>,
    uses: Vec<(OpId, u32)>,
}

impl UseTable {
    /// The uses in `m` of every value, by the ops reachable from its top.
    pub fn new(m: &Module) -> Self {
        let live = live_ops(m);
        let mut start = vec![0u32; m.values.len() + 1];
        for &op in &live {
            for v in m.operands(op) {
                if let Some(c) = start.get_mut(v.index() + 1) {
                    *c += 1;
                }
            }
        }
        for i in 1..start.len() {
            start[i] += start[i - 1];
        }
        let mut fill = start.clone();
        let mut uses = vec![(OpId(0), 0u32); *start.last().unwrap_or(&0) as usize];
        for &op in &live {
            for (i, v) in m.operands(op).iter().enumerate() {
                if let Some(slot) = fill.get_mut(v.index()) {
                    uses[*slot as usize] = (op, i as u32);
                    *slot += 1;
                }
            }
        }
        UseTable { start, uses }
    }

    /// The uses of `v`, by ascending (op id, operand number).
    pub fn uses(&self, v: ValueId) -> &[(OpId, u32)] {
        match (self.start.get(v.index()), self.start.get(v.index() + 1)) {
            (Some(&a), Some(&b)) => &self.uses[a as usize..b as usize],
            _ => &[],
        }
    }

    /// Values with at least two uses.
    pub fn shared_values(&self) -> impl Iterator<Item = ValueId> + '_ {
        self.start
            .windows(2)
            .enumerate()
            .filter(|(_, w)| w[1] - w[0] >= 2)
            .map(|(i, _)| ValueId(i as u32))
    }
}

/// The number of uses, by the ops reachable from the top, of each value
/// of `values`: what a writer needs to check an order it is given, at the
/// memory of a map over those values rather than a table of every use.
pub fn use_counts(
    m: &Module,
    values: impl IntoIterator<Item = ValueId>,
) -> HashMap<ValueId, usize> {
    let mut counts: HashMap<ValueId, usize> = values.into_iter().map(|v| (v, 0)).collect();
    if counts.is_empty() {
        return counts;
    }
    for op in live_ops(m) {
        for v in m.operands(op) {
            if let Some(c) = counts.get_mut(v) {
                *c += 1;
            }
        }
    }
    counts
}

/// Ops reachable from the top-level op, in ascending id order: marked,
/// then collected in id order (a sort of the walk's half a million ids
/// took ~20 ms of the 50 MB module's write).
fn live_ops(m: &Module) -> Vec<OpId> {
    let mut live = vec![false; m.ops.len()];
    let mut count = 0usize;
    let mut stack: Vec<OpId> = m.top.into_iter().collect();
    while let Some(op) = stack.pop() {
        live[op.index()] = true;
        count += 1;
        for &r in m.op(op).regions() {
            for &b in &m.region(r).blocks {
                stack.extend(m.block(b).ops.iter().copied());
            }
        }
    }
    let mut out = Vec::with_capacity(count);
    out.extend(
        live.iter()
            .enumerate()
            .filter(|(_, &l)| l)
            .map(|(i, _)| OpId(i as u32)),
    );
    out
}

/// Pre-order ids of the ops reachable from the top (`u32::MAX` for the rest).
pub fn preorder_ids(m: &Module) -> Vec<u32> {
    let mut ids = vec![u32::MAX; m.ops.len()];
    let mut next = 0u32;
    let mut stack: Vec<OpId> = m.top.into_iter().collect();
    while let Some(op) = stack.pop() {
        ids[op.index()] = next;
        next += 1;
        for &r in m.op(op).regions().iter().rev() {
            for &b in m.region(r).blocks.iter().rev() {
                stack.extend(m.block(b).ops.iter().rev().copied());
            }
        }
    }
    ids
}

/// The orders MLIR's text parser leaves in memory (SPEC.md §2.8), given
/// that op ids are in creation order (an op is created after its regions)
/// and `is_forward(op, operand)` tells the uses that named a value before
/// its definition.
///
/// Each use is pushed to the front of its value's list when its op is
/// created; a forward reference's uses are moved one by one to the front
/// of the real value when it is defined, before any other use of it
/// exists. So the list is the other uses newest first, then the forward
/// uses oldest first.
///
/// With the orders, the [`use_counts`] of the values that have one, taken
/// from the table of uses the orders were found in rather than from
/// another walk of the module.
pub fn text_parser_orders(
    m: &Module,
    is_forward: impl Fn(OpId, u32) -> bool,
) -> (Orders, UseCounts) {
    let table = UseTable::new(m);
    let pre = preorder_ids(m);
    let mut out = HashMap::default();
    let mut memory: Vec<(OpId, u32)> = Vec::new();
    let mut reference: Vec<(OpId, u32)> = Vec::new();
    for v in table.shared_values() {
        let uses = table.uses(v);
        memory.clear();
        memory.extend(uses.iter().rev().filter(|&&(o, i)| !is_forward(o, i)));
        memory.extend(uses.iter().filter(|&&(o, i)| is_forward(o, i)));
        reference.clear();
        reference.extend_from_slice(uses);
        reference.sort_unstable_by_key(|&(o, i)| std::cmp::Reverse((pre[o.index()], i)));
        if memory == reference {
            continue;
        }
        let position: HashMap<(OpId, u32), u32> = memory
            .iter()
            .enumerate()
            .map(|(p, &u)| (u, p as u32))
            .collect();
        out.insert(v, reference.iter().map(|u| position[u]).collect());
    }
    let counts = out.keys().map(|&v| (v, table.uses(v).len())).collect();
    (out, counts)
}

/// Whether `order` is `0, 1, 2, …`.
pub fn is_identity(order: &[u32]) -> bool {
    order.iter().enumerate().all(|(k, &p)| p as usize == k)
}

/// Whether `order` is a permutation of `0..n`.
pub fn is_permutation(order: &[u32], n: usize) -> bool {
    if order.len() != n {
        return false;
    }
    let mut seen = vec![false; n];
    for &p in order {
        match seen.get_mut(p as usize) {
            Some(s) if !*s => *s = true,
            _ => return false,
        }
    }
    true
}
