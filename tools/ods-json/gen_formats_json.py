#!/usr/bin/env python3
"""gen_formats_json.py - ops' custom assembly formats from `llvm-tblgen --dump-json`.

The custom (pretty) form of an op is declared in ODS: a declarative
`assemblyFormat`, or `hasCustomAssemblyFormat` for a hand-written C++
parser and printer. This writes, per op, what an interpreter of the format
language needs to know of the op (SPEC.md §11):

* `format`: the `assemblyFormat` text (null when the op has none);
  `custom`: whether it has a hand-written parser and printer instead
  (ops with neither print and parse only in the generic form);
* `operands` and `results`: name and arity (`single`, `optional`,
  `variadic`, `variadic_of_variadic`) in ODS order;
* `attrs`: the ODS attributes (name, optional or not) and `props` the
  other properties, by name;
* `regions` and `successors`: name and whether variadic;
* `traits`: the op's trait names as mlir-tblgen lists them.

Usage (the same inputs as gen_layouts_json.py):
  gen_formats_json.py --upstream-tree /usr/lib/llvm-22/include --out FILE
  gen_formats_json.py TD... [-I DIR]... --out FILE

Python 3 standard library only.
"""
import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)
import gen_layouts_json as G  # noqa: E402  (record helpers, tblgen runs)


def arity(R, d):
    sup = R.rec(d)["!superclasses"]
    if "VariadicOfVariadic" in sup:
        return "variadic_of_variadic"
    if "Variadic" in sup:
        return "variadic"
    if "Optional" in sup:
        return "optional"
    return "single"


def values(R, rname, field, opname):
    out = []
    for i, (v, name) in enumerate(G.dag_args(R.rec(rname).get(field), opname + "." + field)):
        d = G.def_name(v, "%s: %s %d" % (opname, field, i))
        if R.isa(d, "OpVariable"):
            d = G.def_name(R.rec(d).get("constraint"), "%s: %s constraint" % (opname, name))
        out.append((name or "", d))
    return out


def op_entry(R, rname):
    opname = G.op_full_name(R, rname)
    r = R.rec(rname)
    fmt = r.get("assemblyFormat")
    fmt = fmt if isinstance(fmt, str) and fmt.strip() else None
    e = {
        "name": opname,
        "format": fmt,
        # A declarative format wins over an inherited `hasCustomAssemblyFormat`
        # (spirv's ops), as in mlir-tblgen.
        "custom": bool(r.get("hasCustomAssemblyFormat")) and fmt is None,
        "operands": [],
        "attrs": [],
        "props": [],
        "results": [],
        "regions": [],
        "successors": [],
    }
    for name, d in values(R, rname, "arguments", opname):
        sup = R.rec(d)["!superclasses"]
        if "TypeConstraint" in sup:
            e["operands"].append({"name": name, "arity": arity(R, d)})
        elif "Attr" in sup:
            optional = "OptionalAttr" in sup or "DefaultValuedOptionalAttr" in sup or \
                bool(G.str_field(R.rec(d), "defaultValue"))
            e["attrs"].append({"name": name, "optional": optional})
        elif "Property" in sup:
            e["props"].append({"name": name})
        else:
            raise G.MapError("%s: argument %s is neither an operand, an attribute nor a property"
                             % (opname, name))
    for name, d in values(R, rname, "results", opname):
        e["results"].append({"name": name, "arity": arity(R, d)})
    for name, d in values(R, rname, "regions", opname):
        e["regions"].append({"name": name, "variadic": R.isa(d, "VariadicRegion")})
    for name, d in values(R, rname, "successors", opname):
        e["successors"].append({"name": name, "variadic": R.isa(d, "VariadicSuccessor")})
    e["traits"] = [t for t in (trait(R, t) for t in G.flatten_traits(R, rname, opname)) if t]
    return e


def trait(R, t):
    """A trait as the interpreter needs it: a native trait by its C++ name
    (`::mlir::OpTrait::SameOperandsAndResultType`), a type-matching
    predicate with its values (`AllTypesMatch`, `TypesMatchWith`)."""
    tr = R.rec(t)
    sup = tr["!superclasses"]
    if "AllTypesMatch" in sup:
        return {"all_types_match": tr.get("values")}
    if "TypesMatchWith" in sup:
        return {"types_match_with": {k: G.str_field(tr, k) for k in ("lhs", "rhs", "transformer")}}
    cpp = G.native_trait_cpp(R, t)
    if cpp:
        return cpp
    return None if t.startswith("anonymous_") else t


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("td", nargs="*")
    ap.add_argument("-I", dest="include", action="append", default=[])
    ap.add_argument("--json", action="append")
    ap.add_argument("--upstream-tree")
    ap.add_argument("--tblgen")
    ap.add_argument("--mlir-release", default="22.1.8")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    docs = G.load_docs(a, lambda s: print(s, file=sys.stderr))
    by_name, errors = {}, []
    for R in docs:
        for rn in G.op_records(R):
            try:
                e = op_entry(R, rn)
            except G.MapError as ex:
                errors.append("%s [record %s in %s]" % (ex, rn, R.origin))
                continue
            by_name.setdefault(e["name"], e)
    for err in sorted(set(errors)):
        print("gen_formats_json.py: error: " + err, file=sys.stderr)
    if errors:
        sys.exit(1)
    ops = [by_name[n] for n in sorted(by_name)]
    out = {"mlir_release": a.mlir_release, "generator": "tools/ods-json/gen_formats_json.py", "ops": ops}
    tmp = a.out + ".tmp"
    with open(tmp, "w") as f:
        json.dump(out, f, indent=None, separators=(",", ":"))
        f.write("\n")
    os.replace(tmp, a.out)
    n_fmt = sum(1 for o in ops if o["format"])
    n_custom = sum(1 for o in ops if o["custom"])
    print("%d ops: %d with a declarative format, %d with a hand-written parser, %d with neither"
          % (len(ops), n_fmt, n_custom, len(ops) - n_fmt - n_custom), file=sys.stderr)


if __name__ == "__main__":
    main()
