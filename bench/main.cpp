// scheduler_bench entry point. A custom main (instead of BENCHMARK_MAIN) so one
// tbb::global_control caps oneTBB at kThreads for the whole run: the TBB arenas then cannot
// borrow extra threads, and TBB never uses more threads than pullsched has workers.

#include <random>

#include <benchmark/benchmark.h>
#include <oneapi/tbb/global_control.h>

#include "BenchCommon.hpp"

namespace pullsched::bench {

LayeredDag makeLayeredDag(std::size_t layers, std::size_t width, std::uint64_t seed) {
    LayeredDag dag;
    dag.layers = layers;
    dag.width = width;
    dag.predBegin.reserve(layers * width + 1);
    dag.predBegin.push_back(0);
    // mt19937_64 and explicit modulo draws (not std::uniform_int_distribution, whose
    // algorithm is implementation-defined) so the graph is the same with any library.
    std::mt19937_64 rng(seed);
    for (std::size_t layer = 0; layer < layers; ++layer) {
        for (std::size_t k = 0; k < width; ++k) {
            if (layer > 0) {
                const std::size_t count = 1 + rng() % 3;
                const std::size_t first = dag.preds.size();
                while (dag.preds.size() - first < count) {
                    const auto p = static_cast<std::uint32_t>(rng() % width);
                    bool dup = false;
                    for (std::size_t i = first; i < dag.preds.size(); ++i)
                        dup |= dag.preds[i] == p;
                    if (!dup) dag.preds.push_back(p);
                }
            }
            dag.predBegin.push_back(static_cast<std::uint32_t>(dag.preds.size()));
        }
    }
    return dag;
}

const LayeredDag& benchDag() {
    static const LayeredDag dag = makeLayeredDag(kDagLayers, kDagWidth, kDagSeed);
    return dag;
}

}  // namespace pullsched::bench

int main(int argc, char** argv) {
    tbb::global_control tbbThreads(tbb::global_control::max_allowed_parallelism,
                                   pullsched::bench::kThreads);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
