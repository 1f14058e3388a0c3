#!/usr/bin/env bash
# README command 2 (and CI): builds Strata and runs the whole test suite with ctest,
# then builds the simulator and runtime with ThreadSanitizer and runs the tests
# labelled "tsan" there. Exits non-zero on any failure.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${STRATA_BUILD_DIR:-$top/build}
jobs=${STRATA_JOBS:-$(nproc)}

"$top/scripts/build.sh"
# Fresh JIT caches for every run (each test also gets its own directory).
rm -rf "$build/test-cache"
(cd "$build" && ctest --output-on-failure -j "$jobs" --timeout 600)

if [ "${STRATA_SKIP_TSAN:-0}" != "1" ]; then
  # The tests labelled "tsan" (STRATA_TSAN_TESTS in cmake/strata.cmake) are target names;
  # only those targets are built. No nvcc-built programs: they are not instrumented.
  tsan="$build-tsan"
  cmake -S "$top" -B "$tsan" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSTRATA_TSAN=ON \
    -DSTRATA_BUILD_CUDA_TESTS=OFF >/dev/null
  targets=$(cd "$tsan" && ctest -N -L tsan | sed -n 's/^ *Test *#[0-9]*: *//p')
  if [ -z "$targets" ]; then
    echo "strata: no tests labelled tsan in $tsan" >&2
    exit 1
  fi
  # shellcheck disable=SC2086
  cmake --build "$tsan" -j "$jobs" --target $targets
  rm -rf "$tsan/test-cache"
  (cd "$tsan" && TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ${TSAN_OPTIONS:-}" \
    ctest --output-on-failure -j "$jobs" -L tsan --timeout 900)
fi
