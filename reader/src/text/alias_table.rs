//! A map from alias names to `u32` values, compact for the names
//! mlir-opt prints: `<prefix><n>` (`#loc`, `#loc1`, …, `#loc576000`).
//! A name ending in a canonical decimal number is kept by its prefix and
//! number, never by its bytes, which may sit in source pages already
//! released (SPEC.md §3): per prefix, a directory of pages of `PAGE`
//! slots indexed by the number, 4 bytes per slot, with a map from number
//! to value for the numbers the directory does not reach. The directory
//! starts at the page of the first number its prefix meets (a table may
//! start in the middle of the count: the second thread of a split parse
//! meets `#loc170000` first, SPEC.md §3.5) and grows, up or down, only
//! while it spans fewer pages than `DIR_PER_ENTRY` times its prefix's
//! entries plus `SLACK`, and a page is made only for an entry, so input
//! cannot make a table large.
//! Numbers printed out of order (mlir-opt defines the aliases of file
//! locations before the op and those of call sites after it, the uses
//! jumping between the two counts) stay in pages: sparse, not hashed.
//! Any other name goes to a hash map.

use rmlir_format::fasthash::FastMap as HashMap;

const NONE: u32 = u32::MAX;

/// Slots per page.
const PAGE: usize = 16;

/// A directory spans at most this many pages per entry of its prefix,
/// plus `SLACK`: 16 bytes per entry (a page, 64 bytes, is made only for
/// an entry).
const DIR_PER_ENTRY: usize = 4;
const SLACK: usize = 16;

/// A page index in a directory where no page is.
const NO_PAGE: u32 = u32::MAX;

#[derive(Clone, Default)]
struct Numbered {
    /// The page `dir[0]` is for (the number `first_page * PAGE` is its
    /// first slot's).
    first_page: usize,
    /// Per page of numbers from `first_page` on, its index in `pages`.
    dir: Vec<u32>,
    pages: Vec<[u32; PAGE]>,
    /// The numbers outside the directory.
    far: HashMap<u32, u32>,
    /// Names inserted (a removal does not count down: the sizes are
    /// bounded by the insertions).
    entries: usize,
}

impl Numbered {
    /// The slot of `n` if its page exists.
    #[inline]
    fn slot(&self, n: usize) -> Option<&u32> {
        let d = (n / PAGE).checked_sub(self.first_page)?;
        let &p = self.dir.get(d)?;
        if p == NO_PAGE {
            return None;
        }
        Some(&self.pages[p as usize][n % PAGE])
    }

    #[inline]
    fn slot_mut(&mut self, n: usize) -> Option<&mut u32> {
        let d = (n / PAGE).checked_sub(self.first_page)?;
        let &p = self.dir.get(d)?;
        if p == NO_PAGE {
            return None;
        }
        Some(&mut self.pages[p as usize][n % PAGE])
    }

    #[inline]
    fn get(&self, n: usize) -> Option<u32> {
        match self.slot(n) {
            Some(&v) if v != NONE => Some(v),
            _ if self.far.is_empty() => None,
            _ => self.far.get(&(n as u32)).copied(),
        }
    }

    /// The most pages the directory may span.
    fn dir_bound(&self) -> usize {
        DIR_PER_ENTRY * self.entries + SLACK
    }

    /// The slot for `n`, its page made, if the directory reaches or may
    /// grow to reach it, up or down.
    fn slot_for_insert(&mut self, n: usize) -> Option<&mut u32> {
        let page = n / PAGE;
        if self.dir.is_empty() {
            self.first_page = page;
        }
        if page < self.first_page {
            // Down: by at least as many pages as it spans (each page moves
            // once per doubling), as far as the bound lets it.
            let needed = self.first_page - page;
            let room = self.dir_bound().checked_sub(self.dir.len())?;
            if needed >= room {
                return None;
            }
            let grow = needed.max(self.dir.len().min(self.first_page).min(room - 1));
            self.dir.splice(0..0, std::iter::repeat_n(NO_PAGE, grow));
            self.first_page -= grow;
        }
        let d = page - self.first_page;
        if d >= self.dir.len() {
            if d >= self.dir_bound() {
                return None;
            }
            self.dir.resize(d + 1, NO_PAGE);
        }
        if self.dir[d] == NO_PAGE {
            self.dir[d] = u32::try_from(self.pages.len()).expect("fewer than 2^32 pages");
            self.pages.push([NONE; PAGE]);
        }
        Some(&mut self.pages[self.dir[d] as usize][n % PAGE])
    }

    fn insert(&mut self, n: usize, v: u32) -> Option<u32> {
        // A number put in the map before the directory reached it stays
        // there.
        if !self.far.is_empty() {
            if let Some(old) = self.far.get_mut(&(n as u32)) {
                return Some(std::mem::replace(old, v));
            }
        }
        let old = match self.slot_for_insert(n) {
            Some(slot) => std::mem::replace(slot, v),
            None => self.far.insert(n as u32, v).unwrap_or(NONE),
        };
        if old != NONE {
            return Some(old);
        }
        self.entries += 1;
        None
    }

    fn remove(&mut self, n: usize) -> Option<u32> {
        if let Some(slot) = self.slot_mut(n) {
            if *slot != NONE {
                return Some(std::mem::replace(slot, NONE));
            }
        }
        if self.far.is_empty() {
            return None;
        }
        self.far.remove(&(n as u32))
    }

    /// Each number held and its value.
    fn for_each(&self, mut f: impl FnMut(usize, u32)) {
        for (d, &p) in self.dir.iter().enumerate() {
            if p == NO_PAGE {
                continue;
            }
            let base = (self.first_page + d) * PAGE;
            for (i, &v) in self.pages[p as usize].iter().enumerate() {
                if v != NONE {
                    f(base + i, v);
                }
            }
        }
        for (&n, &v) in &self.far {
            f(n as usize, v);
        }
    }

    fn map_values(&mut self, f: &impl Fn(u32) -> u32) {
        self.pages
            .iter_mut()
            .flatten()
            .filter(|v| **v != NONE)
            .for_each(|v| *v = f(*v));
        self.far.values_mut().for_each(|v| *v = f(*v));
    }
}

/// A prefix of up to 8 bytes as a number with its length, compared
/// without a call to `memcmp`.
#[derive(Clone, Copy, PartialEq, Eq)]
struct ShortKey(u64, usize);

impl ShortKey {
    #[inline]
    fn of(prefix: &[u8]) -> Option<Self> {
        if prefix.len() > 8 {
            return None;
        }
        let mut k = 0u64;
        for &c in prefix {
            k = (k << 8) | u64::from(c);
        }
        Some(ShortKey(k, prefix.len()))
    }
}

/// The prefixes of numbered names: those of up to 8 bytes in a vector
/// searched by [`ShortKey`] (a file has one or two: `loc`, `map`), the
/// longer ones in a map.
#[derive(Clone, Default)]
struct Prefixes<'a> {
    short: Vec<(ShortKey, Numbered)>,
    /// Where `short` has more than a few entries, their indexes.
    short_index: HashMap<(u64, usize), usize>,
    long: HashMap<&'a [u8], Numbered>,
}

/// Up to this many short prefixes are searched in order.
const SHORT_SCAN: usize = 8;

impl<'a> Prefixes<'a> {
    fn is_empty(&self) -> bool {
        self.short.is_empty() && self.long.is_empty()
    }

    #[inline]
    fn find_short(&self, k: ShortKey) -> Option<usize> {
        if self.short.len() <= SHORT_SCAN {
            self.short.iter().position(|(s, _)| *s == k)
        } else {
            self.short_index.get(&(k.0, k.1)).copied()
        }
    }

    #[inline]
    fn get(&self, prefix: &[u8]) -> Option<&Numbered> {
        match ShortKey::of(prefix) {
            Some(k) => self.find_short(k).map(|i| &self.short[i].1),
            None => self.long.get(prefix),
        }
    }

    #[inline]
    fn get_mut(&mut self, prefix: &[u8]) -> Option<&mut Numbered> {
        match ShortKey::of(prefix) {
            Some(k) => self.find_short(k).map(|i| &mut self.short[i].1),
            None => self.long.get_mut(prefix),
        }
    }

    fn entry(&mut self, prefix: &'a [u8]) -> &mut Numbered {
        let Some(k) = ShortKey::of(prefix) else {
            return self.long.entry(prefix).or_default();
        };
        let i = match self.find_short(k) {
            Some(i) => i,
            None => {
                self.short.push((k, Numbered::default()));
                let i = self.short.len() - 1;
                if self.short.len() > SHORT_SCAN {
                    if self.short_index.is_empty() {
                        for (j, (s, _)) in self.short.iter().enumerate() {
                            self.short_index.insert((s.0, s.1), j);
                        }
                    } else {
                        self.short_index.insert((k.0, k.1), i);
                    }
                }
                i
            }
        };
        &mut self.short[i].1
    }

    /// Each prefix (as its key into another table's `get`) and its
    /// numbers.
    fn for_each(&self, mut f: impl FnMut(PrefixRef<'_>, &Numbered)) {
        for (k, t) in &self.short {
            f(PrefixRef::Short(*k), t);
        }
        for (p, t) in &self.long {
            f(PrefixRef::Long(p), t);
        }
    }

    fn lookup(&self, p: PrefixRef<'_>) -> Option<&Numbered> {
        match p {
            PrefixRef::Short(k) => self.find_short(k).map(|i| &self.short[i].1),
            PrefixRef::Long(p) => self.long.get(p),
        }
    }

    fn values_mut(&mut self) -> impl Iterator<Item = &mut Numbered> {
        self.short
            .iter_mut()
            .map(|(_, t)| t)
            .chain(self.long.values_mut())
    }
}

#[derive(Clone, Copy)]
enum PrefixRef<'p> {
    Short(ShortKey),
    Long(&'p [u8]),
}

#[derive(Clone, Default)]
pub struct AliasTable<'a> {
    numbered: Prefixes<'a>,
    named: HashMap<&'a [u8], u32>,
}

/// `name` as a prefix and a canonical decimal number (no leading zero),
/// if it ends in one.
#[inline]
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
        match split_number(name) {
            Some((prefix, n)) => self.numbered.get(prefix)?.get(n),
            None => self.named.get(name).copied(),
        }
    }

    /// Sets `name` to `v` (`v` is not `u32::MAX`); returns its previous
    /// value.
    pub fn insert(&mut self, name: &'a [u8], v: u32) -> Option<u32> {
        debug_assert_ne!(v, NONE);
        match split_number(name) {
            Some((prefix, n)) => self.numbered.entry(prefix).insert(n, v),
            None => self.named.insert(name, v),
        }
    }

    /// Replaces every value `v` by `f(v)`.
    pub fn map_values(&mut self, f: impl Fn(u32) -> u32) {
        for t in self.numbered.values_mut() {
            t.map_values(&f);
        }
        self.named.values_mut().for_each(|v| *v = f(*v));
    }

    /// Calls `f(mine, theirs)` for each name both tables hold. Numbered
    /// names are matched by prefix and number, so the bytes of a name are
    /// read only for names that do not end in a number.
    pub fn for_each_common(&self, theirs: &AliasTable<'_>, mut f: impl FnMut(u32, u32)) {
        self.numbered.for_each(|prefix, mine| {
            if let Some(other) = theirs.numbered.lookup(prefix) {
                mine.for_each(|n, v| {
                    if let Some(w) = other.get(n) {
                        f(v, w);
                    }
                });
            }
        });
        for (name, &v) in &self.named {
            if let Some(&w) = theirs.named.get(name) {
                f(v, w);
            }
        }
    }

    pub fn remove(&mut self, name: &[u8]) -> Option<u32> {
        match split_number(name) {
            Some((prefix, n)) => self.numbered.get_mut(prefix)?.remove(n),
            None => self.named.remove(name),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loc<'t>(t: &'t AliasTable<'_>) -> &'t Numbered {
        t.numbered.get(b"loc").expect("the loc prefix")
    }

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
        assert!(loc(&t).dir.len() <= SLACK + 4);
        assert_eq!(loc(&t).far.len(), 1);
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
    /// in its directory, which grows down for numbers below the first;
    /// numbers out of its reach are found in the map.
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
        assert!(loc(&t).far.is_empty());
        assert_eq!(loc(&t).first_page, 170_000 / PAGE);
        assert_eq!(loc(&t).pages.len(), 10_000 / PAGE);
        assert_eq!(t.insert(b"loc169999", 7), None);
        assert_eq!(t.insert(b"loc5", 8), None);
        assert_eq!(t.insert(b"loc999999999", 9), None);
        assert_eq!(loc(&t).first_page, 0);
        assert_eq!(loc(&t).far.len(), 1);
        assert_eq!(t.get(b"loc999999999"), Some(9));
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

    /// Counting up keeps every number in pages; a sparse count (one
    /// number in 1000) makes a page per entry and a directory within
    /// its bound.
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
        assert!(loc(&t).far.is_empty());
        for (i, n) in names.iter().enumerate() {
            assert_eq!(t.get(n), Some(i as u32));
        }
        let every_other: Vec<Vec<u8>> = (0..10_000)
            .map(|i| format!("x{}", 1000 * i).into_bytes())
            .collect();
        for n in &every_other {
            t.insert(n, 1);
        }
        let x = t.numbered.get(b"x").expect("the x prefix");
        assert!(x.dir.len() <= DIR_PER_ENTRY * x.entries + SLACK);
        assert!(x.pages.len() <= x.entries);
        for n in &every_other {
            assert_eq!(t.get(n), Some(1));
        }
    }

    /// mlir-opt's order: the file locations' aliases (every ninth number
    /// or so) before the op, the call sites' after; uses jump between
    /// the two counts. The second count is in pages once the entries
    /// are many enough for the directory to reach it.
    #[test]
    fn interleaved_counts_stay_in_pages() {
        let mut t = AliasTable::default();
        let names: Vec<Vec<u8>> = (0..40_000)
            .flat_map(|i| [9 * i, 400_000 + i])
            .map(|i| format!("loc{i}").into_bytes())
            .collect();
        for (i, n) in names.iter().enumerate() {
            assert_eq!(t.insert(n, i as u32), None);
        }
        assert!(loc(&t).far.len() < 4_000);
        for (i, n) in names.iter().enumerate() {
            assert_eq!(t.get(n), Some(i as u32));
        }
        // A number put in the map stays there as the directory grows.
        assert_eq!(t.insert(&names[1], 7), Some(1));
        assert_eq!(t.get(&names[1]), Some(7));
        let mut n = 0;
        t.map_values(|v| v + 1);
        t.for_each_common(&t.clone(), |a, b| {
            assert_eq!(a, b);
            n += 1;
        });
        assert_eq!(n, names.len());
    }

    /// Many short prefixes are found through their index.
    #[test]
    fn many_prefixes() {
        let mut t = AliasTable::default();
        let names: Vec<Vec<u8>> = (0..100)
            .map(|i| format!("p{i}x{i}").into_bytes())
            .chain((0..20).map(|i| format!("a_long_prefix_{i}x{i}").into_bytes()))
            .collect();
        for (i, n) in names.iter().enumerate() {
            assert_eq!(t.insert(n, i as u32), None);
        }
        for (i, n) in names.iter().enumerate() {
            assert_eq!(t.get(n), Some(i as u32));
        }
        assert_eq!(t.get(b"p1x2"), None);
        assert_eq!(t.remove(b"p99x99"), Some(99));
        assert_eq!(t.get(b"p99x99"), None);
    }

    /// Counting down grows the directory down, each page moved once per
    /// doubling of its length, and keeps every number in pages.
    #[test]
    fn counting_down_stays_in_pages() {
        let mut t = AliasTable::default();
        let names: Vec<Vec<u8>> = (0..20_000)
            .rev()
            .map(|i| format!("loc{i}").into_bytes())
            .collect();
        for (i, n) in names.iter().enumerate() {
            assert_eq!(t.insert(n, i as u32), None);
        }
        assert!(loc(&t).far.is_empty());
        assert_eq!(loc(&t).first_page, 0);
        for (i, n) in names.iter().enumerate() {
            assert_eq!(t.get(n), Some(i as u32));
        }
    }
}
