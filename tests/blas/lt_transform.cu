// cublasLtMatrixTransform: C = alpha op(A) + beta op(B) against a host reference, exact
// on integer data, for every order Strata supports (COL, ROW, and from the cublasLt.h
// definitions COL32: tiles of 32 columns, element (r, c) at (c / 32) ld + 32 r + c % 32;
// COL32_2R_4R4: 32 x 32 tiles, (r, c) of a tile at (((r % 8) / 2 * 4 + r / 8) * 2 + r % 2)
// * 32 + c, the 32-row tiles of a column group one after another), N / T / C
// operations, S / D / C / Z and the mixed FP32-scale types (FP16, BF16, INT8 with
// saturation), leading dimensions above the minimum (padding must stay untouched), batches
// (strided and broadcast), device scalars, beta = 0 with NaN in B and alpha = 0 with NaN in
// A, a null A, zero sizes, and the statuses of bad calls.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstring>

#include "blas_check.h"

using blas_check::Random;

namespace {

size_t elem_size(cudaDataType t) {
  switch (t) {
    case CUDA_R_8I:
      return 1;
    case CUDA_R_16F:
    case CUDA_R_16BF:
      return 2;
    case CUDA_R_32F:
    case CUDA_R_32I:
      return 4;
    case CUDA_R_64F:
    case CUDA_C_32F:
      return 8;
    case CUDA_C_64F:
      return 16;
    default:
      return 0;
  }
}
bool is_complex(cudaDataType t) {
  return t == CUDA_C_32F || t == CUDA_C_64F;
}

// A matrix on the host: its layout and its elements as complex doubles at their storage
// offsets (padding holds `pad`).
struct Mat {
  cudaDataType type;
  cublasLtOrder_t order;
  int64_t rows, cols, ld;
  int batch = 1;
  int64_t stride = 0;
  std::vector<std::complex<double>> v;

  int64_t offset(int64_t r, int64_t c, int b) const {
    int64_t at;
    if (order == CUBLASLT_ORDER_COL32) {
      at = (c / 32) * ld + 32 * r + c % 32;
    } else if (order == CUBLASLT_ORDER_COL32_2R_4R4) {
      const int64_t tr = r % 32, tc = c % 32;
      at = (c / 32) * ld + (r / 32) * 1024 + (((tr % 8) / 2 * 4 + tr / 8) * 2 + tr % 2) * 32 + tc;
    } else if (order == CUBLASLT_ORDER_ROW)
      at = r * ld + c;
    else
      at = r + c * ld;
    return at + b * stride;
  }
  size_t span() const {
    int64_t end = 1;
    for (int b = 0; b < batch; ++b)
      for (int64_t c = 0; c < cols; ++c)
        for (int64_t r = 0; r < rows; ++r) end = std::max(end, offset(r, c, b) + 1);
    if (order == CUBLASLT_ORDER_COL32 || order == CUBLASLT_ORDER_COL32_2R_4R4)
      end = std::max<int64_t>(end, ((cols + 31) / 32) * ld);
    return static_cast<size_t>(end);
  }
  void fill(Random& r, int range, std::complex<double> pad) {
    v.assign(span(), pad);
    for (int b = 0; b < batch; ++b)
      for (int64_t c = 0; c < cols; ++c)
        for (int64_t i = 0; i < rows; ++i)
          v[offset(i, c, b)] = is_complex(type)
                                   ? std::complex<double>(r.integer(range), r.integer(range))
                                   : std::complex<double>(r.integer(range), 0);
  }
  cublasLtMatrixLayout_t layout() const {
    cublasLtMatrixLayout_t l;
    CHECK_CUBLAS(cublasLtMatrixLayoutCreate(&l, type, rows, cols, ld));
    CHECK_CUBLAS(
        cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_ORDER, &order, sizeof(order)));
    CHECK_CUBLAS(cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &batch,
                                                  sizeof(batch)));
    CHECK_CUBLAS(cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET,
                                                  &stride, sizeof(stride)));
    return l;
  }
  void* upload() const {
    const size_t es = elem_size(type);
    std::vector<unsigned char> bytes(v.size() * es);
    for (size_t i = 0; i < v.size(); ++i) {
      unsigned char* p = bytes.data() + i * es;
      const double re = v[i].real(), im = v[i].imag();
      switch (type) {
        case CUDA_R_8I: {
          const int8_t x = static_cast<int8_t>(std::isnan(re) ? 0 : re);
          std::memcpy(p, &x, 1);
          break;
        }
        case CUDA_R_32I: {
          const int32_t x = static_cast<int32_t>(std::isnan(re) ? 0 : re);
          std::memcpy(p, &x, 4);
          break;
        }
        case CUDA_R_16F: {
          const __half x = __double2half(re);
          std::memcpy(p, &x, 2);
          break;
        }
        case CUDA_R_16BF: {
          const __nv_bfloat16 x = __double2bfloat16(re);
          std::memcpy(p, &x, 2);
          break;
        }
        case CUDA_R_32F: {
          const float x = static_cast<float>(re);
          std::memcpy(p, &x, 4);
          break;
        }
        case CUDA_R_64F:
          std::memcpy(p, &re, 8);
          break;
        case CUDA_C_32F: {
          const float x[2] = {static_cast<float>(re), static_cast<float>(im)};
          std::memcpy(p, x, 8);
          break;
        }
        default: {
          const double x[2] = {re, im};
          std::memcpy(p, x, 16);
          break;
        }
      }
    }
    void* d = nullptr;
    CHECK_CUDA(cudaMalloc(&d, bytes.size()));
    CHECK_CUDA(cudaMemcpy(d, bytes.data(), bytes.size(), cudaMemcpyHostToDevice));
    return d;
  }
  std::vector<std::complex<double>> download(const void* d) const {
    const size_t es = elem_size(type);
    std::vector<unsigned char> bytes(v.size() * es);
    CHECK_CUDA(cudaMemcpy(bytes.data(), d, bytes.size(), cudaMemcpyDeviceToHost));
    std::vector<std::complex<double>> out(v.size());
    for (size_t i = 0; i < v.size(); ++i) {
      const unsigned char* p = bytes.data() + i * es;
      switch (type) {
        case CUDA_R_8I: {
          int8_t x;
          std::memcpy(&x, p, 1);
          out[i] = x;
          break;
        }
        case CUDA_R_32I: {
          int32_t x;
          std::memcpy(&x, p, 4);
          out[i] = x;
          break;
        }
        case CUDA_R_16F: {
          __half x;
          std::memcpy(&x, p, 2);
          out[i] = __half2float(x);
          break;
        }
        case CUDA_R_16BF: {
          __nv_bfloat16 x;
          std::memcpy(&x, p, 2);
          out[i] = __bfloat162float(x);
          break;
        }
        case CUDA_R_32F: {
          float x;
          std::memcpy(&x, p, 4);
          out[i] = x;
          break;
        }
        case CUDA_R_64F: {
          double x;
          std::memcpy(&x, p, 8);
          out[i] = x;
          break;
        }
        case CUDA_C_32F: {
          float x[2];
          std::memcpy(x, p, 8);
          out[i] = {x[0], x[1]};
          break;
        }
        default: {
          double x[2];
          std::memcpy(x, p, 16);
          out[i] = {x[0], x[1]};
          break;
        }
      }
    }
    return out;
  }
};

// The reference of element (i, j) of batch b: alpha op(A) + beta op(B), each term left out
// when its scalar is zero or its matrix absent.
std::complex<double> op_at(const Mat& m, cublasOperation_t op, int64_t i, int64_t j, int b) {
  const int mb = m.batch == 1 && m.stride == 0 ? 0 : b;
  const std::complex<double> v =
      op == CUBLAS_OP_N ? m.v[m.offset(i, j, mb)] : m.v[m.offset(j, i, mb)];
  return op == CUBLAS_OP_C ? std::conj(v) : v;
}

// Whether C on the device equals the reference (saturating integers) and its padding is
// untouched. `op_a_ref` is A's operation in the reference (a wrong one is the mutation).
bool matches(const Mat& c, const std::vector<std::complex<double>>& got, std::complex<double> alpha,
             const Mat* a, cublasOperation_t op_a_ref, std::complex<double> beta, const Mat* b,
             cublasOperation_t op_b, bool report = false) {
  std::vector<bool> logical(c.v.size(), false);
  for (int bt = 0; bt < c.batch; ++bt)
    for (int64_t j = 0; j < c.cols; ++j)
      for (int64_t i = 0; i < c.rows; ++i) {
        std::complex<double> want = 0;
        if (a != nullptr && alpha != 0.0) want += alpha * op_at(*a, op_a_ref, i, j, bt);
        if (b != nullptr && beta != 0.0) want += beta * op_at(*b, op_b, i, j, bt);
        if (c.type == CUDA_R_8I) want = std::min(127.0, std::max(-128.0, want.real()));
        const size_t at = c.offset(i, j, bt);
        logical[at] = true;
        if (got[at] != want) {
          if (report)
            std::printf("C(%lld, %lld) batch %d: got (%g, %g), want (%g, %g)\n",
                        static_cast<long long>(i), static_cast<long long>(j), bt, got[at].real(),
                        got[at].imag(), want.real(), want.imag());
          return false;
        }
      }
  for (size_t i = 0; i < got.size(); ++i) {
    if (logical[i]) continue;
    const bool same = std::isnan(c.v[i].real()) ? std::isnan(got[i].real()) : got[i] == c.v[i];
    if (!same) {
      if (report) std::printf("padding [%zu] changed to %g\n", i, got[i].real());
      return false;
    }
  }
  return true;
}

struct Case {
  const char* name;
  cudaDataType scale;
  cublasOperation_t op_a, op_b;
  Mat a, b, c;
  std::complex<double> alpha, beta;
  bool device_scalars = false;
  bool null_a = false;
  bool nan_in_a = false, nan_in_b = false;  // NaN in A (alpha 0) / B (beta 0)
};

void run_case(cublasLtHandle_t lt, Case cs, uint64_t seed) {
  Random r(seed);
  const double nan = std::nan("");
  cs.a.fill(r, 6, nan);
  cs.b.fill(r, 6, nan);
  cs.c.fill(r, 6, -7.0);  // C's padding: a value the check finds unchanged
  if (cs.nan_in_a)
    for (auto& e : cs.a.v) e = nan;
  if (cs.nan_in_b)
    for (auto& e : cs.b.v) e = nan;
  cublasLtMatrixTransformDesc_t desc;
  CHECK_CUBLAS(cublasLtMatrixTransformDescCreate(&desc, cs.scale));
  CHECK_CUBLAS(cublasLtMatrixTransformDescSetAttribute(desc, CUBLASLT_MATRIX_TRANSFORM_DESC_TRANSA,
                                                       &cs.op_a, sizeof(cs.op_a)));
  CHECK_CUBLAS(cublasLtMatrixTransformDescSetAttribute(desc, CUBLASLT_MATRIX_TRANSFORM_DESC_TRANSB,
                                                       &cs.op_b, sizeof(cs.op_b)));
  const cublasLtPointerMode_t pm =
      cs.device_scalars ? CUBLASLT_POINTER_MODE_DEVICE : CUBLASLT_POINTER_MODE_HOST;
  CHECK_CUBLAS(cublasLtMatrixTransformDescSetAttribute(
      desc, CUBLASLT_MATRIX_TRANSFORM_DESC_POINTER_MODE, &pm, sizeof(pm)));
  // alpha and beta in the scale type.
  unsigned char scalars[2][16];
  for (int s = 0; s < 2; ++s) {
    const std::complex<double> v = s == 0 ? cs.alpha : cs.beta;
    const float f[2] = {static_cast<float>(v.real()), static_cast<float>(v.imag())};
    const double d[2] = {v.real(), v.imag()};
    if (cs.scale == CUDA_R_32F || cs.scale == CUDA_C_32F)
      std::memcpy(scalars[s], f, 8);
    else
      std::memcpy(scalars[s], d, 16);
  }
  void* dscalars = nullptr;
  const void *alpha = scalars[0], *beta = scalars[1];
  if (cs.device_scalars) {
    CHECK_CUDA(cudaMalloc(&dscalars, sizeof(scalars)));
    CHECK_CUDA(cudaMemcpy(dscalars, scalars, sizeof(scalars), cudaMemcpyHostToDevice));
    alpha = dscalars, beta = static_cast<unsigned char*>(dscalars) + 16;
  }
  cublasLtMatrixLayout_t la = cs.a.layout(), lb = cs.b.layout(), lc = cs.c.layout();
  void *da = cs.a.upload(), *db = cs.b.upload(), *dc = cs.c.upload();
  CHECK_CUBLAS(cublasLtMatrixTransform(lt, desc, alpha, cs.null_a ? nullptr : da, la, beta, db, lb,
                                       dc, lc, 0));
  CHECK_CUDA(cudaDeviceSynchronize());
  const std::vector<std::complex<double>> got = cs.c.download(dc);
  const Mat* a = cs.null_a ? nullptr : &cs.a;
  EXPECT_TRUE(matches(cs.c, got, cs.alpha, a, cs.op_a, cs.beta, &cs.b, cs.op_b, /*report=*/true),
              "%s", cs.name);
  // Mutation: the check rejects the result against a reference with A's operation wrong
  // (for a square A with alpha != 0 and data that is not symmetric).
  if (a != nullptr && cs.alpha != 0.0 && cs.a.rows == cs.a.cols && cs.a.rows > 1 && !cs.nan_in_a) {
    const cublasOperation_t wrong = cs.op_a == CUBLAS_OP_N ? CUBLAS_OP_T : CUBLAS_OP_N;
    EXPECT_TRUE(!matches(cs.c, got, cs.alpha, a, wrong, cs.beta, &cs.b, cs.op_b),
                "%s: the check accepts a wrong transpose", cs.name);
  }
  cudaFree(da), cudaFree(db), cudaFree(dc), cudaFree(dscalars);
  cublasLtMatrixLayoutDestroy(la), cublasLtMatrixLayoutDestroy(lb), cublasLtMatrixLayoutDestroy(lc);
  cublasLtMatrixTransformDescDestroy(desc);
  std::printf("ok %s\n", cs.name);
}

Mat mat(cudaDataType t, cublasLtOrder_t o, int64_t rows, int64_t cols, int64_t pad = 0) {
  int64_t ld = o == CUBLASLT_ORDER_COL ? rows : (o == CUBLASLT_ORDER_ROW ? cols : 32 * rows);
  if (o == CUBLASLT_ORDER_COL32_2R_4R4) ld = 1024 * ((rows + 31) / 32);
  return Mat{t, o, rows, cols, std::max<int64_t>(1, ld) + pad};
}

void check_errors(cublasLtHandle_t lt) {
  cublasLtMatrixTransformDesc_t desc;
  CHECK_CUBLAS(cublasLtMatrixTransformDescCreate(&desc, CUDA_R_32F));
  float* d = nullptr;
  CHECK_CUDA(cudaMalloc(&d, 4096));
  const float one = 1.0f;
  cublasLtMatrixLayout_t l44, l43, lbad_ld, lorder, lc32;
  CHECK_CUBLAS(cublasLtMatrixLayoutCreate(&l44, CUDA_R_32F, 4, 4, 4));
  CHECK_CUBLAS(cublasLtMatrixLayoutCreate(&l43, CUDA_R_32F, 4, 3, 4));
  CHECK_CUBLAS(cublasLtMatrixLayoutCreate(&lbad_ld, CUDA_R_32F, 4, 4, 3));
  CHECK_CUBLAS(cublasLtMatrixLayoutCreate(&lorder, CUDA_R_8I, 4, 4, 256));
  const cublasLtOrder_t order = CUBLASLT_ORDER_COL4_4R2_8C;
  CHECK_CUBLAS(cublasLtMatrixLayoutSetAttribute(lorder, CUBLASLT_MATRIX_LAYOUT_ORDER, &order,
                                                sizeof(order)));
  CHECK_CUBLAS(cublasLtMatrixLayoutCreate(&lc32, CUDA_C_32F, 4, 4, 4));
  EXPECT_STATUS(cublasLtMatrixTransform(nullptr, desc, &one, d, l44, &one, d, l44, d, l44, 0),
                CUBLAS_STATUS_NOT_INITIALIZED);
  EXPECT_STATUS(cublasLtMatrixTransform(lt, nullptr, &one, d, l44, &one, d, l44, d, l44, 0),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(cublasLtMatrixTransform(lt, desc, &one, d, nullptr, &one, d, l44, d, l44, 0),
                CUBLAS_STATUS_INVALID_VALUE);  // A without its layout
  EXPECT_STATUS(cublasLtMatrixTransform(lt, desc, &one, d, l44, &one, d, l44, nullptr, l44, 0),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(cublasLtMatrixTransform(lt, desc, nullptr, d, l44, &one, d, l44, d, l44, 0),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(cublasLtMatrixTransform(lt, desc, &one, d, l43, &one, d, l44, d, l44, 0),
                CUBLAS_STATUS_INVALID_VALUE);  // shapes differ
  EXPECT_STATUS(cublasLtMatrixTransform(lt, desc, &one, d, lbad_ld, &one, d, l44, d, l44, 0),
                CUBLAS_STATUS_INVALID_VALUE);  // ld < rows
  EXPECT_STATUS(cublasLtMatrixTransform(lt, desc, &one, d, lorder, &one, d, l44, d, l44, 0),
                CUBLAS_STATUS_NOT_SUPPORTED);  // an IMMA order Strata lacks
  EXPECT_STATUS(cublasLtMatrixTransform(lt, desc, &one, d, lc32, &one, d, l44, d, l44, 0),
                CUBLAS_STATUS_NOT_SUPPORTED);  // complex data with a real scale type
  const int32_t bad_op = 7;
  CHECK_CUBLAS(cublasLtMatrixTransformDescSetAttribute(desc, CUBLASLT_MATRIX_TRANSFORM_DESC_TRANSA,
                                                       &bad_op, sizeof(bad_op)));
  EXPECT_STATUS(cublasLtMatrixTransform(lt, desc, &one, d, l44, &one, d, l44, d, l44, 0),
                CUBLAS_STATUS_INVALID_VALUE);
  for (auto l : {l44, l43, lbad_ld, lorder, lc32}) cublasLtMatrixLayoutDestroy(l);
  cublasLtMatrixTransformDescDestroy(desc);
  cudaFree(d);
  std::printf("ok errors\n");
}

}  // namespace

int main() {
  cublasLtHandle_t lt;
  CHECK_CUBLAS(cublasLtCreate(&lt));
  const auto N = CUBLAS_OP_N, T = CUBLAS_OP_T, C = CUBLAS_OP_C;
  const auto COL = CUBLASLT_ORDER_COL, ROW = CUBLASLT_ORDER_ROW, COL32 = CUBLASLT_ORDER_COL32;
  const auto R4R4 = CUBLASLT_ORDER_COL32_2R_4R4;
  std::vector<Case> cases;
  // Every pair of orders, FP32, both operations, padded leading dimensions.
  for (auto oa : {COL, ROW, COL32, R4R4})
    for (auto oc : {COL, ROW, COL32, R4R4})
      cases.push_back({"s orders", CUDA_R_32F, T, N, mat(CUDA_R_32F, oa, 9, 7, 1),
                       mat(CUDA_R_32F, ROW, 7, 9, 2), mat(CUDA_R_32F, oc, 7, 9, 3), 2.0, -1.0});
  // The four types with every operation.
  cases.push_back({"d N/T", CUDA_R_64F, N, T, mat(CUDA_R_64F, COL, 12, 12, 2),
                   mat(CUDA_R_64F, COL, 12, 12), mat(CUDA_R_64F, ROW, 12, 12, 1), 3.0, 2.0});
  cases.push_back({"c C/T",
                   CUDA_C_32F,
                   C,
                   T,
                   mat(CUDA_C_32F, COL, 8, 8),
                   mat(CUDA_C_32F, ROW, 8, 8),
                   mat(CUDA_C_32F, COL, 8, 8, 4),
                   {1, 2},
                   {-2, 1}});
  cases.push_back({"z T/C",
                   CUDA_C_64F,
                   T,
                   C,
                   mat(CUDA_C_64F, ROW, 5, 5),
                   mat(CUDA_C_64F, COL, 5, 5, 3),
                   mat(CUDA_C_64F, COL32, 5, 5),
                   {0, 1},
                   {2, -3}});
  // The FP32-scale family: FP16 and BF16 in, INT8 out into COL32 (saturating), INT32.
  cases.push_back({"h+bf->s", CUDA_R_32F, N, N, mat(CUDA_R_16F, COL, 33, 40),
                   mat(CUDA_R_16BF, ROW, 33, 40), mat(CUDA_R_32F, COL, 33, 40), 0.5, 4.0});
  cases.push_back({"i8->i8 col32", CUDA_R_32F, N, N, mat(CUDA_R_8I, COL, 17, 35),
                   mat(CUDA_R_8I, COL, 17, 35), mat(CUDA_R_8I, COL32, 17, 35), 30.0, 0.0});
  cases.push_back({"i8->i8 col32_2r_4r4", CUDA_R_32F, T, N, mat(CUDA_R_8I, ROW, 35, 40),
                   mat(CUDA_R_8I, COL, 40, 35), mat(CUDA_R_8I, R4R4, 40, 35), 3.0, -2.0});
  cases.push_back({"i32 T", CUDA_R_32F, T, N, mat(CUDA_R_32I, COL, 6, 6),
                   mat(CUDA_R_32I, COL, 6, 6), mat(CUDA_R_32I, ROW, 6, 6), -3.0, 5.0});
  // beta = 0 with NaN in B; alpha = 0 with NaN in A; a null A; device scalars.
  {
    Case cs{"beta 0, NaN in B",
            CUDA_R_32F,
            N,
            N,
            mat(CUDA_R_32F, COL, 10, 6),
            mat(CUDA_R_32F, COL, 10, 6),
            mat(CUDA_R_32F, COL, 10, 6, 2),
            1.5,
            0.0};
    cs.nan_in_b = true;
    cases.push_back(cs);
    Case cz{"alpha 0, NaN in A",
            CUDA_R_64F,
            N,
            T,
            mat(CUDA_R_64F, COL, 4, 4),
            mat(CUDA_R_64F, ROW, 4, 4),
            mat(CUDA_R_64F, COL, 4, 4),
            0.0,
            -2.0};
    cz.nan_in_a = true;
    cases.push_back(cz);
    Case cn{"null A",
            CUDA_R_32F,
            N,
            T,
            mat(CUDA_R_32F, COL, 3, 5),
            mat(CUDA_R_32F, COL, 5, 3),
            mat(CUDA_R_32F, ROW, 3, 5),
            1.0,
            2.0};
    cn.null_a = true;
    cases.push_back(cn);
    Case cd{"device scalars",
            CUDA_C_64F,
            N,
            N,
            mat(CUDA_C_64F, COL, 7, 3),
            mat(CUDA_C_64F, ROW, 7, 3),
            mat(CUDA_C_64F, COL, 7, 3),
            {1, -1},
            {0, 2}};
    cd.device_scalars = true;
    cases.push_back(cd);
    Case cdz{"device beta 0, NaN in B",
             CUDA_R_32F,
             N,
             N,
             mat(CUDA_R_32F, COL, 4, 4),
             mat(CUDA_R_32F, COL, 4, 4),
             mat(CUDA_R_32F, COL, 4, 4),
             2.0,
             0.0};
    cdz.device_scalars = true, cdz.nan_in_b = true;
    cases.push_back(cdz);
  }
  // Batches: strided A, B and C; A broadcast (batch 1, stride 0).
  {
    Case cb{"batches",
            CUDA_R_32F,
            T,
            N,
            mat(CUDA_R_32F, COL, 6, 5),
            mat(CUDA_R_32F, ROW, 5, 6),
            mat(CUDA_R_32F, COL, 5, 6, 1),
            1.0,
            -1.0};
    cb.a.batch = 3, cb.a.stride = 31;
    cb.b.batch = 3, cb.b.stride = 40;
    cb.c.batch = 3, cb.c.stride = 36;
    cases.push_back(cb);
    Case cbb{"broadcast A",
             CUDA_R_64F,
             N,
             N,
             mat(CUDA_R_64F, COL, 4, 4),
             mat(CUDA_R_64F, COL, 4, 4),
             mat(CUDA_R_64F, COL, 4, 4),
             2.0,
             1.0};
    cbb.b.batch = 2, cbb.b.stride = 16;
    cbb.c.batch = 2, cbb.c.stride = 20;
    cases.push_back(cbb);
  }
  // Zero sizes: nothing is written.
  cases.push_back({"zero rows", CUDA_R_32F, N, N, mat(CUDA_R_32F, COL, 0, 4),
                   mat(CUDA_R_32F, COL, 0, 4), mat(CUDA_R_32F, COL, 0, 4), 1.0, 1.0});
  uint64_t seed = 1;
  for (const Case& cs : cases) run_case(lt, cs, seed++);
  check_errors(lt);
  CHECK_CUBLAS(cublasLtDestroy(lt));
  std::printf("PASS lt_transform\n");
  return 0;
}
