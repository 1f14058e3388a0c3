// `strata run --report`: a per-kernel and per-copy summary of the performance log.
//
// The log (STRATA_PERF_LOG, schema in docs/hw-contract.md) holds one JSON object per
// line: the command processor writes one per command (device, channel, op, kernel_id,
// submit_ns/start_ns/end_ns on the modeled clock, and for kernels the fast model's
// bound/cycles and the KernelStats counters), the driver one {"kernel_id", "name"} per
// kernel it registers. The summary is robust to missing fields (printed as "-") and to
// lines it cannot parse (counted and reported), so that it works with older and newer
// logs alike. Counters are looked up by their KernelStats names at the top level of a
// line or inside a nested object (e.g. "stats": {...}).
#pragma once

#include <string>
#include <string_view>

namespace strata::tools {

// The report of a whole log: a kernel table (demangled name, launches, total/average
// modeled time, the bound accounting for most of its time, warp instructions,
// thread-instructions per lane, global sectors per request, shared bank conflicts,
// L1/L2 hit rates) and a copy table per copy kind (count, bytes, time, bandwidth).
std::string render_report(std::string_view jsonl);

// Demangles an Itanium C++ name; returns the input when it is not one.
std::string demangle(const std::string& name);

}  // namespace strata::tools
