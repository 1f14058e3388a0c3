// Heap-allocation counting for bench/api_overhead: malloc & co. replaced in the
// executable (the CUDA libraries' calls, operator new's included, bind to these), counted
// only on a thread between allocations_begin() and allocations_end().
// With STRATA_BENCH_TRACE_ALLOCATIONS=1 each counted allocation prints a backtrace to
// stderr (to find where a hot path allocates).
#include <execinfo.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdlib>

extern "C" {
void* __libc_malloc(size_t);
void* __libc_calloc(size_t, size_t);
void* __libc_realloc(void*, size_t);
void* __libc_memalign(size_t, size_t);
void __libc_free(void*);
}

namespace {

thread_local bool t_counting = false;
thread_local bool t_tracing = false;
thread_local long t_allocations = 0;
bool g_trace = false;

void count_one() {
  if (!t_counting) return;
  ++t_allocations;
  if (g_trace && !t_tracing) {
    t_tracing = true;
    void* frames[24];
    int n = backtrace(frames, 24);
    static const char kSeparator[] = "--- allocation\n";
    (void)!write(2, kSeparator, sizeof(kSeparator) - 1);
    backtrace_symbols_fd(frames, n, 2);
    t_tracing = false;
  }
}

}  // namespace

void allocations_begin() {
  if (const char* trace = std::getenv("STRATA_BENCH_TRACE_ALLOCATIONS"); trace && *trace == '1') {
    void* frames[2];
    backtrace(frames, 2);  // loads the unwinder now, outside the counted region
    g_trace = true;
  }
  t_allocations = 0;
  t_counting = true;
}

long allocations_end() {
  t_counting = false;
  return t_allocations;
}

extern "C" {
void* malloc(size_t n) noexcept {
  count_one();
  return __libc_malloc(n);
}
void* calloc(size_t n, size_t size) noexcept {
  count_one();
  return __libc_calloc(n, size);
}
void* realloc(void* p, size_t n) noexcept {
  count_one();
  return __libc_realloc(p, n);
}
void* memalign(size_t alignment, size_t n) noexcept {
  count_one();
  return __libc_memalign(alignment, n);
}
void* aligned_alloc(size_t alignment, size_t n) noexcept {
  count_one();
  return __libc_memalign(alignment, n);
}
int posix_memalign(void** out, size_t alignment, size_t n) noexcept {
  count_one();
  void* p = __libc_memalign(alignment, n);
  if (p == nullptr) return ENOMEM;
  *out = p;
  return 0;
}
void free(void* p) noexcept {
  __libc_free(p);
}
}
