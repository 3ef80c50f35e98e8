"""Scanning MLIR's printed text, shared by check_layouts.py and default_props.py."""

# Each opening bracket with the closing bracket that ends it.
PAIRS = {"(": ")", "[": "]", "{": "}", "<": ">"}


def split_top_level(s):
    """Split `a = x, b = <y, z>` at commas outside brackets and strings.

    A closing bracket counts only where it closes the innermost open one, so
    the `>` of `->` or of a `>=` comparison does not end a bracket. Empty
    trailing text gives no part.
    """
    parts, depth, cur, i = [], [], [], 0
    while i < len(s):
        c = s[i]
        if c == '"':
            j = i + 1
            while j < len(s) and s[j] != '"':
                j += 2 if s[j] == "\\" else 1
            cur.append(s[i:j + 1])
            i = j + 1
            continue
        if c == "-" and s[i + 1:i + 2] == ">":
            cur.append("->")
            i += 2
            continue
        if c in PAIRS:
            depth.append(PAIRS[c])
        elif c in ")]}>" and depth and depth[-1] == c:
            depth.pop()
        if c == "," and not depth:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(c)
        i += 1
    if "".join(cur).strip():
        parts.append("".join(cur).strip())
    return parts
