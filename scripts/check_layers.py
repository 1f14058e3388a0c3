#!/usr/bin/env python3
"""Fails if a file under src/ includes a header from a layer above its own.

The allowed dependencies are the layer table below (ARCHITECTURE.md section 2): a
folder may include headers from itself and from the folders it lists, transitively.
"""
import os
import re
import sys

# folder -> folders it may include directly (dependencies point down only)
LAYERS = {
    "base": [],
    "isa": ["base"],
    "hw/contract": ["base"],
    "hw/config": ["base"],
    "hw/perf": ["hw/config", "isa", "base"],
    "hw/sim": ["hw/contract", "hw/config", "hw/perf", "isa", "base"],
    "compiler": ["isa", "base"],
    "kmd": ["hw/contract", "hw/config", "hw/sim", "base"],
    "hal": ["kmd", "hw/contract", "hw/config", "isa", "base"],
    "cuda/fatbin": ["base"],
    "prof": ["hw/contract", "hw/config", "hw/perf", "base"],
    "cuda/driver": ["prof", "hal", "compiler", "cuda/fatbin", "hw/config", "hw/perf", "isa", "base"],
    "cuda/runtime": ["cuda/driver", "cuda/fatbin", "prof", "base"],
    "cupti": ["prof", "base"],
    # cuBLAS / cuBLASLt: clients of the public CUDA APIs only.
    "blas": ["base"],
    "tools": ["prof", "cuda/driver", "cuda/fatbin", "compiler", "hal", "hw/config", "hw/perf", "isa",
              "base"],
    "libs": ["base"],
}

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


def layer_of(rel):
    best = None
    for layer in LAYERS:
        if rel == layer or rel.startswith(layer + "/"):
            if best is None or len(layer) > len(best):
                best = layer
    return best


def closure(layer):
    seen, stack = set(), [layer]
    while stack:
        cur = stack.pop()
        if cur in seen:
            continue
        seen.add(cur)
        stack.extend(LAYERS[cur])
    return seen


def main():
    src = sys.argv[1]
    errors = []
    for root, _, files in os.walk(src):
        for name in files:
            if not name.endswith((".h", ".cc", ".cpp", ".def", ".inc")):
                continue
            path = os.path.join(root, name)
            rel = os.path.relpath(path, src)
            own = layer_of(os.path.dirname(rel))
            if own is None:
                errors.append(f"{rel}: folder is not in the layer table of scripts/check_layers.py")
                continue
            allowed = closure(own)
            with open(path, encoding="utf-8", errors="replace") as f:
                for lineno, line in enumerate(f, 1):
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    target = layer_of(os.path.dirname(m.group(1)))
                    if target is None:
                        continue  # a system or toolkit header
                    if target not in allowed:
                        errors.append(f"{rel}:{lineno}: includes {m.group(1)} from layer "
                                      f"'{target}', which is above '{own}'")
    for e in errors:
        print(e, file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
