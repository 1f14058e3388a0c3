#!/usr/bin/env python3
"""Runs a command and checks its stdout against an expected file.

usage: printf_check.py EXPECTED -- command [args...]

Lines starting with "[many]" come from many GPU threads, whose interleaving CUDA does
not define: they must match the expected ones as a multiset, and the lines of each
thread (same first two words) must keep their expected order. All other lines must
match exactly and in order. The command must exit 0.
"""
import subprocess
import sys

UNORDERED = "[many]"


def main() -> int:
    if len(sys.argv) < 4 or sys.argv[2] != "--":
        print(__doc__)
        return 2
    expected = open(sys.argv[1]).read().splitlines()
    result = subprocess.run(sys.argv[3:], capture_output=True, text=True, timeout=240)
    print(result.stdout, end="")
    print(result.stderr, end="", file=sys.stderr)
    actual = result.stdout.splitlines()
    problems = []
    if result.returncode != 0:
        problems.append(f"exit status {result.returncode}")

    def ordered(lines):
        return [l for l in lines if not l.startswith(UNORDERED)]

    def unordered(lines):
        return [l for l in lines if l.startswith(UNORDERED)]

    def per_thread(lines):
        threads = {}
        for l in unordered(lines):
            threads.setdefault(tuple(l.split()[:2]), []).append(l)
        return threads

    if ordered(actual) != ordered(expected):
        problems.append("ordered output differs:\n  expected " + repr(ordered(expected)) +
                        "\n  actual   " + repr(ordered(actual)))
    if sorted(unordered(actual)) != sorted(unordered(expected)):
        missing = set(unordered(expected)) - set(unordered(actual))
        extra = set(unordered(actual)) - set(unordered(expected))
        problems.append(f"{UNORDERED} lines differ: missing {sorted(missing)[:5]}, "
                        f"unexpected {sorted(extra)[:5]}")
    elif per_thread(actual) != per_thread(expected):
        problems.append(f"some thread's {UNORDERED} lines are out of program order")
    # The unordered block must sit where the expected file puts it.
    def shape(lines):
        return [UNORDERED if l.startswith(UNORDERED) else l for l in lines]
    if not problems and shape(actual) != shape(expected):
        problems.append(f"{UNORDERED} lines are not where expected")
    for p in problems:
        print(f"printf_check: {p}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
