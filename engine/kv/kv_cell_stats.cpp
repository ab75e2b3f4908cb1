#include "kv/kv_cell_stats.h"

#include <cmath>
#include <string>

#include "core/error.h"

namespace dlab {

namespace {
double norm(const float* x, int64_t n) {
    double s = 0.0;
    for (int64_t i = 0; i < n; ++i) s += double(x[i]) * x[i];
    return std::sqrt(s);
}
double distance(const float* a, const float* b, int64_t n) {
    double s = 0.0;
    for (int64_t i = 0; i < n; ++i) s += (double(a[i]) - b[i]) * (double(a[i]) - b[i]);
    return std::sqrt(s);
}
}  // namespace

KvCellStats kvCellStats(const KvBlockPool& pool, SeqId seq, int64_t headDim) {
    KvCellStats st;
    st.nLayer = pool.nLayer();
    st.nHeadKv = pool.kvDim() / headDim;
    st.nSlots = pool.length(seq);
    const size_t cells = static_cast<size_t>(st.nLayer * st.nHeadKv * st.nSlots);
    st.kNorm.resize(cells);
    st.vNorm.resize(cells);
    std::vector<float> k(pool.kvDim()), v(pool.kvDim());  // (nHeadKv, headDim)
    for (int64_t l = 0; l < st.nLayer; ++l)
        for (int64_t s = 0; s < st.nSlots; ++s) {
            loadKvRow(pool.type(), pool.kRow(seq, l, s), k.data(), pool.kvDim());
            loadKvRow(pool.type(), pool.vRow(seq, l, s), v.data(), pool.kvDim());
            for (int64_t h = 0; h < st.nHeadKv; ++h) {
                st.kNorm[st.index(l, h, s)] = static_cast<float>(norm(k.data() + h * headDim, headDim));
                st.vNorm[st.index(l, h, s)] = static_cast<float>(norm(v.data() + h * headDim, headDim));
            }
        }
    return st;
}

void addKvQuantError(KvCellStats& st, const KvBlockPool& pool, SeqId seq, const KvBlockPool& ref, SeqId refSeq, int64_t headDim) {
    if (ref.nLayer() != pool.nLayer() || ref.kvDim() != pool.kvDim())
        throw Error("the reference KV cache was made for a different model (" + std::to_string(ref.nLayer()) + " layers of width " +
                    std::to_string(ref.kvDim()) + ", not " + std::to_string(pool.nLayer()) + " of " + std::to_string(pool.kvDim()) + ")");
    if (ref.length(refSeq) < st.nSlots)
        throw Error("the reference KV sequence holds " + std::to_string(ref.length(refSeq)) + " positions, fewer than the " +
                    std::to_string(st.nSlots) + " to compare");
    for (int64_t s = 0; s < st.nSlots; ++s)
        if (ref.tokens(refSeq)[s] != pool.tokens(seq)[s])
            throw Error("the reference KV sequence holds another token at position " + std::to_string(s));
    const size_t cells = st.kNorm.size();
    st.kError.assign(cells, 0.0f);
    st.vError.assign(cells, 0.0f);
    std::vector<float> k(pool.kvDim()), v(pool.kvDim()), kr(pool.kvDim()), vr(pool.kvDim());
    for (int64_t l = 0; l < st.nLayer; ++l)
        for (int64_t s = 0; s < st.nSlots; ++s) {
            loadKvRow(pool.type(), pool.kRow(seq, l, s), k.data(), pool.kvDim());
            loadKvRow(pool.type(), pool.vRow(seq, l, s), v.data(), pool.kvDim());
            loadKvRow(ref.type(), ref.kRow(refSeq, l, s), kr.data(), pool.kvDim());
            loadKvRow(ref.type(), ref.vRow(refSeq, l, s), vr.data(), pool.kvDim());
            for (int64_t h = 0; h < st.nHeadKv; ++h) {
                const int64_t o = h * headDim;
                const double kn = norm(kr.data() + o, headDim), vn = norm(vr.data() + o, headDim);
                st.kError[st.index(l, h, s)] = kn > 0 ? static_cast<float>(distance(k.data() + o, kr.data() + o, headDim) / kn) : 0.0f;
                st.vError[st.index(l, h, s)] = vn > 0 ? static_cast<float>(distance(v.data() + o, vr.data() + o, headDim) / vn) : 0.0f;
            }
        }
}

}  // namespace dlab
