"""Drop-in NVIDIA libraries' export sets: the parts every src/<lib>/gen_exports.py shares.

A Strata library that stands in for one of NVIDIA's (libcupti.so.13, libcublas.so.13,
libcublasLt.so.13) exports exactly NVIDIA's functions, in NVIDIA's version node. The
export set is a committed list (exports.txt, written from NVIDIA's library by
write_export_list); the library's generator turns it into a version script
(write_version_script) and a stub, with the toolkit header's own prototype
(header_prototypes), for every exported name no Strata source defines (defined_in,
write_stubs). The library's export test (check_exports) compares the built library with
the list and with NVIDIA's library. A Markdown document lists the stubs between markers
(sync_doc; its --check mode is a ctest drift test).

Used by src/cupti/gen_exports.py, src/cupti/list_exports.py and src/blas/gen_exports.py.
Nothing here knows a particular library: status types, error enumerators, logging calls
and version nodes are the caller's.
"""
import collections
import difflib
import os
import re
import subprocess
import sys

# One toolkit header declaration: `<ret> <MACRO> <name>(<params>);`.
#   header: the header's file name ("cublas_api.h");
#   ret: the return type as written ("cublasStatus_t", "const char*", "void");
#   params: the parameter list as written, whitespace collapsed ("" or "void" for none);
#   section: the title of the header section the declaration is in ("" before the first,
#            or when the caller asks for no sections).
Prototype = collections.namedtuple("Prototype", "header ret params section")

# A return type: an identifier, optionally `const`-qualified and followed by `*`s
# (multi-word types such as `unsigned int` would be read as their last word; the toolkit
# headers scanned so far have none).
_RET = r"((?:const\s+)?\w+(?:\s*\*)*)"

# Header sections: `/* ---- Title ---- */`, or a `/* Title */` comment between two
# comments made of dashes only.
_SECTION = re.compile(
    r"/\*\s*-{3,}\s*([^\s*\-][^*]*?)\s*-{3,}\s*\*/"
    r"|/\*\s*-{3,}\s*\*/\s*/\*\s*([^*]+?)\s*\*/\s*/\*\s*-{3,}\s*\*/")


def strip_comments(text):
    """C/C++ source without its comments (each replaced by a space)."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def read_names(path):
    """The names of an export list: one per line; blank lines and `#` comments skipped."""
    with open(path, encoding="utf-8") as f:
        return [line.strip() for line in f if line.strip() and not line.startswith("#")]


def write_if_changed(path, text):
    """Writes `text` to `path` unless the file already holds it (keeps its timestamp, so
    the build does not recompile what did not change)."""
    if not os.path.exists(path) or open(path, encoding="utf-8").read() != text:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)


def _sections(text, with_sections):
    """(title, text) pieces of a header, split at its section banners."""
    if not with_sections:
        return [("", text)]
    pieces, title, start = [], "", 0
    for m in _SECTION.finditer(text):
        pieces.append((title, text[start:m.start()]))
        title = " ".join((m.group(1) or m.group(2)).split())
        start = m.end()
    pieces.append((title, text[start:]))
    return pieces


def header_prototypes(headers, macro, sections=False):
    """name -> Prototype for every `<ret> <macro> <name>(<params>);` the headers declare.

    The headers are read in the order given; the first declaration of a name wins.
    Declarations whose parameters contain parentheses (function pointer parameters) or
    that are definitions (static inline wrappers) are not prototypes and are skipped.
    With `sections`, each prototype carries the title of its header section (_SECTION).
    """
    pattern = re.compile(_RET + r"\s*\b" + re.escape(macro) +
                         r"\s+(\w+)\s*\(([^;{}()]*)\)\s*;")
    found = {}
    for path in headers:
        with open(path, encoding="utf-8", errors="replace") as f:
            raw = f.read()
        for title, piece in _sections(raw, sections):
            text = " ".join(strip_comments(piece).split())
            for m in pattern.finditer(text):
                ret, name, params = m.groups()
                found.setdefault(name, Prototype(os.path.basename(path), ret, params.strip(),
                                                 title))
    return found


def source_text(path, preprocessor=None):
    """The text of a C/C++ source; with `preprocessor` (a command such as
    ["g++", "-Isrc", ...], run with `-E <path>`), the preprocessed text of the lines of
    `path` itself (macros expanded, the included headers left out)."""
    if not preprocessor:
        with open(path, encoding="utf-8") as f:
            return f.read()
    run = subprocess.run(list(preprocessor) + ["-E", path], capture_output=True, text=True)
    if run.returncode != 0:
        sys.stderr.write(run.stderr)
        raise SystemExit(f"{path}: the preprocessor failed: {' '.join(preprocessor)}")
    out = run.stdout
    mine, keep, lines = os.path.realpath(path), True, []
    for line in out.splitlines():
        m = re.match(r'#\s*\d+\s+"(.*)"', line)  # line marker: # <line> "<file>" <flags>
        if m:
            keep = os.path.realpath(m.group(1)) == mine
        elif keep:
            lines.append(line)
    return "\n".join(lines)


def defined_in(sources, names, preprocessor=None):
    """The `names` that one of the `sources` (C/C++ files) defines as a function. With
    `preprocessor` (source_text), definitions that macros expand to count too."""
    defined = set()
    texts = []
    for path in sources:
        texts.append(strip_comments(source_text(path, preprocessor)))
    text = "\n".join(texts)
    for name in names:
        if re.search(r"\b" + re.escape(name) + r"\s*\([^;{}]*\)\s*(noexcept\s*)?\{", text):
            defined.add(name)
    return defined


def write_version_script(path, node, names, comment):
    """A linker version script exporting exactly `names` in version node `node` (and
    nothing else), its first line the C comment `comment`. Replaced atomically."""
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        f.write(f"/* {comment} */\n")
        f.write(f"{node} {{\n  global:\n")
        for name in names:
            f.write(f"    {name};\n")
        f.write("  local:\n    *;\n};\n")
    os.replace(path + ".tmp", path)


def stub_definition(ret, name, params, body, prefix=""):
    """The lines of a C function definition `<prefix><ret> <name>(<params>) { <body> }`;
    `body` is a list of statements (lines, indented here). `ret` may carry a calling
    convention macro ("cublasStatus_t CUBLASWINAPI")."""
    return [f"{prefix}{ret} {name}({params}) {{"] + [f"  {line}" for line in body] + ["}"]


def write_stubs(path, preamble, definitions):
    """A C++ translation unit: `preamble` (lines: comments, includes, helpers), then the
    `definitions` (lists of lines, stub_definition) in an extern "C" block. Written only
    when it changed (write_if_changed)."""
    out = list(preamble) + ["", 'extern "C" {', ""]
    for lines in definitions:
        out += lines
    out += ["", '}  // extern "C"', ""]
    write_if_changed(path, "\n".join(out))


def sync_doc(mode, doc_path, begin_marker, end_marker, wanted, *, updated, matches, differs,
             wanted_label="generated"):
    """Keeps the part of `doc_path` between the lines `begin_marker` and `end_marker`
    equal to `wanted`. mode "--write" rewrites it when it differs (printing `updated`);
    "--check" prints `matches` and returns 0 when it is equal, else a unified diff (the
    new side labelled `wanted_label`) and `differs`, and returns 1. The messages are the
    caller's, whole lines without the "<doc_path>: " they are printed after."""
    with open(doc_path, encoding="utf-8") as f:
        doc = f.read()
    begin, end = doc.find(begin_marker), doc.find(end_marker)
    if begin < 0 or end < begin:
        print(f"{doc_path}: missing the markers\n  {begin_marker}\n  {end_marker}",
              file=sys.stderr)
        return 1
    body_start = begin + len(begin_marker) + 1  # after the marker's line
    current = doc[body_start:end]
    if mode == "--write":
        if current != wanted:
            with open(doc_path, "w", encoding="utf-8") as f:
                f.write(doc[:body_start] + wanted + doc[end:])
            print(f"{doc_path}: {updated}")
        return 0
    if current == wanted:
        print(f"{doc_path}: {matches}")
        return 0
    sys.stderr.writelines(difflib.unified_diff(
        current.splitlines(True), wanted.splitlines(True), f"{doc_path} (now)", wanted_label))
    print(f"\n{doc_path}: {differs}", file=sys.stderr)
    return 1


# --- Export sets of built libraries -------------------------------------------------------

# (name, version, kind) of a defined dynamic symbol: version is the node for the default
# version (name@@node), "(node)" for a hidden one (name@node), "" when unversioned; kind
# is "DF" for functions, "DO" for objects (the version nodes' own symbols are objects).
Symbol = collections.namedtuple("Symbol", "name version kind")


def dynamic_symbols(lib):
    """Every defined global or weak function and object of `lib`'s dynamic symbol table
    (readelf --dyn-syms -W)."""
    out = subprocess.run(["readelf", "--dyn-syms", "-W", lib], check=True,
                         capture_output=True, text=True).stdout
    symbols = []
    for line in out.splitlines():
        #   12: 0000000000012345   291 FUNC    GLOBAL DEFAULT   12 cuptiFoo@@libcupti.so.13
        fields = line.split()
        if len(fields) < 8 or not fields[0].rstrip(":").isdigit():
            continue
        _, _, _, kind, bind, _, ndx, name = fields[:8]
        if ndx == "UND" or bind not in ("GLOBAL", "WEAK"):
            continue
        kind = {"FUNC": "DF", "IFUNC": "DF", "OBJECT": "DO"}.get(kind)
        if kind is None:
            continue
        version = ""
        if "@@" in name:
            name, version = name.split("@@", 1)
        elif "@" in name:
            name, hidden = name.split("@", 1)
            version = f"({hidden})"
        symbols.append(Symbol(name, version, kind))
    return symbols


def exported_functions(lib):
    """name -> version of every function `lib` exports."""
    return {s.name: s.version for s in dynamic_symbols(lib) if s.kind == "DF"}


def write_export_list(reference, out_path, node, generator):
    """Writes the functions NVIDIA's library `reference` exports, sorted, one a line,
    under a comment naming the version node and the `generator` script."""
    names = sorted(exported_functions(reference))
    with open(out_path, "w", encoding="utf-8") as f:
        f.write(f"# The {len(names)} functions NVIDIA's {node} exports (all in version node "
                f"{node}).\n# Generated by {generator} from CUDA 13's library.\n")
        for name in names:
            f.write(name + "\n")
    print(f"{out_path}: {len(names)} names")


def check_exports(built, names_path, node, reference):
    """0 when the built library exports exactly the functions of `names_path`, every one
    in version node `node` (as the default version), and defines that node; and, when
    `reference` (NVIDIA's library) exists, exports the same functions as NVIDIA's, all of
    NVIDIA's being in `node`. Otherwise prints what differs and returns 1."""
    errors = []
    names = set(read_names(names_path))
    symbols = dynamic_symbols(built)
    functions = {s.name: s.version for s in symbols if s.kind == "DF"}
    if set(functions) != names:
        missing = sorted(names - set(functions))
        extra = sorted(set(functions) - names)
        if missing:
            errors.append(f"not exported: {' '.join(missing)}")
        if extra:
            errors.append(f"exported but not NVIDIA's: {' '.join(extra)}")
    wrong_node = sorted(n for n, v in functions.items() if v != node)
    if wrong_node:
        errors.append(f"not in version node {node}: {' '.join(wrong_node)}")
    if not any(s.name == node and s.kind == "DO" for s in symbols):
        errors.append(f"the version node {node} is not defined")
    if reference and os.path.exists(reference):
        nvidia = exported_functions(reference)
        if set(nvidia) != set(functions):
            errors.append("export set differs from NVIDIA's: "
                          f"{' '.join(sorted(set(nvidia) ^ set(functions)))}")
        nodes = set(nvidia.values())
        if nodes != {node}:
            errors.append(f"NVIDIA's library has version nodes {nodes}, expected {node}")
    else:
        print(f"(NVIDIA's library not found at {reference}; compared with {names_path} only)")
    for e in errors:
        print(f"{built}: {e}", file=sys.stderr)
    if not errors:
        print(f"{built}: {len(functions)} functions, all in {node}, as NVIDIA's")
    return 1 if errors else 0
