#include "quant/activations.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "quant/fp16.h"

namespace dlab::quant {

Q8RowLayout q8RowLayout(int64_t cols, unsigned extras) {
    Q8RowLayout l{};
    l.nb = cols / kQK;
    l.nbPad = (l.nb + 1) & ~int64_t(1);
    const size_t nbPad = static_cast<size_t>(l.nbPad);
    l.dOff = nbPad * kQK;
    l.sOff = l.dOff + nbPad * 4;
    l.dsOff = l.sOff + nbPad * 4;
    size_t end = l.dsOff + ((extras & kQ8Ds) ? nbPad * 8 : 0);
    l.corrOff = (end + 63) & ~size_t(63);  // 64-byte vectors
    if (extras & kQ8Corr) end = l.corrOff + nbPad * 8 * 4;
    l.rowBytes = (end + 63) & ~size_t(63);
    return l;
}

int quantizeBlockQ8(const float* x, int8_t* q, float& d) {
    float amax = 0.0f;
    for (int j = 0; j < kQK; ++j) amax = std::max(amax, std::fabs(x[j]));
    d = amax / 127.0f;
    const float id = amax != 0.0f ? 127.0f / amax : 0.0f;
    int sum = 0;
    for (int j = 0; j < kQK; ++j) {
        const int v = static_cast<int>(std::nearbyint(x[j] * id));  // default mode: half to even
        q[j] = static_cast<int8_t>(v);
        sum += v;
    }
    return sum;
}

void quantizeRowQ8(const float* x, int64_t cols, uint8_t* row) {
    const Q8RowLayout l = q8RowLayout(cols);
    auto* qs = reinterpret_cast<int8_t*>(row);
    auto* d = reinterpret_cast<float*>(row + l.dOff);
    auto* s = reinterpret_cast<float*>(row + l.sOff);
    for (int64_t b = 0; b < l.nb; ++b) {
        float db = 0.0f;
        const int sum = quantizeBlockQ8(x + b * kQK, qs + b * kQK, db);
        d[b] = fp16ToFp32(fp32ToFp16(db));
        s[b] = fp16ToFp32(fp32ToFp16(db * static_cast<float>(sum)));
    }
    for (int64_t b = l.nb; b < l.nbPad; ++b) {
        std::memset(qs + b * kQK, 0, kQK);
        d[b] = s[b] = 0.0f;
    }
}

void quantizeRowQ8K(const float* x, BlockQ8_K* y, int64_t n) {
    for (int64_t i = 0; i < n / kQKK; ++i, x += kQKK) {
        float amax = 0.0f, max = 0.0f;
        for (int j = 0; j < kQKK; ++j) {
            const float ax = std::fabs(x[j]);
            if (ax > amax) {
                amax = ax;
                max = x[j];
            }
        }
        BlockQ8_K& b = y[i];
        if (amax == 0.0f) {
            std::memset(&b, 0, sizeof b);
            continue;
        }
        const float iscale = -127.0f / max;
        for (int j = 0; j < kQKK; ++j)
            b.qs[j] = static_cast<int8_t>(std::min(127, static_cast<int>(std::nearbyint(iscale * x[j]))));
        for (int j = 0; j < kQKK / 16; ++j) {
            int sum = 0;
            for (int k = 0; k < 16; ++k) sum += b.qs[16 * j + k];
            b.bsums[j] = static_cast<int16_t>(sum);
        }
        b.d = 1.0f / iscale;
    }
}

void roundRowToFp16(const float* x, float* dst, int64_t n) {
    for (int64_t i = 0; i < n; ++i) dst[i] = fp16ToFp32(fp32ToFp16(x[i]));
}

void roundRowToBf16(const float* x, float* dst, int64_t n) {
    for (int64_t i = 0; i < n; ++i) dst[i] = bf16ToFp32(fp32ToBf16(x[i]));
}

}  // namespace dlab::quant
