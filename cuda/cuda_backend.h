#pragma once
// The CUDA backend: the engine's forward pass on an NVIDIA GPU behind the same Backend interface
// (the session, sampler chain and views do not know which backend runs). Weights are uploaded
// once; decode runs dequantizing matvecs captured in CUDA graphs, prefill and larger batches
// cuBLAS GEMMs on half copies; the paged KV cache is mirrored on the device (cuda/device_kv.h).
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "core/error.h"
#include "model/backend.h"

namespace dlab {

struct CudaOptions {
    int device = 0;
    bool graphs = true;   // capture decode passes in CUDA graphs (DLAB_CUDA_GRAPHS=0 turns it off)
    // Launch the matvecs and attention as programmatic dependent launches (cuda/ops/pdl.cuh):
    // each may start (a matvec loading its weights) while the kernel before it still runs. 1 on,
    // 0 off, -1 as DLAB_CUDA_PDL says (set to anything but 0: on; unset or 0: off).
    int dependentLaunches = -1;
    // Attention splits a context longer than this many slots into ranges (cuda/ops/attention.h):
    // -1 the default (kAttentionSplitFrom), 0 never. DLAB_CUDA_ATTENTION_SPLIT_FROM=N overrides it.
    int attentionSplitFrom = -1;
    // Decode passes (every token the last of its sequence) store the new K/V rows in the attention
    // kernel instead of a KV store kernel of their own (cuda/ops/attention.h): one kernel less per
    // layer, the same bits. 1 on, 0 off, -1 as DLAB_CUDA_FOLD_STORE says (0: off; else on).
    int foldKvStore = -1;
    // Passes of at least this many tokens project through cuBLAS on half copies of the weights;
    // shorter ones through the dequantizing matvec, 8 tokens a launch. 0: the default (9, the
    // matvec's most tokens + 1); DLAB_CUDA_GEMM_FROM=N otherwise. gpu_check times both paths.
    int gemmFrom = 0;
};

// Throws dlab::Error saying why the GPU cannot be used (no driver, no device, a driver too old,
// a device this build has no code for, out of memory, a weight type the kernels cannot read).
std::unique_ptr<Backend> makeCudaBackend(const Model& model, const CudaOptions& options = {});

// Why the GPU cannot be used, as a kind: the app words each one in the user's language, the CLI
// prints the sentence (GpuCheck::reason).
enum class GpuProblem {
    None,          // usable
    NotBuilt,      // this build has no CUDA backend
    NoDriver,      // no NVIDIA driver installed
    OldDriver,     // the driver's CUDA version is older than the runtime needs (detail: "12.4")
    NoGpu,         // no NVIDIA GPU visible
    GpuTooOld,     // compute capability below 7.5 (gpu: its name, detail: "7.0")
    NoCodeForGpu,  // the build carries no code the GPU can run (gpu, detail: its capability)
    OutOfMemory,   // too little free GPU memory for the model (bytesNeeded, bytesFree)
    Other,         // anything else: the CUDA runtime's own words (reason)
};

struct GpuCheck {
    GpuProblem problem = GpuProblem::None;
    std::string reason;        // one English sentence, "" when usable
    std::string gpu;           // the device's name, where the problem is the device's
    std::string detail;        // OldDriver: the driver's CUDA version; GpuTooOld, NoCodeForGpu: the capability
    uint64_t bytesNeeded = 0;  // OutOfMemory: the allocation that failed
    uint64_t bytesFree = 0;    // OutOfMemory: GPU memory free then (0 when the runtime could not tell)
};

// Whether device can run this build's kernels, and if not, why. description, when not null,
// receives "NVIDIA H200 (sm_90, 139.8 GiB, driver 13.0)" for a usable device.
GpuCheck checkGpu(int device = 0, std::string* description = nullptr);

// checkGpu's sentence: "" when the device can run this build's kernels.
std::string cudaUnavailableReason(int device = 0, std::string* description = nullptr);

// The GPU cannot be used, or ran out of memory (DeviceBuffer): the sentence, and the check an app
// words in the user's language. makeBackend's automatic choice falls back to the CPU with it.
class GpuError : public Error {
public:
    explicit GpuError(GpuCheck c, const std::string& message = {}) : Error(message.empty() ? c.reason : message), check(std::move(c)) {}
    GpuCheck check;
};

// Whether this build has the CUDA backend at all (configured with DLAB_CUDA and a toolkit).
bool cudaBuiltIn();

}  // namespace dlab
