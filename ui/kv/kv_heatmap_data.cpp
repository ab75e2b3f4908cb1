#include "ui/kv/kv_heatmap_data.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace dlab::ui {

namespace {
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// The translation context of this file's strings (it has no QObject).
struct KvHeatmapData {
    Q_DECLARE_TR_FUNCTIONS(KvHeatmapData)
};

bool perBlock(KvCellQuantity q) { return q == KvCellQuantity::Bytes || q == KvCellQuantity::Sharing; }

// Per-(layer, head, slot) values to rows: per KV head as they are, per layer combined by `combine`.
enum class Combine { Mean, L2 };
std::vector<float> rowsOf(const std::vector<float>& cells, const KvRunView& v, qint64 nSlots, KvHeatmapRows rows, Combine c,
                          float scale) {
    const qint64 H = v.nHeadKv;
    if (rows == KvHeatmapRows::KvHeads) {
        std::vector<float> out(cells.size());
        for (size_t i = 0; i < cells.size(); ++i) out[i] = cells[i] * scale;
        return out;
    }
    std::vector<float> out(static_cast<size_t>(v.nLayer * nSlots));
    for (qint64 l = 0; l < v.nLayer; ++l)
        for (qint64 s = 0; s < nSlots; ++s) {
            double acc = 0;
            for (qint64 h = 0; h < H; ++h) {
                const float x = cells[(l * H + h) * nSlots + s];
                acc += c == Combine::L2 ? double(x) * x : x;
            }
            out[l * nSlots + s] = static_cast<float>((c == Combine::L2 ? std::sqrt(acc) : acc / double(H)) * scale);
        }
    return out;
}
}  // namespace

QString kvCellQuantityName(KvCellQuantity q) {
    switch (q) {
        case KvCellQuantity::Attention: return KvHeatmapData::tr("attention received");
        case KvCellQuantity::Bytes: return KvHeatmapData::tr("bytes held");
        case KvCellQuantity::Sharing: return KvHeatmapData::tr("sequences sharing the block");
        case KvCellQuantity::KeyNorm: return KvHeatmapData::tr("key norm");
        case KvCellQuantity::ValueNorm: return KvHeatmapData::tr("value norm");
        case KvCellQuantity::KeyError: return KvHeatmapData::tr("key quantization error");
        case KvCellQuantity::ValueError: return KvHeatmapData::tr("value quantization error");
    }
    return {};
}

widgets::HeatmapGrid kvHeatmapGrid(const KvRunView& v, KvCellQuantity q, KvHeatmapRows rows, int attentionIndex, bool logScale) {
    widgets::HeatmapGrid g;
    if (v.nLayer <= 0 || v.nSlots <= 0) return g;
    const bool heads = rows == KvHeatmapRows::KvHeads;
    g.rows = static_cast<int>(heads ? v.nLayer * v.nHeadKv : v.nLayer);
    for (qint64 l = 0; l < v.nLayer; ++l) {
        if (heads) {
            g.groupStarts.push_back(static_cast<int>(l * v.nHeadKv));
            for (qint64 h = 0; h < v.nHeadKv; ++h) g.rowLabels << KvHeatmapData::tr("L%1 kv%2").arg(l).arg(h);
        } else {
            g.rowLabels << KvHeatmapData::tr("L%1").arg(l);
        }
    }
    g.quantity = kvCellQuantityName(q);

    if (perBlock(q)) {
        const qint64 nBlocks = static_cast<qint64>(v.seq0Blocks.size());
        g.cols = static_cast<int>(nBlocks);
        g.colsPerLabel = static_cast<int>(v.blockSize);
        for (qint64 b = 0; b < nBlocks; ++b) {
            QString text;
            for (qint64 s = b * v.blockSize; s < std::min<qint64>((b + 1) * v.blockSize, v.slotTokens.size()); ++s) text += v.slotTokens[s];
            g.colLabels << text;
        }
        g.values.resize(static_cast<size_t>(g.rows) * g.cols);
        for (int r = 0; r < g.rows; ++r)
            for (qint64 b = 0; b < nBlocks; ++b) {
                float x = 0;
                if (q == KvCellQuantity::Bytes)
                    x = static_cast<float>(v.seq0BlockFilled[b] * v.bytesPerSlotLayer / (heads ? v.nHeadKv : 1));
                else
                    x = static_cast<float>(v.seq0BlockRefs[b]);
                g.values[r * g.cols + b] = x;
            }
        g.unit = q == KvCellQuantity::Bytes ? QStringLiteral("B") : QString();
        if (q == KvCellQuantity::Sharing) g.minValue = 0, g.maxValue = std::max(1.0f, float(v.blocks.sequences.size()));
        return g;
    }

    g.cols = static_cast<int>(v.nSlots);
    g.colLabels = v.slotTokens;
    switch (q) {
        case KvCellQuantity::Attention: {
            if (attentionIndex < 0 || attentionIndex >= v.attention.size()) return {};
            const KvAttentionAtStep& a = v.attention[attentionIndex];
            const std::vector<float> cells = rowsOf(a.perKvGroup, v, a.nSlots, rows, Combine::Mean, 100.0f);
            // Positions not yet cached at that step stay empty (NaN).
            g.values.assign(static_cast<size_t>(g.rows) * g.cols, kNaN);
            for (int r = 0; r < g.rows; ++r)
                for (qint64 s = 0; s < std::min<qint64>(a.nSlots, g.cols); ++s) g.values[r * g.cols + s] = cells[r * a.nSlots + s];
            g.unit = QStringLiteral("%");
            if (logScale) {
                g.scale = widgets::HeatmapGrid::Scale::Log;
                float hi = 0;
                for (float x : g.values)
                    if (std::isfinite(x)) hi = std::max(hi, x);
                g.minValue = std::min(hi, 1.0f / float(a.nSlots));   // 1 % of 100 / slots %
                g.maxValue = std::max(hi, g.minValue);
                for (float& x : g.values)
                    if (std::isfinite(x)) x = std::max(x, g.minValue);   // weights below the floor draw at it
            }
            return g;
        }
        case KvCellQuantity::KeyNorm:
        case KvCellQuantity::ValueNorm:
            g.values = rowsOf(q == KvCellQuantity::KeyNorm ? v.kNorm : v.vNorm, v, v.nSlots, rows, Combine::L2, 1.0f);
            if (logScale) g.scale = widgets::HeatmapGrid::Scale::Log;
            return g;
        case KvCellQuantity::KeyError:
        case KvCellQuantity::ValueError: {
            const std::vector<float>& e = q == KvCellQuantity::KeyError ? v.kError : v.vError;
            if (e.empty()) return {};
            g.values = rowsOf(e, v, v.nSlots, rows, Combine::Mean, 100.0f);
            g.unit = QStringLiteral("%");
            if (logScale) {
                g.scale = widgets::HeatmapGrid::Scale::Log;
                float lo = 0;
                for (float x : g.values)
                    if (x > 0 && (lo == 0 || x < lo)) lo = x;
                for (float& x : g.values) x = std::max(x, lo);   // an exact row (error 0) draws at the smallest error
            }
            return g;
        }
        default: break;
    }
    return {};
}

}  // namespace dlab::ui
