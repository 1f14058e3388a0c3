#!/usr/bin/env python3
"""The export sets of libcublas.so.13 and libcublasLt.so.13: version scripts, the stubs of
the entry points Strata does not implement, and their list in docs/blas-coverage.md.

  gen_exports.py <lib> <exports.txt> <cuda include dir> <out .map> <out stubs.cc>
                 [--cpp <compiler> [<flag>...] --] <source> [<source> ...]
      <lib> is libcublas.so.13 or libcublasLt.so.13. Writes the version script (exactly
      the names of exports.txt, in version node <lib>) and one stub translation unit per
      header family of <lib> (FAMILIES), named <out stubs>_<family>.cc (`outputs` prints
      them): every exported name that none of the sources defines gets a stub there.
      With --cpp, the sources are preprocessed first (`<compiler> <flag>... -E`: give it
      the library's include directories and definitions), so that entry points defined
      by macros count as defined.
  gen_exports.py outputs <lib> <out stubs.cc>
      Prints the stub files the command above writes, `;`-separated (a CMake list).
  gen_exports.py doc --check|--write <doc.md> <cuda include dir> [--cpp <compiler> <flag>... --]
                 --lib <lib> <exports.txt> <source>... [--lib <lib> <exports.txt> <source>...]
      The stubs of each <lib>, by family, in <doc.md> between that library's markers
      (doc_markers). --write rewrites them; --check (the ctest
      blas_unsupported_doc_in_sync) exits 1 when they differ from the stubs.
  gen_exports.py list <lib> <NVIDIA's library> <exports.txt>
      Writes the functions NVIDIA's library exports (exports_cublas.txt and
      exports_cublasLt.txt are committed; rerun this when the toolkit changes).
  gen_exports.py check <lib> <built library> <exports.txt> [<NVIDIA's library>]
      Fails unless the built library exports exactly the names of exports.txt, all in
      version node <lib>, and (when NVIDIA's library exists) the same names as NVIDIA's.

A stub has the prototype of the toolkit header that declares it (the header is included,
so the compiler checks the signature), logs one warning naming itself the first time it is
called, and returns CUBLAS_STATUS_NOT_SUPPORTED; where the header's return type is not a
cublasStatus_t: const char* returns a string naming the stub, void returns nothing, and
numbers (size_t, int, float, double, cuComplex of the legacy API) return zero. Names no
header declares (NVIDIA-internal entry points) get `cublasStatus_t name(void)`.

cublas.h (the legacy v1 API) and cublas_v2.h cannot be included together (cublas_v2.h
renames the v1 names to their _v2 entry points with macros), so the families are separate
translation units: "api" includes cublas_api.h alone (no renaming macros; also the
undeclared names), "legacy" cublas.h (the v1 names, e.g. cublasSgemm returning void),
"xt" cublasXt.h (which includes cublas_v2.h; it defines only cublasXt* names, which no
macro renames). CUBLASWINAPI (the calling convention) is empty except on Windows, and
CUBLASAPI, which cublas.h, cublas_v2.h and cublasLt.h define empty when it is not
defined, qualifies no declaration.
"""
import collections
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
import lib_exports  # noqa: E402  (scripts/lib_exports.py)

MACRO = "CUBLASWINAPI"

# A stub translation unit: the names the `header` declares (the first of FAMILIES that
# declares a name owns it), and for `undeclared` also the names no header declares.
# docs/blas-coverage.md lists a family's stubs in groups: by name prefix where `groups`
# lists (prefix, group) pairs (cublasLt.h's sections do not follow its functions),
# otherwise by the header section declaring them (`first_section` before the first).
Family = collections.namedtuple("Family", "key header title undeclared groups first_section")

LT_GROUPS = [
    ("cublasLtMatmulDesc", "matmul descriptors"),
    ("cublasLtMatrixLayout", "matrix layouts"),
    ("cublasLtMatmulPreference", "matmul preferences"),
    ("cublasLtMatmulAlgo", "algorithms and heuristics"),
    ("cublasLtMatmul", "matmul"),
    ("cublasLtMatrixTransform", "matrix transform"),
    ("cublasLtEmulationDesc", "emulation descriptors"),
    ("cublasLtHeuristicsCache", "heuristics cache"),
    ("cublasLtLogger", "logging"),
    ("cublasLt", "context and version"),
]

FAMILIES = {
    "libcublas.so.13": [
        Family("api", "cublas_api.h", "cuBLAS API (`cublas_api.h`, `cublas_v2.h`)", True,
               None, "Helper"),
        Family("legacy", "cublas.h", "legacy cuBLAS v1 API (`cublas.h`)", False, None,
               "Helper"),
        Family("xt", "cublasXt.h", "cuBLASXt (`cublasXt.h`)", False, None, ""),
    ],
    "libcublasLt.so.13": [
        Family("lt", "cublasLt.h", "cuBLASLt (`cublasLt.h`)", True, LT_GROUPS, ""),
    ],
}

RESULT = "CUBLAS_STATUS_NOT_SUPPORTED"
STATUS_TYPES = {"cublasStatus_t", "cublasStatus"}  # cublas.h: #define cublasStatus cublasStatus_t
ZERO_TYPES = {"size_t", "int", "unsigned", "float", "double"}

# A stub: the exported `name`, its Prototype (None when no header declares it), the
# Family it is generated in, and `returns`, what it returns in words (for the log and doc).
Stub = collections.namedtuple("Stub", "name proto family returns")


def doc_markers(lib):
    return (f"<!-- BEGIN GENERATED blas-unsupported {lib} (src/blas/gen_exports.py doc --write) -->",
            f"<!-- END GENERATED blas-unsupported {lib} -->")


def stub_paths(lib, stubs_path):
    stem = stubs_path[:-3] if stubs_path.endswith(".cc") else stubs_path
    return [f"{stem}_{family.key}.cc" for family in FAMILIES[lib]]


def prototypes(lib, include_dir):
    headers = [os.path.join(include_dir, f.header) for f in FAMILIES[lib]]
    return lib_exports.header_prototypes(headers, MACRO, sections=True)


def returns(proto):
    """What a stub with this prototype returns: RESULT (a status), "" (void), "string"
    (const char*), or "0" or "{}" (a number or a complex number, zero)."""
    if proto is None or proto.ret in STATUS_TYPES:
        return RESULT
    if proto.ret == "void":
        return ""
    if proto.ret.replace(" ", "") == "constchar*":
        return "string"
    return "0" if proto.ret in ZERO_TYPES else "{}"


def unsupported(lib, names, protos, implemented):
    """The Stub of every exported name no source defines, in export order."""
    by_header = {f.header: f for f in FAMILIES[lib]}
    undeclared = next(f for f in FAMILIES[lib] if f.undeclared)
    stubs = []
    for name in names:
        if name in implemented:
            continue
        proto = protos.get(name)
        family = by_header[proto.header] if proto else undeclared
        stubs.append(Stub(name, proto, family, returns(proto)))
    return stubs


def stub_lines(lib, stub):
    if stub.returns == "string":
        result = f'"{stub.name}: not supported by Strata\'s {lib}"'
        said = "a string naming it"
    elif stub.returns == "":
        result, said = "", "nothing"
    elif stub.returns == RESULT:
        result, said = RESULT, RESULT
    else:
        result, said = stub.returns, "zero"
    body = ["static std::atomic_flag logged;",
            f'warn_unsupported(logged, "{stub.name}", "{said}");']
    if result:
        body.append(f"return {result};")
    if stub.proto:
        return lib_exports.stub_definition(f"{stub.proto.ret} {MACRO}", stub.name,
                                           stub.proto.params, body)
    return lib_exports.stub_definition(f"cublasStatus_t {MACRO}", stub.name, "void", body,
                                       prefix='__attribute__((visibility("default"))) ')


def write_stubs(lib, stubs_path, stubs):
    for family, path in zip(FAMILIES[lib], stub_paths(lib, stubs_path)):
        mine = [s for s in stubs if s.family == family]
        declared_by = family.header + (" (or by no header)" if family.undeclared else "")
        preamble = [
            f"// Generated by src/blas/gen_exports.py: the {lib} entry points that Strata does",
            f"// not implement, of those declared by {declared_by}. Each logs its name",
            f"// once and returns {RESULT} (nothing, a string naming it or zero",
            "// where the header's return type is not cublasStatus_t).",
            f"#include <{family.header}>",
            "",
            "#include <atomic>",
            "",
            '#include "base/log.h"',
            "",
            "namespace {",
            "",
            "// Logs that `name` is not supported and returns `result`, unless `logged` (the",
            "// stub's own flag) says it did so already.",
            "[[maybe_unused]] void warn_unsupported(std::atomic_flag& logged, const char* name,",
            "                                       const char* result) {",
            "  if (!logged.test_and_set(std::memory_order_relaxed)) {",
            f'    STRATA_LOG_WARN("{lib}: {{}} is not supported by Strata (returns {{}})", name,',
            "                    result);",
            "  }",
            "}",
            "",
            "}  // namespace",
        ]
        lib_exports.write_stubs(path, preamble, [stub_lines(lib, s) for s in mine])


def generate(lib, names_path, include_dir, map_path, stubs_path, cpp, sources):
    names = lib_exports.read_names(names_path)
    stubs = unsupported(lib, names, prototypes(lib, include_dir),
                        lib_exports.defined_in(sources, names, cpp))
    lib_exports.write_version_script(
        map_path, lib, names,
        f"Generated by src/blas/gen_exports.py from {os.path.basename(names_path)}: "
        "NVIDIA's export set.")
    write_stubs(lib, stubs_path, stubs)
    return 0


def section_name(title):
    """A header section's title without "CUBLAS" and "Functions": "BLAS1", "Helper"."""
    words = [w for w in title.split() if w.upper() != "CUBLAS" and w.lower() != "functions"]
    return " ".join(words)


def group_of(stub, section_order):
    """(order, name) of the doc group of a stub within its family."""
    family = stub.family
    if stub.proto is None:
        return (1 << 20, "declared by no header, stubbed as `cublasStatus_t name(void)`")
    if family.groups:
        return next((i, group) for i, (prefix, group) in enumerate(family.groups)
                    if stub.name.startswith(prefix))
    section = section_name(stub.proto.section) or family.first_section
    return (section_order.index(section), section)


def doc_block(lib, names, protos, stubs):
    """The Markdown between a library's markers: its stubs by family and group."""
    lines = [f"`{lib}`: {len(stubs)} of NVIDIA's {len(names)} exported functions are "
             "stubs.", ""]
    for family in FAMILIES[lib]:
        section_order = []
        for proto in protos.values():
            section = section_name(proto.section) or family.first_section
            if proto.header == family.header and section not in section_order:
                section_order.append(section)
        groups = {}
        for stub in stubs:
            if stub.family == family:
                groups.setdefault(group_of(stub, section_order), []).append(stub.name)
        for (_, group), members in sorted(groups.items()):
            title = f"{family.title}, {group}" if group else family.title
            lines.append(f"* {title} ({len(members)}): " +
                         ", ".join(f"`{n}`" for n in sorted(members)) + ".")
    return "\n".join(lines) + "\n"


def doc(mode, doc_path, include_dir, cpp, specs):
    status = 0
    for lib, names_path, sources in specs:
        names = lib_exports.read_names(names_path)
        protos = prototypes(lib, include_dir)
        stubs = unsupported(lib, names, protos, lib_exports.defined_in(sources, names, cpp))
        begin, end = doc_markers(lib)
        status |= lib_exports.sync_doc(
            mode, doc_path, begin, end, doc_block(lib, names, protos, stubs),
            updated=f"the unsupported {lib} entry points updated ({len(stubs)})",
            matches=f"the unsupported {lib} entry points match the stubs ({len(stubs)})",
            differs=f"the unsupported {lib} entry points differ from the stubs; rewrite "
                    "them with `ninja blas_unsupported_doc` in the build directory",
            wanted_label="generated from the stubs")
    return status


def parse_doc_specs(args):
    """[(lib, exports.txt, [source...])] from `--lib <lib> <exports.txt> <source>...`..."""
    specs = []
    for arg in args:
        if arg == "--lib":
            specs.append([None, None, []])
        elif not specs:
            return None
        elif specs[-1][0] is None:
            specs[-1][0] = arg
        elif specs[-1][1] is None:
            specs[-1][1] = arg
        else:
            specs[-1][2].append(arg)
    if not specs or any(s[0] not in FAMILIES or s[1] is None for s in specs):
        return None
    return specs


def split_cpp(args):
    """(preprocessor command or None, the other arguments) from `[--cpp <cmd>... --] rest`."""
    if not args or args[0] != "--cpp":
        return None, args
    if "--" not in args:
        return [], None
    end = args.index("--")
    return args[1:end], args[end + 1:]


def main(argv):
    if len(argv) >= 2 and argv[1] == "outputs" and len(argv) == 4 and argv[2] in FAMILIES:
        print(";".join(stub_paths(argv[2], argv[3])))
        return 0
    if len(argv) >= 5 and argv[1] == "doc" and argv[2] in ("--check", "--write"):
        cpp, rest = split_cpp(argv[5:])
        specs = parse_doc_specs(rest) if rest is not None and cpp != [] else None
        if specs:
            return doc(argv[2], argv[3], argv[4], cpp, specs)
    if len(argv) == 5 and argv[1] == "list" and argv[2] in FAMILIES:
        lib_exports.write_export_list(argv[3], argv[4], argv[2], "src/blas/gen_exports.py list")
        return 0
    if len(argv) in (5, 6) and argv[1] == "check" and argv[2] in FAMILIES:
        return lib_exports.check_exports(argv[3], argv[4], argv[2],
                                         argv[5] if len(argv) == 6 else None)
    if len(argv) >= 6 and argv[1] in FAMILIES:
        cpp, sources = split_cpp(argv[6:])
        if sources is not None and cpp != []:
            return generate(argv[1], argv[2], argv[3], argv[4], argv[5], cpp, sources)
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
