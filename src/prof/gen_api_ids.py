#!/usr/bin/env python3
"""CUPTI's API callback ids, read from the toolkit's cupti_runtime_cbid.h and
cupti_driver_cbid.h, as the C++ tables of api_ids.h (api_ids_table.inc).

Every id has a name ("cudaMalloc_v3020", "cuMemAlloc_v2", "cuMemcpyHtoD_v2_ptds") and
the function it belongs to: the exported symbol, i.e. the runtime name without its
trailing "_v<N>" ("cudaMalloc", "cudaMemcpy_ptds") and the driver name itself.

Looking up a function (`resolve`, the one statement of the rule; the runtime's wrapper
generator imports it):
  * driver functions cuda.h renames (`#define cuMemAlloc cuMemAlloc_v2`,
    `#define cuMemcpyHtoD __CUDA_API_PTDS(cuMemcpyHtoD_v2)`): the id of the exported
    symbol the name binds to, plain or per-thread ("cuMemcpy" -> cuMemcpy, not the
    unrelated cuMemcpy_v2);
  * otherwise, for the driver, the id named exactly `function`;
  * otherwise (and for the runtime), among the ids named `function` or `function` +
    "_v<N>", the one with the highest N ("cudaMalloc" -> cudaMalloc_v3020);
  * per-thread default stream: among the ids named
    `function`["_v<N>"]("_ptsz"|"_ptds")["_v<M>"], the highest version
    ("cudaMemcpy" -> cudaMemcpy_ptds_v7000, "cuMemcpyHtoD" -> cuMemcpyHtoD_v2_ptds).
Two candidates with the same version are an error (the rule would be ambiguous).

Usage: gen_api_ids.py <cupti_runtime_cbid.h> <cupti_driver_cbid.h> <cuda.h> <out.inc>
"""

import re
import sys

_ENUM = re.compile(r"CUPTI_(RUNTIME|DRIVER)_TRACE_CBID_(\w+)\s*=\s*(\w+)")
_NOT_IDS = {"INVALID", "SIZE", "FORCE_INT"}
_VERSION = re.compile(r"^(.*)_v(\d+)$")
_PER_THREAD = re.compile(r"^(.*?)(?:_v(\d+))?_(ptsz|ptds)(?:_v(\d+))?$")
_RENAME = re.compile(r"^\s*#\s*define\s+(cu\w+)\s+(?:__CUDA_API_(PTDS|PTSZ)\(\s*(\w+)\s*\)|(cu\w+))\s*$",
                     re.MULTILINE)


def read_renames(cuda_h):
    """{function: (legacy symbol, per-thread symbol)} of cuda.h's renaming macros."""
    renames = {}
    with open(cuda_h, encoding="utf-8") as f:
        for name, kind, wrapped, plain in _RENAME.findall(f.read()):
            if wrapped:
                renames[name] = (wrapped, f"{wrapped}_{kind.lower()}")
            else:
                renames[name] = (plain, plain)
    if "cuMemAlloc" not in renames:
        raise SystemExit(f"{cuda_h}: no renaming macros found (#define cuMemAlloc ...)")
    return renames


def read_ids(path, domain):
    """[(cbid, name)] of one header, in cbid order; `domain` is RUNTIME or DRIVER."""
    ids = []
    with open(path, encoding="utf-8") as f:
        for kind, name, value in _ENUM.findall(f.read()):
            if kind != domain or name in _NOT_IDS:
                continue
            ids.append((int(value, 0), name))
    ids.sort()
    cbids = [c for c, _ in ids]
    if len(set(cbids)) != len(cbids):
        raise SystemExit(f"{path}: duplicate cbid values")
    if not ids:
        raise SystemExit(f"{path}: no CUPTI_{domain}_TRACE_CBID_* enumerators")
    return ids


def function_of(name, domain):
    """The exported function an id belongs to."""
    if domain == "RUNTIME":
        m = _VERSION.match(name)
        if not m:
            raise SystemExit(f"runtime cbid name without _v<N>: {name}")
        return m.group(1)
    return name


def lookup_keys(ids, renames=None):
    """({plain key: (cbid, name)}, {per-thread key: (cbid, name)}) by the rule above;
    `renames` (read_renames) for the driver, None for the runtime."""
    plain, per_thread = {}, {}

    def offer(table, key, version, entry):
        best = table.get(key)
        if best is None or version > best[0]:
            table[key] = (version, entry, False)
        elif version == best[0]:
            table[key] = (version, best[1], True)  # tie: ambiguous

    for cbid, name in ids:
        offer(plain, name, (0,), (cbid, name))
        m = _VERSION.match(name)
        if m:
            offer(plain, m.group(1), (int(m.group(2)),), (cbid, name))
        p = _PER_THREAD.match(name)
        if p:
            version = (int(p.group(2) or 0), int(p.group(4) or 0))
            offer(per_thread, p.group(1), (max(version),), (cbid, name))

    def settle(table, what):
        out = {}
        for key, (_, entry, ambiguous) in table.items():
            if ambiguous:
                raise SystemExit(f"ambiguous {what} lookup for {key}")
            out[key] = entry
        return out

    plain = settle(plain, "plain")
    per_thread = settle(per_thread, "per-thread")
    if renames is not None:
        by_name = {name: (cbid, name) for cbid, name in ids}
        for cbid, name in ids:
            plain[name] = (cbid, name)  # an exact name beats a higher version
        for function, (legacy, threaded) in renames.items():
            if legacy in by_name:
                plain[function] = by_name[legacy]
            if threaded != legacy and threaded in by_name:
                per_thread[function] = by_name[threaded]
    return plain, per_thread


def resolve(ids, function, per_thread=False, renames=None):
    """(cbid, name) of `function` by the rule above, or None."""
    plain, threaded = lookup_keys(ids, renames)
    return (threaded if per_thread else plain).get(function)


def emit_domain(out, prefix, ids, domain, renames=None):
    out.append(f"inline constexpr ApiId k{prefix}Ids[] = {{")
    for cbid, name in ids:
        out.append(f'    {{{cbid}, "{name}", "{function_of(name, domain)}"}},')
    out.append("};")
    index = {name: i for i, (_, name) in enumerate(ids)}
    plain, threaded = lookup_keys(ids, renames)
    exact = {name: (cbid, name) for cbid, name in ids}
    for suffix, table in (("", plain), ("PerThread", threaded), ("Exact", exact)):
        out.append(f"inline constexpr ApiKey k{prefix}{suffix}Keys[] = {{")
        for key in sorted(table):
            out.append(f'    {{"{key}", {index[table[key][1]]}}},')
        out.append("};")


def main(argv):
    if len(argv) != 5:
        raise SystemExit(__doc__)
    runtime = read_ids(argv[1], "RUNTIME")
    driver = read_ids(argv[2], "DRIVER")
    renames = read_renames(argv[3])
    out = [
        "// Generated by src/prof/gen_api_ids.py from cupti_runtime_cbid.h and",
        "// cupti_driver_cbid.h. Do not edit.",
        "// kXIds: every id in cbid order. kXKeys / kXPerThreadKeys / kXExactKeys: lookup",
        "// keys (the rule's, its per-thread form's, the ids' own names) in byte order, each",
        "// with the index of its id in kXIds.",
    ]
    emit_domain(out, "Runtime", runtime, "RUNTIME")
    emit_domain(out, "Driver", driver, "DRIVER", renames)
    text = "\n".join(out) + "\n"
    try:
        with open(argv[4], encoding="utf-8") as f:
            if f.read() == text:
                return 0
    except FileNotFoundError:
        pass
    with open(argv[4], "w", encoding="utf-8") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
