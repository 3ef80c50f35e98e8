#!/usr/bin/env python3
"""Builds tests/corpus-sample/ from a full copy of the shared test data.

usage: make_sample.py [SHARED] [OUT]
  SHARED  the folder holding corpus/, tools/ and third-party/ (default: ../shared
          beside the repository)
  OUT     the sample's folder (default: tests/corpus-sample of the repository)

The sample has the layout of SHARED for the parts the tests read, so that the
tests' paths relative to the corpus (`../tools/...`, `../third-party/...`)
hold for both:

  OUT/corpus/README.md, summary.md   copied
  OUT/corpus/manifest.tsv            the rows of the chosen cases, in the full order
  OUT/corpus/selection.tsv           chosen case, its footprint, the rules that chose it
  OUT/corpus/cases/<id>/             every file of each chosen case
  OUT/corpus/upstream-bytecode/      all of it (upstream's own .mlirbc tests)
  OUT/corpus/large/                  all of it (recipes and recorded sha256, no modules)
  OUT/corpus/real-client/            the case `stablehlo-transformer-args` and its row
  OUT/tools/gen_large.py, tools/real-clients/
                                     the generators the tests run
  OUT/third-party/stablehlo/compat-artifacts/
                                     the `.mlir.bc` artifacts (not their `.mlir`
                                     sources) and StableHLO's LICENSE

Selection rule (each case's "footprint" is the total size of its files; ties
go to the smaller case id):
  named    every case id written in the repository's Rust tests
           (tests/, cli/tests/, reader/tests/)
  tag      for every feature tag of manifest.tsv, the TAG_CASES cases of smallest
           footprint carrying it
  dialect  for every op dialect of manifest.tsv, the DIALECT_CASES smallest
  known    for every (file, assertion) of tests/known-failures/*.tsv, the
           KNOWN_CASES smallest listed cases
  llvm-di  the LLVM_DI_CASES smallest cases holding llvm debug-info kinds that
           newer MLIR encodes differently (tests/tests/llvm_newer_kinds.rs)
  spread   every SPREAD-th case of the sorted ids whose footprint is at most
           SPREAD_MAX_BYTES
Everything is a function of the input files and this script: running it twice
gives the same tree. OUT/README.md and OUT/floors.tsv are written by hand and
left alone; everything else under OUT is replaced.
"""
import os
import re
import shutil
import sys

TAG_CASES = 3
DIALECT_CASES = 2
KNOWN_CASES = 2
LLVM_DI_CASES = 6
SPREAD = 40
SPREAD_MAX_BYTES = 16 * 1024
REAL_CLIENT = ["stablehlo-transformer-args"]
LLVM_DI_KINDS = ["#llvm.di_compile_unit<", "#llvm.di_composite_type<", "#llvm.di_derived_type<"]

REPO = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def read_manifest(path):
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    header = lines[0].split("\t")
    rows = [dict(zip(header, l.split("\t"))) for l in lines[1:] if l]
    return lines[0], lines[1:], rows


def footprint(case_dir):
    return sum(os.path.getsize(os.path.join(case_dir, f)) for f in os.listdir(case_dir))


def named_ids(known):
    pat = re.compile(r"[A-Za-z0-9_-]+__c[0-9]{3}")
    found = set()
    for top in ["tests", "cli/tests", "reader/tests"]:
        for root, dirs, files in os.walk(os.path.join(REPO, top)):
            dirs[:] = sorted(d for d in dirs if d != "corpus-sample")
            for f in sorted(files):
                if f.endswith(".rs"):
                    with open(os.path.join(root, f), encoding="utf-8") as fh:
                        found.update(m.group(0) for m in pat.finditer(fh.read()))
    return found & known


def known_failure_rows():
    out = {}
    kdir = os.path.join(REPO, "tests", "known-failures")
    for f in sorted(os.listdir(kdir)):
        with open(os.path.join(kdir, f), encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("#") or not line.strip():
                    continue
                parts = line.rstrip("\n").split("\t")
                if len(parts) >= 2:
                    out.setdefault((f, parts[0]), []).append(parts[1])
    return out


def copy_tree(src, dst, keep=lambda name: True):
    os.makedirs(dst, exist_ok=True)
    for name in sorted(os.listdir(src)):
        s, d = os.path.join(src, name), os.path.join(dst, name)
        if os.path.isdir(s):
            copy_tree(s, d, keep)
        elif keep(name):
            shutil.copyfile(s, d)


def main():
    shared = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(REPO, "..", "shared"))
    out = os.path.abspath(sys.argv[2] if len(sys.argv) > 2 else os.path.join(REPO, "tests", "corpus-sample"))
    corpus = os.path.join(shared, "corpus")
    if not os.path.isdir(os.path.join(corpus, "cases")):
        sys.exit(f"make_sample.py: no corpus at {corpus}")
    header, lines, rows = read_manifest(os.path.join(corpus, "manifest.tsv"))
    ids = sorted(r["case_id"] for r in rows)
    size = {i: footprint(os.path.join(corpus, "cases", i)) for i in ids}
    by_size = sorted(ids, key=lambda i: (size[i], i))
    tags = {r["case_id"]: set(r["features"].split(",")) for r in rows}
    dialects = {r["case_id"]: set(r["op_dialects"].split(",")) - {"-"} for r in rows}
    why = {}

    def choose(i, rule):
        why.setdefault(i, [])
        if rule not in why[i]:
            why[i].append(rule)

    for i in sorted(named_ids(set(ids))):
        choose(i, "named")
    for tag in sorted(set().union(*tags.values())):
        for i in [i for i in by_size if tag in tags[i]][:TAG_CASES]:
            choose(i, f"tag:{tag}")
    for d in sorted(set().union(*dialects.values())):
        for i in [i for i in by_size if d in dialects[i]][:DIALECT_CASES]:
            choose(i, f"dialect:{d}")
    for (f, assertion), listed in sorted(known_failure_rows().items()):
        present = set(listed) & set(ids)
        for i in [i for i in by_size if i in present][:KNOWN_CASES]:
            choose(i, f"known:{f}:{assertion}")
    llvm_di = []
    for i in by_size:
        if len(llvm_di) == LLVM_DI_CASES:
            break
        with open(os.path.join(corpus, "cases", i, "generic.mlir"), encoding="utf-8", errors="replace") as fh:
            text = fh.read()
        if any(k in text for k in LLVM_DI_KINDS):
            llvm_di.append(i)
    for i in llvm_di:
        choose(i, "llvm-di")
    for i in ids[::SPREAD]:
        if size[i] <= SPREAD_MAX_BYTES:
            choose(i, "spread")

    for sub in ["corpus", "tools", "third-party"]:
        shutil.rmtree(os.path.join(out, sub), ignore_errors=True)
    oc = os.path.join(out, "corpus")
    os.makedirs(os.path.join(oc, "cases"))
    for f in ["README.md", "summary.md"]:
        shutil.copyfile(os.path.join(corpus, f), os.path.join(oc, f))
    chosen = set(why)
    with open(os.path.join(oc, "manifest.tsv"), "w", encoding="utf-8") as fh:
        fh.write(header + "\n")
        for l in lines:
            if l.split("\t", 1)[0] in chosen:
                fh.write(l + "\n")
    with open(os.path.join(oc, "selection.tsv"), "w", encoding="utf-8") as fh:
        fh.write("case_id\tfootprint\trules\n")
        for i in sorted(chosen):
            fh.write(f"{i}\t{size[i]}\t{','.join(why[i])}\n")
    for i in sorted(chosen):
        copy_tree(os.path.join(corpus, "cases", i), os.path.join(oc, "cases", i))
    copy_tree(os.path.join(corpus, "upstream-bytecode"), os.path.join(oc, "upstream-bytecode"))
    copy_tree(os.path.join(corpus, "large"), os.path.join(oc, "large"))
    rc = os.path.join(corpus, "real-client")
    for c in REAL_CLIENT:
        copy_tree(os.path.join(rc, "cases", c), os.path.join(oc, "real-client", "cases", c))
    rh, rl, _ = read_manifest(os.path.join(rc, "manifest.tsv"))
    with open(os.path.join(oc, "real-client", "manifest.tsv"), "w", encoding="utf-8") as fh:
        fh.write(rh + "\n")
        for l in rl:
            if l.split("\t", 1)[0] in REAL_CLIENT:
                fh.write(l + "\n")
    tools = os.path.join(shared, "tools")
    os.makedirs(os.path.join(out, "tools"))
    shutil.copyfile(os.path.join(tools, "gen_large.py"), os.path.join(out, "tools", "gen_large.py"))
    copy_tree(os.path.join(tools, "real-clients"), os.path.join(out, "tools", "real-clients"))
    st = os.path.join(shared, "third-party", "stablehlo")
    compat = os.path.join(out, "third-party", "stablehlo", "compat-artifacts")
    copy_tree(os.path.join(st, "compat-artifacts"), compat, keep=lambda n: n.endswith(".mlir.bc"))
    shutil.copyfile(os.path.join(st, "v1.20.0", "LICENSE"), os.path.join(out, "third-party", "stablehlo", "LICENSE"))
    total = 0
    for root, _, files in os.walk(out):
        total += sum(os.path.getsize(os.path.join(root, f)) for f in files)
    print(f"{len(chosen)} cases of {len(ids)}; {total} bytes under {out}")


if __name__ == "__main__":
    main()
