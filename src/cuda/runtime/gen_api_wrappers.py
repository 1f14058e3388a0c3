#!/usr/bin/env python3
"""The recording wrappers of libcudart's entry points (api_activity.h), at build time.

  rename  <cxx> <cuda-include> <src> <api-ids-dir> <out api_rename.h> <out catalog.json>
      Preprocesses the toolkit's runtime declarations (cuda_runtime_api.h,
      cuda_profiler_api.h and the registration ABI of registration_abi.h) twice, as
      legacy and as per-thread-default-stream code, and writes api_rename.h: every
      declared function with a CUPTI runtime id (gen_api_ids.py's lookup rule) declared
      with the assembler name strata_rt_impl_<name>. Force-included into the runtime's
      sources, it gives their definitions those names. catalog.json keeps the parsed
      prototypes for the next step.
  wrap    <catalog.json> <generated_cuda_runtime_api_meta.h> <nm> <out wrappers.cc> <objects...>
      Writes, for every strata_rt_impl_<name> the runtime's objects define, the exported
      function <name>: it calls the implementation directly when nothing collects, else
      inside a RuntimeApiScope with the cbid's *_params struct (when the toolkit's meta
      header defines one) and the returned cudaError_t.
  check   <api-ids-dir> <cuda-include> <libcudart.so> <nm>
      The test: every exported function with a CUPTI runtime id is a wrapper (its
      implementation strata_rt_impl_<name> is in the library), every implementation has
      its exported wrapper, and no implementation name is exported.
"""

import json
import os
import re
import subprocess
import sys

IMPL = "strata_rt_impl_"
_KEYWORDS = {"const", "volatile", "struct", "enum", "union", "unsigned", "signed", "long",
             "short", "int", "char", "float", "double", "void", "bool", "restrict",
             "__restrict__"}
_DECL = re.compile(r"^\s*(?:extern\s+)?(?:\"C\"\s+)?(?P<pre>[^()]*?)\b(?P<name>(?:cuda|__cuda)\w+)"
                   r"\s*\((?P<params>.*)\)\s*(?P<post>(?:__attribute__\s*\(\(.*\)\)\s*|throw\s*\(\s*\)\s*"
                   r"|noexcept\s*)*)$", re.DOTALL)


def strip_attributes(text):
    """`text` without __attribute__((...)) groups."""
    out, i = [], 0
    while True:
        j = text.find("__attribute__", i)
        if j < 0:
            out.append(text[i:])
            return "".join(out)
        out.append(text[i:j])
        k = text.index("(", j)
        depth = 0
        while True:
            if text[k] == "(":
                depth += 1
            elif text[k] == ")":
                depth -= 1
                if depth == 0:
                    break
            k += 1
        i = k + 1


def split_top(text, sep=","):
    parts, depth, cur = [], 0, []
    for ch in text:
        if ch in "([{<":
            depth += 1
        elif ch in ")]}>":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return parts


def parse_param(text, index):
    """(declaration with a name and no default, name)."""
    text = " ".join(strip_attributes(split_top(text, "=")[0]).split())
    fp = re.search(r"\(\s*\*\s*(\w*)\s*\)", text)
    if fp:  # function pointer
        name = fp.group(1) or f"a{index}"
        if not fp.group(1):
            text = text[:fp.start()] + f"(*{name})" + text[fp.end():]
        return text, name
    m = re.match(r"^(.*?)(\w+)\s*((?:\[[^\]]*\]\s*)*)$", text)
    if m and m.group(1).strip() and m.group(2) not in _KEYWORDS and \
            m.group(1).split()[-1] not in ("struct", "enum", "union"):
        return text, m.group(2)
    name = f"a{index}"
    return f"{text} {name}", name


def parse_declarations(text):
    """{name: {"ret": str, "params": [(decl, name)]}} of the function declarations."""
    found = {}
    text = strip_attributes(text)  # __CUDA_DEPRECATED's __attribute__((deprecated("...")))
    for fragment in re.split(r"[;{}]", text):
        m = _DECL.match(fragment)
        if not m or "typedef" in m.group("pre") or "=" in m.group("pre"):
            continue
        ret = " ".join(strip_attributes(m.group("pre")).replace("extern", " ").split())
        ret = ret.replace('"C"', "").strip()
        if not ret or ret in ("static", "inline") or "static" in ret.split() or "inline" in ret.split():
            continue
        params_text = m.group("params").strip()
        params = []
        if params_text and params_text != "void":
            params = [parse_param(p, i) for i, p in enumerate(split_top(params_text))]
        found.setdefault(m.group("name"), {"ret": ret, "params": params})
    return found


def preprocess(cxx, include, src, per_thread, code=None):
    if code is None:
        code = ("#include <cuda_runtime_api.h>\n#include <cuda_profiler_api.h>\n"
                "#include \"cuda/runtime/registration_abi.h\"\n")
    args = [cxx, "-std=c++20", "-E", "-P", "-x", "c++", "-", f"-I{include}", f"-I{src}"]
    if per_thread:
        args.append("-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1")
    return subprocess.run(args, input=code, capture_output=True, text=True, check=True).stdout


def load_ids(ids_dir, include):
    sys.path.insert(0, ids_dir)
    import gen_api_ids  # noqa: E402 (the one statement of the lookup rule)
    ids = gen_api_ids.read_ids(os.path.join(include, "cupti_runtime_cbid.h"), "RUNTIME")
    plain, _ = gen_api_ids.lookup_keys(ids)
    return plain


def cmd_rename(cxx, include, src, ids_dir, out_header, out_catalog):
    ids = load_ids(ids_dir, include)
    legacy = preprocess(cxx, include, src, False)
    decls = parse_declarations(legacy)
    # The declarations need the API headers' own typedefs (callback types) ahead of the
    # headers: restated from the preprocessed text (an identical typedef may repeat).
    builtin = set(re.findall(r"typedef[^;{}]*;", preprocess(cxx, include, src, False,
                                                              "#include <builtin_types.h>\n")))
    typedefs = [t for t in dict.fromkeys(re.findall(r"typedef[^;{}]*;", legacy))
                if t not in builtin]
    threaded = preprocess(cxx, include, src, True)
    for name, decl in parse_declarations(threaded).items():
        decls.setdefault(name, decl)
    # Per-thread code sees some legacy names as static inline redirections (cudaLaunchKernel
    # -> cudaLaunchKernel_ptsz); those are declared only for legacy code.
    inline = re.compile(r"static\s+(?:__inline__|inline)\s+[^;{}()]*?\b(cuda\w+)\s*\(")
    api_only = "#include <cuda_runtime_api.h>\n"
    redirected = set(inline.findall(preprocess(cxx, include, src, True, api_only)))
    # Per-thread variants the headers never declare (cudaMallocAsync_ptsz, ...) share the
    # signature of their legacy form.
    for key in ids:
        for suffix in ("_ptsz", "_ptds"):
            if key.endswith(suffix) and key not in decls and key[:-len(suffix)] in decls:
                decls[key] = decls[key[:-len(suffix)]]
    catalog = {}
    for name in sorted(decls):
        if name in ids:
            cbid, cbid_name = ids[name]
            catalog[name] = dict(decls[name], cbid=cbid, cbid_name=cbid_name)
    missing = [n for n in ("cudaMalloc", "cudaLaunchKernel", "cudaMemcpy_ptds",
                           "__cudaLaunchKernel", "__cudaRegisterFunction") if n not in catalog]
    if missing:
        raise SystemExit(f"gen_api_wrappers: no declarations parsed for {missing}")
    lines = ["// Generated by src/cuda/runtime/gen_api_wrappers.py. Do not edit.",
             "// Force-included into libcudart's sources: the runtime functions that have a",
             "// CUPTI id get the assembler names strata_rt_impl_<name>; the exported names",
             "// are the recording wrappers of api_wrappers.cc (api_activity.h).",
             "#pragma once", "#ifdef __cplusplus", "#include <builtin_types.h>",
             "extern \"C\" {"]
    used = {w for d in catalog.values() for p, _ in d["params"] for w in re.findall(r"\w+", p)}
    used |= {w for d in catalog.values() for w in re.findall(r"\w+", d["ret"])}

    def typedef_name(t):
        m = re.search(r"\(\s*\*\s*(\w+)\s*\)", t) or re.search(r"(\w+)\s*;$", t)
        return m.group(1) if m else None

    lines += [" ".join(t.split()) for t in typedefs
              if typedef_name(t) in used and re.match(r"(cuda|CU|cu)", typedef_name(t))]
    for name, d in catalog.items():
        params = ", ".join(p for p, _ in d["params"]) or "void"
        decl = f'{d["ret"]} {name}({params}) __asm__("{IMPL}{name}");'
        if name in redirected:
            decl = f"#ifndef CUDA_API_PER_THREAD_DEFAULT_STREAM\n{decl}\n#endif"
        lines.append(decl)
    lines += ["}", "#endif"]
    write_if_changed(out_header, "\n".join(l for l in lines if l) + "\n")
    write_if_changed(out_catalog, json.dumps(catalog, indent=1, sort_keys=True) + "\n")


def param_structs(meta_h):
    """{struct name: [member names]} of the toolkit's *_params structs."""
    with open(meta_h, encoding="utf-8") as f:
        text = f.read()
    structs = {}
    for body, name in re.findall(r"typedef struct \w+_params_st \{(.*?)\} (\w+_params);", text,
                                 re.DOTALL):
        members = []
        for member in body.split(";"):
            m = re.search(r"(\w+)\s*(?:\[[^\]]*\])?\s*$", member.strip())
            if m:
                members.append(m.group(1))
        structs[name] = members
    return structs


def defined_impls(nm, objects):
    out = subprocess.run([nm, "--defined-only", "-P", *objects], capture_output=True, text=True,
                         check=True).stdout
    return {line.split()[0][len(IMPL):] for line in out.splitlines()
            if line.startswith(IMPL) and len(line.split()) > 1 and line.split()[1] in "TtWw"}


def cmd_wrap(catalog_path, meta_h, nm, out_cc, objects):
    with open(catalog_path, encoding="utf-8") as f:
        catalog = json.load(f)
    structs = param_structs(meta_h)
    impls = defined_impls(nm, objects)
    lines = ["// Generated by src/cuda/runtime/gen_api_wrappers.py. Do not edit.",
             "// The exported runtime entry points that have a CUPTI id: each calls its",
             "// implementation (api_rename.h), inside a RuntimeApiScope when something collects.",
             "#include <cuda_runtime_api.h>", "#include <generated_cuda_runtime_api_meta.h>", "",
             "#include \"cuda/runtime/api_activity.h\"", "",
             "namespace rt = strata::cuda::runtime;", ""]
    for name in sorted(impls):
        if name not in catalog:
            continue
        d = catalog[name]
        decls = ", ".join(p for p, _ in d["params"]) or "void"
        args = ", ".join(n for _, n in d["params"])
        ret = d["ret"]
        lines.append(f'extern "C" {ret} {IMPL}{name}({decls});')
        lines.append(f'extern "C" __attribute__((visibility("default"))) {ret} {name}({decls}) {{')
        call = f"{IMPL}{name}({args})"
        lines.append("  if (!rt::activity_active()) [[likely]] " + (
            f"return {call};" if ret != "void" else f"{{\n    {call};\n    return;\n  }}"))
        struct = f'{d["cbid_name"]}_params'
        names = [n for _, n in d["params"]]
        if struct in structs and len(structs[struct]) == len(names) and names:
            # Positional: the meta header names some members differently (dstStream / dst).
            fields = ", ".join(names)
            lines.append(f"  {struct} strata_params{{{fields}}};")
            params = "&strata_params"
        else:
            params = "nullptr"
        lines.append(f'  rt::RuntimeApiScope strata_scope({d["cbid"]}, "{d["cbid_name"]}", "{name}", '
                     f"{params});")
        if name in ("cudaLaunchKernel", "cudaLaunchKernel_ptsz", "cudaLaunchCooperativeKernel",
                    "cudaLaunchCooperativeKernel_ptsz"):
            lines.append(f"  strata_scope.set_symbol_name(rt::launch_symbol_by_host_function({names[0]}));")
        if name in ("__cudaLaunchKernel", "__cudaLaunchKernel_ptsz"):
            lines.append(f"  strata_scope.set_symbol_name(rt::launch_symbol_by_kernel({names[0]}));")
        if ret == "void":
            lines.append(f"  {call};")
        elif ret == "cudaError_t":
            lines.append(f"  cudaError_t strata_result = {call};")
            lines.append("  strata_scope.set_result(static_cast<int32_t>(strata_result));")
            lines.append("  return strata_result;")
        else:
            lines.append(f"  return {call};")
        lines.append("}")
        lines.append("")
    write_if_changed(out_cc, "\n".join(lines))


def cmd_check(ids_dir, include, library, nm):
    ids = load_ids(ids_dir, include)
    dynamic = subprocess.run([nm, "-D", "--defined-only", library], capture_output=True,
                             text=True, check=True).stdout
    exported = {line.split()[-1].split("@")[0] for line in dynamic.splitlines() if line.split()}
    symtab = subprocess.run([nm, "--defined-only", library], capture_output=True, text=True,
                            check=True).stdout
    impls = {line.split()[-1][len(IMPL):] for line in symtab.splitlines()
             if line.split() and re.fullmatch(IMPL + r"\w+", line.split()[-1])}
    errors = []
    with_id = {name for name in exported if name in ids}
    for name in sorted(with_id):
        if name not in impls:
            errors.append(f"{name}: exported with a CUPTI id but not wrapped")
    for name in sorted(impls):
        if name not in exported:
            errors.append(f"{IMPL}{name} has no exported wrapper {name}")
    leaked = sorted(s for s in exported if s.startswith(IMPL))
    errors += [f"{s}: an implementation is exported" for s in leaked]
    wrapped = len(exported & impls)
    print(f"{wrapped} of {len(exported)} exported functions are recording wrappers; "
          f"the others have no CUPTI id: {' '.join(sorted(exported - impls))}")
    if wrapped == 0:
        errors.append("no wrappers at all")
    for e in errors:
        print(e)
    return 1 if errors else 0


def write_if_changed(path, text):
    try:
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return
    except FileNotFoundError:
        pass
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def main(argv):
    if len(argv) >= 8 and argv[1] == "rename":
        cmd_rename(*argv[2:8])
        return 0
    if len(argv) >= 6 and argv[1] == "wrap":
        cmd_wrap(argv[2], argv[3], argv[4], argv[5], argv[6:])
        return 0
    if len(argv) == 6 and argv[1] == "check":
        return cmd_check(argv[2], argv[3], argv[4], argv[5])
    raise SystemExit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
