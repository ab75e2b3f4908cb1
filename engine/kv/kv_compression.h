#pragma once
// The compression lesson, measured: the same greedy text with the KV cache stored as f32, f16 or
// q8_0. The f32 run picks the tokens; every other type is teacher-forced on them, so each step
// compares two next-token distributions over the same context:
//   KL(p_f32 || p_type) in nats, and whether the most likely token is the same.
#include <atomic>
#include <functional>
#include <vector>

#include "kv/kv_run.h"

namespace dlab {

struct KvTypeComparison {
    KvType type = KvType::F32;
    int64_t bytesPerPosition = 0;    // K and V of one position, all layers
    int64_t bytesInUse = 0;          // the run's pool at its end
    std::vector<double> kl;          // per step (0 = the prompt's prediction); all 0 for f32
    double meanKl = 0.0, maxKl = 0.0;
    double top1Agreement = 1.0;      // fraction of steps whose argmax equals f32's
    double msPerStep = 0.0;          // mean decode forward pass
};

// types in any order (f32 is always run first as the reference and reported too). Throws like
// runKvExplorer; a raised cancel flag returns what was finished. progress(done, total) per run.
std::vector<KvTypeComparison> compareKvTypes(const Model& model, Backend& backend, const std::vector<TokenId>& prompt, int steps,
                                             const std::vector<KvType>& types, const std::atomic<bool>* cancel = nullptr,
                                             const std::function<void(int, int)>& progress = {});

}  // namespace dlab
