// Times one re-run of the sampler chain on cached logits (what the GUI does when a slider moves),
// with a snapshot after every stage, for the default model's vocabulary (49,152) and Qwen2's (152,064).
// One thread. Target: under 2 ms and 5 ms for the default chain.
//
//   bench_sampler [--reps 200]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "sampling/sampler_chain.h"

using namespace dlab;

namespace {

// Logits shaped like a language model's: a broad normal body and a few strong candidates.
std::vector<float> fakeLogits(size_t n, uint32_t seed) {
    std::mt19937 gen(seed);
    std::normal_distribution<float> body(-2.0f, 2.5f);
    std::vector<float> l(n);
    for (auto& x : l) x = body(gen);
    std::uniform_int_distribution<size_t> pick(0, n - 1);
    for (int i = 0; i < 20; ++i) l[pick(gen)] = 12.0f + 0.3f * float(i);
    return l;
}

struct Case {
    const char* name;
    SamplerParams params;
};

}  // namespace

int main(int argc, char** argv) {
    int reps = 200;
    for (int i = 1; i + 1 < argc; ++i)
        if (!std::strcmp(argv[i], "--reps")) reps = std::atoi(argv[i + 1]);

    std::vector<Case> cases;
    cases.push_back({"hf default (T 0.8, top-k 40, top-p 0.95)", SamplerParams{}});
    {
        SamplerParams p;
        p.repeatPenalty = 1.1f;
        p.frequencyPenalty = 0.2f;
        p.presencePenalty = 0.2f;
        p.minP = 0.05f;
        cases.push_back({"hf + penalties + min-p", p});
    }
    {
        SamplerParams p;
        p.order = "llama.cpp";
        p.minP = 0.05f;
        p.dryMultiplier = 0.8f;
        p.xtcProbability = 0.5f;
        p.typicalP = 0.95f;
        cases.push_back({"llama.cpp (dry, top-k 40, typical, xtc)", p});
    }
    {
        SamplerParams p;
        p.topK = 0;
        cases.push_back({"hf, top-k off (top-p on the full vocabulary)", p});
    }

    std::vector<TokenId> history;
    std::mt19937 gen(3);
    for (int i = 0; i < 256; ++i) history.push_back(TokenId(gen() % 40000));

    std::printf("%-48s %8s %10s %10s %10s\n", "chain", "vocab", "median ms", "p90 ms", "no-snap ms");
    for (size_t vocab : {size_t(49152), size_t(152064)}) {
        const auto logits = fakeLogits(vocab, 7);
        for (const auto& c : cases) {
            SamplerChain chain(c.params, 64);
            auto time = [&](bool snapshots) {
                std::vector<double> ms;
                for (int r = 0; r < reps; ++r) {
                    SamplerState st{static_cast<uint64_t>(r)};
                    const auto t0 = std::chrono::steady_clock::now();
                    volatile TokenId t = chain.sample(logits, History{history, 128}, st, snapshots).token;
                    (void)t;
                    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
                }
                std::sort(ms.begin(), ms.end());
                return std::pair{ms[ms.size() / 2], ms[ms.size() * 9 / 10]};
            };
            const auto [med, p90] = time(true);
            const auto [medNo, p90No] = time(false);
            (void)p90No;
            std::printf("%-48s %8zu %10.3f %10.3f %10.3f\n", c.name, vocab, med, p90, medNo);
        }
    }
    return 0;
}
