# pullsched — the two commands a fresh machine needs are `make demo` and `make test`.
# Both install missing Debian packages first (tools/setup/install-deps.sh, idempotent).

BUILD_DIR  ?= build
BUILD_TYPE ?= Release
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
OUT        ?= out
CMAKE_ARGS ?=

# No "Entering directory" lines from the makes CMake runs under this one (MAKEFLAGS is
# passed down to them), so the logs keep CMake's progress and the rig's own lines.
MAKEFLAGS += --no-print-directory

.PHONY: all setup configure build test unit regression stress demo trace report reference peers bench format clean

all: build

setup:
	@bash tools/setup/install-deps.sh

$(BUILD_DIR)/CMakeCache.txt: | setup
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) $(CMAKE_ARGS)

configure: setup
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) $(CMAKE_ARGS)

build: setup $(BUILD_DIR)/CMakeCache.txt
	cmake --build $(BUILD_DIR) -j $(JOBS)

# Everything but the long `stress` label.
test: build
	ctest --test-dir $(BUILD_DIR) -LE stress --output-on-failure -j $(JOBS) --timeout 600

unit: build
	ctest --test-dir $(BUILD_DIR) -L unit --output-on-failure -j $(JOBS)

regression: build
	ctest --test-dir $(BUILD_DIR) -L regression --output-on-failure -j $(JOBS)

stress: build
	ctest --test-dir $(BUILD_DIR) -L stress --output-on-failure --timeout 3600

# Builds only the rig; exits 0 whenever the measurement was made (a busy machine's
# misses are results), non-zero for a correctness failure or bad input. DEMO_ARGS are
# rig options that replace the demo's defaults (tools/demo.sh), e.g. --workers=8.
DEMO_ARGS ?=
demo: setup $(BUILD_DIR)/CMakeCache.txt
	cmake --build $(BUILD_DIR) -j $(JOBS) --target stressrig
	@bash tools/demo.sh $(BUILD_DIR) $(OUT) $(DEMO_ARGS)

# The scheduler's trace dump of a rig run: a build with trace points in its own directory,
# then `stressrig --mode=run ARGS --trace-dump --trace-json`; results in OUT/latest/
# (docs/trace-dump.md).
TRACE_DIR ?= build-trace
ARGS      ?= --pattern=burst --workers=2
trace: setup
	cmake -S . -B $(TRACE_DIR) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DPULLSCHED_TRACE=ON \
	      -DPULLSCHED_BUILD_BENCH=OFF $(CMAKE_ARGS) >/dev/null
	cmake --build $(TRACE_DIR) -j $(JOBS) --target stressrig
	$(TRACE_DIR)/bin/stressrig --mode=run $(ARGS) --trace-dump --trace-json --out=$(OUT)

# Only gnuplot and dot are needed: nothing is built. Every run's folder and other
# sub-folders (OUT/reference, ...) too.
report:
	@bash tools/plot/render-all.sh $(OUT)

# The five published load-peak series regenerated with --mode=param-range, ours beside the
# published figures (data/reference/), one picture each; results in OUT/reference.
# REFERENCE_QUICK=1 for 8 points per series instead of 40 (tools/plot/reference-series.sh).
reference: setup $(BUILD_DIR)/CMakeCache.txt
	cmake --build $(BUILD_DIR) -j $(JOBS) --target stressrig
	@bash tools/plot/reference-series.sh --build=$(BUILD_DIR) --out=$(OUT)/reference

# pullsched beside oneTBB, OpenMP, Boost.Asio and a plain pool on the same graphs: dispatch
# overhead, efficiency at 1/10/100 µs, METG, load-peak concurrency, work that jobs create
# (fibonacci, skynet); OUT/peers/compared-with.md
# (tools/bench/peers.sh; PEERS_QUICK=1 for a quick check of the pipeline).
peers: setup $(BUILD_DIR)/CMakeCache.txt
	cmake --build $(BUILD_DIR) -j $(JOBS) --target stressrig
	STRESSRIG=$(BUILD_DIR)/bin/stressrig bash tools/bench/peers.sh $(OUT)/peers

bench: build
	$(BUILD_DIR)/bin/scheduler_bench

format:
	clang-format -i $$(git ls-files '*.hpp' '*.cpp')

clean:
	rm -rf $(BUILD_DIR) build-tsan build-asan build-trace
