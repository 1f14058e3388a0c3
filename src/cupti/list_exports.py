#!/usr/bin/env python3
"""The export set of libcupti.so.13: NVIDIA's names, and the check that Strata's matches.

  list_exports.py write <NVIDIA libcupti.so.13> <exports.txt>
      Writes the functions NVIDIA's library exports (its dynamic symbol table, read with
      readelf --dyn-syms), one name per line, sorted. exports.txt is committed; rerun this
      when the toolkit changes.
  list_exports.py check <built libcupti.so.13> <exports.txt> [<NVIDIA libcupti.so.13>]
      Fails unless the built library exports exactly the names of exports.txt, every one
      a function in version node libcupti.so.13, and defines that version node; with the
      NVIDIA library (when the file exists) also that its export set equals NVIDIA's.

Both are scripts/lib_exports.py's, for this library's version node.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
import lib_exports  # noqa: E402  (scripts/lib_exports.py)

NODE = "libcupti.so.13"


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "write":
        lib_exports.write_export_list(sys.argv[2], sys.argv[3], NODE,
                                      "src/cupti/list_exports.py")
        return 0
    if len(sys.argv) in (4, 5) and sys.argv[1] == "check":
        return lib_exports.check_exports(sys.argv[2], sys.argv[3], NODE,
                                         sys.argv[4] if len(sys.argv) == 5 else None)
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
