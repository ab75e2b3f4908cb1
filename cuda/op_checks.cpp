// The per-op checks: each builds random inputs, runs the op's launcher on a stream, and compares
// with the engine's CPU code. Bounds (NMSE): f32 arithmetic that differs from the CPU only in
// summation order and libm ulps gets 1e-9 (observed errors are ~1e-13; a wrong index or a wrong
// scale gives ~1); the half-precision GEMM gets 1e-5 (both operands rounded to 11-bit mantissas,
// 2^-11 ≈ 4.9e-4 relative each, so ~5e-7 expected); conversions that must be exact are compared
// bit for bit (mismatches == 0).
#include "cuda/op_checks.h"

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <random>

#include "core/error.h"
#include "core/thread_pool.h"
#include "cpu/attention.h"
#include "cpu/ops.h"
#include "cuda/cuda_backend.h"
#include "cuda/cublas_loader.h"
#include "cuda/cuda_check.h"
#include "cuda/device_buffer.h"
#include "cuda/device_handles.h"
#include "cuda/device_kv.h"
#include "cuda/ops/activations.h"
#include "cuda/ops/attention.h"
#include "cuda/ops/dequant_half.h"
#include "cuda/ops/embedding.h"
#include "cuda/ops/kv_store.h"
#include "cuda/ops/logit_stats.h"
#include "cuda/ops/matvec.h"
#include "cuda/ops/norm.h"
#include "cuda/ops/rope.h"
#include "cuda/ops/softmax.h"
#include "model/logit_stats.h"
#include "quant/fp16.h"
#include "quant/matmul.h"
#include "quant/quantize.h"

namespace dlab::cuda {

namespace {

constexpr double kF32Bound = 1e-9;
constexpr double kHalfGemmBound = 1e-5;
// Rows stored in f16 / q8_0 after a rotation computed on each side: a last-bit difference in the
// rotation may round a value to the neighbouring step (NMSE ~1e-8 a flip); a row not rotated, or
// rotated by half its threads, is off by O(1).
constexpr double kStoredRowBound = 1e-6;

struct Rng {
    std::mt19937 gen{20261204};
    std::vector<float> normal(size_t n, float scale = 1.0f) {
        std::normal_distribution<float> d(0.0f, scale);
        std::vector<float> v(n);
        for (auto& x : v) x = d(gen);
        return v;
    }
};

template <class T>
DeviceBuffer upload(const std::vector<T>& v, cudaStream_t s) {
    DeviceBuffer b(v.size() * sizeof(T), "a check's input");
    DLAB_CUDA_CHECK(cudaMemcpyAsync(b.as(), v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice, s));
    return b;
}
template <class T>
std::vector<T> download(const DeviceBuffer& b, size_t n, cudaStream_t s) {
    std::vector<T> v(n);
    DLAB_CUDA_CHECK(cudaMemcpyAsync(v.data(), b.as(), n * sizeof(T), cudaMemcpyDeviceToHost, s));
    DLAB_CUDA_CHECK(cudaStreamSynchronize(s));
    return v;
}

OpCheck named(const std::string& op, const std::string& variant) {
    OpCheck c;
    c.op = op;
    c.variant = variant;
    return c;
}

OpCheck compare(const std::string& op, const std::string& variant, const std::vector<float>& gpu, const std::vector<double>& cpu,
                double bound) {
    OpCheck c = named(op, variant);
    double num = 0, den = 0;
    for (size_t i = 0; i < cpu.size(); ++i) {
        const double d = double(gpu[i]) - cpu[i];
        num += d * d;
        den += cpu[i] * cpu[i];
        c.maxAbs = std::max(c.maxAbs, std::fabs(d));
        if (!std::isfinite(gpu[i])) c.maxAbs = INFINITY;
    }
    c.nmse = den > 0 ? num / den : num;
    c.bound = bound;
    c.pass = std::isfinite(c.maxAbs) && c.nmse <= bound && gpu.size() == cpu.size();
    return c;
}
std::vector<double> toDouble(const std::vector<float>& v) { return {v.begin(), v.end()}; }

OpCheck exact(const std::string& op, const std::string& variant, long mismatches) {
    OpCheck c = named(op, variant);
    c.mismatches = mismatches;
    c.pass = mismatches == 0;
    return c;
}

const GgmlType kTypes[] = {GgmlType::F32, GgmlType::F16, GgmlType::BF16, GgmlType::Q4_0, GgmlType::Q4_1,
                           GgmlType::Q8_0, GgmlType::Q4_K, GgmlType::Q5_K, GgmlType::Q6_K};

// A (rows, cols) matrix of `type` from random floats, and its dequantized values (the reference).
struct HostMatrix {
    std::vector<uint8_t> bytes;
    std::vector<float> values;
    size_t rowBytes;
};
HostMatrix makeMatrix(GgmlType type, int rows, int cols, Rng& rng) {
    HostMatrix m;
    m.rowBytes = ggmlRowBytes(type, cols);
    m.bytes.resize(m.rowBytes * rows);
    m.values.resize(size_t(rows) * cols);
    const auto src = rng.normal(size_t(rows) * cols, 0.05f);
    for (int r = 0; r < rows; ++r) {
        uint8_t* dst = m.bytes.data() + r * m.rowBytes;
        const float* s = src.data() + size_t(r) * cols;
        if (type == GgmlType::F32) std::memcpy(dst, s, cols * 4);
        else if (type == GgmlType::F16 || type == GgmlType::BF16)
            for (int i = 0; i < cols; ++i) {
                const uint16_t h = type == GgmlType::F16 ? fp32ToFp16(s[i]) : fp32ToBf16(s[i]);
                std::memcpy(dst + 2 * i, &h, 2);
            }
        else quantize(type, s, dst, cols);
        dequantize(type, dst, m.values.data() + size_t(r) * cols, cols);
    }
    return m;
}

void checkNorms(std::vector<OpCheck>& out, cudaStream_t s, Rng& rng) {
    const int R = 7, n = 576;
    const auto x = rng.normal(size_t(R) * n, 2.0f), w = rng.normal(n), b = rng.normal(n);
    auto dx = upload(x, s), dw = upload(w, s), db = upload(b, s);
    DeviceBuffer dout(size_t(R) * n * 4, "a check's output");
    std::vector<float> ref(size_t(R) * n);
    rmsnormLaunch(dx.as<float>(), nullptr, dw.as<float>(), dout.as<float>(), nullptr, R, n, 1e-5f, s);
    DLAB_CUDA_CHECK_LAUNCH();
    for (int r = 0; r < R; ++r) ops::rmsnorm(ref.data() + r * n, x.data() + r * n, w.data(), n, 1e-5f);
    out.push_back(compare("rmsnorm", "7 x 576", download<float>(dout, ref.size(), s), toDouble(ref), kF32Bound));
    layernormLaunch(dx.as<float>(), nullptr, dw.as<float>(), db.as<float>(), dout.as<float>(), nullptr, R, n, 1e-5f, s);
    DLAB_CUDA_CHECK_LAUNCH();
    for (int r = 0; r < R; ++r) ops::layernorm(ref.data() + r * n, x.data() + r * n, w.data(), b.data(), n, 1e-5f);
    out.push_back(compare("layernorm", "7 x 576", download<float>(dout, ref.size(), s), toDouble(ref), kF32Bound));
}

void checkRope(std::vector<OpCheck>& out, cudaStream_t s, Rng& rng) {
    for (bool neox : {false, true}) {
        const int T = 5, nHead = 9, nHeadKv = 3, D = 64, half = D / 2;
        auto q = rng.normal(size_t(T) * nHead * D), k = rng.normal(size_t(T) * nHeadKv * D);
        std::vector<float> c(size_t(T) * half), sn(size_t(T) * half);
        const ops::RopeParams p{D, 100000.0f, 1.0f, nullptr, neox};
        for (int t = 0; t < T; ++t) ops::ropeCache(c.data() + t * half, sn.data() + t * half, 40 + t * 13, p);
        auto dq = upload(q, s), dk = upload(k, s), dc = upload(c, s), ds = upload(sn, s);
        ropeLaunch({dq.as<float>(), dk.as<float>(), nHead * D, nHeadKv * D, nHead, nHeadKv, D, D, neox, dc.as<float>(), ds.as<float>()}, T, s);
        DLAB_CUDA_CHECK_LAUNCH();
        for (int t = 0; t < T; ++t) {
            ops::ropeApply(q.data() + t * nHead * D, nHead, D, c.data() + t * half, sn.data() + t * half, p);
            ops::ropeApply(k.data() + t * nHeadKv * D, nHeadKv, D, c.data() + t * half, sn.data() + t * half, p);
        }
        auto gq = download<float>(dq, q.size(), s), gk = download<float>(dk, k.size(), s);
        gq.insert(gq.end(), gk.begin(), gk.end());
        q.insert(q.end(), k.begin(), k.end());
        out.push_back(compare("rope", neox ? "neox 9/3 heads x 64" : "normal 9/3 heads x 64", gq, toDouble(q), kF32Bound));
    }
}

void checkActivations(std::vector<OpCheck>& out, cudaStream_t s, Rng& rng) {
    const int n = 4096;
    auto a = rng.normal(n, 3.0f), b = rng.normal(n);
    auto da = upload(a, s), db = upload(b, s);
    siluMulLaunch(da.as<float>(), db.as<float>(), n, s);
    DLAB_CUDA_CHECK_LAUNCH();
    auto ref = a;
    ops::siluMul(ref.data(), b.data(), n);
    out.push_back(compare("swiglu", "4096", download<float>(da, n, s), toDouble(ref), kF32Bound));
    auto dg = upload(a, s);
    geluLaunch(dg.as<float>(), n, s);
    DLAB_CUDA_CHECK_LAUNCH();
    ref = a;
    ops::gelu(ref.data(), n);
    out.push_back(compare("gelu", "4096", download<float>(dg, n, s), toDouble(ref), kF32Bound));

    const int rows = 3, cols = 1000;
    auto x = rng.normal(size_t(rows) * cols, 4.0f);
    x[5] = -INFINITY;
    auto dx = upload(x, s);
    softmaxRowsLaunch(dx.as<float>(), rows, cols, s);
    DLAB_CUDA_CHECK_LAUNCH();
    for (int r = 0; r < rows; ++r) ops::softmax(x.data() + r * cols, cols);
    out.push_back(compare("softmax", "3 x 1000 with -inf", download<float>(dx, x.size(), s), toDouble(x), kF32Bound));
}

// Every type at 1 and 5 tokens, 201 rows (the last block part-filled) of 512 columns (two warps a
// row); F32, Q4_1 and Q8_0 also at 256 (a warp a row) and 1280 (four warps a row).
void checkMatvec(std::vector<OpCheck>& out, cudaStream_t s, Rng& rng) {
    const int rows = 201;
    for (GgmlType type : kTypes)
        for (int cols : {256, 512, 1280}) {
            for (int T : {1, 5}) {
                const bool wide = type == GgmlType::F32 || type == GgmlType::Q4_1 || type == GgmlType::Q8_0;
                if (cols != 512 && !wide) continue;
                const HostMatrix m = makeMatrix(type, rows, cols, rng), up = makeMatrix(type, rows, cols, rng);
                const auto x = rng.normal(size_t(T) * cols), bias = rng.normal(rows), y0 = rng.normal(size_t(T) * rows);
                auto dw = upload(m.bytes, s), du = upload(up.bytes, s), dx = upload(x, s), db = upload(bias, s), dy = upload(y0, s);
                MatvecArgs a;
                a.type = type;
                a.out[0] = {dw.as(), m.rowBytes, rows, db.as<float>(), dy.as<float>(), rows};
                a.x = dx.as<float>();
                a.ldx = cols;
                a.cols = cols;
                a.T = T;
                a.accumulate = true;
                matvecLaunch(a, s);
                DLAB_CUDA_CHECK_LAUNCH();
                std::vector<double> ref(size_t(T) * rows), refGated(size_t(T) * rows);
                for (int t = 0; t < T; ++t)
                    for (int r = 0; r < rows; ++r) {
                        double d = 0, u = 0;
                        for (int i = 0; i < cols; ++i) {
                            d += double(m.values[size_t(r) * cols + i]) * x[size_t(t) * cols + i];
                            u += double(up.values[size_t(r) * cols + i]) * x[size_t(t) * cols + i];
                        }
                        ref[size_t(t) * rows + r] = y0[size_t(t) * rows + r] + d + bias[r];
                        refGated[size_t(t) * rows + r] = d / (1.0 + std::exp(-d)) * u;
                    }
                const std::string v = ggmlTypeName(type) + " " + std::to_string(rows) + "x" + std::to_string(cols) + " T=" + std::to_string(T);
                out.push_back(compare("matvec", v + " bias+accumulate", download<float>(dy, ref.size(), s), ref, kF32Bound));

                MatvecArgs g;
                g.type = type;
                g.out[0] = {dw.as(), m.rowBytes, rows, nullptr, dy.as<float>(), rows};
                g.up = du.as();
                g.x = dx.as<float>();
                g.ldx = cols;
                g.cols = cols;
                g.T = T;
                matvecLaunch(g, s);
                DLAB_CUDA_CHECK_LAUNCH();
                out.push_back(compare("matvec", v + " gated (SwiGLU)", download<float>(dy, ref.size(), s), refGated, kF32Bound));
            }
        }
}

// The matvec with the RMSNorm folded in (decode's q/k/v and gate/up): y = W · (x / rms(x) * g),
// plain with a bias and gated, against the normalisation and product in double.
void checkMatvecFoldedNorm(std::vector<OpCheck>& out, cudaStream_t s, Rng& rng) {
    const int rows = 201, cols = 576;
    const float eps = 1e-5f;
    for (GgmlType type : {GgmlType::F32, GgmlType::Q4_1, GgmlType::Q8_0})
        for (int T : {1, 5}) {
            const HostMatrix m = makeMatrix(type, rows, cols, rng), up = makeMatrix(type, rows, cols, rng);
            const auto x = rng.normal(size_t(T) * cols, 2.0f), g = rng.normal(cols), bias = rng.normal(rows);
            auto dw = upload(m.bytes, s), du = upload(up.bytes, s), dx = upload(x, s), dg = upload(g, s), db = upload(bias, s);
            DeviceBuffer dy(size_t(T) * rows * 4, "a check's output");
            std::vector<double> ref(size_t(T) * rows), refGated(size_t(T) * rows);
            for (int t = 0; t < T; ++t) {
                double ss = 0;
                for (int i = 0; i < cols; ++i) ss += double(x[size_t(t) * cols + i]) * x[size_t(t) * cols + i];
                const double r = 1.0 / std::sqrt(ss / cols + eps);
                for (int row = 0; row < rows; ++row) {
                    double d = 0, u = 0;
                    for (int i = 0; i < cols; ++i) {
                        const double xn = x[size_t(t) * cols + i] * r * g[i];
                        d += double(m.values[size_t(row) * cols + i]) * xn;
                        u += double(up.values[size_t(row) * cols + i]) * xn;
                    }
                    ref[size_t(t) * rows + row] = d + bias[row];
                    refGated[size_t(t) * rows + row] = d / (1.0 + std::exp(-d)) * u;
                }
            }
            const std::string v = ggmlTypeName(type) + " " + std::to_string(rows) + "x" + std::to_string(cols) + " T=" + std::to_string(T);
            for (bool gated : {false, true}) {
                MatvecArgs a;
                a.type = type;
                a.out[0] = {dw.as(), m.rowBytes, rows, gated ? nullptr : db.as<float>(), dy.as<float>(), rows};
                a.up = gated ? du.as() : nullptr;
                a.x = dx.as<float>();
                a.ldx = cols;
                a.cols = cols;
                a.T = T;
                a.rmsWeight = dg.as<float>();
                a.rmsEps = eps;
                matvecLaunch(a, s);
                DLAB_CUDA_CHECK_LAUNCH();
                out.push_back(compare("matvec", v + (gated ? " gated, RMSNorm folded in" : " bias, RMSNorm folded in"),
                                      download<float>(dy, ref.size(), s), gated ? refGated : ref, kF32Bound));
            }
        }
}

void checkDequantAndEmbedding(std::vector<OpCheck>& out, cudaStream_t s, Rng& rng) {
    const int rows = 20, cols = 512;
    for (GgmlType type : kTypes) {
        const HostMatrix m = makeMatrix(type, rows, cols, rng);
        auto dw = upload(m.bytes, s);
        DeviceBuffer dh(size_t(rows) * cols * 2, "a check's output");
        dequantToHalfLaunch(type, dw.as(), m.rowBytes, rows, cols, dh.as<uint16_t>(), s);
        DLAB_CUDA_CHECK_LAUNCH();
        const auto h = download<uint16_t>(dh, size_t(rows) * cols, s);
        long bad = 0;
        for (size_t i = 0; i < h.size(); ++i) bad += h[i] != fp32ToFp16(m.values[i]);
        out.push_back(exact("dequant-half", ggmlTypeName(type), bad));

        const std::vector<int32_t> tokens{3, 0, 19, 7};
        auto dt = upload(tokens, s);
        DeviceBuffer de(tokens.size() * cols * 4, "a check's output");
        EmbeddingArgs e;
        e.table = dw.as();
        e.type = type;
        e.rowBytes = m.rowBytes;
        e.tokens = dt.as<int32_t>();
        e.out = de.as<float>();
        e.n = cols;
        embeddingLaunch(e, static_cast<int>(tokens.size()), s);
        DLAB_CUDA_CHECK_LAUNCH();
        const auto g = download<float>(de, tokens.size() * cols, s);
        bad = 0;
        for (size_t t = 0; t < tokens.size(); ++t)
            for (int i = 0; i < cols; ++i) bad += g[t * cols + i] != m.values[size_t(tokens[t]) * cols + i];
        out.push_back(exact("embedding", ggmlTypeName(type), bad));
    }
}

void checkGemm(std::vector<OpCheck>& out, cudaStream_t s, Rng& rng) {
    const int rows = 384, cols = 576, T = 37;
    const HostMatrix m = makeMatrix(GgmlType::Q8_0, rows, cols, rng);
    const auto x = rng.normal(size_t(T) * cols);
    auto dw = upload(m.bytes, s), dx = upload(x, s);
    DeviceBuffer wh(size_t(rows) * cols * 2, "a check's weights"), xh(size_t(T) * cols * 2, "a check's input"),
        dy(size_t(T) * rows * 4, "a check's output");
    dequantToHalfLaunch(GgmlType::Q8_0, dw.as(), m.rowBytes, rows, cols, wh.as<uint16_t>(), s);
    toHalfLaunch(dx.as<float>(), xh.as<uint16_t>(), int64_t(T) * cols, s);
    DLAB_CUDA_CHECK_LAUNCH();
    const CublasHandle h(s);
    const float alpha = 1, beta = 0;
    DLAB_CUBLAS_CHECK(cublas().gemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, rows, T, cols, &alpha, wh.as(), CUDA_R_16F, cols, xh.as(), CUDA_R_16F,
                                      cols, &beta, dy.as(), CUDA_R_32F, rows, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    const auto g = download<float>(dy, size_t(T) * rows, s);
    std::vector<double> ref(size_t(T) * rows);
    for (int t = 0; t < T; ++t)
        for (int r = 0; r < rows; ++r) {
            double d = 0;
            for (int i = 0; i < cols; ++i) d += double(m.values[size_t(r) * cols + i]) * x[size_t(t) * cols + i];
            ref[size_t(t) * rows + r] = d;
        }
    out.push_back(compare("gemm (cuBLAS, half)", "Q8_0 384 x 576, T=37", g, ref, kHalfGemmBound));
}

// The KV checks' model shape: 2 layers, 9 query heads over 3 KV heads of headDim values.
HParams gqaShape(int headDim) {
    HParams hp;
    hp.nLayer = 2;
    hp.nHead = 9;
    hp.nHeadKv = 3;
    hp.headDim = headDim;
    hp.nEmbd = 9 * headDim;
    return hp;
}

// The KV store and paged attention (GQA 9 / 3) of 3 new tokens after `prefix` cached ones, per KV
// type, against storeKvRow and the engine's causalAttention: head size 64 after 37 and after 300
// slots (a warp's second round of slots), and 20 (rows that take the kernel's element-wise path).
void checkKvAndAttention(std::vector<OpCheck>& out, cudaStream_t s, Rng& rng, int D, int prefix) {
    const HParams hp = gqaShape(D);
    const int KVD = 3 * D, Q = 9 * D, T = 3;
    const float scale = 1.0f / std::sqrt(float(D));
    const std::string shape = "head " + std::to_string(D) + ", 3 queries after " + std::to_string(prefix);
    for (KvType type : {KvType::F32, KvType::F16, KvType::Q8_0}) {
        if (type == KvType::Q8_0 && D % 32 != 0) continue;
        const std::string tn = kvTypeName(type);
        KvBlockPool pool(hp, 2 + KvBlockPool::blocksFor(prefix + T, 16), type, 16);
        const SeqId other = pool.newSequence();
        pool.prepareWrite(other, 0, 20);   // another sequence first, so this one's blocks are not 0, 1, 2
        const SeqId seq = pool.newSequence();
        pool.prepareWrite(seq, 0, prefix + T);
        const int layer = 1;
        for (int p = 0; p < prefix; ++p) {
            pool.storeK(seq, layer, p, rng.normal(KVD).data());
            pool.storeV(seq, layer, p, rng.normal(KVD).data());
        }
        DeviceKv dkv(pool, s);
        const auto k = rng.normal(size_t(T) * KVD), v = rng.normal(size_t(T) * KVD), q = rng.normal(size_t(T) * Q);
        const auto table = pool.blockTable(seq);
        std::vector<int32_t> segOf(T, 0), slot(T), tableOf{0}, tables(table.begin(), table.end());
        for (int t = 0; t < T; ++t) slot[t] = prefix + t;
        auto dk = upload(k, s), dv = upload(v, s), dq = upload(q, s), dseg = upload(segOf, s), dslot = upload(slot, s),
             dto = upload(tableOf, s), dtab = upload(tables, s);
        DeviceBuffer staging(size_t(T) * hp.nLayer * 2 * pool.rowBytes(), "a check's staging");
        const PassSlots slots{dseg.as<int32_t>(), dslot.as<int32_t>(), dto.as<int32_t>(), dtab.as<int32_t>()};
        kvStoreLaunch({dk.as<float>(), dv.as<float>(), KVD, KVD, layer, static_cast<int>(hp.nLayer), dkv.layout(), slots, staging.as()}, T, s);
        DLAB_CUDA_CHECK_LAUNCH();
        for (int t = 0; t < T; ++t) {
            pool.storeK(seq, layer, prefix + t, k.data() + t * KVD);
            pool.storeV(seq, layer, prefix + t, v.data() + t * KVD);
        }
        // The stored bytes: the staging copy against the engine's storeKvRow.
        const auto stage = download<uint8_t>(staging, staging.bytes(), s);
        long bad = 0;
        for (int t = 0; t < T; ++t)
            for (int value = 0; value < 2; ++value) {
                const uint8_t* host = value ? std::as_const(pool).vRow(seq, layer, prefix + t) : std::as_const(pool).kRow(seq, layer, prefix + t);
                const uint8_t* dev = stage.data() + ((size_t(t) * hp.nLayer + layer) * 2 + value) * pool.rowBytes();
                for (size_t i = 0; i < pool.rowBytes(); ++i) bad += host[i] != dev[i];
            }
        out.push_back(exact("kv-store", tn + " rows vs storeKvRow, " + shape, bad));

        DeviceBuffer datt(size_t(T) * Q * 4, "a check's output");
        const AttentionArgs a{dq.as<float>(), Q, datt.as<float>(), 9, 3, D, scale, layer, dkv.layout(), slots};
        attentionLaunch(a, T, s);
        DLAB_CUDA_CHECK_LAUNCH();
        const int nSlots = prefix + T;
        DeviceBuffer dwts(size_t(9) * nSlots * 4, "a check's output");
        attentionWeightsLaunch(a, T - 1, nSlots, dwts.as<float>(), s);
        DLAB_CUDA_CHECK_LAUNCH();
        std::vector<float> ref(size_t(T) * Q), refW(size_t(9) * nSlots);
        ThreadPool tp(1);
        AttentionScratch scratch;
        causalAttention(q.data(), ref.data(), T, prefix, pool, seq, layer, {9, 3, D, scale}, tp, scratch, refW.data());
        out.push_back(compare("attention", tn + " paged, GQA 9/3, " + shape, download<float>(datt, ref.size(), s), toDouble(ref), kF32Bound));
        // The context split into ranges (flash-decoding), merged: from 1 slot on every query is
        // split (after 37: one range, after 300: three, after 4,200: 27 of 160 slots), from
        // prefix + 2 on the last query only. The launch has at least two blocks per pair, so a
        // query of one range also goes through the merge, and must come out bit for bit as unsplit.
        const auto unsplit = download<float>(datt, ref.size(), s);
        for (int splitFrom : {1, prefix + 2}) {
            AttentionArgs split = a;
            split.splitFrom = splitFrom;
            split.splits = std::max(2, attentionGridSplits(prefix + T, splitFrom));
            DeviceBuffer dpart(attentionPartialFloats(T, 9, split.splits, D) * 4, "a check's partial sums");
            split.partial = dpart.as<float>();
            DLAB_CUDA_CHECK(cudaMemsetAsync(datt.as(), 0xff, datt.bytes(), s));   // NaN: the unsplit result must not survive
            attentionLaunch(split, T, s);
            DLAB_CUDA_CHECK_LAUNCH();
            const auto got = download<float>(datt, ref.size(), s);
            const std::string from = "context split from " + std::to_string(splitFrom) + ", ";
            out.push_back(compare("attention", tn + " " + from + shape, got, toDouble(ref), kF32Bound));
            long differ = 0;
            for (int t = 0; t < T; ++t)
                if (attentionRanges(prefix + t + 1, splitFrom) == 1)
                    for (int i = 0; i < Q; ++i) differ += std::memcmp(&got[size_t(t) * Q + i], &unsplit[size_t(t) * Q + i], 4) != 0;
            out.push_back(exact("attention", tn + " " + from + "one-range queries equal unsplit, " + shape, differ));
        }
        out.push_back(compare("attention weights", tn + " last query, " + shape, download<float>(dwts, refW.size(), s), toDouble(refW), kF32Bound));
    }
}

// The KV store with RoPE folded in: 3 tokens' q and k rotated by the store's block, then K and V
// stored: q against ropeApply, the stored rows against ropeApply + storeKvRow, per KV type.
void checkKvStoreWithRope(std::vector<OpCheck>& out, cudaStream_t s, Rng& rng) {
    const HParams hp = gqaShape(64);
    const int T = 3, nHead = 9, nHeadKv = 3, D = 64, half = D / 2, Q = nHead * D, KVD = nHeadKv * D, layer = 1;
    for (KvType type : {KvType::F32, KvType::F16, KvType::Q8_0}) {
        KvBlockPool pool(hp, 4, type, 16);
        const SeqId seq = pool.newSequence();
        pool.prepareWrite(seq, 0, T);
        auto q = rng.normal(size_t(T) * Q), k = rng.normal(size_t(T) * KVD), v = rng.normal(size_t(T) * KVD);
        std::vector<float> c(size_t(T) * half), sn(size_t(T) * half);
        const ops::RopeParams p{D, 100000.0f, 1.0f, nullptr, false};
        for (int t = 0; t < T; ++t) ops::ropeCache(c.data() + t * half, sn.data() + t * half, 7 + t, p);
        DeviceKv dkv(pool, s);
        std::vector<int32_t> segOf(T, 0), slot{0, 1, 2}, tableOf{0};
        const auto table = pool.blockTable(seq);
        std::vector<int32_t> tables(table.begin(), table.end());
        auto dq = upload(q, s), dk = upload(k, s), dv = upload(v, s), dc = upload(c, s), ds = upload(sn, s), dseg = upload(segOf, s),
             dslot = upload(slot, s), dto = upload(tableOf, s), dtab = upload(tables, s);
        DeviceBuffer staging(size_t(T) * hp.nLayer * 2 * pool.rowBytes(), "a check's staging");
        KvStoreArgs a{dk.as<float>(), dv.as<float>(), KVD, KVD, layer, static_cast<int>(hp.nLayer), dkv.layout(),
                      {dseg.as<int32_t>(), dslot.as<int32_t>(), dto.as<int32_t>(), dtab.as<int32_t>()}, staging.as()};
        a.rope = {dq.as<float>(), dk.as<float>(), Q, KVD, nHead, nHeadKv, D, D, false, dc.as<float>(), ds.as<float>()};
        kvStoreLaunch(a, T, s);
        DLAB_CUDA_CHECK_LAUNCH();
        const auto stage = download<uint8_t>(staging, staging.bytes(), s);
        const auto gq = download<float>(dq, q.size(), s);
        std::vector<float> got, row(KVD), ref;
        for (int t = 0; t < T; ++t) {
            ops::ropeApply(q.data() + t * Q, nHead, D, c.data() + t * half, sn.data() + t * half, p);
            ops::ropeApply(k.data() + t * KVD, nHeadKv, D, c.data() + t * half, sn.data() + t * half, p);
            for (int value = 0; value < 2; ++value) {
                std::vector<uint8_t> bytes(pool.rowBytes());
                storeKvRow(type, (value ? v : k).data() + t * KVD, bytes.data(), KVD);
                loadKvRow(type, bytes.data(), row.data(), KVD);
                ref.insert(ref.end(), row.begin(), row.end());
                loadKvRow(type, stage.data() + ((size_t(t) * hp.nLayer + layer) * 2 + value) * pool.rowBytes(), row.data(), KVD);
                got.insert(got.end(), row.begin(), row.end());
            }
        }
        const std::string tn = kvTypeName(type);
        out.push_back(compare("kv-store + rope", tn + ": q rotated", gq, toDouble(q), kF32Bound));
        out.push_back(compare("kv-store + rope", tn + ": rows stored after the rotation", got, toDouble(ref), kStoredRowBound));
    }
}

// The KV store folded into attention (decode: 3 sequences of one new token each, after 4, 37 and
// 300 cached slots; GQA 9 / 3) against the KV store kernel followed by attention: the outputs, the
// staging rows and the whole device cache bit for bit, per KV type; and the outputs against the
// engine (ropeApply, storeKvRow, causalAttention). `rot` values of each head rotated (0: none, as
// GPT-2), NeoX or adjacent pairs, and the context split from splitFrom slots (0: never).
void checkFoldedKvStore(std::vector<OpCheck>& out, cudaStream_t s, Rng& rng, int D, int rot, bool neox, int splitFrom) {
    const HParams hp = gqaShape(D);
    const int T = 3, nHead = 9, nHeadKv = 3, Q = nHead * D, KVD = nHeadKv * D, layer = 1, half = std::max(1, rot / 2);
    const int prefix[T] = {4, 37, 300};
    const float scale = 1.0f / std::sqrt(float(D));
    const std::string shape = "head " + std::to_string(D) + (rot == 0 ? ", no RoPE" : neox ? ", NeoX RoPE" : ", RoPE") +
                              (rot > 0 && rot < D ? " on " + std::to_string(rot) + " values" : "") +
                              (splitFrom > 0 ? ", split from " + std::to_string(splitFrom) : "") + ", 3 sequences after 4, 37, 300";
    for (KvType type : {KvType::F32, KvType::F16, KvType::Q8_0}) {
        if (type == KvType::Q8_0 && D % 32 != 0) continue;
        const std::string tn = kvTypeName(type);
        KvBlockPool pool(hp, 4 + 2 * T + KvBlockPool::blocksFor(300 + 1, 16), type, 16);
        const SeqId other = pool.newSequence();
        pool.prepareWrite(other, 0, 20);   // so the sequences' blocks are not 0, 1, 2
        std::vector<SeqId> seq(T);
        std::vector<int32_t> segOf(T), slot(T), tableOf(T), tables;
        const int maxBlocks = KvBlockPool::blocksFor(300 + 1, 16);
        for (int t = 0; t < T; ++t) {
            seq[t] = pool.newSequence();
            pool.prepareWrite(seq[t], 0, prefix[t] + 1);
            for (int p = 0; p < prefix[t]; ++p) {
                pool.storeK(seq[t], layer, p, rng.normal(KVD).data());
                pool.storeV(seq[t], layer, p, rng.normal(KVD).data());
            }
            segOf[t] = t;
            slot[t] = prefix[t];
            tableOf[t] = t * maxBlocks;
            const auto table = pool.blockTable(seq[t]);
            std::vector<int32_t> row(maxBlocks, 0);
            std::copy(table.begin(), table.end(), row.begin());
            tables.insert(tables.end(), row.begin(), row.end());
        }
        auto q = rng.normal(size_t(T) * Q), k = rng.normal(size_t(T) * KVD), v = rng.normal(size_t(T) * KVD);
        std::vector<float> c(size_t(T) * half), sn(size_t(T) * half);
        const ops::RopeParams rp{rot, 10000.0f, 1.0f, nullptr, neox};
        if (rot > 0)
            for (int t = 0; t < T; ++t) ops::ropeCache(c.data() + t * half, sn.data() + t * half, prefix[t], rp);
        auto dseg = upload(segOf, s), dslot = upload(slot, s), dto = upload(tableOf, s), dtab = upload(tables, s), dc = upload(c, s),
             ds = upload(sn, s);
        const PassSlots slots{dseg.as<int32_t>(), dslot.as<int32_t>(), dto.as<int32_t>(), dtab.as<int32_t>()};
        const size_t stagingBytes = size_t(T) * hp.nLayer * 2 * pool.rowBytes();

        // Each side on its own copy of the cache, q and k: the store kernel rotates them in place.
        struct Side {
            std::vector<float> out;
            std::vector<uint8_t> staging, cache;
        };
        auto run = [&](bool fold) {
            DeviceKv dkv(pool, s);
            auto dq = upload(q, s), dk = upload(k, s), dv = upload(v, s);
            DeviceBuffer staging(stagingBytes, "a check's staging"), datt(size_t(T) * Q * 4, "a check's output");
            DLAB_CUDA_CHECK(cudaMemsetAsync(staging.as(), 0, stagingBytes, s));   // the other layer's rows: 0 on both sides
            const RopeArgs rope = rot > 0 ? RopeArgs{dq.as<float>(), dk.as<float>(), Q, KVD, nHead, nHeadKv, D, rot, neox, dc.as<float>(), ds.as<float>()}
                                          : RopeArgs{};
            AttentionArgs a{dq.as<float>(), Q, datt.as<float>(), nHead, nHeadKv, D, scale, layer, dkv.layout(), slots};
            a.splitFrom = splitFrom;
            a.splits = splitFrom > 0 ? std::max(2, attentionGridSplits(300 + 1, splitFrom)) : 1;
            DeviceBuffer dpart(std::max<size_t>(4, attentionPartialFloats(T, nHead, a.splits, D) * 4), "a check's partial sums");
            a.partial = dpart.as<float>();
            if (fold) {
                a.foldStore = true;
                a.store = {dk.as<float>(), dv.as<float>(), KVD, KVD, static_cast<int>(hp.nLayer), staging.as(), rope.nRot, neox, rope.cosv, rope.sinv};
            } else {
                KvStoreArgs st{dk.as<float>(), dv.as<float>(), KVD, KVD, layer, static_cast<int>(hp.nLayer), dkv.layout(), slots, staging.as()};
                st.rope = rope;
                kvStoreLaunch(st, T, s);
                DLAB_CUDA_CHECK_LAUNCH();
            }
            attentionLaunch(a, T, s);
            DLAB_CUDA_CHECK_LAUNCH();
            Side side{download<float>(datt, size_t(T) * Q, s), download<uint8_t>(staging, stagingBytes, s),
                      std::vector<uint8_t>(static_cast<size_t>(pool.bytesReserved()))};
            DLAB_CUDA_CHECK(cudaMemcpy(side.cache.data(), dkv.layout().base, side.cache.size(), cudaMemcpyDeviceToHost));
            return side;
        };
        const Side sep = run(false), fold = run(true);
        const std::string variant = tn + ", " + shape;
        long outDiffer = 0, stageDiffer = 0, cacheDiffer = 0;
        for (size_t i = 0; i < sep.out.size(); ++i) outDiffer += std::memcmp(&sep.out[i], &fold.out[i], 4) != 0;
        for (size_t i = 0; i < sep.staging.size(); ++i) stageDiffer += sep.staging[i] != fold.staging[i];
        for (size_t i = 0; i < sep.cache.size(); ++i) cacheDiffer += sep.cache[i] != fold.cache[i];
        out.push_back(exact("attention + folded kv-store", variant + ": outputs equal store kernel + attention", outDiffer));
        out.push_back(exact("attention + folded kv-store", variant + ": staging rows equal the store kernel's", stageDiffer));
        out.push_back(exact("attention + folded kv-store", variant + ": device cache equals the store kernel's", cacheDiffer));

        // The engine: rotate, store, attend, each sequence on its own.
        std::vector<float> ref(size_t(T) * Q);
        ThreadPool tp(1);
        AttentionScratch scratch;
        for (int t = 0; t < T; ++t) {
            float* qt = q.data() + size_t(t) * Q;
            float* kt = k.data() + size_t(t) * KVD;
            if (rot > 0) {
                ops::ropeApply(qt, nHead, D, c.data() + t * half, sn.data() + t * half, rp);
                ops::ropeApply(kt, nHeadKv, D, c.data() + t * half, sn.data() + t * half, rp);
            }
            pool.storeK(seq[t], layer, prefix[t], kt);
            pool.storeV(seq[t], layer, prefix[t], v.data() + size_t(t) * KVD);
            causalAttention(qt, ref.data() + size_t(t) * Q, 1, prefix[t], pool, seq[t], layer, {nHead, nHeadKv, D, scale}, tp, scratch, nullptr);
        }
        // f16 / q8_0 rows rotated on each side: a last-bit difference may round a value to the next step.
        const double bound = type == KvType::F32 || rot == 0 ? kF32Bound : kStoredRowBound;
        out.push_back(compare("attention + folded kv-store", variant + ": outputs vs the engine", fold.out, toDouble(ref), bound));
    }
}

// The statistics and top-N of R rows against the engine's logitRowStats: the default model's
// vocabulary with ties and -inf, a top-N under 32, a vocabulary of fewer logits than the kernel
// has warps (most slices empty), one smaller than N, and a row of ties only.
void checkLogitStats(std::vector<OpCheck>& out, cudaStream_t s, Rng& rng) {
    struct Case {
        const char* name;
        int R, V, N;
        bool ties;   // every logit 0.5: the top-N is ids 0..N-1
    };
    const Case cases[] = {{"49152 logits, top-32", 3, 49152, 32, false}, {"1000 logits, top-5", 2, 1000, 5, false},
                          {"40 logits, top-32", 1, 40, 32, false},       {"20 logits, top-32", 1, 20, 32, false},
                          {"3000 equal logits, top-32", 1, 3000, 32, true}};
    for (const Case& c : cases) {
        const int R = c.R, V = c.V, N = c.N;
        auto x = c.ties ? std::vector<float>(size_t(R) * V, 0.5f) : rng.normal(size_t(R) * V, 3.0f);
        if (V == 49152) {
            x[100] = x[200] = x[V + 7] = 25.0f;   // ties: the smaller id first
            x[2 * V + 9] = -INFINITY;
        }
        auto dx = upload(x, s);
        DeviceBuffer st(R * 3 * 4, "a check's output"), ids(R * N * 4, "a check's output"), lg(R * N * 4, "a check's output");
        DeviceBuffer scratch(logitStatsScratchBytes(R, V), "a check's scratch");
        logitStatsLaunch(dx.as<float>(), R, V, N, {st.as<float>(), ids.as<int32_t>(), lg.as<float>()}, scratch.as(), s);
        DLAB_CUDA_CHECK_LAUNCH();
        const auto gs = download<float>(st, R * 3, s);
        const auto gi = download<int32_t>(ids, R * N, s);
        const auto gl = download<float>(lg, R * N, s);
        const auto ref = logitRowStats(x, V, N);
        std::vector<float> g;
        std::vector<double> ref3;
        long bad = 0;
        for (int r = 0; r < R; ++r) {
            for (int i = 0; i < 3; ++i) g.push_back(gs[r * 3 + i]);
            ref3.insert(ref3.end(), {ref[r].maxLogit, ref[r].logSumExp, ref[r].entropy});
            for (int i = 0; i < N; ++i) {
                const bool has = i < static_cast<int>(ref[r].topIds.size());   // fewer logits than N: the rest is id -1
                bad += gi[r * N + i] != (has ? ref[r].topIds[i] : -1);
                bad += has && gl[r * N + i] != ref[r].topLogits[i];
            }
        }
        out.push_back(compare("logit stats", std::string("max, log-sum-exp, entropy; ") + c.name, g, ref3, kF32Bound));
        out.push_back(exact("logit stats", std::string("top ids and logits (ties to the smaller id); ") + c.name, bad));
    }
}

}  // namespace

std::vector<OpCheck> runOpChecks() {
    const std::string reason = cudaUnavailableReason();
    if (!reason.empty()) throw Error("cannot run the CUDA op checks: " + reason);
    const Stream s;
    std::vector<OpCheck> out;
    Rng rng;
    const std::pair<const char*, std::function<void()>> groups[] = {
        {"rmsnorm / layernorm", [&] { checkNorms(out, s, rng); }},
        {"rope", [&] { checkRope(out, s, rng); }},
        {"activations", [&] { checkActivations(out, s, rng); }},
        {"matvec", [&] {
             checkMatvec(out, s, rng);
             checkMatvecFoldedNorm(out, s, rng);
         }},
        {"dequant / embedding", [&] { checkDequantAndEmbedding(out, s, rng); }},
        {"gemm", [&] { checkGemm(out, s, rng); }},
        {"kv store / attention", [&] {
             checkKvAndAttention(out, s, rng, 64, 37);
             checkKvAndAttention(out, s, rng, 64, 300);
             checkKvAndAttention(out, s, rng, 20, 45);
             checkKvAndAttention(out, s, rng, 64, 4200);
             checkKvStoreWithRope(out, s, rng);
         }},
        {"attention with the KV store folded in", [&] {
             checkFoldedKvStore(out, s, rng, 64, 64, false, 0);
             checkFoldedKvStore(out, s, rng, 64, 64, true, 1);
             checkFoldedKvStore(out, s, rng, 64, 32, false, 100);
             checkFoldedKvStore(out, s, rng, 20, 20, false, 0);
             checkFoldedKvStore(out, s, rng, 64, 0, false, 0);
         }},
        {"logit stats", [&] { checkLogitStats(out, s, rng); }},
    };
    for (const auto& [name, run] : groups) {
        try {
            run();
        } catch (const std::exception& e) {   // one group's failure is reported, the others still run
            OpCheck c = named(name, "(threw)");
            c.error = e.what();
            out.push_back(c);
            cudaStreamSynchronize(s);
            cudaGetLastError();
        }
    }
    return out;
}

}  // namespace dlab::cuda
