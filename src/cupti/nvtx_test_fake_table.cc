#include "cupti/nvtx_test_fake_table.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>

#include "cupti/nvtx_injection.h"

namespace strata::cupti::nvtx_test {

std::mutex g_mutex;
std::vector<prof::Record> g_records;
std::vector<std::pair<CUstream, std::string>> g_stream_names;
std::vector<std::pair<int, std::string>> g_device_names;
NvtxRecorder* g_recorder = nullptr;
int g_capture_begins = 0;
int g_capture_ends = 0;

uint32_t fake_tid() {
  return static_cast<uint32_t>(syscall(SYS_gettid));
}
uint32_t fake_pid() {
  return static_cast<uint32_t>(getpid());
}

namespace {

std::atomic<uint64_t> g_clock{1000};

void fake_emit(const prof::Record& r) {
  std::lock_guard lock(g_mutex);
  g_records.push_back(r);
}
// Strictly increasing, so every event has its own time.
uint64_t fake_now() {
  return g_clock.fetch_add(10);
}
void fake_name_stream(CUstream s, const char* name) {
  std::lock_guard lock(g_mutex);
  g_stream_names.emplace_back(s, name);
}
void fake_name_device(int d, const char* name) {
  std::lock_guard lock(g_mutex);
  g_device_names.emplace_back(d, name);
}

prof::ProfilerTable make_table() {
  prof::ProfilerTable t{};
  t.size = sizeof(t);
  t.emit = fake_emit;
  t.now_ns = fake_now;
  t.this_tid = fake_tid;
  t.this_pid = fake_pid;
  t.name_stream = fake_name_stream;
  t.name_device = fake_name_device;
  return t;
}
const prof::ProfilerTable g_table = make_table();

int NVTX_API test_injection_init(NvtxGetExportTableFunc_t get_export_table) {
  if (g_recorder == nullptr) {
    g_recorder = new NvtxRecorder(g_table);
    NvtxCapture capture = NvtxCapture::parse(kCaptureRange);
    capture.begin = [] { ++g_capture_begins; };
    capture.end = [] { ++g_capture_ends; };
    g_recorder->set_capture(std::move(capture));
  }
  return attach_nvtx_module(get_export_table, g_recorder);
}

}  // namespace
}  // namespace strata::cupti::nvtx_test

// NVTX's static injection hook (nvtxInit.h: a weak pointer in every NVTX client): this
// definition makes the test's NVTX attach test_injection_init when NVTX_INJECTION64_PATH
// is unset.
extern "C" {
NvtxInitializeInjectionNvtxFunc_t InitializeInjectionNvtx2_fnptr =
    strata::cupti::nvtx_test::test_injection_init;
}
