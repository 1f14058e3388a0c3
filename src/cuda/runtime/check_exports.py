#!/usr/bin/env python3
"""Checks that libcudart exports, under version node libcudart.so.13, every symbol that
binaries built by `nvcc -cudart shared` import from it.

usage: check_exports.py <libcudart.so> <nvcc> <testdata dir>
"""
import os
import re
import subprocess
import sys
import tempfile

VERSION_NODE = "libcudart.so.13"


def dyn_syms(path):
    out = subprocess.run(["readelf", "--dyn-syms", "-W", path], check=True,
                         capture_output=True, text=True).stdout
    rows = []
    for line in out.splitlines():
        fields = line.split()
        if len(fields) >= 8 and fields[0].endswith(":"):
            rows.append((fields[6], fields[7]))  # (section index, name@version)
    return rows


def main() -> int:
    lib, nvcc, testdata = sys.argv[1:4]
    with tempfile.TemporaryDirectory() as tmp:
        binary = os.path.join(tmp, "sample")
        subprocess.run([nvcc, "-cudart", "shared", "-arch=sm_80", "-o", binary,
                        os.path.join(testdata, "exports_sample.cu")], check=True)
        imported = {name.split("@")[0] for ndx, name in dyn_syms(binary)
                    if ndx == "UND" and name.endswith("@" + VERSION_NODE)}
    exported = {}
    for ndx, name in dyn_syms(lib):
        if ndx != "UND" and "@" in name:
            base, _, version = name.partition("@")
            exported[base] = version.lstrip("@")
    problems = []
    if len(imported) < 20:
        problems.append(f"sample imports only {len(imported)} symbols from {VERSION_NODE}; "
                        "nvcc output changed?")
    for name in sorted(imported):
        if name not in exported:
            problems.append(f"missing export: {name}")
        elif exported[name] != VERSION_NODE:
            problems.append(f"{name} has version {exported[name]}, expected {VERSION_NODE}")
    leaked = [n for n in exported if not re.match(r"(cuda|__cuda)", n) and n != VERSION_NODE]
    if leaked:
        problems.append("exports outside the CUDA runtime API: " + ", ".join(sorted(leaked)[:10]))
    soname = subprocess.run(["readelf", "-d", lib], check=True, capture_output=True,
                            text=True).stdout
    if f"[{VERSION_NODE}]" not in soname:
        problems.append(f"SONAME is not {VERSION_NODE}")
    for p in problems:
        print(p)
    print(f"{len(imported)} imported symbols checked; {len(exported)} exported")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
