#!/usr/bin/env python3
"""Writes X(name) for every enumerator of `enum cudaError` in the toolkit's driver_types.h."""
import re
import sys


def main() -> int:
    header, output = sys.argv[1], sys.argv[2]
    text = open(header, encoding="utf-8").read()
    start = text.find("enum __device_builtin__ cudaError")
    if start < 0:
        print(f"{header}: enum cudaError not found", file=sys.stderr)
        return 1
    body = text[start:text.index("};", start)]
    body = re.sub(r"/\*.*?\*/", "", body, flags=re.S)
    names = re.findall(r"\b(cuda(?:Success|Error\w*))\s*=", body)
    with open(output, "w", encoding="utf-8") as out:
        for name in names:
            out.write(f"X({name})\n")
    return 0 if names else 1


if __name__ == "__main__":
    sys.exit(main())
