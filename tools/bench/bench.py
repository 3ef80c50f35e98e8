#!/usr/bin/env python3
"""bench.py - time rmlir-bc against mlir-opt 22 on large generated modules.

Every case runs both tools on the same input file, interleaved (the order
alternates from run to run), several times; an output only counts when it is
byte-identical to mlir-opt's (sha256). Wall time is measured around the
child process; peak RSS and CPU time (user + system, less sensitive to a
loaded machine than wall time) come from /usr/bin/time.
Results are
printed as a Markdown table (medians, ratios) and written to
SCRATCH/results.tsv.

Usage:
  tools/bench/bench.py [--scratch DIR] [--runs N] [--cases LIST] [--no-build] [--taskset CPUS]

See BENCHMARKS.md. Needs python3, cargo, ../shared/tools/gen_large.py and
mlir-opt 22 (RMLIR_MLIR_OPT or /usr/lib/llvm-22/bin/mlir-opt).
"""
import argparse
import hashlib
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))

# name -> gen_large.py arguments (the recipes of ../shared/corpus/large)
MODULES = {
    "gen-50mb": ["--target-mib", "50", "--seed", "2"],
    "gen-200mb": ["--target-mib", "200", "--seed", "3"],
    "blob-64mib": ["--resource-blob-mib", "64", "--seed", "4"],
    # not a recipe of ../shared: a 200 MiB blob makes a 210 MB bytecode file
    "blob-200mib": ["--resource-blob-mib", "200", "--seed", "5"],
}

# info cases -> the module whose text lists the expected top-level symbols
INFO_SOURCE = {"info-200": "gen-200mb", "info-blob-200": "blob-200mib"}

ALLOW = ["--allow-unregistered-dialect"]
GENERIC = ["--mlir-print-op-generic", "--mlir-print-debuginfo"]


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while True:
            b = f.read(1 << 20)
            if not b:
                break
            h.update(b)
    return h.hexdigest()


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def recorded(shared):
    """sha256 of the generated modules and of mlir-opt's outputs, if recorded."""
    mods, outs = {}, {}
    rec = os.path.join(shared, "corpus", "large", "recipes.tsv")
    tim = os.path.join(shared, "corpus", "large", "timings.tsv")
    if os.path.exists(rec):
        for line in open(rec).read().splitlines()[1:]:
            name, _args, _size, s = line.split("\t")
            mods[name] = s
    if os.path.exists(tim):
        for line in open(tim).read().splitlines()[1:]:
            f = line.split("\t")
            outs[(f[0], f[1])] = f[7]
    return mods, outs


def run_timed(cmd, stdout=None):
    """Runs cmd; returns (wall seconds, peak RSS MiB, CPU seconds, exit code).

    Peak RSS and CPU time come from /usr/bin/time, not from this process's
    wait4: Linux keeps a process's RSS high-water mark across fork and exec,
    so a child forked from this (large) Python process would report at
    least Python's own peak."""
    out = open(stdout, "wb") if stdout else subprocess.DEVNULL
    tlog = os.path.join(TIME_DIR, "time.log")
    t0 = time.perf_counter()
    p = subprocess.run(["/usr/bin/time", "-f", "%M %U %S", "-o", tlog] + cmd,
                       stdout=out, stderr=subprocess.PIPE)
    wall = time.perf_counter() - t0
    if stdout:
        out.close()
    if p.returncode != 0:
        log("FAILED (%d): %s\n%s" % (p.returncode, " ".join(cmd), p.stderr.decode(errors="replace")))
        return wall, 0.0, 0.0, p.returncode
    rss_kib, user, sys_ = open(tlog).read().split()[-3:]
    return wall, int(rss_kib) / 1024.0, float(user) + float(sys_), p.returncode


TIME_DIR = "/tmp"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scratch", default="/tmp/rmlir-bench", help="where modules and outputs go (~2 GB)")
    ap.add_argument("--runs", type=int, default=5, help="timed runs per tool and case (after one checked warm-up); 0 only prepares and checks")
    ap.add_argument("--cases", default="all", help="comma-separated case names, or 'all'")
    ap.add_argument("--shared", default=os.path.join(REPO, "..", "shared"))
    ap.add_argument("--mlir-opt", default=os.environ.get("RMLIR_MLIR_OPT", "/usr/lib/llvm-22/bin/mlir-opt"))
    ap.add_argument("--rmlir", default=os.path.join(REPO, "target", "release", "rmlir-bc"))
    ap.add_argument("--baseline", help="another rmlir-bc binary (e.g. an older build) timed alongside, "
                    "as 'baseline'; its outputs must be identical too")
    ap.add_argument("--no-build", action="store_true", help="do not run cargo build --release")
    ap.add_argument("--taskset", metavar="CPUS",
                    help="run both tools under 'taskset -c CPUS' (e.g. 0: one core each, so that the "
                    "gain from our threads shows against the two-core figures)")
    a = ap.parse_args()

    global TIME_DIR
    S = a.scratch
    os.makedirs(S, exist_ok=True)
    TIME_DIR = S
    if not os.access("/usr/bin/time", os.X_OK):
        sys.exit("needs /usr/bin/time (Debian package 'time')")
    if not a.no_build:
        subprocess.run(["cargo", "build", "--release", "-q", "-p", "rmlir-bc"], cwd=REPO, check=True)
    mopt, ours = a.mlir_opt, a.rmlir
    pin = []
    if a.taskset:
        if not shutil.which("taskset"):
            sys.exit("--taskset needs taskset (Debian package 'util-linux')")
        pin = ["taskset", "-c", a.taskset]
    mod_sums, out_sums = recorded(a.shared)

    def module(name):
        path = os.path.join(S, name + ".mlir")
        stamp = path + ".sha256"
        if os.path.exists(path) and os.path.exists(stamp) and open(stamp).read() == str(os.path.getsize(path)):
            return path
        log("generating %s: gen_large.py %s" % (name, " ".join(MODULES[name])))
        gen = os.path.join(a.shared, "tools", "gen_large.py")
        subprocess.run(["python3", gen] + MODULES[name] + ["-o", path], check=True)
        s = sha256(path)
        if name in mod_sums and mod_sums[name] != s:
            sys.exit("%s: sha256 %s differs from the recorded %s" % (name, s, mod_sums[name]))
        open(stamp, "w").write(str(os.path.getsize(path)))
        return path

    def bytecode(name):
        """mlir-opt's bytecode of a module: the input of the bytecode cases."""
        src = module(name)
        path = os.path.join(S, name + ".mlirbc")
        if not os.path.exists(path):
            log("mlir-opt --emit-bytecode %s" % name)
            subprocess.run([mopt] + ALLOW + ["--emit-bytecode", src, "-o", path], check=True)
            want = out_sums.get((name, "text-to-bytecode"))
            if want and sha256(path) != want:
                sys.exit("%s: mlir-opt's bytecode differs from the recorded sha256" % name)
        return path

    def custom(name):
        """mlir-opt's default (custom-form) print of a module, with its
        locations: the text a user hands to `encode` (issue 29's input)."""
        src = module(name)
        path = os.path.join(S, name + ".pretty.mlir")
        if not os.path.exists(path):
            log("mlir-opt custom print of %s" % name)
            tmp = path + ".tmp"
            subprocess.run([mopt] + ALLOW + ["--mlir-print-debuginfo", src, "-o", tmp], check=True)
            os.replace(tmp, path)
        return path

    # case -> (description, input maker, mlir-opt args, rmlir-bc args); "{i}"/"{o}" are replaced
    def cases():
        return [
            ("text-to-bc-50", "50 MB text → bytecode", lambda: module("gen-50mb"),
             [mopt] + ALLOW + ["--emit-bytecode", "{i}", "-o", "{o}"],
             [ours, "encode", "{i}", "-o", "{o}"]),
            ("bc-to-text-50", "50 MB module: bytecode → generic text", lambda: bytecode("gen-50mb"),
             [mopt] + ALLOW + GENERIC + ["{i}", "-o", "{o}"],
             [ours, "decode", "{i}", "-o", "{o}"]),
            ("bc-to-bc-50", "50 MB module: bytecode → bytecode v6", lambda: bytecode("gen-50mb"),
             [mopt] + ALLOW + ["--emit-bytecode", "{i}", "-o", "{o}"],
             [ours, "convert", "{i}", "-o", "{o}", "--emit-version", "6"]),
            ("text-to-text-50", "50 MB text → generic text", lambda: module("gen-50mb"),
             [mopt] + ALLOW + GENERIC + ["{i}", "-o", "{o}"],
             [ours, "decode", "{i}", "-o", "{o}"]),
            ("custom-to-bc-50", "50 MB module, custom form (mlir-opt's print) → bytecode",
             lambda: custom("gen-50mb"),
             [mopt] + ALLOW + ["--emit-bytecode", "{i}", "-o", "{o}"],
             [ours, "encode", "{i}", "-o", "{o}"]),
            ("bc-to-custom-50", "50 MB module: bytecode → custom-form text", lambda: bytecode("gen-50mb"),
             [mopt] + ALLOW + ["--mlir-print-debuginfo", "{i}", "-o", "{o}"],
             [ours, "decode", "--custom", "{i}", "-o", "{o}"]),
            ("text-to-bc-200", "200 MB text → bytecode", lambda: module("gen-200mb"),
             [mopt] + ALLOW + ["--emit-bytecode", "{i}", "-o", "{o}"],
             [ours, "encode", "{i}", "-o", "{o}"]),
            ("bc-to-text-200", "200 MB module: bytecode → generic text", lambda: bytecode("gen-200mb"),
             [mopt] + ALLOW + GENERIC + ["{i}", "-o", "{o}"],
             [ours, "decode", "{i}", "-o", "{o}"]),
            ("blob-bc-to-bc", "64 MiB blob: bytecode → bytecode v6", lambda: bytecode("blob-64mib"),
             [mopt] + ALLOW + ["--emit-bytecode", "{i}", "-o", "{o}"],
             [ours, "convert", "{i}", "-o", "{o}", "--emit-version", "6"]),
            ("blob-bc-to-text", "64 MiB blob: bytecode → generic text", lambda: bytecode("blob-64mib"),
             [mopt] + ALLOW + GENERIC + ["{i}", "-o", "{o}"],
             [ours, "decode", "{i}", "-o", "{o}"]),
            ("info-200", "200 MB module (30 MB bytecode): open + list top-level symbols",
             lambda: bytecode("gen-200mb"),
             # mlir-opt has no lazy mode: its cheapest equivalent reads the whole
             # file without verifying it and writes nothing but /dev/null bytecode.
             [mopt] + ALLOW + ["--mlir-very-unsafe-disable-verifier-on-parsing", "--emit-bytecode",
                               "{i}", "-o", "/dev/null"],
             [ours, "info", "--json", "{i}"]),
            ("info-blob-200", "210 MB bytecode file (a 200 MiB blob): open + list top-level symbols",
             lambda: bytecode("blob-200mib"),
             [mopt] + ALLOW + ["--mlir-very-unsafe-disable-verifier-on-parsing", "--emit-bytecode",
                               "{i}", "-o", "/dev/null"],
             [ours, "info", "--json", "{i}"]),
        ]

    wanted = None if a.cases == "all" else set(a.cases.split(","))
    selected = [c for c in cases() if wanted is None or c[0] in wanted]
    inputs = {c[0]: c[2]() for c in selected}

    def fill(cmd, i, o):
        return pin + [x.replace("{i}", i).replace("{o}", o) for x in cmd]

    load_before = open("/proc/loadavg").read().split()[:3]
    results = {}
    # warm-up + correctness: mlir-opt's output is the reference for ours
    for name, _d, _mk, mcmd, ocmd in selected:
        i = inputs[name]
        mo, oo = os.path.join(S, name + ".mlir-opt.out"), os.path.join(S, name + ".ours.out")
        if name in INFO_SOURCE:
            _, _, _, rc = run_timed(fill(ocmd, i, oo), stdout=oo)
            if rc:
                sys.exit("info failed")
            syms = [(t["op"], t["symbol"]) for t in json.load(open(oo))["top_level"]]
            text = open(module(INFO_SOURCE[name]), "rb").read().decode()
            # top-level ops are the lines indented by two spaces (the module's body)
            want = re.findall(r'^  "([^"]+)"\(\) <?\{[^\n]*?sym_name = "([^"]*)"', text, re.M)
            if syms != want:
                sys.exit("info: %d symbols, the text defines %d top-level symbols" % (len(syms), len(want)))
            log("%s: %d top-level symbols, as in the text" % (name, len(syms)))
            run_timed(fill(mcmd, i, mo))
        else:
            run_timed(fill(mcmd, i, mo))
            run_timed(fill(ocmd, i, oo))
            ms, os_ = sha256(mo), sha256(oo)
            if ms != os_:
                sys.exit("%s: our output differs from mlir-opt's (cmp %s %s)" % (name, mo, oo))
            log("%s: identical outputs (sha256 %s…)" % (name, ms[:16]))
        results[name] = {"mlir-opt": [], "rmlir-bc": []}
        if a.baseline:
            results[name]["baseline"] = []

    if a.runs == 0:
        log("--runs 0: inputs generated and outputs checked; nothing timed")
        return
    for run in range(a.runs):
        for name, _d, _mk, mcmd, ocmd in selected:
            i = inputs[name]
            mo, oo = os.path.join(S, name + ".mlir-opt.run"), os.path.join(S, name + ".ours.run")
            order = [("mlir-opt", mcmd, mo), ("rmlir-bc", ocmd, oo)]
            if a.baseline:
                bo = os.path.join(S, name + ".baseline.run")
                order.append(("baseline", [a.baseline] + ocmd[1:], bo))
            if run % 2:
                order.reverse()
            for tool, cmd, out in order:
                stdout = out if name in INFO_SOURCE and tool != "mlir-opt" else None
                w, rss, cpu, rc = run_timed(fill(cmd, i, out), stdout=stdout)
                if rc:
                    sys.exit("%s: %s failed" % (name, tool))
                results[name][tool].append((w, rss, cpu))
            ref = sha256(os.path.join(S, name + ".mlir-opt.out")) if name not in INFO_SOURCE else None
            for tool, _cmd, out in order:
                if ref and tool != "mlir-opt" and sha256(out) != ref:
                    sys.exit("%s: run %d: %s's output differs from mlir-opt's" % (name, run, tool))
            log("run %d %s: mlir-opt %.3fs, rmlir-bc %.3fs" % (
                run + 1, name, results[name]["mlir-opt"][-1][0], results[name]["rmlir-bc"][-1][0]))
    load_after = open("/proc/loadavg").read().split()[:3]

    print("%s; %d runs per tool, interleaved; load average before %s, after %s%s" % (
        time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), a.runs, " ".join(load_before), " ".join(load_after),
        "; both tools under taskset -c %s" % a.taskset if a.taskset else ""))
    print()
    print("| case | mlir-opt 22 wall (s) | rmlir-bc wall (s) | wall speed-up | mlir-opt CPU (s) | rmlir-bc CPU (s) "
          "| CPU speed-up | mlir-opt RSS (MiB) | rmlir-bc RSS (MiB) | RSS ratio |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    with open(os.path.join(S, "results.tsv"), "w") as tsv:
        tsv.write("case\ttool\twall_s\tpeak_rss_mib\tcpu_s\n")
        for name, desc, *_ in selected:
            r = results[name]
            for tool in r:
                for w, rss, cpu in r[tool]:
                    tsv.write("%s\t%s\t%.4f\t%.1f\t%.4f\n" % (name, tool, w, rss, cpu))
            med = lambda tool, k: statistics.median(x[k] for x in r[tool])  # noqa: E731
            mw, ow = med("mlir-opt", 0), med("rmlir-bc", 0)
            mr, orss = med("mlir-opt", 1), med("rmlir-bc", 1)
            mc, oc = med("mlir-opt", 2), med("rmlir-bc", 2)
            print("| %s (%s) | %.3f | %.3f | %.2f× | %.3f | %.3f | %s | %.0f | %.0f | %.2f |" % (
                name, desc, mw, ow, mw / ow, mc, oc, cpu_ratio(mc, oc), mr, orss, orss / mr))
            if a.baseline:
                bw, bc, br = med("baseline", 0), med("baseline", 2), med("baseline", 1)
                print("| ↳ baseline %s | %.3f | %.3f | %.2f× | %.3f | %.3f | %s | %.0f | %.0f | %.2f |" % (
                    os.path.basename(a.baseline), mw, bw, mw / bw, mc, bc, cpu_ratio(mc, bc), mr, br, br / mr))


def cpu_ratio(theirs, ours):
    """/usr/bin/time reports CPU in 10 ms steps: below that no ratio is meaningful."""
    return "n/a (< 0.01 s)" if ours < 0.01 else "%.2f×" % (theirs / ours)


if __name__ == "__main__":
    main()
