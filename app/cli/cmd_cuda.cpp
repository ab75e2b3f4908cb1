// `parity`: the same prompt greedily on the CPU and on CUDA, step by step; `cuda-check`: every
// CUDA op against its CPU reference. Both run on the GPU machine (no Qt there) from
// scripts/gpu_check.sh, and both exit 1 when a bound is missed.
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "commands.h"
#include "core/error.h"
#include "core/json_writer.h"
#include "cuda/cuda_backend.h"
#include "model/kv_cache.h"
#ifdef DLAB_HAVE_CUDA
#include "cuda/backend_checks.h"
#include "cuda/op_checks.h"
#endif

namespace dlab::cli {

namespace {

struct Diff {
    double maxAbs = 0, nmse = 0;
};
Diff diff(std::span<const float> a, std::span<const float> ref) {
    Diff d;
    double num = 0, den = 0;
    for (size_t i = 0; i < ref.size(); ++i) {
        const double e = double(a[i]) - ref[i];
        num += e * e;
        den += double(ref[i]) * ref[i];
        d.maxAbs = std::max(d.maxAbs, std::fabs(e));
    }
    d.nmse = den > 0 ? num / den : num;
    return d;
}

// The K and V rows of the prompt as the GPU stored them (copied back into its pool) against the
// CPU's exact ones, per layer: the largest |Δ| of a dequantized value. Tells a wrong store (layer 0
// already off) from a wrong read of right rows (rows equal, logits not).
struct KvRowDiff {
    std::vector<double> k, v;   // (nLayer)
};
KvRowDiff kvRowDiff(const KvCache& gpu, const KvCache& cpu, int64_t positions) {
    const KvBlockPool& a = gpu.pool();
    const KvBlockPool& b = cpu.pool();
    const int64_t n = a.kvDim();
    std::vector<float> ra(n), rb(n);
    KvRowDiff d;
    for (int64_t l = 0; l < a.nLayer(); ++l) {
        double mk = 0, mv = 0;
        for (int64_t p = 0; p < positions; ++p)
            for (int value = 0; value < 2; ++value) {
                loadKvRow(a.type(), value ? a.vRow(gpu.sequence(), l, p) : a.kRow(gpu.sequence(), l, p), ra.data(), n);
                loadKvRow(b.type(), value ? b.vRow(cpu.sequence(), l, p) : b.kRow(cpu.sequence(), l, p), rb.data(), n);
                double& m = value ? mv : mk;
                for (int64_t i = 0; i < n; ++i) m = std::max(m, std::fabs(double(ra[i]) - rb[i]));
            }
        d.k.push_back(mk);
        d.v.push_back(mv);
    }
    return d;
}

TokenId argmax(std::span<const float> x) { return static_cast<TokenId>(std::max_element(x.begin(), x.end()) - x.begin()); }

// The best logit minus the second best: how close a step is to a tie.
float margin(std::span<const float> x) {
    float a = -INFINITY, b = -INFINITY;
    for (float v : x) {
        if (v > a) b = a, a = v;
        else if (v > b) b = v;
    }
    return a - b;
}

}  // namespace

int runParity(Args& args) {
    const std::string path = modelPathOption(args);
    const int threads = threadsOption(args);
    const int steps = static_cast<int>(args.integer("--steps", 128, 1, 1 << 16));
    const std::string promptText = args.value("--prompt", "The history of the printing press begins");
    const KvType kvType = parseKvType(args.value("--kv-type", "f16"));
    const double bound = args.number("--bound", 1e-3);
    const bool json = args.flag("--json");
    const bool quiet = args.flag("--quiet");
    // 0: the prompt in one pass (more than 8 tokens take the half-precision GEMM path on the GPU);
    // N: N tokens a pass (8 or fewer: the f32 matvec path), to compare a KV type's own arithmetic.
    const int prefillChunk = static_cast<int>(args.integer("--prefill-chunk", 0, 0, 1 << 16));
    // A mismatch is a near tie when the reference's top-2 margin is at most twice the step's
    // largest logit difference: an error of that size can swap the two. --allow-near-ties passes
    // such steps (the logits must still be within the bound).
    const bool allowNearTies = args.flag("--allow-near-ties");
    args.finish();

    auto model = Model::load(path);
    auto gpu = makeCudaBackend(*model);   // throws with the reason when there is no usable GPU
    // The reference is the CPU's exact mode (f32 weights and activations), so the difference is
    // the GPU's own; the CPU's fast path (activations quantized to 8 bits, as llama.cpp) is shown
    // beside it for scale.
    auto exact = makeCpuBackend(*model, threads, true);
    auto fast = makeCpuBackend(*model, threads);
    // Tokenized as generate does (a BOS only where the model adds one), so the steps are its steps.
    auto prompt = model->tokenizer().encode(promptText, model->tokenizer().addsBosByDefault(), false);
    if (prompt.empty()) throw Error("parity: the prompt gives no tokens");
    const int64_t ctx = static_cast<int64_t>(prompt.size()) + steps + 1;
    KvCache cGpu(model->hparams(), ctx, kvType), cExact(model->hparams(), ctx, kvType), cFast(model->hparams(), ctx, kvType);

    std::vector<float> lg, le;
    JsonWriter j;
    if (json) j.beginObject().field("model", path).field("kv_type", kvTypeName(kvType)).field("prompt_tokens", static_cast<int64_t>(prompt.size()))
                  .field("prefill_chunk", prefillChunk)
                  .field("bound_nmse", bound).key("steps").beginArray();
    else if (!quiet) std::printf("| step | cpu token | cuda token | match | max |Δ| vs exact | NMSE vs exact | NMSE fast vs exact | margin |\n|---|---|---|---|---|---|---|---|\n");
    int matches = 0, nearTies = 0;
    double worstNmse = 0, worstAbs = 0;
    KvRowDiff promptKv;
    std::vector<TokenId> input = prompt;
    // The logits of `tokens` on one backend, prefilled prefillChunk tokens a pass when asked.
    auto run = [&](Backend& b, KvCache& c, const std::vector<TokenId>& tokens) {
        const size_t chunk = prefillChunk > 0 ? static_cast<size_t>(prefillChunk) : tokens.size();
        std::span<const float> out;
        for (size_t i = 0; i < tokens.size(); i += chunk)
            out = b.forward(std::span(tokens).subspan(i, std::min(chunk, tokens.size() - i)), c, false);
        return out;
    };
    for (int s = 0; s < steps; ++s) {
        const auto g = run(*gpu, cGpu, input);
        lg.assign(g.begin(), g.end());
        const auto e = run(*exact, cExact, input);
        le.assign(e.begin(), e.end());
        const auto f = run(*fast, cFast, input);
        const Diff d = diff(lg, le), df = diff(f, le);
        const TokenId tg = argmax(lg), te = argmax(le);
        matches += tg == te;
        // A NaN stays the worst (std::max would drop it): the run then fails and says nan.
        const auto worse = [](double now, double step) { return !std::isnan(now) && (std::isnan(step) || step > now); };
        if (worse(worstNmse, d.nmse)) worstNmse = d.nmse;
        if (worse(worstAbs, d.maxAbs)) worstAbs = d.maxAbs;
        const float m = margin(le);
        const bool nearTie = tg != te && m <= 2 * d.maxAbs;
        nearTies += nearTie;
        if (json)
            j.beginObject().field("step", s).field("cpu", te).field("cuda", tg).field("max_abs", d.maxAbs).field("nmse", d.nmse)
                .field("nmse_fast", df.nmse).field("margin", m).field("near_tie", nearTie).endObject();
        else if (!quiet)
            std::printf("| %d | %d | %d | %s | %.3g | %.3g | %.3g | %.3g |\n", s, te, tg, tg == te ? "yes" : "NO", d.maxAbs, d.nmse, df.nmse, m);
        if (s == 0) {   // the prompt's K/V rows, stored by each side
            promptKv = kvRowDiff(cGpu, cExact, static_cast<int64_t>(prompt.size()));
            const KvRowDiff& kd = promptKv;
            const auto worst = [](const std::vector<double>& v) { return std::max_element(v.begin(), v.end()) - v.begin(); };
            const auto lk = worst(kd.k), lv = worst(kd.v);
            std::fprintf(json ? stderr : stdout, "prompt's KV rows, GPU against the CPU's exact ones: max |Δ| K %.3g (layer %ld; layer 0: %.3g), V %.3g (layer %ld; layer 0: %.3g)\n",
                         kd.k[lk], static_cast<long>(lk), kd.k[0], kd.v[lv], static_cast<long>(lv), kd.v[0]);
        }
        // Both continue with the reference's token, so a near tie does not derail the comparison.
        input.assign(1, te);
    }
    const bool ok = (matches == steps || (allowNearTies && matches + nearTies == steps)) && worstNmse <= bound;
    if (json) {
        j.endArray().key("kv_rows_max_abs_k").beginArray();
        for (double x : promptKv.k) j.value(x);
        j.endArray().key("kv_rows_max_abs_v").beginArray();
        for (double x : promptKv.v) j.value(x);
        j.endArray().field("tokens_identical", matches).field("steps_run", steps).field("worst_nmse", worstNmse).field("worst_max_abs", worstAbs)
            .field("mismatches_at_near_ties", nearTies).field("pass", ok).endObject();
        std::printf("%s\n", j.str().c_str());
    }
    std::string ties;
    if (matches < steps)
        ties = "; " + std::to_string(nearTies) + " of the " + std::to_string(steps - matches) +
               " others at near ties (top-2 margin <= 2 max |Δ| of that step)" + (allowNearTies ? ", allowed" : "");
    std::fprintf(json ? stderr : stdout, "parity: %d of %d greedy tokens identical%s; worst NMSE %.3g (bound %.3g), worst max |Δ| %.3g: %s\n",
                 matches, steps, ties.c_str(), worstNmse, bound, worstAbs, ok ? "pass" : "FAIL");
    return ok ? 0 : 1;
}

int runCudaCheck(Args& args) {
    const bool json = args.flag("--json");
    const std::string only = args.value("--only", "");
    args.finish();
    if (!only.empty() && only != "ops" && only != "backend")
        throw Error("cuda-check: --only takes ops or backend (got '" + only + "')");
#ifdef DLAB_HAVE_CUDA
    std::string device;
    if (const std::string reason = cudaUnavailableReason(0, &device); !reason.empty()) throw Error("cannot run the CUDA op checks: " + reason);
    std::FILE* text = json ? stderr : stdout;
    std::fprintf(text, "device: %s\n\n", device.c_str());
    int failed = 0;
    JsonWriter j;
    if (json) j.beginObject().field("device", device);
    if (only != "backend") {
        const auto checks = cuda::runOpChecks();
        int opsFailed = 0;
        if (json) j.key("ops").beginArray();
        else std::printf("| op | case | NMSE | bound | max |Δ| | mismatches | result |\n|---|---|---|---|---|---|---|\n");
        for (const auto& c : checks) {
            opsFailed += !c.pass;
            if (json)
                j.beginObject().field("op", c.op).field("case", c.variant).field("nmse", c.nmse).field("bound", c.bound).field("max_abs", c.maxAbs)
                    .field("mismatches", static_cast<int64_t>(c.mismatches)).field("pass", c.pass).field("error", c.error).endObject();
            else
                std::printf("| %s | %s | %.3g | %.3g | %.3g | %ld | %s%s |\n", c.op.c_str(), c.variant.c_str(), c.nmse, c.bound, c.maxAbs,
                            c.mismatches, c.pass ? "pass" : "FAIL", c.error.empty() ? "" : (": " + c.error).c_str());
        }
        if (json) j.endArray();
        std::fprintf(text, "cuda-check: %zu checks, %d failed\n", checks.size(), opsFailed);
        failed += opsFailed;
    }
    if (only != "ops") {
        // The backend's behaviour on the device (cuda/backend_checks.h), a check at a time as it ends.
        if (!json) std::printf("%s| backend check | result | seconds |\n|---|---|---|\n", only.empty() ? "\n" : "");
        if (json) j.key("backend").beginArray();
        int backendFailed = 0;
        const auto names = cuda::backendCheckNames();
        for (const std::string& name : names) {
            const cuda::BackendCheckResult r = cuda::runBackendCheck(name);
            backendFailed += !r.pass;
            if (json)
                j.beginObject().field("check", r.name).field("pass", r.pass).field("detail", r.detail).field("seconds", r.seconds).endObject();
            else
                std::printf("| %s | %s%s | %.1f |\n", r.name.c_str(), r.pass ? "pass" : "FAIL: ", r.detail.c_str(), r.seconds);
            std::fflush(stdout);
        }
        if (json) j.endArray();
        std::fprintf(text, "cuda-check: %zu backend checks, %d failed\n", names.size(), backendFailed);
        failed += backendFailed;
    }
    if (json) std::printf("%s\n", j.endObject().str().c_str());
    return failed ? 1 : 0;
#else
    (void)json;
    throw Error("cuda-check: " + cudaUnavailableReason());
#endif
}

}  // namespace dlab::cli
