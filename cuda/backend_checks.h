#pragma once
// The CUDA backend's behaviour around the device, beyond the per-op checks (op_checks.h): graphs
// replayed with new metadata, batched sequences equal to each decoded alone, the paged KV cache
// mirrored on the device (copy-on-write forks in every KV type, rows the CPU wrote, eviction's
// moves), attention weights and logit statistics computed there, cancellation. Each check runs
// tiny random-weight models on device 0 against the CPU's exact mode or against itself.
//
// Qt-free, so the same checks run in tests/test_cuda_backend.cpp (on the emulator in CI, on a GPU
// where there is one) and as `decoding-lab-cli cuda-check` on the GPU machine, which has no Qt.
#include <functional>
#include <string>
#include <vector>

#include "model/backend.h"
#include "model/model.h"

namespace dlab::cuda {

struct BackendCheckResult {
    std::string name;      // "forks copy on write, q8_0 KV"
    bool pass = false;
    std::string detail;    // what differed (the first failure), or the error's message
    double seconds = 0.0;
};

// Every check's name, in the order runBackendChecks runs them.
std::vector<std::string> backendCheckNames();

// One check by name (throws dlab::Error for a name that is not one); a failed expectation or an
// exception from the backend gives pass = false with its sentence in detail. beforeSteps, when
// set, is called where a check's prompts are in and its counted decode steps begin (the emulated
// test counts the graph captures and replays from there).
BackendCheckResult runBackendCheck(const std::string& name, const std::function<void()>& beforeSteps = {});

std::vector<BackendCheckResult> runBackendChecks();

// The model most checks run: a tiny llama (Q4_1 weights, 2 layers of 128, heads of 32 values
// so a q8_0 cache fits, 4 query heads sharing 2 KV heads), written and loaded once a process.
const Model& checkModel();

// The token ids the checks feed (n ids below 300, varied by salt): tests that drive the backend
// themselves use the same prompts.
std::vector<TokenId> checkPrompt(int n, int salt);

}  // namespace dlab::cuda
