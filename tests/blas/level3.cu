// Level-3 BLAS beyond GEMM, and the GEMM variants (S, D, C, Z; LP64 and _64), one family
// per command-line argument:
//   rankk: syrk, herk, syrkx, herkx, syr2k, her2k, CsyrkEx, Csyrk3mEx, CherkEx, Cherk3mEx;
//   symm:  symm, hemm, trmm (out of place and in place);
//   gemm:  Cgemm3m, Zgemm3m, Cgemm3mEx, Cgemm3mBatched, Cgemm3mStridedBatched,
//          Sgemm / Dgemm / GemmEx GroupedBatched.
// Every case builds the dense operands on the host from the documented storage (the
// triangle not referenced holds NaN, as do unit diagonals and the imaginary parts of a
// Hermitian diagonal), computes the result in FP64 and checks each element against the
// bound of issue 7, |err| <= 2 (terms u_compute + u_out)(|alpha| |A| |B| + |beta| |C|);
// elements the routine must not write (the other triangle, the rows between m and ldc)
// must keep their sentinel bit for bit; integer-valued inputs must give exact results.
// Both fills, every operation, side and diagonal, zero dimensions, ld > minimum, beta = 0
// with NaN in C, device pointer mode, invalid arguments; a mutation check shows that the
// comparison rejects a wrong element, a touched sentinel and a dropped term.
#include "level3_check.h"

using namespace level3_check;

namespace {

// ------------------------------------------------------------------------------ rank-k
// Which rank-k routine a case calls.
enum class RK { kSyrk, kSyrkx, kSyr2k, kHerk, kHerkx, kHer2k };
const char* rk_name(RK kind) {
  switch (kind) {
    case RK::kSyrk:
      return "syrk";
    case RK::kSyrkx:
      return "syrkx";
    case RK::kSyr2k:
      return "syr2k";
    case RK::kHerk:
      return "herk";
    case RK::kHerkx:
      return "herkx";
    default:
      return "her2k";
  }
}

// Real for the Hermitian forms' real scalars.
template <typename T>
using Real =
    std::conditional_t<std::is_same_v<T, cuComplex> || std::is_same_v<T, float>, float, double>;

// One rank-k case: n, k, ld padding, beta zero (NaN in C), exact integer data, _64 form.
template <typename T>
void rank_k_case(cublasHandle_t h, Random& r, RK kind, cublasFillMode_t uplo,
                 cublasOperation_t trans, int64_t n, int64_t k, int64_t pad, bool beta_zero,
                 bool exact, bool use64) {
  const bool herm = kind == RK::kHerk || kind == RK::kHerkx || kind == RK::kHer2k;
  const bool two =
      kind == RK::kSyrkx || kind == RK::kSyr2k || kind == RK::kHerkx || kind == RK::kHer2k;
  // Stored A, B: n x k (trans N) or k x n.
  const int64_t rows = trans == CUBLAS_OP_N ? n : k, cols = trans == CUBLAS_OP_N ? k : n;
  const int64_t lda = std::max<int64_t>(1, rows) + pad, ldb = lda + 1,
                ldc = std::max<int64_t>(1, n) + pad;
  const Mat a = random_mat<T>(r, rows, cols, exact);
  const Mat b = two ? random_mat<T>(r, rows, cols, exact) : a;
  Mat c0 = random_mat<T>(r, n, n, exact);
  if (herm)
    for (int64_t i = 0; i < n; ++i) c0(i, i) = cd(c0(i, i).real(), 0.0);  // Hermitian C
  cd alpha = rnd<T>(r, exact), beta = beta_zero ? cd(0) : rnd<T>(r, exact);
  if (kind == RK::kHerk) alpha = alpha.real();
  if (herm) beta = beta.real();
  const cublasOperation_t adj = herm ? CUBLAS_OP_C : CUBLAS_OP_T;
  const Mat opa = apply_op(a, trans), opb = apply_op(b, trans);
  std::vector<Term> terms{{alpha, opa, apply_op(opb, adj)}};
  if (kind == RK::kSyr2k) terms.push_back({alpha, opb, apply_op(opa, adj)});
  if (kind == RK::kHer2k) terms.push_back({std::conj(alpha), opb, apply_op(opa, adj)});
  Expected e = reference(terms, beta, c0, n, n);
  // The Hermitian forms' result is Hermitian: its diagonal is real (herkx: by the
  // documented precondition on B; the routine sets the imaginary parts to zero).
  if (herm)
    for (int64_t i = 0; i < n; ++i) e.value(i, i) = e.value(i, i).real();
  const InFill fill{uplo};
  std::vector<T> cs =
      store<T>(c0, ldc, kSentinel, [&](int64_t i, int64_t j) { return !fill(i, j); });
  if (beta_zero)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < n; ++i)
        if (fill(i, j)) put(cs[i + j * ldc], cd(kNaN, kNaN));
  Dev<T> da(store<T>(a, lda)), db(store<T>(b, ldb)), dc(cs);
  const T al = scalar<T>(alpha), be = scalar<T>(beta);
  const Real<T> ral = static_cast<Real<T>>(alpha.real()), rbe = static_cast<Real<T>>(beta.real());
  cublasStatus_t s;
  const int in = static_cast<int>(n), ik = static_cast<int>(k);
  switch (kind) {
    case RK::kSyrk:
      s = use64 ? syrk64<T>(h, uplo, trans, n, k, &al, da.p, lda, &be, dc.p, ldc)
                : syrk<T>(h, uplo, trans, in, ik, &al, da.p, (int)lda, &be, dc.p, (int)ldc);
      break;
    case RK::kSyrkx:
      s = use64 ? syrkx64<T>(h, uplo, trans, n, k, &al, da.p, lda, db.p, ldb, &be, dc.p, ldc)
                : syrkx<T>(h, uplo, trans, in, ik, &al, da.p, (int)lda, db.p, (int)ldb, &be, dc.p,
                           (int)ldc);
      break;
    case RK::kSyr2k:
      s = use64 ? syr2k64<T>(h, uplo, trans, n, k, &al, da.p, lda, db.p, ldb, &be, dc.p, ldc)
                : syr2k<T>(h, uplo, trans, in, ik, &al, da.p, (int)lda, db.p, (int)ldb, &be, dc.p,
                           (int)ldc);
      break;
    case RK::kHerk:
      s = use64 ? herk64<T>(h, uplo, trans, n, k, &ral, da.p, lda, &rbe, dc.p, ldc)
                : herk<T>(h, uplo, trans, in, ik, &ral, da.p, (int)lda, &rbe, dc.p, (int)ldc);
      break;
    case RK::kHerkx:
      s = use64 ? herkx64<T>(h, uplo, trans, n, k, &al, da.p, lda, db.p, ldb, &rbe, dc.p, ldc)
                : herkx<T>(h, uplo, trans, in, ik, &al, da.p, (int)lda, db.p, (int)ldb, &rbe, dc.p,
                           (int)ldc);
      break;
    default:
      s = use64 ? her2k64<T>(h, uplo, trans, n, k, &al, da.p, lda, db.p, ldb, &rbe, dc.p, ldc)
                : her2k<T>(h, uplo, trans, in, ik, &al, da.p, (int)lda, db.p, (int)ldb, &rbe, dc.p,
                           (int)ldc);
      break;
  }
  char what[160];
  std::snprintf(what, sizeof what, "%s%s%s uplo %d trans %d n %lld k %lld beta0 %d exact %d",
                type_name<T>(), rk_name(kind), use64 ? "_64" : "", uplo, trans, (long long)n,
                (long long)k, beta_zero, exact);
  EXPECT_TRUE(s == CUBLAS_STATUS_SUCCESS, "%s -> %s", what, cublasGetStatusName(s));
  EXPECT_OK(what, compare<T>(dc.back(), cs, e, ldc, fill, exact, herm));
}

template <typename T>
void test_rank_k(cublasHandle_t h, Random& r) {
  std::vector<RK> kinds{RK::kSyrk, RK::kSyrkx, RK::kSyr2k};
  if (kComplex<T>) kinds.insert(kinds.end(), {RK::kHerk, RK::kHerkx, RK::kHer2k});
  int round = 0;
  for (RK kind : kinds) {
    const bool herm = kind == RK::kHerk || kind == RK::kHerkx || kind == RK::kHer2k;
    for (cublasFillMode_t uplo : kFills)
      for (cublasOperation_t trans : kOps) {
        if (herm && trans == CUBLAS_OP_T) continue;
        if (!herm && kComplex<T> && trans == CUBLAS_OP_C) continue;
        ++round;
        rank_k_case<T>(h, r, kind, uplo, trans, 19 + round % 7, 13 + round % 5, round % 3,
                       round % 4 == 0, false, round % 2 == 0);
      }
    // Exact integer data; two tiles of C; k == 0 (C = beta C); n == 0.
    rank_k_case<T>(h, r, kind, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, 23, 9, 1, false, true, false);
    rank_k_case<T>(h, r, kind, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, 70, 5, 0, false, false, false);
    rank_k_case<T>(h, r, kind, CUBLAS_FILL_MODE_UPPER, herm ? CUBLAS_OP_C : CUBLAS_OP_T, 11, 0, 2,
                   false, false, true);
    rank_k_case<T>(h, r, kind, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, 0, 4, 0, false, false, false);
  }

  // Invalid arguments.
  Dev<T> d(std::vector<T>(256));
  const T one = scalar<T>(1);
  const Real<T> rone = 1;
  const auto inv = CUBLAS_STATUS_INVALID_VALUE;
  EXPECT_STATUS(syrk<T>(h, CUBLAS_FILL_MODE_FULL, CUBLAS_OP_N, 2, 2, &one, d.p, 2, &one, d.p, 2),
                inv);
  EXPECT_STATUS(syrk<T>(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, -1, 2, &one, d.p, 2, &one, d.p, 2),
                inv);
  EXPECT_STATUS(syrk<T>(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, 2, -1, &one, d.p, 2, &one, d.p, 2),
                inv);
  EXPECT_STATUS(syrk<T>(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, 4, 2, &one, d.p, 3, &one, d.p, 4),
                inv);
  EXPECT_STATUS(syrk<T>(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, 2, 4, &one, d.p, 3, &one, d.p, 2),
                inv);
  EXPECT_STATUS(syrk<T>(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, 4, 2, &one, d.p, 4, &one, d.p, 3),
                inv);
  EXPECT_STATUS(
      syrk<T>(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, 2, 2, nullptr, d.p, 2, &one, d.p, 2), inv);
  EXPECT_STATUS(
      syrkx<T>(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, 4, 2, &one, d.p, 4, d.p, 3, &one, d.p, 4),
      inv);
  EXPECT_STATUS(
      syr2k<T>(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, 2, 2, &one, d.p, 2, d.p, 2, nullptr, d.p, 2),
      inv);
  EXPECT_STATUS(syr2k<T>(h, CUBLAS_FILL_MODE_LOWER, (cublasOperation_t)7, 2, 2, &one, d.p, 2, d.p,
                         2, &one, d.p, 2),
                inv);
  if constexpr (kComplex<T>) {
    EXPECT_STATUS(syrk<T>(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_C, 2, 2, &one, d.p, 2, &one, d.p, 2),
                  inv);
    EXPECT_STATUS(
        herk<T>(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, 2, 2, &rone, d.p, 2, &rone, d.p, 2), inv);
    EXPECT_STATUS(
        her2k<T>(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, 4, 2, &one, d.p, 4, d.p, 4, &rone, d.p, 3),
        inv);
    EXPECT_STATUS(
        herkx<T>(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T, 2, 2, &one, d.p, 2, d.p, 2, &rone, d.p, 2),
        inv);
  }
  // n == 0 with a null C is a quick return.
  CHECK_CUBLAS(
      syrk<T>(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, 0, 2, &one, d.p, 1, &one, (T*)nullptr, 1));
}

// Device pointer mode: syrk, herk (real scalars on the device) and her2k.
template <typename T>
void test_rank_k_device(cublasHandle_t h, Random& r) {
  CHECK_CUBLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE));
  const int64_t n = 21, k = 17, ld = 24;
  for (RK kind : {RK::kSyrk, RK::kHerk, RK::kHer2k}) {
    if (!kComplex<T> && kind != RK::kSyrk) continue;
    const bool herm = kind != RK::kSyrk;
    const Mat a = random_mat<T>(r, n, k), b = random_mat<T>(r, n, k);
    Mat c0 = random_mat<T>(r, n, n);
    for (int64_t i = 0; i < n; ++i)
      if (herm) c0(i, i) = c0(i, i).real();
    cd alpha = rnd<T>(r), beta = rnd<T>(r).real();
    if (kind == RK::kHerk) alpha = alpha.real();
    std::vector<Term> terms{
        {alpha, a, apply_op(kind == RK::kHer2k ? b : a, herm ? CUBLAS_OP_C : CUBLAS_OP_T)}};
    if (kind == RK::kHer2k) terms.push_back({std::conj(alpha), b, apply_op(a, CUBLAS_OP_C)});
    const Expected e = reference(terms, beta, c0, n, n);
    const InFill fill{CUBLAS_FILL_MODE_LOWER};
    std::vector<T> cs =
        store<T>(c0, ld, kSentinel, [&](int64_t i, int64_t j) { return !fill(i, j); });
    Dev<T> da(store<T>(a, ld)), db(store<T>(b, ld)), dc(cs);
    Dev<T> dal(std::vector<T>{scalar<T>(alpha)}), dbe(std::vector<T>{scalar<T>(beta)});
    Dev<Real<T>> dral(std::vector<Real<T>>{static_cast<Real<T>>(alpha.real())});
    Dev<Real<T>> drbe(std::vector<Real<T>>{static_cast<Real<T>>(beta.real())});
    if (kind == RK::kSyrk) {
      CHECK_CUBLAS(syrk<T>(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, (int)n, (int)k, dal.p, da.p,
                           (int)ld, dbe.p, dc.p, (int)ld));
    } else if (kind == RK::kHerk) {
      CHECK_CUBLAS(herk<T>(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, (int)n, (int)k, dral.p, da.p,
                           (int)ld, drbe.p, dc.p, (int)ld));
    } else {
      CHECK_CUBLAS(her2k<T>(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, (int)n, (int)k, dal.p, da.p,
                            (int)ld, db.p, (int)ld, drbe.p, dc.p, (int)ld));
    }
    EXPECT_OK(std::string(type_name<T>()) + rk_name(kind) + " device pointers",
              compare<T>(dc.back(), cs, e, ld, fill, false, herm));
  }
  CHECK_CUBLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
}

// The comparison rejects a perturbed element, a written sentinel and a dropped term.
void test_mutations() {
  Random r(5);
  const int64_t n = 9, k = 7;
  const Mat a = random_mat<float>(r, n, k), b = random_mat<float>(r, n, k);
  const Mat c0 = random_mat<float>(r, n, n);
  const cd alpha = 0.75, beta = -0.5;
  const Expected e = reference(
      {{alpha, a, apply_op(b, CUBLAS_OP_T)}, {alpha, b, apply_op(a, CUBLAS_OP_T)}}, beta, c0, n, n);
  const InFill fill{CUBLAS_FILL_MODE_UPPER};
  std::vector<float> before =
      store<float>(c0, n, kSentinel, [&](int64_t i, int64_t j) { return !fill(i, j); });
  std::vector<float> good = before;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i <= j; ++i) good[i + j * n] = static_cast<float>(e.value(i, j).real());
  EXPECT_TRUE(compare<float>(good, before, e, n, fill, false, false).empty(),
              "the FP64 result passes");
  std::vector<float> bad = good;
  bad[3 + 5 * n] += static_cast<float>(1e-4 * e.mag(3, 5).real());  // far above the FP32 bound
  EXPECT_TRUE(!compare<float>(bad, before, e, n, fill, false, false).empty(),
              "a perturbed element");
  bad = good;
  bad[5 + 3 * n] = 0.0f;  // below the diagonal of an upper-fill result
  EXPECT_TRUE(!compare<float>(bad, before, e, n, fill, false, false).empty(), "a written sentinel");
  const Expected one = reference({{alpha, a, apply_op(b, CUBLAS_OP_T)}}, beta, c0, n, n);
  bad = good;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i <= j; ++i) bad[i + j * n] = static_cast<float>(one.value(i, j).real());
  EXPECT_TRUE(!compare<float>(bad, before, e, n, fill, false, false).empty(), "a dropped product");
  ++g_cases;
}

// CsyrkEx, Csyrk3mEx, CherkEx, Cherk3mEx: A of CUDA_C_8I and CUDA_C_32F.
void test_rank_k_ex(cublasHandle_t h, Random& r) {
  const int64_t n = 18, k = 11, lda = 20, ldc = 19;
  // LP64 forms for C_32F inputs, _64 forms for C_8I inputs.
  using Fn = cublasStatus_t (*)(cublasHandle_t, cublasFillMode_t, cublasOperation_t, int, int,
                                const cuComplex*, const void*, cudaDataType, int, const cuComplex*,
                                void*, cudaDataType, int);
  using HFn = cublasStatus_t (*)(cublasHandle_t, cublasFillMode_t, cublasOperation_t, int, int,
                                 const float*, const void*, cudaDataType, int, const float*, void*,
                                 cudaDataType, int);
  using Fn64 = cublasStatus_t (*)(cublasHandle_t, cublasFillMode_t, cublasOperation_t, int64_t,
                                  int64_t, const cuComplex*, const void*, cudaDataType, int64_t,
                                  const cuComplex*, void*, cudaDataType, int64_t);
  using HFn64 = cublasStatus_t (*)(cublasHandle_t, cublasFillMode_t, cublasOperation_t, int64_t,
                                   int64_t, const float*, const void*, cudaDataType, int64_t,
                                   const float*, void*, cudaDataType, int64_t);
  const Fn syrks[] = {cublasCsyrkEx, cublasCsyrk3mEx};
  const HFn herks[] = {cublasCherkEx, cublasCherk3mEx};
  const Fn64 syrks64[] = {cublasCsyrkEx_64, cublasCsyrk3mEx_64};
  const HFn64 herks64[] = {cublasCherkEx_64, cublasCherk3mEx_64};
  for (int herm = 0; herm < 2; ++herm)
    for (int variant = 0; variant < 2; ++variant)
      for (int int8 = 0; int8 < 2; ++int8) {
        const cublasFillMode_t uplo = kFills[(variant + int8) % 2];
        const cublasOperation_t trans = variant ? (herm ? CUBLAS_OP_C : CUBLAS_OP_T) : CUBLAS_OP_N;
        const int64_t rows = trans == CUBLAS_OP_N ? n : k, cols = trans == CUBLAS_OP_N ? k : n;
        const Mat a =
            int8 ? random_mat<char2>(r, rows, cols, true) : random_mat<cuComplex>(r, rows, cols);
        Mat c0 = random_mat<cuComplex>(r, n, n);
        if (herm)
          for (int64_t i = 0; i < n; ++i) c0(i, i) = c0(i, i).real();
        cd alpha = rnd<cuComplex>(r), beta = rnd<cuComplex>(r);
        if (herm) alpha = alpha.real(), beta = beta.real();
        const Mat opa = apply_op(a, trans);
        const Expected e = reference(
            {{alpha, opa, apply_op(opa, herm ? CUBLAS_OP_C : CUBLAS_OP_T)}}, beta, c0, n, n);
        const InFill fill{uplo};
        std::vector<cuComplex> cs =
            store<cuComplex>(c0, ldc, kSentinel, [&](int64_t i, int64_t j) { return !fill(i, j); });
        Dev<cuComplex> dc(cs);
        cublasStatus_t s;
        const cuComplex al = scalar<cuComplex>(alpha), be = scalar<cuComplex>(beta);
        const float ral = static_cast<float>(alpha.real()), rbe = static_cast<float>(beta.real());
        const void* ap;
        Dev<char2> da8(store<char2>(a, lda, cd(0)));
        Dev<cuComplex> da32(store<cuComplex>(a, lda));
        ap = int8 ? static_cast<const void*>(da8.p) : static_cast<const void*>(da32.p);
        const cudaDataType at = int8 ? CUDA_C_8I : CUDA_C_32F;
        if (!herm) {
          s = int8 ? syrks64[variant](h, uplo, trans, n, k, &al, ap, at, lda, &be, dc.p, CUDA_C_32F,
                                      ldc)
                   : syrks[variant](h, uplo, trans, (int)n, (int)k, &al, ap, at, (int)lda, &be,
                                    dc.p, CUDA_C_32F, (int)ldc);
        } else {
          s = int8 ? herks64[variant](h, uplo, trans, n, k, &ral, ap, at, lda, &rbe, dc.p,
                                      CUDA_C_32F, ldc)
                   : herks[variant](h, uplo, trans, (int)n, (int)k, &ral, ap, at, (int)lda, &rbe,
                                    dc.p, CUDA_C_32F, (int)ldc);
        }
        char what[96];
        std::snprintf(what, sizeof what, "C%s%sEx %s", herm ? "herk" : "syrk", variant ? "3m" : "",
                      int8 ? "C_8I" : "C_32F");
        EXPECT_TRUE(s == CUBLAS_STATUS_SUCCESS, "%s -> %s", what, cublasGetStatusName(s));
        EXPECT_OK(what, compare<cuComplex>(dc.back(), cs, e, ldc, fill, false, herm));
      }
  Dev<cuComplex> d(std::vector<cuComplex>(64));
  const cuComplex one = make_cuComplex(1, 0);
  const float rone = 1;
  EXPECT_STATUS(cublasCsyrkEx(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, 2, 2, &one, d.p, CUDA_R_32F,
                              2, &one, d.p, CUDA_C_32F, 2),
                CUBLAS_STATUS_NOT_SUPPORTED);
  EXPECT_STATUS(cublasCherkEx(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, 2, 2, &rone, d.p, CUDA_C_32F,
                              2, &rone, d.p, CUDA_C_64F, 2),
                CUBLAS_STATUS_NOT_SUPPORTED);
  EXPECT_STATUS(cublasCherk3mEx(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, 2, 2, &rone, d.p,
                                CUDA_C_32F, 2, &rone, d.p, CUDA_C_32F, 2),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(cublasCsyrk3mEx(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, 3, 2, &one, d.p, CUDA_C_32F,
                                2, &one, d.p, CUDA_C_32F, 3),
                CUBLAS_STATUS_INVALID_VALUE);
}

// ------------------------------------------------------------------------ symm, hemm
// The full symmetric (Hermitian) matrix of order n and its storage: the other triangle
// NaN, and for Hermitian matrices NaN in the diagonal's imaginary parts.
template <typename T>
std::pair<Mat, std::vector<T>> symmetric(Random& r, int64_t n, int64_t ld, cublasFillMode_t uplo,
                                         bool herm) {
  Mat full = random_mat<T>(r, n, n);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < j; ++i) full(i, j) = herm ? std::conj(full(j, i)) : full(j, i);
  if (herm)
    for (int64_t i = 0; i < n; ++i) full(i, i) = full(i, i).real();
  const InFill fill{uplo};
  std::vector<T> s =
      store<T>(full, ld, cd(kNaN, kNaN), [&](int64_t i, int64_t j) { return !fill(i, j); });
  if (herm && kComplex<T>)
    for (int64_t i = 0; i < n; ++i) put(s[i + i * ld], cd(full(i, i).real(), kNaN));
  return {full, s};
}

template <typename T>
void symm_case(cublasHandle_t h, Random& r, bool herm, cublasSideMode_t side, cublasFillMode_t uplo,
               int64_t m, int64_t n, int64_t pad, bool beta_zero, bool exact, bool use64) {
  const bool left = side == CUBLAS_SIDE_LEFT;
  const int64_t order = left ? m : n;
  const int64_t lda = std::max<int64_t>(1, order) + pad, ldb = std::max<int64_t>(1, m) + 1,
                ldc = std::max<int64_t>(1, m) + pad;
  auto [a, as] = symmetric<T>(r, order, lda, uplo, herm);
  if (exact) {
    Random ri(order);
    a = random_mat<T>(ri, order, order, true);
    for (int64_t j = 0; j < order; ++j)
      for (int64_t i = 0; i < j; ++i) a(i, j) = herm ? std::conj(a(j, i)) : a(j, i);
    if (herm)
      for (int64_t i = 0; i < order; ++i) a(i, i) = a(i, i).real();
    const InFill fill{uplo};
    as = store<T>(a, lda, cd(kNaN, kNaN), [&](int64_t i, int64_t j) { return !fill(i, j); });
  }
  const Mat b = random_mat<T>(r, m, n, exact), c0 = random_mat<T>(r, m, n, exact);
  const cd alpha = rnd<T>(r, exact), beta = beta_zero ? cd(0) : rnd<T>(r, exact);
  const Expected e = reference({left ? Term{alpha, a, b} : Term{alpha, b, a}}, beta, c0, m, n);
  std::vector<T> cs = store<T>(c0, ldc, kSentinel);
  if (beta_zero)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < m; ++i) put(cs[i + j * ldc], cd(kNaN, kNaN));
  Dev<T> da(as), db(store<T>(b, ldb)), dc(cs);
  const T al = scalar<T>(alpha), be = scalar<T>(beta);
  cublasStatus_t s;
  if (herm) {
    s = use64 ? hemm64<T>(h, side, uplo, m, n, &al, da.p, lda, db.p, ldb, &be, dc.p, ldc)
              : hemm<T>(h, side, uplo, (int)m, (int)n, &al, da.p, (int)lda, db.p, (int)ldb, &be,
                        dc.p, (int)ldc);
  } else {
    s = use64 ? symm64<T>(h, side, uplo, m, n, &al, da.p, lda, db.p, ldb, &be, dc.p, ldc)
              : symm<T>(h, side, uplo, (int)m, (int)n, &al, da.p, (int)lda, db.p, (int)ldb, &be,
                        dc.p, (int)ldc);
  }
  char what[160];
  std::snprintf(what, sizeof what, "%s%s%s side %d uplo %d m %lld n %lld beta0 %d exact %d",
                type_name<T>(), herm ? "hemm" : "symm", use64 ? "_64" : "", side, uplo,
                (long long)m, (long long)n, beta_zero, exact);
  EXPECT_TRUE(s == CUBLAS_STATUS_SUCCESS, "%s -> %s", what, cublasGetStatusName(s));
  EXPECT_OK(what, compare<T>(
                      dc.back(), cs, e, ldc, [](int64_t, int64_t) { return true; }, exact, false));
}

// ------------------------------------------------------------------------------ trmm
template <typename T>
void trmm_case(cublasHandle_t h, Random& r, cublasSideMode_t side, cublasFillMode_t uplo,
               cublasOperation_t trans, cublasDiagType_t diag, int64_t m, int64_t n, int64_t pad,
               bool in_place, bool exact, bool use64) {
  const bool left = side == CUBLAS_SIDE_LEFT;
  const int64_t order = left ? m : n;
  const int64_t lda = std::max<int64_t>(1, order) + pad, ldb = std::max<int64_t>(1, m) + pad,
                ldc = in_place ? ldb : std::max<int64_t>(1, m) + 2 * pad + 1;
  // The triangular matrix as the routine sees it, and its storage.
  Mat a = random_mat<T>(r, order, order, exact);
  const InFill fill{uplo};
  for (int64_t j = 0; j < order; ++j)
    for (int64_t i = 0; i < order; ++i) {
      if (!fill(i, j)) a(i, j) = 0;
      if (i == j && diag == CUBLAS_DIAG_UNIT) a(i, j) = 1;
    }
  std::vector<T> as = store<T>(a, lda, cd(kNaN, kNaN), [&](int64_t i, int64_t j) {
    return !fill(i, j) || (i == j && diag == CUBLAS_DIAG_UNIT);
  });
  const Mat b = random_mat<T>(r, m, n, exact);
  const cd alpha = rnd<T>(r, exact);
  const Mat opa = apply_op(a, trans);
  const Expected e =
      reference({left ? Term{alpha, opa, b} : Term{alpha, b, opa}}, 0, Mat(m, n), m, n);
  const std::vector<T> bs = store<T>(b, ldb, kSentinel);
  std::vector<T> cs = in_place ? bs : store<T>(Mat(m, n), ldc, kSentinel);
  if (!in_place)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < m; ++i) put(cs[i + j * ldc], cd(kNaN, kNaN));  // never read
  Dev<T> da(as), db(bs), dc(cs);
  T* c = in_place ? db.p : dc.p;
  const T al = scalar<T>(alpha);
  const cublasStatus_t s =
      use64 ? trmm64<T>(h, side, uplo, trans, diag, m, n, &al, da.p, lda, db.p, ldb, c, ldc)
            : trmm<T>(h, side, uplo, trans, diag, (int)m, (int)n, &al, da.p, (int)lda, db.p,
                      (int)ldb, c, (int)ldc);
  char what[160];
  std::snprintf(what, sizeof what, "%strmm%s side %d uplo %d trans %d diag %d m %lld n %lld %s",
                type_name<T>(), use64 ? "_64" : "", side, uplo, trans, diag, (long long)m,
                (long long)n, in_place ? "in place" : "out of place");
  EXPECT_TRUE(s == CUBLAS_STATUS_SUCCESS, "%s -> %s", what, cublasGetStatusName(s));
  const auto all = [](int64_t, int64_t) { return true; };
  EXPECT_OK(what, compare<T>(in_place ? db.back() : dc.back(), cs, e, ldc, all, exact, false));
  if (!in_place)
    EXPECT_OK(std::string(what) + " B",
              compare<T>(db.back(), bs, Expected{Mat(0, n), Mat(0, n), 0}, ldb, all, true, false));
}

template <typename T>
void test_symm_trmm(cublasHandle_t h, Random& r) {
  int round = 0;
  for (int herm = 0; herm < (kComplex<T> ? 2 : 1); ++herm)
    for (cublasSideMode_t side : kSides)
      for (cublasFillMode_t uplo : kFills) {
        ++round;
        symm_case<T>(h, r, herm, side, uplo, 17 + round % 5, 23 - round % 4, round % 3,
                     round % 3 == 1, false, round % 2 == 0);
      }
  symm_case<T>(h, r, false, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, 66, 9, 1, false, false,
               false);
  symm_case<T>(h, r, kComplex<T>, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, 12, 10, 0, false, true,
               false);
  symm_case<T>(h, r, kComplex<T>, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, 0, 10, 0, false, false,
               true);
  symm_case<T>(h, r, false, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, 10, 0, 0, false, false,
               false);

  for (cublasSideMode_t side : kSides)
    for (cublasFillMode_t uplo : kFills)
      for (cublasOperation_t trans : kOps)
        for (cublasDiagType_t diag : kDiags) {
          ++round;
          trmm_case<T>(h, r, side, uplo, trans, diag, 13 + round % 6, 16 - round % 5, round % 2,
                       round % 5 == 0, false, round % 3 == 0);
        }
  trmm_case<T>(h, r, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT,
               67, 5, 1, true, false, false);
  trmm_case<T>(h, r, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T, CUBLAS_DIAG_UNIT, 9,
               14, 0, true, true, false);
  trmm_case<T>(h, r, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_C, CUBLAS_DIAG_NON_UNIT,
               10, 12, 1, false, true, true);
  trmm_case<T>(h, r, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT, 0, 5,
               0, false, false, false);

  Dev<T> d(std::vector<T>(256));
  const T one = scalar<T>(1);
  const auto inv = CUBLAS_STATUS_INVALID_VALUE;
  EXPECT_STATUS(symm<T>(h, (cublasSideMode_t)5, CUBLAS_FILL_MODE_LOWER, 2, 2, &one, d.p, 2, d.p, 2,
                        &one, d.p, 2),
                inv);
  EXPECT_STATUS(
      symm<T>(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_FULL, 2, 2, &one, d.p, 2, d.p, 2, &one, d.p, 2),
      inv);
  EXPECT_STATUS(symm<T>(h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, 2, 4, &one, d.p, 3, d.p, 2,
                        &one, d.p, 2),
                inv);
  EXPECT_STATUS(symm<T>(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, 4, 2, &one, d.p, 4, d.p, 3,
                        &one, d.p, 4),
                inv);
  EXPECT_STATUS(symm<T>(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, 4, -2, &one, d.p, 4, d.p, 4,
                        &one, d.p, 4),
                inv);
  EXPECT_STATUS(symm<T>(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, 2, 2, &one, d.p, 2, d.p, 2,
                        nullptr, d.p, 2),
                inv);
  EXPECT_STATUS(trmm<T>(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
                        (cublasDiagType_t)9, 2, 2, &one, d.p, 2, d.p, 2, d.p, 2),
                inv);
  EXPECT_STATUS(trmm<T>(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, (cublasOperation_t)3,
                        CUBLAS_DIAG_UNIT, 2, 2, &one, d.p, 2, d.p, 2, d.p, 2),
                inv);
  EXPECT_STATUS(trmm<T>(h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT,
                        2, 4, &one, d.p, 3, d.p, 2, d.p, 2),
                inv);
  EXPECT_STATUS(trmm<T>(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT,
                        4, 2, &one, d.p, 4, d.p, 4, d.p, 3),
                inv);
  EXPECT_STATUS(trmm<T>(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT,
                        2, 2, nullptr, d.p, 2, d.p, 2, d.p, 2),
                inv);
  if constexpr (kComplex<T>) {
    EXPECT_STATUS(hemm<T>(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, 4, 2, &one, d.p, 3, d.p, 4,
                          &one, d.p, 4),
                  inv);
  }
}

// Device pointer mode for symm and trmm.
template <typename T>
void test_symm_trmm_device(cublasHandle_t h, Random& r) {
  CHECK_CUBLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE));
  const int64_t m = 14, n = 11, ld = 16;
  auto [a, as] = symmetric<T>(r, m, ld, CUBLAS_FILL_MODE_UPPER, kComplex<T>);
  const Mat b = random_mat<T>(r, m, n), c0 = random_mat<T>(r, m, n);
  const cd alpha = rnd<T>(r), beta = rnd<T>(r);
  const Expected e = reference({{alpha, a, b}}, beta, c0, m, n);
  const std::vector<T> cs = store<T>(c0, ld, kSentinel);
  Dev<T> da(as), db(store<T>(b, ld)), dc(cs);
  Dev<T> dal(std::vector<T>{scalar<T>(alpha)}), dbe(std::vector<T>{scalar<T>(beta)});
  if (kComplex<T>) {
    CHECK_CUBLAS(hemm<T>(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, (int)m, (int)n, dal.p, da.p,
                         (int)ld, db.p, (int)ld, dbe.p, dc.p, (int)ld));
  } else {
    CHECK_CUBLAS(symm<T>(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, (int)m, (int)n, dal.p, da.p,
                         (int)ld, db.p, (int)ld, dbe.p, dc.p, (int)ld));
  }
  const auto all = [](int64_t, int64_t) { return true; };
  EXPECT_OK(std::string(type_name<T>()) + "symm/hemm device pointers",
            compare<T>(dc.back(), cs, e, ld, all, false, false));
  // trmm: C = alpha B A^T with A upper and non-unit (reusing the symmetric storage's
  // upper triangle).
  Mat tri(n, n);
  Random rt(3);
  tri = random_mat<T>(rt, n, n);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = j + 1; i < n; ++i) tri(i, j) = 0;
  const Expected et = reference({{alpha, b, apply_op(tri, CUBLAS_OP_T)}}, 0, Mat(m, n), m, n);
  Dev<T> dt(store<T>(tri, n)), dc2(cs);
  CHECK_CUBLAS(trmm<T>(h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T,
                       CUBLAS_DIAG_NON_UNIT, (int)m, (int)n, dal.p, dt.p, (int)n, db.p, (int)ld,
                       dc2.p, (int)ld));
  EXPECT_OK(std::string(type_name<T>()) + "trmm device pointers",
            compare<T>(dc2.back(), cs, et, ld, all, false, false));
  CHECK_CUBLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
}

// ------------------------------------------------------------------- gemm variants
// One general GEMM problem on the host: op(A) m x k, op(B) k x n, stored with padding.
struct GemmCase {
  cublasOperation_t ta, tb;
  int64_t m, n, k, lda, ldb, ldc;
  Mat a, b, c0;  // stored A, B (before op), C
  cd alpha, beta;
};

template <typename T>
GemmCase make_gemm(Random& r, cublasOperation_t ta, cublasOperation_t tb, int64_t m, int64_t n,
                   int64_t k, int64_t pad, bool beta_zero, bool exact = false) {
  GemmCase g{ta, tb, m, n, k, 0, 0, 0, {}, {}, {}, 0, 0};
  const int64_t ar = ta == CUBLAS_OP_N ? m : k, ac = ta == CUBLAS_OP_N ? k : m;
  const int64_t br = tb == CUBLAS_OP_N ? k : n, bc = tb == CUBLAS_OP_N ? n : k;
  g.lda = std::max<int64_t>(1, ar) + pad, g.ldb = std::max<int64_t>(1, br) + pad;
  g.ldc = std::max<int64_t>(1, m) + pad;
  g.a = random_mat<T>(r, ar, ac, exact), g.b = random_mat<T>(r, br, bc, exact);
  g.c0 = random_mat<T>(r, m, n, exact);
  g.alpha = rnd<T>(r, exact), g.beta = beta_zero ? cd(0) : rnd<T>(r, exact);
  return g;
}
Expected gemm_expected(const GemmCase& g) {
  return reference({{g.alpha, apply_op(g.a, g.ta), apply_op(g.b, g.tb)}}, g.beta, g.c0, g.m, g.n);
}
template <typename TC>
std::vector<TC> gemm_c(const GemmCase& g) {
  std::vector<TC> cs = store<TC>(g.c0, g.ldc, kSentinel);
  if (g.beta == cd(0))
    for (int64_t j = 0; j < g.n; ++j)
      for (int64_t i = 0; i < g.m; ++i) put(cs[i + j * g.ldc], cd(kNaN, kNaN));
  return cs;
}
const auto kAll = [](int64_t, int64_t) { return true; };

template <typename T>
void test_gemm3m(cublasHandle_t h, Random& r) {
  // Cgemm3m / Zgemm3m over every transpose pair.
  int round = 0;
  for (cublasOperation_t ta : kOps)
    for (cublasOperation_t tb : kOps) {
      ++round;
      const GemmCase g = make_gemm<T>(r, ta, tb, 15 + round, 21 - round, 9 + 2 * round, round % 3,
                                      round % 4 == 0, round == 5);
      const std::vector<T> cs = gemm_c<T>(g);
      Dev<T> da(store<T>(g.a, g.lda)), db(store<T>(g.b, g.ldb)), dc(cs);
      const T al = scalar<T>(g.alpha), be = scalar<T>(g.beta);
      cublasStatus_t s;
      if constexpr (std::is_same_v<T, cuComplex>) {
        s = round % 2 ? cublasCgemm3m(h, ta, tb, (int)g.m, (int)g.n, (int)g.k, &al, da.p,
                                      (int)g.lda, db.p, (int)g.ldb, &be, dc.p, (int)g.ldc)
                      : cublasCgemm3m_64(h, ta, tb, g.m, g.n, g.k, &al, da.p, g.lda, db.p, g.ldb,
                                         &be, dc.p, g.ldc);
      } else {
        s = round % 2 ? cublasZgemm3m(h, ta, tb, (int)g.m, (int)g.n, (int)g.k, &al, da.p,
                                      (int)g.lda, db.p, (int)g.ldb, &be, dc.p, (int)g.ldc)
                      : cublasZgemm3m_64(h, ta, tb, g.m, g.n, g.k, &al, da.p, g.lda, db.p, g.ldb,
                                         &be, dc.p, g.ldc);
      }
      char what[96];
      std::snprintf(what, sizeof what, "%sgemm3m ta %d tb %d", type_name<T>(), ta, tb);
      EXPECT_TRUE(s == CUBLAS_STATUS_SUCCESS, "%s -> %s", what, cublasGetStatusName(s));
      EXPECT_OK(what, compare<T>(dc.back(), cs, gemm_expected(g), g.ldc, kAll, round == 5, false));
    }
  Dev<T> d(std::vector<T>(64));
  const T one = scalar<T>(1);
  if constexpr (std::is_same_v<T, cuComplex>) {
    EXPECT_STATUS(
        cublasCgemm3m(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 2, 2, &one, d.p, 3, d.p, 2, &one, d.p, 4),
        CUBLAS_STATUS_INVALID_VALUE);
    EXPECT_STATUS(
        cublasCgemm3m(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, -2, 2, &one, d.p, 2, d.p, 2, &one, d.p, 2),
        CUBLAS_STATUS_INVALID_VALUE);
    CHECK_CUBLAS(
        cublasCgemm3m(h, CUBLAS_OP_N, CUBLAS_OP_N, 0, 2, 2, &one, d.p, 1, d.p, 2, &one, d.p, 1));
  } else {
    EXPECT_STATUS(
        cublasZgemm3m(h, CUBLAS_OP_T, CUBLAS_OP_N, 4, 2, 3, &one, d.p, 2, d.p, 3, &one, d.p, 4),
        CUBLAS_STATUS_INVALID_VALUE);
    EXPECT_STATUS(cublasZgemm3m(h, (cublasOperation_t)4, CUBLAS_OP_N, 2, 2, 2, &one, d.p, 2, d.p, 2,
                                &one, d.p, 2),
                  CUBLAS_STATUS_INVALID_VALUE);
  }
}

void test_gemm3m_ex_batched(cublasHandle_t h, Random& r) {
  // Cgemm3mEx: C_32F and C_8I inputs.
  for (int int8 = 0; int8 < 2; ++int8)
    for (int use64 = 0; use64 < 2; ++use64) {
      const GemmCase g =
          int8 ? make_gemm<char2>(r, CUBLAS_OP_T, CUBLAS_OP_N, 13, 17, 19, 1, false, true)
               : make_gemm<cuComplex>(r, CUBLAS_OP_N, CUBLAS_OP_C, 13, 17, 19, 2, true);
      const std::vector<cuComplex> cs = gemm_c<cuComplex>(g);
      Dev<char2> da8(store<char2>(g.a, g.lda, cd(0))), db8(store<char2>(g.b, g.ldb, cd(0)));
      Dev<cuComplex> da(store<cuComplex>(g.a, g.lda)), db(store<cuComplex>(g.b, g.ldb)), dc(cs);
      const void* ap = int8 ? (const void*)da8.p : (const void*)da.p;
      const void* bp = int8 ? (const void*)db8.p : (const void*)db.p;
      const cudaDataType t = int8 ? CUDA_C_8I : CUDA_C_32F;
      const cuComplex al = scalar<cuComplex>(g.alpha), be = scalar<cuComplex>(g.beta);
      const cublasStatus_t s =
          use64 ? cublasCgemm3mEx_64(h, g.ta, g.tb, g.m, g.n, g.k, &al, ap, t, g.lda, bp, t, g.ldb,
                                     &be, dc.p, CUDA_C_32F, g.ldc)
                : cublasCgemm3mEx(h, g.ta, g.tb, (int)g.m, (int)g.n, (int)g.k, &al, ap, t,
                                  (int)g.lda, bp, t, (int)g.ldb, &be, dc.p, CUDA_C_32F, (int)g.ldc);
      const std::string what =
          std::string("Cgemm3mEx") + (use64 ? "_64 " : " ") + (int8 ? "C_8I" : "C_32F");
      EXPECT_TRUE(s == CUBLAS_STATUS_SUCCESS, "%s -> %s", what.c_str(), cublasGetStatusName(s));
      EXPECT_OK(what,
                compare<cuComplex>(dc.back(), cs, gemm_expected(g), g.ldc, kAll, false, false));
    }
  {
    Dev<cuComplex> d(std::vector<cuComplex>(16));
    const cuComplex one = make_cuComplex(1, 0);
    EXPECT_STATUS(cublasCgemm3mEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, d.p, CUDA_R_32F, 2,
                                  d.p, CUDA_R_32F, 2, &one, d.p, CUDA_R_32F, 2),
                  CUBLAS_STATUS_NOT_SUPPORTED);
  }
  // Cgemm3mBatched and Cgemm3mStridedBatched (and _64): 3 problems.
  const int batch = 3;
  for (int form = 0; form < 4; ++form) {
    std::vector<GemmCase> gs;
    for (int b = 0; b < batch; ++b)
      gs.push_back(make_gemm<cuComplex>(r, CUBLAS_OP_C, CUBLAS_OP_T, 11, 9, 14, 1, form == 1));
    const int64_t sa = gs[0].lda * gs[0].a.cols + 3, sb = gs[0].ldb * gs[0].b.cols + 5,
                  sc = gs[0].ldc * gs[0].n + 2;
    std::vector<cuComplex> as(sa * batch), bs(sb * batch), cs(sc * batch);
    for (int b = 0; b < batch; ++b) {
      const auto a1 = store<cuComplex>(gs[b].a, gs[b].lda),
                 b1 = store<cuComplex>(gs[b].b, gs[b].ldb);
      const auto c1 = gemm_c<cuComplex>(gs[b]);
      std::copy(a1.begin(), a1.end(), as.begin() + b * sa);
      std::copy(b1.begin(), b1.end(), bs.begin() + b * sb);
      std::copy(c1.begin(), c1.end(), cs.begin() + b * sc);
    }
    Dev<cuComplex> da(as), db(bs), dc(cs);
    const GemmCase& g = gs[0];
    // The scalars of problem 0 for all (the batched forms share alpha and beta).
    for (int b = 1; b < batch; ++b) gs[b].alpha = g.alpha, gs[b].beta = g.beta;
    const cuComplex al = scalar<cuComplex>(g.alpha), be = scalar<cuComplex>(g.beta);
    cublasStatus_t s;
    if (form < 2) {
      std::vector<const cuComplex*> pa, pb;
      std::vector<cuComplex*> pc;
      for (int b = 0; b < batch; ++b)
        pa.push_back(da.p + b * sa), pb.push_back(db.p + b * sb), pc.push_back(dc.p + b * sc);
      Dev<const cuComplex*> dpa(pa), dpb(pb);
      Dev<cuComplex*> dpc(pc);
      s = form == 0
              ? cublasCgemm3mBatched(h, g.ta, g.tb, (int)g.m, (int)g.n, (int)g.k, &al, dpa.p,
                                     (int)g.lda, dpb.p, (int)g.ldb, &be, dpc.p, (int)g.ldc, batch)
              : cublasCgemm3mBatched_64(h, g.ta, g.tb, g.m, g.n, g.k, &al, dpa.p, g.lda, dpb.p,
                                        g.ldb, &be, dpc.p, g.ldc, batch);
      CHECK_CUDA(cudaDeviceSynchronize());
    } else {
      s = form == 2
              ? cublasCgemm3mStridedBatched(h, g.ta, g.tb, (int)g.m, (int)g.n, (int)g.k, &al, da.p,
                                            (int)g.lda, sa, db.p, (int)g.ldb, sb, &be, dc.p,
                                            (int)g.ldc, sc, batch)
              : cublasCgemm3mStridedBatched_64(h, g.ta, g.tb, g.m, g.n, g.k, &al, da.p, g.lda, sa,
                                               db.p, g.ldb, sb, &be, dc.p, g.ldc, sc, batch);
    }
    const char* names[] = {"Cgemm3mBatched", "Cgemm3mBatched_64", "Cgemm3mStridedBatched",
                           "Cgemm3mStridedBatched_64"};
    EXPECT_TRUE(s == CUBLAS_STATUS_SUCCESS, "%s -> %s", names[form], cublasGetStatusName(s));
    const std::vector<cuComplex> out = dc.back();
    for (int b = 0; b < batch; ++b) {
      const std::vector<cuComplex> got(out.begin() + b * sc,
                                       out.begin() + b * sc + gs[b].ldc * gs[b].n);
      const std::vector<cuComplex> before(cs.begin() + b * sc,
                                          cs.begin() + b * sc + gs[b].ldc * gs[b].n);
      EXPECT_OK(
          std::string(names[form]) + " problem " + std::to_string(b),
          compare<cuComplex>(got, before, gemm_expected(gs[b]), gs[b].ldc, kAll, false, false));
    }
  }
}

// Grouped batched GEMM of element type T (S / D / Ex with TA storage for the Ex forms).
template <typename TA, typename I>
void grouped_case(cublasHandle_t h, Random& r, const char* name, int which, cudaDataType type,
                  cublasComputeType_t compute, double u_out, double u_compute) {
  // Three groups: 2 problems N/T, 0 problems, 3 problems C/N of other sizes.
  const cublasOperation_t ta[] = {CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C};
  const cublasOperation_t tb[] = {CUBLAS_OP_T, CUBLAS_OP_N, CUBLAS_OP_N};
  const I sizes[] = {2, 0, 3};
  const int64_t dims[][3] = {{13, 10, 7}, {5, 5, 5}, {9, 17, 12}};
  std::vector<GemmCase> problems;
  std::vector<cublasOperation_t> vta, vtb;
  std::vector<I> vm, vn, vk, vlda, vldb, vldc;
  using S = std::conditional_t<std::is_same_v<TA, double>, double, float>;
  // Integer data in the third group gives exact FP32 / FP64 results.
  constexpr bool kExactGroup = std::is_same_v<TA, float> || std::is_same_v<TA, double>;
  std::vector<S> valpha, vbeta;
  for (int g = 0; g < 3; ++g) {
    GemmCase proto = make_gemm<TA>(r, ta[g], tb[g], dims[g][0], dims[g][1], dims[g][2], g, g == 2,
                                   kExactGroup && g == 2);
    vta.push_back(ta[g]), vtb.push_back(tb[g]);
    vm.push_back(proto.m), vn.push_back(proto.n), vk.push_back(proto.k);
    vlda.push_back(proto.lda), vldb.push_back(proto.ldb), vldc.push_back(proto.ldc);
    proto.alpha = static_cast<S>(proto.alpha.real()),
    proto.beta = static_cast<S>(proto.beta.real());
    valpha.push_back(static_cast<S>(proto.alpha.real())),
        vbeta.push_back(static_cast<S>(proto.beta.real()));
    for (I p = 0; p < sizes[g]; ++p) {
      GemmCase e = make_gemm<TA>(r, ta[g], tb[g], dims[g][0], dims[g][1], dims[g][2], g, g == 2,
                                 kExactGroup && g == 2);
      e.alpha = proto.alpha, e.beta = proto.beta;
      problems.push_back(e);
    }
  }
  std::vector<std::unique_ptr<Dev<TA>>> mats;
  std::vector<const void*> pa, pb;
  std::vector<void*> pc;
  std::vector<std::vector<TA>> before;
  for (const GemmCase& g : problems) {
    mats.emplace_back(new Dev<TA>(store<TA>(g.a, g.lda)));
    pa.push_back(mats.back()->p);
    mats.emplace_back(new Dev<TA>(store<TA>(g.b, g.ldb)));
    pb.push_back(mats.back()->p);
    before.push_back(gemm_c<TA>(g));
    mats.emplace_back(new Dev<TA>(before.back()));
    pc.push_back(mats.back()->p);
  }
  Dev<const void*> dpa(pa), dpb(pb);
  Dev<void*> dpc(pc);
  cublasStatus_t s;
  if constexpr (std::is_same_v<I, int64_t>) {
    if (which == 0) {
      s = cublasSgemmGroupedBatched_64(
          h, vta.data(), vtb.data(), vm.data(), vn.data(), vk.data(), (const float*)valpha.data(),
          (const float* const*)dpa.p, vlda.data(), (const float* const*)dpb.p, vldb.data(),
          (const float*)vbeta.data(), (float* const*)dpc.p, vldc.data(), 3, sizes);
    } else if (which == 1) {
      s = cublasDgemmGroupedBatched_64(
          h, vta.data(), vtb.data(), vm.data(), vn.data(), vk.data(), (const double*)valpha.data(),
          (const double* const*)dpa.p, vlda.data(), (const double* const*)dpb.p, vldb.data(),
          (const double*)vbeta.data(), (double* const*)dpc.p, vldc.data(), 3, sizes);
    } else {
      s = cublasGemmGroupedBatchedEx_64(h, vta.data(), vtb.data(), vm.data(), vn.data(), vk.data(),
                                        valpha.data(), dpa.p, type, vlda.data(), dpb.p, type,
                                        vldb.data(), vbeta.data(), dpc.p, type, vldc.data(), 3,
                                        sizes, compute);
    }
  } else {
    if (which == 0) {
      s = cublasSgemmGroupedBatched(
          h, vta.data(), vtb.data(), vm.data(), vn.data(), vk.data(), (const float*)valpha.data(),
          (const float* const*)dpa.p, vlda.data(), (const float* const*)dpb.p, vldb.data(),
          (const float*)vbeta.data(), (float* const*)dpc.p, vldc.data(), 3, sizes);
    } else if (which == 1) {
      s = cublasDgemmGroupedBatched(
          h, vta.data(), vtb.data(), vm.data(), vn.data(), vk.data(), (const double*)valpha.data(),
          (const double* const*)dpa.p, vlda.data(), (const double* const*)dpb.p, vldb.data(),
          (const double*)vbeta.data(), (double* const*)dpc.p, vldc.data(), 3, sizes);
    } else {
      s = cublasGemmGroupedBatchedEx(h, vta.data(), vtb.data(), vm.data(), vn.data(), vk.data(),
                                     valpha.data(), dpa.p, type, vlda.data(), dpb.p, type,
                                     vldb.data(), vbeta.data(), dpc.p, type, vldc.data(), 3, sizes,
                                     compute);
    }
  }
  EXPECT_TRUE(s == CUBLAS_STATUS_SUCCESS, "%s -> %s", name, cublasGetStatusName(s));
  CHECK_CUDA(cudaDeviceSynchronize());
  for (size_t p = 0; p < problems.size(); ++p) {
    const std::vector<TA> got = mats[3 * p + 2]->back();
    Expected e = gemm_expected(problems[p]);
    // compare's compute unit is its element type's: FP32 for the FP16 / BF16 rows too.
    (void)u_compute;
    const bool exact = kExactGroup && problems[p].m == 9;  // the third group: integer data
    if constexpr (std::is_same_v<TA, float> || std::is_same_v<TA, double>) {
      EXPECT_OK(std::string(name) + " problem " + std::to_string(p),
                compare<TA>(got, before[p], e, problems[p].ldc, kAll, exact, false, u_out));
    } else {
      // FP16 / BF16 storage: compare through float.
      std::vector<float> gf(got.size()), bf(got.size());
      for (size_t i = 0; i < got.size(); ++i) {
        gf[i] = static_cast<float>(get(got[i]).real());
        bf[i] = static_cast<float>(get(before[p][i]).real());
      }
      EXPECT_OK(std::string(name) + " problem " + std::to_string(p),
                compare<float>(gf, bf, e, problems[p].ldc, kAll, exact, false, u_out));
    }
  }
}

void test_grouped(cublasHandle_t h, Random& r) {
  const double f32 = blas_check::kUnitF32, f64 = blas_check::kUnitF64;
  grouped_case<float, int>(h, r, "SgemmGroupedBatched", 0, CUDA_R_32F, CUBLAS_COMPUTE_32F, f32,
                           f32);
  grouped_case<float, int64_t>(h, r, "SgemmGroupedBatched_64", 0, CUDA_R_32F, CUBLAS_COMPUTE_32F,
                               f32, f32);
  grouped_case<double, int>(h, r, "DgemmGroupedBatched", 1, CUDA_R_64F, CUBLAS_COMPUTE_64F, f64,
                            f64);
  grouped_case<double, int64_t>(h, r, "DgemmGroupedBatched_64", 1, CUDA_R_64F, CUBLAS_COMPUTE_64F,
                                f64, f64);
  grouped_case<float, int>(h, r, "GemmGroupedBatchedEx 32F", 2, CUDA_R_32F, CUBLAS_COMPUTE_32F, f32,
                           f32);
  grouped_case<double, int64_t>(h, r, "GemmGroupedBatchedEx_64 64F", 2, CUDA_R_64F,
                                CUBLAS_COMPUTE_64F, f64, f64);
  grouped_case<__half, int>(h, r, "GemmGroupedBatchedEx 16F", 2, CUDA_R_16F, CUBLAS_COMPUTE_32F,
                            blas_check::kUnitF16, f32);
  grouped_case<__nv_bfloat16, int64_t>(h, r, "GemmGroupedBatchedEx_64 16BF", 2, CUDA_R_16BF,
                                       CUBLAS_COMPUTE_32F, blas_check::kUnitBF16, f32);

  // Invalid arguments: checked over all groups before any runs.
  Dev<float> d(std::vector<float>(64, 7.0f));
  std::vector<float*> ptrs{d.p, d.p};
  Dev<float*> dp(ptrs);
  const cublasOperation_t ops[] = {CUBLAS_OP_N, CUBLAS_OP_N};
  const float one[] = {1, 1};
  int m[] = {2, 2}, n[] = {2, 2}, k[] = {2, 2}, ld[] = {2, 2}, size[] = {1, 1};
  const auto call = [&](int groups) {
    return cublasSgemmGroupedBatched(h, ops, ops, m, n, k, one, (const float* const*)dp.p, ld,
                                     (const float* const*)dp.p, ld, one, dp.p, ld, groups, size);
  };
  EXPECT_STATUS(call(-1), CUBLAS_STATUS_INVALID_VALUE);
  size[1] = -1;
  EXPECT_STATUS(call(2), CUBLAS_STATUS_INVALID_VALUE);
  size[1] = 1, ld[1] = 1;
  EXPECT_STATUS(call(2), CUBLAS_STATUS_INVALID_VALUE);
  ld[1] = 2, k[1] = -3;
  EXPECT_STATUS(call(2), CUBLAS_STATUS_INVALID_VALUE);
  k[1] = 2;
  const std::vector<float> untouched = d.back();
  EXPECT_TRUE(untouched[0] == 7.0f, "a rejected grouped call wrote C");
  CHECK_CUBLAS(call(0));
  CHECK_CUBLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE));
  EXPECT_STATUS(call(2), CUBLAS_STATUS_NOT_SUPPORTED);
  CHECK_CUBLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
  const int64_t m64[] = {2}, ld64[] = {2}, size64[] = {1};
  const cublasOperation_t op1[] = {CUBLAS_OP_N};
  EXPECT_STATUS(cublasGemmGroupedBatchedEx_64(
                    h, op1, op1, m64, m64, m64, one, (const void* const*)dp.p, CUDA_R_8I, ld64,
                    (const void* const*)dp.p, CUDA_R_8I, ld64, one, (void* const*)dp.p, CUDA_R_32I,
                    ld64, 1, size64, CUBLAS_COMPUTE_32I),
                CUBLAS_STATUS_NOT_SUPPORTED);
  ++g_cases;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string family = argc > 1 ? argv[1] : "rankk";
  cublasHandle_t h = nullptr;
  CHECK_CUBLAS(cublasCreate(&h));
  Random r(family.size() * 977 + 3);
  if (family == "rankk") {
    test_mutations();
    test_rank_k<float>(h, r);
    test_rank_k<double>(h, r);
    test_rank_k<cuComplex>(h, r);
    test_rank_k<cuDoubleComplex>(h, r);
    test_rank_k_device<float>(h, r);
    test_rank_k_device<cuDoubleComplex>(h, r);
    test_rank_k_ex(h, r);
  } else if (family == "symm") {
    test_symm_trmm<float>(h, r);
    test_symm_trmm<double>(h, r);
    test_symm_trmm<cuComplex>(h, r);
    test_symm_trmm<cuDoubleComplex>(h, r);
    test_symm_trmm_device<double>(h, r);
    test_symm_trmm_device<cuComplex>(h, r);
  } else if (family == "gemm") {
    test_gemm3m<cuComplex>(h, r);
    test_gemm3m<cuDoubleComplex>(h, r);
    test_gemm3m_ex_batched(h, r);
    test_grouped(h, r);
  } else {
    std::printf("FAIL unknown family %s\n", family.c_str());
    return 1;
  }
  CHECK_CUBLAS(cublasDestroy(h));
  std::printf("%d cases\nPASS level3_%s\n", g_cases, family.c_str());
  return 0;
}
