#pragma once
// One function per subcommand of decoding-lab-cli; each returns the process exit code and throws
// dlab::Error for bad input (main turns it into one line on stderr and exit code 1).
#include <memory>
#include <string>
#include <vector>

#include "args.h"
#include "cuda/backend_choice.h"
#include "model/kv_type.h"
#include "model/model.h"

namespace dlab::cli {

int runInfo(Args& args);
int runTokenize(Args& args);
int runDetokenize(Args& args);
int runGenerate(Args& args);
int runBench(Args& args);
int runPerplexity(Args& args);
int runParity(Args& args);      // cmd_cuda.cpp
int runCudaCheck(Args& args);

// Shared option handling.
std::string modelPathOption(Args& args);                 // --model, env, default
int threadsOption(Args& args);                           // --threads (default: hardware threads, at most 8)
// --backend auto|cpu|cuda (default: DLAB_BACKEND, else auto).
struct BackendOption {
    BackendKind kind = BackendKind::Auto;
    bool given = false;   // on the command line or in DLAB_BACKEND, not the default
};
BackendOption backendOption(Args& args);
// The backend for the command. Auto falling back to the CPU prints its one-line reason on stderr
// when auto was asked for, or when a GPU stack is there but unusable (a CPU-only machine with no
// NVIDIA driver stays quiet by default). exact: the CPU's exact-matmul reference mode, which
// --backend cuda refuses.
std::unique_ptr<Backend> openBackend(const Model& model, const BackendOption& backend, int threads, bool exact = false);
// What a run's summary line says it ran on: "2 threads" on the CPU, "cuda" on the GPU.
std::string runsOn(const Backend& backend);
std::string readTextFile(const std::string& path);       // throws naming the file
// "64,256,1024" for option --at: whole numbers in [min, max]; throws "--at takes positions
// between 1 and 1048576 separated by commas; 'x' is not one" (what = "positions"), or
// "--at needs at least one position" (one = "position") for none.
std::vector<long long> integerList(const std::string& text, const std::string& option, const std::string& what,
                                   const std::string& one, long long min, long long max);
// Before any model work: throws unless `promptTokens` plus `newTokens` fit `nCtx` positions, with
// the numbers and the --ctx that would do (ctxGiven: nCtx came from --ctx, not the default).
// Before the KV cache is allocated: throws when `nCtx` positions of K and V would not fit in this
// machine's memory (--ctx 16777216 on a 135M model asks for 360 GiB and used to end in the OOM killer).
void checkKvFitsMemory(const std::string& command, const HParams& hp, int64_t nCtx, KvType type);
void checkPromptFitsContext(const std::string& command, size_t promptTokens, int64_t nCtx, bool ctxGiven, int64_t newTokens);

}  // namespace dlab::cli
