"""Op layouts of a newer MLIR from a tool's generated Python op classes.

Tools built on MLIR ship its Python bindings, and with them one
`_<dialect>_ops_gen.py` per dialect: a class per op whose builder sets each
ODS attribute, required ones always and optional ones under
`if name is not None` (or `if name:` for unit attributes). That is what
the properties payload of an op with only attributes holds (SPEC.md
§7.4): its attributes sorted by name, required ones as attribute
references, optional ones with a presence flag, then any native
properties (operand segment sizes), which the classes do not list. The
v5 layout (SPEC.md §6.9) gets the same attributes, its native properties
where they were.

So the layouts of the tool's MLIR are MLIR 22's (format/data/
ods-layouts-22.json) with, for every op whose class lists a different set
of attributes, those attributes: the ones MLIR 22 has keep their field
kind, added ones take the class's required/optional, removed ones go, and
MLIR 22's native properties stay after them. Ops of dialects the tool has
no classes for, and ops MLIR 22 lacks, are left as they are (not added).

The same reconciliation serves out-of-tree layouts made from ODS sources
of another commit than the tool was built from: `--base` names them
(IREE's, from tools/ods-json, against IREE 3.13's classes).

Usage: gen.py [--base LAYOUTS_JSON] RELEASE DIALECTS_DIR OUT_JSON
  --base       the layouts to start from (default: MLIR 22's)
  RELEASE      the release the layouts describe, e.g. 24.0.0git
  DIALECTS_DIR the tool's `dialects` package (holding _*_ops_gen.py)
Prints, per dialect, how many ops changed.
"""

import ast
import json
import os
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BASE = os.path.join(ROOT, "format/data/ods-layouts-22.json")


def is_attribute_store(node):
    """`attributes["name"] = ...`: the name, else None."""
    if not isinstance(node, ast.Assign) or len(node.targets) != 1:
        return None
    t = node.targets[0]
    if (
        isinstance(t, ast.Subscript)
        and isinstance(t.value, ast.Name)
        and t.value.id == "attributes"
        and isinstance(t.slice, ast.Constant)
        and isinstance(t.slice.value, str)
    ):
        return t.slice.value
    return None


def builder_attributes(init):
    """(name, required) of each attribute `__init__` sets, in its order."""
    out = []
    for stmt in init.body:
        name = is_attribute_store(stmt)
        if name is not None:
            out.append((name, True))
        elif isinstance(stmt, ast.If):
            for inner in stmt.body:
                name = is_attribute_store(inner)
                if name is not None:
                    out.append((name, False))
    return out


def op_classes(path):
    """op name -> [(attribute, required)] of the OpView classes in `path`."""
    tree = ast.parse(open(path).read())
    ops = {}
    for cls in tree.body:
        if not isinstance(cls, ast.ClassDef):
            continue
        bases = [ast.unparse(b) for b in cls.bases]
        if not any(b.endswith("OpView") for b in bases):
            continue
        name = None
        init = None
        for item in cls.body:
            if (
                isinstance(item, ast.Assign)
                and len(item.targets) == 1
                and isinstance(item.targets[0], ast.Name)
                and item.targets[0].id == "OPERATION_NAME"
                and isinstance(item.value, ast.Constant)
            ):
                name = item.value.value
            if isinstance(item, ast.FunctionDef) and item.name == "__init__":
                init = item
        if name and init is not None:
            ops[name] = builder_attributes(init)
    return ops


def main():
    args = sys.argv[1:]
    base_path = BASE
    probed_path = None
    while args[:1] in (["--base"], ["--probed"]):
        if args[0] == "--base":
            base_path = args[1]
        else:
            probed_path = args[1]
        args = args[2:]
    release, dialects_dir, out = args
    base = json.load(open(base_path))
    by_name = {o["name"]: o for o in base["ops"]}
    classes = {}
    for f in sorted(os.listdir(dialects_dir)):
        if f.startswith("_") and f.endswith("_ops_gen.py"):
            classes.update(op_classes(os.path.join(dialects_dir, f)))
    # Attributes the tool keeps in the properties of ops its wheel has no
    # classes for, each checked against the tool by probe.py: added to the
    # op's attributes (its class's, else MLIR 22's).
    if probed_path:
        for name, entry in json.load(open(probed_path))["ops"].items():
            op = by_name.get(name)
            if op is None:
                sys.exit(f"{probed_path}: no op {name} in {base_path}")
            known = dict(classes.get(name) or [
                (f["name"], f["kind"] == "attr") for f in op["v6"] if f["kind"] in ("attr", "opt_attr")
            ])
            known.update(entry["attrs"])
            classes[name] = sorted(known.items())
    changed = {}
    for name, attrs in sorted(classes.items()):
        op = by_name.get(name)
        if op is None:
            continue
        ours = {f["name"]: f for f in op["v6"] if f["kind"] in ("attr", "opt_attr")}
        natives = [f for f in op["v6"] if f["kind"] not in ("attr", "opt_attr")]
        theirs = dict(attrs)
        if set(ours) == set(theirs):
            continue
        fields = []
        for a in sorted(theirs):
            if a in ours:
                fields.append(ours[a])
            else:
                kind = "attr" if theirs[a] else "opt_attr"
                fields.append({"name": a, "kind": kind, "ctype": "::mlir::Attribute"})
        new = dict(op)
        new["v6"] = fields + natives
        # v5 has the same attributes; its native properties (segment sizes
        # written the older way) keep their places before or after them.
        v5 = op["v5"]
        attr_at = [i for i, f in enumerate(v5) if f["kind"] in ("attr", "opt_attr")]
        first = attr_at[0] if attr_at else len([f for f in v5 if f["kind"] in ("legacy_segments",)])
        before = [f for f in v5[:first] if f["kind"] not in ("attr", "opt_attr")]
        after = [f for f in v5[first:] if f["kind"] not in ("attr", "opt_attr")]
        new["v5"] = before + fields + after
        # Before v5 the attributes sit in the dictionary; only native
        # properties are in the payload, and they did not change.
        new["attr_names"] = [f["name"] for f in fields] + [
            n for n in op["attr_names"] if n not in ours and n not in theirs
        ]
        new["write_properties"] = bool(new["v6"]) or op["write_properties"]
        by_name[name] = new
        d = name.split(".")[0]
        changed.setdefault(d, []).append(name)
    data = {
        "mlir_release": release,
        "generator": "tools/ods-py/gen.py: "
        + (base.get("mlir_release", "") if base_path != BASE else "MLIR 22")
        + "'s layouts, with the attributes of the Python op classes of "
        + os.path.relpath(dialects_dir, os.path.dirname(dialects_dir) + "/../.."),
        "ops": [by_name[n] for n in sorted(by_name)],
    }
    with open(out, "w") as f:
        json.dump(data, f, indent=None, separators=(",", ":"))
        f.write("\n")
    for d in sorted(changed):
        print(f"{d}: {len(changed[d])} ops changed: {' '.join(changed[d][:8])}{' …' if len(changed[d]) > 8 else ''}")


if __name__ == "__main__":
    main()
