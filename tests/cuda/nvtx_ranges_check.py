#!/usr/bin/env python3
"""Runs nvtx_ranges under the NVTX injection and checks the raw trace it leaves.

usage: nvtx_ranges_check.py --trace PATH (--injection LIB | --no-tool) -- command [args...]

The command (`strata run nvtx_ranges`) runs with STRATA_PROF_OUTPUT=PATH and, unless
--no-tool, NVTX_INJECTION64_PATH=LIB. The trace (JSON Lines, src/prof/trace.h) must hold
exactly the NVTX events nvtx_ranges.cu makes, with the texts, colors, categories and
payloads written there (the values below are the program's, and the encodings are
NVTX's and IEEE 754's), ranges nested as the program nests them, the cross-thread range
ended by the worker thread, and the kernel of "kernel range" inside it. With --no-tool
the trace must hold nothing from NVTX.
"""
import argparse
import json
import os
import re
import struct
import subprocess
import sys

MARK, PUSH_POP, START_END, CATEGORY = 0, 1, 2, 3  # prof::Nvtx::Kind
U64, I64, DOUBLE, U32, I32, FLOAT = 1, 2, 3, 4, 5, 6  # prof::Nvtx::Payload (NVTX's values)


def float_bits(value):
    return struct.unpack("<I", struct.pack("<f", value))[0]


def double_bits(value):
    return struct.unpack("<Q", struct.pack("<d", value))[0]


class Checker:
    def __init__(self):
        self.problems = []

    def expect(self, condition, message):
        if not condition:
            self.problems.append(message)
        return condition

    def one(self, records, what, **fields):
        found = [r for r in records if all(r.get(k) == v for k, v in fields.items())]
        self.expect(len(found) == 1, f"expected one {what} with {fields}, found {len(found)}")
        return found[0] if len(found) == 1 else None


def read_trace(path):
    records = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if line.strip():
                try:
                    records.append(json.loads(line))
                except json.JSONDecodeError as e:
                    raise SystemExit(f"{path}:{number}: not JSON: {e}")
    return records


def check_with_tool(c, records, ids):
    by_type = lambda t: [r for r in records if r.get("type") == t]
    nvtx = by_type("nvtx")
    main, worker = ids["main"], ids["worker"]
    kinds = [r.get("kind", MARK) for r in nvtx]
    c.expect(kinds.count(MARK) == 5, f"marks: {kinds.count(MARK)}, expected 5")
    c.expect(kinds.count(PUSH_POP) == 7, f"push/pop ranges: {kinds.count(PUSH_POP)}, expected 7")
    c.expect(kinds.count(START_END) == 2, f"start/end ranges: {kinds.count(START_END)}, expected 2")
    c.expect(kinds.count(CATEGORY) == 2, f"category names: {kinds.count(CATEGORY)}, expected 2")
    pids = {r.get("pid") for r in nvtx}
    c.expect(len(pids) == 1 and 0 not in pids, f"NVTX records' pids: {pids}")

    domains = by_type("nvtx_domain")
    domain = c.one(domains, "domain", name="strata.nvtx_ranges")
    domain_id = domain["id"] if domain else -1
    c.expect(domain_id > 0, f"domain id {domain_id}")

    # Marks (no end), on the main thread.
    marks = [r for r in nvtx if r.get("kind", MARK) == MARK]
    for r in marks:
        c.expect("end" not in r, f"mark with an end: {r}")
        c.expect(r.get("tid") == main, f"mark not on the main thread: {r}")
    m = c.one(marks, "mark", text="mark ascii")
    if m:
        c.expect("color" not in m and m.get("payload", 0) == 0, f"plain mark has attributes: {m}")
    c.one(marks, "wide mark", text="mark wide \u00e9\u2713")
    m = c.one(marks, "Ex mark", text="mark ex")
    if m:
        c.expect(m.get("color") == 0xFF00FF00, f"mark ex color {m.get('color')}")
        c.expect(m.get("category") == 5, f"mark ex category {m.get('category')}")
        c.expect(m.get("payload") == U64 and m.get("payload_bits") == 1234567890123
                 and m.get("payload_value") == 1234567890123, f"mark ex payload {m}")
    m = c.one(marks, "domain mark", text="registered domain range", domain_id=domain_id)
    if m:
        c.expect(m.get("category") == 1 and m.get("color") == 0xFF0000FF, f"domain mark {m}")
        c.expect(m.get("payload") == FLOAT and m.get("payload_value") == 1.5
                 and m.get("payload_bits") == float_bits(1.5), f"domain mark payload {m}")

    # Category names.
    categories = [r for r in nvtx if r.get("kind") == CATEGORY]
    c.one(categories, "default-domain category", text="default category five", category=5,
          domain_id=0)
    c.one(categories, "domain category", text="domain category one", category=1,
          domain_id=domain_id)

    # Push/pop ranges: closed ones on the main thread, nested.
    pushes = [r for r in nvtx if r.get("kind") == PUSH_POP]
    outer = c.one(pushes, "push/pop range", text="outer range", domain_id=0)
    inner = c.one(pushes, "push/pop range", text="kernel range", domain_id=0)
    wide = c.one(pushes, "push/pop range", text="wide range \u00fc", domain_id=0)
    in_domain = c.one(pushes, "push/pop range", text="registered domain range",
                      domain_id=domain_id)
    for r in (outer, inner, wide, in_domain):
        if r and c.expect("end" in r, f"closed range without an end: {r}"):
            c.expect(r["start"] <= r["end"], f"range ends before it starts: {r}")
            c.expect(r.get("tid") == main and r.get("end_tid") == main,
                     f"range not on the main thread: {r}")
    if outer and inner and wide and "end" in outer:
        for child in (inner, wide):
            c.expect(outer["start"] <= child["start"] and child.get("end", -1) <= outer["end"],
                     f"{child['text']!r} is not inside 'outer range'")
        c.expect(inner.get("end", 0) <= wide["start"], "'kernel range' ends after 'wide range' starts")
    if inner:
        c.expect(inner.get("color") == 0xFFFF0000, f"kernel range color {inner.get('color')}")
        c.expect(inner.get("payload") == DOUBLE and inner.get("payload_value") == 3.25
                 and inner.get("payload_bits") == double_bits(3.25), f"kernel range payload {inner}")
    if in_domain:
        c.expect(in_domain.get("category") == 1 and in_domain.get("color") == 0xFF0000FF,
                 f"domain range attributes {in_domain}")
    # NVTX's C++ API (nvtx3.hpp): scoped ranges, one in a domain of its own.
    c.one(marks, "C++ mark", text="cpp mark", domain_id=0)
    cpp_domain = c.one(domains, "domain", name="strata.nvtx_ranges.cpp")
    cpp_outer = c.one(pushes, "push/pop range", text="cpp scoped range", domain_id=0)
    if cpp_domain:
        cpp_inner = c.one(pushes, "push/pop range", text="cpp domain range",
                          domain_id=cpp_domain["id"])
        if cpp_outer and cpp_inner:
            c.expect(cpp_outer["start"] <= cpp_inner["start"]
                     and cpp_inner.get("end", -1) <= cpp_outer.get("end", -1),
                     "'cpp domain range' is not inside 'cpp scoped range'")
    open_push = c.one(pushes, "push/pop range", text="open push at exit")
    if open_push:
        c.expect("end" not in open_push, f"range open at exit has an end: {open_push}")

    # Start/end ranges.
    starts = [r for r in nvtx if r.get("kind") == START_END]
    cross = c.one(starts, "start/end range", text="cross-thread range")
    if cross:
        c.expect(cross.get("tid") == main, f"cross-thread range started on {cross.get('tid')}")
        c.expect(cross.get("end_tid") == worker,
                 f"cross-thread range ended on {cross.get('end_tid')}, expected worker {worker}")
        c.expect(cross.get("range_id", 0) > 0, f"range id {cross.get('range_id')}")
        c.expect("end" in cross and cross["start"] <= cross["end"], f"cross-thread range {cross}")
        c.expect(cross.get("payload") == I32 and cross.get("payload_value") == -7
                 and cross.get("payload_bits") == 0xFFFFFFF9, f"cross-thread payload {cross}")
    open_start = c.one(starts, "start/end range", text="open start/end at exit")
    if open_start:
        c.expect("end" not in open_start, f"range open at exit has an end: {open_start}")
        if cross:
            c.expect(open_start.get("range_id") != cross.get("range_id"), "range ids repeat")

    # Names: threads and the stream.
    threads = by_type("thread")
    c.expect(any(t.get("tid") == main and t.get("name") == "nvtx main thread" for t in threads),
             f"no thread record naming the main thread {main}")
    c.expect(any(t.get("tid") == worker and t.get("name") == "nvtx worker thread" for t in threads),
             f"no thread record naming the worker thread {worker}")
    streams = by_type("stream")
    c.expect(any(s.get("id") == ids["stream"] and s.get("name") == "nvtx work stream"
                 for s in streams), f"no stream record {ids['stream']} named 'nvtx work stream'")

    # The kernel launched inside "kernel range": its launch call lies inside the range on
    # the main thread, and the kernel finished before the range ended (the range
    # synchronises the stream before its pop).
    kernels = [k for k in by_type("kernel") if "scale" in k.get("name", "")]
    if c.expect(len(kernels) == 1, f"kernels named *scale*: {len(kernels)}, expected 1") and inner:
        kernel = kernels[0]
        c.expect(kernel.get("stream_id") == ids["stream"], f"kernel on stream {kernel.get('stream_id')}")
        launches = [a for a in by_type("api") if a.get("correlation_id") == kernel.get("correlation_id")
                    and a.get("tid") == main]
        if c.expect(len(launches) == 1, f"launch calls of the kernel: {len(launches)}"):
            launch = launches[0]
            c.expect(inner["start"] <= launch["start"] and launch["end"] <= inner.get("end", -1),
                     f"the launch {launch.get('name')} is not inside 'kernel range'")
            c.expect(launch["start"] <= kernel["start"], "the kernel starts before its launch")
        c.expect(kernel["end"] <= inner.get("end", -1), "the kernel ends after 'kernel range'")


def check_without_tool(c, records):
    nvtx = [r for r in records if r.get("type") in ("nvtx", "nvtx_domain")]
    c.expect(not nvtx, f"NVTX records without a tool: {nvtx[:3]}")
    named = [r for r in records if r.get("type") in ("thread", "stream")
             and r.get("name") in ("nvtx main thread", "nvtx worker thread", "nvtx work stream")]
    c.expect(not named, f"NVTX names without a tool: {named}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--trace", required=True)
    parser.add_argument("--injection")
    parser.add_argument("--no-tool", action="store_true")
    parser.add_argument("--timeout", type=int, default=240)
    parser.add_argument("command", nargs="+")
    args = parser.parse_args()
    if bool(args.injection) == args.no_tool:
        parser.error("give exactly one of --injection and --no-tool")

    env = dict(os.environ)
    env["STRATA_PROF_OUTPUT"] = args.trace
    env.pop("NVTX_INJECTION64_PATH", None)
    if args.injection:
        env["NVTX_INJECTION64_PATH"] = args.injection
    if os.path.exists(args.trace):
        os.remove(args.trace)
    result = subprocess.run(args.command, env=env, capture_output=True, text=True,
                            timeout=args.timeout)
    output = result.stdout + result.stderr
    print(output, end="")
    c = Checker()
    c.expect(result.returncode == 0, f"exit status {result.returncode}")
    c.expect("PASS nvtx_ranges" in result.stdout, "the program did not pass")
    c.expect(f"tool attached: {'no' if args.no_tool else 'yes'}" in result.stdout,
             "the program saw the wrong NVTX_INJECTION64_PATH")
    ids = {}
    for key, pattern in (("main", r"main tid (\d+)"), ("worker", r"worker tid (\d+)"),
                         ("stream", r"stream id (\d+)")):
        found = re.search(pattern, result.stdout)
        if c.expect(found, f"the program did not print its {key} id"):
            ids[key] = int(found.group(1))
    if not c.expect(os.path.exists(args.trace), f"no trace written at {args.trace} "
                    "(STRATA_PROF_OUTPUT: the collector's raw trace writer)"):
        records = []
    else:
        records = read_trace(args.trace)
    if not c.problems:
        if args.no_tool:
            check_without_tool(c, records)
        else:
            check_with_tool(c, records, ids)
    for problem in c.problems:
        print(f"nvtx_ranges_check: {problem}")
    if not c.problems:
        nvtx = sum(1 for r in records if r.get("type") == "nvtx")
        print(f"nvtx_ranges_check: ok ({len(records)} records, {nvtx} NVTX)")
    return 1 if c.problems else 0


if __name__ == "__main__":
    sys.exit(main())
