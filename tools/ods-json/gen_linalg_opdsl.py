#!/usr/bin/env python3
"""gen_linalg_opdsl.py - linalg's OpDSL ops as data, from what mlir-tblgen made of them.

The named structured ops of linalg's OpDSL (`linalg.conv_2d_nhwc_hwcf`,
`linalg.pooling_nhwc_max`, `linalg.dot`, `linalg.exp`, ...) have no body
in their custom form: the parser builds it from the operands' element
types (each op's `regionBuilder`), and mlir-opt's verifier then memoizes
the op's indexing maps on it as `linalg.memoized_indexing_maps`, with the
op's strides and dilations folded in. Both are C++ generated from OpDSL's
YAML into `LinalgNamedStructuredOps.yamlgen.cpp.inc`, which MLIR's
development package installs; the op names are in the `.yamlgen.td`
beside it. This reads both and writes, per op (SPEC.md §11.2):

* `name`: the op name;
* `args`: the number of block arguments of its body;
* `maps`: null when the maps follow the operands' ranks (identity or
  scalar: nothing is memoized), else `dims` (the loop count), `exprs`
  (the maps as OpDSL writes them, with symbols) and `symbols` (per
  symbol: null where it stays a symbol, else `[attr, index]`, the
  element of an index attribute it becomes);
* `index_attrs`: the index attributes (`strides`, `dilations`): name,
  shape and the default value the op uses when the text leaves one out;
* `fn_attrs`: attributes that choose a type function (`cast`), with their
  default;
* `body`: the region builder's statements in order, each making one
  value: `{"type_fn": F, "to": T, "x": V}`, `{"binary": F, "x": V, "y": V}`,
  `{"unary": F, "x": V}`, `{"ternary": F, "x", "y", "z"}`,
  `{"constant": TEXT}`, `{"index": DIM}`, where a value V is
  `{"arg": N}` (a block argument) or `{"value": N}` (statement N), F a
  function name (or `{"attr": NAME}` for one chosen by an attribute) and
  T `{"arg": N}` (that argument's type) or a type's text;
* `yields`: the values the body yields;
* `default_maps`: for the contractions defined in ODS rather than OpDSL
  (`linalg.matmul`, `linalg.batch_matmul`, `linalg.batch_reduce_matmul`),
  the `indexing_maps` property their parser sets when the text gives
  none; null for the others.

Those three ops' region builders and default maps are C++ in
`LinalgOps.cpp`, not generated: `ODS_CONTRACTIONS` below transcribes them
(multiply the operands cast to the output's type, add to the output).

Usage:
  gen_linalg_opdsl.py --upstream-tree /usr/lib/llvm-22/include --out FILE

Python 3 standard library only. Anything the generated C++ does that this
does not understand stops the run with the op and line.
"""
import argparse
import json
import os
import re
import sys

SUBDIR = "mlir/Dialect/Linalg/IR"


def die(msg):
    print(f"gen_linalg_opdsl.py: {msg}", file=sys.stderr)
    sys.exit(1)


def op_names(td_text):
    """Class name -> `linalg.<mnemonic>`, with each op's index attributes."""
    names = {}
    for m in re.finditer(r'^def (\w+) : LinalgStructuredBase_Op<"([\w.]+)"', td_text, re.M):
        names[m.group(1)] = "linalg." + m.group(2)
    return names


def op_attrs(td_text):
    """Class name -> (index attrs, type-function attrs) from its `arguments`."""
    out = {}
    defs = list(re.finditer(r'^def (\w+) : LinalgStructuredBase_Op<', td_text, re.M))
    for i, m in enumerate(defs):
        end = defs[i + 1].start() if i + 1 < len(defs) else len(td_text)
        body = td_text[m.start():end]
        index, fns = [], []
        for a in re.finditer(
            r'DefaultValuedOptionalAttr<RankedI64ElementsAttr<\[([0-9, ]+)\]>, "\{([^}]*)\}">:\$(\w+)',
            body,
        ):
            shape = [int(x) for x in a.group(1).split(",")]
            default = [int(x) for x in re.findall(r"static_cast<int64_t>\((-?\d+)\)", a.group(2))]
            index.append({"name": a.group(3), "shape": shape, "default": default})
        for a in re.finditer(r'DefaultValuedOptionalAttr<TypeFnAttr, "TypeFn::(\w+)">:\$(\w+)', body):
            fns.append({"name": a.group(2), "default": a.group(1)})
        out[m.group(1)] = (index, fns)
    return out


def value_ref(text, values, where):
    text = text.strip()
    m = re.fullmatch(r"block\.getArgument\((\d+)\)", text)
    if m:
        return {"arg": int(m.group(1))}
    m = re.fullmatch(r"value(\d+)", text)
    if m and m.group(1) in values:
        return {"value": values[m.group(1)]}
    die(f"{where}: a value not understood: {text!r}")


def type_ref(text, where):
    text = text.strip()
    m = re.fullmatch(r"block\.getArgument\((\d+)\)\.getType\(\)", text)
    if m:
        return {"arg": int(m.group(1))}
    m = re.fullmatch(r"helper\.getIntegerType\((\d+)\)", text)
    if m:
        return f"i{m.group(1)}"
    m = re.fullmatch(r"helper\.getFloat(32|64)Type\(\)", text)
    if m:
        return f"f{m.group(1)}"
    die(f"{where}: a type not understood: {text!r}")


def region(cls, text):
    """The statements of `cls`'s regionBuilder."""
    body, values, yields, fn_vars = [], {}, [], {}
    for line in text.splitlines():
        s = line.strip()
        if not s or s.startswith(("assert(", '"', "RegionBuilderHelper", "SmallVector<Value> yields")):
            continue
        if s in ("return;", "}", "helper.yieldOutputs(yields);") or s.startswith("if (!value"):
            continue
        where = f"{cls}: {s}"
        m = re.fullmatch(r"TypeFn (\w+) = TypeFn::(\w+);", s)
        if m:
            fn_vars[m.group(1)] = None
            continue
        if s.startswith(("auto ", "return attr.getName()", "if (", "castVal =", "fnVal =")) or re.fullmatch(
            r"\w+ = attr\.getValue\(\);", s
        ):
            m = re.search(r'attr\.getName\(\) == "(\w+)"', s)
            if m:
                # The attribute choosing the most recent function variable.
                last = list(fn_vars)[-1]
                fn_vars[last] = m.group(1)
            continue
        m = re.fullmatch(r"yields\.push_back\((.+)\);", s)
        if m:
            yields.append(value_ref(m.group(1), values, where))
            continue
        m = re.fullmatch(r"Value value(\d+) = helper\.(\w+)\((.*)\);", s)
        if not m:
            die(f"{where}: a statement not understood")
        num, fn, args = m.group(1), m.group(2), m.group(3)
        # Split the arguments at top-level commas.
        parts, depth, cur = [], 0, ""
        for ch in args:
            if ch == "," and depth == 0:
                parts.append(cur)
                cur = ""
                continue
            depth += ch in "(<"
            depth -= ch in ")>"
            cur += ch
        parts.append(cur)
        parts = [p.strip() for p in parts if p.strip() != "emitError"]

        def func(p, kind):
            m2 = re.fullmatch(kind + r"::(\w+)", p)
            if m2:
                return m2.group(1)
            if p in fn_vars and fn_vars[p]:
                return {"attr": fn_vars[p]}
            die(f"{where}: a {kind} not understood: {p!r}")

        if fn == "buildTypeFn":
            st = {"type_fn": func(parts[0], "TypeFn"), "to": type_ref(parts[1], where),
                  "x": value_ref(parts[2], values, where)}
        elif fn == "buildBinaryFn":
            st = {"binary": func(parts[0], "BinaryFn"), "x": value_ref(parts[1], values, where),
                  "y": value_ref(parts[2], values, where)}
        elif fn == "buildUnaryFn":
            st = {"unary": func(parts[0], "UnaryFn"), "x": value_ref(parts[1], values, where)}
        elif fn == "buildTernaryFn":
            st = {"ternary": func(parts[0], "TernaryFn"), "x": value_ref(parts[1], values, where),
                  "y": value_ref(parts[2], values, where), "z": value_ref(parts[3], values, where)}
        elif fn == "constant":
            m2 = re.fullmatch(r'"(.*)"', parts[0])
            if not m2:
                die(f"{where}: a constant not understood")
            st = {"constant": m2.group(1)}
        elif fn == "index":
            st = {"index": int(parts[0])}
        else:
            die(f"{where}: a helper not understood: {fn}")
        values[num] = len(body)
        body.append(st)
    if not yields:
        die(f"{cls}: a body that yields nothing")
    return body, yields


def maps(cls, impl):
    m = re.search(r"ArrayAttr \w+::getIndexingMaps\(\) \{(.*?)\n\}\n", impl, re.S)
    if not m:
        die(f"{cls}: no getIndexingMaps")
    text = m.group(1)
    if "getMultiDimIdentityMap" in text and "memoizeAttr" not in text:
        return None
    if "memoizeAttr" not in text:
        die(f"{cls}: indexing maps neither rank-polymorphic nor memoized")
    exprs = re.findall(r'mlir::parseAttribute\("(affine_map<[^"]*>)", context\)', text)
    dims = set(int(d) for d in re.findall(r"replaceDimsAndSymbols\(\{\}, symbolBindings, (\d+), 0\)", text))
    if not exprs or len(dims) != 1:
        die(f"{cls}: indexing maps not understood")
    sb = re.search(r"static SmallVector<AffineExpr> getSymbolBindings\(\w+ self\) \{(.*?)\n\}\n", impl, re.S)
    if not sb:
        die(f"{cls}: no getSymbolBindings")
    symbols = []
    for s in sb.group(1).splitlines():
        s = s.strip()
        m2 = re.fullmatch(r"exprs\.push_back\(getAffineSymbolExpr\((\d+), context\)\);", s)
        if m2:
            if int(m2.group(1)) != len(symbols):
                die(f"{cls}: symbols out of order")
            symbols.append(None)
            continue
        m2 = re.fullmatch(r"int64_t cst(\d+) = self\.get(\w+)\(\)\.getValues<int64_t>\(\)\[(\d+)\];", s)
        if m2:
            if int(m2.group(1)) != len(symbols):
                die(f"{cls}: symbols out of order")
            attr = m2.group(2)[0].lower() + m2.group(2)[1:]
            symbols.append([attr, int(m2.group(3))])
            continue
        if s.startswith(("MLIRContext", "SmallVector<AffineExpr>", "exprs.push_back(getAffineConstantExpr", "return exprs")):
            continue
        if s:
            die(f"{cls}: a symbol binding not understood: {s!r}")
    return {"dims": dims.pop(), "symbols": symbols, "exprs": exprs}


def contraction(name, maps):
    arg = lambda n: {"arg": n}  # noqa: E731
    val = lambda n: {"value": n}  # noqa: E731
    return {
        "name": name,
        "args": 3,
        "maps": None,
        "index_attrs": [],
        "fn_attrs": [{"name": "cast", "default": "cast_signed"}],
        "body": [
            {"type_fn": {"attr": "cast"}, "to": arg(2), "x": arg(0)},
            {"type_fn": {"attr": "cast"}, "to": arg(2), "x": arg(1)},
            {"binary": "mul", "x": val(0), "y": val(1)},
            {"binary": "add", "x": arg(2), "y": val(2)},
        ],
        "yields": [val(3)],
        "default_maps": "[" + ", ".join(f"affine_map<{m}>" for m in maps) + "]",
    }


# MatmulOp, BatchMatmulOp and BatchReduceMatmulOp of LinalgStructuredOps.td:
# getDefaultIndexingMaps and regionBuilder in LinalgOps.cpp.
ODS_CONTRACTIONS = [
    contraction("linalg.matmul", ["(d0, d1, d2) -> (d0, d2)", "(d0, d1, d2) -> (d2, d1)",
                                  "(d0, d1, d2) -> (d0, d1)"]),
    contraction("linalg.batch_matmul", ["(d0, d1, d2, d3) -> (d0, d1, d3)",
                                        "(d0, d1, d2, d3) -> (d0, d3, d2)",
                                        "(d0, d1, d2, d3) -> (d0, d1, d2)"]),
    contraction("linalg.batch_reduce_matmul", ["(d0, d1, d2, d3) -> (d0, d1, d3)",
                                               "(d0, d1, d2, d3) -> (d0, d3, d2)",
                                               "(d0, d1, d2, d3) -> (d1, d2)"]),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--upstream-tree", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    d = os.path.join(a.upstream_tree, SUBDIR)
    with open(os.path.join(d, "LinalgNamedStructuredOps.yamlgen.td")) as f:
        td = f.read()
    with open(os.path.join(d, "LinalgNamedStructuredOps.yamlgen.cpp.inc")) as f:
        inc = f.read()
    names = op_names(td)
    attrs = op_attrs(td)
    sections = re.split(r"^// Implementation of (\w+)\n", inc, flags=re.M)
    ops = []
    for cls, impl in zip(sections[1::2], sections[2::2]):
        if cls not in names:
            die(f"{cls}: not in LinalgNamedStructuredOps.yamlgen.td")
        m = re.search(r"unsigned \w+::getNumRegionArgs\(\) \{ return (\d+); \}", impl)
        rb = re.search(r"void \w+::regionBuilder\(.*?\{\n(.*?)\n\}\n", impl, re.S)
        if not m or not rb:
            die(f"{cls}: no region builder")
        body, yields = region(cls, rb.group(1))
        index, fns = attrs.get(cls, ([], []))
        ops.append({
            "name": names[cls],
            "args": int(m.group(1)),
            "maps": maps(cls, impl),
            "index_attrs": index,
            "fn_attrs": fns,
            "body": body,
            "yields": yields,
            "default_maps": None,
        })
    if len(ops) != len(names):
        die(f"{len(ops)} implementations for {len(names)} ops")
    if any(o["name"] in names.values() for o in ODS_CONTRACTIONS):
        die("an ODS contraction is also an OpDSL op")
    ops.extend(ODS_CONTRACTIONS)
    ops.sort(key=lambda o: o["name"])
    doc = {
        "source": f"{SUBDIR}/LinalgNamedStructuredOps.yamlgen.{{td,cpp.inc}}",
        "ops": ops,
    }
    with open(a.out, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"gen_linalg_opdsl.py: {len(ops)} ops ({len(ODS_CONTRACTIONS)} from ODS)", file=sys.stderr)


if __name__ == "__main__":
    main()
