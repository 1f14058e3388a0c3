#!/usr/bin/env python3
"""Fails when the generated part of docs/isa.md differs from isa_docgen's output.

usage: check_doc.py ISA_DOCGEN DOC_MD [--write]
--write replaces the generated part of DOC_MD with the current output.
"""
import subprocess
import sys

BEGIN = "<!-- BEGIN GENERATED -->\n"
END = "<!-- END GENERATED -->"


def main() -> int:
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    generated = subprocess.run([sys.argv[1]], check=True, capture_output=True, text=True).stdout
    with open(sys.argv[2], encoding="utf-8") as f:
        doc = f.read()
    start = doc.find(BEGIN)
    end = doc.find(END)
    if start < 0 or end < start:
        print(f"{sys.argv[2]}: missing {BEGIN.strip()} / {END} markers", file=sys.stderr)
        return 1
    current = doc[start + len(BEGIN):end]
    if current == generated:
        return 0
    if "--write" in sys.argv[3:]:
        with open(sys.argv[2], "w", encoding="utf-8") as f:
            f.write(doc[:start + len(BEGIN)] + generated + doc[end:])
        return 0
    print(f"{sys.argv[2]} is out of date with the ISA tables; regenerate it with\n"
          f"  {sys.argv[0]} {sys.argv[1]} {sys.argv[2]} --write", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
