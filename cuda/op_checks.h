#pragma once
// Every CUDA op against its CPU reference (llama.cpp's test-backend-ops idea): random inputs, the
// op on the device, the engine's own CPU code on the host, and the normalised mean squared error
// NMSE = Σ(gpu - cpu)² / Σ cpu² under a bound stated per op. Run by tests/test_cuda_ops.cpp
// (which skips without a GPU) and by `decoding-lab-cli cuda-check` on the GPU machine, which has
// no Qt.
#include <string>
#include <vector>

namespace dlab::cuda {

struct OpCheck {
    std::string op;        // "matvec"
    std::string variant;   // "Q4_K T=5 bias+accumulate"
    double nmse = 0.0;
    double maxAbs = 0.0;
    double bound = 0.0;    // pass when nmse <= bound (and, for exact ops, mismatches == 0)
    long mismatches = 0;   // exact comparisons (bytes, ids): entries that differ
    bool pass = false;
    std::string error;     // the exception's message when the op threw
};

// Runs all checks on device 0; throws dlab::Error when no GPU is usable.
std::vector<OpCheck> runOpChecks();

}  // namespace dlab::cuda
