// Writes a Trace in the Chrome trace event format (JSON object form), which Perfetto
// (ui.perfetto.dev) and chrome://tracing open: per process, one track per host thread
// with its API calls (complete events) and NVTX push/pop ranges (nested complete
// events), NVTX start/end ranges as async events and marks as instants; per device a
// "GPU n" process with one track per stream holding its kernels, memcpys and memsets;
// flow arrows from each launching API call to its device work (keyed by correlation
// id). Times in microseconds with nanosecond decimals.
#pragma once

#include <string>

#include "base/status.h"
#include "prof/trace.h"

namespace strata::prof {

Status export_chrome(const Trace& trace, const std::string& path);

}  // namespace strata::prof
