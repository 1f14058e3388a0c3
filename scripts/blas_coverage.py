#!/usr/bin/env python3
"""The measured tables of docs/blas-coverage.md (issue 7 item 7): the usage-weighted
conformance score C2 and the static API coverage C1.

  blas_coverage.py --check|--write <doc.md> --usage <usage.def> --include <cuda include dir>
                   --stubs <dir of the generated *_stubs_*.cc> --tests <tests/blas>
                   --arch <config> [--arch <config>...]
                   ([--probe-output <file>]... | -- <probe command>...)

C2 (between the `blas-usage` markers): the signatures of src/blas/usage.def with the
outcome tests/blas/usage_probe printed for each on each config (the probe runs once per
--arch, with STRATA_ARCH set: PASS, FAIL or NOT_SUPPORTED and the status), their weights, the score per family and per framework, and the uncovered
signatures by weight. Each framework (llm.c, PyTorch, ONNX Runtime) carries a third of
the weight, split over its rows in proportion to their estimated calls per step. A
signature counts only if the probe printed PASS for it; a row the probe did not report
is an error.

C1 (between the `blas-c1` markers): per family of the toolkit headers (cublas_api.h split
as in ../shared/reference/library-api-usage.md table 1.3, cublasLt.h, the legacy cublas.h,
cublasXt.h), the header functions, those Strata implements (exported and not a generated
stub: `warn_unsupported(logged, "<name>"` in the stub sources) and those implemented and
called by some tests/blas program (the name as a program writes it: cublas_v2.h's macro
names without `_v2`; the legacy names only in programs that include cublas.h).

--write rewrites both blocks; --check (a ctest) exits 1 when the committed blocks differ
from what was measured, so the document never claims more than passes. The outcome
details (error / bound ratios) are printed, not written: they change with any kernel
change without changing what passes.
"""
import argparse
import collections
import glob
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src", "blas"))
import gen_exports  # noqa: E402  (src/blas/gen_exports.py: header prototypes by family)
import lib_exports  # noqa: E402  (scripts/lib_exports.py: marker blocks)

FIELDS = ("id framework family calls function ab cd compute scale transa transb order "
          "epilogue pointer_mode batch bucket note").split()
Signature = collections.namedtuple("Signature", FIELDS)

USAGE_MARKERS = ("<!-- BEGIN GENERATED blas-usage (scripts/blas_coverage.py --write) -->",
                 "<!-- END GENERATED blas-usage -->")
C1_MARKERS = ("<!-- BEGIN GENERATED blas-c1 (scripts/blas_coverage.py --write) -->",
              "<!-- END GENERATED blas-c1 -->")
OUTCOME = re.compile(r"^(PASS|FAIL|NOT_SUPPORTED) (\S+) (\S+)(?: (.*))?$")


def read_usage(path):
    """The rows of usage.def: USAGE("id", "framework", ..., calls, ...) lines."""
    rows = []
    text = lib_exports.strip_comments(open(path, encoding="utf-8").read())
    for m in re.finditer(r"\bUSAGE\((.*?)\)\s*$", text, flags=re.M):
        values = re.findall(r'"((?:[^"\\]|\\.)*)"|(-?\d+)', m.group(1))
        values = [s if s or not n else int(n) for s, n in values]
        if len(values) != len(FIELDS):
            sys.exit(f"{path}: a USAGE row has {len(values)} fields, not {len(FIELDS)}: {m.group(0)}")
        rows.append(Signature(*values))
    ids = [r.id for r in rows]
    if len(set(ids)) != len(ids):
        sys.exit(f"{path}: duplicate ids")
    return rows


def weights(rows):
    """{id: weight}: a third (1 / number of frameworks) per framework, by calls."""
    calls = collections.Counter()
    for r in rows:
        calls[r.framework] += r.calls
    return {r.id: r.calls / calls[r.framework] / len(calls) for r in rows}


def parse_probe(text, rows):
    """{id: (outcome, status, detail)} from the probe's output; every row must be there."""
    known = {r.id for r in rows}
    results = {}
    for line in text.splitlines():
        m = OUTCOME.match(line.strip())
        if m and m.group(2) in known:
            results[m.group(2)] = (m.group(1), m.group(3), m.group(4) or "")
    missing = [r.id for r in rows if r.id not in results]
    if missing:
        sys.exit("the probe reported no outcome for: " + ", ".join(missing) +
                 "\n--- probe output ---\n" + text[-4000:])
    return results


def outcome_text(result):
    """"PASS", "NOT_SUPPORTED" or "FAIL <status>" (a failed check reports SUCCESS)."""
    outcome, status, _ = result
    return outcome if outcome in ("PASS", "NOT_SUPPORTED") else f"{outcome} {status}"


def pct(x):
    return f"{100.0 * x:.1f}%"


def usage_block(rows, runs):
    """The C2 tables; runs: [(config, {id: (outcome, status, detail)})]."""
    w = weights(rows)
    configs = [c for c, _ in runs]
    passed = lambda res, r: res[r.id][0] == "PASS"  # noqa: E731
    c2 = lambda res, sel: sum(w[r.id] for r in sel if passed(res, r)) / sum(w[r.id] for r in sel)  # noqa: E731
    lines = []
    for config, res in runs:
        n_ok = sum(passed(res, r) for r in rows)
        lines.append(f"* `{config}`: **C2 = {pct(c2(res, rows))}** (weighted by estimated call counts); "
                     f"{n_ok} of {len(rows)} signatures pass (unweighted {pct(n_ok / len(rows))}).")
    per_config = " | ".join(f"pass ({c}) | C2 ({c})" for c in configs)
    lines += ["", f"| framework | signatures | {per_config} |",
              "|---|---|" + "---|---|" * len(configs)]
    for fw in sorted({r.framework for r in rows}):
        sel = [r for r in rows if r.framework == fw]
        cells = " | ".join(f"{sum(passed(res, r) for r in sel)} | {pct(c2(res, sel))}" for _, res in runs)
        lines.append(f"| {fw} | {len(sel)} | {cells} |")
    lines += ["", f"| family | signatures | weight | {per_config} |",
              "|---|---|---|" + "---|---|" * len(configs)]
    for fam in sorted({r.family for r in rows}):
        sel = [r for r in rows if r.family == fam]
        cells = " | ".join(f"{sum(passed(res, r) for r in sel)} | {pct(c2(res, sel))}" for _, res in runs)
        lines.append(f"| {fam} | {len(sel)} | {pct(sum(w[r.id] for r in sel))} | {cells} |")
    uncovered = sorted((r for r in rows if not all(passed(res, r) for _, res in runs)),
                       key=lambda r: (-w[r.id], r.id))
    lines += ["", f"Signatures that do not pass on every config, by weight ({len(uncovered)}):", ""]
    if uncovered:
        lines += [f"| signature | weight | {' | '.join(configs)} |", "|---|---|" + "---|" * len(configs)]
        lines += [f"| `{r.id}` | {100 * w[r.id]:.2f}% | " +
                  " | ".join(outcome_text(res[r.id]) for _, res in runs) + " |" for r in uncovered[:20]]
    else:
        lines.append("none.")
    lines += ["", "Every signature (types A/B and C/D, compute / scale type, transa / transb, "
              "Lt order, epilogue, pointer mode, batch kind, shape bucket):", "",
              "| signature | framework | function | A/B | C/D | compute / scale | ops | order | "
              f"epilogue | pointers | batch | bucket | weight | {' | '.join(configs)} |",
              "|---|---|---|---|---|---|---|---|---|---|---|---|---|" + "---|" * len(configs)]
    for r in rows:
        ops = "/".join(x for x in (r.transa, r.transb) if x != "-") or "-"
        outcomes = " | ".join(outcome_text(res[r.id]) for _, res in runs)
        lines.append(f"| `{r.id}` | {r.framework} | `{r.function}` | {r.ab} | {r.cd} | "
                     f"{r.compute} / {r.scale} | {ops} | {r.order} | {r.epilogue} | "
                     f"{r.pointer_mode} | {r.batch} | {r.bucket} | {100 * w[r.id]:.2f}% | {outcomes} |")
    return "\n".join(lines) + "\n"


# --- C1 ------------------------------------------------------------------------------------

LAPACK = re.compile(r"(getrf|getrs|getri|matinv|geqrf|gels)Batched")
EXTENSION = re.compile(r"^cublas[SDCZ](geam|dgmm|tpttr|trttp)")
L2_BATCHED = re.compile(r"gemvBatched|gemvStridedBatched")
C1_ORDER = ["Helper", "Level 1", "Level 2", "Level 2 batched", "Level 3", "Level 3 batched",
            "BLAS-like extensions", "Batched LAPACK-like", "cuBLASLt", "legacy v1 (cublas.h)",
            "cuBLASXt (cublasXt.h)"]


def c1_family(name, proto):
    if proto.header == "cublasLt.h":
        return "cuBLASLt"
    if proto.header == "cublas.h":
        return "legacy v1 (cublas.h)"
    if proto.header == "cublasXt.h":
        return "cuBLASXt (cublasXt.h)"
    if LAPACK.search(name):
        return "Batched LAPACK-like"
    if EXTENSION.search(name):
        return "BLAS-like extensions"
    if L2_BATCHED.search(name):
        return "Level 2 batched"
    section = proto.section
    if "BLAS1" in section:
        return "Level 1"
    if "BLAS2" in section:
        return "Level 2"
    if "BLAS3" in section or "Extension" in section:
        return "Level 3 batched" if "Batched" in name else "Level 3"
    return "Helper"


def called_names(name):
    """How a program names entry point `name` (cublas_v2.h renames X to X_v2, X_64 to
    X_v2_64)."""
    if name.endswith("_v2"):
        return {name, name[:-3]}
    if name.endswith("_v2_64"):
        return {name, name[:-6] + "_64"}
    return {name}


def c1_block(include_dir, stubs_dir, tests_dir):
    stubs = set()
    for path in glob.glob(os.path.join(stubs_dir, "*_stubs_*.cc")):
        stubs |= set(re.findall(r'warn_unsupported\(logged, "(\w+)"', open(path, encoding="utf-8").read()))
    if not stubs:
        sys.exit(f"no generated stubs in {stubs_dir}")
    v2_sources, legacy_sources = [], []
    for path in sorted(glob.glob(os.path.join(tests_dir, "*.cu")) + glob.glob(os.path.join(tests_dir, "*.h"))):
        text = lib_exports.strip_comments(open(path, encoding="utf-8").read())
        (legacy_sources if re.search(r"#include\s*[<\"]cublas\.h[>\"]", text) else v2_sources).append(text)
    words_v2 = set(re.findall(r"\b(cublas\w+)\b", "\n".join(v2_sources)))
    words_legacy = set(re.findall(r"\b(cublas\w+)\b", "\n".join(legacy_sources)))
    exported = set()
    for lib in gen_exports.FAMILIES:
        exported |= set(lib_exports.read_names(os.path.join(
            os.path.dirname(os.path.abspath(gen_exports.__file__)),
            "exports_cublas.txt" if lib == "libcublas.so.13" else "exports_cublasLt.txt")))
    counts = collections.OrderedDict((f, [0, 0, 0]) for f in C1_ORDER)
    for lib in gen_exports.FAMILIES:
        for name, proto in gen_exports.prototypes(lib, include_dir).items():
            family = c1_family(name, proto)
            implemented = name in exported and name not in stubs
            words = words_legacy if proto.header == "cublas.h" else words_v2
            tested = implemented and bool(called_names(name) & words)
            counts[family][0] += 1
            counts[family][1] += implemented
            counts[family][2] += tested
    lines = ["| family | header functions | implemented | implemented and tested | C1 |",
             "|---|---|---|---|---|"]
    total = [0, 0, 0]
    for family, (n, impl, tested) in counts.items():
        if n:
            lines.append(f"| {family} | {n} | {impl} | {tested} | {pct(tested / n)} |")
            total = [a + b for a, b in zip(total, (n, impl, tested))]
    lines.append(f"| all | {total[0]} | {total[1]} | {total[2]} | {pct(total[2] / total[0])} |")
    return "\n".join(lines) + "\n"


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", metavar="DOC")
    mode.add_argument("--write", metavar="DOC")
    parser.add_argument("--usage", required=True)
    parser.add_argument("--include", required=True)
    parser.add_argument("--stubs", required=True)
    parser.add_argument("--tests", required=True)
    parser.add_argument("--arch", action="append", required=True,
                        help="a config (STRATA_ARCH) to run the probe on; repeatable")
    parser.add_argument("--probe-output", action="append", default=[],
                        help="the probe's output for each --arch, in order, instead of running it")
    parser.add_argument("probe", nargs="*", help="the probe command (after --)")
    args = parser.parse_args(argv[1:])
    rows = read_usage(args.usage)
    if args.probe_output and len(args.probe_output) != len(args.arch):
        parser.error("give one --probe-output per --arch")
    if not args.probe_output and not args.probe:
        parser.error("give --probe-output or the probe command")
    runs = []
    for i, arch in enumerate(args.arch):
        if args.probe_output:
            text = open(args.probe_output[i], encoding="utf-8").read()
        else:
            run = subprocess.run(args.probe, capture_output=True, text=True, timeout=1800,
                                 env=dict(os.environ, STRATA_ARCH=arch))
            text = run.stdout + run.stderr
            if run.returncode != 0 or "PASS usage_probe" not in run.stdout:
                sys.exit(f"the probe failed on {arch} (exit {run.returncode}):\n{text[-4000:]}")
        results = parse_probe(text, rows)
        for r in rows:
            outcome, status, detail = results[r.id]
            if outcome != "PASS":
                print(f"{arch}: {outcome} {r.id} {status} {detail}")
        runs.append((arch, results))
    doc = args.check or args.write
    mode = "--check" if args.check else "--write"
    status = 0
    for (begin, end), block, what in (
            (USAGE_MARKERS, usage_block(rows, runs), "usage-weighted score"),
            (C1_MARKERS, c1_block(args.include, args.stubs, args.tests), "static API coverage")):
        status |= lib_exports.sync_doc(
            mode, doc, begin, end, block,
            updated=f"the {what} updated", matches=f"the {what} matches the measurement",
            differs=f"the {what} differs from the measurement; rewrite it with `ninja "
                    "blas_coverage_doc` in the build directory",
            wanted_label="measured")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
