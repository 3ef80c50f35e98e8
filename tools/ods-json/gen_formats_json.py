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
  `variadic`, `variadic_of_variadic`) in ODS order, and for
  `variadic_of_variadic` the attribute holding its groups' sizes
  (`segments`);
* `attrs`: the ODS attributes (name, optional or not) and `props` the
  other properties, by name;
* `regions` and `successors`: name and whether variadic;
* `traits`: the op's trait names as mlir-tblgen lists them, with
  `SingleBlockImplicitTerminator<C>` resolved to the op of class C;
* what the generated parser of a variable does, as mlir-tblgen's
  `OpFormatGen` decides it: per operand and result, `build` (the text of
  a buildable type, such as `i1`) and `def` (the `dialect.mnemonic` of a
  dialect type printed without its prefix); per attribute, `kind`:
  `enum` (a keyword, stored as an integer of `bits` bits: `cases`),
  `symbol` (`@name`), `unit`, `def` (an attribute of a dialect, `def`
  its `dialect.mnemonic`), `array` (a dense array `[…]` of `element`),
  `type` (a type attribute) or `attr` (any attribute of C++ class
  `storage`, typed by `build` when the constraint has a buildable value
  type).

With `--operand-groups`, only each op's operand groups (name, arity,
`segments`) are written: what reading an older release's bytecode needs
to derive segment sizes that release did not write (SPEC.md §7.2), e.g.
`format/data/operand-groups-19.json` from MLIR 19's `.td` files.

Usage (the same inputs as gen_layouts_json.py):
  gen_formats_json.py --upstream-tree /usr/lib/llvm-22/include --out FILE
  gen_formats_json.py TD... [-I DIR]... --out FILE
  gen_formats_json.py --upstream-tree DIR --mlir-release 19.1.7 --operand-groups --out FILE

Python 3 standard library only.
"""
import argparse
import json
import os
import re
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


BUILDER_CALLS = [
    (re.compile(r"^\$_builder\.getIntegerType\((\d+)\)$"), lambda m: "i" + m.group(1)),
    (re.compile(r"^\$_builder\.getIntegerType\((\d+),\s*(?:/\*isSigned=\*/)?true\)$"),
     lambda m: "si" + m.group(1)),
    (re.compile(r"^\$_builder\.getIntegerType\((\d+),\s*(?:/\*isSigned=\*/)?false\)$"),
     lambda m: "ui" + m.group(1)),
    (re.compile(r"^\$_builder\.getI(\d+)Type\(\)$"), lambda m: "i" + m.group(1)),
    (re.compile(r"^\$_builder\.getIndexType\(\)$"), lambda m: "index"),
    (re.compile(r"^\$_builder\.getNoneType\(\)$"), lambda m: "none"),
    (re.compile(r"^\$_builder\.getType<(?:::)?(?:mlir::)?NoneType>\(\)$"), lambda m: "none"),
    (re.compile(r"^\$_builder\.get(F\d+|BF16|TF32)Type\(\)$"), lambda m: m.group(1).lower()),
]


class Defs:
    """The dialect attributes and types of every document, by C++ class:
    `dialect.mnemonic`, and whether they have parameters."""

    def __init__(self, docs):
        self.attrs, self.types = {}, {}
        for R in docs:
            for cls, table in (("AttrDef", self.attrs), ("TypeDef", self.types)):
                for rn in R.instances(cls):
                    r = R.rec(rn)
                    mn = str_field_or_none(r, "mnemonic")
                    if not mn:
                        continue
                    dia = R.rec(G.def_name(r["dialect"], rn + ".dialect"))
                    ns = str_field_or_none(r, "cppNamespace") or \
                        str_field_or_none(dia, "cppNamespace")
                    cpp = norm_cpp(ns.strip(":") + "::" + str_field_or_none(r, "cppClassName"))
                    params = r.get("parameters") or {}
                    table.setdefault(cpp, (G.str_field(dia, "name") + "." + mn,
                                           bool(params.get("args"))))


def str_field_or_none(r, key):
    v = r.get(key)
    return v if isinstance(v, str) else ""


def norm_cpp(s):
    s = s.strip()
    return s if s.startswith("::") else "::" + s


def builder_type(R, defs, d):
    """The text of the type a buildable constraint builds, if known."""
    return builder_call_type(defs, G.str_field(R.rec(d), "builderCall").strip())


def builder_call_type(defs, call):
    """The text of the type a builder call (C++) builds, if known: the
    builder's own types, parameterless dialect types, and pdl's ranges of
    them (`PDL_RangeOf<…>`: `!pdl.range<operation>`)."""
    if not call:
        return None
    m = re.match(r"^::mlir::pdl::RangeType::get\((.+)\)$", call)
    if m:
        inner = builder_call_type(defs, m.group(1).strip())
        if inner and inner.startswith("!pdl."):
            return "!pdl.range<" + inner[len("!pdl."):] + ">"
        return None
    for rx, f in BUILDER_CALLS:
        m = rx.match(call)
        if m:
            return f(m)
    m = re.match(r"^\$_builder\.getType<(.+)>\(\)$", call)
    if m and norm_cpp(m.group(1)) in defs.types:
        name, has_params = defs.types[norm_cpp(m.group(1))]
        return None if has_params else "!" + name
    return None


def value_constraint(R, d):
    """A Variadic/Optional constraint's element constraint."""
    r = R.rec(d)
    while isinstance(r.get("baseType"), dict):
        d = G.def_name(r["baseType"], d + ".baseType")
        r = R.rec(d)
    return d


def value_entry(R, defs, name, d, arity_name):
    e = {"name": name, "arity": arity_name}
    if arity_name == "variadic_of_variadic":
        e["segments"] = G.str_field(R.rec(d), "segmentAttrName")
    c = value_constraint(R, d)
    b = builder_type(R, defs, c)
    if b:
        e["build"] = b
    cpp = norm_cpp(G.str_field(R.rec(c), "cppType") or "::mlir::Type")
    if cpp in defs.types:
        e["def"] = defs.types[cpp][0]
    return e


def attr_base(R, d):
    """Through OptionalAttr/DefaultValuedAttr to the attribute constraint."""
    seen = set()
    while d not in seen:
        seen.add(d)
        b = R.rec(d).get("baseAttr")
        if not isinstance(b, dict):
            break
        d = G.def_name(b, d + ".baseAttr")
    return d


ARRAY_ELEMENTS = {"::mlir::DenseBoolArrayAttr": "i1", "::mlir::DenseI8ArrayAttr": "i8",
                  "::mlir::DenseI16ArrayAttr": "i16", "::mlir::DenseI32ArrayAttr": "i32",
                  "::mlir::DenseI64ArrayAttr": "i64", "::mlir::DenseF32ArrayAttr": "f32",
                  "::mlir::DenseF64ArrayAttr": "f64"}


def prop_entry(R, name, d):
    """A property: its name, and for an enum property printed
    `mnemonic<case, …>` (`NamedEnumProp`, `NamedEnumPropWithAttrForm`) what
    its generated parser reads: `kind` `named_enum`, the `mnemonic`, the
    enum's `bits`, its `cases` (keyword, value) and whether it is a `bit`
    enum (cases or-ed together)."""
    e = {"name": name}
    r = R.rec(d)
    if "NamedEnumProp" in r["!superclasses"] or "NamedEnumPropWithAttrForm" in r["!superclasses"]:
        enum = G.def_name(r.get("enum"), d + ".enum")
        er = R.rec(enum)
        cases = []
        for c in er.get("enumerants") or []:
            cr = R.rec(G.def_name(c, enum + ".enumerants"))
            cases.append([G.str_field(cr, "str"), cr.get("value")])
        e.update(kind="named_enum", mnemonic=G.str_field(r, "mnemonic"), bits=er.get("bitwidth"),
                 cases=cases, bit="BitEnumBase" in er["!superclasses"] or "BitEnumAttr" in er["!superclasses"])
    return e


def attr_entry(R, defs, name, d, optional):
    e = {"name": name, "optional": optional}
    base = attr_base(R, d)
    r = R.rec(d)
    br = R.rec(base)
    sup = br["!superclasses"]
    storage = norm_cpp(G.str_field(r, "storageType") or G.str_field(br, "storageType"))
    if "EnumAttrInfo" in sup and "BitEnumAttr" not in sup and br.get("genSpecializedAttr") is not None:
        cases = []
        for c in br.get("enumerants") or []:
            cr = R.rec(G.def_name(c, base + ".enumerants"))
            cases.append([G.str_field(cr, "str"), cr.get("value")])
        e.update(kind="enum", bits=br.get("bitwidth"), cases=cases)
    elif base == "SymbolNameAttr":
        e["kind"] = "symbol"
    elif storage == "::mlir::UnitAttr":
        e["kind"] = "unit"
    elif storage in ARRAY_ELEMENTS:
        e.update(kind="array", element=ARRAY_ELEMENTS[storage])
    elif storage == "::mlir::TypeAttr" or "TypeAttrBase" in sup:
        e["kind"] = "type"
    elif storage in defs.attrs:
        e.update(kind="def", **{"def": defs.attrs[storage][0]})
        # An `EnumAttr` of a dialect: its cases, for parsers that read the
        # bare keyword (tosa's `nan_mode = PROPAGATE`) or a string
        # (spirv's `"Volatile|Aligned"`).
        enum = br.get("enum") if isinstance(br.get("enum"), dict) else r.get("enum")
        if isinstance(enum, dict):
            en = G.def_name(enum, base + ".enum")
            er = R.rec(en)
            if "EnumInfo" in er["!superclasses"] or "EnumAttrInfo" in er["!superclasses"]:
                cases = []
                for c in er.get("enumerants") or []:
                    cr = R.rec(G.def_name(c, en + ".enumerants"))
                    cases.append([G.str_field(cr, "str"), cr.get("value")])
                e["cases"] = cases
                # A bit enum's cases are or-ed together (`Volatile|Aligned`).
                if "BitEnumBase" in er["!superclasses"] or "BitEnumAttr" in er["!superclasses"]:
                    e["bit"] = True
    else:
        e.update(kind="attr", storage=storage)
        vt = br.get("valueType")
        if isinstance(vt, dict):
            b = builder_type(R, defs, G.def_name(vt, base + ".valueType"))
            if b:
                e["build"] = b
    return e


def op_entry(R, rname, defs):
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
            e["operands"].append(value_entry(R, defs, name, d, arity(R, d)))
        elif "Attr" in sup:
            optional = "OptionalAttr" in sup or "DefaultValuedOptionalAttr" in sup or \
                bool(G.str_field(R.rec(d), "defaultValue"))
            e["attrs"].append(attr_entry(R, defs, name, d, optional))
        elif "Property" in sup:
            e["props"].append(prop_entry(R, name, d))
        else:
            raise G.MapError("%s: argument %s is neither an operand, an attribute nor a property"
                             % (opname, name))
    for name, d in values(R, rname, "results", opname):
        e["results"].append(value_entry(R, defs, name, d, arity(R, d)))
    for name, d in values(R, rname, "regions", opname):
        e["regions"].append({"name": name, "variadic": R.isa(d, "VariadicRegion")})
    for name, d in values(R, rname, "successors", opname):
        e["successors"].append({"name": name, "variadic": R.isa(d, "VariadicSuccessor")})
    e["traits"] = [t for t in (trait(R, t) for t in G.flatten_traits(R, rname, opname)) if t]
    e["cpp_class"] = norm_cpp(G.str_field(r, "cppNamespace").strip(":") + "::" +
                              G.cpp_class_name(rname))
    return e


IMPLICIT = "::mlir::OpTrait::SingleBlockImplicitTerminator<"


def resolve_terminators(ops):
    """`SingleBlockImplicitTerminator<C>` names its op by C++ class, relative
    to the op's namespace: replaced by `{"implicit_terminator": name}`."""
    by_class = {o["cpp_class"]: o["name"] for o in ops}
    for o in ops:
        ns = o["cpp_class"].rsplit("::", 1)[0]
        for i, t in enumerate(o["traits"]):
            if not (isinstance(t, str) and t.startswith(IMPLICIT) and t.endswith(">::Impl")):
                continue
            cls = t[len(IMPLICIT):-len(">::Impl")].strip()
            if cls.startswith("::"):
                cands = [cls]
            else:
                # C++ lookup from the op's namespace outwards.
                parts = ns.strip(":").split("::")
                cands = ["::" + "::".join(parts[:k] + [cls]) for k in range(len(parts), -1, -1)]
                cands = [c.replace(":::", "::") for c in cands]
            name = next((by_class[c] for c in cands if c in by_class), None)
            if name is None:
                raise G.MapError("%s: implicit terminator %s is no known op" % (o["name"], cls))
            o["traits"][i] = {"implicit_terminator": name}
        del o["cpp_class"]


def trait(R, t):
    """A trait as the interpreter needs it: a native trait by its C++ name
    (`::mlir::OpTrait::SameOperandsAndResultType`), a type-matching
    predicate with its values (`AllTypesMatch`, `TypesMatchWith`, and
    `ShapedTypeMatchesElementCountAndTypes` as the `TypesMatchWith` it
    amounts to)."""
    tr = R.rec(t)
    sup = tr["!superclasses"]
    if "AllTypesMatch" in sup:
        return {"all_types_match": tr.get("values")}
    if "TypesMatchWith" in sup:
        return {"types_match_with": {k: G.str_field(tr, k) for k in ("lhs", "rhs", "transformer")}}
    if "ShapedTypeMatchesElementCountAndTypes" in sup:
        # mlir-tblgen's OpFormatGen resolves the elements' types from the
        # shaped value's as it does a TypesMatchWith of this transformer.
        return {"types_match_with": {
            "lhs": G.str_field(tr, "shaped"),
            "rhs": G.str_field(tr, "elements"),
            "transformer": "SmallVector<Type>(::llvm::cast<ShapedType>($_self).getNumElements(), "
                           "::llvm::cast<ShapedType>($_self).getElementType())",
        }}
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
    ap.add_argument("--operand-groups", action="store_true",
                    help="write only each op's operand groups")
    a = ap.parse_args()
    docs = G.load_docs(a, lambda s: print(s, file=sys.stderr), also=("AttrDef", "TypeDef"))
    by_name, errors = {}, []
    defs = Defs(docs)
    for R in docs:
        for rn in G.op_records(R):
            try:
                e = op_entry(R, rn, defs)
            except G.MapError as ex:
                errors.append("%s [record %s in %s]" % (ex, rn, R.origin))
                continue
            by_name.setdefault(e["name"], e)
    for err in sorted(set(errors)):
        print("gen_formats_json.py: error: " + err, file=sys.stderr)
    if errors:
        sys.exit(1)
    ops = [by_name[n] for n in sorted(by_name)]
    resolve_terminators(ops)
    if a.operand_groups:
        keep = ("name", "arity", "segments")
        ops = [{"name": o["name"],
                "operands": [{k: v[k] for k in keep if k in v} for v in o["operands"]]}
               for o in ops]
    out = {"mlir_release": a.mlir_release, "generator": "tools/ods-json/gen_formats_json.py", "ops": ops}
    tmp = a.out + ".tmp"
    with open(tmp, "w") as f:
        json.dump(out, f, indent=None, separators=(",", ":"))
        f.write("\n")
    os.replace(tmp, a.out)
    if a.operand_groups:
        print("%d ops' operand groups" % len(ops), file=sys.stderr)
        return
    n_fmt = sum(1 for o in ops if o["format"])
    n_custom = sum(1 for o in ops if o["custom"])
    print("%d ops: %d with a declarative format, %d with a hand-written parser, %d with neither"
          % (len(ops), n_fmt, n_custom, len(ops) - n_fmt - n_custom), file=sys.stderr)


if __name__ == "__main__":
    main()
