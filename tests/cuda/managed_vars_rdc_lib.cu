// The other translation unit of managed_vars_rdc_main.cu.
__managed__ int shared_counter = 100;

__global__ void add_one() {
  atomicAdd(&shared_counter, 1);
}
