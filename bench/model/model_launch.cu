// Launch rate: back-to-back near-empty kernels on one stream, timed in the steady state
// (time per launch against the slower of the config's host enqueue cost and device
// launch overhead), and two events recorded back to back (event-to-event).
// --quick: fewer launches; checks that every launch ran.
#include "model_common.h"

__global__ void tick(unsigned* counter) {
  if (threadIdx.x == 0 && blockIdx.x == 0) atomicAdd(counter, 1u);
}

int main(int argc, char** argv) {
  const bool quick = model::quick_mode(argc, argv);
  model::Device dev;
  const int launches = quick ? 16 : 1000;
  unsigned* counter;
  CHECK_CUDA(cudaMalloc(&counter, sizeof(unsigned)));
  CHECK_CUDA(cudaMemset(counter, 0, sizeof(unsigned)));
  tick<<<1, 32>>>(counter);  // first launch: module load, not timed
  CHECK_CUDA(cudaDeviceSynchronize());
  const double t = model::time_seconds([&] {
    for (int i = 0; i < launches; ++i) tick<<<1, 32>>>(counter);
  });
  unsigned count = 0;
  CHECK_CUDA(cudaMemcpy(&count, counter, sizeof count, cudaMemcpyDeviceToHost));
  EXPECT_TRUE(count == 2u * launches + 1, "%u launches ran, expected %d", count, 2 * launches + 1);
  // A stream of launches goes at the slower of the host's enqueue (launch_api_ns, plus
  // the runtime's other calls per launch, not counted here) and the device's per-grid
  // launch overhead (plus the kernel's own duration).
  const double host_ns = dev.arch.number({"launch_api_ns"});
  const double device_ns = dev.arch.number({"launch_overhead_ns"});
  model::row("launch", "back-to-back kernel, time per launch", t / launches * 1e6,
             std::fmax(host_ns, device_ns) / 1e3, "us");
  const double e = model::time_seconds([] {}, /*steady=*/false);
  model::row("launch", "event to event (nothing between)", e * 1e6, NAN, "us");
  CHECK_CUDA(cudaFree(counter));
  std::printf("PASS model_launch\n");
  return 0;
}
