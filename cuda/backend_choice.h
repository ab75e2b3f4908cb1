#pragma once
// Which backend runs: --backend auto|cpu|cuda on the CLI, Settings -> Backend in the app.
// auto takes the GPU when one is usable and otherwise the CPU, saying why in one line; cuda
// insists and fails with the reason; cpu never touches the GPU.
#include <memory>
#include <string>

#include "cuda/cuda_backend.h"
#include "model/backend.h"

namespace dlab {

enum class BackendKind { Auto, Cpu, Cuda };

const char* backendKindName(BackendKind k);            // "auto" | "cpu" | "cuda"
// Throws dlab::Error naming the choices for anything else.
BackendKind parseBackendKind(const std::string& text);

struct BackendChoice {
    std::unique_ptr<Backend> backend;
    std::string notice;   // auto fell back to the CPU: "using the CPU: " + fallback.reason ("" otherwise)
    GpuCheck fallback;    // why (the app words its problem in the user's language); problem None otherwise
};

// The backend for `model`: threads is the CPU backend's thread count. Throws dlab::Error for
// Cuda when the GPU cannot be used (the sentence says why), never for Auto.
BackendChoice makeBackend(const Model& model, BackendKind kind, int threads);

// The DLAB_BACKEND environment variable (auto | cpu | cuda), or Auto when it is unset; throws like
// parseBackendKind for another value.
BackendKind backendKindFromEnvironment();

}  // namespace dlab
