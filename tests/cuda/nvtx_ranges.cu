// NVTX annotations from an unmodified program using the NVTX3 headers: marks (ASCII,
// wide, with attributes), nested push/pop ranges, a start/end range ended by another
// thread, a domain with registered strings and categories, thread and stream naming, a
// kernel inside a range, and the same through NVTX's C++ API (nvtx3.hpp).
// nvtx_ranges_check.py runs it under a tool (NVTX_INJECTION64_PATH) and checks the
// recorded trace against the values below; the program prints the ids the checker cannot
// know (thread ids, the stream id).
//
// The return values are NVTX's (nvToolsExt.h): with a tool attached, push returns the
// new range's zero-based level and pop the ended range's level; without one, both return
// NVTX_NO_PUSH_POP_TRACKING.
#include <nvtx3/nvToolsExt.h>
#include <nvtx3/nvToolsExtCudaRt.h>
#include <nvtx3/nvtx3.hpp>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <thread>

#include "test_check.h"

__global__ void scale(float* data, float factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= factor;
}

// A domain of NVTX's C++ API (nvtx3.hpp).
struct cpp_domain {
  static constexpr char const* name{"strata.nvtx_ranges.cpp"};
};

static unsigned os_tid() { return static_cast<unsigned>(syscall(SYS_gettid)); }

static nvtxEventAttributes_t attributes() {
  nvtxEventAttributes_t a = {};
  a.version = NVTX_VERSION;
  a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  return a;
}

int main() {
  const bool tool = std::getenv("NVTX_INJECTION64_PATH") != nullptr;
  // The level NVTX returns for push/pop: the real level under a tool.
  auto level = [&](int with_tool) { return tool ? with_tool : NVTX_NO_PUSH_POP_TRACKING; };
  std::printf("tool attached: %s\n", tool ? "yes" : "no");
  std::printf("main tid %u\n", os_tid());

  nvtxNameOsThreadA(os_tid(), "nvtx main thread");
  nvtxNameCategoryA(5, "default category five");

  // Marks.
  nvtxMarkA("mark ascii");
  nvtxMarkW(L"mark wide \u00e9\u2713");
  nvtxEventAttributes_t mark = attributes();
  mark.colorType = NVTX_COLOR_ARGB;
  mark.color = 0xFF00FF00u;
  mark.category = 5;
  mark.payloadType = NVTX_PAYLOAD_TYPE_UNSIGNED_INT64;
  mark.payload.ullValue = 1234567890123ull;
  mark.messageType = NVTX_MESSAGE_TYPE_ASCII;
  mark.message.ascii = "mark ex";
  nvtxMarkEx(&mark);

  // Nested push/pop ranges around a kernel.
  const int n = 1 << 12;
  float* d = nullptr;
  CHECK_CUDA(cudaMalloc(&d, n * sizeof(float)));
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreate(&stream));
  nvtxNameCudaStreamA(stream, "nvtx work stream");
  unsigned long long stream_id = 0;
  CHECK_CUDA(cudaStreamGetId(stream, &stream_id));
  std::printf("stream id %llu\n", stream_id);

  int got = nvtxRangePushA("outer range");
  EXPECT_TRUE(got == level(0), "push outer returned %d", got);
  nvtxEventAttributes_t inner = attributes();
  inner.colorType = NVTX_COLOR_ARGB;
  inner.color = 0xFFFF0000u;
  inner.payloadType = NVTX_PAYLOAD_TYPE_DOUBLE;
  inner.payload.dValue = 3.25;
  inner.messageType = NVTX_MESSAGE_TYPE_ASCII;
  inner.message.ascii = "kernel range";
  got = nvtxRangePushEx(&inner);
  EXPECT_TRUE(got == level(1), "push inner returned %d", got);
  CHECK_CUDA(cudaMemsetAsync(d, 0, n * sizeof(float), stream));
  scale<<<n / 256, 256, 0, stream>>>(d, 2.0f, n);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaStreamSynchronize(stream));
  got = nvtxRangePop();
  EXPECT_TRUE(got == level(1), "pop inner returned %d", got);
  got = nvtxRangePushW(L"wide range \u00fc");
  EXPECT_TRUE(got == level(1), "push wide returned %d", got);
  got = nvtxRangePop();
  EXPECT_TRUE(got == level(1), "pop wide returned %d", got);
  got = nvtxRangePop();
  EXPECT_TRUE(got == level(0), "pop outer returned %d", got);
  if (tool) {
    got = nvtxRangePop();  // nothing left on this thread's stack
    EXPECT_TRUE(got < 0, "unmatched pop returned %d", got);
  }

  // A start/end range started here and ended by another thread.
  nvtxEventAttributes_t crossing = attributes();
  crossing.payloadType = NVTX_PAYLOAD_TYPE_INT32;
  crossing.payload.iValue = -7;
  crossing.messageType = NVTX_MESSAGE_TYPE_ASCII;
  crossing.message.ascii = "cross-thread range";
  nvtxRangeId_t cross = nvtxRangeStartEx(&crossing);
  unsigned worker_tid = 0;
  std::thread worker([&] {
    worker_tid = os_tid();
    nvtxNameOsThreadA(worker_tid, "nvtx worker thread");
    nvtxRangeEnd(cross);
  });
  worker.join();
  std::printf("worker tid %u\n", worker_tid);

  // A domain with a registered string and a named category.
  nvtxDomainHandle_t domain = nvtxDomainCreateA("strata.nvtx_ranges");
  nvtxStringHandle_t registered = nvtxDomainRegisterStringA(domain, "registered domain range");
  nvtxDomainNameCategoryA(domain, 1, "domain category one");
  nvtxEventAttributes_t in_domain = attributes();
  in_domain.category = 1;
  in_domain.colorType = NVTX_COLOR_ARGB;
  in_domain.color = 0xFF0000FFu;
  in_domain.payloadType = NVTX_PAYLOAD_TYPE_FLOAT;
  in_domain.payload.fValue = 1.5f;
  in_domain.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
  in_domain.message.registered = registered;
  got = nvtxDomainRangePushEx(domain, &in_domain);
  EXPECT_TRUE(got == level(0), "domain push returned %d", got);  // levels are per domain
  nvtxDomainMarkEx(domain, &in_domain);
  got = nvtxDomainRangePop(domain);
  EXPECT_TRUE(got == level(0), "domain pop returned %d", got);

  // NVTX's C++ API: a mark and scoped ranges in the default domain and in its own domain.
  nvtx3::mark("cpp mark");
  {
    nvtx3::scoped_range outer_cpp{"cpp scoped range"};
    nvtx3::scoped_range_in<cpp_domain> inner_cpp{"cpp domain range"};
  }

  CHECK_CUDA(cudaStreamDestroy(stream));
  CHECK_CUDA(cudaFree(d));

  // Ranges left open at exit: delivered without an end.
  nvtxRangeStartA("open start/end at exit");
  got = nvtxRangePushA("open push at exit");
  EXPECT_TRUE(got == level(0), "push at exit returned %d", got);
  std::printf("PASS nvtx_ranges\n");
  return 0;
}
