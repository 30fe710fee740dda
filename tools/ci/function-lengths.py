#!/usr/bin/env python3
"""Every function in src/ longer than 80 lines, unless a comment says why it must be.

  tools/ci/function-lengths.py [--limit N] [--all] [PATH...]   (default PATH: src)

Prints one line per function, longest first: `file:line  length  name`. The length is
counted as clang-tidy's readability-function-size counts it (LineThreshold): the line of
the body's closing brace minus the line of its opening brace. A function is left out when
a comment directly above its definition (or inside its signature) contains the marker
"Longer than 80 lines because"; --all lists those too, marked "(explained)".
Exit status 0 whatever is found (not a CI gate yet); 2 on bad arguments.

Why a brace matcher and not clang-tidy: clang-tidy's readability-function-size
(LineThreshold 80, compile_commands.json of a -DCMAKE_EXPORT_COMPILE_COMMANDS=ON build)
takes about 3.5 s per file, some 7 minutes for src/ on one of the two cores we share, and
needs a configured build; this reads the sources in under a second and runs anywhere. On
src/ at f9a10ec both listed the same 25 functions with the same lengths, and at a limit of
15 lines on eleven scheduler, testchain and rig files the same 22 (the line shown here is
where the definition starts, clang-tidy's the line of the name).
It blanks comments, string and character literals (raw strings too) and preprocessor
lines, then walks the braces: a body at namespace or class scope whose head ends in a
parameter list (plus qualifiers, a trailing return type or a constructor's initialiser
list) is a function. Lambdas and local classes count towards the function around them.
Python 3 standard library only.
"""

import argparse
import os
import re
import sys

MARKER = "Longer than 80 lines because"
SOURCE_SUFFIXES = (".cpp", ".hpp", ".h", ".cc", ".hh", ".ipp", ".inl")
SCOPE_KEYWORDS = re.compile(r"\b(namespace|class|struct|union|enum|extern)\b")
TRAILING_QUALIFIERS = re.compile(
    r"(?:\s*(?:\b(?:const|volatile|noexcept|override|final|mutable|try)\b|&&|&)"
    r"(?:\s*\([^()]*\))?)*\s*$"
)
TRAILING_RETURN = re.compile(r"\)\s*(const\s*)?(noexcept\s*)?->[^;{}()]*$")
CONTROL_HEADS = re.compile(r"^\s*(if|for|while|switch|catch|do|else)\b")


def blank(text):
    """`text` with comments, literals and preprocessor lines replaced by spaces (newlines
    kept, so offsets and line numbers stay), and the comments as (start, end, text)."""
    out = list(text)
    comments = []
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c == "#":  # a directive, with its continuation lines
            j = i
            while j < n and text[j] != "\n":
                j += 2 if text[j] == "\\" and j + 1 < n else 1
            for k in range(i, j):
                if out[k] != "\n":
                    out[k] = " "
            i = j
            continue
        if c == "\n":
            line_start = True
            i += 1
            continue
        if not c.isspace():
            line_start = False
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            comments.append((i, j, text[i:j]))
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            comments.append((i, j, text[i:j]))
        elif c == "R" and text.startswith('"', i + 1) and not (i and (text[i - 1].isalnum() or text[i - 1] == "_")):
            open_paren = text.find("(", i + 2)
            delimiter = text[i + 2 : open_paren]
            j = text.find(")" + delimiter + '"', open_paren)
            j = n if j < 0 else j + len(delimiter) + 2
        elif c == '"' or (c == "'" and not (i and text[i - 1].isalnum())):  # not 1'000
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            j += 1
        else:
            i += 1
            continue
        for k in range(i, min(j, n)):
            if out[k] != "\n":
                out[k] = " "
        i = j
    return "".join(out), comments


def matching_close(code, open_at):
    """The offset of the brace closing the one at `open_at`."""
    depth = 0
    for k in range(open_at, len(code)):
        if code[k] == "{":
            depth += 1
        elif code[k] == "}":
            depth -= 1
            if depth == 0:
                return k
    return len(code) - 1


def initialiser_colon(head):
    """The offset of a constructor's initialiser-list colon (`X::X(int a) : a_(a)`), or -1."""
    depth = 0
    for k, c in enumerate(head):
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == ":" and depth == 0:
            before, after = head[k - 1 : k], head[k + 1 : k + 2]
            if before != ":" and after != ":" and head[:k].rstrip().endswith(")"):
                return k
    return -1


def without_template_parameters(head):
    """`head` without a leading `template <...>` (whose `class` names no class scope)."""
    match = re.match(r"\s*template\s*<", head)
    if not match:
        return head
    depth = 0
    for k in range(match.end() - 1, len(head)):
        depth += {"<": 1, ">": -1}.get(head[k], 0)
        if depth == 0:
            return without_template_parameters(head[k + 1 :])
    return head


def opens_scope(head):
    """Whether a brace after `head` opens a namespace, class, struct, union or enum."""
    return bool(SCOPE_KEYWORDS.search(without_template_parameters(head).split("(")[0]))


def function_name(head):
    """The name before the parameter list of a function head, or None if it is no function."""
    head = re.sub(r"^\s*((public|private|protected)\s*:)+", "", head)
    if CONTROL_HEADS.match(head) or "(" not in head:
        return None
    colon = initialiser_colon(head)
    if colon >= 0:
        # a brace of the initialiser list (`a_{a}`) until the list ends in `)` or `}`
        if not head[colon + 1 :].rstrip().endswith((")", "}")):
            return None
        head = head[:colon]
    head = re.sub(r"\s*->[^;{}()]*$", "", head) if TRAILING_RETURN.search(head) else head
    head = TRAILING_QUALIFIERS.sub("", head)
    if not head.endswith(")"):
        return None
    depth = 0
    for k in range(len(head) - 1, -1, -1):
        if head[k] == ")":
            depth += 1
        elif head[k] == "(":
            depth -= 1
            if depth == 0:
                before = head[:k].rstrip()
                break
    else:
        return None
    if before.endswith("]"):
        return "(lambda)"
    op = re.search(r"([\w:~]*operator\s*(\(\)|[^\w\s(]+|\s\w[\w:<> ]*))$", before)
    if op:
        return re.sub(r"\s+", " ", op.group(1))
    name = re.search(r"([A-Za-z_~][\w:~]*(<[^<>;{}]*>)?)$", before)
    if not name or name.group(1) in ("decltype", "sizeof", "alignas", "noexcept", "return"):
        return None
    return name.group(1)


def explained(comments, text, decl_start, body_open):
    """Whether a comment in the definition's head, or in the block of comment lines directly
    above it, contains the marker."""
    if any(MARKER in body for start, _, body in comments if decl_start <= start < body_open):
        return True
    line_of = lambda offset: text.count("\n", 0, offset)
    top = line_of(decl_start)
    for start, end, body in reversed([c for c in comments if c[1] <= decl_start]):
        if line_of(end) not in (top - 1, top):
            return False
        if MARKER in body:
            return True
        top = line_of(start)
    return False


def functions(path):
    """(line, length, name, explained) of every function defined in the file at `path`."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    code, comments = blank(text)
    found = []
    head_start = 0
    k = 0
    while k < len(code):
        c = code[k]
        if c in ";}":
            head_start = k + 1
        elif c == "{":
            head = code[head_start:k]
            stripped = head.strip()
            scope = opens_scope(head)
            name = None if scope else function_name(stripped)
            if name is None and (scope or not stripped):
                head_start = k + 1  # into a namespace or class: its members are heads
            elif name is None:
                k = matching_close(code, k)  # a brace initialiser: part of this head
            else:
                close = matching_close(code, k)
                start = head_start + (len(head) - len(head.lstrip()))
                length = code.count("\n", k, close)
                found.append((code.count("\n", 0, start) + 1, length, name,
                              explained(comments, text, start, k)))
                k = close
                head_start = k + 1
        k += 1
    return found


def sources(paths):
    for p in paths:
        if os.path.isfile(p):
            yield p
        for root, dirs, files in os.walk(p):
            dirs.sort()
            for f in sorted(files):
                if f.endswith(SOURCE_SUFFIXES):
                    yield os.path.join(root, f)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", default=["src"])
    parser.add_argument("--limit", type=int, default=80, help="longest length allowed (80)")
    parser.add_argument("--all", action="store_true", help="list explained functions too")
    args = parser.parse_args()
    rows = []
    for path in sources(args.paths):
        for line, length, name, why in functions(path):
            if length > args.limit and (args.all or not why):
                rows.append((length, path, line, name, why))
    for length, path, line, name, why in sorted(rows, key=lambda r: (-r[0], r[1], r[2])):
        print(f"{path}:{line}  {length}  {name}{'  (explained)' if why else ''}")
    sys.stdout.flush()
    print(f"{len(rows)} function(s) longer than {args.limit} lines", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
