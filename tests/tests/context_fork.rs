//! Forked contexts and module fragments (SPEC.md §2.1.1, §2.5.1), the
//! pieces of the parallel body read: IR built in fragments whose contexts
//! are forks of the module's, then absorbed and appended, prints and
//! writes exactly what the same IR built straight into the module does.

use rmlir_format::*;
use std::sync::Arc;

fn i32_ty(ctx: &mut Context) -> TypeId {
    ctx.intern_type(TypeData::signless(32))
}

fn file_loc(ctx: &mut Context, line: u32) -> AttrId {
    ctx.intern_attr(AttrData::FileLineCol {
        file: FileName::from(&b"f.py"[..]),
        line,
        col: 7,
    })
}

/// The top-level IR, the same in both modules: a module with two
/// `test.fn` ops, each with one empty region. Returns their regions.
fn top(m: &mut Module) -> [RegionId; 2] {
    let (region, block) = (m.new_region(), m.new_block());
    m.push_block(region, block);
    let name = m.op_names.intern(b"test.fn");
    let empty = m.ctx.intern_attr(AttrData::Dictionary(Vec::new()));
    let mut bodies = [RegionId(0); 2];
    for (k, body) in bodies.iter_mut().enumerate() {
        *body = m.new_region();
        let loc = file_loc(&mut m.ctx, k as u32);
        let op = m.new_op(name, &[], &[], vec![], None, empty, vec![*body], loc);
        m.push_op(block, op);
    }
    let unknown = m.ctx.intern_attr(AttrData::UnknownLoc);
    m.set_top_level(region, block, unknown);
    bodies
}

/// A function body into `region`: block arguments of a type that holds
/// an attribute (a tensor with an encoding), ops with properties and
/// attributes made of attributes the top-level IR does not have, a
/// `distinct` attribute, name locations, a nested region, two blocks with
/// a successor, and a use-list order. `seed` varies the constants, so
/// two bodies share some attributes and not others.
fn body(m: &mut Module, region: RegionId, seed: i64) {
    let ctx = &mut m.ctx;
    let i32t = i32_ty(ctx);
    let enc = ctx.intern_attr(AttrData::String {
        value: b"enc".as_slice().into(),
        ty: None,
    });
    let tensor = ctx.intern_type(TypeData::RankedTensor {
        shape: vec![2, seed],
        elem: i32t,
        encoding: Some(enc),
    });
    let unit = ctx.intern_attr(AttrData::Unit);
    let distinct_id = ctx.fresh_distinct_id();
    let distinct = ctx.intern_attr(AttrData::Distinct {
        id: distinct_id,
        referenced: unit,
    });
    let value = ctx.intern_attr(AttrData::Integer {
        ty: i32t,
        value: seed.into(),
    });
    let shared = ctx.intern_attr(AttrData::Integer {
        ty: i32t,
        value: 1000.into(),
    });
    let props = ctx.intern_attr(AttrData::Dictionary(vec![
        (b"shared".as_slice().into(), shared),
        (b"value".as_slice().into(), value),
    ]));
    let attrs = ctx.intern_attr(AttrData::Dictionary(vec![(
        b"tag".as_slice().into(),
        distinct,
    )]));
    let empty = ctx.intern_attr(AttrData::Dictionary(Vec::new()));
    let file = file_loc(ctx, 100 + seed as u32);
    let loc = ctx.intern_attr(AttrData::NameLoc {
        name: b"n".as_slice().into(),
        child: file,
    });
    let (entry, exit) = (m.new_block(), m.new_block());
    m.push_block(region, entry);
    m.push_block(region, exit);
    let arg = m.add_block_arg(entry, tensor, loc);
    let constant = m.op_names.intern(b"test.constant");
    let c = m.new_op(
        constant,
        &[],
        &[i32t],
        vec![],
        Some(props),
        attrs,
        vec![],
        loc,
    );
    m.push_op(entry, c);
    let cv = ValueId(m.op(c).first_result);
    let inner = m.new_region();
    let inner_block = m.new_block();
    m.push_block(inner, inner_block);
    let use_op = m.op_names.intern(b"test.use");
    let u = m.new_op(
        use_op,
        &[cv, arg, cv],
        &[],
        vec![],
        None,
        empty,
        vec![],
        file,
    );
    m.push_op(inner_block, u);
    let wrap = m.op_names.intern(b"test.wrap");
    let w = m.new_op(wrap, &[], &[], vec![], None, empty, vec![inner], loc);
    m.push_op(entry, w);
    let br = m.op_names.intern(b"test.br");
    let b = m.new_op(br, &[cv], &[], vec![exit], None, empty, vec![], file);
    m.push_op(entry, b);
    let exit_arg = m.add_block_arg(exit, i32t, file);
    let ret = m.op_names.intern(b"test.return");
    let r = m.new_op(ret, &[exit_arg], &[], vec![], None, empty, vec![], loc);
    m.push_op(exit, r);
    // cv has three uses (two in test.use, one in test.br): reversed.
    m.use_list_orders.insert(cv, vec![2, 1, 0]);
}

fn outputs(m: &Module) -> (String, Vec<u8>) {
    let text = rmlir_writer::print_module(m, Default::default());
    let bytes = rmlir_writer::write_bytecode(m, &Default::default()).expect("writes");
    (text, bytes)
}

#[test]
fn fragments_merge_into_the_module_they_were_read_for() {
    let mut direct = Module::new();
    let regions = top(&mut direct);
    body(&mut direct, regions[0], 3);
    body(&mut direct, regions[1], 4);

    let mut merged = Module::new();
    let regions = top(&mut merged);
    let base = Arc::new(std::mem::take(&mut merged.ctx));
    let mut fragments = Vec::new();
    for (k, seed) in [3, 4].into_iter().enumerate() {
        let mut frag = Module::with_context(Context::fork(&base));
        let r = frag.new_region();
        body(&mut frag, r, seed);
        fragments.push((frag, vec![(r, regions[k])]));
    }
    let detached: Vec<_> = fragments
        .into_iter()
        .map(|(mut frag, roots)| {
            let items = std::mem::take(&mut frag.ctx).detach();
            (frag, roots, items)
        })
        .collect();
    merged.ctx = Arc::try_unwrap(base).expect("forks detached");
    let fragments: Vec<_> = detached
        .into_iter()
        .map(|(module, roots, items)| Fragment {
            ids: merged.ctx.absorb(items),
            module,
            roots,
            block_roots: Vec::new(),
        })
        .collect();
    assert!(
        fragments[0].ids.is_identity(),
        "the first fork keeps its ids"
    );
    assert!(
        !fragments[1].ids.is_identity(),
        "the second fork's items that the first made map to the first's"
    );
    merged.append_fragments(fragments);

    assert_eq!(merged.ctx.num_attrs(), direct.ctx.num_attrs());
    assert_eq!(merged.ctx.num_types(), direct.ctx.num_types());
    assert_eq!(merged.ops.len(), direct.ops.len());
    assert_eq!(merged.regions.len(), direct.regions.len());
    assert_eq!(merged.values.len(), direct.values.len());
    let (text, bytes) = outputs(&merged);
    assert_eq!(text, outputs(&direct).0);
    assert_eq!(bytes, outputs(&direct).1);
    assert!(text.contains("distinct[0]") && text.contains("distinct[1]"));
    assert_eq!(merged.use_list_orders.len(), 2);
}

#[test]
fn a_fork_sees_its_base_and_interns_only_what_is_new() {
    let mut base = Context::new();
    let i32t = i32_ty(&mut base);
    let one = base.intern_attr(AttrData::Integer {
        ty: i32t,
        value: 1.into(),
    });
    let base = Arc::new(base);
    let mut fork = Context::fork(&base);
    assert_eq!(i32_ty(&mut fork), i32t);
    assert_eq!(
        fork.intern_attr(AttrData::Integer {
            ty: i32t,
            value: 1.into()
        }),
        one
    );
    let i64t = fork.intern_type(TypeData::signless(64));
    assert_eq!(i64t, TypeId(1));
    let arr = fork.intern_attr(AttrData::Array(vec![one]));
    assert_eq!(arr, AttrId(1));
    assert_eq!(fork.attr(arr), &AttrData::Array(vec![one]));
    assert_eq!(fork.attr(one), base.attr(one));
    assert_eq!(fork.find_attr(&AttrData::Array(vec![one])), Some(arr));
    assert_eq!(fork.find_type(&TypeData::signless(32)), Some(i32t));
    assert_eq!((fork.num_attrs(), fork.num_types()), (2, 2));
    assert_eq!(base.num_attrs(), 1, "the base is not changed");
}

/// Items of a fork that refer to each other across kinds (an attribute
/// of a type that holds an attribute of the fork) are moved after what
/// they refer to, and equal items of two forks become one.
#[test]
fn absorb_moves_items_after_their_children_and_merges_equal_ones() {
    let base = Arc::new(Context::new());
    let make = |ctx: &mut Context| {
        let s = ctx.intern_attr(AttrData::String {
            value: b"e".as_slice().into(),
            ty: None,
        });
        let i8t = ctx.intern_type(TypeData::signless(8));
        let t = ctx.intern_type(TypeData::RankedTensor {
            shape: vec![1],
            elem: i8t,
            encoding: Some(s),
        });
        ctx.intern_attr(AttrData::Type(t))
    };
    let mut a = Context::fork(&base);
    let mut b = Context::fork(&base);
    b.intern_attr(AttrData::Unit);
    let in_a = make(&mut a);
    let in_b = make(&mut b);
    assert_ne!(in_a, in_b, "b interned a unit first");
    let (a, b) = (a.detach(), b.detach());
    let mut ctx = Arc::try_unwrap(base).expect("forks detached");
    let map_a = ctx.absorb(a);
    let map_b = ctx.absorb(b);
    assert_eq!(map_a.attr(in_a), map_b.attr(in_b));
    assert_eq!((ctx.num_attrs(), ctx.num_types()), (3, 2));
    let AttrData::Type(t) = ctx.attr(map_b.attr(in_b)) else {
        panic!("a type attribute")
    };
    let TypeData::RankedTensor { encoding, .. } = ctx.ty(*t) else {
        panic!("a tensor")
    };
    assert_eq!(
        ctx.attr(encoding.expect("an encoding")),
        &AttrData::String {
            value: b"e".as_slice().into(),
            ty: None
        }
    );
}

/// A fork absorbed second, whose items refer to its own earlier items
/// near and far (call sites one, 16 to 20 and many items back: `absorb`
/// prefetches 16 ahead), some equal to the first fork's, gets the ids a
/// context interning the same items in the same order gives: the first
/// fork's items, then the second's new ones.
#[test]
fn absorb_of_a_second_fork_with_chains_of_references_matches_one_context() {
    // Items by recipe: a file location, or a call site of two earlier
    // items (by index into the recipe's results).
    enum Item {
        File(u32),
        Call(usize, usize),
    }
    let first: Vec<Item> = (0..40u32)
        .map(|k| {
            if k % 3 == 0 || k < 2 {
                Item::File(k)
            } else {
                Item::Call(k as usize - 1, (k as usize * 7) % (k as usize))
            }
        })
        .collect();
    // Shares lines 0..20 with `first`, then its own, with references one
    // back, the window's width back and far back.
    let second: Vec<Item> = (0..200u32)
        .map(|k| match k {
            _ if k < 20 || k % 5 == 0 => Item::File(k),
            _ if k % 5 == 1 => Item::Call(k as usize - 1, 0),
            _ if k % 5 == 2 => Item::Call(k as usize - 16, k as usize - 17),
            _ if k % 5 == 3 => Item::Call(k as usize - 17, k as usize - 20),
            _ => Item::Call(k as usize / 2, k as usize / 3),
        })
        .collect();
    let build = |ctx: &mut Context, items: &[Item]| -> Vec<AttrId> {
        let mut ids: Vec<AttrId> = Vec::new();
        for it in items {
            let a = match *it {
                Item::File(line) => AttrData::FileLineCol {
                    file: FileName::from(&b"f.py"[..]),
                    line,
                    col: 1,
                },
                Item::Call(callee, caller) => AttrData::CallSiteLoc {
                    callee: ids[callee],
                    caller: ids[caller],
                },
            };
            ids.push(ctx.intern_attr(a));
        }
        ids
    };
    let mut one = Context::new();
    let one_first = build(&mut one, &first);
    let one_second = build(&mut one, &second);

    let base = Arc::new(Context::new());
    let mut a = Context::fork(&base);
    let mut b = Context::fork(&base);
    let in_a = build(&mut a, &first);
    let in_b = build(&mut b, &second);
    let (a, b) = (a.detach(), b.detach());
    let mut ctx = Arc::try_unwrap(base).expect("forks detached");
    let map_a = ctx.absorb(a);
    let map_b = ctx.absorb(b);
    assert_eq!(ctx.num_attrs(), one.num_attrs());
    let got_first: Vec<AttrId> = in_a.iter().map(|&x| map_a.attr(x)).collect();
    let got_second: Vec<AttrId> = in_b.iter().map(|&x| map_b.attr(x)).collect();
    assert_eq!(got_first, one_first);
    assert_eq!(got_second, one_second);
    for i in 0..one.num_attrs() {
        let id = AttrId(i as u32);
        assert_eq!(ctx.attr(id), one.attr(id), "attribute {i}");
    }
}
