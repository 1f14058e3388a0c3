#!/usr/bin/env python3
"""Record and replay (docs/perf-model.md, "Record and replay"): records real CUDA programs
with STRATA_RECORD_DIR under `strata run`, replays them with `strata sweep` and checks
structural properties that any sane replay has, never values captured from Strata:

  - the table has one row per config of the cartesian product, in product order, per model;
  - replayed under the recording config, every kernel's time is the one the recorded run's
    timing model gave it (the run's STRATA_PERF_LOG), for the fast and the detailed model;
  - more L2 never increases the replayed DRAM traffic (and no L2 at all costs more than a
    large one: the check is not vacuous);
  - doubling the core clock halves a compute-bound kernel's time less the launch overhead
    (fast model: within rounding; detailed: within 1%); doubling the SMs halves a large
    compute-bound grid within 5%;
  - an invalid override is rejected naming the field;
  - recordings made with STRATA_THREADS=1 and 2 replay to identical numbers.
"""
import argparse
import csv
import io
import json
import os
import shutil
import subprocess
import sys

CORE_BOUNDS = {"issue", "pipe", "shared", "l1"}  # bounds counted in core-clock cycles


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


def run(cmd, env=None, expect_ok=True):
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if expect_ok and p.returncode != 0:
        fail(f"{' '.join(cmd)} exited {p.returncode}\n{p.stdout}\n{p.stderr}")
    return p


def record(strata, program, workdir, name, threads=None, timing=None):
    rec = os.path.join(workdir, name)
    log = os.path.join(workdir, name + ".perf.jsonl")
    shutil.rmtree(rec, ignore_errors=True)
    if os.path.exists(log):
        os.remove(log)
    env = dict(os.environ, STRATA_RECORD_DIR=rec, STRATA_PERF_LOG=log, STRATA_HOST_TIME="none")
    if threads is not None:
        env["STRATA_THREADS"] = str(threads)
    if timing is not None:
        env["STRATA_TIMING"] = timing
    p = run([strata, "run", program], env=env)
    print(p.stdout.strip())
    files = sorted(f for f in os.listdir(rec) if f.endswith(".strace"))
    if not files:
        fail(f"{program}: nothing recorded in {rec}")
    print(f"recorded {len(files)} kernel(s) of {os.path.basename(program)}: {', '.join(files)}")
    return rec, log


def sweep_csv(strata, arch, rec, sets, timing="fast"):
    cmd = [strata, "sweep", rec, "--arch", arch, "--timing", timing, "--csv"]
    for s in sets:
        cmd += ["--set", s]
    rows = list(csv.DictReader(io.StringIO(run(cmd).stdout)))
    if not rows:
        fail(f"no CSV rows from {' '.join(cmd)}")
    return rows


def by_config(rows, timing):
    out = {}
    for r in rows:
        if r["timing"] == timing:
            out.setdefault(r["config"], []).append(r)
    return out


def check_table(strata, arch, rec):
    sms, clocks = ["12", "24", "48"], ["1500", "3000"]
    out = run([strata, "sweep", rec, "--arch", arch, "--timing", "both",
               "--set", "device.sm_count=" + ",".join(sms),
               "--set", "device.core_clock_mhz=" + ",".join(clocks)]).stdout
    print(out)
    want = [f"device.sm_count={s} device.core_clock_mhz={c}" for s in sms for c in clocks]
    lines = out.splitlines()
    for model in ("fast", "detailed"):
        if f"{model} model" not in lines:
            fail(f"no '{model} model' table")
        i = lines.index(f"{model} model") + 1
        if not lines[i].startswith("config"):
            fail(f"{model}: no header line")
        rows = []
        for line in lines[i + 1:]:
            if not line.strip():
                break
            rows.append(line)
        if len(rows) != len(want):
            fail(f"{model}: {len(rows)} rows, want one per config ({len(want)})")
        for row, label in zip(rows, want):
            if not row.startswith(label):
                fail(f"{model}: row '{row}' is not config '{label}'")
        if "1.000x" not in rows[0]:
            fail(f"{model}: the first config's speedup is not 1.000x: {rows[0]}")


def check_reproduces_recording(strata, arch, rec, log, timing="fast"):
    launches = []
    with open(log) as f:
        for line in f:
            j = json.loads(line)
            if j.get("op") == "launch":
                launches.append(j)
    rows = sweep_csv(strata, arch, rec, [], timing=timing)
    if len(rows) != len(launches):
        fail(f"{len(rows)} replayed launches, the perf log has {len(launches)}")
    for r, j in zip(rows, launches):
        if int(r["kernel_id"]) != j["kernel_id"] or int(r["ns"]) != j["model"]["ns"]:
            fail(f"replay under the recording config: kernel {r['kernel_id']} {r['ns']} ns, "
                 f"recorded kernel {j['kernel_id']} {j['model']['ns']} ns")
    print(f"{timing} replay under the recording config reproduces {len(rows)} recorded time(s)")


def check_l2_monotone(strata, arch, rec):
    sizes = [0, 65536, 262144, 1048576, 4194304, 16777216]
    rows = sweep_csv(strata, arch, rec, ["device.l2_bytes=" + ",".join(map(str, sizes))])
    configs = by_config(rows, "fast")
    totals = []
    for size in sizes:
        kernels = configs[f"device.l2_bytes={size}"]
        totals.append([int(k["dram_read_sectors"]) + int(k["dram_write_sectors"]) for k in kernels])
    for i in range(1, len(sizes)):
        for k, (before, now) in enumerate(zip(totals[i - 1], totals[i])):
            if now > before:
                fail(f"kernel {k}: DRAM sectors {now} with l2_bytes={sizes[i]} > {before} "
                     f"with l2_bytes={sizes[i - 1]}")
    if sum(totals[0]) <= sum(totals[-1]):
        fail(f"no L2 ({sum(totals[0])} DRAM sectors) is not worse than 16 MiB ({sum(totals[-1])})")
    print("DRAM sectors by l2_bytes:", dict(zip(sizes, (sum(t) for t in totals))))


def check_compute_scaling(strata, arch, rec):
    rows = sweep_csv(strata, arch, rec, ["device.core_clock_mhz=1500,3000"], timing="both")
    checked = 0
    for timing, tolerance in (("fast", None), ("detailed", 0.01)):
        configs = by_config(rows, timing)
        slow = configs["device.core_clock_mhz=1500"]
        fast = configs["device.core_clock_mhz=3000"]
        for a, b in zip(slow, fast):
            if timing == "fast" and not (a["bound"] in CORE_BOUNDS and b["bound"] in CORE_BOUNDS):
                continue
            ta = int(a["ns"]) - int(a["launch_ns"])
            tb = int(b["ns"]) - int(b["launch_ns"])
            allowed = 1.0 if tolerance is None else tolerance * ta / 2
            if abs(tb - ta / 2) > allowed:
                fail(f"{timing}: kernel {a['kernel_id']} {ta} ns at 1500 MHz, {tb} ns at 3000 MHz")
            checked += 1
    if checked < 2:
        fail("no compute-bound kernel to check the clock relation on")
    rows = sweep_csv(strata, arch, rec, ["device.sm_count=24,48"])
    configs = by_config(rows, "fast")
    for a, b in zip(configs["device.sm_count=24"], configs["device.sm_count=48"]):
        ta = int(a["ns"]) - int(a["launch_ns"])
        tb = int(b["ns"]) - int(b["launch_ns"])
        if abs(tb - ta / 2) > 0.05 * ta / 2:
            fail(f"kernel {a['kernel_id']}: {ta} ns on 24 SMs, {tb} ns on 48")
    print(f"clock and SM relations hold ({checked} clock checks)")


def check_threads(strata, arch, program, workdir):
    sets = ["device.l2_bytes=0,65536,4194304", "device.sm_count=12,48"]
    outputs = []
    for threads in (1, 2):
        rec, _ = record(strata, program, workdir, f"rec_threads{threads}", threads=threads)
        rows = sweep_csv(strata, arch, rec, sets, timing="both")
        outputs.append([{k: v for k, v in r.items()} for r in rows])
    if outputs[0] != outputs[1]:
        fail("recordings made with STRATA_THREADS=1 and 2 replay differently")
    print("recordings with STRATA_THREADS=1 and 2 replay identically")


def check_invalid(strata, arch, rec):
    p = run([strata, "sweep", rec, "--arch", arch, "--set", "device.sm_count=24,0"],
            expect_ok=False)
    if p.returncode == 0 or "device.sm_count" not in p.stderr:
        fail(f"an out-of-range sm_count was not rejected naming the field: {p.stderr}")
    p = run([strata, "sweep", rec, "--arch", arch, "--set", "device.no_such_field=1"],
            expect_ok=False)
    if p.returncode == 0 or "device.no_such_field" not in p.stderr:
        fail(f"an unknown field was not rejected naming it: {p.stderr}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--strata", required=True)
    ap.add_argument("--program", required=True, help="a tests/cuda program (matmul_tiled)")
    ap.add_argument("--compute-program", required=True, help="tests/model/sweep_kernels")
    ap.add_argument("--arch", required=True)
    ap.add_argument("--workdir", required=True)
    a = ap.parse_args()
    os.makedirs(a.workdir, exist_ok=True)
    rec, log = record(a.strata, a.program, a.workdir, "rec_program")
    check_table(a.strata, a.arch, rec)
    check_reproduces_recording(a.strata, a.arch, rec, log)
    check_l2_monotone(a.strata, a.arch, rec)
    check_invalid(a.strata, a.arch, rec)
    check_threads(a.strata, a.arch, a.program, a.workdir)
    drec, dlog = record(a.strata, a.program, a.workdir, "rec_detailed", timing="detailed")
    check_reproduces_recording(a.strata, a.arch, drec, dlog, timing="detailed")
    crec, clog = record(a.strata, a.compute_program, a.workdir, "rec_compute")
    check_reproduces_recording(a.strata, a.arch, crec, clog)
    check_compute_scaling(a.strata, a.arch, crec)
    print("PASS sweep")


if __name__ == "__main__":
    main()
