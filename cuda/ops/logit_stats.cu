// Logit statistics: kernel -> launcher. One block of 1024 threads per row. Each thread keeps its
// own sorted top-N over a strided slice (the row's top-N is always inside the union of these), and
// N rounds of a block-wide arg-max over the threads' current heads merge them.
#include "cuda/ops/common.cuh"
#include "cuda/ops/logit_stats.h"

namespace dlab::cuda {

namespace {
constexpr int kThreads = 1024;

__device__ __forceinline__ bool better(float a, int ia, float b, int ib) { return a > b || (a == b && ia < ib); }

__global__ void __launch_bounds__(kThreads) logitStatsKernel(const float* logits, int n, int topN, LogitStatsOut out) {
    const int r = blockIdx.x;
    const float* x = logits + static_cast<size_t>(r) * n;
    float mx = -INFINITY;
    for (int i = threadIdx.x; i < n; i += kThreads) mx = fmaxf(mx, x[i]);
    mx = blockMax(mx);
    float s = 0.0f, sx = 0.0f;
    for (int i = threadIdx.x; i < n; i += kThreads) {
        if (x[i] == -INFINITY) continue;
        const float e = expf(x[i] - mx);
        s += e;
        sx += e * (x[i] - mx);
    }
    s = blockSum(s);
    sx = blockSum(sx);
    if (threadIdx.x == 0) {
        const float lse = mx + logf(s);
        out.stats[r * 3 + 0] = mx;
        out.stats[r * 3 + 1] = lse;
        out.stats[r * 3 + 2] = logf(s) - sx / s;   // H = lse - E[x] = log s - E[x - max]
    }
    if (topN <= 0) return;

    float v[kMaxTopN];
    int id[kMaxTopN];
    int have = 0;
    for (int i = threadIdx.x; i < n; i += kThreads) {
        const float xi = x[i];
        if (have == topN && !better(xi, i, v[topN - 1], id[topN - 1])) continue;
        int j = have < topN ? have++ : topN - 1;
        while (j > 0 && better(xi, i, v[j - 1], id[j - 1])) {
            v[j] = v[j - 1];
            id[j] = id[j - 1];
            --j;
        }
        v[j] = xi;
        id[j] = i;
    }
    __shared__ float bv[32];
    __shared__ int bi[32], bt[32];
    __shared__ int winner;
    int head = 0;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    for (int k = 0; k < topN; ++k) {
        float cv = head < have ? v[head] : -INFINITY;
        int ci = head < have ? id[head] : 0x7fffffff, ct = threadIdx.x;
        for (int o = 16; o > 0; o >>= 1) {
            const float ov = __shfl_xor_sync(kFullMask, cv, o);
            const int oi = __shfl_xor_sync(kFullMask, ci, o), ot = __shfl_xor_sync(kFullMask, ct, o);
            if (better(ov, oi, cv, ci)) cv = ov, ci = oi, ct = ot;
        }
        if (lane == 0) bv[warp] = cv, bi[warp] = ci, bt[warp] = ct;
        __syncthreads();
        if (warp == 0) {
            cv = bv[lane], ci = bi[lane], ct = bt[lane];
            for (int o = 16; o > 0; o >>= 1) {
                const float ov = __shfl_xor_sync(kFullMask, cv, o);
                const int oi = __shfl_xor_sync(kFullMask, ci, o), ot = __shfl_xor_sync(kFullMask, ct, o);
                if (better(ov, oi, cv, ci)) cv = ov, ci = oi, ct = ot;
            }
            if (lane == 0) {
                winner = ci == 0x7fffffff ? -1 : ct;
                out.topIds[r * topN + k] = ci == 0x7fffffff ? -1 : ci;
                out.topLogits[r * topN + k] = cv;
            }
        }
        __syncthreads();
        if (threadIdx.x == winner) ++head;
        __syncthreads();
    }
}
}  // namespace

void logitStatsLaunch(const float* logits, int R, int nVocab, int topN, const LogitStatsOut& out, cudaStream_t stream) {
    if (R > 0) logitStatsKernel<<<R, kThreads, 0, stream>>>(logits, nVocab, topN > kMaxTopN ? kMaxTopN : topN, out);
}

}  // namespace dlab::cuda
