// Entry points: the legacy (CUDA 2.x) launch API NVIDIA's libcuda still exports --
// cuFuncSetBlockShape, cuFuncSetSharedSize, cuParamSetSize/i/f/v, cuLaunch,
// cuLaunchGrid(Async) -- and the shared memory bank configuration calls, which CUDA 12+
// accepts and ignores (banks are four bytes wide on every architecture Strata models).
//
// The block shape, dynamic shared memory size and parameter buffer are per-function
// state (a side table keyed by the live function), and a launch is cuLaunchKernel with
// the buffer passed through CU_LAUNCH_PARAM_BUFFER_POINTER/SIZE, as the legacy calls
// are defined (offsets are the kernel's parameter offsets, the caller's to align).
#include <cstring>
#include <map>
#include <mutex>
#include <vector>

#include "cuda/driver/api_util.h"
#include "cuda/driver/module.h"

using namespace strata;
using namespace strata::cuda::driver;

namespace {

struct LegacyLaunchState {
  int block[3] = {1, 1, 1};
  unsigned shared_bytes = 0;
  std::vector<unsigned char> params;  // cuParamSetSize bytes
};

struct LegacyLaunchTable {
  std::mutex mutex;
  std::map<const Function*, std::pair<std::weak_ptr<Function>, LegacyLaunchState>> entries;
};

LegacyLaunchTable& table() {
  static LegacyLaunchTable* t = new LegacyLaunchTable;
  return *t;
}

// Runs `body` on the function's state, under the table's lock.
template <typename Body>
Status with_state(const char* api, CUfunction hfunc, Body&& body) {
  ASSIGN_OR_RETURN(std::shared_ptr<Function> f, live(handles().functions, hfunc, "function"));
  RETURN_IF_ERROR(f->module().context().check());
  LegacyLaunchTable& t = table();
  std::lock_guard lock(t.mutex);
  auto it = t.entries.find(f.get());
  if (it == t.entries.end() || it->second.first.lock() != f) {
    std::erase_if(t.entries, [](const auto& e) { return e.second.first.expired(); });
    it = t.entries
             .insert_or_assign(f.get(),
                               std::make_pair(std::weak_ptr<Function>(f), LegacyLaunchState{}))
             .first;
  }
  (void)api;
  return body(it->second.second);
}

Status set_param(const char* api, CUfunction hfunc, int offset, const void* data, size_t bytes) {
  return with_state(api, hfunc, [&](LegacyLaunchState& s) -> Status {
    if (offset < 0 || static_cast<size_t>(offset) + bytes > s.params.size()) {
      return error(Code::kInvalidValue,
                   fmt::format("{}: {} bytes at offset {} exceed the {} set by cuParamSetSize", api,
                               bytes, offset, s.params.size()));
    }
    if (bytes != 0) std::memcpy(s.params.data() + offset, data, bytes);
    return ok_status();
  });
}

CUresult launch_grid(const char* api, CUfunction f, int grid_width, int grid_height,
                     CUstream stream) {
  LegacyLaunchState state;
  CUresult r = api_call(api, [&]() -> Status {
    if (grid_width <= 0 || grid_height <= 0) {
      return error(Code::kInvalidValue,
                   fmt::format("{}: grid {} x {} is empty", api, grid_width, grid_height));
    }
    return with_state(api, f, [&](LegacyLaunchState& s) -> Status {
      state = s;
      return ok_status();
    });
  });
  if (r != CUDA_SUCCESS) return r;
  size_t size = state.params.size();
  void* extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, state.params.data(), CU_LAUNCH_PARAM_BUFFER_SIZE,
                   &size, CU_LAUNCH_PARAM_END};
  return cuLaunchKernel(f, static_cast<unsigned>(grid_width), static_cast<unsigned>(grid_height), 1,
                        static_cast<unsigned>(state.block[0]),
                        static_cast<unsigned>(state.block[1]),
                        static_cast<unsigned>(state.block[2]), state.shared_bytes, stream, nullptr,
                        size != 0 ? extra : nullptr);
}

}  // namespace

CUresult CUDAAPI cuFuncSetBlockShape(CUfunction hfunc, int x, int y, int z) {
  return api_call("cuFuncSetBlockShape", [&]() -> Status {
    if (x <= 0 || y <= 0 || z <= 0) {
      return error(Code::kInvalidValue,
                   fmt::format("cuFuncSetBlockShape: block {} x {} x {} is empty", x, y, z));
    }
    return with_state("cuFuncSetBlockShape", hfunc, [&](LegacyLaunchState& s) -> Status {
      s.block[0] = x, s.block[1] = y, s.block[2] = z;
      return ok_status();
    });
  });
}

CUresult CUDAAPI cuFuncSetSharedSize(CUfunction hfunc, unsigned int bytes) {
  return api_call("cuFuncSetSharedSize", [&]() -> Status {
    return with_state("cuFuncSetSharedSize", hfunc, [&](LegacyLaunchState& s) -> Status {
      s.shared_bytes = bytes;
      return ok_status();
    });
  });
}

CUresult CUDAAPI cuParamSetSize(CUfunction hfunc, unsigned int numbytes) {
  return api_call("cuParamSetSize", [&]() -> Status {
    ASSIGN_OR_RETURN(std::shared_ptr<Function> f, live(handles().functions, hfunc, "function"));
    if (numbytes > f->desc().param_bytes) {
      return error(Code::kInvalidValue,
                   fmt::format("cuParamSetSize: {} bytes exceed the kernel's {} parameter bytes",
                               numbytes, f->desc().param_bytes));
    }
    return with_state("cuParamSetSize", hfunc, [&](LegacyLaunchState& s) -> Status {
      s.params.resize(numbytes);
      return ok_status();
    });
  });
}

CUresult CUDAAPI cuParamSeti(CUfunction hfunc, int offset, unsigned int value) {
  return api_call("cuParamSeti",
                  [&] { return set_param("cuParamSeti", hfunc, offset, &value, sizeof value); });
}

CUresult CUDAAPI cuParamSetf(CUfunction hfunc, int offset, float value) {
  return api_call("cuParamSetf",
                  [&] { return set_param("cuParamSetf", hfunc, offset, &value, sizeof value); });
}

CUresult CUDAAPI cuParamSetv(CUfunction hfunc, int offset, void* ptr, unsigned int numbytes) {
  return api_call("cuParamSetv", [&]() -> Status {
    if (ptr == nullptr && numbytes != 0) return null_arg("cuParamSetv", "ptr");
    return set_param("cuParamSetv", hfunc, offset, ptr, numbytes);
  });
}

CUresult CUDAAPI cuParamSetTexRef(CUfunction hfunc, int texunit, CUtexref hTexRef) {
  return api_call("cuParamSetTexRef", [&]() -> Status {
    // CUDA documents the only texunit as CU_PARAM_TR_DEFAULT; Strata has no texture
    // references (only texture objects), so there is nothing to bind.
    (void)hfunc, (void)texunit, (void)hTexRef;
    return error(Code::kNotSupported,
                 "cuParamSetTexRef: texture references are not supported "
                 "(use texture objects)");
  });
}

CUresult CUDAAPI cuLaunch(CUfunction f) {
  return launch_grid("cuLaunch", f, 1, 1, nullptr);
}

CUresult CUDAAPI cuLaunchGrid(CUfunction f, int grid_width, int grid_height) {
  return launch_grid("cuLaunchGrid", f, grid_width, grid_height, nullptr);
}

CUresult CUDAAPI cuLaunchGridAsync(CUfunction f, int grid_width, int grid_height,
                                   CUstream hStream) {
  return launch_grid("cuLaunchGridAsync", f, grid_width, grid_height, hStream);
}

// ---- Shared memory bank configuration: accepted and ignored, as CUDA 12+ does ----

namespace {

Status check_shared_config(const char* api, CUsharedconfig config) {
  if (config != CU_SHARED_MEM_CONFIG_DEFAULT_BANK_SIZE &&
      config != CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE &&
      config != CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE) {
    return error(Code::kInvalidValue,
                 fmt::format("{}: unknown configuration {}", api, static_cast<int>(config)));
  }
  return ok_status();
}

}  // namespace

CUresult CUDAAPI cuFuncSetSharedMemConfig(CUfunction hfunc, CUsharedconfig config) {
  return api_call("cuFuncSetSharedMemConfig", [&]() -> Status {
    ASSIGN_OR_RETURN(std::shared_ptr<Function> f, live(handles().functions, hfunc, "function"));
    return check_shared_config("cuFuncSetSharedMemConfig", config);
  });
}

CUresult CUDAAPI cuCtxSetSharedMemConfig(CUsharedconfig config) {
  return api_call("cuCtxSetSharedMemConfig", [&]() -> Status {
    RETURN_IF_ERROR(checked_current_context().status());
    return check_shared_config("cuCtxSetSharedMemConfig", config);
  });
}

CUresult CUDAAPI cuCtxGetSharedMemConfig(CUsharedconfig* pConfig) {
  return api_call("cuCtxGetSharedMemConfig", [&]() -> Status {
    if (pConfig == nullptr) return null_arg("cuCtxGetSharedMemConfig", "pConfig");
    RETURN_IF_ERROR(checked_current_context().status());
    *pConfig = CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE;
    return ok_status();
  });
}
