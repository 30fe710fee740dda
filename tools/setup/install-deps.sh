#!/usr/bin/env bash
# Installs the Debian packages pullsched needs, and only those that are missing.
# Idempotent: a machine that has everything is left untouched (no apt-get update).
set -euo pipefail

packages=(
  g++ cmake make                      # toolchain; g++ brings libgomp (the rig's openmp backend)
  libboost-dev                        # Boost.Lockfree: the scheduler's entrance and ready queues;
                                      # Boost.Asio: the rig's asio backend
  libboost-program-options-dev        # stressrig command line
  libgtest-dev libgmock-dev           # unit and regression tests
  libbenchmark-dev                    # bench/scheduler_bench
  libtbb-dev                          # oneTBB flow graph: scheduler_bench and the rig's tbb backend
  libfmt-dev                          # formatting of tables, CSV and reports
  nlohmann-json3-dev                  # --json output, Chrome trace export
  graphviz                            # renders the .dot graphs (optional at run time)
  gnuplot-nox                         # renders the .gp reports (optional at run time)
  chromium                            # headless browser for the HTML report test (skipped without it)
)
# Sanitizer runtimes for .ci/run (g++ needs these to link -fsanitize=...).
packages+=(libtsan2 libasan8 libubsan1)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "pullsched setup: installing ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "pullsched setup: need root to install: ${missing[*]}" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
