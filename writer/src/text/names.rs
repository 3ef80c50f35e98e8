//! SSA value and block numbering exactly as mlir-opt 22 assigns it
//! (SPEC.md §4.2): regions are numbered from a stack (last pushed first),
//! each region's own values before any nested region's, with one value
//! counter and one `%argN` counter for the whole module. So in a module
//! with two functions the second one is numbered first.

use rmlir_format::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueName {
    Unnamed,
    Num(u32),
    Arg(u32),
    /// A name an op gave its result, or a block argument's `argN`, in
    /// the custom form: `Names::named[i]`.
    Named(u32),
}

/// The names an op gives its region's arguments (`getAsmBlockArgumentNames`).
pub type ArgNames = dyn Fn(&Module, OpId, RegionId) -> Vec<(ValueId, &'static str)>;

pub struct Names {
    /// Name of each value that heads a result group or is a block argument.
    pub values: Vec<ValueName>,
    /// Index of each block within its region (`^bbN`).
    pub blocks: Vec<u32>,
    /// The names of [`ValueName::Named`] values, uniqued.
    pub named: Vec<String>,
    /// The first result of each result group of the ops whose results the
    /// custom form prints in several groups (`%a, %b:2 = …`), by op index.
    pub groups: rmlir_format::fasthash::FastMap<u32, Vec<u32>>,
}

/// The names an op gives its results: (result index, name) pairs, an
/// empty name meaning a number (`getAsmResultNames`).
pub type ResultNames<'a> = dyn Fn(&Module, OpId, &mut Vec<(u32, String)>) + 'a;

impl Names {
    pub fn compute(m: &Module, top: OpId) -> Names {
        let mut values = vec![ValueName::Unnamed; m.values.len()];
        let mut blocks = vec![0u32; m.blocks.len()];
        let mut next_value = 0u32;
        let number_op = |op: OpId, next_value: &mut u32, values: &mut Vec<ValueName>| {
            let o = m.op(op);
            if o.num_results > 0 {
                values[o.first_result as usize] = ValueName::Num(*next_value);
                *next_value += 1;
            }
        };
        number_op(top, &mut next_value, &mut values);
        let mut stack: Vec<RegionId> = m.op(top).regions().to_vec();
        let (mut nv, mut na) = (next_value, 0u32);
        while let Some(region) = stack.pop() {
            let r = m.region(region);
            for (i, &b) in r.blocks.iter().enumerate() {
                blocks[b.index()] = i as u32;
                let blk = m.block(b);
                for &a in &blk.args {
                    if i == 0 {
                        values[a.index()] = ValueName::Arg(na);
                        na += 1;
                    } else {
                        values[a.index()] = ValueName::Num(nv);
                        nv += 1;
                    }
                }
                for &op in &blk.ops {
                    number_op(op, &mut nv, &mut values);
                }
            }
            for &b in &r.blocks {
                for &op in &m.block(b).ops {
                    for &child in m.op(op).regions() {
                        stack.push(child);
                    }
                }
            }
        }
        Names {
            values,
            blocks,
            named: Vec::new(),
            groups: Default::default(),
        }
    }

    /// The numbering of the custom form (SPEC.md §11.4), as mlir-opt's
    /// `SSANameState` gives it without `--mlir-print-op-generic`: each
    /// region starts from the counters (values, `argN`, name conflicts)
    /// and the names in use that its parent region left, so sibling
    /// regions (two functions, `scf.if`'s branches) number alike; an op
    /// may name its result (`result_name`), and a name in use in the
    /// region or above it gets `_N` from the conflict counter; entry
    /// block arguments are named `argN` that way too.
    pub fn compute_custom(
        m: &Module,
        top: OpId,
        result_names: &ResultNames<'_>,
        arg_names: &ArgNames,
    ) -> Names {
        struct Ctx {
            op: OpId,
            region: RegionId,
            next_value: u32,
            next_arg: u32,
            next_conflict: u32,
            /// How many entries of `used` the parent's scope holds.
            scope: usize,
        }
        let mut n = Names {
            values: vec![ValueName::Unnamed; m.values.len()],
            blocks: vec![0u32; m.blocks.len()],
            named: Vec::new(),
            groups: Default::default(),
        };
        // Names in use, innermost last: a stack cut back to a scope's
        // length when another subtree is entered.
        let mut used = InUse::default();
        let (mut nv, mut na, mut nc) = (0u32, 0u32, 0u32);
        let number_op = |op: OpId, n: &mut Names, used: &mut InUse, nv: &mut u32, nc: &mut u32| {
            let o = m.op(op);
            if o.num_results == 0 {
                return;
            }
            let head = o.first_result as usize;
            let mut given = Vec::new();
            result_names(m, op, &mut given);
            let mut groups = Vec::new();
            for (i, name) in given {
                let v = head + i as usize;
                if i >= o.num_results || n.values[v] != ValueName::Unnamed {
                    continue;
                }
                if name.is_empty() {
                    n.values[v] = ValueName::Num(*nv);
                    *nv += 1;
                } else {
                    let i = used.claim(&name, &mut n.named, nc);
                    n.values[v] = ValueName::Named(i);
                }
                if i != 0 {
                    if groups.is_empty() {
                        groups.push(0);
                    }
                    groups.push(i);
                }
            }
            if n.values[head] == ValueName::Unnamed {
                n.values[head] = ValueName::Num(*nv);
                *nv += 1;
            }
            if groups.len() > 1 {
                groups.sort_unstable();
                n.groups.insert(op.0, groups);
            }
        };
        let mut stack: Vec<Ctx> = Vec::new();
        number_op(top, &mut n, &mut used, &mut nv, &mut nc);
        for &r in m.op(top).regions().iter() {
            stack.push(Ctx {
                op: top,
                region: r,
                next_value: nv,
                next_arg: na,
                next_conflict: nc,
                scope: 0,
            });
        }
        while let Some(c) = stack.pop() {
            (nv, na, nc) = (c.next_value, c.next_arg, c.next_conflict);
            used.cut(c.scope, &n.named);
            // Names the op gives its region's arguments, first
            // (`getAsmBlockArgumentNames`).
            for (a, name) in arg_names(m, c.op, c.region) {
                let i = used.claim(name, &mut n.named, &mut nc);
                n.values[a.index()] = ValueName::Named(i);
            }
            let r = m.region(c.region);
            for (i, &b) in r.blocks.iter().enumerate() {
                n.blocks[b.index()] = i as u32;
                let blk = m.block(b);
                for &a in &blk.args {
                    if n.values[a.index()] != ValueName::Unnamed {
                        continue;
                    }
                    if i == 0 {
                        let name = format!("arg{na}");
                        na += 1;
                        let i = used.claim(&name, &mut n.named, &mut nc);
                        n.values[a.index()] = ValueName::Named(i);
                    } else {
                        n.values[a.index()] = ValueName::Num(nv);
                        nv += 1;
                    }
                }
                for &op in &blk.ops {
                    number_op(op, &mut n, &mut used, &mut nv, &mut nc);
                }
            }
            for &b in &r.blocks {
                for &op in &m.block(b).ops {
                    for &child in m.op(op).regions() {
                        stack.push(Ctx {
                            op,
                            region: child,
                            next_value: nv,
                            next_arg: na,
                            next_conflict: nc,
                            scope: used.stack.len(),
                        });
                    }
                }
            }
        }
        n
    }

    /// Writes `%N`, `%argN` or `%N#i` for `v`.
    pub fn write_value(&self, m: &Module, v: ValueId, out: &mut String) {
        self.write_value_impl(m, v, true, out)
    }

    /// Writes the name of a result group's head without `#i`.
    pub fn write_group(&self, m: &Module, v: ValueId, out: &mut String) {
        self.write_value_impl(m, v, false, out)
    }

    /// Writes an op's results before ` = `: `%0:2`, or its groups
    /// (`%a, %b:2`).
    pub fn write_results(&self, m: &Module, op: OpId, out: &mut String) {
        let o = m.op(op);
        let Some(groups) = self.groups.get(&op.0) else {
            self.write_group(m, ValueId(o.first_result), out);
            if o.num_results > 1 {
                out.push(':');
                push_uint(out, o.num_results as u64);
            }
            return;
        };
        for (k, &start) in groups.iter().enumerate() {
            if k > 0 {
                out.push_str(", ");
            }
            let end = groups.get(k + 1).copied().unwrap_or(o.num_results);
            self.write_group(m, ValueId(o.first_result + start), out);
            if end - start > 1 {
                out.push(':');
                push_uint(out, (end - start) as u64);
            }
        }
    }

    fn write_value_impl(&self, m: &Module, v: ValueId, with_result_no: bool, out: &mut String) {
        let (head, result_no) = match m.value(v).def {
            ValueDef::Result { op, index } => {
                let o = m.op(op);
                // The result group holding it: the op's only one, or one
                // the custom form's names made.
                let (start, end) = match self.groups.get(&op.0) {
                    Some(g) => {
                        let k = g.partition_point(|&s| s <= index).saturating_sub(1);
                        (g[k], g.get(k + 1).copied().unwrap_or(o.num_results))
                    }
                    None => (0, o.num_results),
                };
                let head = ValueId(o.first_result + start);
                (
                    if self.values[head.index()] == ValueName::Unnamed {
                        ValueId(o.first_result)
                    } else {
                        head
                    },
                    if end - start > 1 && with_result_no {
                        Some(index - start)
                    } else {
                        None
                    },
                )
            }
            _ => (v, None),
        };
        match self.values[head.index()] {
            ValueName::Num(n) => {
                out.push('%');
                push_uint(out, n as u64);
            }
            ValueName::Arg(n) => {
                out.push_str("%arg");
                push_uint(out, n as u64);
            }
            ValueName::Named(i) => {
                out.push('%');
                out.push_str(&self.named[i as usize]);
            }
            ValueName::Unnamed => out.push_str("<<UNKNOWN SSA VALUE>>"),
        }
        if let Some(i) = result_no {
            out.push('#');
            push_uint(out, i as u64);
        }
    }
}

/// The value names in use, innermost scope last: a stack of indices into
/// [`Names::named`], cut back to a scope's length when another subtree is
/// entered, and the set of those names for lookups.
#[derive(Default)]
struct InUse {
    stack: Vec<u32>,
    set: rmlir_format::fasthash::FastSet<String>,
}

impl InUse {
    /// Forgets the names of scopes deeper than `len` entries.
    fn cut(&mut self, len: usize, named: &[String]) {
        while self.stack.len() > len {
            let gone = self.stack.pop().expect("longer than the scope");
            self.set.remove(&named[gone as usize]);
        }
    }

    /// `name` made a valid value name and unique among those in use
    /// (mlir-opt's `uniqueValueName` and `sanitizeIdentifier`), added to
    /// `named` and put in use; its index there. Characters outside
    /// `[A-Za-z0-9$._-]` become `_` (a space) or their hex code, a leading
    /// digit gets a `_` before it, and a name in use gets `_` and the next
    /// value of the conflict counter until it is not.
    fn claim(&mut self, name: &str, named: &mut Vec<String>, next_conflict: &mut u32) -> u32 {
        let valid = |c: char| c.is_ascii_alphanumeric() || "$._-".contains(c);
        let mut clean = String::with_capacity(name.len() + 1);
        if name.starts_with(|c: char| c.is_ascii_digit()) {
            clean.push('_');
        }
        for b in name.bytes() {
            let c = b as char;
            if b.is_ascii() && valid(c) {
                clean.push(c);
            } else if c == ' ' {
                clean.push('_');
            } else {
                let _ = std::fmt::Write::write_fmt(&mut clean, format_args!("{b:X}"));
            }
        }
        if self.set.contains(&clean) {
            let base = clean;
            loop {
                clean = format!("{base}_{next_conflict}");
                *next_conflict += 1;
                if !self.set.contains(&clean) {
                    break;
                }
            }
        }
        let i = named.len() as u32;
        self.set.insert(clean.clone());
        named.push(clean);
        self.stack.push(i);
        i
    }
}

/// Appends `n` in decimal: what `write!(out, "{n}")` prints, without the
/// formatting machinery (value names and location numbers are printed a
/// million times in a large module). The digits are built from the right
/// in a scratch buffer and appended with [`rmlir_format::append`] (a copy
/// of their run-time length was a `memcpy` call per number, a third of
/// this function's cost).
pub fn push_uint(out: &mut String, mut n: u64) {
    // Two digits per division: line and column numbers, value and alias
    // numbers are printed for nearly every op.
    const PAIRS: &[u8; 200] = b"\
        0001020304050607080910111213141516171819\
        2021222324252627282930313233343536373839\
        4041424344454647484950515253545556575859\
        6061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899";
    // u64::MAX has 20 digits; they end at byte 20, and the 20 bytes from
    // the first digit are always inside the buffer.
    const MAX: usize = 20;
    let mut buf = [0u8; 2 * MAX];
    let mut i = MAX;
    while n >= 100 {
        let k = (n % 100) as usize * 2;
        n /= 100;
        i -= 2;
        buf[i..i + 2].copy_from_slice(&PAIRS[k..k + 2]);
    }
    if n >= 10 {
        let k = n as usize * 2;
        i -= 2;
        buf[i..i + 2].copy_from_slice(&PAIRS[k..k + 2]);
    } else {
        i -= 1;
        buf[i] = b'0' + n as u8;
    }
    let window: [u8; MAX] = buf[i..i + MAX].try_into().expect("i <= MAX");
    // SAFETY: only the ASCII digits become part of the string, which so
    // stays valid UTF-8.
    rmlir_format::append::append_prefix(unsafe { out.as_mut_vec() }, window, MAX - i);
}

#[cfg(test)]
mod push_uint_tests {
    #[test]
    fn like_format() {
        for n in [
            0u64,
            7,
            9,
            10,
            11,
            99,
            100,
            101,
            999,
            1000,
            12345,
            u32::MAX as u64,
            u64::MAX,
        ]
        .into_iter()
        .chain((0..5000).map(|k| k * 7919))
        .chain((1..20).flat_map(|e| {
            let p = 10u64.pow(e);
            [p - 1, p, p + 1]
        })) {
            let mut s = String::from("x");
            super::push_uint(&mut s, n);
            assert_eq!(s, format!("x{n}"));
        }
    }
}
