#!/usr/bin/env python3
"""gen_layouts.py - extract ODS op property layouts from MLIR's generated C++.

Since bytecode v5 a registered ODS op's inherent attributes and properties are
written positionally by its generated `writeProperties` and read back by
`readProperties`.  This tool scans the mlir-tblgen output (`*.h.inc` for the
op class declarations, `*.cpp.inc` for the method bodies) of an include tree
and records, per op, the exact sequence of reads `readProperties` performs for
bytecode version 5 and for versions >= 6, as data.

It recognises only the code shapes that mlir-tblgen emits for ODS attributes
and for the property kinds of MLIR 22's Properties.td / EnumAttr.td.  Any other
code in a readProperties body is reported (op name + the unrecognised code)
and the run fails; nothing is guessed.

Python 3 standard library only.  See README.md next to this file.

Usage:
  gen_layouts.py [--include-dir DIR] [--out FILE] [--mlir-release VER]
                 [--allow-custom] [--quiet]
"""
import argparse
import json
import os
import re
import sys

DEFAULT_INCLUDE = "/usr/lib/llvm-22/include/mlir"
DEFAULT_RELEASE = "22.1.8"
GENERATOR = "tools/ods-layouts/gen_layouts.py"


class LayoutError(Exception):
    pass


# ---------------------------------------------------------------------------
# C++ token canonicalisation.  Bodies and templates are both reduced to their
# tokens joined by single spaces (comments dropped), so that matching does not
# depend on the generator's indentation or line breaks.
# ---------------------------------------------------------------------------

_TOKEN_RE = re.compile(r'''
    (?P<ws>\s+)
  | (?P<lcomment>//[^\n]*)
  | (?P<bcomment>/\*.*?\*/)
  | (?P<str>"(?:\\.|[^"\\\n])*")
  | (?P<chr>'(?:\\.|[^'\\\n])*')
  | (?P<ident>[A-Za-z_][A-Za-z_0-9]*)
  | (?P<num>[0-9][A-Za-z_0-9.]*)
  | (?P<punct>::|->|>=|<=|==|!=|&&|\|\||\+\+|--|[^\sA-Za-z_0-9])
''', re.X | re.S)


def tokens(text):
    out = []
    pos = 0
    n = len(text)
    while pos < n:
        m = _TOKEN_RE.match(text, pos)
        if not m:
            raise LayoutError("cannot tokenize C++ near: %r" % text[pos:pos + 40])
        pos = m.end()
        kind = m.lastgroup
        if kind in ("ws", "lcomment", "bcomment"):
            continue
        out.append(m.group())
    return out


def canon(text):
    return " ".join(tokens(text))


# Placeholders inside templates:  @ID:name@  one identifier token;
# @ANY:name@  one or more tokens (lazy), not crossing ';', '{' or '}'.
_PH_RE = re.compile(r'@(ID|ANY):(\w+)@')


def template(text):
    """Compile a C++ code template into a regex over canonical text."""
    parts = []
    pos = 0
    for m in _PH_RE.finditer(text):
        parts.append(("code", text[pos:m.start()]))
        parts.append((m.group(1), m.group(2)))
        pos = m.end()
    parts.append(("code", text[pos:]))
    rx = []
    for kind, val in parts:
        if kind == "code":
            toks = tokens(val)
            if toks:
                rx.append(" ".join(re.escape(t) for t in toks))
        elif kind == "ID":
            rx.append(r"(?P<%s>[A-Za-z_][A-Za-z_0-9]*)" % val)
        else:
            rx.append(r"(?P<%s>[^;{}]+?)" % val)
    # Tokens are separated by exactly one space in canonical text.
    return re.compile(" ".join(rx) + r"(?: |$)")


FAIL = "return ::mlir::failure();"
OK = "return ::mlir::success();"

T_HEADER = template("auto &prop = state.getOrAddProperties<Properties>(); (void)prop;")
T_RETURN_OK = template(OK)
T_EMPTY = template(";")
T_ATTR = template("if (::mlir::failed(reader.readAttribute(prop.@ID:name@))) " + FAIL)
T_OPT_ATTR = template("if (::mlir::failed(reader.readOptionalAttribute(prop.@ID:name@))) " + FAIL)
T_LEGACY = template("""
  if (reader.getBytecodeVersion() < 6) {
    auto &propStorage = prop.@ID:name@;
    ::mlir::DenseI32ArrayAttr attr;
    if (::mlir::failed(reader.readAttribute(attr))) return ::mlir::failure();
    if (attr.size() > static_cast<int64_t>(sizeof(propStorage) / sizeof(int32_t))) {
      reader.emitError("size mismatch for operand/result_segment_size");
      return ::mlir::failure();
    }
    ::llvm::copy(::llvm::ArrayRef<int32_t>(attr), propStorage.begin());
  }""")
T_PROP_OPEN = template("{ auto &propStorage = prop.@ID:name@; auto readProp = [&]() {")
T_PROP_CLOSE = template(OK + " }; if (::mlir::failed(readProp())) " + FAIL + " }")

# Property read code (after `$_storage` -> propStorage, `$_reader` -> reader).
T_SPARSE = template("if (reader.getBytecodeVersion() >= 6) "
                    "return reader.readSparseArray(::llvm::MutableArrayRef(propStorage));")
T_INT = template("uint64_t val; if (failed(reader.readVarInt(val))) " + FAIL + " propStorage = val;")
T_BOOL = template("return reader.readBool(propStorage);")
T_UNIT = template("if (::mlir::failed(reader.readBool(propStorage))) " + FAIL)
T_STRING = template("StringRef val; if (::mlir::failed(reader.readString(val))) " + FAIL +
                    " propStorage = val.str();")
T_ENUM = template("uint64_t rawValue; if (::mlir::failed(reader.readVarInt(rawValue))) " + FAIL +
                  " if (rawValue > std::numeric_limits<@ANY:under@>::max()) " + FAIL +
                  " propStorage = static_cast<@ANY:enum@>(rawValue);")
# MLIR 19's `EnumProperty` (Properties.td): a plain cast, no range check.
T_ENUM19 = template("uint64_t val; if (failed(reader.readVarInt(val))) " + FAIL +
                    " propStorage = static_cast<@ANY:enum@>(val);")
T_CONV_ATTR = template("::mlir::Attribute attr; if (::mlir::failed(reader.readAttribute(attr))) " +
                       FAIL + " if (::mlir::failed(convertFromAttribute(propStorage, attr, nullptr))) " +
                       FAIL)
T_GENERIC = template("if (::mlir::failed(readFromMlirBytecode(reader, propStorage))) " + FAIL)
T_OPT_OPEN = template("bool isPresent = false; if (::mlir::failed(reader.readBool(isPresent))) " +
                      FAIL + " if (!isPresent) { propStorage = std::nullopt; " + OK + " }")
T_OPT_VAR = template("@ANY:type@ presentVal")
T_OPT_LAMBDA = template("auto presentResult = [&](@ANY:type@& propStorage) -> ::mlir::LogicalResult {")
T_OPT_CLOSE = template(OK + " }(presentVal); if (::mlir::failed(presentResult)) " + FAIL +
                       " propStorage = std::move(presentVal);")
T_ARR_OPEN = template("uint64_t length; if (::mlir::failed(reader.readVarInt(length))) " + FAIL +
                      " propStorage.reserve(length); for (uint64_t i = 0; i < length; ++i) {")
T_ARR_VAR = template("@ANY:type@ elemVal")
T_ARR_LAMBDA = template("auto elemRead = [&](@ANY:type@& propStorage) -> ::mlir::LogicalResult {")
T_ARR_CLOSE = template(OK + " }(elemVal); if (::mlir::failed(elemRead)) " + FAIL +
                       " propStorage.push_back(std::move(elemVal)); }")

# writeProperties shapes, used only to cross-check the read sequence.
T_W_HEADER = template("auto &prop = getProperties(); (void)prop;")
T_W_ATTR = template("writer.writeAttribute(prop.@ID:name@);")
T_W_OPT_ATTR = template("writer.writeOptionalAttribute(prop.@ID:name@);")
T_W_LEGACY = template("""
  if (writer.getBytecodeVersion() < 6) {
    auto &propStorage = prop.@ID:name@;
    writer.writeAttribute(::mlir::DenseI32ArrayAttr::get(this->getContext(), propStorage));
  }""")
T_W_PROP_OPEN = template("{ auto &propStorage = prop.@ID:name@;")
T_W_SPARSE = template("if (writer.getBytecodeVersion() >= 6) "
                      "writer.writeSparseArray(::llvm::ArrayRef(propStorage));")
T_W_CLOSE = template("}")

INT_TYPES = {
    "int8_t": (8, True), "int16_t": (16, True), "int32_t": (32, True), "int64_t": (64, True),
    "uint8_t": (8, False), "uint16_t": (16, False), "uint32_t": (32, False),
    "uint64_t": (64, False), "bool": (1, False), "char": (8, True),
    "short": (16, True), "int": (32, True), "long": (64, True), "unsigned": (32, False),
    "unsigned int": (32, False), "size_t": (64, False), "intptr_t": (64, True),
    "std::int8_t": (8, True), "std::int16_t": (16, True), "std::int32_t": (32, True),
    "std::int64_t": (64, True), "std::uint8_t": (8, False), "std::uint16_t": (16, False),
    "std::uint32_t": (32, False), "std::uint64_t": (64, False),
}


def _ctype(tok_text):
    """Canonical token text of a C++ type -> compact source spelling."""
    t = tok_text.replace(" :: ", "::").replace(":: ", "::")
    t = re.sub(r"\s*([<>,&*])\s*", r"\1", t)
    t = t.replace(",", ", ")
    return t.strip()


class BodyParser:
    """Recursive matcher over one canonical readProperties body."""

    def __init__(self, op, text, ns="", enums=None):
        self.op = op
        self.s = text
        self.pos = 0
        self.ns = ns
        self.enums = enums or {}

    def fail(self, what):
        snippet = self.s[self.pos:self.pos + 400]
        raise LayoutError("%s: %s; unrecognised code: %s" % (self.op, what, snippet))

    def try_(self, rx):
        m = rx.match(self.s, self.pos)
        if m:
            self.pos = m.end()
        return m

    def expect(self, rx, what):
        m = self.try_(rx)
        if not m:
            self.fail("expected " + what)
        return m

    def skip_empty(self):
        while self.try_(T_EMPTY):
            pass

    def at_end(self):
        return self.pos >= len(self.s)

    # -- property read code ------------------------------------------------
    def prop_code(self, storage_type):
        """Parse one property's read code; returns its spec dict."""
        self.skip_empty()
        if self.try_(T_SPARSE):
            return {"kind": "sparse_segments"}
        if self.try_(T_INT):
            spec = {"kind": "int", "ctype": storage_type}
            if storage_type in INT_TYPES:
                bits, signed = INT_TYPES[storage_type]
                spec["bits"] = bits
                spec["signed"] = signed
            return spec
        if self.try_(T_BOOL):
            return {"kind": "bool", "ctype": storage_type}
        if self.try_(T_UNIT):
            return {"kind": "unit", "ctype": storage_type}
        if self.try_(T_STRING):
            return {"kind": "string", "ctype": storage_type}
        m = self.try_(T_ENUM)
        if m:
            return {"kind": "enum", "ctype": _ctype(m.group("enum")),
                    "max": _ctype(m.group("under"))}
        m = self.try_(T_ENUM19)
        if m:
            # mlir-tblgen 19: `static_cast<Enum>(val)` with no range check; the
            # cast truncates to the enum's underlying type, which must be found
            # in the generated enum declarations (never assumed).
            enum = _ctype(m.group("enum"))
            key = resolve_class(self.enums, self.ns, enum)
            if key is None:
                self.fail("EnumProperty of %s: no `enum class %s : <type>` declaration "
                          "found from namespace %s" % (enum, enum, self.ns))
            return {"kind": "enum", "ctype": enum, "max": self.enums[key],
                    "range_check": False}
        if self.try_(T_CONV_ATTR):
            return {"kind": "prop_attr", "ctype": storage_type}
        if self.try_(T_GENERIC):
            return {"kind": {"custom": storage_type}, "ctype": storage_type}
        if self.try_(T_OPT_OPEN):
            inner = self._nested(T_OPT_VAR, "presentVal", T_OPT_LAMBDA, T_OPT_CLOSE,
                                 "OptionalProp")
            return {"kind": {"optional": inner}, "ctype": storage_type}
        if self.try_(T_ARR_OPEN):
            inner = self._nested(T_ARR_VAR, "elemVal", T_ARR_LAMBDA, T_ARR_CLOSE, "ArrayProp")
            return {"kind": {"array": inner}, "ctype": storage_type}
        self.fail("unknown property read code")

    def _nested(self, var_rx, var_name, lambda_rx, close_rx, what):
        # `T name;` or `T name = <default>;` (from _makePropStorage)
        self.skip_empty()
        m = self.expect(var_rx, what + " element variable")
        rest_start = self.pos
        # skip an optional default initialiser up to the terminating ';'
        end = self.s.find("; ", rest_start)
        if end < 0:
            self.fail(what + ": unterminated element variable")
        init = self.s[rest_start:end].strip()
        if init and not init.startswith("="):
            self.fail(what + ": unexpected element declaration")
        self.pos = end + 2
        self.skip_empty()
        lm = self.expect(lambda_rx, what + " element lambda")
        elem_type = _ctype(lm.group("type"))
        decl_type = _ctype(m.group("type"))
        if elem_type != decl_type:
            self.fail("%s: element types differ (%s vs %s)" % (what, decl_type, elem_type))
        inner = self.prop_code(elem_type)
        self.skip_empty()
        self.expect(close_rx, what + " epilogue")
        return inner


def parse_read_body(op, body, props_types, ns="", enums=None):
    """Return (v5_fields, v6_fields) for one readProperties body."""
    p = BodyParser(op, canon(body), ns, enums)
    p.expect(T_HEADER, "readProperties prologue")
    v5, v6 = [], []
    while True:
        p.skip_empty()
        if p.try_(T_RETURN_OK):
            p.skip_empty()
            if not p.at_end():
                p.fail("code after final return")
            break
        m = p.try_(T_OPT_ATTR)
        if m:
            f = {"name": m.group("name"), "kind": "opt_attr"}
            _add_type(f, props_types, m.group("name"))
            v5.append(f)
            v6.append(f)
            continue
        m = p.try_(T_ATTR)
        if m:
            f = {"name": m.group("name"), "kind": "attr"}
            _add_type(f, props_types, m.group("name"))
            v5.append(f)
            v6.append(f)
            continue
        m = p.try_(T_LEGACY)
        if m:
            name = m.group("name")
            v5.append(_segments(op, "legacy_segments", name, props_types))
            continue
        m = p.try_(T_PROP_OPEN)
        if m:
            name = m.group("name")
            stype = props_types.get(name)
            if stype is None:
                p.fail("property %s not found in the Properties struct" % name)
            spec = p.prop_code(stype)
            p.skip_empty()
            p.expect(T_PROP_CLOSE, "property epilogue")
            if spec["kind"] == "sparse_segments":
                v6.append(_segments(op, "sparse_segments", name, props_types))
            else:
                f = {"name": name}
                f.update(spec)
                v5.append(f)
                v6.append(f)
            continue
        p.fail("unknown statement in readProperties")
    return v5, v6


def _add_type(field, props_types, name):
    t = props_types.get(name)
    if t is not None:
        field["ctype"] = t


def _segments(op, kind, name, props_types):
    if name == "operandSegmentSizes":
        of = "operand"
    elif name == "resultSegmentSizes":
        of = "result"
    else:
        raise LayoutError("%s: %s on unexpected property %s" % (op, kind, name))
    t = props_types.get(name, "")
    m = re.fullmatch(r"std::array<int32_t, (\d+)>", t)
    if not m:
        raise LayoutError("%s: cannot size segment storage %s (type %r)" % (op, name, t))
    return {"name": name, "kind": kind, "of": of, "size": int(m.group(1))}


def parse_write_body(op, body):
    """Coarse parse of writeProperties: [(name, cls)], cls in attr/opt_attr/legacy/prop/sparse."""
    p = BodyParser(op, canon(body))
    p.expect(T_W_HEADER, "writeProperties prologue")
    seq = []
    while True:
        p.skip_empty()
        if p.at_end():
            break
        m = p.try_(T_W_OPT_ATTR)
        if m:
            seq.append((m.group("name"), "opt_attr"))
            continue
        m = p.try_(T_W_ATTR)
        if m:
            seq.append((m.group("name"), "attr"))
            continue
        m = p.try_(T_W_LEGACY)
        if m:
            seq.append((m.group("name"), "legacy_segments"))
            continue
        m = p.try_(T_W_PROP_OPEN)
        if m:
            if p.try_(T_W_SPARSE):
                p.skip_empty()
                p.expect(T_W_CLOSE, "end of segment-size block")
                seq.append((m.group("name"), "sparse_segments"))
                continue
            # skip to the matching '}' of this block
            depth = 1
            toks = p.s[p.pos:].split(" ")
            used = 0
            for i, t in enumerate(toks):
                used += len(t) + 1
                if t == "{":
                    depth += 1
                elif t == "}":
                    depth -= 1
                    if depth == 0:
                        break
            else:
                p.fail("unbalanced property block in writeProperties")
            p.pos += used
            seq.append((m.group("name"), "prop"))
            continue
        p.fail("unknown statement in writeProperties")
    return seq


# ---------------------------------------------------------------------------
# Scanning the generated files.
# ---------------------------------------------------------------------------

def split_top_level(s, sep=","):
    """Split on `sep` at template-bracket depth 0."""
    out, depth, cur = [], 0, []
    for ch in s:
        if ch in "<([":
            depth += 1
        elif ch in ">)]":
            depth -= 1
        if ch == sep and depth == 0:
            out.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        out.append("".join(cur).strip())
    return out


def match_brace(text, open_pos):
    """Index just past the '}' matching the '{' at open_pos (strings/comments aware)."""
    depth = 0
    for m in _TOKEN_RE.finditer(text, open_pos):
        t = m.group()
        if m.lastgroup != "punct":
            continue
        if t == "{":
            depth += 1
        elif t == "}":
            depth -= 1
            if depth == 0:
                return m.end()
    raise LayoutError("unbalanced braces from offset %d" % open_pos)


_NS_OPEN = re.compile(r"^\s*namespace\s+([\w:]+)\s*\{\s*$")
_NS_CLOSE = re.compile(r"^\s*\}\s*//\s*namespace\s+([\w:]+)\s*$")
_CLASS_OP = re.compile(r"^class (\w+) : public ::mlir::Op<\1, (.*)> \{\s*$")
_OPNAME = re.compile(r'static constexpr ::llvm::StringLiteral getOperationName\(\) \{\s*'
                     r'return ::llvm::StringLiteral\("([^"]*)"\);')
_ATTRNAMES = re.compile(r'static ::llvm::ArrayRef<::llvm::StringRef> getAttributeNames\(\) \{\s*'
                        r'(?:return \{\};|static ::llvm::StringRef attrNames\[\] = \{(.*?)\};)', re.S)
_ADAPTOR_BASE = re.compile(r"^class (\w+)GenericAdaptorBase \{\s*$")
_USING_TY = re.compile(r"^\s*using (\w+)Ty = (.+);\s*$")
_READ_DECL = "static ::llvm::LogicalResult readProperties(::mlir::DialectBytecodeReader &reader, ::mlir::OperationState &state);"
_WRITE_DECL = "void writeProperties(::mlir::DialectBytecodeWriter &writer);"


def ns_stack_name(stack):
    return "::".join(x for x in stack if x not in ("detail",))


def scan_h_inc(path, classes, adaptors):
    with open(path, encoding="utf-8", errors="replace") as fh:
        text = fh.read()
    if ": public ::mlir::Op<" not in text:
        return
    type_ids = {re.sub(r"\s+", "", t).lstrip(":")
                for t in re.findall(r"MLIR_DECLARE_EXPLICIT_TYPE_ID\(([^)]*)\)", text)}
    lines = text.split("\n")
    # line start offsets for brace matching
    offs = []
    o = 0
    for ln in lines:
        offs.append(o)
        o += len(ln) + 1
    stack = []
    i = 0
    while i < len(lines):
        ln = lines[i]
        m = _NS_OPEN.match(ln)
        if m:
            stack.append(m.group(1))
            i += 1
            continue
        m = _NS_CLOSE.match(ln)
        if m:
            if not stack or stack[-1] != m.group(1):
                raise LayoutError("%s:%d: namespace nesting confusion" % (path, i + 1))
            stack.pop()
            i += 1
            continue
        m = _CLASS_OP.match(ln)
        if m:
            cls = m.group(1)
            ns = ns_stack_name(stack)
            start = offs[i] + ln.rindex("{")
            end = match_brace(text, start)
            body = text[start:end]
            nm = _OPNAME.search(body)
            if not nm:
                raise LayoutError("%s: op class %s::%s has no getOperationName" % (path, ns, cls))
            am = _ATTRNAMES.search(body)
            if not am:
                raise LayoutError("%s: op class %s::%s has no getAttributeNames" % (path, ns, cls))
            attr_names = re.findall(r'::llvm::StringRef\("([^"]*)"\)', am.group(1) or "")
            key = ns + "::" + cls
            if key not in type_ids:
                raise LayoutError("%s: qualified name of op class %s not confirmed by "
                                  "MLIR_DECLARE_EXPLICIT_TYPE_ID" % (path, key))
            if key in classes:
                raise LayoutError("duplicate op class %s (%s and %s)" % (key, classes[key]["file"], path))
            classes[key] = {
                "ns": ns, "cls": cls, "name": nm.group(1), "file": path,
                "traits": split_top_level(m.group(2)),
                "attr_names": attr_names,
                "declares_read": _READ_DECL in body,
                "declares_write": _WRITE_DECL in body,
            }
            # continue after the class body
            while i < len(lines) and offs[i] < end:
                i += 1
            continue
        m = _ADAPTOR_BASE.match(ln)
        if m:
            cls = m.group(1)
            ns = ns_stack_name(stack)
            start = offs[i] + ln.rindex("{")
            end = match_brace(text, start)
            body = text[start:end]
            pm = re.search(r"\n  struct Properties \{\n", body)
            types = {}
            if pm:
                pstart = pm.end() - 2
                pend = match_brace(body, pstart)
                for pl in body[pstart:pend].split("\n"):
                    um = _USING_TY.match(pl)
                    if um:
                        types[um.group(1)] = um.group(2).strip()
            adaptors[ns + "::" + cls] = {"has_props": bool(pm), "types": types}
            while i < len(lines) and offs[i] < end:
                i += 1
            continue
        i += 1
    if stack:
        raise LayoutError("%s: unbalanced namespaces at end of file" % path)


_HW_NAME = re.compile(r'static (?:::llvm::|llvm::)?StringRef getOperationName\(\)\s*\{\s*return\s*"([^"]+)";')
_HW_CLASS = re.compile(r'class\s+(\w+)\s*(?:final\s*)?:\s*public\s+(?:::)?(?:mlir::)?Op<\s*\1\s*,')


def scan_handwritten_h(path, handwritten):
    """Hand-written (non-ODS) op classes in plain headers, e.g. affine.dma_start."""
    with open(path, encoding="utf-8", errors="replace") as fh:
        text = fh.read()
    if "getOperationName" not in text:
        return
    for m in _HW_NAME.finditer(text):
        classes = [c for c in _HW_CLASS.finditer(text, 0, m.start())]
        if not classes:
            raise LayoutError("%s: op name %s without an enclosing Op<> class" % (path, m.group(1)))
        cm = classes[-1]
        # template argument list of Op<...>
        depth, i = 0, text.index("<", cm.start())
        start = i
        while True:
            ch = text[i]
            if ch == "<":
                depth += 1
            elif ch == ">":
                depth -= 1
                if depth == 0:
                    break
            i += 1
        args = split_top_level(re.sub(r"\s+", "", text[start + 1:i]))[1:]
        traits = []
        for a in args:
            if a.startswith("::"):
                traits.append(a)
            elif a.startswith("mlir::"):
                traits.append("::" + a)
            else:
                traits.append("::mlir::" + a)
        brace = text.index("{", i)
        body = text[brace:match_brace(text, brace)]
        if re.search(r"\b(readProperties|writeProperties|using Properties)\b", body):
            raise LayoutError("%s: hand-written op %s defines properties by hand; its encoding "
                              "cannot be derived" % (path, m.group(1)))
        name = m.group(1)
        if name in handwritten:
            raise LayoutError("hand-written op %s declared twice" % name)
        handwritten[name] = {"cls": cm.group(1), "file": path, "traits": traits}


_DEF_RE = re.compile(r"^(::llvm::LogicalResult|void) (\w+)::(readProperties|writeProperties)\(", re.M)
_DEF_NS_RE = re.compile(r"^\s*(?:namespace\s+([\w:]+)\s*\{|\}\s*//\s*namespace\s+([\w:]+))\s*$", re.M)


def scan_enums(path, enums):
    """`enum class X : T {` declarations with their namespaces (for MLIR 19's
    EnumProperty, whose generated code names only the enum). Namespaces are
    tracked by brace matching: generated files close some without a comment."""
    with open(path, encoding="utf-8", errors="replace") as fh:
        text = fh.read()
    if "enum class" not in text:
        return
    toks = tokens(text)
    stack = []  # one entry per open brace: a namespace name or None
    i = 0
    while i < len(toks):
        t = toks[i]
        if t == "namespace" and i + 1 < len(toks):
            j = i + 1
            name = []
            while j < len(toks) and toks[j] != "{" and toks[j] != ";" and toks[j] != "=":
                name.append(toks[j])
                j += 1
            if j < len(toks) and toks[j] == "{":
                stack.append("".join(name) or None)
                i = j + 1
                continue
        elif t == "{":
            stack.append(None)
        elif t == "}":
            if not stack:
                raise LayoutError("%s: unbalanced braces" % path)
            stack.pop()
        elif (t == "enum" and toks[i + 1:i + 2] == ["class"] and toks[i + 3:i + 4] == [":"]):
            j = i + 4
            under = []
            while j < len(toks) and toks[j] not in ("{", ";"):
                under.append(toks[j])
                j += 1
            if j < len(toks) and toks[j] == "{":
                key = "::".join([n for n in stack if n] + [toks[i + 2]])
                ut = "".join(under)
                if key in enums and enums[key] != ut:
                    raise LayoutError("%s: enum %s declared with underlying types %s and %s"
                                      % (path, key, enums[key], ut))
                enums[key] = ut
                stack.append(None)
                i = j + 1
                continue
        i += 1


def scan_cpp_inc(path, reads, writes):
    with open(path, encoding="utf-8", errors="replace") as fh:
        text = fh.read()
    if "readProperties" not in text and "writeProperties" not in text:
        return
    # namespace at each offset
    events = [(m.start(), m.group(1), m.group(2)) for m in _DEF_NS_RE.finditer(text)]
    for m in _DEF_RE.finditer(text):
        stack = []
        for off, opened, closed in events:
            if off > m.start():
                break
            if opened:
                stack.append(opened)
            elif stack:
                stack.pop()
        ns = ns_stack_name(stack)
        key = ns + "::" + m.group(2)
        brace = text.index("{", m.end())
        end = match_brace(text, brace)
        body = text[brace + 1:end - 1]
        table = reads if m.group(3) == "readProperties" else writes
        if key in table:
            raise LayoutError("%s: duplicate %s for %s" % (path, m.group(3), key))
        table[key] = (path, body)


TRAIT_NAMES = {
    "::mlir::OpTrait::IsIsolatedFromAbove": "IsolatedFromAbove",
    "::mlir::OpTrait::IsTerminator": "IsTerminator",
    "::mlir::OpTrait::NoTerminator": "NoTerminator",
    "::mlir::OpTrait::SingleBlock": "SingleBlock",
    "::mlir::OpTrait::NoRegionArguments": "NoRegionArguments",
    "::mlir::OpTrait::AttrSizedOperandSegments": "AttrSizedOperandSegments",
    "::mlir::OpTrait::AttrSizedResultSegments": "AttrSizedResultSegments",
}


def resolve_class(classes, ns, ref):
    """C++-style lookup of a class named in a trait, from namespace ns."""
    ref = ref.strip()
    if ref.startswith("::"):
        return ref[2:] if ref[2:] in classes else None
    parts = ns.split("::") if ns else []
    for i in range(len(parts), -1, -1):
        cand = "::".join(parts[:i] + [ref])
        if cand in classes:
            return cand
    return None


def region_spec(traits):
    for t in traits:
        if t == "::mlir::OpTrait::ZeroRegions":
            return 0
        if t == "::mlir::OpTrait::OneRegion":
            return 1
        if t == "::mlir::OpTrait::VariadicRegions":
            return "*"
        m = re.fullmatch(r"::mlir::OpTrait::NRegions<(\d+)>::Impl", t)
        if m:
            return int(m.group(1))
        m = re.fullmatch(r"::mlir::OpTrait::AtLeastNRegions<(\d+)>::Impl", t)
        if m:
            return ">=" + m.group(1)
    return None


def build(include_dir, allow_custom=False, log=print):
    h_files, cpp_files, plain_h = [], [], []
    for root, dirs, files in os.walk(include_dir):
        dirs.sort()
        for f in sorted(files):
            if f.endswith(".h.inc"):
                h_files.append(os.path.join(root, f))
            elif f.endswith(".cpp.inc"):
                cpp_files.append(os.path.join(root, f))
            elif f.endswith(".h"):
                plain_h.append(os.path.join(root, f))
    classes, adaptors, reads, writes = {}, {}, {}, {}
    enums = {}
    for f in h_files:
        scan_h_inc(f, classes, adaptors)
        scan_enums(f, enums)
    for f in cpp_files:
        scan_cpp_inc(f, reads, writes)
    handwritten = {}
    for f in plain_h:
        scan_handwritten_h(f, handwritten)

    by_name = {}
    for key, c in classes.items():
        if c["name"] in by_name:
            raise LayoutError("op name %s defined twice (%s, %s)" % (c["name"], by_name[c["name"]], key))
        by_name[c["name"]] = key
    for name in handwritten:
        if name in by_name:
            raise LayoutError("op name %s is both ODS-generated and hand-written" % name)

    errors = []
    custom = []
    ops = []
    for key in sorted(classes, key=lambda k: classes[k]["name"]):
        c = classes[key]
        name = c["name"]
        traits = c["traits"]
        short = [TRAIT_NAMES[t] for t in traits if t in TRAIT_NAMES]
        implicit = None
        for t in traits:
            m = re.fullmatch(r"::mlir::OpTrait::SingleBlockImplicitTerminator<(.+)>::Impl", t)
            if m:
                short.append("SingleBlockImplicitTerminator")
                tkey = resolve_class(classes, c["ns"], m.group(1))
                if tkey is None:
                    errors.append("%s: implicit terminator class %s not found" % (name, tcls))
                else:
                    implicit = classes[tkey]["name"]
        entry = {
            "name": name,
            "dialect": name.split(".", 1)[0],
            "ods": True,
            "traits": short,
        }
        if implicit:
            entry["implicit_terminator"] = implicit
        entry["regions"] = region_spec(traits)
        entry["attr_names"] = c["attr_names"]
        adaptor = adaptors.get(key)
        has_read_def = key in reads
        has_write_def = key in writes
        entry["write_properties"] = c["declares_write"]
        if c["declares_read"] != c["declares_write"]:
            errors.append("%s: readProperties/writeProperties declared inconsistently" % name)
        if not c["declares_write"]:
            if has_read_def or has_write_def:
                errors.append("%s: properties methods defined but not declared" % name)
            entry["v5"] = []
            entry["v6"] = []
            ops.append(entry)
            continue
        if not has_read_def or not has_write_def:
            # useCustomPropertiesEncoding, or the .cpp.inc is not installed
            msg = "%s (%s): readProperties/writeProperties declared but not generated " \
                  "(custom properties encoding or missing .cpp.inc)" % (name, key)
            if allow_custom:
                custom.append(msg)
                entry["custom_encoding"] = True
                entry["v5"] = None
                entry["v6"] = None
                ops.append(entry)
                continue
            errors.append(msg)
            continue
        types = adaptor["types"] if adaptor else {}
        try:
            v5, v6 = parse_read_body(name, reads[key][1], types, c["ns"], enums)
            wseq = parse_write_body(name, writes[key][1])
        except LayoutError as e:
            errors.append(str(e))
            continue
        # cross-check the read sequence against writeProperties
        rseq = []
        merged = _merge_read_order(v5, v6)
        for f in merged:
            k = f["kind"]
            cls = k if k in ("attr", "opt_attr", "legacy_segments", "sparse_segments") else "prop"
            rseq.append((f["name"], cls))
        if rseq != wseq:
            errors.append("%s: readProperties/writeProperties disagree:\n  read  %s\n  write %s"
                          % (name, rseq, wseq))
            continue
        # the attribute reads must be exactly getAttributeNames (segment sizes may be
        # absent there: gpu.spmm_buffer_size lists no resultSegmentSizes)
        read_attrs = {f["name"] for f in merged if f["kind"] in ("attr", "opt_attr")}
        listed = set(c["attr_names"]) - {"operandSegmentSizes", "resultSegmentSizes"}
        if read_attrs != listed:
            errors.append("%s: attribute reads %s differ from getAttributeNames %s"
                          % (name, sorted(read_attrs), sorted(listed)))
            continue
        for f in merged:
            if _has_custom(f):
                custom.append("%s: property %s uses the generic readFromMlirBytecode overload "
                              "for C++ type %s" % (name, f["name"], f.get("ctype")))
                if not allow_custom:
                    errors.append(custom[-1])
        entry["v5"] = v5
        entry["v6"] = v6
        ops.append(entry)
    for name, hw in handwritten.items():
        traits = hw["traits"]
        entry = {"name": name, "dialect": name.split(".", 1)[0], "ods": False,
                 "traits": [TRAIT_NAMES[t] for t in traits if t in TRAIT_NAMES]}
        for t in traits:
            if t.startswith("::mlir::OpTrait::SingleBlockImplicitTerminator<"):
                errors.append("%s: hand-written op with an implicit terminator is not handled" % name)
        entry["regions"] = region_spec(traits)  # None: no region-count trait
        entry["attr_names"] = []
        entry["write_properties"] = False
        entry["v5"] = []
        entry["v6"] = []
        ops.append(entry)
    ops.sort(key=lambda o: o["name"])
    if errors:
        raise LayoutError("%d problem(s):\n" % len(errors) + "\n".join(errors))
    return ops, custom, len(h_files), len(cpp_files)


def _merge_read_order(v5, v6):
    """Source order of all reads: v5 list with the v6-only sparse reads appended in v6 order."""
    out = list(v5)
    for f in v6:
        if f["kind"] == "sparse_segments":
            out.append(f)
    return out


def _has_custom(spec):
    k = spec["kind"]
    if isinstance(k, dict):
        if "custom" in k:
            return True
        inner = k.get("optional") or k.get("array")
        return _has_custom(inner) if inner else False
    return False


def kind_label(spec):
    k = spec["kind"]
    if isinstance(k, str):
        return k
    if "optional" in k:
        return "optional<%s>" % kind_label(k["optional"])
    if "array" in k:
        return "array<%s>" % kind_label(k["array"])
    return "custom"


def dump(doc):
    """Deterministic JSON: header keys, then one op per line."""
    out = ["{"]
    out.append('"mlir_release": %s,' % json.dumps(doc["mlir_release"]))
    out.append('"generator": %s,' % json.dumps(doc["generator"]))
    out.append('"ops": [')
    ops = doc["ops"]
    for i, op in enumerate(ops):
        line = json.dumps(op, separators=(",", ":"), ensure_ascii=False)
        out.append(line + ("," if i + 1 < len(ops) else ""))
    out.append("]")
    out.append("}")
    return "\n".join(out) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--include-dir", default=DEFAULT_INCLUDE,
                    help="root scanned recursively for *.h.inc / *.cpp.inc (default %(default)s)")
    ap.add_argument("--out", help="write the layout JSON here (default: print summary only)")
    ap.add_argument("--mlir-release",
                    help="value of the top-level mlir_release key (default: %s for the default "
                         "include dir, else \"unknown\")" % DEFAULT_RELEASE)
    ap.add_argument("--allow-custom", action="store_true",
                    help="record ops with custom properties encodings as {\"custom\": ...} / "
                         "custom_encoding instead of failing")
    args = ap.parse_args(argv)
    if not os.path.isdir(args.include_dir):
        print("error: no such directory: %s" % args.include_dir, file=sys.stderr)
        return 2
    try:
        ops, custom, nh, nc = build(args.include_dir, args.allow_custom)
    except LayoutError as e:
        print("gen_layouts: FAILED: %s" % e, file=sys.stderr)
        return 1
    release = args.mlir_release
    if release is None:
        same = os.path.realpath(args.include_dir) == os.path.realpath(DEFAULT_INCLUDE)
        release = DEFAULT_RELEASE if same else "unknown"
    doc = {"mlir_release": release, "generator": GENERATOR, "ops": ops}
    if args.out:
        os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
        with open(args.out, "w", encoding="utf-8") as fh:
            fh.write(dump(doc))

    # summary
    dialects = sorted({op["dialect"] for op in ops})
    with_props = [op for op in ops if op["write_properties"]]
    covered = [op for op in with_props if op["v6"] is not None]
    kinds = {}
    for op in covered:
        seen = set()
        for f in op["v5"] + op["v6"]:
            key = (f["name"], kind_label(f))
            if key in seen:
                continue
            seen.add(key)
            kinds[kind_label(f)] = kinds.get(kind_label(f), 0) + 1
    print("scanned %d *.h.inc and %d *.cpp.inc under %s" % (nh, nc, args.include_dir))
    print("dialects: %d" % len(dialects))
    print("ops: %d (%d ODS-generated, %d hand-written C++ op classes)"
          % (len(ops), sum(1 for o in ops if o["ods"]), sum(1 for o in ops if not o["ods"])))
    print("ops with properties (writeProperties): %d" % len(with_props))
    print("ops covered / ops with writeProperties: %d/%d" % (len(covered), len(with_props)))
    print("ops whose v5 and v6 layouts differ: %d" % sum(1 for op in covered if op["v5"] != op["v6"]))
    print("fields per kind (v5 and v6 combined, each field once):")
    for k in sorted(kinds):
        print("  %-28s %d" % (k, kinds[k]))
    traits = {}
    for op in ops:
        for t in op["traits"]:
            traits[t] = traits.get(t, 0) + 1
    print("traits: " + ", ".join("%s=%d" % (t, traits[t]) for t in sorted(traits)))
    if custom:
        print("custom encodings recorded (--allow-custom): %d" % len(custom))
        for c in custom:
            print("  " + c)
    if args.out:
        print("wrote %s (%d bytes)" % (args.out, os.path.getsize(args.out)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
