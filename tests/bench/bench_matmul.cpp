// Times matmul() on the default model's shapes (SmolLM2-135M: Q4_1 projections, Q8_0 output)
// for decode (nTok = 1; a few for batched decode) and prefill (nTok = 512) with 1 and 2 threads, and prints GFLOP/s and
// GB/s of weights read. Decode streams over enough copies of each matrix to miss the caches, as
// a real decode step does; prefill reuses one copy.
//
//   bench_matmul [--threads 1,2] [--tokens 1,512] [--types Q4_1,Q8_0,...] [--path avx512|avx2|scalar]
//                [--seconds 0.3] [--hot]
// --hot: decode reuses one copy of each matrix (cache-resident: measures the kernel, not DRAM).
// Without --types it runs the model's own (type, shape) list and adds up a model step.
#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/thread_pool.h"
#include "gguf/ggml_type.h"
#include "quant/kernel_path.h"
#include "quant/matmul.h"
#include "quant/quantize.h"

using namespace dlab;

namespace {

struct Shape {
    const char* name;
    GgmlType type;
    int64_t rows, cols;
    int perLayer;  // how often a model step uses it (30 layers), 0 = once
};

// SmolLM2-135M: 30 layers, hidden 576, 9 query / 3 KV heads of 64, MLP 1536, vocabulary 49152.
const std::vector<Shape> kModelShapes = {
    {"attn_q/o 576x576", GgmlType::Q4_1, 576, 576, 2},     {"attn_k/v 192x576", GgmlType::Q4_1, 192, 576, 2},
    {"ffn_gate/up 1536x576", GgmlType::Q4_1, 1536, 576, 2}, {"ffn_down 576x1536", GgmlType::Q4_1, 576, 1536, 1},
    {"output 49152x576", GgmlType::Q8_0, 49152, 576, 0},
};
constexpr int kLayers = 30;

std::vector<std::string> split(const std::string& s) {
    std::vector<std::string> out;
    size_t p = 0;
    while (p <= s.size()) {
        const size_t q = s.find(',', p);
        out.push_back(s.substr(p, q == std::string::npos ? std::string::npos : q - p));
        if (q == std::string::npos) break;
        p = q + 1;
    }
    return out;
}

GgmlType typeByName(const std::string& name) {
    for (uint32_t id = 0; id < 40; ++id)
        if (auto t = ggmlTypeTraits(id); t && name == t->name) return static_cast<GgmlType>(id);
    throw Error("unknown type " + name);
}

struct Result {
    double secondsPerCall;
    double cpuSecondsPerCall;  // process CPU time (all threads): shows a busy machine
    double gflops, gbps;
};

double processCpuSeconds() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

Result run(const Shape& s, int64_t nTok, ThreadPool& pool, double minSeconds, bool hot) {
    const size_t rowBytes = ggmlRowBytes(s.type, s.cols), bytes = rowBytes * s.rows;
    // Decode (up to 16 tokens: batched decode steps): enough copies to stream ~160 MB (more than
    // most L3s); prefill: one copy.
    const size_t copies = nTok <= 16 && !hot ? std::max<size_t>(1, (160u << 20) / bytes) : 1;
    std::vector<uint8_t> w(bytes * copies);
    {
        std::mt19937 rng(1);
        std::normal_distribution<float> dist(0.0f, 0.05f);
        std::vector<float> row(s.cols);
        for (int64_t r = 0; r < s.rows; ++r) {
            for (auto& v : row) v = dist(rng);
            quantize(s.type, row.data(), w.data() + r * rowBytes, s.cols);
        }
        for (size_t c = 1; c < copies; ++c) std::memcpy(w.data() + c * bytes, w.data(), bytes);
    }
    std::vector<float> x(nTok * s.cols), y(nTok * s.rows);
    std::mt19937 rng(2);
    std::normal_distribution<float> dist(0.0f, 1.0f);
    for (auto& v : x) v = dist(rng);

    auto call = [&](size_t c) {
        const WeightMatrix m{s.type, s.rows, s.cols, w.data() + c * bytes, rowBytes};
        matmul(m, x.data(), nTok, y.data(), pool);
    };
    for (size_t c = 0; c < std::min<size_t>(copies, 4); ++c) call(c);  // warm up
    using clock = std::chrono::steady_clock;
    int64_t calls = 0;
    const auto t0 = clock::now();
    const double cpu0 = processCpuSeconds();
    double elapsed = 0;
    do {
        call(static_cast<size_t>(calls) % copies);
        ++calls;
        elapsed = std::chrono::duration<double>(clock::now() - t0).count();
    } while (elapsed < minSeconds || calls < 3);
    const double per = elapsed / static_cast<double>(calls);
    const double cpuPer = (processCpuSeconds() - cpu0) / static_cast<double>(calls);
    return {per, cpuPer, 2.0 * s.rows * s.cols * nTok / per * 1e-9, bytes / per * 1e-9};
}

}  // namespace

int main(int argc, char** argv) {
    try {
        std::vector<int> threads = {1, 2};
        std::vector<int64_t> tokens = {1, 512};
        std::vector<Shape> shapes = kModelShapes;
        bool modelShapes = true;
        double seconds = 0.3;
        bool hot = false;
        for (int i = 1; i < argc; ++i) {
            const std::string a = argv[i];
            const std::string v = i + 1 < argc ? argv[i + 1] : "";
            if (a == "--threads") {
                threads.clear();
                for (const auto& s : split(v)) threads.push_back(std::stoi(s));
                ++i;
            } else if (a == "--tokens") {
                tokens.clear();
                for (const auto& s : split(v)) tokens.push_back(std::stoll(s));
                ++i;
            } else if (a == "--seconds") seconds = std::stod(v), ++i;
            else if (a == "--hot") hot = true;
            else if (a == "--path") {
                KernelPath p = KernelPath::Auto;
                for (KernelPath c : {KernelPath::Scalar, KernelPath::Avx2, KernelPath::Avx512})
                    if (v == kernelPathName(c)) p = c;
                setKernelPathForTesting(p);
                ++i;
            } else if (a == "--types") {
                shapes.clear();
                modelShapes = false;
                for (const auto& name : split(v)) {
                    const GgmlType t = typeByName(name);
                    const int64_t c = ggmlTypeTraits(t).blockSize == 256 ? 512 : 576;
                    shapes.push_back({"c x c", t, c, c, 0});
                    shapes.push_back({"4c x c", t, 4 * c, c, 0});
                    shapes.push_back({"c x 4c", t, c, 4 * c, 0});
                }
                ++i;
            } else {
                std::fprintf(stderr, "usage: %s [--threads 1,2] [--tokens 1,512] [--types Q4_1,...] [--path P] [--seconds S] [--hot]\n", argv[0]);
                return 2;
            }
        }
        std::printf("kernel path: %s\n", kernelPathName(activeKernelPath()));
        std::printf("%-22s %-5s %5s %3s %10s %10s %9s %9s\n", "shape", "type", "nTok", "thr", "us/call", "cpu us", "GFLOP/s", "GB/s(w)");
        for (int nth : threads) {
            ThreadPool pool(nth);
            for (int64_t nTok : tokens) {
                double modelSeconds = 0;
                for (const Shape& s : shapes) {
                    const Result r = run(s, nTok, pool, seconds, hot);
                    std::printf("%-22s %-5s %5lld %3d %10.1f %10.1f %9.1f %9.2f\n", modelShapes ? s.name : (std::to_string(s.rows) + "x" + std::to_string(s.cols)).c_str(),
                                ggmlTypeName(s.type).c_str(), static_cast<long long>(nTok), nth, r.secondsPerCall * 1e6, r.cpuSecondsPerCall * 1e6, r.gflops, r.gbps);
                    modelSeconds += r.secondsPerCall * (s.perLayer ? s.perLayer * kLayers : 1);
                }
                if (modelShapes)
                    std::printf("  -> model step (all matmuls, %lld tokens, %d threads): %.2f ms = %.1f tokens/s\n",
                                static_cast<long long>(nTok), nth, modelSeconds * 1e3, nTok / modelSeconds);
            }
        }
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_matmul: %s\n", e.what());
        return 1;
    }
}
