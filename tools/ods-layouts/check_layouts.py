#!/usr/bin/env python3
"""check_layouts.py - verify ods-layouts JSON against real mlir-opt bytecode.

For every case folder (generic.mlir + v6.mlirbc, as in the shared corpus) this
decodes the bytecode far enough to find, for each op, its name and properties
payload; it then decodes every ODS payload with the layout data and checks:

  * the payload is consumed exactly (no leftover bytes, no overrun);
  * every reference is in range, sparse/dense segment arrays obey the reader's
    rules, enums fit their underlying type, attribute references point at
    entries of the expected builtin class where the C++ storage type says so;
  * the set of names present in the payload equals the names of the `<{...}>`
    dictionary mlir-opt printed for that op in generic.mlir, and, where this
    tool can render a value (strings, symbol refs, integers, dense arrays,
    unit, segment sizes, int/enum/unit/optional properties, textual attribute
    entries), the value equals the printed one (local.mlir when present).

Optionally (--v5) it also asks mlir-opt to write each case as bytecode v5
(`--emit-bytecode --emit-bytecode-version=5`, cached under --cache) and checks
the v5 layouts the same way.  --synthetic adds a few inputs of our own for
field kinds the corpus lacks (unit, optional<int>, uint8 enum, result
segments).  Ops of the `test` dialect (not in libmlir-22-dev) are skipped.

Python 3 standard library only; our own decoder (structure per
shared/reference/bytecode-wire-facts.md).
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True
from mlir_text import PAIRS, split_top_level  # noqa: E402

MLIR_OPT = "/usr/lib/llvm-22/bin/mlir-opt"
HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_LAYOUTS = os.path.join(HERE, "..", "..", "format", "data", "ods-layouts-22.json")
DEFAULT_CORPUS = "/work/shared/corpus/cases"


class BcError(Exception):
    pass


# ---------------------------------------------------------------------------
# Bytecode container
# ---------------------------------------------------------------------------

class Reader:
    """Cursor over data[pos:end]; positions are absolute file offsets."""

    def __init__(self, data, pos=0, end=None):
        self.data = data
        self.pos = pos
        self.end = len(data) if end is None else end

    def left(self):
        return self.end - self.pos

    def byte(self):
        if self.pos >= self.end:
            raise BcError("read past end at offset %d" % self.pos)
        b = self.data[self.pos]
        self.pos += 1
        return b

    def take(self, n):
        if self.pos + n > self.end:
            raise BcError("read of %d bytes past end at offset %d" % (n, self.pos))
        b = self.data[self.pos:self.pos + n]
        self.pos += n
        return b

    def varint(self):
        first = self.byte()
        if first & 1:
            return first >> 1
        if first == 0:
            return int.from_bytes(self.take(8), "little")
        extra = (first & -first).bit_length() - 1
        val = int.from_bytes(bytes([first]) + self.take(extra), "little")
        return val >> (extra + 1)

    def vflag(self):
        v = self.varint()
        return v >> 1, v & 1

    def svarint(self):
        u = self.varint()
        return (u >> 1) ^ -(u & 1)

    def cstring(self):
        i = self.data.find(b"\0", self.pos, self.end)
        if i < 0:
            raise BcError("unterminated string")
        s = self.data[self.pos:i]
        self.pos = i + 1
        return s

    def section(self):
        b = self.byte()
        sid = b & 0x7F
        length = self.varint()
        if b & 0x80:
            align = self.varint()
            if align == 0 or align & (align - 1):
                raise BcError("bad alignment %d" % align)
            while self.pos % align:
                if self.byte() != 0xCB:
                    raise BcError("bad padding byte")
        start = self.pos
        if start + length > self.end:
            raise BcError("section %d overruns its parent" % sid)
        self.pos = start + length
        return sid, start, start + length


class Bytecode:
    def __init__(self, data):
        self.data = data
        r = Reader(data)
        if r.take(4) != b"ML\xefR":
            raise BcError("bad magic")
        self.version = r.varint()
        r.cstring()
        sec = {}
        while r.left():
            sid, s, e = r.section()
            if sid in sec:
                raise BcError("duplicate section %d" % sid)
            sec[sid] = (s, e)
        self.sections = sec
        self._strings()
        self._dialects()
        self._attr_types()
        self._properties()
        self.ops = []  # (opname index, properties index or None, mask)
        s, e = sec[4]
        ir = Reader(data, s, e)
        nops, has_args = ir.vflag()
        if has_args:
            raise BcError("top-level block with arguments")
        for _ in range(nops):
            self._op(ir)
        if ir.left():
            raise BcError("trailing bytes in IR section")

    def _strings(self):
        s, e = self.sections[0]
        r = Reader(self.data, s, e)
        n = r.varint()
        sizes = [r.varint() for _ in range(n)]
        end = e
        out = [None] * n
        for i, sz in enumerate(sizes):  # sizes are listed last string first
            out[n - 1 - i] = self.data[end - sz:end - 1]
            end -= sz
        if end != r.pos:
            raise BcError("string table offsets do not meet the data")
        self.strings = out

    def _dialects(self):
        s, e = self.sections[1]
        r = Reader(self.data, s, e)
        nd = r.varint()
        self.dialects = []
        for _ in range(nd):
            if self.version >= 1:
                idx, has_ver = r.vflag()
                if has_ver:
                    sid, _, _ = r.section()
                    if sid != 7:
                        raise BcError("expected dialect version section")
            else:
                idx = r.varint()
            self.dialects.append(self.strings[idx].decode())
        if self.version >= 4:
            r.varint()
        self.opnames = []  # (full name, was registered)
        while r.left():
            d = r.varint()
            cnt = r.varint()
            for _ in range(cnt):
                if self.version >= 5:
                    idx, reg = r.vflag()
                else:
                    idx, reg = r.varint(), None
                suffix = self.strings[idx].decode()
                dn = self.dialects[d]
                self.opnames.append((dn + "." + suffix if suffix else dn, reg))

    def _attr_types(self):
        s, e = self.sections[3]
        r = Reader(self.data, s, e)
        na, nt = r.varint(), r.varint()
        entries = []
        base = self.sections[2][0]
        off = base
        for total in (na, nt):
            got = []
            while len(got) < total:
                d = r.varint()
                cnt = r.varint()
                for _ in range(cnt):
                    size, custom = r.vflag()
                    got.append((self.dialects[d], bool(custom), off, off + size))
                    off += size
            if len(got) != total:
                raise BcError("attr/type group overruns the count")
            entries.append(got)
        if r.left():
            raise BcError("trailing bytes in attr/type offset section")
        self.attrs, self.types = entries

    def _properties(self):
        self.props = []
        if 8 not in self.sections:
            return
        s, e = self.sections[8]
        r = Reader(self.data, s, e)
        n = r.varint()
        for _ in range(n):
            sz = r.varint()
            st = r.pos
            r.take(sz)
            self.props.append((st, st + sz))
        if r.left():
            raise BcError("properties section not exhausted")

    def _uselist_range(self, r, size):
        def entry():
            ln, _pair = r.vflag()
            for _ in range(ln):
                r.varint()
        if size == 1:
            entry()
        else:
            for _ in range(r.varint()):
                r.varint()
                entry()

    def _op(self, r):
        name = r.varint()
        mask = r.byte()
        r.varint()  # location
        if mask & 0x01:
            r.varint()
        pidx = None
        if mask & 0x40:
            pidx = r.varint()
        self.ops.append((name, pidx, mask))
        nres = 0
        if mask & 0x02:
            nres = r.varint()
            for _ in range(nres):
                r.varint()
        if mask & 0x04:
            for _ in range(r.varint()):
                r.varint()
        if mask & 0x08:
            for _ in range(r.varint()):
                r.varint()
        if mask & 0x20 and self.version >= 3:
            self._uselist_range(r, nres)
        if mask & 0x10:
            nreg, isolated = r.vflag()
            if isolated and self.version >= 2:
                sid, s, e = r.section()
                if sid != 4:
                    raise BcError("expected IR section for region")
                sub = Reader(self.data, s, e)
                for _ in range(nreg):
                    self._region(sub)
                if sub.left():
                    raise BcError("trailing bytes in region section")
            else:
                for _ in range(nreg):
                    self._region(r)

    def _region(self, r):
        nblocks = r.varint()
        if nblocks == 0:
            return
        r.varint()  # numValues
        for _ in range(nblocks):
            nops, has_args = r.vflag()
            if has_args:
                nargs = r.varint()
                for _ in range(nargs):
                    if self.version >= 4:
                        _t, has_loc = r.vflag()
                        if has_loc:
                            r.varint()
                    else:
                        r.varint()
                        r.varint()
                if self.version >= 3:
                    if r.byte():
                        self._uselist_range(r, nargs)
            for _ in range(nops):
                self._op(r)

    # -- attribute inspection (builtin subset) ------------------------------
    def attr_info(self, idx):
        """(dialect, custom?, builtin code or None, Reader over the entry)."""
        d, custom, s, e = self.attrs[idx]
        r = Reader(self.data, s, e)
        code = r.varint() if (custom and d == "builtin") else None
        return d, custom, code, r

    def type_text(self, idx, depth=0):
        d, custom, s, e = self.types[idx]
        r = Reader(self.data, s, e)
        if not custom:
            return self.data[s:e - 1].decode("utf-8", "replace")
        if d != "builtin" or depth > 4:
            return None
        code = r.varint()
        if code == 0:
            v = r.varint()
            w, sg = v >> 2, v & 3
            return ("i", "si", "ui")[sg] + str(w) if sg < 3 else None
        simple = {1: "index", 3: "bf16", 4: "f16", 5: "f32", 6: "f64", 7: "f80", 8: "f128",
                  12: "none"}
        return simple.get(code)

    def int_type(self, idx):
        d, custom, s, e = self.types[idx]
        if d != "builtin" or not custom:
            return None
        r = Reader(self.data, s, e)
        code = r.varint()
        if code == 0:
            v = r.varint()
            return v >> 2, v & 3
        if code == 1:
            return 64, -1  # index
        return None

    def render_attr(self, idx):
        """Printed form of attribute #idx where we know how, else None."""
        try:
            return self._render_attr(idx)
        except (BcError, IndexError, UnicodeDecodeError):
            return None

    def _render_attr(self, idx):
        d, custom, code, r = self.attr_info(idx)
        if not custom:
            s, e = self.attrs[idx][2:]
            return self.data[s:e - 1].decode("utf-8", "replace")
        if d != "builtin":
            return None
        if code == 2:
            return quote(self.strings[r.varint()])
        if code == 4:
            root = self.attr_info(r.varint())
            if root[2] != 2:
                return None
            name = self.strings[root[3].varint()]
            return "@" + symbol_name(name)
        if code == 7:
            return "unit"
        if code == 8:
            t = r.varint()
            it = self.int_type(t)
            if it is None:
                return None
            w, sg = it
            if w > 64 or w == 0:
                return None
            raw = r.byte() if w <= 8 else r.svarint() & ((1 << 64) - 1)
            if sg == -1:
                val = to_signed(raw, 64)
                return "%d : index" % val
            if w == 1 and sg == 0:
                return "true" if raw & 1 else "false"
            raw &= (1 << w) - 1
            val = raw if sg == 2 else to_signed(raw, w)
            return "%d : %s" % (val, self.type_text(t))
        if code == 17:
            t = r.varint()
            it = self.int_type(t)
            n = r.varint()
            blob_len = r.varint()
            blob = r.take(blob_len)
            if it is None or it[1] != 0:
                return None
            w = it[0]
            tname = self.type_text(t)
            if n == 0:
                return "array<%s>" % tname
            if w == 1:
                vals = ["true" if b else "false" for b in blob]
            elif w in (8, 16, 32, 64):
                k = w // 8
                vals = [str(int.from_bytes(blob[i * k:(i + 1) * k], "little", signed=True))
                        for i in range(n)]
            else:
                return None
            return "array<%s: %s>" % (tname, ", ".join(vals))
        return None

    def dense_i32_array(self, idx):
        d, custom, code, r = self.attr_info(idx)
        if code != 17:
            return None
        t = r.varint()
        if self.int_type(t) != (32, 0):
            return None
        n = r.varint()
        blob = r.take(r.varint())
        if len(blob) != 4 * n:
            return None
        return [int.from_bytes(blob[4 * i:4 * i + 4], "little", signed=True) for i in range(n)]


def to_signed(v, w):
    v &= (1 << w) - 1
    return v - (1 << w) if v >> (w - 1) else v


def quote(b):
    out = []
    for c in b:
        if 0x20 <= c < 0x7F and c not in (0x22, 0x5C):
            out.append(chr(c))
        else:
            out.append("\\%02X" % c)
    return '"' + "".join(out) + '"'


def symbol_name(b):
    s = b.decode("utf-8", "replace")
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_$.]*", s):
        return s
    return quote(b)


# Builtin attribute codes acceptable for a C++ storage type (reader's typed readAttribute).
BUILTIN_CODES = {
    "::mlir::ArrayAttr": {0},
    "::mlir::DictionaryAttr": {1},
    "::mlir::StringAttr": {2, 3},
    "::mlir::FlatSymbolRefAttr": {4},
    "::mlir::SymbolRefAttr": {4, 5},
    "::mlir::TypeAttr": {6},
    "::mlir::UnitAttr": {7},
    "::mlir::IntegerAttr": {8},
    "::mlir::BoolAttr": {8},
    "::mlir::FloatAttr": {9},
    "::mlir::DenseI8ArrayAttr": {17}, "::mlir::DenseI16ArrayAttr": {17},
    "::mlir::DenseI32ArrayAttr": {17}, "::mlir::DenseI64ArrayAttr": {17},
    "::mlir::DenseBoolArrayAttr": {17}, "::mlir::DenseF32ArrayAttr": {17},
    "::mlir::DenseF64ArrayAttr": {17},
    "::mlir::DenseIntElementsAttr": {18},
    "::mlir::DenseFPElementsAttr": {18},
    "::mlir::DenseElementsAttr": {18, 19},
}
TEXT_PREFIX = {
    "::mlir::AffineMapAttr": "affine_map<",
    "::mlir::IntegerSetAttr": "affine_set<",
}

# ---------------------------------------------------------------------------
# Payload decoding with the layout data
# ---------------------------------------------------------------------------

ENUM_MAX = {"uint8_t": 0xFF, "uint16_t": 0xFFFF, "uint32_t": 0xFFFFFFFF,
            "uint64_t": (1 << 64) - 1, "int8_t": 0x7F, "int16_t": 0x7FFF,
            "int32_t": 0x7FFFFFFF, "int64_t": (1 << 63) - 1}


class PayloadError(Exception):
    pass


def decode_spec(bc, r, spec, stats):
    """Decode one property value; returns a rendering comparable to the generic print."""
    k = spec["kind"]
    if isinstance(k, dict):
        if "optional" in k:
            present = r.byte()
            key = "optional(present)" if present else "optional(absent)"
            stats[key] = stats.get(key, 0) + 1
            if not present:
                return "[]"
            inner = decode_spec(bc, r, k["optional"], stats)
            return "[%s]" % inner
        if "array" in k:
            stats["array"] = stats.get("array", 0) + 1
            n = r.varint()
            return "[%s]" % ", ".join(decode_spec(bc, r, k["array"], stats) for _ in range(n))
        raise PayloadError("custom kind %r cannot be decoded" % k)
    stats[k] = stats.get(k, 0) + 1
    if k == "int":
        v = r.varint()
        bits = spec.get("bits", 64)
        if spec.get("signed", True):
            v = to_signed(v, bits)
        else:
            v &= (1 << bits) - 1
        return str(v)
    if k in ("bool", "unit"):
        b = r.byte()
        if k == "bool":
            return "true" if b else "false"
        return "unit" if b else "false"
    if k == "string":
        i = r.varint()
        if i >= len(bc.strings):
            raise PayloadError("string index %d out of range" % i)
        return quote(bc.strings[i])
    if k == "enum":
        v = r.varint()
        if v > ENUM_MAX.get(spec.get("max"), (1 << 64) - 1):
            raise PayloadError("enum value %d exceeds %s" % (v, spec.get("max")))
        return "%d" % v  # printed as "<v> : iN"; compared on the number
    if k == "prop_attr":
        i = r.varint()
        if i >= len(bc.attrs):
            raise PayloadError("attribute index %d out of range" % i)
        return bc.render_attr(i)
    raise PayloadError("unknown kind %r" % k)


def read_sparse(r, size):
    n, sparse = r.vflag()
    arr = [0] * size
    if n == 0:
        return arr
    if not sparse:
        if n > size:
            raise PayloadError("dense segment array of %d > storage %d" % (n, size))
        for i in range(n):
            arr[i] = to_signed(r.varint(), 32)
        return arr
    bits = r.varint()
    if bits > 8:
        raise PayloadError("sparse array index bits %d > 8" % bits)
    for _ in range(n):
        pair = r.varint()
        idx = pair & ((1 << bits) - 1)
        if idx >= size:
            raise PayloadError("sparse index %d >= storage %d" % (idx, size))
        arr[idx] = to_signed(pair >> bits, 32)
    return arr


def decode_payload(bc, layout, start, end, stats):
    """Returns {name: rendering or None}; raises PayloadError."""
    r = Reader(bc.data, start, end)
    fields = layout["v6"] if bc.version >= 6 else layout["v5"]
    out = {}
    try:
        for f in fields:
            k = f["kind"]
            if k in ("attr", "opt_attr"):
                v = r.varint()
                if k == "opt_attr":
                    if not v & 1:
                        if v:
                            raise PayloadError("absent optional attribute with nonzero value")
                        stats["opt_attr(absent)"] = stats.get("opt_attr(absent)", 0) + 1
                        continue
                    v >>= 1
                stats[k] = stats.get(k, 0) + 1
                if v >= len(bc.attrs):
                    raise PayloadError("%s: attribute index %d out of range" % (f["name"], v))
                check_attr_class(bc, v, f, stats)
                out[f["name"]] = bc.render_attr(v)
            elif k == "legacy_segments":
                v = r.varint()
                stats[k] = stats.get(k, 0) + 1
                if v >= len(bc.attrs):
                    raise PayloadError("legacy segments: attribute index %d out of range" % v)
                arr = bc.dense_i32_array(v)
                if arr is None:
                    raise PayloadError("legacy segments attribute is not array<i32>")
                if len(arr) > f["size"]:
                    raise PayloadError("legacy segments: %d > storage %d" % (len(arr), f["size"]))
                arr = arr + [0] * (f["size"] - len(arr))
                out[f["name"]] = "array<i32: %s>" % ", ".join(map(str, arr))
            elif k == "sparse_segments":
                stats[k] = stats.get(k, 0) + 1
                arr = read_sparse(r, f["size"])
                out[f["name"]] = "array<i32: %s>" % ", ".join(map(str, arr))
            else:
                out[f["name"]] = decode_spec(bc, r, f, stats)
    except BcError as e:
        raise PayloadError("overrun: %s" % e)
    if r.left():
        raise PayloadError("%d leftover byte(s)" % r.left())
    return out


def check_attr_class(bc, idx, field, stats):
    ct = field.get("ctype")
    d, custom, code, _ = bc.attr_info(idx)
    if ct in BUILTIN_CODES:
        if d != "builtin" or not custom or code not in BUILTIN_CODES[ct]:
            raise PayloadError("%s: attribute #%d is not a %s (dialect %s, code %s)"
                               % (field["name"], idx, ct, d, code))
        stats["class-checked refs"] = stats.get("class-checked refs", 0) + 1
    elif ct in TEXT_PREFIX:
        s, e = bc.attrs[idx][2:]
        if custom or not bc.data[s:e].startswith(TEXT_PREFIX[ct].encode()):
            raise PayloadError("%s: attribute #%d is not a %s" % (field["name"], idx, ct))
        stats["class-checked refs"] = stats.get("class-checked refs", 0) + 1


# ---------------------------------------------------------------------------
# Generic text: op sequence and `<{...}>` dictionaries
# ---------------------------------------------------------------------------

_OP_LINE = re.compile(r'^\s*(?:%[^"=]*=\s*)?"((?:[^"\\]|\\.)+)"\(')


def scan_balanced(s, i):
    """s[i] is an opening bracket; return index just past its match."""
    stack = []
    n = len(s)
    while i < n:
        c = s[i]
        if c == '"':
            i += 1
            while i < n and s[i] != '"':
                i += 2 if s[i] == "\\" else 1
        elif c in PAIRS:
            stack.append(PAIRS[c])
        elif c == "-" and i + 1 < n and s[i + 1] == ">":
            i += 1
        elif c == ">" and i + 1 < n and s[i + 1] == "=" and i > 0 and s[i - 1] == " ":
            i += 1  # ` >= ` comparison inside affine_set<...>
        elif c in ")]}>":
            if not stack or stack[-1] != c:
                if c == ">":
                    i += 1
                    continue
                raise ValueError("unbalanced at %d" % i)
            stack.pop()
            if not stack:
                return i + 1
        i += 1
    raise ValueError("unterminated")


def text_ops(path):
    """[(op name, {prop name: printed value or 'unit'} or None)] in textual order."""
    ops = []
    with open(path, encoding="utf-8", errors="replace") as fh:
        for line in fh:
            m = _OP_LINE.match(line)
            if not m:
                continue
            name = m.group(1)
            i = scan_balanced(line, m.end() - 1)
            while i < len(line) and line[i] == " ":
                i += 1
            if line.startswith("[", i):
                i = scan_balanced(line, i)
                while i < len(line) and line[i] == " ":
                    i += 1
            props = None
            if line.startswith("<{", i):
                j = scan_balanced(line, i + 1)
                body = line[i + 2:j - 1]
                props = {}
                for ent in split_top_level(body):
                    if " = " in ent:
                        k, v = ent.split(" = ", 1)
                    else:
                        k, v = ent, "unit"
                    k = k.strip()
                    if k.startswith('"'):
                        k = k[1:-1]
                    props[k] = v.strip()
            ops.append((name, props))
    return ops


def normalize(v):
    return re.sub(r"\s+", " ", v).strip()


def values_equal(field_kind, dec, printed):
    if field_kind == "enum":
        return re.fullmatch(r"%s : i\d+" % re.escape(dec), printed) is not None
    if dec == printed:
        return True
    return normalize(dec) == normalize(printed)


# ---------------------------------------------------------------------------
# Driver
# ---------------------------------------------------------------------------

class Totals:
    def __init__(self):
        self.cases = 0
        self.cases_bad = 0
        self.payloads = 0
        self.exact = 0
        self.skipped_test = 0
        self.unregistered = 0
        self.name_sets_ok = 0
        self.name_sets_cmp = 0
        self.values_cmp = 0
        self.values_ok = 0
        self.ops_seen = set()
        self.dialects_seen = set()
        self.kinds = {}
        self.failures = []
        self.notes = []

    def fail(self, case, msg):
        self.failures.append("%s: %s" % (case, msg))


def is_test_library_op(name):
    """Ops registered by mlir-opt's test libraries (not in libmlir-22-dev): the `test`
    dialect and test extensions of other dialects (transform.test_*, ...test.*)."""
    parts = name.split(".")
    return parts[0] == "test" or any(p.startswith("test") for p in parts[1:])


def field_kind_map(layout, version):
    fields = layout["v6"] if version >= 6 else layout["v5"]
    return {f["name"]: (f["kind"] if isinstance(f["kind"], str) else "composite") for f in fields}


def check_file(case, bc_path, names_path, values_path, layouts, T):
    with open(bc_path, "rb") as fh:
        data = fh.read()
    try:
        bc = Bytecode(data)
    except (BcError, IndexError, UnicodeDecodeError) as e:
        T.fail(case, "container decode failed: %s" % e)
        return False
    tops = text_ops(names_path) if names_path else None
    vops = text_ops(values_path) if values_path else tops
    if tops is not None and len(tops) != len(bc.ops):
        T.notes.append("%s: %d ops in text vs %d in bytecode; dictionaries not compared"
                       % (case, len(tops), len(bc.ops)))
        tops = vops = None
    if vops is not None and tops is not None and len(vops) != len(tops):
        vops = tops
    ok = True
    for i, (ni, pidx, mask) in enumerate(bc.ops):
        opname, registered = bc.opnames[ni]
        if tops is not None and tops[i][0] != opname:
            T.fail(case, "op #%d is %s in bytecode but %s in text" % (i, opname, tops[i][0]))
            ok = False
            tops = vops = None
        layout = layouts.get(opname)
        if layout is None and is_test_library_op(opname):
            T.skipped_test += 1
            continue
        if not registered:
            if pidx is not None:
                T.unregistered += 1
            continue
        if layout is None:
            if pidx is not None or registered:
                T.fail(case, "registered op %s not in the layout data" % opname)
                ok = False
            continue
        if pidx is None:
            if layout["write_properties"]:
                T.fail(case, "%s has properties in ODS but no payload" % opname)
                ok = False
            continue
        if not layout["write_properties"]:
            T.fail(case, "%s has a payload but no ODS properties" % opname)
            ok = False
            continue
        T.payloads += 1
        T.ops_seen.add(opname)
        T.dialects_seen.add(opname.split(".", 1)[0])
        if pidx >= len(bc.props):
            T.fail(case, "%s: properties index %d out of range" % (opname, pidx))
            ok = False
            continue
        s, e = bc.props[pidx]
        try:
            dec = decode_payload(bc, layout, s, e, T.kinds)
        except PayloadError as ex:
            T.fail(case, "%s: payload %s: %s" % (opname, data[s:e].hex(), ex))
            ok = False
            continue
        T.exact += 1
        if tops is None:
            continue
        printed = tops[i][1] or {}
        T.name_sets_cmp += 1
        if set(dec) != set(printed):
            T.fail(case, "%s: decoded names %s != printed %s"
                   % (opname, sorted(dec), sorted(printed)))
            ok = False
            continue
        T.name_sets_ok += 1
        vprinted = (vops[i][1] if vops is not None and vops[i][0] == opname else None) or printed
        kinds = field_kind_map(layout, bc.version)
        for name, val in dec.items():
            if val is None or name not in vprinted:
                continue
            T.values_cmp += 1
            if values_equal(kinds.get(name), val, vprinted[name]):
                T.values_ok += 1
            else:
                T.fail(case, "%s: %s decoded %s but printed %s"
                       % (opname, name, val, vprinted[name]))
                ok = False
    return ok


def run_set(title, items, layouts):
    """items: [(case, bc_path, names_path, values_path)]"""
    T = Totals()
    for case, bcp, namep, valp in items:
        T.cases += 1
        if not check_file(case, bcp, namep, valp, layouts, T):
            T.cases_bad += 1
    print("== %s ==" % title)
    print("cases: %d (with failures: %d)" % (T.cases, T.cases_bad))
    print("ODS properties payloads decoded exactly: %d/%d" % (T.exact, T.payloads))
    print("  distinct ops: %d across %d dialects" % (len(T.ops_seen), len(T.dialects_seen)))
    print("  name sets equal to the printed <{...}>: %d/%d" % (T.name_sets_ok, T.name_sets_cmp))
    print("  rendered values equal to the printed ones: %d/%d" % (T.values_ok, T.values_cmp))
    print("  skipped: %d ops of test libraries, %d unregistered-op payloads"
          % (T.skipped_test, T.unregistered))
    print("  fields decoded per kind: " + ", ".join("%s=%d" % (k, T.kinds[k]) for k in sorted(T.kinds)))
    for n in T.notes[:20]:
        print("  note: " + n)
    if len(T.notes) > 20:
        print("  note: ... %d more" % (len(T.notes) - 20))
    for f in T.failures[:60]:
        print("  FAIL " + f)
    if len(T.failures) > 60:
        print("  FAIL ... %d more" % (len(T.failures) - 60))
    return T


# Inputs for kinds the corpus lacks (custom assembly forms, printed generic by mlir-opt).
SYNTHETIC = {
    "unit_optional_enum": r'''
func.func @f(%p: !ptr.ptr<#ptr.generic_space>, %i: index, %j: index) -> (index, index, i32) {
  %0 = affine.linearize_index disjoint [%i, %j] by (4, 8) : index
  %9 = affine.linearize_index [%i, %j] by (4, 8) : index
  %1 = ptr.load volatile %p atomic monotonic alignment = 4 : !ptr.ptr<#ptr.generic_space> -> i32
  %2 = ptr.load %p nontemporal : !ptr.ptr<#ptr.generic_space> -> i32
  %3 = ptr.load %p invariant invariant_group alignment = 1073741824 : !ptr.ptr<#ptr.generic_space> -> i32
  ptr.store volatile %1, %p atomic release alignment = 8 : i32, !ptr.ptr<#ptr.generic_space>
  ptr.store %2, %p : i32, !ptr.ptr<#ptr.generic_space>
  %4 = ptr.ptr_diff nuw %p, %p : !ptr.ptr<#ptr.generic_space> -> i64
  %5 = ptr.ptr_diff %p, %p : !ptr.ptr<#ptr.generic_space> -> i64
  %6 = ptr.ptr_add inbounds %p, %i : !ptr.ptr<#ptr.generic_space>, index
  return %0, %9, %1 : index, index, i32
}
''',
    "gather_scatter": r'''
func.func @g(%ps: vector<4x!ptr.ptr<#ptr.generic_space>>, %m: vector<4xi1>, %pt: vector<4xf32>) -> vector<4xf32> {
  %0 = ptr.gather %ps, %m, %pt alignment = 16 : vector<4x!ptr.ptr<#ptr.generic_space>> -> vector<4xf32>
  %1 = ptr.gather %ps, %m, %pt : vector<4x!ptr.ptr<#ptr.generic_space>> -> vector<4xf32>
  ptr.scatter %0, %ps, %m alignment = 4 : vector<4xf32>, vector<4x!ptr.ptr<#ptr.generic_space>>
  return %1 : vector<4xf32>
}
''',
    "result_segments": r'''
func.func @s(%arg0: index, %mem1: memref<?xindex>, %mem2: memref<?xf64>) -> index {
  %t0 = gpu.wait async
  %spmat, %t4 = gpu.create_csr async [%t0] %arg0, %arg0, %arg0, %mem1, %mem1, %mem2 : memref<?xindex>, memref<?xindex>, memref<?xf64>
  %dnmat, %t5 = gpu.create_dn_tensor async [%t4] %mem2, %arg0, %arg0 : index, index into memref<?xf64>
  %bs, %t6 = gpu.spmm_buffer_size async [%t5] %spmat, %dnmat, %dnmat : index into f64
  %bs2 = gpu.spmm_buffer_size %spmat, %dnmat, %dnmat : index into f64
  return %bs2 : index
}
''',
    "segments_mix": r'''
func.func @m(%i: index, %n: index) {
  %a = memref.alloc(%n)[%i] : memref<?xf32, affine_map<(d0)[s0] -> (d0 + s0)>>
  %b = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
  %c = memref.alloc(%n) : memref<?xf32>
  %t = arith.cmpi slt, %i, %n : index
  cf.cond_br %t, ^bb1(%i : index), ^bb2(%i, %n, %n : index, index, index)
^bb1(%x: index):
  return
^bb2(%y: index, %z: index, %w: index):
  return
}
''',
}


# ---------------------------------------------------------------------------
# --tblgen-kinds: run mlir-tblgen 22 on ops using every Properties.td kind and
# check that gen_layouts recognises the generated code (no mlir-opt op uses
# bool/string/array/prop_attr, so this checks the parser, not the wire).
# ---------------------------------------------------------------------------

MLIR_TBLGEN = "/usr/lib/llvm-22/bin/mlir-tblgen"
TBLGEN_INCLUDE = "/usr/lib/llvm-22/include"
KINDS_TD = r'''include "mlir/IR/OpBase.td"
include "mlir/IR/Properties.td"
include "mlir/IR/EnumAttr.td"

def K_Dialect : Dialect {
  let name = "kinds";
  let cppNamespace = "::kinds";
}
class K_Op<string m, list<Trait> t = []> : Op<K_Dialect, m, t>;

def K_Color : I32EnumAttr<"Color", "", [I32EnumAttrCase<"red", 0>, I32EnumAttrCase<"blue", 5>]> {
  let cppNamespace = "::kinds";
  let genSpecializedAttr = 0;
}
def K_Small : I64EnumAttr<"Wide", "", [I64EnumAttrCase<"a", 0>, I64EnumAttrCase<"b", 1>]> {
  let cppNamespace = "::kinds";
  let genSpecializedAttr = 0;
}
def K_Bits : I8BitEnumAttr<"Bits", "", [I8BitEnumAttrCaseNone<"none">, I8BitEnumAttrCaseBit<"x", 0>]> {
  let cppNamespace = "::kinds";
  let genSpecializedAttr = 0;
}

def K_IntsOp : K_Op<"ints"> {
  let arguments = (ins I32Prop:$a, I64Prop:$b, IntProp<"uint8_t">:$c, IntProp<"int16_t">:$d,
                   DefaultValuedProp<I64Prop, "7">:$e,
                   ConfinedProp<I64Prop, CPred<"$_self > 0">>:$f);
}
def K_BoolsOp : K_Op<"bools"> {
  let arguments = (ins BoolProp:$a, UnitProp:$b, DefaultValuedProp<BoolProp, "true">:$c);
}
def K_StringsOp : K_Op<"strings"> {
  let arguments = (ins StringProp:$s, OptionalProp<StringProp>:$os);
}
def K_ArraysOp : K_Op<"arrays"> {
  let arguments = (ins ArrayProp<I64Prop>:$a, ArrayProp<StringProp>:$b,
                   ArrayProp<ArrayProp<I32Prop>>:$c, IntArrayProp<I32Prop>:$d,
                   OptionalProp<ArrayProp<BoolProp>>:$e, ArrayProp<OptionalProp<I64Prop>>:$f,
                   DefaultValuedProp<ArrayProp<I64Prop>, "{}", "{}">:$g);
}
def K_EnumsOp : K_Op<"enums"> {
  let arguments = (ins EnumProp<K_Color>:$c, EnumProp<K_Small>:$s, EnumProp<K_Bits>:$bits, OptionalProp<EnumProp<K_Color>>:$oc);
}
def K_MixedOp : K_Op<"mixed", [AttrSizedOperandSegments, AttrSizedResultSegments]> {
  let arguments = (ins I32Attr:$req, OptionalAttr<StrAttr>:$opt, DefaultValuedAttr<I64Attr, "3">:$dflt,
                   UnitAttr:$flag, Variadic<I32>:$xs, Optional<I32>:$y, I64Prop:$p);
  let results = (outs Variadic<I32>:$r1, I32:$r2, Optional<I32>:$r3);
}
def K_ConvProp : Property<"int64_t"> {
  let convertToAttribute = [{ return ::mlir::IntegerAttr::get(::mlir::IntegerType::get($_ctxt, 64), $_storage); }];
  let convertFromAttribute = [{ $_storage = ::llvm::cast<::mlir::IntegerAttr>($_attr).getInt(); return ::mlir::success(); }];
  let readFromMlirBytecode = readMlirBytecodeUsingConvertFromAttribute;
  let writeToMlirBytecode = writeMlirBytecodeWithConvertToAttribute;
}
def K_ConvOp : K_Op<"conv"> {
  let arguments = (ins K_ConvProp:$v);
}
def K_GenericOp : K_Op<"generic"> {
  let arguments = (ins Property<"::kinds::MyStruct">:$s, I64Prop:$n);
}
def K_CustomEncOp : K_Op<"custom_enc"> {
  let arguments = (ins I32Attr:$x);
  let useCustomPropertiesEncoding = 1;
}
'''

# op -> v6 fields as "name:kind-label"; v5 differs only for kinds.mixed
KINDS_EXPECTED_V6 = {
    "kinds.arrays": ["a:array<int>", "b:array<string>", "c:array<array<int>>", "d:array<int>",
                     "e:optional<array<bool>>", "f:array<optional<int>>", "g:array<int>"],
    "kinds.bools": ["a:bool", "b:unit", "c:bool"],
    "kinds.conv": ["v:prop_attr"],
    "kinds.enums": ["c:enum", "s:enum", "bits:enum", "oc:optional<enum>"],
    "kinds.generic": ["s:custom", "n:int"],
    "kinds.ints": ["a:int", "b:int", "c:int", "d:int", "e:int", "f:int"],
    "kinds.mixed": ["dflt:opt_attr", "flag:opt_attr", "opt:opt_attr", "req:attr", "p:int",
                    "operandSegmentSizes:sparse_segments", "resultSegmentSizes:sparse_segments"],
    "kinds.strings": ["s:string", "os:optional<string>"],
}
KINDS_EXPECTED_V5_MIXED = ["dflt:opt_attr", "flag:opt_attr", "operandSegmentSizes:legacy_segments",
                           "opt:opt_attr", "req:attr", "resultSegmentSizes:legacy_segments", "p:int"]


def tblgen_kinds():
    sys.path.insert(0, HERE)
    sys.dont_write_bytecode = True
    import gen_layouts as G
    tmp = tempfile.mkdtemp(prefix="ods-layouts-tblgen-")
    try:
        td = os.path.join(tmp, "Kinds.td")
        with open(td, "w") as fh:
            fh.write(KINDS_TD)
        for gen, out in (("-gen-op-decls", "Kinds.h.inc"), ("-gen-op-defs", "Kinds.cpp.inc")):
            subprocess.run([MLIR_TBLGEN, gen, "-I", TBLGEN_INCLUDE, td, "-o",
                            os.path.join(tmp, out)], check=True)
        fails = []
        # 1. default mode must refuse the two custom encodings
        try:
            G.build(tmp, allow_custom=False)
            fails.append("custom encodings were not refused")
        except G.LayoutError as e:
            msg = str(e)
            for needle in ("kinds.custom_enc", "kinds.generic: property s"):
                if needle not in msg:
                    fails.append("refusal does not mention %s" % needle)
        # 2. with --allow-custom every kind must come out as expected
        ops, custom, _, _ = G.build(tmp, allow_custom=True)
        got = {o["name"]: o for o in ops}
        for name, exp in sorted(KINDS_EXPECTED_V6.items()):
            o = got.get(name)
            labels = ["%s:%s" % (f["name"], G.kind_label(f)) for f in (o or {}).get("v6") or []]
            if labels != exp:
                fails.append("%s: v6 %s != expected %s" % (name, labels, exp))
        mixed = ["%s:%s" % (f["name"], G.kind_label(f)) for f in got["kinds.mixed"]["v5"]]
        if mixed != KINDS_EXPECTED_V5_MIXED:
            fails.append("kinds.mixed: v5 %s" % mixed)
        seg = {f["name"]: f["size"] for f in got["kinds.mixed"]["v6"] if "size" in f}
        if seg != {"operandSegmentSizes": 2, "resultSegmentSizes": 3}:
            fails.append("kinds.mixed: segment sizes %s" % seg)
        enums = {f["name"]: f.get("max") for f in got["kinds.enums"]["v6"]}
        if enums.get("c") != "uint32_t" or enums.get("s") != "uint64_t" or enums.get("bits") != "uint8_t":
            fails.append("kinds.enums: underlying types %s" % enums)
        ce = got.get("kinds.custom_enc", {})
        if not ce.get("custom_encoding") or ce.get("v6") is not None:
            fails.append("kinds.custom_enc not recorded as custom_encoding")
        print("== mlir-tblgen 22 kinds self-test (%d ops) ==" % len(KINDS_EXPECTED_V6 | {"kinds.custom_enc": 0}))
        for f in fails:
            print("  FAIL " + f)
        if not fails:
            print("  all property kinds recognised; custom encodings refused by default")
        return len(fails)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def mlir_opt(args, cwd=None):
    p = subprocess.run([MLIR_OPT] + args, capture_output=True, cwd=cwd)
    if p.returncode:
        raise RuntimeError("mlir-opt %s failed: %s" % (" ".join(args), p.stderr.decode()[:400]))
    return p.stdout


def make_v5(case_dir, cache, case):
    out = os.path.join(cache, case + ".v5.mlirbc")
    if os.path.exists(out):
        return out
    try:
        data = mlir_opt(["--allow-unregistered-dialect", "--emit-bytecode",
                         "--emit-bytecode-version=5", "generic.mlir"], cwd=case_dir)
    except RuntimeError:
        return None
    tmp = out + ".tmp%d" % os.getpid()
    with open(tmp, "wb") as fh:
        fh.write(data)
    os.replace(tmp, out)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--layouts", action="append",
                    help="layout JSON (repeatable; default %s)" % os.path.normpath(DEFAULT_LAYOUTS))
    ap.add_argument("--corpus", default=DEFAULT_CORPUS, help="folder of case folders")
    ap.add_argument("--limit", type=int, default=0, help="only the first N cases (sorted)")
    ap.add_argument("--v5", action="store_true", help="also check mlir-opt --emit-bytecode-version=5 output")
    ap.add_argument("--synthetic", action="store_true", help="also check the built-in extra inputs (v5 and v6)")
    ap.add_argument("--tblgen-kinds", action="store_true",
                    help="also run the mlir-tblgen 22 self-test of every Properties.td kind")
    ap.add_argument("--cache", default=os.path.join(tempfile.gettempdir(), "ods-layouts-v5-cache"))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    args = ap.parse_args(argv)

    layouts = {}
    for path in args.layouts or [DEFAULT_LAYOUTS]:
        with open(path, encoding="utf-8") as fh:
            for op in json.load(fh)["ops"]:
                if op["name"] in layouts:
                    print("error: op %s in more than one layout file" % op["name"], file=sys.stderr)
                    return 2
                layouts[op["name"]] = op

    cases = sorted(os.listdir(args.corpus)) if args.corpus and os.path.isdir(args.corpus) else []
    cases = [c for c in cases if os.path.exists(os.path.join(args.corpus, c, "v6.mlirbc"))]
    if args.limit:
        cases = cases[:args.limit]
    bad = 0

    def paths(c):
        d = os.path.join(args.corpus, c)
        loc = os.path.join(d, "local.mlir")
        return d, os.path.join(d, "generic.mlir"), loc if os.path.exists(loc) else None

    items = []
    for c in cases:
        d, gen, loc = paths(c)
        items.append((c, os.path.join(d, "v6.mlirbc"), gen, loc))
    if items:
        T = run_set("corpus v6 (%s)" % args.corpus, items, layouts)
        bad += len(T.failures)

    if args.v5 and cases:
        os.makedirs(args.cache, exist_ok=True)
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
            outs = list(ex.map(lambda c: make_v5(paths(c)[0], args.cache, c), cases))
        items = []
        failed_gen = 0
        for c, o in zip(cases, outs):
            if o is None:
                failed_gen += 1
                continue
            d, gen, loc = paths(c)
            items.append((c, o, gen, loc))
        print("(v5: mlir-opt could not re-emit %d case(s) from generic.mlir)" % failed_gen)
        T = run_set("corpus v5 (mlir-opt --emit-bytecode-version=5 of generic.mlir)", items, layouts)
        bad += len(T.failures)

    if args.synthetic:
        tmp = tempfile.mkdtemp(prefix="ods-layouts-syn-")
        items5, items6 = [], []
        for name, text in sorted(SYNTHETIC.items()):
            src = os.path.join(tmp, name + ".mlir")
            with open(src, "w") as fh:
                fh.write(text)
            gen = os.path.join(tmp, name + ".generic.mlir")
            with open(gen, "wb") as fh:
                fh.write(mlir_opt(["--mlir-print-op-generic", "--mlir-print-local-scope", src]))
            for v, lst in ((5, items5), (6, items6)):
                bcp = os.path.join(tmp, "%s.v%d.mlirbc" % (name, v))
                with open(bcp, "wb") as fh:
                    fh.write(mlir_opt(["--emit-bytecode", "--emit-bytecode-version=%d" % v, src]))
                lst.append((name, bcp, gen, None))
        T6 = run_set("synthetic v6", items6, layouts)
        T5 = run_set("synthetic v5", items5, layouts)
        shutil.rmtree(tmp, ignore_errors=True)
        bad += len(T6.failures) + len(T5.failures)
    if args.tblgen_kinds:
        bad += tblgen_kinds()
    print("RESULT: %s" % ("OK" if bad == 0 else "%d failure(s)" % bad))
    return 0 if bad == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
