#!/usr/bin/env bash
# Installs the Debian packages Strata's build and tests need. Idempotent; does nothing
# when everything is present. Needs root (or sudo) only when something is missing.
set -euo pipefail

packages=(
  cmake ninja-build g++ pkg-config python3 file binutils
  libzstd-dev liblz4-dev libfmt-dev libgtest-dev libgmock-dev
  libtomlplusplus-dev nlohmann-json3-dev libcli11-dev libsqlite3-dev libbenchmark-dev
  clang-format
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "strata: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
