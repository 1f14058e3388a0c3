// Entry points: the driver error log (cuLogs*, logs.h).
#include <cstdio>
#include <cstring>

#include "cuda/driver/api_util.h"
#include "cuda/driver/logs.h"

using namespace strata;
using namespace strata::cuda::driver;

namespace {

Status check_flags(const char* api, unsigned int flags) {
  if (flags != 0) return error(Code::kInvalidValue, fmt::format("{}: flags must be 0", api));
  return ok_status();
}

}  // namespace

CUresult CUDAAPI cuLogsRegisterCallback(CUlogsCallback callbackFunc, void* userData,
                                        CUlogsCallbackHandle* callback_out) {
  return api_call("cuLogsRegisterCallback", [&]() -> Status {
    if (callbackFunc == nullptr || callback_out == nullptr) {
      return null_arg("cuLogsRegisterCallback", "callbackFunc or callback_out");
    }
    *callback_out = add_log_callback(callbackFunc, userData);
    return ok_status();
  });
}

CUresult CUDAAPI cuLogsUnregisterCallback(CUlogsCallbackHandle callback) {
  return api_call("cuLogsUnregisterCallback", [&]() -> Status {
    if (!remove_log_callback(callback)) {
      return error(Code::kInvalidValue, "cuLogsUnregisterCallback: callback is not registered");
    }
    return ok_status();
  });
}

CUresult CUDAAPI cuLogsCurrent(CUlogIterator* iterator_out, unsigned int flags) {
  return api_call("cuLogsCurrent", [&]() -> Status {
    if (iterator_out == nullptr) return null_arg("cuLogsCurrent", "iterator_out");
    RETURN_IF_ERROR(check_flags("cuLogsCurrent", flags));
    *iterator_out = current_log_iterator();
    return ok_status();
  });
}

CUresult CUDAAPI cuLogsDumpToFile(CUlogIterator* iterator, const char* pathToFile,
                                  unsigned int flags) {
  return api_call("cuLogsDumpToFile", [&]() -> Status {
    if (pathToFile == nullptr) return null_arg("cuLogsDumpToFile", "pathToFile");
    RETURN_IF_ERROR(check_flags("cuLogsDumpToFile", flags));
    std::FILE* file = std::fopen(pathToFile, "w");
    if (file == nullptr) {
      return error(Code::kInvalidValue,
                   fmt::format("cuLogsDumpToFile: cannot open '{}' for writing", pathToFile));
    }
    std::string text = read_logs(iterator, 0);
    bool ok = std::fwrite(text.data(), 1, text.size(), file) == text.size();
    ok = std::fclose(file) == 0 && ok;
    if (!ok)
      return error(Code::kInvalidValue,
                   fmt::format("cuLogsDumpToFile: writing '{}' failed", pathToFile));
    return ok_status();
  });
}

CUresult CUDAAPI cuLogsDumpToMemory(CUlogIterator* iterator, char* buffer, size_t* size,
                                    unsigned int flags) {
  return api_call("cuLogsDumpToMemory", [&]() -> Status {
    if (buffer == nullptr || size == nullptr)
      return null_arg("cuLogsDumpToMemory", "buffer or size");
    RETURN_IF_ERROR(check_flags("cuLogsDumpToMemory", flags));
    const size_t capacity = *size;
    if (capacity == 0) {
      return error(Code::kInvalidValue, "cuLogsDumpToMemory: the buffer holds no message");
    }
    // The iterator advances only when something is dumped.
    CUlogIterator from = iterator != nullptr ? *iterator : 0;
    CUlogIterator probe = from;
    if (read_logs(iterator != nullptr ? &probe : nullptr, 0).empty()) {  // nothing to dump
      *size = 0;
      buffer[0] = '\0';
      return ok_status();
    }
    CUlogIterator it = from;
    std::string text = read_logs(iterator != nullptr ? &it : nullptr, capacity - 1);
    if (text.empty()) {
      *size = 0;
      buffer[0] = '\0';
      return error(Code::kInvalidValue, "cuLogsDumpToMemory: the buffer holds no message");
    }
    if (iterator != nullptr) *iterator = it;
    std::memcpy(buffer, text.data(), text.size());
    buffer[text.size()] = '\0';
    *size = text.size();
    return ok_status();
  });
}
