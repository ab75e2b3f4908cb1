#include "grammar/utf8_sequences.h"

#include <string>

#include "tokenizer/utf8.h"

namespace dlab {
namespace {

int encodedLength(uint32_t cp) { return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4; }

// [lo, hi] with both ends of one encoded length, split until each piece is a product of byte ranges.
void split(uint32_t lo, uint32_t hi, std::vector<Utf8Pattern>& out) {
    const int n = encodedLength(lo);
    for (int i = 1; i < n; ++i) {
        const uint32_t m = (1u << (6 * i)) - 1;  // the low i continuation bytes
        if ((lo & ~m) != (hi & ~m)) {
            if ((lo & m) != 0) {
                split(lo, lo | m, out);
                split((lo | m) + 1, hi, out);
                return;
            }
            if ((hi & m) != m) {
                split(lo, (hi & ~m) - 1, out);
                split(hi & ~m, hi, out);
                return;
            }
        }
    }
    const std::string a = utf8::encode(lo), b = utf8::encode(hi);
    Utf8Pattern p;
    for (size_t i = 0; i < static_cast<size_t>(n); ++i) p.push_back({static_cast<uint8_t>(a[i]), static_cast<uint8_t>(b[i])});
    out.push_back(std::move(p));
}

}  // namespace

std::vector<Utf8Pattern> utf8Patterns(const std::vector<CodepointRange>& ranges) {
    static const uint32_t kBounds[] = {0x7F, 0x7FF, 0xFFFF, kMaxCodepoint};
    std::vector<Utf8Pattern> out;
    for (const auto& r : ranges) {
        uint32_t lo = r.lo;
        for (uint32_t bound : kBounds) {
            if (lo > r.hi) break;
            if (lo > bound) continue;
            const uint32_t hi = r.hi < bound ? r.hi : bound;
            split(lo, hi, out);
            lo = hi + 1;
        }
    }
    return out;
}

}  // namespace dlab
