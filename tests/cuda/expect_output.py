#!/usr/bin/env python3
"""Runs a command and checks its exit status and output.

usage: expect_output.py [--exit N | --fail] [--expect TEXT]... [--reject TEXT]...
                        [--imports SYMBOL]... -- command [args...]

--exit N      the exit status must be N (default 0); --fail: any non-zero status.
--expect      TEXT must appear in stdout or stderr; --reject: must not.
--imports     the command's program (its first argument after `strata run`, or the
              command itself) must import SYMBOL dynamically (readelf --dyn-syms).
"""
import argparse
import subprocess
import sys


def imported_symbols(program):
    out = subprocess.run(["readelf", "--dyn-syms", "-W", program], check=True,
                         capture_output=True, text=True).stdout
    names = set()
    for line in out.splitlines():
        fields = line.split()
        if len(fields) >= 8 and fields[0].endswith(":") and fields[6] == "UND":
            names.add(fields[7].split("@")[0])
    return names


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--exit", type=int, default=0)
    parser.add_argument("--fail", action="store_true")
    parser.add_argument("--expect", action="append", default=[])
    parser.add_argument("--reject", action="append", default=[])
    parser.add_argument("--imports", action="append", default=[])
    parser.add_argument("--timeout", type=int, default=240)
    parser.add_argument("command", nargs="+")
    args = parser.parse_args()

    problems = []
    if args.imports:
        command = args.command
        program = command[2] if len(command) > 2 and command[1] == "run" else command[0]
        missing = [s for s in args.imports if s not in imported_symbols(program)]
        if missing:
            problems.append(f"{program} does not import {', '.join(missing)}")

    result = subprocess.run(args.command, capture_output=True, text=True,
                            timeout=args.timeout)
    output = result.stdout + result.stderr
    print(output, end="")
    if args.fail and result.returncode == 0:
        problems.append("exit status 0, expected a failure")
    if not args.fail and result.returncode != args.exit:
        problems.append(f"exit status {result.returncode}, expected {args.exit}")
    problems += [f"missing output: {text!r}" for text in args.expect if text not in output]
    problems += [f"unexpected output: {text!r}" for text in args.reject if text in output]
    for problem in problems:
        print(f"expect_output: {problem}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
