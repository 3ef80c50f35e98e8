#!/usr/bin/env python3
"""Generates the tables behind format/src/dialect_encodings/ (read by
reader/src/bytecode/dialect_encodings/, written by writer/src/bytecode/dialect_entries.rs).

MLIR 22 ships declarative bytecode encodings (BytecodeDialectGen output) for
the llvm, quant and tosa dialects as `*DialectBytecode.cpp.inc` files next to
the dialects' ODS `.td` files. This script turns them into Rust data:

* per dialect and attribute/type kind code: the sequence of reads
  (`readVarInt`, `readAttribute`, `readList`, ...) and which read feeds which
  constructor argument (from the `.cpp.inc`);
* for the llvm attributes: mnemonic, parameter list (names, C++ types,
  optional or not) and assembly format (from `LLVMAttrDefs.td`);
* the llvm enums printed as keywords (`DIFlags`, `DIEmissionKind`, ...) with
  their stringify rules (from `LLVMOpsEnums.{h,cpp}.inc`);
* the DWARF names `llvm::dwarf::*String` prints (tags, languages, attribute
  encodings, calling conventions, operations). LLVM's `Dwarf.def` is not
  installed with libmlir-22-dev, so these are asked of mlir-opt itself: the
  script writes bytecode holding every value (by patching the fields of
  entries mlir-opt wrote) and reads back how mlir-opt prints them. The answers
  are cached in format/data/llvm-dwarf-names.tsv; `--refresh-dwarf` asks
  again.

Usage: python3 tools/dialect-encodings/gen.py [--refresh-dwarf]
Writes dialects/src/upstream_encodings.rs (the tables the llvm, quant and tosa hooks
of rmlir-dialects declare; the bytecode reader and writer interpret them).
"""

import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
INC = "/usr/lib/llvm-22/include/mlir"
MLIR_OPT = os.environ.get("RMLIR_MLIR_OPT", "/usr/lib/llvm-22/bin/mlir-opt")
OUT = os.path.join(ROOT, "dialects/src/upstream_encodings.rs")
DWARF_CACHE = os.path.join(ROOT, "format/data/llvm-dwarf-names.tsv")
STRIPPED_OUT = os.path.join(ROOT, "dialects/data/stripped-params.tsv")
# Dialects whose ODS types print a nested attribute of their own dialect
# stripped as a positional parameter (`$encoding` right after `<` in a
# declarative assembly format): (dialect, types .td, attributes .td).
POSITIONAL_TDS = [
    (
        "sparse_tensor",
        INC + "/Dialect/SparseTensor/IR/SparseTensorTypes.td",
        INC + "/Dialect/SparseTensor/IR/SparseTensorAttrDefs.td",
    ),
]

DIALECT_INCS = [
    ("llvm", INC + "/Dialect/LLVMIR/LLVMDialectBytecode.cpp.inc"),
    ("quant", INC + "/Dialect/Quant/IR/QuantDialectBytecode.cpp.inc"),
    ("tosa", INC + "/Dialect/Tosa/IR/TosaDialectBytecode.cpp.inc"),
]
LLVM_TD = INC + "/Dialect/LLVMIR/LLVMAttrDefs.td"
LLVM_ENUMS_H = INC + "/Dialect/LLVMIR/LLVMOpsEnums.h.inc"
LLVM_ENUMS_CPP = INC + "/Dialect/LLVMIR/LLVMOpsEnums.cpp.inc"


def fail(msg):
    sys.exit("gen.py: " + msg)


# --------------------------------------------------------------------------
# *DialectBytecode.cpp.inc: read sequences
# --------------------------------------------------------------------------

# (regex over the read condition, read kind, group holding the variable)
READ_PATTERNS = [
    (r"reader\.readVarInt\((\w+)\)", "VarInt"),
    (r"reader\.readSignedVarInt\((\w+)\)", "SignedVarInt"),
    (r"reader\.readString\((\w+)\)", "Str"),
    (r"reader\.readBool\((\w+)\)", "Bool"),
    (r"reader\.readAttribute\((\w+)\)", "Attr"),
    (r"reader\.readOptionalAttribute\((\w+)\)", "OptAttr"),
    (r"reader\.readType\((\w+)\)", "Type"),
    (r"readOptionalInt\(reader, (\w+)\)", "OptInt"),
    (r"readOptionalArrayRef<(?:\w+)>\(reader, (\w+)\)", "OptArray"),
    (r"readDoubleAPFloat\(reader, (\w+)\)", "F64"),
    (r"reader\.readList\((\w+), (\w+)\)", "List"),
]


def block_after(text, start):
    """The text of the brace block opening at or after `start`."""
    i = text.index("{", start)
    depth = 0
    for j in range(i, len(text)):
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                return text[i + 1 : j]
    fail("unbalanced braces")


def balanced(text, i):
    """Index just past the parenthesis group opening at text[i]."""
    depth = 0
    for j in range(i, len(text)):
        if text[j] == "(":
            depth += 1
        elif text[j] == ")":
            depth -= 1
            if depth == 0:
                return j + 1
    fail("unbalanced parentheses")


def parse_read_fn(body, fn):
    """Steps and constructor arguments of one generated `readX` function."""
    lambdas = {}
    for m in list(re.finditer(r"auto (\w+) = \[&\]\(\) -> FailureOr<([\w:]+)> \{", body)):
        lb = block_after(body, m.start())
        kinds = [k for pat, k in READ_PATTERNS if re.search(pat, lb)]
        if len(kinds) != 1:
            fail(f"{fn}: cannot classify list element reader {m.group(1)}")
        lambdas[m.group(1)] = kinds[0]
    # Drop the list element readers so that the condition found is the
    # function's own.
    for name in lambdas:
        m = re.search(r"auto %s = \[&\]" % name, body)
        lb = block_after(body, m.start())
        body = body.replace(lb, "")
    cond = re.search(r"if \((succeeded\(.*?)\) \{\n\s*return", body, re.S)
    if not cond:
        fail(f"{fn}: no read condition")
    cond = cond.group(1)
    found = []
    for pat, kind in READ_PATTERNS:
        for m in re.finditer(pat, cond):
            if kind == "List":
                elem = lambdas.get(m.group(2))
                if elem is None:
                    fail(f"{fn}: unknown list reader {m.group(2)}")
                found.append((m.start(), m.group(1), "List" + elem))
            elif kind == "OptArray":
                elem_ty = re.match(r"readOptionalArrayRef<(\w+)>", cond[m.start() :]).group(1)
                integral = elem_ty in ("uint64_t", "int64_t", "unsigned")
                found.append((m.start(), m.group(1), "OptArrayInt" if integral else "OptArrayAttr"))
            else:
                found.append((m.start(), m.group(1), kind))
    found.sort()
    # Every read in the condition must have been recognised.
    calls = len(re.findall(r"succeeded\(", cond))
    if calls != len(found):
        fail(f"{fn}: {calls} reads but {len(found)} recognised")
    steps = [(var, kind) for _, var, kind in found]
    aliases = dict(
        (m.group(1), m.group(2)) for m in re.finditer(r"\(\((\w+) = \([\w:]+\)(\w+)\), true\)", cond)
    )
    ret = re.search(r"return\s+(?:get<(\w+)>|(\w+)::get)\(", body)
    if not ret:
        fail(f"{fn}: no constructor call")
    cls = ret.group(1) or ret.group(2)
    inner = body[ret.end() : balanced(body, ret.end() - 1) - 1]
    args = split_top(inner)
    if args[0] != "context":
        fail(f"{fn}: constructor call without context")
    return cls, steps, aliases, args[1:]


def parse_bytecode_inc(path):
    text = open(path).read()
    fns = {}
    for m in re.finditer(r"static ::mlir::(Attribute|Type) (read\w+)\(MLIRContext\* context, DialectBytecodeReader &reader\) \{", text):
        fns[m.group(2)] = (m.group(1), block_after(text, m.start()))
    out = {"Attribute": [], "Type": []}
    for what in ("Attribute", "Type"):
        disp = re.search(r"static %s read%s\(MLIRContext\* context, DialectBytecodeReader &reader\) \{" % (what, what), text)
        if not disp:
            fail(f"{path}: no read{what} dispatcher")
        body = block_after(text, disp.start())
        for m in re.finditer(r"case (\d+):\s*return (read\w+)\(context, reader\);", body):
            code, fn = int(m.group(1)), m.group(2)
            if fn not in fns:
                fail(f"{path}: no function {fn}")
            cls, steps, aliases, args = parse_read_fn(fns[fn][1], fn)
            out[what].append({"code": code, "fn": fn, "class": cls, "steps": steps, "aliases": aliases, "args": args})
    return out


# --------------------------------------------------------------------------
# LLVMAttrDefs.td: parameters and formats
# --------------------------------------------------------------------------


def split_top(s, sep=","):
    parts, depth, cur, instr = [], 0, "", False
    for c in s:
        if c == '"':
            instr = not instr
        if not instr:
            if c in "<([":
                depth += 1
            elif c in ">)]":
                depth -= 1
        if c == sep and depth == 0 and not instr:
            parts.append(cur)
            cur = ""
        else:
            cur += c
    if cur.strip():
        parts.append(cur)
    return [p.strip() for p in parts]


def strip_comments(s):
    return re.sub(r"//[^\n]*", "", s)


def parse_llvm_td():
    text = strip_comments(open(LLVM_TD).read())
    defs = {}
    starts = [m for m in re.finditer(r"^def (\w+)\s*:\s*LLVM_Attr<\s*\"(\w+)\",\s*\"(\w+)\"", text, re.M)]
    for i, m in enumerate(starts):
        end = starts[i + 1].start() if i + 1 < len(starts) else len(text)
        body = text[m.start() : end]
        cls = m.group(2) + "Attr"
        params = []
        pm = re.search(r"let parameters = \(ins(.*?)\);", body, re.S)
        if pm:
            for p in split_top(pm.group(1)):
                ty, name = p.rsplit(":$", 1)
                params.append((name.strip(), ty.strip()))
        fm = re.search(r"let assemblyFormat = (?:\"(.*?)\"|\[\{(.*?)\}\]);", body, re.S)
        fmt = None
        if fm:
            fmt = " ".join((fm.group(1) or fm.group(2)).split())
        defs[cls] = {"mnemonic": m.group(3), "params": params, "format": fmt}
    return defs


DWARF_PARAMS = {
    "LLVM_DITagParameter": "Tag",
    "LLVM_DILanguageParameter": "Lang",
    "LLVM_DIEncodingParameter": "Ate",
    "LLVM_DICallingConventionParameter": "Cc",
    "LLVM_DIOperationEncodingParameter": "Op",
}
ENUMS = ["DIFlags", "DISubprogramFlags", "DIEmissionKind", "DINameTableKind"]
INTERFACES = ["DINodeAttr", "DIScopeAttr", "DILocalScopeAttr", "DITypeAttr", "DIVariableAttr"]
BUILTIN_ATTRS = {
    "StringAttr": "StrAttr",
    "BoolAttr": "BoolAttr",
    "IntegerAttr": "IntAttr",
    "DistinctAttr": "Distinct",
    "FusedLoc": "FusedLoc",
    "::mlir::Attribute": "AnyAttr",
}


def classify_cpp(cpp, defs):
    """Rust `ParamTy` expression of a C++ parameter type."""
    if cpp in ("unsigned", "uint32_t"):
        return "ParamTy::U32"
    if cpp == "uint64_t":
        return "ParamTy::U64"
    if cpp == "bool":
        return "ParamTy::Bool"
    if cpp == "std::optional<unsigned>":
        return "ParamTy::OptU32"
    if cpp in ENUMS:
        return f"ParamTy::Enum(&{rust_const(cpp)})"
    if cpp in BUILTIN_ATTRS:
        return "ParamTy::" + BUILTIN_ATTRS[cpp]
    if cpp in INTERFACES:
        return "ParamTy::LlvmAttr"
    if cpp in defs:
        return f'ParamTy::Stripped("{defs[cpp]["mnemonic"]}")'
    fail(f"unknown parameter type {cpp}")


def classify_param(ty, defs):
    """(ParamTy expression, optional) of an ODS parameter declaration."""
    if ty in DWARF_PARAMS:
        # LLVM_DIParameter always has a default value, so it is optional.
        return f"ParamTy::Dwarf(DW_{DWARF_PARAMS[ty].upper()})", True
    m = re.fullmatch(r'OptionalParameter<"([^"]+)"(?:,\s*"[^"]*")?>', ty)
    if m:
        return classify_cpp(m.group(1), defs), True
    m = re.fullmatch(r'OptionalArrayRefParameter<"([^"]+)">', ty)
    if m:
        inner = m.group(1)
        if inner == "uint64_t":
            return "ParamTy::U64Array", True
        return f"ParamTy::Array(&{classify_cpp(inner, defs)})", True
    m = re.fullmatch(r'"([^"]+)"', ty)
    if m:
        return classify_cpp(m.group(1), defs), False
    fail(f"unknown parameter declaration {ty}")


FORMATS = {
    "`<` struct(params) `>`": "Format::Struct",
    None: "Format::Bare",
    "`<` $name `in` $directory `>`": "Format::DiFile",
    "`<` ( `[` $operations^ `]` ) : (``)? `>`": "Format::DiExpression",
    "`` $opcode ( `(` custom<ExpressionArg>(ref($opcode), $arguments)^ `)` ) : (``)?": "Format::DiExpressionElem",
}


def rust_const(name):
    s = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name)
    return re.sub(r"(?<=[A-Z])(?=[A-Z][a-z])", "_", s).upper()


# --------------------------------------------------------------------------
# LLVMOpsEnums: stringify rules
# --------------------------------------------------------------------------


def parse_enums():
    h = open(LLVM_ENUMS_H).read()
    cpp = open(LLVM_ENUMS_CPP).read()
    out = {}
    for name in ENUMS:
        em = re.search(r"enum class %s : uint(\d+)_t \{(.*?)\};" % name, h, re.S)
        bits, decl = int(em.group(1)), em.group(2)
        values = {}
        for m in re.finditer(r"(\w+) = (\d+),", decl):
            values.setdefault(m.group(1), int(m.group(2)))
        fn = re.search(r"stringify%s\(%s (?:symbol|val)\) \{" % (name, name), cpp)
        body = block_after(cpp, fn.start())
        if "strs.push_back" in body:
            zero = re.search(r'if \(val == 0\) return "(\w+)";', body)
            steps = []
            for m in re.finditer(r'if \((\d+)u == \(\1u & val\)\)( \{)?\s*strs\.push_back\("(\w+)"\);', body):
                steps.append((int(m.group(1)), m.group(3), bool(m.group(2))))
            op = re.search(r"operator<<\(::llvm::raw_ostream &p, ::mlir::LLVM::%s value\) \{(.*?)\n\}" % name, h, re.S).group(1)
            unquoted = [values[c] for c in re.findall(r"case ::mlir::LLVM::%s::(\w+):" % name, op)]
            out[name] = ("bit", bits, zero.group(1) if zero else "", steps, unquoted)
        else:
            cases = []
            for m in re.finditer(r'case %s::(\w+): return "(\w+)";' % name, body):
                cases.append((values[m.group(1)], m.group(2)))
            out[name] = ("plain", bits, cases)
    return out


# --------------------------------------------------------------------------
# DWARF names from mlir-opt
# --------------------------------------------------------------------------


def enc_varint(v):
    for n in range(1, 9):
        if v < (1 << (7 * n)):
            x = ((v << 1) | 1) << (n - 1)
            return x.to_bytes(n, "little")
    return b"\x00" + v.to_bytes(8, "little")


class R:
    def __init__(self, data, pos=0, end=None):
        self.d, self.p, self.end = data, pos, len(data) if end is None else end

    def byte(self):
        b = self.d[self.p]
        self.p += 1
        return b

    def varint(self):
        first = self.d[self.p]
        if first == 0:
            v = int.from_bytes(self.d[self.p + 1 : self.p + 9], "little")
            self.p += 9
            return v
        n = (first & -first).bit_length()
        v = int.from_bytes(self.d[self.p : self.p + n], "little") >> n
        self.p += n
        return v


def split_sections(data):
    r = R(data)
    assert data[:4] == b"ML\xefR"
    r.p = 4
    r.varint()
    r.p = data.index(b"\x00", r.p) + 1
    head = data[: r.p]
    sections = []
    while r.p < len(data):
        b = r.byte()
        length = r.varint()
        align = 1
        if b & 0x80:
            align = r.varint()
            while r.p % align:
                r.p += 1
        sections.append([b & 0x7F, align, data[r.p : r.p + length]])
        r.p += length
    return head, sections


def join_sections(head, sections):
    out = bytearray(head)
    for sid, align, body in sections:
        hdr = enc_varint(len(body))
        if align > 1 and (len(out) + 1 + len(hdr)) % align:
            out += bytes([sid | 0x80]) + hdr + enc_varint(align)
            while len(out) % align:
                out.append(0xCB)
        else:
            out += bytes([sid]) + hdr
        out += body
    return bytes(out)


class Bytecode:
    """Just enough of a bytecode file to rewrite attribute entries."""

    def __init__(self, data):
        self.head, self.sections = split_sections(data)
        sec = {s[0]: s for s in self.sections}
        r = R(sec[0][2])
        n = r.varint()
        sizes = [r.varint() for _ in range(n)][::-1]
        self.strings, p = [], r.p
        for s in sizes:
            self.strings.append(sec[0][2][p : p + s - 1])
            p += s
        r = R(sec[1][2])
        self.dialects = []
        for _ in range(r.varint()):
            v = r.varint()
            if v & 1:
                fail("dialect versions are not expected in the oracle files")
            self.dialects.append(self.strings[v >> 1])
        r = R(sec[3][2])
        nattrs, ntypes = r.varint(), r.varint()
        self.groups = []
        body, off = sec[2][2], 0
        self.attrs = []
        for which, total in ((0, nattrs), (1, ntypes)):
            seen = 0
            while seen < total:
                d, count = r.varint(), r.varint()
                entries = []
                for _ in range(count):
                    v = r.varint()
                    entries.append([v & 1, body[off : off + (v >> 1)]])
                    off += v >> 1
                self.groups.append([which, d, entries])
                if which == 0:
                    self.attrs += [(self.dialects[d], e) for e in entries]
                seen += count
        self.nattrs, self.ntypes = nattrs, ntypes

    def serialize(self):
        off = bytearray(enc_varint(self.nattrs) + enc_varint(self.ntypes))
        body = bytearray()
        for _, d, entries in self.groups:
            off += enc_varint(d) + enc_varint(len(entries))
            for custom, data in entries:
                off += enc_varint((len(data) << 1) | custom)
                body += data
        for s in self.sections:
            if s[0] == 2:
                s[2] = bytes(body)
            if s[0] == 3:
                s[2] = bytes(off)
        return join_sections(self.head, self.sections)

    def builtin_string(self, idx):
        d, (custom, data) = self.attrs[idx]
        r = R(data)
        if d != b"builtin" or not custom or r.varint() != 2:
            return None
        return self.strings[r.varint()]

    def dict_values(self):
        """key -> attribute index over every builtin dictionary entry."""
        out = {}
        for d, (custom, data) in self.attrs:
            r = R(data)
            if d == b"builtin" and custom and r.varint() == 1:
                for _ in range(r.varint()):
                    k, v = r.varint(), r.varint()
                    key = self.builtin_string(k)
                    if key is not None:
                        out[key.decode()] = v
        return out


def field_spans(data, steps):
    """(start, end) of each step's bytes in a custom llvm entry."""
    r = R(data)
    r.varint()  # kind code
    spans = {}
    for var, kind in steps:
        start = r.p
        if kind in ("VarInt", "SignedVarInt", "Str", "Attr", "OptAttr", "Type"):
            r.varint()
        elif kind == "Bool":
            r.byte()
        elif kind == "OptInt":
            if r.byte():
                r.varint()
        elif kind in ("OptArrayAttr", "OptArrayInt"):
            if r.byte():
                for _ in range(r.varint()):
                    r.varint()
        else:
            fail("unexpected read kind in oracle entry " + kind)
        spans[var] = (start, r.p)
    return spans


# What each DWARF table names, for the doc comment of its Rust table.
DWARF_WHAT = {
    "Tag": "tags (`DW_TAG_*`)",
    "Ate": "attribute encodings (`DW_ATE_*`)",
    "Lang": "source languages (`DW_LANG_*`)",
    "Cc": "calling conventions (`DW_CC_*`)",
    "Op": "expression operations (`DW_OP_*`)",
}
DWARF_PROBES = {
    # table: (kind class, field, template(i), values, output regex(i))
    "Tag": (
        "DIBasicTypeAttr",
        "tag",
        lambda i: f'#llvm.di_basic_type<tag = DW_TAG_base_type, name = "u{i}">',
        list(range(1, 0x10000)),
        r"#llvm\.di_basic_type<tag = ([^,]*), name",
    ),
    "Ate": (
        "DIBasicTypeAttr",
        "encoding",
        lambda i: f'#llvm.di_basic_type<tag = DW_TAG_base_type, name = "u{i}", encoding = DW_ATE_signed>',
        list(range(1, 0x100)),
        r"encoding = ([^,>]*)>",
    ),
    "Lang": (
        "DICompileUnitAttr",
        "sourceLanguage",
        lambda i: f'#llvm.di_compile_unit<id = distinct[{i}]<>, sourceLanguage = DW_LANG_C, file = #llvm.di_file<"f" in "d">, isOptimized = false, emissionKind = None>',
        list(range(1, 0x10000)),
        r"sourceLanguage = ([^,]*), file",
    ),
    "Cc": (
        "DISubroutineTypeAttr",
        "callingConvention",
        lambda i: f'#llvm.di_subroutine_type<callingConvention = DW_CC_normal, types = #llvm.di_basic_type<tag = DW_TAG_base_type, name = "u{i}">>',
        list(range(1, 0x100)),
        r"callingConvention = ([^,]*), types",
    ),
    "Op": (
        "DIExpressionElemAttr",
        "opcode",
        lambda i: f"#llvm.di_expression<[DW_OP_constu({i})]>",
        list(range(0, 0x100)) + list(range(0x1000, 0x1100)),
        r"#llvm\.di_expression<\[([^(\]]*)\(",
    ),
}


def probe_dwarf(table, llvm_kinds):
    cls, field, template, values, out_re = DWARF_PROBES[table]
    kind = next(k for k in llvm_kinds if k["class"] == cls)
    steps = kind["steps"]
    text = "module attributes {\n" + ",\n".join(f"  t.v{i} = {template(i)}" for i in range(len(values))) + "\n} {}\n"
    with tempfile.TemporaryDirectory() as tmp:
        src, bc = os.path.join(tmp, "t.mlir"), os.path.join(tmp, "t.mlirbc")
        open(src, "w").write(text)
        subprocess.run([MLIR_OPT, "--allow-unregistered-dialect", "--emit-bytecode", src, "-o", bc], check=True)
        b = Bytecode(open(bc, "rb").read())
        keys = b.dict_values()
        patched = 0
        for i, v in enumerate(values):
            idx = keys[f"t.v{i}"]
            if cls == "DIExpressionElemAttr":
                # The dictionary holds the di_expression; follow its list.
                _, (_, data) = b.attrs[idx]
                r = R(data)
                r.varint()
                r.byte()
                r.varint()
                idx = r.varint() >> 1
            dname, entry = b.attrs[idx]
            code = R(entry[1]).varint()
            if dname != b"llvm" or not entry[0] or code != kind["code"]:
                fail(f"probe {table}: entry {idx} is not a custom {cls}")
            s, e = field_spans(entry[1], steps)[field]
            entry[1] = entry[1][:s] + enc_varint(v) + entry[1][e:]
            patched += 1
        open(bc, "wb").write(b.serialize())
        res = subprocess.run(
            [MLIR_OPT, "--allow-unregistered-dialect", "--mlir-print-local-scope", bc],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    names = {}
    for line in res.splitlines():
        for m in re.finditer(r"t\.v(\d+) = (#llvm\.[^\n]*?)(?=, t\.v\d+ = |\}|$)", line):
            i = int(m.group(1))
            mm = re.search(out_re, m.group(2))
            if not mm:
                fail(f"probe {table}: cannot read {m.group(2)[:120]}")
            if mm.group(1):
                names[values[i]] = mm.group(1)
    if patched != len(values):
        fail(f"probe {table}: patched {patched} of {len(values)}")
    return names


def dwarf_tables(llvm_kinds, refresh):
    if refresh or not os.path.exists(DWARF_CACHE):
        rows = []
        for table in DWARF_PROBES:
            names = probe_dwarf(table, llvm_kinds)
            print(f"gen.py: {table}: {len(names)} names", file=sys.stderr)
            rows += [(table, v, n) for v, n in sorted(names.items())]
        with open(DWARF_CACHE, "w") as f:
            f.write("# DWARF names printed by mlir-opt 22 (llvm::dwarf::*String), asked of mlir-opt by\n")
            f.write("# tools/dialect-encodings/gen.py --refresh-dwarf. Columns: table, value, name.\n")
            for t, v, n in rows:
                f.write(f"{t}\t{v}\t{n}\n")
    tables = {t: [] for t in DWARF_PROBES}
    for line in open(DWARF_CACHE):
        if line.startswith("#") or not line.strip():
            continue
        t, v, n = line.rstrip("\n").split("\t")
        tables[t].append((int(v), n))
    return tables


# --------------------------------------------------------------------------
# Rust output
# --------------------------------------------------------------------------


def rs_str(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def emit(kinds_by_dialect, defs, enums, dwarf):
    o = []
    w = o.append
    w("// @generated by tools/dialect-encodings/gen.py from libmlir-22-dev's")
    w("// *DialectBytecode.cpp.inc, LLVMAttrDefs.td and LLVMOpsEnums.*.inc, and the")
    w("// DWARF names in format/data/llvm-dwarf-names.tsv. Do not edit.")
    w("")
    w("use rmlir_format::dialect_encodings::spec::*;")
    w("")
    w("/// The dialects with declarative bytecode encodings in MLIR 22.")
    w("pub static DIALECTS: &[DialectSpec] = &[")
    for dialect, kinds in kinds_by_dialect:
        w("    DialectSpec {")
        w(f"        name: {rs_str(dialect)},")
        for what, field in (("Attribute", "attrs"), ("Type", "types")):
            w(f"        {field}: &[")
            for k in kinds[what]:
                w("            KindSpec {")
                w(f"                code: {k['code']},")
                w(f"                class: {rs_str(k['class'])},")
                w("                steps: &[")
                for var, kind in k["steps"]:
                    w(f"                    Step {{ name: {rs_str(var)}, read: Read::{kind} }},")
                w("                ],")
                w("            },")
            w("        ],")
        w("    },")
    w("];")
    w("")
    llvm = dict(kinds_by_dialect)["llvm"]["Attribute"]
    w("/// How each custom-encoded llvm attribute prints: its ODS parameters in")
    w("/// order, and for each the read step that supplies it (`None`: the")
    w("/// encoding does not carry it, so it keeps its default).")
    w("pub static LLVM_ATTRS: &[AttrSpec] = &[")
    for k in llvm:
        d = defs.get(k["class"])
        if d is None:
            fail(f"no ODS definition for {k['class']}")
        fmt = FORMATS.get(d["format"])
        if fmt is None:
            fail(f"{k['class']}: unsupported assembly format {d['format']!r}")
        step_of = {}
        for i, (var, _) in enumerate(k["steps"]):
            step_of[var] = i
        for alias, raw in k["aliases"].items():
            step_of[alias] = step_of[raw]
        if len(k["args"]) > len(d["params"]):
            fail(f"{k['class']}: more constructor arguments than parameters")
        w("    AttrSpec {")
        w(f"        code: {k['code']},")
        w(f"        mnemonic: {rs_str(d['mnemonic'])},")
        w(f"        format: {fmt},")
        w("        params: &[")
        for pi, (pname, pty) in enumerate(d["params"]):
            ty, optional = classify_param(pty, defs)
            src = "None"
            if pi < len(k["args"]):
                arg = k["args"][pi]
                if arg not in ("nullptr", pname):
                    fail(f"{k['class']}: constructor argument {pi} is {arg}, parameter is {pname}")
                if arg != "nullptr":
                    if arg not in step_of:
                        fail(f"{k['class']}: argument {arg} is not read")
                    src = f"Some({step_of[arg]})"
            w(f"            Param {{ name: {rs_str(pname)}, ty: {ty}, optional: {str(optional).lower()}, step: {src} }},")
        w("        ],")
        w("    },")
    w("];")
    w("")
    for name, e in enums.items():
        const = rust_const(name)
        w(f"/// The llvm dialect's `{name}` enum as mlir-opt 22 prints it (from")
        w("/// `LLVMOpsEnums.*.inc`).")
        if e[0] == "bit":
            _, bits, zero, steps, unquoted = e
            w(f"pub static {const}: EnumSpec = EnumSpec::Bits {{")
            w(f"    bits: {bits},")
            w(f"    zero: {rs_str(zero)},")
            w("    steps: &[")
            for mask, n, clears in steps:
                w(f"        ({mask}, {rs_str(n)}, {str(clears).lower()}),")
            w("    ],")
            w(f"    unquoted: &{unquoted!r},")
            w("};")
        else:
            w(f"pub static {const}: EnumSpec = EnumSpec::Plain {{")
            w(f"    bits: {e[1]},")
            w("    names: &[")
            for v, n in e[2]:
                w(f"        ({v}, {rs_str(n)}),")
            w("    ],")
            w("};")
        w("")
    for t, rows in dwarf.items():
        w(f"/// The names mlir-opt 22 prints for DWARF {DWARF_WHAT[t]},")
        w("/// by value (`format/data/llvm-dwarf-names.tsv`).")
        w(f"pub static DW_{t.upper()}: &[(u32, &str)] = &[")
        for v, n in sorted(rows):
            w(f"    (0x{v:x}, {rs_str(n)}),")
        w("];")
        w("")
    return "\n".join(o)


def stripped_params(defs):
    """Rows (attribute, parameter, nested attribute, list?) for every llvm
    attribute parameter that mlir-opt prints stripped (`<...>`), because its
    C++ type is a specific llvm attribute class."""
    text = strip_comments(open(LLVM_TD).read())
    named = dict(
        (m.group(1), m.group(2))
        for m in re.finditer(r"^def (\w+)\s*:\s*(?:Optional)?ArrayRefParameter<\"(\w+)\">", text, re.M)
    )
    rows = []
    for cls, d in sorted(defs.items(), key=lambda kv: kv[1]["mnemonic"]):
        for pname, ty in d["params"]:
            m = re.fullmatch(r'(Optional|DefaultValued)?(ArrayRef)?Parameter<"([^"]+)"(?:,.*)?>', ty)
            inner, is_list = None, False
            if m:
                inner, is_list = m.group(3), bool(m.group(2))
            elif re.fullmatch(r'"([^"]+)"', ty):
                inner = ty.strip('"')
            elif ty in named:
                inner, is_list = named[ty], True
            if inner in defs:
                rows.append((d["mnemonic"], pname, defs[inner]["mnemonic"], "list" if is_list else "single"))
    return rows


def positional_stripped():
    """Rows (dialect, mnemonic, "#0", nested mnemonic, "single") for ODS
    types whose assembly format starts with `<` and a parameter whose type
    is an attribute definition of the same dialect: ODS prints it with
    `printStrippedAttrOrType` (not `qualified(...)`), so `<{...}>`."""
    rows = []
    for dialect, types_td, attrs_td in POSITIONAL_TDS:
        attrs = strip_comments(open(attrs_td).read())
        attr_mnemonics = {}
        starts = list(re.finditer(r"^def (\w+)\s*:", attrs, re.M))
        for i, m in enumerate(starts):
            end = starts[i + 1].start() if i + 1 < len(starts) else len(attrs)
            mm = re.search(r'let mnemonic = "(\w+)";', attrs[m.start() : end])
            if mm:
                attr_mnemonics[m.group(1)] = mm.group(1)
        types = strip_comments(open(types_td).read())
        starts = list(re.finditer(r"^def (\w+)\s*:", types, re.M))
        for i, m in enumerate(starts):
            end = starts[i + 1].start() if i + 1 < len(starts) else len(types)
            body = types[m.start() : end]
            mn = re.search(r'let mnemonic = "(\w+)";', body)
            fmt = re.search(r'let assemblyFormat\s*=\s*"(.*?)";', body, re.S)
            pm = re.search(r"let parameters = \(ins(.*?)\);", body, re.S)
            if not (mn and fmt and pm):
                continue
            params = {}
            for p in split_top(pm.group(1)):
                ty, name = p.rsplit(":", 1)
                params[name.strip().lstrip("$")] = ty.strip().strip('"')
            first = re.match(r"\s*`<`\s*\$(\w+)", fmt.group(1))
            if first and params.get(first.group(1)) in attr_mnemonics:
                rows.append((dialect, mn.group(1), "#0", attr_mnemonics[params[first.group(1)]], "single"))
    return rows


def main():
    refresh = "--refresh-dwarf" in sys.argv[1:]
    kinds_by_dialect = [(d, parse_bytecode_inc(p)) for d, p in DIALECT_INCS]
    defs = parse_llvm_td()
    enums = parse_enums()
    dwarf = dwarf_tables(dict(kinds_by_dialect)["llvm"]["Attribute"], refresh)
    text = emit(kinds_by_dialect, defs, enums, dwarf)
    text += (
        "\n/// The declared encodings of `dialect`, if MLIR 22 has any.\n"
        "pub fn spec(dialect: &str) -> Option<&'static DialectSpec> {\n"
        "    DIALECTS.iter().find(|d| d.name == dialect)\n"
        "}\n"
    )
    with open(STRIPPED_OUT, "w") as f:
        f.write("# Dialect attribute/type parameters that mlir-opt 22 prints stripped (`file = <...>`\n")
        f.write("# instead of `file = #llvm.di_file<...>`; an alias replaces either form), from\n")
        f.write("# LLVMAttrDefs.td and the POSITIONAL_TDS of tools/dialect-encodings/gen.py.\n")
        f.write("# Columns: dialect, attribute/type mnemonic, parameter (`#N`: the N-th positional\n")
        f.write("# parameter), mnemonic of the nested attribute (same dialect), single or list.\n")
        for row in stripped_params(defs):
            f.write("\t".join(("llvm",) + row) + "\n")
        for row in positional_stripped():
            f.write("\t".join(row) + "\n")
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        f.write(text)
    subprocess.run(["rustfmt", "--edition", "2021", OUT], check=True)
    print(f"gen.py: wrote {os.path.relpath(OUT, ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
