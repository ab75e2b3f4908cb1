// Portable kernels: plain loops over ggml's blocks. They run where no SIMD set is available and
// are the reference the SIMD sets are tested against, so they favour clarity over speed.
#include <cstring>

#include "quant/activations.h"
#include "quant/block_types.h"
#include "quant/fp16.h"
#include "quant/kernels.h"

namespace dlab::quant {

namespace {

struct Q8Row {  // a row in q8RowLayout(cols)
    const int8_t* qs;
    const float* d;
    const float* s;
};

Q8Row q8Row(const uint8_t* act, int64_t cols) {
    const Q8RowLayout l = q8RowLayout(cols);
    return {reinterpret_cast<const int8_t*>(act), reinterpret_cast<const float*>(act + l.dOff),
            reinterpret_cast<const float*>(act + l.sOff)};
}

float dotQ4_0(const uint8_t* row, const Q8Row& x, int64_t nb) {
    const auto* w = reinterpret_cast<const BlockQ4_0*>(row);
    float sum = 0.0f;
    for (int64_t b = 0; b < nb; ++b) {
        const int8_t* q = x.qs + b * kQK;
        int isum = 0;
        for (int j = 0; j < kQK / 2; ++j)
            isum += ((w[b].qs[j] & 0xF) - 8) * q[j] + ((w[b].qs[j] >> 4) - 8) * q[j + 16];
        sum += fp16ToFp32(w[b].d) * x.d[b] * static_cast<float>(isum);
    }
    return sum;
}

float dotQ4_1(const uint8_t* row, const Q8Row& x, int64_t nb) {
    const auto* w = reinterpret_cast<const BlockQ4_1*>(row);
    float sum = 0.0f;
    for (int64_t b = 0; b < nb; ++b) {
        const int8_t* q = x.qs + b * kQK;
        int isum = 0;
        for (int j = 0; j < kQK / 2; ++j) isum += (w[b].qs[j] & 0xF) * q[j] + (w[b].qs[j] >> 4) * q[j + 16];
        sum += fp16ToFp32(w[b].d) * x.d[b] * static_cast<float>(isum) + fp16ToFp32(w[b].m) * x.s[b];
    }
    return sum;
}

float dotQ8_0(const uint8_t* row, const Q8Row& x, int64_t nb) {
    const auto* w = reinterpret_cast<const BlockQ8_0*>(row);
    float sum = 0.0f;
    for (int64_t b = 0; b < nb; ++b) {
        const int8_t* q = x.qs + b * kQK;
        int isum = 0;
        for (int j = 0; j < kQK; ++j) isum += w[b].qs[j] * q[j];
        sum += fp16ToFp32(w[b].d) * x.d[b] * static_cast<float>(isum);
    }
    return sum;
}

// Q4_K / Q5_K: d * Σ_j sc_j Σ q·x  -  dmin * Σ_j m_j Σ x, both sums exact in integers.
template <bool Five>
float dotQ45K(const uint8_t* row, const BlockQ8_K* x, int64_t nb) {
    float sum = 0.0f;
    for (int64_t i = 0; i < nb; ++i) {
        const uint8_t* scales;
        const uint8_t* qs;
        const uint8_t* qh = nullptr;
        float d, dmin;
        if constexpr (Five) {
            const auto& w = reinterpret_cast<const BlockQ5_K*>(row)[i];
            scales = w.scales, qs = w.qs, qh = w.qh, d = fp16ToFp32(w.d), dmin = fp16ToFp32(w.dmin);
        } else {
            const auto& w = reinterpret_cast<const BlockQ4_K*>(row)[i];
            scales = w.scales, qs = w.qs, d = fp16ToFp32(w.d), dmin = fp16ToFp32(w.dmin);
        }
        int sumq = 0, summ = 0;
        for (int j = 0; j < 8; ++j) {
            uint8_t sc, m;
            unpackScalesK4(scales, j, sc, m);
            const int c = j / 2, shift = (j & 1) * 4;
            const int8_t* q8 = x[i].qs + 32 * j;
            int isum = 0;
            for (int l = 0; l < 32; ++l) {
                int q = (qs[32 * c + l] >> shift) & 0xF;
                if constexpr (Five) q |= ((qh[l] >> j) & 1) << 4;
                isum += q * q8[l];
            }
            sumq += sc * isum;
            summ += m * (x[i].bsums[2 * j] + x[i].bsums[2 * j + 1]);
        }
        sum += x[i].d * (d * static_cast<float>(sumq) - dmin * static_cast<float>(summ));
    }
    return sum;
}

float dotQ6K(const uint8_t* row, const BlockQ8_K* x, int64_t nb) {
    const auto* w = reinterpret_cast<const BlockQ6_K*>(row);
    float sum = 0.0f;
    for (int64_t i = 0; i < nb; ++i) {
        int8_t q[kQKK];
        for (int h = 0; h < 2; ++h) {
            const uint8_t* ql = w[i].ql + 64 * h;
            const uint8_t* qh = w[i].qh + 32 * h;
            int8_t* o = q + 128 * h;
            for (int l = 0; l < 32; ++l) {
                o[l] = static_cast<int8_t>(((ql[l] & 0xF) | (((qh[l] >> 0) & 3) << 4)) - 32);
                o[l + 32] = static_cast<int8_t>(((ql[l + 32] & 0xF) | (((qh[l] >> 2) & 3) << 4)) - 32);
                o[l + 64] = static_cast<int8_t>(((ql[l] >> 4) | (((qh[l] >> 4) & 3) << 4)) - 32);
                o[l + 96] = static_cast<int8_t>(((ql[l + 32] >> 4) | (((qh[l] >> 6) & 3) << 4)) - 32);
            }
        }
        int isum = 0;
        for (int j = 0; j < 16; ++j) {
            int s16 = 0;
            for (int l = 0; l < 16; ++l) s16 += q[16 * j + l] * x[i].qs[16 * j + l];
            isum += w[i].scales[j] * s16;
        }
        sum += fp16ToFp32(w[i].d) * x[i].d * static_cast<float>(isum);
    }
    return sum;
}

template <GgmlType T>
float dotFloat(const uint8_t* row, const float* x, int64_t n) {
    float sum = 0.0f;
    for (int64_t k = 0; k < n; ++k) {
        float w;
        if constexpr (T == GgmlType::F32) std::memcpy(&w, row + 4 * k, 4);
        else {
            uint16_t h;
            std::memcpy(&h, row + 2 * k, 2);
            w = T == GgmlType::F16 ? fp16ToFp32(h) : bf16ToFp32(h);
        }
        sum += w * x[k];
    }
    return sum;
}

// --- activation preparation -------------------------------------------------------------------

size_t q8Bytes(int64_t cols) { return q8RowLayout(cols).rowBytes; }
size_t q8kBytes(int64_t cols) { return (static_cast<size_t>(cols / kQKK) * sizeof(BlockQ8_K) + 63) & ~size_t(63); }
void prepQ8K(const float* x, int64_t cols, uint8_t* dst) {
    quantizeRowQ8K(x, reinterpret_cast<BlockQ8_K*>(dst), cols);
}
void prepF32(const float* x, int64_t cols, uint8_t* dst) { std::memcpy(dst, x, cols * sizeof(float)); }
void prepF16(const float* x, int64_t cols, uint8_t* dst) { roundRowToFp16(x, reinterpret_cast<float*>(dst), cols); }
void prepBf16(const float* x, int64_t cols, uint8_t* dst) { roundRowToBf16(x, reinterpret_cast<float*>(dst), cols); }

// --- gemm: every (row, token) pair through the dot above ----------------------------------------

template <float (*Dot)(const uint8_t*, const Q8Row&, int64_t)>
void gemmQ8(const WeightMatrix& w, int64_t r0, int64_t r1, const uint8_t* act, size_t stride, int64_t nTok,
            float* y, int64_t ldy) {
    for (int64_t t = 0; t < nTok; ++t) {
        const Q8Row x = q8Row(act + t * stride, w.cols);
        for (int64_t r = r0; r < r1; ++r) y[t * ldy + r] = Dot(w.data + r * w.rowBytes, x, w.cols / kQK);
    }
}

template <float (*Dot)(const uint8_t*, const BlockQ8_K*, int64_t)>
void gemmQ8K(const WeightMatrix& w, int64_t r0, int64_t r1, const uint8_t* act, size_t stride, int64_t nTok,
             float* y, int64_t ldy) {
    for (int64_t t = 0; t < nTok; ++t) {
        const auto* x = reinterpret_cast<const BlockQ8_K*>(act + t * stride);
        for (int64_t r = r0; r < r1; ++r) y[t * ldy + r] = Dot(w.data + r * w.rowBytes, x, w.cols / kQKK);
    }
}

template <GgmlType T>
void gemmFloat(const WeightMatrix& w, int64_t r0, int64_t r1, const uint8_t* act, size_t stride, int64_t nTok,
               float* y, int64_t ldy) {
    for (int64_t t = 0; t < nTok; ++t) {
        const auto* x = reinterpret_cast<const float*>(act + t * stride);
        for (int64_t r = r0; r < r1; ++r) y[t * ldy + r] = dotFloat<T>(w.data + r * w.rowBytes, x, w.cols);
    }
}

KernelSet makeScalar() {
    KernelSet k{};
    k.name = "scalar";
    k.f32 = {floatRowBytes, prepF32, gemmFloat<GgmlType::F32>, 1};
    k.f16 = {floatRowBytes, prepF16, gemmFloat<GgmlType::F16>, 1};
    k.bf16 = {floatRowBytes, prepBf16, gemmFloat<GgmlType::BF16>, 1};
    k.q4_0 = {q8Bytes, quantizeRowQ8, gemmQ8<dotQ4_0>, 1};
    k.q4_1 = {q8Bytes, quantizeRowQ8, gemmQ8<dotQ4_1>, 1};
    k.q8_0 = {q8Bytes, quantizeRowQ8, gemmQ8<dotQ8_0>, 1};
    k.q4_k = {q8kBytes, prepQ8K, gemmQ8K<dotQ45K<false>>, 1};
    k.q5_k = {q8kBytes, prepQ8K, gemmQ8K<dotQ45K<true>>, 1};
    k.q6_k = {q8kBytes, prepQ8K, gemmQ8K<dotQ6K>, 1};
    return k;
}

}  // namespace

const TypeKernels* KernelSet::forType(GgmlType type) const {
    const TypeKernels* k = nullptr;
    switch (type) {
    case GgmlType::F32: k = &f32; break;
    case GgmlType::F16: k = &f16; break;
    case GgmlType::BF16: k = &bf16; break;
    case GgmlType::Q4_0: k = &q4_0; break;
    case GgmlType::Q4_1: k = &q4_1; break;
    case GgmlType::Q8_0: k = &q8_0; break;
    case GgmlType::Q4_K: k = &q4_k; break;
    case GgmlType::Q5_K: k = &q5_k; break;
    case GgmlType::Q6_K: k = &q6_k; break;
    default: break;
    }
    return k && k->valid() ? k : nullptr;
}

const KernelSet& scalarKernels() {
    static const KernelSet k = makeScalar();
    return k;
}

}  // namespace dlab::quant
