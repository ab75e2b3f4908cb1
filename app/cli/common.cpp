#include <filesystem>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

#include <unistd.h>

#include "commands.h"
#include "core/error.h"
#include "model/kv_memory.h"
#include "model/model_locator.h"

namespace dlab::cli {

std::string modelPathOption(Args& args) { return resolveModelPath(args.value("--model", "")); }

int threadsOption(Args& args) {
    const int hw = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    return static_cast<int>(args.integer("--threads", std::min(hw, 8), 1, 256));
}

BackendOption backendOption(Args& args) {
    BackendOption b;
    if (const auto v = args.value("--backend")) {
        b.kind = parseBackendKind(*v);
        b.given = true;
    } else if (const char* env = std::getenv("DLAB_BACKEND"); env && *env) {
        b.kind = backendKindFromEnvironment();
        b.given = true;
    }
    return b;
}

std::string runsOn(const Backend& backend) {
    if (backend.name() == "cpu") return std::to_string(backend.threads()) + (backend.threads() == 1 ? " thread" : " threads");
    return std::string(backend.name());
}

std::unique_ptr<Backend> openBackend(const Model& model, const BackendOption& backend, int threads, bool exact) {
    if (exact) {
        if (backend.kind == BackendKind::Cuda)
            throw Error("exact matmul is the CPU's reference mode; drop --backend cuda or the exact option");
        return makeCpuBackend(model, threads, true);
    }
    BackendChoice c = makeBackend(model, backend.kind, threads);
    const bool noDriver = c.notice.find("no NVIDIA driver") != std::string::npos || c.notice.find("no NVIDIA GPU") != std::string::npos;
    if (!c.notice.empty() && (backend.given || !noDriver)) std::fprintf(stderr, "%s\n", c.notice.c_str());
    return std::move(c.backend);
}

std::string readTextFile(const std::string& path) {
    // On Linux a directory opens as a stream that reads as empty: it would pass for an empty text.
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) throw Error(path + " is a directory, not a text file");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(path + ": cannot open the file");
    std::ostringstream ss;
    ss << in.rdbuf();
    if (in.bad()) throw Error(path + ": cannot read the file");
    return ss.str();
}

std::vector<long long> integerList(const std::string& text, const std::string& option, const std::string& what,
                                   const std::string& one, long long min, long long max) {
    std::vector<long long> out;
    std::stringstream ss(text);
    for (std::string item; std::getline(ss, item, ',');) {
        try {
            size_t used = 0;
            const long long v = std::stoll(item, &used);
            if (used != item.size() || v < min || v > max) throw std::invalid_argument(item);
            out.push_back(v);
        } catch (const std::exception&) {
            throw Error(option + " takes " + what + " between " + std::to_string(min) + " and " + std::to_string(max) +
                        " separated by commas; '" + item + "' is not one");
        }
    }
    if (out.empty()) throw Error(option + " needs at least one " + one);
    return out;
}

void checkKvFitsMemory(const std::string& command, const HParams& hp, int64_t nCtx, KvType type) {
    const double memory = physicalMemoryBytes();
    if (memory <= 0) return;  // unknown: let the allocation decide
    const double needed = double(kvCacheBytes(kvShapeOf(hp, "the model"), nCtx, type));
    if (needed <= memory) return;
    char text[320];
    std::snprintf(text, sizeof text,
                  "%s: --ctx %lld needs %.1f GiB of KV cache (%s) but this machine has %.1f GiB of memory; use a smaller "
                  "--ctx (the model was trained for %lld positions)",
                  command.c_str(), (long long)nCtx, needed / (1 << 30), kvTypeName(type), memory / (1 << 30), (long long)hp.nCtxTrain);
    throw Error(text);
}

void checkPromptFitsContext(const std::string& command, size_t promptTokens, int64_t nCtx, bool ctxGiven, int64_t newTokens) {
    const int64_t needed = static_cast<int64_t>(promptTokens) + newTokens;
    if (needed <= nCtx) return;
    const std::string what = ctxGiven ? "--ctx " + std::to_string(nCtx) : "the default context (" + std::to_string(nCtx) + " positions)";
    throw Error(command + ": " + what + " is too small for the prompt (" + std::to_string(promptTokens) + " tokens) and " +
                std::to_string(newTokens) + (newTokens == 1 ? " new token" : " new tokens") + "; use --ctx " +
                std::to_string(needed) + " or more, " + (newTokens > 1 ? "a shorter prompt or a smaller --max-tokens" : "or a shorter prompt"));
}

}  // namespace dlab::cli
