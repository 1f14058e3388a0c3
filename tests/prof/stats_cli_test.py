#!/usr/bin/env python3
"""`strata stats` as users run it, on the hand-written fixtures (tests/prof/fixtures/*.sql).

Cases (--case):
  csv     each fixture is built into a database with SQLite, `strata stats --report R
          --format csv` is diffed against fixtures/<fixture>.<R>.expected.csv (computed by
          fixtures/make_expected.py, independently of Strata).
  table   the default run (all five reports, table format) prints each report's banner,
          header, rule and rows, with thousands separators.
  errors  a missing file, a non-SQLite file, an unknown report, a database lacking
          tables (reports skipped naming report and table, exit 0).
  nsys    with a real `nsys` (--nsys PATH), compares `nsys stats --format csv` with
          `strata stats --format csv` on the fixtures, value by value; exit 77 (skipped)
          without one.
"""
import argparse
import csv
import io
import pathlib
import shutil
import sqlite3
import subprocess
import sys

REPORTS = ["cuda_api_sum", "cuda_gpu_kern_sum", "cuda_gpu_mem_time_sum", "cuda_gpu_mem_size_sum", "nvtx_sum"]
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL:", message)


def build(fixture, workdir):
    db = workdir / (fixture.stem + ".sqlite")
    db.unlink(missing_ok=True)
    connection = sqlite3.connect(db)
    connection.executescript(fixture.read_text())
    connection.commit()
    connection.close()
    return db


def strata(args, *extra):
    return subprocess.run([args.strata, "stats", *extra], capture_output=True, text=True)


def case_csv(args, fixtures, workdir):
    expected_files = sorted(fixtures.glob("*.expected.csv"))
    check(len(expected_files) >= 6, f"expected files missing in {fixtures}")
    for fixture in sorted(fixtures.glob("*.sql")):
        db = build(fixture, workdir)
        for report in REPORTS:
            expected = fixtures / f"{fixture.stem}.{report}.expected.csv"
            run = strata(args, "--report", report, "--format", "csv", str(db))
            check(run.returncode == 0, f"{fixture.name} {report}: exit {run.returncode}: {run.stderr}")
            if expected.exists():
                check(run.stdout == expected.read_text(),
                      f"{fixture.name} {report}: output differs\n--- got\n{run.stdout}--- expected\n"
                      f"{expected.read_text()}")
                check(run.stderr == "", f"{fixture.name} {report}: unexpected stderr {run.stderr!r}")
            else:
                check(run.stdout == "" and run.stderr.startswith("SKIPPED: "),
                      f"{fixture.name} {report}: expected a skip, got {run.stdout!r} {run.stderr!r}")


def case_table(args, fixtures, workdir):
    db = build(fixtures / "basic.sql", workdir)
    run = strata(args, str(db))
    check(run.returncode == 0, f"table: exit {run.returncode}: {run.stderr}")
    out = run.stdout
    titles = [" ** CUDA API Summary (cuda_api_sum):", " ** CUDA GPU Kernel Summary (cuda_gpu_kern_sum):",
              " ** CUDA GPU MemOps Summary (by Time) (cuda_gpu_mem_time_sum):",
              " ** CUDA GPU MemOps Summary (by Size) (cuda_gpu_mem_size_sum):",
              " ** NVTX Range Summary (nvtx_sum):"]
    positions = [out.find(t) for t in titles]
    check(all(p >= 0 for p in positions) and positions == sorted(positions), f"table: banners/order wrong:\n{out}")
    lines = out.splitlines()
    header = next((i for i, l in enumerate(lines) if "Total Time (ns)" in l), None)
    check(header is not None, "table: no header line")
    if header is not None:
        rule = lines[header + 1]
        check(set(rule.strip()) == {"-", " "}, f"table: no dashed rule under the header: {rule!r}")
        # Each dashed segment is as wide as its column; the header cells sit inside them.
        widths = [len(seg) for seg in rule.split()]
        check(len(widths) == 9, f"table: expected 9 columns, rule {rule!r}")
        first_row = lines[header + 2]
        check("204,000" in first_row and "cudaMalloc" in first_row and "68,000.0" in first_row,
              f"table: first cuda_api_sum row {first_row!r}")
        check(len(first_row.rstrip()) <= len(rule), "table: row wider than the rule")
    check("8.389" in out and "[CUDA memcpy Host-to-Device]" in out, "table: mem size row missing")
    check("MyLib:compute" in out and "StartEnd" in out, "table: nvtx rows missing")


def case_errors(args, fixtures, workdir):
    missing = workdir / "does-not-exist.sqlite"
    run = strata(args, str(missing))
    check(run.returncode == 1 and "no such file" in run.stderr and str(missing) in run.stderr,
          f"missing file: exit {run.returncode} stderr {run.stderr!r}")
    not_db = workdir / "not-a-database.sqlite"
    not_db.write_text("this is not an SQLite database\n" * 100)
    run = strata(args, str(not_db))
    check(run.returncode == 1 and "not an SQLite database" in run.stderr,
          f"non-SQLite file: exit {run.returncode} stderr {run.stderr!r}")
    db = build(fixtures / "basic.sql", workdir)
    run = strata(args, "--report", "cuda_api_sum,no_such_report", str(db))
    check(run.returncode == 1 and "unknown report 'no_such_report'" in run.stderr,
          f"unknown report: exit {run.returncode} stderr {run.stderr!r}")
    check(run.stdout == "", "unknown report: nothing may run")
    partial = build(fixtures / "partial.sql", workdir)
    run = strata(args, str(partial))
    check(run.returncode == 0, f"partial: exit {run.returncode} stderr {run.stderr!r}")
    check("cuda_api_sum" in run.stdout and "cudaMemcpy" in run.stdout, f"partial: cuda_api_sum missing: {run.stdout}")
    expected_skips = {
        "cuda_gpu_kern_sum": "CUPTI_ACTIVITY_KIND_KERNEL",
        "cuda_gpu_mem_time_sum": "ENUM_CUDA_MEMCPY_OPER",
        "cuda_gpu_mem_size_sum": "ENUM_CUDA_MEMCPY_OPER",
        "nvtx_sum": "NVTX_EVENTS",
    }
    skips = [l for l in run.stderr.splitlines() if l.startswith("SKIPPED: ")]
    check(len(skips) == 4, f"partial: expected 4 skips, got {run.stderr!r}")
    for report, table in expected_skips.items():
        check(any(report in l and table in l for l in skips), f"partial: no skip naming {report} and {table}")
    empty = workdir / "empty.sqlite"
    empty.unlink(missing_ok=True)
    connection = sqlite3.connect(empty)
    connection.execute("CREATE TABLE unrelated (x INTEGER)")
    connection.commit()
    connection.close()
    run = strata(args, "--format", "csv", str(empty))
    check(run.returncode == 0 and run.stderr.count("SKIPPED: ") == 5,
          f"empty database: exit {run.returncode} stderr {run.stderr!r}")


def parse_csv_rows(text, header):
    """The data rows of the CSV table in `text` whose header line is `header`."""
    rows = list(csv.reader(io.StringIO(text)))
    for i, row in enumerate(rows):
        if [c.strip() for c in row] == header:
            return [r for r in rows[i + 1:] if len(r) == len(header)]
    return None


def same(a, b):
    try:
        return abs(float(a) - float(b)) <= 1e-9 * max(1.0, abs(float(a)))
    except ValueError:
        return a.strip() == b.strip()


def case_nsys(args, fixtures, workdir):
    if not args.nsys:
        print("nsys not on PATH: skipped")
        sys.exit(77)
    for fixture in sorted(fixtures.glob("*.sql")):
        db = build(fixture, workdir)
        for report in REPORTS:
            mine = strata(args, "--report", report, "--format", "csv", str(db))
            if mine.returncode != 0 or not mine.stdout:
                continue
            header = next(csv.reader(io.StringIO(mine.stdout)))
            theirs = subprocess.run([args.nsys, "stats", "--report", report, "--format", "csv", str(db)],
                                    capture_output=True, text=True)
            rows = parse_csv_rows(theirs.stdout, header)
            check(rows is not None, f"nsys {fixture.name} {report}: no table with header {header}:\n{theirs.stdout}")
            if rows is None:
                continue
            expected = list(csv.reader(io.StringIO(mine.stdout)))[1:]
            check(len(rows) == len(expected) and all(
                len(r) == len(e) and all(same(x, y) for x, y in zip(r, e)) for r, e in zip(rows, expected)),
                f"nsys {fixture.name} {report}: nsys\n{rows}\nstrata\n{expected}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--case", required=True, choices=["csv", "table", "errors", "nsys"])
    parser.add_argument("--strata", required=True)
    parser.add_argument("--fixtures", required=True)
    parser.add_argument("--workdir", required=True)
    parser.add_argument("--nsys", default="")
    args = parser.parse_args()
    if args.nsys.endswith("-NOTFOUND"):
        args.nsys = ""
    workdir = pathlib.Path(args.workdir)
    shutil.rmtree(workdir, ignore_errors=True)
    workdir.mkdir(parents=True)
    {"csv": case_csv, "table": case_table, "errors": case_errors, "nsys": case_nsys}[args.case](
        args, pathlib.Path(args.fixtures), workdir)
    if failures:
        print(f"{len(failures)} failure(s)")
        sys.exit(1)
    print("ok")


if __name__ == "__main__":
    main()
