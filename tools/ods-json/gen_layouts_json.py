#!/usr/bin/env python3
"""gen_layouts_json.py - op property layouts from `llvm-tblgen --dump-json` records.

Reads the TableGen records of ODS `.td` files (it runs `llvm-tblgen --dump-json`
itself, or takes dumps made beforehand with --json) and writes the op layout data
format of tools/ods-layouts (see ../ods-layouts/README.md): per op the traits, the
attribute names, and the exact reads `readProperties` performs for bytecode
version 5 and for versions >= 6.

The rules are those of mlir-tblgen 22 (OpDefinitionsGen / Operator):
- attributes (non-derived) sorted by name; required = not optional and no default;
- v5: a `legacy_segments` read where `operand_segment_sizes` / `result_segment_sizes`
  sorts among the attribute names;
- then the ODS properties in declaration order, each classified from its
  `readFromMlirBytecode` code with the matcher of ../ods-layouts/gen_layouts.py;
- v6: `sparse_segments` reads (operand, then result) after the properties.

A record it cannot map is an error naming the op and the field; nothing is guessed.

Python 3 standard library only.  See README.md next to this file.

Usage:
  gen_layouts_json.py TD... [-I DIR]... [--out FILE]
  gen_layouts_json.py --json DUMP.json... [--out FILE]
  gen_layouts_json.py --upstream-tree /usr/lib/llvm-22/include [--out FILE]
options: --dialect D (repeatable), --mlir-release V, --allow-custom,
         --carry-over LAYOUTS.json, --tblgen PATH, --quiet
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # leave no __pycache__ next to gen_layouts.py
sys.path.insert(0, os.path.join(HERE, "..", "ods-layouts"))
import gen_layouts as GL  # noqa: E402  (property-code matcher, JSON writer)

GENERATOR = "tools/ods-json/gen_layouts_json.py"
DEFAULT_LLVM_INCLUDE = "/usr/lib/llvm-22/include"
TBLGEN_CANDIDATES = ["llvm-tblgen-22", "/usr/lib/llvm-22/bin/llvm-tblgen", "llvm-tblgen"]

OPERAND_SEGMENTS = "operandSegmentSizes"
RESULT_SEGMENTS = "resultSegmentSizes"
# The v5 (legacy) segment read sorts among the attribute names under these names.
LEGACY_SORT_NAME = {OPERAND_SEGMENTS: "operand_segment_sizes",
                    RESULT_SEGMENTS: "result_segment_sizes"}

SHORT_TRAITS = GL.TRAIT_NAMES  # full C++ trait name -> short name
IMPLICIT_TERM_RE = re.compile(r"::mlir::OpTrait::SingleBlockImplicitTerminator<(.+)>::Impl")


class MapError(Exception):
    pass


# ---------------------------------------------------------------------------
# Running llvm-tblgen
# ---------------------------------------------------------------------------

def find_tblgen(explicit=None):
    if explicit:
        return explicit
    for c in TBLGEN_CANDIDATES:
        p = shutil.which(c) if not os.path.isabs(c) else (c if os.access(c, os.X_OK) else None)
        if p:
            return p
    raise MapError("llvm-tblgen not found (tried %s); install llvm-22 or pass --tblgen"
                   % ", ".join(TBLGEN_CANDIDATES))


def dump_json(tblgen, td, includes):
    cmd = [tblgen, "--dump-json"]
    for inc in includes:
        cmd += ["-I", inc]
    cmd.append(td)
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if r.returncode != 0:
        raise MapError("%s failed on %s:\n%s" % (os.path.basename(tblgen), td,
                                                  r.stderr.decode("utf-8", "replace")[-2000:]))
    return json.loads(r.stdout.decode("utf-8"))


# ---------------------------------------------------------------------------
# Record helpers
# ---------------------------------------------------------------------------

class Records:
    """One --dump-json document."""

    def __init__(self, doc, origin):
        self.doc = doc
        self.origin = origin

    def rec(self, name):
        r = self.doc.get(name)
        if not isinstance(r, dict) or "!superclasses" not in r:
            raise MapError("%s: no record %r" % (self.origin, name))
        return r

    def isa(self, name, cls):
        return cls in self.rec(name)["!superclasses"]

    def instances(self, cls):
        return self.doc.get("!instanceof", {}).get(cls, [])


def def_name(val, what):
    if isinstance(val, dict) and val.get("kind") == "def":
        return val["def"]
    raise MapError("%s: expected a record reference, got %s" % (what, json.dumps(val)[:200]))


def str_field(r, key):
    """A string/code field; unset (`?`, JSON null) reads as ''."""
    v = r.get(key)
    if v is None:
        return ""
    if not isinstance(v, str):
        raise MapError("field %s is not a string: %r" % (key, v))
    return v


def dag_args(val, what):
    if not isinstance(val, dict) or val.get("kind") != "dag":
        raise MapError("%s: expected a dag, got %s" % (what, json.dumps(val)[:200]))
    return val["args"]


# ---------------------------------------------------------------------------
# One op record -> layout entry
# ---------------------------------------------------------------------------

def cpp_class_name(record_name):
    """Operator::Operator: the first `_` separates an (ignored) dialect prefix."""
    prefix, sep, rest = record_name.partition("_")
    if not sep:
        return record_name
    if prefix == "":
        return record_name
    if rest == "":
        return prefix
    return rest


def op_full_name(R, rname):
    r = R.rec(rname)
    dia = R.rec(def_name(r["opDialect"], rname + ".opDialect"))
    dname = str_field(dia, "name")
    opname = str_field(r, "opName")
    return (dname + "." + opname) if dname else opname


def flatten_traits(R, rname, opname):
    """Operator::populateOpStructure trait insertion: TraitList expanded in place,
    duplicates dropped, an interface preceded by its base interfaces."""
    seen = set()
    out = []

    def insert(lst, where):
        if not isinstance(lst, list):
            raise MapError("%s: %s is not a list" % (opname, where))
        for v in lst:
            t = def_name(v, "%s: trait" % opname)
            tr = R.rec(t)
            sup = tr["!superclasses"]
            if "TraitList" in sup:
                insert(tr.get("traits"), t + ".traits")
                continue
            if t in seen:
                continue
            seen.add(t)
            if "Interface" in sup:
                insert(tr.get("baseInterfaces") or [], t + ".baseInterfaces")
            out.append(t)

    insert(R.rec(rname).get("traits"), "traits")
    return out


def native_trait_cpp(R, t):
    """Full C++ name of a NativeTrait / ParamNativeTrait record, else None."""
    tr = R.rec(t)
    sup = tr["!superclasses"]
    if "NativeTrait" not in sup and "ParamNativeTrait" not in sup:
        return None
    ns = str_field(tr, "cppNamespace")
    name = str_field(tr, "trait")
    return (ns + "::" + name) if ns else name


def region_count(R, rname, opname):
    args = dag_args(R.rec(rname).get("regions"), opname + ".regions")
    total = len(args)
    variadic = 0
    for v, _n in args:
        rr = def_name(v, opname + ": region")
        if R.isa(rr, "VariadicRegion"):
            variadic += 1
        elif not R.isa(rr, "Region"):
            raise MapError("%s: region %s is not a Region" % (opname, rr))
    if variadic:
        return "*" if variadic == total else ">=%d" % (total - variadic)
    return total


def classify_args(R, rname, opname):
    """-> (n_operands, attributes [(name, rec)], properties [(name, rec)])."""
    r = R.rec(rname)
    operands, attrs, props = 0, [], []
    for i, (v, name) in enumerate(dag_args(r.get("arguments"), opname + ".arguments")):
        d = def_name(v, "%s: argument %d" % (opname, i))
        if R.isa(d, "OpVariable"):
            d = def_name(R.rec(d).get("constraint"), "%s: argument %s constraint" % (opname, name))
        sup = R.rec(d)["!superclasses"]
        if "TypeConstraint" in sup:
            operands += 1
        elif "Attr" in sup:
            if not name:
                raise MapError("%s: attribute argument %d has no name" % (opname, i))
            if "DerivedAttr" in sup:
                raise MapError("%s: derived attribute %s in the argument list" % (opname, name))
            attrs.append((name, d))
        elif "Property" in sup:
            if not name:
                raise MapError("%s: property argument %d has no name" % (opname, i))
            props.append((name, d))
        else:
            raise MapError("%s: argument %s (%s) is neither a type constraint, an Attr nor "
                           "a Property (classes %s)" % (opname, name or i, d, sup))
    return operands, attrs, props


def derived_attrs(R, rname):
    """Record values holding a DerivedAttr (Operator adds them as attributes)."""
    out = []
    for k, v in R.rec(rname).items():
        if k.startswith("!") or not isinstance(v, dict) or v.get("kind") != "def":
            continue
        if R.isa(v["def"], "DerivedAttr"):
            out.append(k)
    return out


_PLACEHOLDER_RE = re.compile(r"\$(_?[A-Za-z0-9_]+)")
_READ_SUBST = {"_reader": "reader", "_storage": "propStorage", "_ctxt": "this->getContext()",
               "_writer": "writer"}


def subst_code(code, opname, field):
    def rep(m):
        k = m.group(1)
        if k in _READ_SUBST:
            return _READ_SUBST[k]
        raise MapError("%s: property %s: unknown placeholder $%s in its bytecode code"
                       % (opname, field, k))
    return _PLACEHOLDER_RE.sub(rep, code)


def property_field(R, opname, name, prec):
    pr = R.rec(prec)
    ctype = str_field(pr, "storageType").strip()
    if not ctype:
        raise MapError("%s: property %s (%s) has no storageType" % (opname, name, prec))
    code = subst_code(str_field(pr, "readFromMlirBytecode"), opname, name)
    try:
        p = GL.BodyParser("%s: property %s (%s)" % (opname, name, prec), GL.canon(code))
        spec = p.prop_code(ctype)
        p.skip_empty()
        if not p.at_end():
            p.fail("code after the property read")
    except GL.LayoutError as e:
        raise MapError(str(e))
    if spec["kind"] == "sparse_segments":
        raise MapError("%s: property %s reads a sparse array; only the ODS segment sizes "
                       "may" % (opname, name))
    f = {"name": name}
    f.update(spec)
    return f


def resolve_cpp(classes, ns, ref):
    """C++ lookup of a class named in a trait, from namespace ns ('a::b')."""
    ref = ref.strip()
    if ref.startswith("::"):
        return classes.get(ref[2:])
    parts = ns.split("::") if ns else []
    for i in range(len(parts), -1, -1):
        cand = "::".join(parts[:i] + [ref])
        if cand in classes:
            return classes[cand]
    return None


def op_entry(R, rname, cpp_classes, allow_custom, custom_log):
    r = R.rec(rname)
    name = op_full_name(R, rname)
    dia = R.rec(def_name(r["opDialect"], name + ".opDialect"))
    use_props = dia.get("usePropertiesForAttributes")
    if use_props not in (0, 1):
        raise MapError("%s: dialect usePropertiesForAttributes is %r" % (name, use_props))
    ns = str_field(r, "cppNamespace").strip()
    ns = ns[2:] if ns.startswith("::") else ns

    traits = flatten_traits(R, rname, name)
    # OpEmitter::genTraits adds the structural traits (SingleBlock, NoTerminator,
    # NoRegionArguments, ...) first, then the other traits in ODS order.
    traits = ([t for t in traits if R.isa(t, "StructuralOpTrait")] +
              [t for t in traits if not R.isa(t, "StructuralOpTrait")])
    cpp_traits = [c for c in (native_trait_cpp(R, t) for t in traits) if c]
    # Short names in Op<...> order, except that SingleBlockImplicitTerminator comes
    # last: that is how tools/ods-layouts/gen_layouts.py lists it in the shipped data.
    short = [SHORT_TRAITS[c] for c in cpp_traits if c in SHORT_TRAITS]
    implicit = None
    for c in cpp_traits:
        m = IMPLICIT_TERM_RE.fullmatch(c)
        if m:
            if "SingleBlockImplicitTerminator" in short:
                raise MapError("%s: two SingleBlockImplicitTerminator traits" % name)
            short.append("SingleBlockImplicitTerminator")
            implicit = resolve_cpp(cpp_classes, ns, m.group(1))
            if implicit is None:
                raise MapError("%s: implicit terminator class %s not found among the op "
                               "records" % (name, m.group(1)))
    has_operand_seg = "::mlir::OpTrait::AttrSizedOperandSegments" in cpp_traits
    has_result_seg = "::mlir::OpTrait::AttrSizedResultSegments" in cpp_traits

    n_operands, attrs, props = classify_args(R, rname, name)
    n_results = len(dag_args(r.get("results"), name + ".results"))
    derived = derived_attrs(R, rname)

    # attribute metadata, sorted by name (OpOrAdaptorHelper::computeAttrMetadata)
    meta = {}
    for an, ad in attrs:
        ar = R.rec(ad)
        optional = bool(ar.get("isOptional")) or str_field(ar, "defaultValue") != ""
        ctype = str_field(ar, "storageType").strip() or "::mlir::Attribute"
        if an in meta:
            raise MapError("%s: attribute %s declared twice" % (name, an))
        meta[an] = {"name": an, "kind": "opt_attr" if optional else "attr", "ctype": ctype}
    for dn in derived:
        if dn in meta:
            raise MapError("%s: derived attribute %s clashes with an argument" % (name, dn))
        meta[dn] = None  # named, never stored
    if not use_props:
        for seg, on in ((OPERAND_SEGMENTS, has_operand_seg), (RESULT_SEGMENTS, has_result_seg)):
            if on:
                meta[seg] = {"name": seg, "kind": "attr", "ctype": None}
    attr_names = sorted(meta)
    if use_props and has_operand_seg:
        attr_names.append(OPERAND_SEGMENTS)

    stored_attrs = [meta[a] for a in sorted(meta) if meta[a] is not None]
    has_props = bool(props) or (use_props and (has_operand_seg or has_result_seg
                                              or bool(stored_attrs)))
    entry = {"name": name, "dialect": name.split(".", 1)[0], "ods": True, "traits": short}
    if implicit:
        entry["implicit_terminator"] = implicit
    entry["regions"] = region_count(R, rname, name)
    entry["attr_names"] = attr_names
    entry["write_properties"] = has_props
    if not has_props:
        entry["v5"] = []
        entry["v6"] = []
        return entry
    if not use_props:
        # attributes then live in the attribute dictionary, yet mlir-tblgen 22 also
        # reads them in readProperties when the op has properties: not mapped.
        raise MapError("%s: properties %s in a dialect with usePropertiesForAttributes = 0 "
                       "(mixed layout not supported)" % (name, [p for p, _ in props]))
    if r.get("useCustomPropertiesEncoding"):
        msg = "%s (%s): useCustomPropertiesEncoding = 1" % (name, rname)
        if not allow_custom:
            raise MapError(msg)
        custom_log.append(msg)
        entry["custom_encoding"] = True
        entry["v5"] = None
        entry["v6"] = None
        return entry

    segs = []
    if has_operand_seg:
        segs.append({"name": OPERAND_SEGMENTS, "of": "operand", "size": n_operands})
    if has_result_seg:
        segs.append({"name": RESULT_SEGMENTS, "of": "result", "size": n_results})

    v5_attrs = [(a["name"], a) for a in stored_attrs]
    for s in segs:
        leg = {"name": s["name"], "kind": "legacy_segments", "of": s["of"], "size": s["size"]}
        v5_attrs.append((LEGACY_SORT_NAME[s["name"]], leg))
    v5_attrs.sort(key=lambda x: x[0])  # stable: names are distinct

    prop_fields = []
    for pn, pd in props:
        f = property_field(R, name, pn, pd)
        if GL._has_custom(f):
            msg = "%s: property %s uses the generic readFromMlirBytecode overload for C++ " \
                  "type %s" % (name, pn, f.get("ctype"))
            if not allow_custom:
                raise MapError(msg + " (custom encoding; rerun with --allow-custom)")
            custom_log.append(msg)
        prop_fields.append(f)
    seen = set()
    for f in [a for _k, a in v5_attrs] + prop_fields:
        if f["name"] in seen:
            raise MapError("%s: field %s appears twice" % (name, f["name"]))
        seen.add(f["name"])

    entry["v5"] = [a for _k, a in v5_attrs] + prop_fields
    entry["v6"] = stored_attrs + prop_fields + [
        {"name": s["name"], "kind": "sparse_segments", "of": s["of"], "size": s["size"]}
        for s in segs]
    return entry


# ---------------------------------------------------------------------------
# Whole runs
# ---------------------------------------------------------------------------

def op_records(R):
    return sorted(R.instances("Op"))


def build(docs, dialects=None, allow_custom=False):
    """docs: list of Records. Returns (ops, custom_log, errors)."""
    # C++ class -> op name, over every op record seen (terminators may come from any input)
    cpp_classes = {}
    for R in docs:
        for rn in op_records(R):
            r = R.rec(rn)
            ns = str_field(r, "cppNamespace").strip()
            ns = ns[2:] if ns.startswith("::") else ns
            key = (ns + "::" if ns else "") + cpp_class_name(rn)
            nm = op_full_name(R, rn)
            if cpp_classes.get(key, nm) != nm:
                raise MapError("C++ class %s names two ops: %s and %s" % (key, cpp_classes[key], nm))
            cpp_classes[key] = nm
    by_name = {}
    errors, custom = [], []
    for R in docs:
        for rn in op_records(R):
            try:
                nm = op_full_name(R, rn)
                if dialects and nm.split(".", 1)[0] not in dialects:
                    continue
                e = op_entry(R, rn, cpp_classes, allow_custom, custom)
            except MapError as ex:
                errors.append("%s [record %s in %s]" % (ex, rn, R.origin))
                continue
            old = by_name.get(nm)
            if old is not None and old != e:
                errors.append("op %s defined differently in two inputs (second: %s)" % (nm, R.origin))
                continue
            by_name[nm] = e
    # one message per distinct problem (an op found in several inputs repeats)
    errors = sorted(set(errors))
    custom = sorted(set(custom))
    ops = [by_name[n] for n in sorted(by_name)]
    return ops, custom, errors


def upstream_td_files(root):
    out = []
    base = os.path.join(root, "mlir")
    for d, dirs, files in os.walk(base):
        dirs.sort()
        for f in sorted(files):
            if f.endswith(".td"):
                out.append(os.path.join(d, f))
    return out


def load_docs(args, log, also=()):
    """The records of the .td files given, or of every upstream .td with op
    records (and with instances of the classes in `also`)."""
    docs = []
    for j in args.json or []:
        with open(j, encoding="utf-8") as fh:
            docs.append(Records(json.load(fh), j))
    if args.td or args.upstream_tree:
        tblgen = find_tblgen(args.tblgen)
        incs = list(args.include or [])
        if args.upstream_tree:
            incs = incs + [args.upstream_tree]
        elif DEFAULT_LLVM_INCLUDE not in incs and os.path.isdir(DEFAULT_LLVM_INCLUDE):
            incs.append(DEFAULT_LLVM_INCLUDE)
        for td in args.td or []:
            docs.append(Records(dump_json(tblgen, td, incs + [os.path.dirname(td) or "."]), td))
        if args.upstream_tree:
            # Every .td of the tree; those that do not parse on their own are fragments
            # included by another file (their records come in through that file).
            skipped = []
            for td in upstream_td_files(args.upstream_tree):
                try:
                    doc = dump_json(tblgen, td, incs + [os.path.dirname(td)])
                except MapError:
                    skipped.append(os.path.relpath(td, args.upstream_tree))
                    continue
                inst = doc.get("!instanceof", {})
                if inst.get("Op") or any(inst.get(c) for c in also):
                    docs.append(Records(doc, os.path.relpath(td, args.upstream_tree)))
            log("upstream tree %s: %d .td files with records used, %d fragments skipped"
                % (args.upstream_tree, len(docs), len(skipped)))
    return docs


def carry_over(ops, path):
    """Append the hand-written (`"ods": false`) ops of an existing layout file."""
    with open(path, encoding="utf-8") as fh:
        old = json.load(fh)
    names = {o["name"] for o in ops}
    added = []
    for o in old["ops"]:
        if o.get("ods") is False:
            if o["name"] in names:
                raise MapError("carried-over op %s is also an ODS op" % o["name"])
            added.append(o)
    ops = sorted(ops + added, key=lambda o: o["name"])
    return ops, [o["name"] for o in added]


def summary(ops, custom, log):
    dialects = sorted({o["dialect"] for o in ops})
    counts = {}
    for o in ops:
        counts[o["dialect"]] = counts.get(o["dialect"], 0) + 1
    with_props = [o for o in ops if o["write_properties"]]
    log("dialects: %d (%s)" % (len(dialects), ", ".join("%s %d" % (d, counts[d]) for d in dialects)))
    log("ops: %d (%d ODS, %d carried over)" % (len(ops), sum(1 for o in ops if o["ods"]),
                                             sum(1 for o in ops if not o["ods"])))
    log("ops with properties: %d; v5 != v6: %d" % (
        len(with_props), sum(1 for o in with_props if o["v5"] != o["v6"])))
    kinds = {}
    for o in with_props:
        seen = set()
        for f in (o["v5"] or []) + (o["v6"] or []):
            key = (f["name"], GL.kind_label(f))
            if key not in seen:
                seen.add(key)
                kinds[key[1]] = kinds.get(key[1], 0) + 1
    for k in sorted(kinds):
        log("  %-28s %d" % (k, kinds[k]))
    if custom:
        log("custom encodings recorded (--allow-custom): %d" % len(custom))
        for c in custom:
            log("  " + c)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("td", nargs="*", help=".td files to run llvm-tblgen --dump-json on")
    ap.add_argument("-I", dest="include", action="append",
                    help="include directory for llvm-tblgen (repeatable; %s is added "
                         "unless --upstream-tree)" % DEFAULT_LLVM_INCLUDE)
    ap.add_argument("--json", action="append", help="a pre-made --dump-json file (repeatable)")
    ap.add_argument("--upstream-tree", metavar="DIR",
                    help="dump every .td under DIR/mlir (e.g. /usr/lib/llvm-22/include)")
    ap.add_argument("--tblgen", help="llvm-tblgen binary (default: llvm-tblgen-22)")
    ap.add_argument("--dialect", action="append", help="keep only this dialect (repeatable)")
    ap.add_argument("--out", help="write the layout JSON here")
    ap.add_argument("--mlir-release", default="unknown", help="top-level mlir_release value")
    ap.add_argument("--allow-custom", action="store_true",
                    help="record custom property encodings instead of failing")
    ap.add_argument("--carry-over", metavar="LAYOUTS",
                    help="copy the hand-written (\"ods\": false) ops of this layout file")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    log = (lambda *a: None) if args.quiet else (lambda s: print(s, file=sys.stderr))
    if not (args.td or args.json or args.upstream_tree):
        ap.error("give .td files, --json dumps or --upstream-tree")
    try:
        docs = load_docs(args, log)
        ops, custom, errors = build(docs, set(args.dialect or []), args.allow_custom)
        if errors:
            raise MapError("%d problem(s):\n  " % len(errors) + "\n  ".join(errors))
        if not ops:
            raise MapError("no op records found")
        carried = []
        if args.carry_over:
            ops, carried = carry_over(ops, args.carry_over)
    except MapError as e:
        print("gen_layouts_json: FAILED: %s" % e, file=sys.stderr)
        return 1
    doc = {"mlir_release": args.mlir_release, "generator": GENERATOR, "ops": ops}
    text = GL.dump(doc)
    if args.out:
        os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
        with open(args.out, "w", encoding="utf-8") as fh:
            fh.write(text)
    else:
        sys.stdout.write(text)
    if carried:
        log("carried over from %s: %s" % (args.carry_over, ", ".join(carried)))
    summary(ops, custom, log)
    if args.out:
        log("wrote %s (%d bytes)" % (args.out, os.path.getsize(args.out)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
