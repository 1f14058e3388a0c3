#!/usr/bin/env python3
"""Runs `strata run <program>` and expects a refusal: non-zero exit and the advice to
rebuild with `nvcc -cudart shared`, without the program having run."""
import subprocess
import sys


def main() -> int:
    strata, program = sys.argv[1], sys.argv[2]
    result = subprocess.run([strata, "run", program], capture_output=True, text=True,
                            timeout=60)
    output = result.stdout + result.stderr
    ok = (result.returncode != 0 and "nvcc -cudart shared" in output
          and "PASS" not in output)
    print(output)
    print(f"exit status {result.returncode}: {'refused as expected' if ok else 'NOT refused'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
