#!/usr/bin/env python3
"""Checks that the launch ABI restated in registration_abi.h matches the toolkit.

The toolkit declares __cudaPushCallConfiguration, __cudaGetKernel, __cudaLaunchKernel and
__cudaLaunchKernel_ptsz only in crt/device_functions.h under __CUDACC__, which a host
compiler cannot include, so Strata restates them. This compares each restated prototype
with the toolkit's text (return type and parameter types; parameter names, default
arguments, CUDARTAPI and __host__/__device__ are ignored) and fails on any difference.

usage: check_registration_abi.py <crt/device_functions.h> <registration_abi.h> [stamp]
"""
import re
import sys

FUNCTIONS = ("__cudaPushCallConfiguration", "__cudaGetKernel", "__cudaLaunchKernel",
             "__cudaLaunchKernel_ptsz")
IGNORED = {"extern", "CUDARTAPI", "__host__", "__device__", "__cudart_builtin__"}
TYPE_WORDS = {"const", "volatile", "struct", "unsigned", "signed", "void", "char", "int",
              "long", "short", "float", "double"}


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def tokens(text):
    return re.findall(r"[A-Za-z_][A-Za-z0-9_]*|\S", text)


def normalise_param(param):
    param = param.split("=", 1)[0]
    toks = tokens(param)
    # Drop the parameter name: a trailing identifier after a complete type.
    if len(toks) >= 2 and re.match(r"[A-Za-z_]", toks[-1]) and toks[-1] not in TYPE_WORDS \
            and toks[-2] != "struct":
        toks = toks[:-1]
    return " ".join(toks)


def prototype(text, name, source):
    """Returns (return type, [parameter types]) of the declaration of `name`."""
    text = strip_comments(text).replace('"C"', " ")
    match = re.search(r"([A-Za-z_][\w\s\*]*?)\b" + re.escape(name) + r"\s*\(([^;{]*?)\)\s*;",
                      text)
    if match is None:
        sys.exit(f"check_registration_abi: no declaration of {name} in {source}")
    ret = [t for t in tokens(match.group(1)) if t not in IGNORED]
    params = [normalise_param(p) for p in match.group(2).split(",") if p.strip()]
    return " ".join(ret[-2:] if ret[-2:-1] == ["struct"] else ret[-1:]), params


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    toolkit_path, ours_path = sys.argv[1], sys.argv[2]
    with open(toolkit_path) as f:
        toolkit = f.read()
    with open(ours_path) as f:
        ours = f.read()
    problems = []
    for name in FUNCTIONS:
        expected = prototype(toolkit, name, toolkit_path)
        actual = prototype(ours, name, ours_path)
        if expected != actual:
            problems.append(f"{name}: toolkit declares {expected[0]} ({', '.join(expected[1])})"
                            f" but {ours_path} declares {actual[0]} ({', '.join(actual[1])})")
    if problems:
        print("check_registration_abi: the restated launch ABI differs from the toolkit:",
              file=sys.stderr)
        for problem in problems:
            print("  " + problem, file=sys.stderr)
        return 1
    if len(sys.argv) == 4:
        with open(sys.argv[3], "w") as f:
            f.write("ok\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
