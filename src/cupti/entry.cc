#include "cupti/entry.h"

#include <mutex>
#include <set>
#include <string>

#include "base/log.h"

namespace strata::cupti {
namespace {

thread_local CUptiResult t_last_error = CUPTI_SUCCESS;

void log_once(const char* name) {
  static auto* mu = new std::mutex();
  static auto* logged = new std::set<std::string>();
  std::lock_guard lock(*mu);
  if (logged->insert(name).second) {
    STRATA_LOG_WARN("libcupti: {} is not supported by Strata", name);
  }
}

}  // namespace

CUptiResult finish(CUptiResult result) {
  if (result != CUPTI_SUCCESS) t_last_error = result;
  return result;
}

CUptiResult take_last_error() {
  CUptiResult last = t_last_error;
  t_last_error = CUPTI_SUCCESS;
  return last;
}

CUptiResult log_unsupported(const char* name, CUptiResult result) {
  log_once(name);
  return finish(result);
}

void log_unsupported(const char* name) {
  log_once(name);
}

}  // namespace strata::cupti
