//! A map from alias names to `u32` values, compact for the names
//! mlir-opt prints: `<prefix><n>` (`#loc`, `#loc1`, …, `#loc576000`) with
//! `n` counting up. Those are kept in a vector per prefix, indexed by
//! `n` less the first number the prefix got: 4 bytes per alias instead of
//! a 24-byte hash-map slot, and no comparison of name bytes, which may sit
//! in source pages already released (SPEC.md §3). A table may start in
//! the middle of the count (the second thread of a split parse meets
//! `#loc170000` first, SPEC.md §3.5). Any other name, a number below the
//! first, or one that would grow its prefix's vector past twice its
//! entries (so that input cannot make the vector large), goes to a hash
//! map.

use rmlir_format::fasthash::FastMap as HashMap;

const NONE: u32 = u32::MAX;

/// A vector grows to hold `n` only while `n` is below twice its entries
/// plus this.
const SLACK: usize = 16;

#[derive(Clone, Default)]
struct Numbered {
    /// The number `slots[0]` is for.
    first: usize,
    slots: Vec<u32>,
    entries: usize,
}

impl Numbered {
    fn slot(&self, n: usize) -> Option<&u32> {
        self.slots.get(n.checked_sub(self.first)?)
    }

    fn slot_mut(&mut self, n: usize) -> Option<&mut u32> {
        self.slots.get_mut(n.checked_sub(self.first)?)
    }
}

#[derive(Clone, Default)]
pub struct AliasTable<'a> {
    numbered: HashMap<&'a [u8], Numbered>,
    named: HashMap<&'a [u8], u32>,
}

/// `name` as a prefix and a canonical decimal number (no leading zero),
/// if it ends in one.
fn split_number(name: &[u8]) -> Option<(&[u8], usize)> {
    let digits = name.iter().rev().take_while(|c| c.is_ascii_digit()).count();
    if digits == 0 || digits > 9 {
        return None;
    }
    let (prefix, number) = name.split_at(name.len() - digits);
    if number.len() > 1 && number[0] == b'0' {
        return None;
    }
    let n = number
        .iter()
        .fold(0usize, |n, &d| n * 10 + usize::from(d - b'0'));
    Some((prefix, n))
}

impl<'a> AliasTable<'a> {
    pub fn is_empty(&self) -> bool {
        self.numbered.is_empty() && self.named.is_empty()
    }

    pub fn get(&self, name: &[u8]) -> Option<u32> {
        if let Some((prefix, n)) = split_number(name) {
            let v = self
                .numbered
                .get(prefix)
                .and_then(|t| t.slot(n))
                .copied()
                .unwrap_or(NONE);
            if v != NONE {
                return Some(v);
            }
        }
        self.named.get(name).copied()
    }

    /// Sets `name` to `v` (`v` is not `u32::MAX`); returns its previous
    /// value.
    pub fn insert(&mut self, name: &'a [u8], v: u32) -> Option<u32> {
        debug_assert_ne!(v, NONE);
        if let Some((prefix, n)) = split_number(name) {
            let t = self.numbered.entry(prefix).or_default();
            if t.slots.is_empty() {
                t.first = n;
            }
            let i = n.wrapping_sub(t.first);
            if n >= t.first && (i < t.slots.len() || i < 2 * t.entries + SLACK) {
                if i >= t.slots.len() {
                    t.slots.resize(i + 1, NONE);
                }
                let old = std::mem::replace(&mut t.slots[i], v);
                if old != NONE {
                    return Some(old);
                }
                t.entries += 1;
                return if self.named.is_empty() {
                    None
                } else {
                    self.named.remove(name)
                };
            }
        }
        self.named.insert(name, v)
    }

    /// Replaces every value `v` by `f(v)`.
    pub fn map_values(&mut self, f: impl Fn(u32) -> u32) {
        for t in self.numbered.values_mut() {
            t.slots
                .iter_mut()
                .filter(|v| **v != NONE)
                .for_each(|v| *v = f(*v));
        }
        self.named.values_mut().for_each(|v| *v = f(*v));
    }

    /// Calls `f(mine, theirs)` for each name both tables hold. Numbered
    /// names are matched by prefix and number, so the bytes of a name are
    /// read only for a prefix and for names outside the vectors.
    pub fn for_each_common(&self, theirs: &AliasTable<'_>, mut f: impl FnMut(u32, u32)) {
        for (prefix, mine) in &self.numbered {
            let other = theirs.numbered.get(prefix);
            for (i, &v) in mine.slots.iter().enumerate() {
                if v == NONE {
                    continue;
                }
                let n = mine.first + i;
                let found = match other.and_then(|t| t.slot(n)) {
                    Some(&w) if w != NONE => Some(w),
                    _ if theirs.named.is_empty() => None,
                    _ => theirs
                        .named
                        .get(&[prefix, n.to_string().as_bytes()].concat()[..])
                        .copied(),
                };
                if let Some(w) = found {
                    f(v, w);
                }
            }
        }
        for (name, &v) in &self.named {
            if let Some(w) = theirs.get(name) {
                f(v, w);
            }
        }
    }

    pub fn remove(&mut self, name: &[u8]) -> Option<u32> {
        if let Some((prefix, n)) = split_number(name) {
            if let Some(slot) = self.numbered.get_mut(prefix).and_then(|t| t.slot_mut(n)) {
                if *slot != NONE {
                    return Some(std::mem::replace(slot, NONE));
                }
            }
        }
        self.named.remove(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_number_takes_canonical_decimal_suffixes() {
        assert_eq!(split_number(b"loc12"), Some((&b"loc"[..], 12)));
        assert_eq!(split_number(b"loc0"), Some((&b"loc"[..], 0)));
        assert_eq!(split_number(b"loc"), None);
        assert_eq!(split_number(b"loc007"), None);
        assert_eq!(split_number(b"a1b"), None);
        assert_eq!(split_number(b"x1234567890"), None);
    }

    /// `loc7` and `loc007` are different names; numbered and named entries
    /// never shadow each other; a far number goes to the map.
    #[test]
    fn numbered_and_named_entries_are_one_map() {
        let mut t = AliasTable::default();
        t.insert(b"loc", 1);
        t.insert(b"loc1", 2);
        t.insert(b"loc007", 3);
        t.insert(b"loc7", 4);
        t.insert(b"loc900000", 5);
        t.insert(b"map", 6);
        assert_eq!(t.get(b"loc"), Some(1));
        assert_eq!(t.get(b"loc1"), Some(2));
        assert_eq!(t.get(b"loc007"), Some(3));
        assert_eq!(t.get(b"loc7"), Some(4));
        assert_eq!(t.get(b"loc900000"), Some(5));
        assert_eq!(t.get(b"loc2"), None);
        assert_eq!(t.get(b"loc8"), None);
        assert!(t.numbered[&b"loc"[..]].slots.len() <= SLACK + 4);
        assert_eq!(t.remove(b"loc7"), Some(4));
        assert_eq!(t.get(b"loc7"), None);
        assert_eq!(t.remove(b"loc7"), None);
        assert_eq!(t.remove(b"loc900000"), Some(5));
        assert_eq!(t.insert(b"loc1", 9), Some(2));
        assert_eq!(t.get(b"loc1"), Some(9));
        assert_eq!(t.insert(b"loc900000", 7), None);
        assert_eq!(t.insert(b"loc900000", 8), Some(7));
    }

    /// A table that meets `loc170000` first keeps the count from there
    /// in its vector; numbers below the first are found in the map.
    #[test]
    fn counting_up_from_the_middle_stays_dense() {
        let mut t = AliasTable::default();
        let names: Vec<Vec<u8>> = (170_000..180_000)
            .map(|i| format!("loc{i}").into_bytes())
            .collect();
        for (i, n) in names.iter().enumerate() {
            assert_eq!(t.insert(n, i as u32), None);
        }
        assert!(t.named.is_empty());
        let loc = &t.numbered[&b"loc"[..]];
        assert_eq!((loc.first, loc.slots.len()), (170_000, 10_000));
        assert_eq!(t.insert(b"loc169999", 7), None);
        assert_eq!(t.insert(b"loc5", 8), None);
        assert_eq!(t.named.len(), 2);
        for (i, n) in names.iter().enumerate() {
            assert_eq!(t.get(n), Some(i as u32));
        }
        assert_eq!(t.get(b"loc169999"), Some(7));
        assert_eq!(t.get(b"loc5"), Some(8));
        assert_eq!(t.get(b"loc180000"), None);
        assert_eq!(t.remove(b"loc170003"), Some(3));
        assert_eq!(t.remove(b"loc5"), Some(8));
        assert_eq!(t.get(b"loc170003"), None);
        assert_eq!(t.get(b"loc5"), None);
        let mut other = AliasTable::default();
        other.insert(b"loc170001", 100);
        other.insert(b"loc169999", 101);
        other.insert(b"loc2", 102);
        let mut common = Vec::new();
        t.for_each_common(&other, |mine, theirs| common.push((mine, theirs)));
        common.sort_unstable();
        assert_eq!(common, [(1, 100), (7, 101)]);
    }

    /// Counting up keeps every number in the vector; its length stays
    /// within twice the entries.
    #[test]
    fn counting_up_stays_dense() {
        let mut t = AliasTable::default();
        let names: Vec<Vec<u8>> = (0..10_000)
            .map(|i| format!("loc{i}").into_bytes())
            .collect();
        for (i, n) in names.iter().enumerate() {
            t.insert(n, i as u32);
        }
        assert!(t.named.is_empty());
        for (i, n) in names.iter().enumerate() {
            assert_eq!(t.get(n), Some(i as u32));
        }
        let every_other: Vec<Vec<u8>> = (0..10_000)
            .map(|i| format!("x{}", 1000 * i).into_bytes())
            .collect();
        for n in &every_other {
            t.insert(n, 1);
        }
        let x = &t.numbered[&b"x"[..]];
        assert!(x.slots.len() <= 2 * x.entries + SLACK);
    }
}
