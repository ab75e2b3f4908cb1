// The AVX2 kernel set (compiled with -mavx2 -mfma -mf16c; used only when the CPU has them).
#include "quant/x86/avx2_act.h"
#include "quant/x86/avx2_float.h"
#include "quant/x86/avx2_kquants.h"
#include "quant/x86/avx2_q4q8.h"

namespace dlab::quant {

namespace {

size_t q8Bytes(int64_t cols) { return q8RowLayout(cols, kQ8Ds).rowBytes; }
size_t q8kBytes(int64_t cols) { return (static_cast<size_t>(cols / kQKK) * sizeof(BlockQ8_K) + 63) & ~size_t(63); }

KernelSet makeAvx2() {
    KernelSet k{};
    k.name = "avx2";
    k.f32 = {floatRowBytes, prepF32Avx2, gemmFloatAvx2<GgmlType::F32>, 4};
    k.f16 = {floatRowBytes, prepF16Avx2, gemmFloatAvx2<GgmlType::F16>, 4};
    k.bf16 = {floatRowBytes, prepBf16Avx2, gemmFloatAvx2<GgmlType::BF16>, 4};
    k.q4_0 = {q8Bytes, prepQ8Avx2<Q4Sum::Minus8Exact>, gemmQAvx2<QKind::Q4_0>, 2};
    k.q4_1 = {q8Bytes, prepQ8Avx2<Q4Sum::Q8_1>, gemmQAvx2<QKind::Q4_1>, 2};
    k.q8_0 = {q8Bytes, prepQ8Avx2<Q4Sum::Q8_1>, gemmQAvx2<QKind::Q8_0>, 2};
    k.q4_k = {q8kBytes, prepQ8KAvx2, gemmKAvx2<Q45K<false>::Dot>, 1};
    k.q5_k = {q8kBytes, prepQ8KAvx2, gemmKAvx2<Q45K<true>::Dot>, 1};
    k.q6_k = {q8kBytes, prepQ8KAvx2, gemmKAvx2<Q6KDot>, 1};
    return k;
}

}  // namespace

const KernelSet& avx2Kernels() {
    static const KernelSet k = makeAvx2();
    return k;
}

}  // namespace dlab::quant
