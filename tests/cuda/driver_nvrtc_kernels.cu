// Kernels for driver_nvrtc's file-loading checks, built by nvcc into a PTX-only fatbin
// (nvcc -fatbin -gencode arch=compute_80,code=compute_80): cuModuleLoad and
// cuLibraryLoadFromFile/LoadData of a fatbin as nvcc writes it.
extern "C" __global__ void fill_squares(unsigned* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = static_cast<unsigned>(i) * static_cast<unsigned>(i);
}
