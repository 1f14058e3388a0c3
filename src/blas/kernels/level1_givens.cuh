// Givens rotations of Level-1 BLAS, shared by the host and the kernels: rotg and rotmg
// run on the host under CUBLAS_POINTER_MODE_HOST and in a one-thread kernel under
// CUBLAS_POINTER_MODE_DEVICE (level1.cuh), with the same code. The algorithms are the
// reference BLAS ones (srotg / crotg / srotmg).
#pragma once

#include <cuComplex.h>
#include <math.h>

namespace strata_blas {

__host__ __device__ inline float sqrt_(float v) { return sqrtf(v); }
__host__ __device__ inline double sqrt_(double v) { return sqrt(v); }
__host__ __device__ inline float abs_(float v) { return fabsf(v); }
__host__ __device__ inline double abs_(double v) { return fabs(v); }
__host__ __device__ inline float abs_(cuComplex v) { return cuCabsf(v); }
__host__ __device__ inline double abs_(cuDoubleComplex v) { return cuCabs(v); }

// Real rotg: on return a = r, b = z (the reconstruction value), c and s the rotation
// with [c s; -s c] [a; b] = [r; 0].
template <typename R>
__host__ __device__ void rotg_real(R* a, R* b, R* c, R* s) {
  const R sa = *a, sb = *b;
  const R roe = abs_(sa) > abs_(sb) ? sa : sb;
  const R scale = abs_(sa) + abs_(sb);
  if (scale == R(0)) {
    *c = R(1);
    *s = R(0);
    *a = R(0);
    *b = R(0);
    return;
  }
  const R qa = sa / scale, qb = sb / scale;
  R r = scale * sqrt_(qa * qa + qb * qb);
  if (roe < R(0)) r = -r;
  const R cc = sa / r, ss = sb / r;
  R z = R(1);
  if (abs_(sa) > abs_(sb)) z = ss;
  if (abs_(sb) >= abs_(sa) && cc != R(0)) z = R(1) / cc;
  *c = cc;
  *s = ss;
  *a = r;
  *b = z;
}

// Complex rotg: a = r, b unchanged, c real, s complex.
template <typename C, typename R>
__host__ __device__ C make(R re, R im) {
  C v;
  v.x = re;
  v.y = im;
  return v;
}

template <typename C, typename R>
__host__ __device__ void rotg_complex(C* a, const C* b, R* c, C* s) {
  const C ca = *a, cb = *b;
  const R abs_a = abs_(ca);
  if (abs_a == R(0)) {
    *c = R(0);
    *s = make<C>(R(1), R(0));
    *a = cb;
    return;
  }
  const R abs_b = abs_(cb);
  const R scale = abs_a + abs_b;
  const R qa = abs_a / scale, qb = abs_b / scale;
  const R norm = scale * sqrt_(qa * qa + qb * qb);
  const C alpha = make<C>(ca.x / abs_a, ca.y / abs_a);
  *c = abs_a / norm;
  // s = alpha * conj(b) / norm
  const R sr = alpha.x * cb.x + alpha.y * cb.y, si = alpha.y * cb.x - alpha.x * cb.y;
  *s = make<C>(sr / norm, si / norm);
  *a = make<C>(alpha.x * norm, alpha.y * norm);
}

__host__ __device__ inline void rotg(float* a, float* b, float* c, float* s) {
  rotg_real(a, b, c, s);
}
__host__ __device__ inline void rotg(double* a, double* b, double* c, double* s) {
  rotg_real(a, b, c, s);
}
__host__ __device__ inline void rotg(cuComplex* a, cuComplex* b, float* c, cuComplex* s) {
  rotg_complex(a, b, c, s);
}
__host__ __device__ inline void rotg(cuDoubleComplex* a, cuDoubleComplex* b, double* c,
                                     cuDoubleComplex* s) {
  rotg_complex(a, b, c, s);
}

// rotmg: the modified Givens transformation H that zeroes the second component of
// (sqrt(d1) x1, sqrt(d2) y1); param = {flag, h11, h21, h12, h22} (flag -1: full H, 0: unit
// diagonal, 1: h12 = 1, h21 = -1, -2: identity). d1, d2 and x1 are updated.
template <typename R>
__host__ __device__ void rotmg(R* d1_p, R* d2_p, R* x1_p, const R* y1_p, R* param) {
  const R gam = R(4096), gamsq = R(16777216), rgamsq = R(5.9604645e-8);
  R d1 = *d1_p, d2 = *d2_p, x1 = *x1_p;
  const R y1 = *y1_p;
  R flag, h11 = R(0), h12 = R(0), h21 = R(0), h22 = R(0);
  if (d1 < R(0)) {
    flag = R(-1);
    d1 = d2 = x1 = R(0);
  } else {
    const R p2 = d2 * y1;
    if (p2 == R(0)) {
      param[0] = R(-2);
      return;
    }
    const R p1 = d1 * x1;
    const R q2 = p2 * y1;
    const R q1 = p1 * x1;
    if (abs_(q1) > abs_(q2)) {
      h21 = -y1 / x1;
      h12 = p2 / p1;
      const R u = R(1) - h12 * h21;
      if (u > R(0)) {
        flag = R(0);
        d1 /= u;
        d2 /= u;
        x1 *= u;
      } else {
        flag = R(-1);
        h11 = h12 = h21 = h22 = R(0);
        d1 = d2 = x1 = R(0);
      }
    } else if (q2 < R(0)) {
      flag = R(-1);
      h11 = h12 = h21 = h22 = R(0);
      d1 = d2 = x1 = R(0);
    } else {
      flag = R(1);
      h11 = p1 / p2;
      h22 = x1 / y1;
      const R u = R(1) + h11 * h22;
      const R temp = d2 / u;
      d2 = d1 / u;
      d1 = temp;
      x1 = y1 * u;
    }
    // Rescale d1 and d2 into [rgamsq, gamsq], turning H into its full form.
    auto make_full = [&]() {
      if (flag == R(0)) {
        h11 = R(1);
        h22 = R(1);
      } else if (flag > R(0)) {
        h21 = R(-1);
        h12 = R(1);
      }
      flag = R(-1);
    };
    if (d1 != R(0)) {
      while (d1 <= rgamsq || d1 >= gamsq) {
        make_full();
        if (d1 <= rgamsq) {
          d1 *= gam * gam;
          x1 /= gam;
          h11 /= gam;
          h12 /= gam;
        } else {
          d1 /= gam * gam;
          x1 *= gam;
          h11 *= gam;
          h12 *= gam;
        }
      }
    }
    if (d2 != R(0)) {
      while (abs_(d2) <= rgamsq || abs_(d2) >= gamsq) {
        make_full();
        if (abs_(d2) <= rgamsq) {
          d2 *= gam * gam;
          h21 /= gam;
          h22 /= gam;
        } else {
          d2 /= gam * gam;
          h21 *= gam;
          h22 *= gam;
        }
      }
    }
  }
  if (flag < R(0)) {
    param[1] = h11;
    param[2] = h21;
    param[3] = h12;
    param[4] = h22;
  } else if (flag == R(0)) {
    param[2] = h21;
    param[3] = h12;
  } else {
    param[1] = h11;
    param[4] = h22;
  }
  param[0] = flag;
  *d1_p = d1;
  *d2_p = d2;
  *x1_p = x1;
}

}  // namespace strata_blas
