// The cost of one activity hook when nothing collects: an API entry's prof::ApiScope
// (prof/collector.h: one relaxed load and a branch at entry, one branch at exit) against
// the same loop without it, in one run. run_overhead.sh sets it against a launch's host
// cost: a runtime launch passes about 8 such hooks (runtime wrappers of the call
// configuration and the launch, the driver's entry points, the stream's submission).
// Prints ns per hook and the ratio to the empty loop; --quick for ctest.
#include <chrono>
#include <cstdio>
#include <cstring>

#include "prof/collector.h"

namespace {

template <typename Body>
double ns_per_iteration(long n, Body&& body) {
  const auto t0 = std::chrono::steady_clock::now();
  for (long i = 0; i < n; ++i) body(i);
  const auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::nano>(t1 - t0).count() / static_cast<double>(n);
}

volatile int g_sink;

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  const long n = quick ? 100000 : 50000000;
  double best_base = 1e9, best_hook = 1e9;
  for (int round = 0; round < (quick ? 1 : 7); ++round) {
    best_base = std::min(best_base, ns_per_iteration(n, [](long i) { g_sink = static_cast<int>(i); }));
    best_hook = std::min(best_hook, ns_per_iteration(n, [](long i) {
      strata::prof::ApiScope scope(strata::prof::ApiDomain::kRuntime, 211, "cudaLaunchKernel_v7000",
                                   "cudaLaunchKernel", nullptr);
      g_sink = static_cast<int>(i);
      scope.set_result(0);
    }));
  }
  const double hook = best_hook - best_base;
  std::printf("hook_cost: loop %.2f ns, loop + ApiScope %.2f ns: %.2f ns per hook (x%.2f the loop)\n",
              best_base, best_hook, hook, best_hook / best_base);
  std::printf("hook_ns %.3f\n", hook);
  std::printf("PASS hook_cost\n");
  return 0;
}
