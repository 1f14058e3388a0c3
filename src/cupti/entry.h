// Shared by libcupti's extern "C" entry points: the per-thread last error
// (cuptiGetLastError) and the one log line of an unsupported function.
#pragma once

#include <cupti_result.h>

namespace strata::cupti {

// Records `result` as the calling thread's last error when it is one; returns it.
CUptiResult finish(CUptiResult result);
// cuptiGetLastError: the calling thread's last error, reset to CUPTI_SUCCESS.
CUptiResult take_last_error();

// An entry point Strata does not implement: logs "libcupti: <name> is not supported by
// Strata" once per function (warning level) and returns `result` (through finish()).
CUptiResult log_unsupported(const char* name, CUptiResult result);
// The same for the NVTX injection entry points, which return int.
void log_unsupported(const char* name);

}  // namespace strata::cupti
