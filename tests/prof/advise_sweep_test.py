#!/usr/bin/env python3
"""Verdict-flipping sweeps of `strata advise` (issue 6, item 7). Each point runs
`strata prof --metrics -o <dir>/<point> PROGRAM ARGS`, then `strata advise` on the
database, and checks the kernel's verdicts where the sweep must flip them:

  stride  advise_stride S, S = 1 2 4 8 16 32: a warp's global loads touch 4 sectors at
          S = 1 (32 consecutive floats) and min(32, 4 S) above: "uncoalesced" is absent at
          S = 1 and present from S = 2 on (docs/profiler.md, "Advisor": more than
          4 x 1.25 sectors per request), with sectors per request 4 S capped at 32.
  bank    advise_bank P, P = 0 1: a 32 x 32 shared tile read by columns is a 32-way bank
          conflict; padded to 33 columns it has none: "bank-conflicts" present at P = 0,
          absent at P = 1.
  stream  advise_stream: memory-bound on strata-g1; with the DRAM bandwidth doubled (a copy
          of arch/strata-g1.toml with memory_clock_mhz doubled, run through STRATA_ARCH)
          its first verdict is no longer memory-bound but compute-bound.
  streams advise_streams M, M = 0 1: two non-blocking streams each run one small kernel;
          M = 0 waits for the first before launching the second ("serialised-streams" among
          the program's verdicts), M = 1 launches both before waiting (not serialised).
With --lineinfo (the program built with nvcc -lineinfo) the stride and bank cases also
check the verdict's source line ("at: FILE:LINE"): the line of the .cu file holding the
strided load, or the column read of the tile, found by searching the source text. Without
it, the uncoalesced verdict names a PTX line.
The expected points come from the programs' access patterns, not from Strata's output."""
import argparse
import os
import re
import shutil
import subprocess
import sys


def advise(args, name, program_args, env=None):
    """Profiles one point and returns {kernel name: [(verdict, evidence), ...]} and the text."""
    out = os.path.join(args.workdir, name)
    run_env = dict(os.environ)
    if env:
        run_env.update(env)
    prof = subprocess.run([args.strata, "prof", "--metrics", "--force-overwrite", "-o", out,
                           args.program] + program_args,
                          capture_output=True, text=True, timeout=600, env=run_env)
    if prof.returncode != 0 or "PASS" not in prof.stdout:
        sys.stdout.write(prof.stdout)
        sys.stderr.write(prof.stderr)
        raise SystemExit(f"FAIL {name}: strata prof exited {prof.returncode}")
    adv = subprocess.run([args.strata, "advise", out + ".sqlite"], capture_output=True,
                         text=True, timeout=120)
    if adv.returncode != 0:
        sys.stderr.write(adv.stderr)
        raise SystemExit(f"FAIL {name}: strata advise exited {adv.returncode}")
    kernels = {}
    current = None
    for line in adv.stdout.splitlines():
        m = re.match(r"Kernel \d+: (.*)$", line)
        if m:
            current = m.group(1)
            kernels[current] = []
            continue
        if line.startswith("Program:"):
            current = None
        m = re.match(r"  \d+\. \[([a-z-]+)\] (.*)$", line)
        if m and current is not None:
            kernels[current].append((m.group(1), m.group(2)))
    return kernels, adv.stdout


def where_of(text, kernel_substring, verdict):
    """The "at:" line of `verdict` for the kernel named like `kernel_substring`, or None."""
    current = None
    last = None
    for line in text.splitlines():
        m = re.match(r"Kernel \d+: (.*)$", line)
        if m:
            current = m.group(1)
            continue
        m = re.match(r"  \d+\. \[([a-z-]+)\]", line)
        if m:
            last = m.group(1)
            continue
        m = re.match(r"     at: (.*)$", line)
        if m and current and kernel_substring in current and last == verdict:
            return m.group(1)
    return None


def source_line(path, needle):
    """1-based number of the only line of `path` containing `needle`."""
    with open(path) as f:
        hits = [i + 1 for i, l in enumerate(f) if needle in l and not l.lstrip().startswith("//")]
    if len(hits) != 1:
        raise SystemExit(f"FAIL: '{needle}' is on lines {hits} of {path}, expected one")
    return hits[0]


def check_where(failures, text, kernel, verdict, source, needle, lineinfo):
    where = where_of(text, kernel, verdict)
    if where is None:
        failures.append(f"{verdict} of {kernel} names no source line:\n{text}")
        return
    if lineinfo:
        want = f"{os.path.basename(source)}:{source_line(source, needle)}:"
        if want not in where:
            failures.append(f"{verdict} of {kernel}: expected {want} in '{where}'")
    elif "PTX line" not in where:
        failures.append(f"{verdict} of {kernel} without -lineinfo: expected a PTX line: '{where}'")


def verdicts_of(kernels, substring, text):
    for name, verdicts in kernels.items():
        if substring in name:
            return verdicts
    raise SystemExit(f"FAIL: no kernel named like '{substring}' in:\n{text}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--case", required=True, choices=["stride", "bank", "stream", "streams"])
    parser.add_argument("--strata", required=True)
    parser.add_argument("--program", required=True)
    parser.add_argument("--arch-dir", required=True)
    parser.add_argument("--workdir", required=True)
    parser.add_argument("--source", help="the program's .cu file (source-line checks)")
    parser.add_argument("--lineinfo", action="store_true", help="the program has -lineinfo")
    args = parser.parse_args()
    shutil.rmtree(args.workdir, ignore_errors=True)
    os.makedirs(args.workdir)
    failures = []

    if args.case == "stride":
        for stride in [1, 2, 4, 8, 16, 32]:
            kernels, text = advise(args, f"stride{stride}", [str(stride)])
            verdicts = verdicts_of(kernels, "strided_copy", text)
            flagged = [e for v, e in verdicts if v == "uncoalesced"]
            print(f"stride {stride}: {[v for v, _ in verdicts]}")
            if stride == 1 and flagged:
                failures.append(f"stride 1 is coalesced but flagged: {flagged[0]}")
            if stride > 1:
                if not flagged:
                    failures.append(f"stride {stride} is not flagged uncoalesced:\n{text}")
                    continue
                m = re.search(r"global loads: .*?([0-9.]+) sectors per request", flagged[0])
                want = min(32, 4 * stride)
                if not m or abs(float(m.group(1)) - want) > 0.5:
                    failures.append(f"stride {stride}: expected {want} sectors per request: "
                                    f"{flagged[0]}")
                # A warp's 32 x 4 requested bytes against the sectors moved.
                used = re.search(r"global loads: ([0-9.]+)% of the bytes moved", flagged[0])
                want_used = 100.0 * 128 / (32 * want)
                if not used or abs(float(used.group(1)) - want_used) > 0.1:
                    failures.append(f"stride {stride}: expected {want_used:.1f}% of the bytes "
                                    f"used: {flagged[0]}")
                if args.source:
                    check_where(failures, text, "strided_copy", "uncoalesced", args.source,
                                "out[i] = 2.0f * in[static_cast<size_t>(i) * stride]", args.lineinfo)
        # Coalesced 16-byte accesses: 16 sectors per request, every byte used.
        kernels, text = advise(args, "vec4", ["1", "vec4"])
        verdicts = verdicts_of(kernels, "vec4_copy", text)
        print(f"vec4: {[v for v, _ in verdicts]}")
        if any(v == "uncoalesced" for v, _ in verdicts):
            failures.append(f"coalesced float4 copy flagged uncoalesced:\n{text}")
    elif args.case == "bank":
        for pad in [0, 1]:
            kernels, text = advise(args, f"pad{pad}", [str(pad)])
            verdicts = verdicts_of(kernels, "transpose", text)
            names = [v for v, _ in verdicts]
            print(f"padding {pad}: {names}")
            if pad == 0 and "bank-conflicts" not in names:
                failures.append(f"padding 0 (32-way conflicts) not flagged:\n{text}")
            if pad == 0 and args.source and "bank-conflicts" in names:
                check_where(failures, text, "transpose", "bank-conflicts", args.source,
                            "tile[threadIdx.x * pitch + r]", args.lineinfo)
            if pad == 1 and "bank-conflicts" in names:
                failures.append(f"padding 1 (conflict-free) flagged:\n{text}")
            if "uncoalesced" in names:
                failures.append(f"padding {pad}: the transpose's global accesses are "
                                f"coalesced:\n{text}")
    elif args.case == "streams":
        for mode in [0, 1]:
            _, text = advise(args, f"mode{mode}", [str(mode)])
            program = text[text.index("Program:"):] if "Program:" in text else ""
            serialised = "[serialised-streams]" in program
            print(f"mode {mode}: serialised-streams {'flagged' if serialised else 'not flagged'}")
            if mode == 0 and not serialised:
                failures.append(f"mode 0 (host waits between streams) not flagged:\n{text}")
            if mode == 1 and serialised:
                failures.append(f"mode 1 (both streams launched together) flagged:\n{text}")
    else:
        base = os.path.join(args.arch_dir, "strata-g1.toml")
        with open(base) as f:
            config = f.read()
        m = re.search(r"^memory_clock_mhz = (\d+)", config, re.M)
        if not m:
            raise SystemExit("FAIL: no memory_clock_mhz in strata-g1.toml")
        doubled = config[:m.start(1)] + str(2 * int(m.group(1))) + config[m.end(1):]
        fast = os.path.join(args.workdir, "strata-g1-2x-dram.toml")
        with open(fast, "w") as f:
            f.write(doubled)
        kernels, text = advise(args, "g1", [], env={"STRATA_ARCH": base})
        first = verdicts_of(kernels, "stream_fma", text)
        print(f"strata-g1: {[v for v, _ in first]}")
        if not first or first[0][0] != "memory-bound":
            failures.append(f"strata-g1: expected memory-bound first:\n{text}")
        kernels, text = advise(args, "g1-2x-dram", [], env={"STRATA_ARCH": fast})
        second = verdicts_of(kernels, "stream_fma", text)
        print(f"DRAM x 2: {[v for v, _ in second]}")
        if not second or second[0][0] != "compute-bound":
            failures.append(f"DRAM x 2: expected compute-bound first:\n{text}")

    for f in failures:
        print("FAIL", f)
    if failures:
        return 1
    print(f"PASS advise {args.case}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
