//! Use-list order blocks (SPEC.md §6.10.6): for an op's results or a
//! block's arguments, the values whose in-memory use order is not the
//! reference order, in the order mlir-opt's writer emits them.

use super::encoder::Encoder;
use super::UseListRecordOrder;
use rmlir_format::fasthash::FastMap;
use rmlir_format::use_lists::{is_identity, use_counts};
use rmlir_format::{Module, ValueId};
use std::borrow::Cow;

/// The orders worth writing: entries of [`Module::use_list_orders`] that
/// still describe a permutation of their value's current uses.
pub struct UseListOrders<'m> {
    /// The module's orders, or those derived for a text parse that left
    /// them pending ([`Module::text_forward_uses`]).
    orders: Cow<'m, FastMap<ValueId, Vec<u32>>>,
    /// Uses of each value that has an order (by the live ops).
    uses: Option<FastMap<ValueId, usize>>,
    records: UseListRecordOrder,
}

impl<'m> UseListOrders<'m> {
    pub fn new(m: &'m Module, records: UseListRecordOrder) -> Self {
        // A text parse's orders come with their values' use counts.
        let (orders, uses) = match m.text_use_list_orders_counted() {
            Some((derived, counts)) => (Cow::Owned(derived), counts),
            None => {
                let orders = Cow::Borrowed(&m.use_list_orders);
                let counts = if orders.is_empty() {
                    Default::default()
                } else {
                    use_counts(m, orders.keys().copied())
                };
                (orders, counts)
            }
        };
        let uses = (!orders.is_empty()).then_some(uses);
        UseListOrders {
            orders,
            uses,
            records,
        }
    }

    fn order(&self, v: ValueId) -> Option<&[u32]> {
        let order = self.orders.get(&v)?;
        let n = *self.uses.as_ref()?.get(&v)?;
        let valid =
            n >= 2 && !is_identity(order) && rmlir_format::use_lists::is_permutation(order, n);
        valid.then_some(order.as_slice())
    }

    /// The use-list block for `range`, or `None` when no value of it needs
    /// one (the caller then leaves the mask bit / flag byte clear).
    pub fn encode(&self, range: impl ExactSizeIterator<Item = ValueId>) -> Option<Encoder> {
        self.uses.as_ref()?;
        let len = range.len();
        let entries: Vec<(u32, &[u32])> = range
            .enumerate()
            .filter_map(|(i, v)| self.order(v).map(|o| (i as u32, o)))
            .collect();
        if entries.is_empty() {
            return None;
        }
        let mut e = Encoder::new();
        if len != 1 {
            e.varint(entries.len() as u64);
        }
        let keys: Vec<u32> = entries.iter().map(|&(i, _)| i).collect();
        let keys = match self.records {
            UseListRecordOrder::HashOrder => dense_map_order(&keys),
            UseListRecordOrder::Ascending => keys,
        };
        for key in keys {
            let order = entries
                .iter()
                .find(|&&(i, _)| i == key)
                .map(|&(_, o)| o)
                .expect("key taken from the entries");
            if len != 1 {
                e.varint(u64::from(key));
            }
            let moved = order
                .iter()
                .enumerate()
                .filter(|&(k, &p)| p as usize != k)
                .count();
            if moved < order.len() / 2 {
                e.varint_flag(2 * moved as u64, true);
                for (k, &p) in order.iter().enumerate() {
                    if p as usize != k {
                        e.varint(u64::from(p));
                        e.varint(k as u64);
                    }
                }
            } else {
                e.varint_flag(order.len() as u64, false);
                for &p in order {
                    e.varint(u64::from(p));
                }
            }
        }
        Some(e)
    }
}

/// The iteration order of an LLVM `DenseMap<unsigned, _>` after inserting
/// `keys` (distinct) in the given order: open addressing over a power-of-two
/// table of at least 64 buckets, hash `key * 37`, quadratic probing, the
/// table doubling (re-inserting in bucket order) when an insertion would
/// fill three quarters of it; iteration is by ascending bucket.
pub fn dense_map_order(keys: &[u32]) -> Vec<u32> {
    let mut buckets: Vec<Option<u32>> = vec![None; 64];
    for (len, &k) in keys.iter().enumerate() {
        if (len + 1) * 4 >= buckets.len() * 3 {
            let old = std::mem::replace(&mut buckets, vec![None; 0]);
            buckets = vec![None; old.len() * 2];
            for x in old.into_iter().flatten() {
                place(&mut buckets, x);
            }
        }
        place(&mut buckets, k);
    }
    buckets.into_iter().flatten().collect()
}

fn place(buckets: &mut [Option<u32>], key: u32) {
    let mask = buckets.len() - 1;
    let mut at = (key.wrapping_mul(37) as usize) & mask;
    let mut probe = 1;
    while buckets[at].is_some() {
        at = (at + probe) & mask;
        probe += 1;
    }
    buckets[at] = Some(key);
}

#[cfg(test)]
mod tests {
    use super::dense_map_order;

    #[test]
    fn small_maps_iterate_by_bucket_37i_mod_64() {
        // The wire-facts sheet's observed example (§8).
        assert_eq!(dense_map_order(&[0, 1, 2, 3, 4]), vec![0, 2, 4, 1, 3]);
        // 37·i mod 64 for i = 0..8: 0, 37, 10, 47, 20, 57, 30, 3.
        assert_eq!(
            dense_map_order(&[0, 1, 2, 3, 4, 5, 6, 7]),
            vec![0, 7, 2, 4, 6, 1, 3, 5]
        );
    }

    #[test]
    fn grows_at_48_entries() {
        let keys: Vec<u32> = (0..48).collect();
        let order = dense_map_order(&keys);
        let mut sorted = order.clone();
        sorted.sort();
        assert_eq!(sorted, keys);
        // 128 buckets: 37·i mod 128, all distinct for i < 128.
        let mut by_bucket = keys.clone();
        by_bucket.sort_by_key(|&i| (i * 37) % 128);
        assert_eq!(order, by_bucket);
    }
}
