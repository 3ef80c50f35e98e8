#!/usr/bin/env python3
"""sweep.py - every op of our layout data through mlir-opt, one by one.

The corpus holds 1,797 distinct op names; our MLIR 22 layout data describes
2,635 ops. This sweep checks all of them (SPEC.md §7.5): for each op (the
test dialect aside) it builds a module holding the op alone, every property
set to a value of its kind, and then

1. mlir-opt 22 parses the text and prints it generic: the expected print;
2. `rmlir-bc encode` writes the text as bytecode at v6 and at v4;
3. mlir-opt 22 reads each file and prints it generic, which must equal (1),
   or, where it does not, our file must be byte for byte mlir-opt 22's own
   of the same text at that version (which then reads back the same way:
   distinct attributes are renumbered in the attribute table's order).

Values come from the corpus: for each property, a value the corpus gives
that property of that op, else one it gives any property of the same C++
class (`ctype`), else a fallback (FALLBACK: the common builtin classes, and
enum and dialect attribute classes no corpus case shows). An op for
which mlir-opt rejects the text we built (a value of the right class but
not one its dialect accepts, or an op mlir-opt cannot build without
operands) is reported as "no input", not as a failure of ours.
Verification is off on both sides (`--mlir-very-unsafe-disable-verifier-on-
parsing`): the op stands alone, without its operands, regions or results,
and what is checked is how its properties are written and read.

With `--release 19` the ops are MLIR 19's layout data and the files are
MLIR 19's: mlir-opt 19 cannot parse without verifying, so `unverified19`
(unverified19.cpp, MLIR 19's parser and writer with the verifier off)
prints the module generic and writes it at v6 and at v4, and `rmlir-bc
decode` reads each file (its producer picks MLIR 19's layouts) and prints
it generic, carried over to MLIR 22's terms. At v6 that must equal mlir-opt
22's print of MLIR 19's text (mlir-opt 22 would read MLIR 19's properties
in MLIR 22's layouts), or mlir-opt 22's own reading of the file where that
is what we print (an op whose layout did not change: distinct attributes
are then numbered in the attribute table's order, not the text's), or, for
an op MLIR 22 no longer has, mlir-opt 22's reading of the file. At v4, whose properties are attributes in the op's
dictionary, it must equal mlir-opt 22's reading of the file.

Usage:
  sweep.py --rmlir BIN [--mlir-opt BIN] [--every N] [--op NAME] [--known FILE]
           [--corpus DIR] [--release 19 --unverified19 BIN]

  --every N   every Nth op only (CI's sample); default 1 (all)
  --op NAME   this op only (repeatable)
  --known F   a TSV of `op<TAB>version<TAB>reason` failures that are known;
              the exit status is 1 on any failure not listed there
Prints per-version pass counts, the ops without input by reason, and each
failure with the first line that differs.
"""
import argparse
import collections
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(ROOT, "tools", "ods-layouts"))
from mlir_text import split_top_level  # noqa: E402  (the shared scanner of printed text)
LAYOUTS = os.path.join(ROOT, "format/data/ods-layouts-{}.json")
UNVERIFIED = "--mlir-very-unsafe-disable-verifier-on-parsing"

# Values for builtin classes the corpus may not show for a given op.
FALLBACK = {
    "::mlir::IntegerAttr": "1 : i64",
    "::mlir::StringAttr": '"s"',
    "::mlir::UnitAttr": "unit",
    "::mlir::BoolAttr": "true",
    "::mlir::ArrayAttr": "[]",
    "::mlir::DictionaryAttr": "{}",
    "::mlir::TypeAttr": "i32",
    "::mlir::FlatSymbolRefAttr": "@s",
    "::mlir::SymbolRefAttr": "@s",
    "::mlir::FloatAttr": "1.000000e+00 : f32",
    "::mlir::Attribute": "unit",
    "::mlir::TypedAttr": "1 : i32",
    "::mlir::AffineMapAttr": "affine_map<(d0) -> (d0)>",
    "::mlir::DenseI64ArrayAttr": "array<i64: 1>",
    "::mlir::DenseI32ArrayAttr": "array<i32: 1>",
    "::mlir::DenseI16ArrayAttr": "array<i16: 1>",
    "::mlir::DenseI8ArrayAttr": "array<i8: 1>",
    "::mlir::DenseBoolArrayAttr": "array<i1: true>",
    "::mlir::DenseF32ArrayAttr": "array<f32: 1.000000e+00>",
    "::mlir::DenseF64ArrayAttr": "array<f64: 1.000000e+00>",
    "::mlir::DenseIntElementsAttr": "dense<1> : tensor<1xi32>",
    "::mlir::DenseElementsAttr": "dense<1> : tensor<1xi32>",
    "::mlir::ElementsAttr": "dense<1> : tensor<1xi32>",
    "::mlir::DenseFPElementsAttr": "dense<1.000000e+00> : tensor<1xf32>",
    # Enum and dialect attribute classes no corpus case shows, each value
    # read from the class's ODS definition and checked by parsing it into
    # an op's property with mlir-opt 22 (the last two, MLIR 19's only, with
    # mlir-opt 19). Some enums are properties stored as plain integers.
    "::mlir::spirv::GroupOperationAttr": "#spirv.group_operation<Reduce>",
    "mlir::linalg::WinogradConv2DFmrAttr": "0 : i32",
    "::mlir::LLVM::FPExceptionBehaviorAttr": "0 : i64",
    "::mlir::NVVM::CTAGroupKindAttr": "#nvvm.cta_group<cta_1>",
    "::mlir::NVVM::MemScopeKindAttr": "#nvvm.mem_scope<cta>",
    "::mlir::NVVM::MMATypesAttr": "#nvvm.mma_type<f16>",
    "mlir::tosa::BlockSizeAttr": "#tosa.block_size<BLOCK_SIZE_32>",
    "::mlir::irdl::VariadicityArrayAttr": "#irdl<variadicity_array[single]>",
    "::mlir::NVVM::DotAccumulateTypeAttr": "#nvvm.dot_accumulate_type<signed>",
    "::mlir::NVVM::MemOrderKindAttr": "#nvvm.mem_order<acquire>",
    "::mlir::NVVM::LdStMatrixEltTypeAttr": "#nvvm.ld_st_matrix_elt_type<b16>",
    "::mlir::NVVM::BlockScaleFormatAttr": "#nvvm.block_scale_format<ue8m0>",
    "::mlir::NVVM::Tcgen05LdStShapeAttr": "#nvvm.tcgen05_ldst_shape<shape_16x64b>",
    "::mlir::NVVM::Tcgen05MMAKindAttr": "#nvvm.tcgen05_mma_kind<f16>",
    "::mlir::omp::ClauseCancellationConstructTypeAttr": "#omp<cancellationconstructtype parallel>",
    "::mlir::shard::GridAxesArrayAttr": "#shard<axisarray[[0]]>",
    "mlir::tosa::RoundingModeAttr": "#tosa.rounding_mode<SINGLE_ROUND>",
    "::mlir::acc::ReductionOperatorAttr": "#acc.reduction_operator<add>",
    "::mlir::amdgpu::DPPPermAttr": "#amdgpu<dpp_perm quad_perm>",
    "::mlir::amdgpu::sched_barrier_opt_enumAttr": "#amdgpu.sched_barrier_opt<none>",
    "::mlir::gpu::BroadcastTypeAttr": "#gpu<broadcast first_active_lane>",
    "::mlir::linalg::ElementwiseKindAttr": "#linalg.elementwise_kind<exp>",
    "::mlir::LLVM::BlockAddressAttr": "#llvm.blockaddress<function = @f, tag = <id = 1>>",
    "::mlir::LLVM::BlockTagAttr": "#llvm.blocktag<id = 1>",
    "::mlir::mpi::MPI_ReductionOpEnumAttr": "3 : i32",
    "::mlir::mpi::MPI_ErrorClassEnumAttr": "#mpi.errclass<MPI_SUCCESS>",
    "::mlir::NVVM::ClusterLaunchControlQueryTypeAttr": "#nvvm<cluster_launch_control_query_type is_canceled>",
    "::mlir::NVVM::TMAReduxKindAttr": "#nvvm.tma_redux_kind<add>",
    "::mlir::NVVM::LoadCacheModifierKindAttr": "#nvvm<load_cache_modifier ca>",
    "::mlir::NVVM::GridDepActionKindAttr": "#nvvm<grid_dep_action wait>",
    "::mlir::NVVM::MatchSyncKindAttr": "#nvvm<match_sync_kind any>",
    "::mlir::NVVM::PermuteModeAttr": "#nvvm.permute_mode<default>",
    "::mlir::NVVM::ReduxKindAttr": "#nvvm<redux_kind add>",
    "::mlir::NVVM::ShflKindAttr": "#nvvm<shfl_kind bfly>",
    "::mlir::NVVM::Tcgen05CpShapeAttr": "#nvvm.tcgen05_cp_shape<shape_128x256b>",
    "::mlir::NVVM::Tcgen05FenceKindAttr": "#nvvm.tcgen05_fence<before>",
    "::mlir::NVVM::Tcgen05WaitKindAttr": "#nvvm.tcgen05_wait<load>",
    "::mlir::NVVM::VoteSyncKindAttr": "#nvvm<vote_sync_kind any>",
    "::mlir::omp::DataSharingClauseTypeAttr": "#omp<data_sharing_type{type = private}>",
    "mlir::smt::BVCmpPredicateAttr": "0 : i64",
    "mlir::smt::BitVectorAttr": "#smt.bv<5> : !smt.bv<4>",
    "mlir::smt::IntPredicateAttr": "0 : i64",
    "::mlir::spirv::ImageOperandsAttr": "#spirv.image_operands<Lod>",
    "mlir::tosa::ResizeModeAttr": "#tosa.resize_mode<BILINEAR>",
    "::mlir::xegpu::DistributeLayoutAttr": "#xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1]>",
    "::mlir::xegpu::FenceScopeAttr": "#xegpu<fence_scope workgroup>",
    "::mlir::xevm::MemScopeAttr": "#xevm.mem_scope<workgroup>",
    "::mlir::xevm::MMAShapeAttr": "#xevm.mma_shape<m = 8, n = 16, k = 16>",
    "::mlir::NVVM::MMABlockScaleKindAttr": "#nvvm.block_scale_kind<mxf8f6f4>",
    "::mlir::NVVM::MMAFragAttr": "#nvvm.mma_frag<a>",
    "::mlir::NVVM::ScaleVecSizeAttr": "#nvvm.scale_vec_size<x1>",
    "::mlir::NVVM::LdStMatrixShapeAttr": "#nvvm.ld_st_matrix_shape<m = 8, n = 8>",
    "::mlir::LLVM::RoundingModeAttr": "1 : i64",
    "::mlir::xegpu::MemorySpaceAttr": "#xegpu<memory_space global>",
    "::mlir::xevm::MMATypesAttr": "#xevm.mma_types<d = f32, a = f16, b = f16>",
    "::mlir::spirv::MatrixLayoutAttr": "#spirv.matrixLayout<RowMajor>",
    "::mlir::mesh::MeshShardingAttr": "#mesh.shard<@mesh0, [[0]]>",
}


OPEN, CLOSE = "([{<", ")]}>"


def balanced_end(s, i, open_s, close_s):
    """Index just past the `close_s` matching the `open_s` at s[i], or -1.

    Every bracket kind is counted, so that a `}>` inside a value (a TBAA
    tag's `members = {<…, 0>}>`) does not end a properties block early;
    strings, `->`, `>=` and `<=` are skipped."""
    assert s.startswith(open_s, i)
    depth, j = 0, i
    while j < len(s):
        c = s[j]
        if c == '"':
            j += 1
            while j < len(s) and s[j] != '"':
                j += 2 if s[j] == "\\" else 1
            j += 1
            continue
        if s.startswith(("->", ">=", "<="), j):
            j += 2
            continue
        if c in OPEN:
            depth += 1
        elif c in CLOSE:
            depth -= 1
            if depth == 0:
                return j + 1 if s.endswith(close_s, 0, j + 1) else -1
        j += 1
    return -1


OP_RE = re.compile(r'"([a-z_][\w.]*)"\(')


def harvest(corpus, layouts):
    """(op, field) -> value and ctype -> value, from the corpus prints."""
    by_field, by_ctype = {}, {}
    fields = {o["name"]: {f["name"]: f for f in o.get("v6", [])} for o in layouts}
    for path in sorted(glob.glob(os.path.join(corpus, "cases", "*", "local.mlir"))):
        if "__test" in path.lower() or "/Test" in path:
            continue
        for line in open(path, errors="replace"):
            m = OP_RE.search(line)
            if not m or m.group(1) not in fields:
                continue
            end = balanced_end(line, m.end() - 1, "(", ")")
            rest = line[end:].lstrip()
            if rest.startswith("["):
                e = balanced_end(rest, 0, "[", "]")
                rest = rest[e:].lstrip()
            if not rest.startswith("<{"):
                continue
            e = balanced_end(rest, 0, "<{", "}>")
            if e < 0:
                continue
            for entry in split_top_level(rest[2:e - 2]):
                name, _, value = entry.partition(" = ")
                f = fields[m.group(1)].get(name.strip())
                if f is None or not value:
                    continue
                by_field.setdefault((m.group(1), f["name"]), value)
                if isinstance(f.get("kind"), str) and f["kind"] in ("attr", "opt_attr"):
                    by_ctype.setdefault(f.get("ctype"), value)
    return by_field, by_ctype


def op_text(op, by_field, by_ctype):
    """The module holding `op` with every property set, or (None, why)."""
    entries = []
    for f in op.get("v6", []):
        kind = f["kind"]
        if kind == "sparse_segments":
            entries.append(f"{f['name']} = array<i32: {', '.join(['0'] * f['size'])}>")
            continue
        v = by_field.get((op["name"], f["name"]))
        if v is None and kind in ("attr", "opt_attr"):
            v = by_ctype.get(f.get("ctype")) or FALLBACK.get(f.get("ctype"))
        if v is None:
            if kind == "attr":
                return None, f"no value of {f.get('ctype')} for ${f['name']}"
            continue  # an optional or native property keeps its default
        entries.append(f"{f['name']} = {v}")
    props = f" <{{{', '.join(entries)}}}>" if entries else ""
    return ('"builtin.module"() ({\n  "%s"()%s : () -> ()\n}) : () -> ()\n' % (op["name"], props)), None


def run(cmd, stdin=None):
    r = subprocess.run(cmd, input=stdin, capture_output=True)
    return r.returncode, r.stdout, r.stderr


def opt_reads(opt, bc):
    """mlir-opt 22's generic print of the bytecode file `bc`, with its
    locations, or its first error line."""
    rc, out, err = run(opt + ["--mlir-print-op-generic", "--mlir-print-debuginfo", bc])
    return out if rc == 0 else b"mlir-opt 22 refuses: " + err.strip().splitlines()[0]


def same_bytes_as_mlir_opt(opt, src, v, bc, d):
    """Whether mlir-opt writes `src` at version `v` as the bytes in `bc`."""
    theirs = os.path.join(d, f"op.v{v}.opt.mlirbc")
    rc, _, _ = run(opt + ["--emit-bytecode", f"--emit-bytecode-version={v}", src, "-o", theirs])
    return rc == 0 and open(theirs, "rb").read() == open(bc, "rb").read()


def expected_19(a, opt, src, in_22, d):
    """The print an MLIR 19 file of `src` must read as, or (None, why).

    MLIR 19's generic print of the text with its locations (those of
    `src`, as in the files MLIR 19 writes of it), parsed and printed by
    mlir-opt 22 where MLIR 22 has the op: that is the carry-over to MLIR
    22's terms a reader of MLIR 19 files owes (SPEC.md §7.2). `None` for an
    op MLIR 22 no longer has, whose reference is mlir-opt 22's reading of
    each file."""
    rc, text_19, _ = run([a.unverified19, "print", src])
    if rc != 0:
        return None, "MLIR 19 rejects the text"
    if not in_22:
        return None, None  # read from each file by mlir-opt 22 (main)
    path = os.path.join(d, "op.19.mlir")
    open(path, "wb").write(text_19)
    rc, text_22, _ = run(opt + ["--mlir-print-op-generic", "--mlir-print-debuginfo", path])
    if rc != 0:
        return None, "mlir-opt 22 rejects MLIR 19's print"
    return text_22, None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rmlir", required=True)
    ap.add_argument("--mlir-opt", default=os.environ.get("RMLIR_MLIR_OPT", "/usr/lib/llvm-22/bin/mlir-opt"))
    ap.add_argument("--every", type=int, default=1)
    ap.add_argument("--op", action="append", help="this op only (repeatable)")
    ap.add_argument("--known")
    ap.add_argument("--corpus", default=os.environ.get("RMLIR_CORPUS", os.path.join(ROOT, "..", "shared", "corpus")))
    ap.add_argument("--release", choices=("22", "19"), default="22")
    ap.add_argument("--unverified19", help="unverified19's binary (build_unverified19.sh prints its path)")
    a = ap.parse_args()
    if a.release == "19" and not a.unverified19:
        ap.error("--release 19 needs --unverified19")
    layouts = json.load(open(LAYOUTS.format(a.release)))["ops"]
    ops_22 = {o["name"] for o in json.load(open(LAYOUTS.format("22")))["ops"]}
    ops = [o for o in layouts if o.get("ods", True) and not o["name"].startswith("test.")]
    if a.op:
        ops = [o for o in ops if o["name"] in a.op]
    ops = ops[:: a.every]
    by_field, by_ctype = harvest(a.corpus, layouts)
    known = {}
    if a.known:
        for line in open(a.known):
            if line.strip() and not line.startswith("#"):
                op, v, why = line.rstrip("\n").split("\t", 2)
                known[(op, v)] = why
    opt = [a.mlir_opt, "--allow-unregistered-dialect", UNVERIFIED]
    passed = collections.Counter()
    no_input = {}  # why -> the ops
    no_write = collections.Counter()
    by_bytes = collections.Counter()
    failures, unexpected = [], []
    tried = 0
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "op.mlir")
        for op in ops:
            text, why = op_text(op, by_field, by_ctype)
            if text is None:
                no_input.setdefault(why.split(" for ")[0], []).append(op["name"])
                continue
            open(src, "w").write(text)
            if a.release == "19":
                expected, why = expected_19(a, opt, src, op["name"] in ops_22, d)
            else:
                rc, expected, err = run(opt + ["--mlir-print-op-generic", src])
                why = None if rc == 0 else "mlir-opt rejects the text"
            if why is not None:
                no_input.setdefault(why, []).append(op["name"])
                continue
            tried += 1
            for v in ("6", "4"):
                bc = os.path.join(d, f"op.v{v}.mlirbc")
                if a.release == "19":
                    rc, _, err = run([a.unverified19, "write", src, bc, v])
                    if rc != 0:
                        no_write[v] += 1
                        continue
                    read = [a.rmlir, "decode", bc]
                    who = "we read MLIR 19's file"
                    # A v4 file holds every property in the op's attribute
                    # dictionary, which mlir-opt 22 reads as it reads its
                    # own; an op MLIR 22 no longer has has no MLIR 22
                    # terms. mlir-opt 22's reading of the file is the
                    # reference for both.
                    want = opt_reads(opt, bc) if v == "4" or op["name"] not in ops_22 else expected
                else:
                    want = expected
                    rc, _, err = run([a.rmlir, "encode", src, "--emit-version", v, "-o", bc])
                    read = opt + ["--mlir-print-op-generic", bc]
                    who = "mlir-opt reads ours"
                if rc != 0:
                    reason = "encode: " + err.decode(errors="replace").strip().splitlines()[-1][:200]
                else:
                    rc, got, err = run(read)
                    if rc != 0:
                        reason = who + ": " + err.decode(errors="replace").strip().splitlines()[0][:200]
                    elif got != want and a.release == "22" and same_bytes_as_mlir_opt(opt, src, v, bc, d):
                        # mlir-opt's own file reads back as ours does (distinct
                        # attributes are renumbered in the table's order).
                        passed[v] += 1
                        by_bytes[v] += 1
                        continue
                    elif got != want and a.release == "19" and v == "6" and op["name"] in ops_22 \
                            and opt_reads(opt, bc) == got:
                        # mlir-opt 22 reads MLIR 19's file itself as we do
                        # (an op whose layout did not change; distinct
                        # attributes numbered in the table's order, not the
                        # text's).
                        passed[v] += 1
                        by_bytes[v] += 1
                        continue
                    elif got != want:
                        exp_l, got_l = want.decode().splitlines(), got.decode().splitlines()
                        first = next((i for i in range(max(len(exp_l), len(got_l)))
                                      if i >= len(exp_l) or i >= len(got_l) or exp_l[i] != got_l[i]), 0)
                        reason = "prints %r, mlir-opt's text %r" % (
                            got_l[first] if first < len(got_l) else "", exp_l[first] if first < len(exp_l) else "")
                    else:
                        passed[v] += 1
                        continue
                failures.append((op["name"], v, reason))
                if (op["name"], v) not in known:
                    unexpected.append((op["name"], v, reason))
    if a.release == "19":
        print(f"MLIR 19 ops: {len(ops)} (every {a.every}); with an input MLIR 19 and 22 accept: {tried}")
        for v in ("6", "4"):
            print(f"v{v}: {passed[v]}/{tried - no_write[v]} of MLIR 19's files read as mlir-opt 22 "
                  + ("prints the text" if v == "6" else "reads them")
                  + f" ({no_write[v]} MLIR 19 cannot write at v{v}"
                  + (f"; {by_bytes[v]} as mlir-opt 22 reads the file itself" if v == "6" else "") + ")")
    else:
        print(f"ops: {len(ops)} (every {a.every}); with an input mlir-opt accepts: {tried}")
        for v in ("6", "4"):
            print(f"v{v}: {passed[v]}/{tried} read back by mlir-opt 22 as it prints the text"
                  f" ({by_bytes[v]} of them by writing mlir-opt's own bytes, which read back as ours do)")
    for why, names in sorted(no_input.items(), key=lambda kv: -len(kv[1])):
        print(f"  no input: {len(names)} ({why}): {', '.join(names[:12])}{', …' if len(names) > 12 else ''}")
    for op, v, reason in failures:
        mark = "" if (op, v) in known else " [not listed]"
        print(f"  FAIL {op} v{v}: {reason}{mark}")
    sys.exit(1 if unexpected else 0)


if __name__ == "__main__":
    main()
