#!/usr/bin/env python3
"""from_td.py - a dialect's declared bytecode encodings as data, from its `.td`.

MLIR lets a dialect declare the bytecode encoding of its attributes and types
in TableGen (`mlir/IR/BytecodeBase.td`: a `DialectAttributes` and a
`DialectTypes` record whose `elems` list the kinds, each a `DialectAttribute`
or `DialectType` whose `members` are the reads). mlir-tblgen turns that into
C++; this script turns it into the JSON that `rmlir-bc --dialect-encodings
FILE` loads (SPEC.md §6.6.5, §9.5), from `llvm-tblgen --dump-json` records
alone, so that no build of the dialect is needed.

For each kind (its code is its index in `elems`) the file holds:
* the reads, in order (`VarInt`, `SignedVarInt`, `Str`, `Bool`, `Attr`,
  `OptAttr`, `Type`, and the list and helper reads the upstream dialects use),
  classified from each member's `cParser` template;
* how the value prints: the mnemonic and the declarative `assemblyFormat` of
  the ODS attribute or type definition whose `cppClassName` is the kind's C++
  class, as a list of literals, parameters (by read index) and `struct(...)`
  groups. Formats outside that subset (optional groups, custom directives,
  parameters of the dialect's own classes, custom builders) are written as
  `null` with the reason, and reading such an entry is an error that says it.

A member this script cannot classify is an error naming the kind and the
member; nothing is guessed.

Usage:
  from_td.py TD... [-I DIR]... --dialect NAME --out FILE [--tblgen PATH]
  from_td.py --check   (the upstream llvm, quant and tosa encodings read from
                        their .td files equal what mlir-tblgen generated)

Python 3 standard library only.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
INC = "/usr/lib/llvm-22/include"
TBLGEN_CANDIDATES = ["llvm-tblgen-22", "/usr/lib/llvm-22/bin/llvm-tblgen", "llvm-tblgen"]
SCHEMA = 1

# (pattern over a member's cParser, read kind)
READS = [
    (r"\$_reader\.readVarInt\(", "VarInt"),
    (r"\$_reader\.readSignedVarInt\(", "SignedVarInt"),
    (r"\$_reader\.readString\(", "Str"),
    (r"\$_reader\.readBool\(", "Bool"),
    (r"\$_reader\.readOptionalAttribute\b", "OptAttr"),
    (r"\$_reader\.readAttribute\b", "Attr"),
    (r"\$_reader\.readType\b", "Type"),
    # The llvm dialect's helpers (LLVMDialectBytecode.cpp).
    (r"\breadOptionalInt\(\$_reader", "OptInt"),
    (r"\breadOptionalArrayRef<", "OptArray"),
    # The quant dialect's helper (QuantDialectBytecode.cpp).
    (r"\breadDoubleAPFloat\(\$_reader", "F64"),
]
LIST_OF = {"SignedVarInt": "ListSignedVarInt", "F64": "ListF64"}
DEFAULT_BUILDER = "get<$_resultType>(context, $_args)"

# C++ parameter types each read can feed, for printing (after stripping
# `::mlir::`, `::llvm::` and `const`).
INTEGERS = {"uint64_t", "uint32_t", "uint16_t", "uint8_t", "unsigned", "unsigned int",
            "size_t", "int64_t", "int32_t", "int16_t", "int8_t", "int"}
BUILTIN_ATTRS = {"Attribute", "TypedAttr", "StringAttr", "IntegerAttr", "FloatAttr",
                 "ArrayAttr", "DictionaryAttr", "TypeAttr", "UnitAttr", "BoolAttr",
                 "SymbolRefAttr", "FlatSymbolRefAttr", "DenseElementsAttr",
                 "DenseIntElementsAttr", "ElementsAttr", "LocationAttr"}
BUILTIN_TYPES = {"Type", "IntegerType", "FloatType", "IndexType", "FunctionType",
                 "RankedTensorType", "TensorType", "MemRefType", "ShapedType",
                 "VectorType", "TupleType", "ComplexType", "NoneType"}


class Refused(Exception):
    pass


def tblgen():
    for c in TBLGEN_CANDIDATES:
        p = shutil.which(c)
        if p:
            return p
    sys.exit("from_td.py: llvm-tblgen not found (apt-get install llvm-22)")


def dump(td, includes, tool):
    """The records of one `.td` file. Each file is read on its own: a
    bytecode `.td` (BytecodeBase.td) and an ODS one (OpBase.td) cannot be
    read together, as both define a class `DialectType`."""
    args = [tool, "--dump-json", "-I", INC, "-I", os.path.dirname(os.path.abspath(td))]
    for i in includes:
        args += ["-I", i]
    r = subprocess.run(args + [td], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"from_td.py: llvm-tblgen failed on {td}:\n" + r.stderr)
    return json.loads(r.stdout)


def cpp_name(t):
    t = t.strip().strip('"').replace("const ", "").strip()
    for ns in ("::mlir::", "mlir::", "::llvm::", "llvm::", "::"):
        if t.startswith(ns):
            t = t[len(ns):]
    return t


def classify(rec, records, where):
    """The read a member of record `rec` makes."""
    if "elemT" in rec:
        elem = records[rec["elemT"]["def"]]
        inner = classify(elem, records, where)
        if inner not in LIST_OF:
            raise Refused(f"{where}: a list of {inner} reads has no encoding we interpret")
        return LIST_OF[inner]
    parser = rec.get("cParser", "")
    if re.match(r"^\(\(\$_var = .*\), true\)$", parser, re.S):
        return None  # a LocalVar: no read
    found = [k for pat, k in READS if re.search(pat, parser)]
    if len(found) != 1:
        raise Refused(f"{where}: cannot classify the read `{parser}`")
    kind = found[0]
    if kind == "OptArray":
        elem = re.search(r"readOptionalArrayRef<\s*([\w:]+)", parser).group(1)
        kind = "OptArrayInt" if cpp_name(elem) in INTEGERS else "OptArrayAttr"
    return kind


def steps_of(rec, records, dialect):
    steps = []
    for ty, name in rec["members"]["args"]:
        where = f"{dialect} {rec['!name']}, member ${name}"
        read = classify(records[ty["def"]], records, where)
        if read is not None:
            steps.append({"name": name, "read": read})
    return steps


def tokenize(fmt):
    toks, i = [], 0
    while i < len(fmt):
        c = fmt[i]
        if c.isspace():
            i += 1
        elif c == "`":
            j = fmt.index("`", i + 1)
            toks.append(("lit", fmt[i + 1:j]))
            i = j + 1
        elif c == "$":
            m = re.match(r"\$(\w+)", fmt[i:])
            toks.append(("var", m.group(1)))
            i += len(m.group(0))
        elif fmt.startswith("struct", i) or fmt.startswith("params", i):
            m = re.match(r"(struct|params)", fmt[i:])
            toks.append(("kw", m.group(1)))
            i += len(m.group(0))
        elif c in "(),":
            toks.append(("punct", c))
            i += 1
        else:
            m = re.match(r"[\w<>]+", fmt[i:])
            raise Refused(f"the assembly format uses `{m.group(0) if m else c}`, which we do not interpret")
    return toks


def format_of(fmt, params):
    """The pieces of declarative format `fmt` over `params` (names in order)."""
    toks = tokenize(fmt)
    out, i = [], 0
    index = {n: k for k, n in enumerate(params)}

    def var(n):
        if n not in index:
            raise Refused(f"the assembly format names ${n}, which is not a parameter")
        return index[n]

    while i < len(toks):
        kind, v = toks[i]
        if kind == "lit":
            out.append({"lit": v})
            i += 1
        elif kind == "var":
            out.append({"param": var(v)})
            i += 1
        elif kind == "kw" and v == "params":
            for k in range(len(params)):
                if k:
                    out.append({"lit": ","})
                out.append({"param": k})
            i += 1
        elif kind == "kw" and v == "struct":
            if i + 1 >= len(toks) or toks[i + 1] != ("punct", "("):
                raise Refused("`struct` without `(`")
            i += 2
            members = []
            while i < len(toks) and toks[i] != ("punct", ")"):
                if toks[i] == ("kw", "params"):
                    members += list(range(len(params)))
                elif toks[i][0] == "var":
                    members.append(var(toks[i][1]))
                elif toks[i] != ("punct", ","):
                    raise Refused(f"`struct` holds `{toks[i][1]}`")
                i += 1
            i += 1
            out.append({"struct": members})
        else:
            raise Refused(f"the assembly format uses `{v}` (an optional group or directive), which we do not interpret")
    return out


def param_list(defn, records):
    """(name, C++ type, has a default) of each parameter of an ODS definition."""
    out = []
    for ty, name in defn["parameters"]["args"]:
        if isinstance(ty, dict):
            rec = records[ty["def"]]
            cpp = rec.get("cppType", "")
            default = bool(rec.get("defaultValue")) or "OptionalParameter" in rec.get("!superclasses", [])
        else:
            cpp, default = ty, False
        out.append((name, cpp_name(cpp), default))
    return out


def check_param(read, cpp, name):
    ok = {
        "VarInt": cpp in INTEGERS,
        "SignedVarInt": cpp in INTEGERS,
        "Str": cpp in ("StringRef", "std::string"),
        "Bool": cpp == "bool",
        "Attr": cpp in BUILTIN_ATTRS,
        "OptAttr": cpp in BUILTIN_ATTRS,
        "Type": cpp in BUILTIN_TYPES,
    }.get(read, False)
    if not ok:
        raise Refused(f"parameter ${name} is a `{cpp}` read as {read}, which we do not print")


def printing(rec, steps, defs):
    """(mnemonic, format) of kind `rec`, or a Refused with the reason."""
    cls = rec.get("cType") or rec["!name"]
    defn, records = defs.get(cls, (None, None))
    if defn is None:
        raise Refused(f"no ODS definition with cppClassName `{cls}` among the .td files")
    mnemonic = defn.get("mnemonic")
    if not isinstance(mnemonic, str):
        raise Refused(f"`{cls}` has no mnemonic")
    if defn.get("hasCustomAssemblyFormat"):
        raise Refused(f"`{cls}` prints with hand-written C++ (hasCustomAssemblyFormat)")
    if rec.get("cBuilder", DEFAULT_BUILDER) != DEFAULT_BUILDER:
        raise Refused(f"`{rec['!name']}` builds its value with custom C++ (cBuilder)")
    params = param_list(defn, records)
    if len(params) != len(steps):
        raise Refused(f"`{cls}` has {len(params)} parameters and its encoding {len(steps)} reads")
    for (name, cpp, default), step in zip(params, steps):
        if default:
            raise Refused(f"parameter ${name} has a default, which `struct` would elide; not interpreted")
        check_param(step["read"], cpp, name)
    fmt = defn.get("assemblyFormat")
    if not isinstance(fmt, str) or not fmt.strip():
        if params:
            raise Refused(f"`{cls}` has parameters and no assembly format")
        return mnemonic, []
    return mnemonic, format_of(fmt, [p[0] for p in params])


def encodings(dumps, dialect):
    """The encodings of `dialect` declared in `dumps` (one per `.td` file),
    with the printing of the ODS definitions any of them holds."""
    defs = {}
    for records in dumps:
        for d in records["!instanceof"].get("AttrOrTypeDef", []):
            r = records[d]
            if isinstance(r.get("cppClassName"), str):
                defs[r["cppClassName"]] = (r, records)
    out = {"rmlir_dialect_encodings": SCHEMA, "dialect": dialect, "attrs": [], "types": []}
    found = False
    declared = set()
    for records, group, key in [(r, g, k) for r in dumps
                                for g, k in (("DialectAttributes", "attrs"), ("DialectTypes", "types"))]:
        ins = records["!instanceof"]
        for name in ins.get(group, []):
            top = records[name]
            declared.add(top["dialect"])
            if top["dialect"].lower() != dialect.lower():
                continue
            found = True
            for code, e in enumerate(top["elems"]):
                rec = records[e["def"]]
                if rec["members"]["operator"]["def"] == "none":
                    continue  # `ReservedOrDead`: a code no kind uses
                steps = steps_of(rec, records, dialect)
                kind = {"code": code, "class": rec.get("cType") or rec["!name"], "steps": steps}
                try:
                    kind["mnemonic"], kind["format"] = printing(rec, steps, defs)
                except Refused as why:
                    kind["mnemonic"], kind["format"], kind["why"] = None, None, str(why)
                out[key].append(kind)
    if not found:
        names = sorted(declared)
        raise Refused(f"no DialectAttributes or DialectTypes record for dialect '{dialect}' "
                      f"(the .td files declare: {', '.join(names) or 'none'})")
    return out


def check():
    """The reads of llvm, quant and tosa from their .td files against the
    reads gen.py takes from mlir-tblgen's generated `.cpp.inc`."""
    sys.dont_write_bytecode = True
    sys.path.insert(0, HERE)
    import gen  # noqa: E402
    tool = tblgen()
    bad = total = 0
    for dialect, inc in gen.DIALECT_INCS:
        td = inc.replace(".cpp.inc", ".td")
        name = {"llvm": "LLVM", "quant": "Quant", "tosa": "Tosa"}[dialect]
        ours = encodings([dump(td, [], tool)], name)
        theirs = gen.parse_bytecode_inc(inc)
        for key, what in (("attrs", "Attribute"), ("types", "Type")):
            want = {k["code"]: [s[1] for s in k["steps"]] for k in theirs[what]}
            got = {k["code"]: [s["read"] for s in k["steps"]] for k in ours[key]}
            for code in sorted(set(want) | set(got)):
                total += 1
                w, g = want.get(code), got.get(code)
                if w != g:
                    bad += 1
                    print(f"{dialect} {what} {code}: .td gives {g}, mlir-tblgen's code reads {w}")
    print(f"from_td.py --check: {total - bad}/{total} kinds read alike")
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("td", nargs="*")
    ap.add_argument("-I", dest="includes", action="append", default=[])
    ap.add_argument("--dialect")
    ap.add_argument("--out")
    ap.add_argument("--tblgen")
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    if a.check:
        sys.exit(check())
    if not a.td or not a.dialect or not a.out:
        ap.error("give the .td files, --dialect and --out")
    tool = a.tblgen or tblgen()
    dumps = [dump(td, a.includes, tool) for td in a.td]
    try:
        out = encodings(dumps, a.dialect)
    except Refused as why:
        sys.exit(f"from_td.py: error: {why}")
    for key in ("attrs", "types"):
        for k in out[key]:
            if k["format"] is None:
                print(f"from_td.py: note: {a.dialect} {k['class']} (code {k['code']}) will not print: {k['why']}",
                      file=sys.stderr)
    tmp = a.out + ".tmp"
    with open(tmp, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    os.replace(tmp, a.out)


if __name__ == "__main__":
    main()
