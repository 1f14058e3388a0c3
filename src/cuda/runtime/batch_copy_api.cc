// batch_copy_api.inc under the default names.
#include "cuda/runtime/api_common.h"

// (after the toolkit headers api_common.h includes)
#include "cuda/runtime/batch_copy_api.inc"
