#!/usr/bin/env python3
"""Structural check of a Chrome trace written by `strata prof` (NAME.json), for end-to-end
tests: python3 tests/prof/check_chrome_trace.py NAME.json [--kernels N] [--streams N]

Checks: the JSON object form with a traceEvents array; every pid with events has a
process_name, every (pid, tid) with slices a thread_name; a "GPU n (...)" process whose
tracks are named "Stream <id>..."; every kernel/memcpy/memset slice on a stream track of a
GPU process; complete events nest on every track; every flow `s` has an `f` with the same
id and "bp": "e", each lying inside a slice of its track, the two slices carrying the same
correlation id; ts/dur carry whole nanoseconds. --kernels / --streams: expected counts.
Exit status 0 when all hold, 1 (listing the failures) otherwise.
"""
import argparse
import json
import sys
from collections import defaultdict


def ns(micros):
    return round(micros * 1000)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("trace")
    parser.add_argument("--kernels", type=int)
    parser.add_argument("--streams", type=int)
    args = parser.parse_args()
    failures = []
    with open(args.trace) as f:
        doc = json.load(f)
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        print("FAIL: not a JSON object with a traceEvents array")
        return 1
    events = doc["traceEvents"]
    process_names, thread_names = {}, {}
    for e in events:
        if e.get("ph") == "M" and e.get("name") == "process_name":
            process_names[e["pid"]] = e["args"]["name"]
        if e.get("ph") == "M" and e.get("name") == "thread_name":
            thread_names[(e["pid"], e["tid"])] = e["args"]["name"]
    gpu_pids = {pid for pid, name in process_names.items() if name.startswith("GPU ")}
    slices = defaultdict(list)
    for e in events:
        ph = e.get("ph")
        if ph in ("X", "i", "b", "e", "s", "f") and e["pid"] not in process_names:
            failures.append(f"pid {e['pid']} has events but no process_name")
            process_names[e["pid"]] = "?"
        if "ts" in e and abs(e["ts"] * 1000 - ns(e["ts"])) > 1e-3:
            failures.append(f"ts {e['ts']} is not whole nanoseconds")
        if ph == "X":
            slices[(e["pid"], e["tid"])].append(e)
            if (e["pid"], e["tid"]) not in thread_names:
                failures.append(f"track {e['pid']}/{e['tid']} has slices but no thread_name")
            if e.get("cat") in ("cuda_kernel", "cuda_memcpy", "cuda_memset"):
                track = thread_names.get((e["pid"], e["tid"]), "")
                if e["pid"] not in gpu_pids or not track.startswith("Stream "):
                    failures.append(f"{e['name']} not on a stream track of a GPU process ({track!r})")
    for track, items in slices.items():
        spans = sorted(((ns(e["ts"]), ns(e["ts"]) + ns(e["dur"])) for e in items), key=lambda s: (s[0], -s[1]))
        open_ends = []
        for begin, end in spans:
            while open_ends and open_ends[-1] <= begin:
                open_ends.pop()
            if open_ends and end > open_ends[-1]:
                failures.append(f"track {track}: [{begin}, {end}) crosses a slice ending at {open_ends[-1]}")
            open_ends.append(end)

    def enclosing(point):
        t = ns(point["ts"])
        best = None
        for e in slices.get((point["pid"], point["tid"]), []):
            if ns(e["ts"]) <= t <= ns(e["ts"]) + ns(e["dur"]) and "correlation_id" in e.get("args", {}):
                if best is None or ns(e["dur"]) < ns(best["dur"]):
                    best = e
        return best

    starts = {e["id"]: e for e in events if e.get("ph") == "s"}
    finishes = {e["id"]: e for e in events if e.get("ph") == "f"}
    if set(starts) != set(finishes):
        failures.append(f"unpaired flows: {sorted(set(starts) ^ set(finishes))[:10]}")
    for fid in set(starts) & set(finishes):
        s, f = starts[fid], finishes[fid]
        if f.get("bp") != "e":
            failures.append(f"flow {fid}: f without bp=e")
        call, work = enclosing(s), enclosing(f)
        if call is None or work is None:
            failures.append(f"flow {fid}: an end is not inside a slice")
        elif call["args"]["correlation_id"] != work["args"]["correlation_id"]:
            failures.append(f"flow {fid}: correlation ids differ")
    kernels = [e for e in events if e.get("ph") == "X" and e.get("cat") == "cuda_kernel"]
    if args.kernels is not None and len(kernels) != args.kernels:
        failures.append(f"{len(kernels)} kernels, expected {args.kernels}")
    stream_tracks = {k for k, name in thread_names.items() if k[0] in gpu_pids and name.startswith("Stream ")
                     and "(overlap" not in name}
    if args.streams is not None and len(stream_tracks) != args.streams:
        failures.append(f"{len(stream_tracks)} stream tracks, expected {args.streams}")
    for failure in failures:
        print("FAIL:", failure)
    print(f"{len(events)} events, {len(kernels)} kernels, {len(stream_tracks)} stream tracks, "
          f"{len(starts)} flows: {'ok' if not failures else f'{len(failures)} failure(s)'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
