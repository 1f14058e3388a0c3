// Illegal operations during stream capture, per the CUDA programming guide ("Prohibited
// and Unhandled Operations", "Invalidation") and the runtime API reference:
// - synchronizing or querying a capturing stream: cudaErrorStreamCaptureUnsupported,
//   and the capture is invalidated (later captured work and cudaStreamEndCapture:
//   cudaErrorStreamCaptureInvalidated, with a NULL graph);
// - potentially unsafe calls (cudaMalloc) under cudaStreamCaptureModeGlobal from any
//   thread, under ThreadLocal from the capturing thread only, never under Relaxed;
// - the legacy stream while a blocking stream captures: cudaErrorStreamCaptureImplicit;
// - a forked stream not joined back: cudaErrorStreamCaptureUnjoined;
// - waiting on an event recorded outside the capture: cudaErrorStreamCaptureIsolation;
// - querying an event recorded in a capture: cudaErrorCapturedEvent;
// - ending the capture from another thread (non-relaxed): ...WrongThread, from another
//   stream of the sequence: cudaErrorStreamCaptureUnmatched;
// - capturing the legacy stream ("may not be initiated");
// - cudaStreamAddCallback (cuStreamAddCallback: "not supported with
//   cuStreamBeginCapture"): cudaErrorStreamCaptureUnsupported.
#include <cstdio>
#include <thread>

#include "test_check.h"

__global__ void touch(int* p) {
  *p += 1;
}

void CUDART_CB callback(cudaStream_t, cudaError_t, void*) {}

#define EXPECT_ERROR(call, expected)                                                              \
  do {                                                                                            \
    cudaError_t got_ = (call);                                                                    \
    EXPECT_TRUE(got_ == (expected), "%s returned %s, expected %s", #call, cudaGetErrorName(got_), \
                cudaGetErrorName(expected));                                                      \
    cudaGetLastError();                                                                           \
  } while (0)

// Ends the capture on `s`, expecting `expected`; on success destroys the graph.
void end_capture(cudaStream_t s, cudaError_t expected) {
  cudaGraph_t graph = reinterpret_cast<cudaGraph_t>(1);
  EXPECT_ERROR(cudaStreamEndCapture(s, &graph), expected);
  if (expected == cudaSuccess) {
    EXPECT_TRUE(graph != nullptr, "no graph");
    CHECK_CUDA(cudaGraphDestroy(graph));
  } else {
    EXPECT_TRUE(graph == nullptr, "a graph was returned with %s", cudaGetErrorName(expected));
  }
}

int main() {
  int* d = nullptr;
  CHECK_CUDA(cudaMalloc(&d, sizeof(int)));
  CHECK_CUDA(cudaMemset(d, 0, sizeof(int)));
  cudaStream_t s, t, nb;
  CHECK_CUDA(cudaStreamCreate(&s));  // blocking: synchronises with the legacy stream
  CHECK_CUDA(cudaStreamCreate(&t));
  CHECK_CUDA(cudaStreamCreateWithFlags(&nb, cudaStreamNonBlocking));
  cudaEvent_t ev, outside;
  CHECK_CUDA(cudaEventCreate(&ev));
  CHECK_CUDA(cudaEventCreate(&outside));
  CHECK_CUDA(cudaEventRecord(outside, t));
  CHECK_CUDA(cudaDeviceSynchronize());

  // Synchronize / query a capturing stream.
  CHECK_CUDA(cudaStreamBeginCapture(nb, cudaStreamCaptureModeGlobal));
  touch<<<1, 1, 0, nb>>>(d);
  EXPECT_ERROR(cudaStreamSynchronize(nb), cudaErrorStreamCaptureUnsupported);
  cudaStreamCaptureStatus status;
  CHECK_CUDA(cudaStreamIsCapturing(nb, &status));
  EXPECT_TRUE(status == cudaStreamCaptureStatusInvalidated, "status %d after an illegal sync",
              (int)status);
  touch<<<1, 1, 0, nb>>>(d);
  EXPECT_ERROR(cudaGetLastError(), cudaErrorStreamCaptureInvalidated);
  end_capture(nb, cudaErrorStreamCaptureInvalidated);

  CHECK_CUDA(cudaStreamBeginCapture(nb, cudaStreamCaptureModeGlobal));
  EXPECT_ERROR(cudaStreamQuery(nb), cudaErrorStreamCaptureUnsupported);
  end_capture(nb, cudaErrorStreamCaptureInvalidated);

  // The legacy callback API is not supported in capture (cuStreamAddCallback).
  CHECK_CUDA(cudaStreamBeginCapture(nb, cudaStreamCaptureModeGlobal));
  EXPECT_ERROR(cudaStreamAddCallback(nb, callback, nullptr, 0), cudaErrorStreamCaptureUnsupported);
  end_capture(nb, cudaErrorStreamCaptureInvalidated);

  // cudaMalloc under the capture modes.
  int* p = nullptr;
  CHECK_CUDA(cudaStreamBeginCapture(nb, cudaStreamCaptureModeGlobal));
  EXPECT_ERROR(cudaMalloc(&p, 64), cudaErrorStreamCaptureUnsupported);
  end_capture(nb, cudaErrorStreamCaptureInvalidated);

  CHECK_CUDA(cudaStreamBeginCapture(nb, cudaStreamCaptureModeGlobal));
  cudaError_t other_thread = cudaSuccess;
  std::thread([&] { other_thread = cudaMalloc(&p, 64); }).join();
  EXPECT_TRUE(other_thread == cudaErrorStreamCaptureUnsupported,
              "cudaMalloc on another thread during a global capture: %s",
              cudaGetErrorName(other_thread));
  end_capture(nb, cudaErrorStreamCaptureInvalidated);

  CHECK_CUDA(cudaStreamBeginCapture(nb, cudaStreamCaptureModeThreadLocal));
  std::thread([&] {
    other_thread = cudaMalloc(&p, 64);
    if (other_thread == cudaSuccess) other_thread = cudaFree(p);
  }).join();
  EXPECT_TRUE(other_thread == cudaSuccess,
              "cudaMalloc on another thread during a thread-local capture: %s",
              cudaGetErrorName(other_thread));
  EXPECT_ERROR(cudaMalloc(&p, 64), cudaErrorStreamCaptureUnsupported);
  end_capture(nb, cudaErrorStreamCaptureInvalidated);

  CHECK_CUDA(cudaStreamBeginCapture(nb, cudaStreamCaptureModeRelaxed));
  CHECK_CUDA(cudaMalloc(&p, 64));
  touch<<<1, 1, 0, nb>>>(d);
  CHECK_CUDA(cudaGetLastError());
  end_capture(nb, cudaSuccess);
  CHECK_CUDA(cudaFree(p));

  // A thread in relaxed mode may call cudaMalloc during another thread's global capture.
  CHECK_CUDA(cudaStreamBeginCapture(nb, cudaStreamCaptureModeGlobal));
  std::thread([&] {
    cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
    other_thread = cudaThreadExchangeStreamCaptureMode(&mode);
    if (other_thread == cudaSuccess) other_thread = cudaMalloc(&p, 64);
    if (other_thread == cudaSuccess) other_thread = cudaFree(p);
  }).join();
  EXPECT_TRUE(other_thread == cudaSuccess, "relaxed thread: %s", cudaGetErrorName(other_thread));
  end_capture(nb, cudaSuccess);

  // The legacy stream while a blocking stream captures (relaxed, so that only the
  // implicit dependency is at fault).
  CHECK_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed));
  touch<<<1, 1>>>(d);
  EXPECT_ERROR(cudaGetLastError(), cudaErrorStreamCaptureImplicit);
  end_capture(s, cudaErrorStreamCaptureInvalidated);
  CHECK_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed));
  EXPECT_ERROR(cudaStreamIsCapturing(cudaStreamLegacy, &status), cudaErrorStreamCaptureImplicit);
  end_capture(s, cudaSuccess);  // querying does not invalidate
  // A non-blocking stream's capture leaves the legacy stream usable.
  CHECK_CUDA(cudaStreamBeginCapture(nb, cudaStreamCaptureModeRelaxed));
  touch<<<1, 1>>>(d);
  CHECK_CUDA(cudaGetLastError());
  end_capture(nb, cudaSuccess);
  CHECK_CUDA(cudaDeviceSynchronize());

  // A forked stream that is not joined back.
  CHECK_CUDA(cudaStreamBeginCapture(nb, cudaStreamCaptureModeGlobal));
  CHECK_CUDA(cudaEventRecord(ev, nb));
  CHECK_CUDA(cudaStreamWaitEvent(t, ev, 0));
  touch<<<1, 1, 0, t>>>(d);
  CHECK_CUDA(cudaGetLastError());
  cudaGraph_t not_ended = nullptr;
  EXPECT_ERROR(cudaStreamEndCapture(t, &not_ended), cudaErrorStreamCaptureUnmatched);
  end_capture(nb, cudaErrorStreamCaptureUnjoined);
  CHECK_CUDA(cudaStreamIsCapturing(t, &status));
  EXPECT_TRUE(status == cudaStreamCaptureStatusNone, "the forked stream still captures");

  // Waiting on an event recorded outside the capture.
  CHECK_CUDA(cudaStreamBeginCapture(nb, cudaStreamCaptureModeGlobal));
  EXPECT_ERROR(cudaStreamWaitEvent(nb, outside, 0), cudaErrorStreamCaptureIsolation);
  end_capture(nb, cudaErrorStreamCaptureInvalidated);

  // Querying an event recorded in the capture.
  CHECK_CUDA(cudaStreamBeginCapture(nb, cudaStreamCaptureModeGlobal));
  touch<<<1, 1, 0, nb>>>(d);
  CHECK_CUDA(cudaEventRecord(ev, nb));
  EXPECT_ERROR(cudaEventQuery(ev), cudaErrorCapturedEvent);
  EXPECT_ERROR(cudaEventSynchronize(ev), cudaErrorCapturedEvent);
  end_capture(nb, cudaSuccess);

  // Ending a global capture on another thread.
  CHECK_CUDA(cudaStreamBeginCapture(nb, cudaStreamCaptureModeGlobal));
  std::thread([&] {
    cudaGraph_t graph;
    other_thread = cudaStreamEndCapture(nb, &graph);
  }).join();
  EXPECT_TRUE(other_thread == cudaErrorStreamCaptureWrongThread, "EndCapture on another thread: %s",
              cudaGetErrorName(other_thread));
  end_capture(nb, cudaSuccess);

  // The legacy stream cannot capture; a stream cannot capture twice.
  EXPECT_TRUE(cudaStreamBeginCapture(cudaStreamLegacy, cudaStreamCaptureModeGlobal) != cudaSuccess,
              "the legacy stream began a capture");
  cudaGetLastError();
  CHECK_CUDA(cudaStreamBeginCapture(nb, cudaStreamCaptureModeGlobal));
  EXPECT_TRUE(cudaStreamBeginCapture(nb, cudaStreamCaptureModeGlobal) != cudaSuccess,
              "a second BeginCapture succeeded");
  cudaGetLastError();
  end_capture(nb, cudaSuccess);

  // Nothing captured ran, nothing is sticky: the device still works.
  touch<<<1, 1>>>(d);
  CHECK_CUDA(cudaGetLastError());
  int value = 0;
  CHECK_CUDA(cudaMemcpy(&value, d, sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT_TRUE(value == 2, "value %d: captured work must not execute", value);
  CHECK_CUDA(cudaFree(d));
  std::printf("PASS graph_capture_errors\n");
  return 0;
}
