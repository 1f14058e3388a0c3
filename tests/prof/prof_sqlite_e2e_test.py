#!/usr/bin/env python3
"""`strata prof -o <dir>/t <program>` on tests/cuda/vector_add: both files exist, the
program's exit status and output pass through, and the database holds what vector_add.cu
does (expected values from its source: 3 cudaMalloc, 2 host-to-device and 1
device-to-host copies of 10000 floats from std::vector (pageable) memory, one launch of
vector_add over ceil(10000 / 256) = 40 blocks of 256 threads)."""
import argparse
import json
import os
import shutil
import sqlite3
import subprocess
import sys


def nvtx_case(args):
    """`strata prof` on tests/cuda/nvtx_ranges (NVTX through Strata's libcupti.so.13):
    the NVTX rows, thread and stream names against what nvtx_ranges.cu does."""
    shutil.rmtree(args.workdir, ignore_errors=True)
    os.makedirs(args.workdir)
    out = os.path.join(args.workdir, "nvtx")
    env = dict(os.environ)
    env.pop("NVTX_INJECTION64_PATH", None)  # strata prof sets it
    run = subprocess.run([args.strata, "prof", "-o", out, args.program], env=env,
                         capture_output=True, text=True, timeout=600)
    sys.stdout.write(run.stdout)
    sys.stderr.write(run.stderr)
    if run.returncode != 0 or not os.path.exists(out + ".sqlite"):
        print(f"FAIL: exit status {run.returncode}")
        return 1
    printed = {}
    for line in run.stdout.splitlines():
        for key in ("main tid", "worker tid", "stream id"):
            if line.startswith(key + " "):
                printed[key] = int(line.split()[-1])
    failures = []

    def check(condition, what):
        if not condition:
            failures.append(what)

    check("tool attached: yes" in run.stdout, "NVTX_INJECTION64_PATH was not set")
    db = sqlite3.connect(out + ".sqlite")
    q = lambda sql, *p: db.execute(sql, p).fetchall()
    marks = q("SELECT text, color, category, uint64Value FROM NVTX_EVENTS WHERE eventType = 34 "
              "AND domainId = 0 ORDER BY start, rowid")
    check(marks == [("mark ascii", None, None, None), ("mark wide \u00e9\u2713", None, None, None),
                    ("mark ex", 0xFF00FF00, 5, 1234567890123), ("cpp mark", None, None, None)],
          f"marks {marks}")
    kernel_range = q("SELECT start, end, globalTid, color, doubleValue FROM NVTX_EVENTS "
                     "WHERE eventType = 59 AND text = 'kernel range'")
    check(len(kernel_range) == 1 and kernel_range[0][3:] == (0xFFFF0000, 3.25),
          f"kernel range {kernel_range}")
    pushes = {r[0] for r in q("SELECT text FROM NVTX_EVENTS WHERE eventType = 59")}
    check({"outer range", "kernel range", "wide range \u00fc"} <= pushes, f"push/pop {pushes}")
    cross = q("SELECT globalTid & 0xFFFFFF, endGlobalTid & 0xFFFFFF, int32Value FROM NVTX_EVENTS "
              "WHERE eventType = 60 AND text = 'cross-thread range'")
    check(cross == [(printed.get("main tid"), printed.get("worker tid"), -7)],
          f"cross-thread range {cross}")
    domain = q("SELECT domainId FROM NVTX_EVENTS WHERE eventType = 75 AND text = ?",
               "strata.nvtx_ranges")
    check(len(domain) == 1 and domain[0][0] != 0, f"domain creation {domain}")
    if len(domain) == 1:
        in_domain = q("SELECT eventType, category, color, floatValue FROM NVTX_EVENTS "
                      "WHERE domainId = ? AND text = 'registered domain range' ORDER BY eventType",
                      domain[0][0])
        check(in_domain == [(34, 1, 0xFF0000FF, 1.5), (59, 1, 0xFF0000FF, 1.5)],
              f"domain events {in_domain}")
    names = dict(q("SELECT globalTid & 0xFFFFFF, s.value FROM ThreadNames t "
                   "JOIN StringIds s ON t.nameId = s.id"))
    check(names.get(printed.get("main tid")) == "nvtx main thread" and
          names.get(printed.get("worker tid")) == "nvtx worker thread", f"thread names {names}")
    streams = q("SELECT name, streamId FROM TARGET_INFO_NVTX_CUDA_STREAM")
    check(streams == [("nvtx work stream", printed.get("stream id"))], f"stream names {streams}")
    # The launch of scale is inside "kernel range" on the same thread (what nsys's
    # nvtx_kern_sum relies on), and the kernel ended before the range (it pops after
    # cudaStreamSynchronize).
    if len(kernel_range) == 1:
        start, end, tid = kernel_range[0][:3]
        inside = q("""SELECT k.end <= ? FROM CUPTI_ACTIVITY_KIND_KERNEL k
                      JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = k.correlationId
                       AND (r.globalTid & 0x0000FFFFFF000000) = k.globalPid
                      JOIN StringIds s ON k.shortName = s.id
                      WHERE s.value = 'scale' AND r.globalTid = ? AND r.start >= ? AND r.end <= ?""",
                   end, tid, start, end)
        check(inside == [(1,)], f"scale's launch inside kernel range {inside}")
    syncs = q("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION s "
              "JOIN ENUM_CUPTI_SYNC_TYPE e ON s.syncType = e.id WHERE e.label = 'Stream sync' "
              "AND s.streamId = ?", printed.get("stream id"))
    check(syncs == [(1,)], f"stream syncs {syncs}")
    memsets = q("SELECT bytes, streamId FROM CUPTI_ACTIVITY_KIND_MEMSET")
    check(memsets == [(16384, printed.get("stream id"))], f"memsets {memsets}")
    for failure in failures:
        print("FAIL:", failure)
    return 1 if failures else 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--strata", required=True)
    parser.add_argument("--program", required=True)
    parser.add_argument("--workdir", required=True)
    parser.add_argument("--case", default="vector_add", choices=["vector_add", "nvtx"])
    args = parser.parse_args()
    if args.case == "nvtx":
        return nvtx_case(args)

    shutil.rmtree(args.workdir, ignore_errors=True)
    os.makedirs(args.workdir)
    out = os.path.join(args.workdir, "t")
    run = subprocess.run([args.strata, "prof", "-o", out, args.program],
                         capture_output=True, text=True, timeout=600)
    sys.stdout.write(run.stdout)
    sys.stderr.write(run.stderr)
    failures = []

    def check(condition, what):
        if not condition:
            failures.append(what)

    check(run.returncode == 0, f"exit status {run.returncode}, expected 0")
    check("PASS vector_add" in run.stdout, "the program's output is missing")
    check(os.path.exists(out + ".sqlite"), "t.sqlite missing")
    check(os.path.exists(out + ".json"), "t.json missing")
    if os.path.exists(out + ".json"):
        with open(out + ".json") as f:
            json.load(f)
    if os.path.exists(out + ".sqlite"):
        db = sqlite3.connect(out + ".sqlite")
        q = lambda sql: db.execute(sql).fetchall()
        check(q("SELECT value FROM META_DATA_EXPORT WHERE name = 'EXPORT_SCHEMA_VERSION'")
              == [("3.16.1",)], "schema version")
        kernels = q("""SELECT s.value, m.value, k.gridX, k.blockX, k.end > k.start
                       FROM CUPTI_ACTIVITY_KIND_KERNEL k
                       JOIN StringIds s ON k.shortName = s.id
                       JOIN StringIds m ON k.mangledName = m.id""")
        check(kernels == [("vector_add", "_Z10vector_addPKfS0_Pfi", 40, 256, 1)],
              f"kernel rows {kernels}")
        launch = q("""SELECT s.value FROM CUPTI_ACTIVITY_KIND_KERNEL k
                      JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = k.correlationId
                       AND (r.globalTid & 0x0000FFFFFF000000) = k.globalPid
                      JOIN StringIds s ON r.nameId = s.id""")
        # The <<<>>> launch of a CUDA 13 nvcc program is __cudaLaunchKernel (CUPTI cbid
        # __cudaLaunchKernel_v13000); older toolkits call cudaLaunchKernel.
        check(len(launch) == 1 and "cudaLaunchKernel" in launch[0][0],
              f"launching call {launch}")
        mallocs = q("""SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r
                       JOIN StringIds s ON r.nameId = s.id WHERE s.value LIKE 'cudaMalloc\\_v%'
                       ESCAPE '\\'""")
        check(mallocs == [(3,)], f"cudaMalloc rows {mallocs}")
        copies = q("""SELECT o.label, sk.label, dk.label, m.bytes
                      FROM CUPTI_ACTIVITY_KIND_MEMCPY m
                      JOIN ENUM_CUDA_MEMCPY_OPER o ON m.copyKind = o.id
                      JOIN ENUM_CUDA_MEM_KIND sk ON m.srcKind = sk.id
                      JOIN ENUM_CUDA_MEM_KIND dk ON m.dstKind = dk.id ORDER BY m.start""")
        check(copies == [("Host-to-Device", "Pageable", "Device", 40000)] * 2 +
              [("Device-to-Host", "Device", "Pageable", 40000)], f"copies {copies}")
        pids = q("""SELECT DISTINCT (globalTid >> 24) & 0xFFFFFF FROM CUPTI_ACTIVITY_KIND_RUNTIME""")
        processes = q("SELECT pid FROM PROCESSES")
        check(len(pids) == 1 and pids == processes, f"process ids {pids} vs {processes}")

    # An existing output is not replaced without --force-overwrite (and the program does
    # not run); with it, --metrics and --timing reach the database.
    again = subprocess.run([args.strata, "prof", "-o", out, args.program],
                           capture_output=True, text=True, timeout=600)
    check(again.returncode != 0 and "PASS" not in again.stdout,
          "an existing t.sqlite was overwritten without --force-overwrite")
    forced = subprocess.run([args.strata, "prof", "-o", out + ".sqlite", "--force-overwrite",
                             "--metrics", "--timing", "detailed", args.program],
                            capture_output=True, text=True, timeout=600)
    sys.stderr.write(forced.stderr)
    check(forced.returncode == 0, f"--force-overwrite run: exit status {forced.returncode}")
    if forced.returncode == 0:
        db = sqlite3.connect(out + ".sqlite")
        q = lambda sql: db.execute(sql).fetchall()
        check(q("SELECT value FROM STRATA_SESSION WHERE name = 'timing_mode'") == [("detailed",)],
              "timing mode not recorded")
        launch_metrics = dict(q("""SELECT name, value FROM STRATA_KERNEL_METRICS
                                   WHERE name IN ('launch__grid_size', 'launch__block_size')"""))
        check(launch_metrics == {"launch__grid_size": 40.0, "launch__block_size": 256.0},
              f"launch metrics {launch_metrics}")
        check(q("SELECT count(*) FROM STRATA_KERNEL_COUNTERS")[0][0] > 0, "no kernel counters")

    # Without -o: report1, then report2 (the first unused name), in the working directory.
    for expected in ("report1", "report2"):
        run = subprocess.run([args.strata, "prof", args.program], cwd=args.workdir,
                             capture_output=True, text=True, timeout=600)
        check(run.returncode == 0 and
              os.path.exists(os.path.join(args.workdir, expected + ".sqlite")) and
              os.path.exists(os.path.join(args.workdir, expected + ".json")),
              f"default output name {expected}")

    # Child processes: a shell running the program twice gives two processes, each with
    # its kernel joined to its own launch (correlation ids are per process).
    two = os.path.join(args.workdir, "two")
    run = subprocess.run([args.strata, "prof", "-o", two, "/bin/sh", "-c",
                          f"'{args.program}' && '{args.program}'"],
                         capture_output=True, text=True, timeout=600)
    check(run.returncode == 0 and run.stdout.count("PASS vector_add") == 2,
          f"two-process run: exit status {run.returncode}")
    if os.path.exists(two + ".sqlite"):
        db = sqlite3.connect(two + ".sqlite")
        q = lambda sql: db.execute(sql).fetchall()
        kernel_pids = q("SELECT DISTINCT globalPid >> 24 FROM CUPTI_ACTIVITY_KIND_KERNEL")
        check(len(kernel_pids) == 2, f"kernel processes {kernel_pids}")
        check(q("SELECT count(*) FROM PROCESSES WHERE pid IN "
                "(SELECT globalPid >> 24 FROM CUPTI_ACTIVITY_KIND_KERNEL)") == [(2,)],
              "PROCESSES rows of the two programs")
        joined = q("""SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k
                      JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = k.correlationId
                       AND (r.globalTid & 0x0000FFFFFF000000) = k.globalPid
                      JOIN StringIds s ON r.nameId = s.id
                      WHERE s.value LIKE '%cudaLaunchKernel%'""")
        check(joined == [(2,)], f"per-process launch joins {joined}")

    for failure in failures:
        print("FAIL:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
