#!/usr/bin/env python3
"""End-to-end profile of tests/prof/prof_session.cu (issue 6, item 8): `strata prof` on a
program with NVTX ranges, two streams, pageable and pinned copies, memsets, a graph
launched twice and kernels of known shapes; assertions on the database (row counts,
kinds, names, shapes, correlation ids against the launching calls, per-stream ordering),
on the Chrome trace (check_chrome_trace.py) and on `strata stats`. --case capture runs it
with --capture-range=cudaProfilerApi: only the graph phase between cudaProfilerStart and
cudaProfilerStop is kept. Expected values come from prof_session.cu's source."""
import argparse
import csv
import io
import os
import shutil
import sqlite3
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
N = 1 << 16
BYTES = N * 4
# nsys ENUM_CUDA_MEM_KIND ids (profiler-formats.md): 0 pageable, 1 pinned, 2 device.
PAGEABLE, PINNED, DEVICE = 0, 1, 2
HTOD, DTOH = 1, 2


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--strata", required=True)
    p.add_argument("--program", required=True)
    p.add_argument("--workdir", required=True)
    p.add_argument("--case", choices=["full", "capture", "abort"], default="full")
    args = p.parse_args()
    shutil.rmtree(args.workdir, ignore_errors=True)
    os.makedirs(args.workdir)
    out = os.path.join(args.workdir, "session")
    env = dict(os.environ, STRATA_HOST_TIME="none")
    env.pop("NVTX_INJECTION64_PATH", None)
    cmd = [args.strata, "prof", "-o", out]
    if args.case == "capture":
        cmd += ["--capture-range=cudaProfilerApi", args.program, "--capture"]
    elif args.case == "abort":
        cmd += [args.program, "--abort"]
    else:
        cmd += [args.program]
    run = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
    sys.stdout.write(run.stdout)
    sys.stderr.write(run.stderr)
    if args.case == "abort":
        return abort_case(run, out)
    if run.returncode != 0 or "PASS prof_session" not in run.stdout:
        print(f"FAIL: exit status {run.returncode}")
        return 1
    failures = []

    def check(condition, what):
        if not condition:
            failures.append(what)

    db = sqlite3.connect(out + ".sqlite")
    q = lambda sql, *a: db.execute(sql, a).fetchall()
    full = args.case == "full"

    # Kernels: names, shapes, graph membership.
    kernels = q("""SELECT k.start, k."end", k.streamId, k.correlationId, s.value, k.gridX,
                          k.blockX, k.graphNodeId
                   FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.demangledName
                   ORDER BY k.start""")
    shapes = sorted((k[4].split("(")[0], k[5], k[6], (k[7] or 0) != 0) for k in kernels)
    expected = [("offset", 128, 512, True)] * 2 + [("scale", 128, 512, True)] * 2
    if full:
        expected += [("offset", 512, 128, False), ("scale", 1, 32, False),
                     ("scale", 256, 256, False)]
    check(shapes == sorted(expected), f"kernels (name, grid, block, in graph): {shapes}")
    check(all(k[4] in ("scale(float*, float, int)", "offset(float*, float, int)")
              for k in kernels), "demangled names")

    # Every piece of device work carries its launching call's correlation id.
    api = {r[0]: r[1] for r in q("""SELECT r.correlationId, s.value FROM
        CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId""")}
    for k in kernels:
        name = api.get(k[3], "")
        want = "cudaGraphLaunch" if (k[7] or 0) != 0 else "aunchKernel"
        check(want in name, f"kernel {k[4]} correlation {k[3]} -> API '{name}'")
    graph_launches = {k[3] for k in kernels if (k[7] or 0) != 0}
    check(len(graph_launches) == 2, f"graph kernels from two cudaGraphLaunch calls: {graph_launches}")

    # Copies and memsets.
    copies = sorted(q("""SELECT copyKind, srcKind, dstKind, bytes FROM CUPTI_ACTIVITY_KIND_MEMCPY"""))
    want_copies = [(DTOH, DEVICE, PAGEABLE, BYTES)]
    if full:
        want_copies += [(HTOD, PAGEABLE, DEVICE, BYTES), (HTOD, PINNED, DEVICE, BYTES)]
    check(copies == sorted(want_copies), f"memcpys (kind, src, dst, bytes): {copies}")
    memsets = sorted(q("""SELECT bytes, value, graphNodeId IS NOT NULL AND graphNodeId != 0
                          FROM CUPTI_ACTIVITY_KIND_MEMSET"""))
    want_memsets = [(BYTES, 0, 1)] * 2 + ([(BYTES // 2, 0, 0)] if full else [])
    check(memsets == sorted(want_memsets), f"memsets (bytes, value, in graph): {memsets}")
    for table in ("MEMCPY", "MEMSET"):
        for row in q(f"""SELECT w.correlationId FROM CUPTI_ACTIVITY_KIND_{table} w"""):
            check(row[0] in api, f"{table} correlation {row[0]} has no API row")

    # Device work on one stream never overlaps and follows its launching call.
    work = q("""SELECT streamId, start, "end", correlationId FROM CUPTI_ACTIVITY_KIND_KERNEL
                UNION ALL SELECT streamId, start, "end", correlationId FROM CUPTI_ACTIVITY_KIND_MEMCPY
                UNION ALL SELECT streamId, start, "end", correlationId FROM CUPTI_ACTIVITY_KIND_MEMSET
                ORDER BY streamId, start""")
    api_start = {r[0]: r[1] for r in q("SELECT correlationId, start FROM CUPTI_ACTIVITY_KIND_RUNTIME")}
    last = {}
    for stream, start, end, corr in work:
        check(start <= end, f"stream {stream}: start {start} > end {end}")
        check(start >= last.get(stream, 0), f"stream {stream}: work at {start} overlaps one ending at {last.get(stream)}")
        last[stream] = end
        check(start >= api_start.get(corr, 0), f"work at {start} before its call at {api_start.get(corr)}")
    streams = {w[0] for w in work}
    # The legacy stream (synchronous copies, the last kernel), s1 and s2; in the capture
    # range the graph on s1 and the copy back on the legacy stream.
    check(len(streams) == (3 if full else 2), f"streams with work: {streams}")
    for start, end in q('SELECT start, "end" FROM CUPTI_ACTIVITY_KIND_RUNTIME'):
        check(start <= end, f"API call [{start}, {end}]")

    # NVTX: the ranges and the mark, and the launches inside "setup".
    ranges = {r[0]: (r[1], r[2]) for r in q(
        "SELECT text, start, \"end\" FROM NVTX_EVENTS WHERE eventType = 59")}
    marks = [r[0] for r in q("SELECT text FROM NVTX_EVENTS WHERE eventType = 34")]
    check(("setup" in ranges) == full and "graph" in ranges, f"NVTX ranges {sorted(ranges)}")
    check(marks == ["copy back"], f"NVTX marks {marks}")
    if full:
        s0, s1 = ranges["setup"]
        inside = [k for k in kernels if (k[7] or 0) == 0 and k[6] != 32]
        check(all(s0 <= api_start[k[3]] <= s1 for k in inside), "setup launches inside 'setup'")
    # Synchronisations.
    syncs = q("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION")[0][0]
    check(syncs >= 1, f"synchronization rows: {syncs}")

    # The Chrome trace's structure.
    chrome = subprocess.run([sys.executable, os.path.join(HERE, "check_chrome_trace.py"),
                             out + ".json", "--kernels", str(len(expected))],
                            capture_output=True, text=True)
    sys.stdout.write(chrome.stdout)
    check(chrome.returncode == 0, "check_chrome_trace.py")

    # strata stats on the database: instances per kernel name.
    stats = subprocess.run([args.strata, "stats", "--format", "csv", "--report",
                            "cuda_gpu_kern_sum", out + ".sqlite"], capture_output=True, text=True)
    rows = [r for r in csv.reader(io.StringIO(stats.stdout)) if len(r) > 3]
    header = rows[0] if rows else []
    instances = {}
    if "Instances" in header and "Name" in header:
        for r in rows[1:]:
            instances[r[header.index("Name")].split("(")[0]] = int(r[header.index("Instances")])
    check(instances == {"scale": 4 if full else 2, "offset": 3 if full else 2},
          f"cuda_gpu_kern_sum instances {instances}")

    for f in failures:
        print("FAIL:", f)
    if not failures:
        print(f"PASS prof_session_test ({args.case}: {len(kernels)} kernels, "
              f"{len(copies)} copies, {len(memsets)} memsets)")
    return 1 if failures else 0


def abort_case(run, out):
    """The program dies with SIGABRT after its setup phase: strata prof passes the failure
    on and still writes what was collected until then (the setup's two kernels, two
    copies and memset, which the program synchronised before aborting)."""
    failures = []
    if run.returncode == 0 or "aborting after setup" not in run.stdout:
        failures.append(f"exit status {run.returncode}: the abort did not pass through")
    if not os.path.exists(out + ".sqlite"):
        failures.append("no database written for a crashed program")
    else:
        db = sqlite3.connect(out + ".sqlite")
        kernels = db.execute("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL").fetchone()[0]
        copies = db.execute("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY").fetchone()[0]
        memsets = db.execute("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMSET").fetchone()[0]
        if (kernels, copies, memsets) != (2, 2, 1):
            failures.append(f"kernels, copies, memsets before the abort: {(kernels, copies, memsets)}")
    for f in failures:
        print("FAIL:", f)
    if not failures:
        print("PASS prof_session_test (abort: the setup phase's records survive the crash)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
