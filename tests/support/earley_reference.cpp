#include "earley_reference.h"

#include <set>
#include <tuple>

namespace dlab::test {
namespace {

struct Item {
    int rule, alt, dot, origin;
    bool operator<(const Item& o) const { return std::tie(rule, alt, dot, origin) < std::tie(o.rule, o.alt, o.dot, o.origin); }
};

bool inSet(const std::vector<CodepointRange>& r, uint32_t lo, uint32_t hi) {  // any of [lo, hi] in r
    for (const auto& x : r)
        if (x.lo <= hi && lo <= x.hi) return true;
    return false;
}

// Decodes complete characters; the trailing partial one becomes the interval of code points it
// could still be. Returns false for invalid UTF-8.
bool decode(const std::string& s, std::vector<uint32_t>& cps, bool& partial, uint32_t& plo, uint32_t& phi) {
    partial = false;
    size_t i = 0;
    while (i < s.size()) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        const int n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        if (n == 0) return false;
        const uint32_t minOf[5] = {0, 0, 0x80, 0x800, 0x10000};
        const uint32_t maxOf[5] = {0, 0x7F, 0x7FF, 0xFFFF, 0x10FFFF};
        uint32_t lo = n == 1 ? c : n == 2 ? (c & 0x1F) : n == 3 ? (c & 0x0F) : (c & 0x07);
        uint32_t hi = lo;
        int have = 1;
        for (; have < n && i + static_cast<size_t>(have) < s.size(); ++have) {
            const unsigned char d = static_cast<unsigned char>(s[i + static_cast<size_t>(have)]);
            if ((d & 0xC0) != 0x80) return false;
            lo = (lo << 6) | (d & 0x3F);
            hi = (hi << 6) | (d & 0x3F);
        }
        for (int k = have; k < n; ++k) { lo = lo << 6; hi = (hi << 6) | 0x3F; }
        lo = std::max(lo, minOf[n]);
        hi = std::min(hi, maxOf[n]);
        if (lo > hi) return false;  // overlong or beyond U+10FFFF
        if (have < n) {
            partial = true;
            plo = lo;
            phi = hi;
            return true;
        }
        cps.push_back(lo);
        i += static_cast<size_t>(n);
    }
    return true;
}

}  // namespace

EarleyVerdict earleyCheck(const CharGrammar& g, const std::string& bytes) {
    std::vector<uint32_t> cps;
    bool partial;
    uint32_t plo = 0, phi = 0;
    if (!decode(bytes, cps, partial, plo, phi)) return {};
    const size_t n = cps.size();
    std::vector<std::set<Item>> chart(n + 1);
    std::vector<std::vector<Item>> agenda(n + 1);
    auto add = [&](size_t k, Item it) {
        if (chart[k].insert(it).second) agenda[k].push_back(it);
    };
    for (size_t a = 0; a < g.rules[static_cast<size_t>(g.root)].alternatives.size(); ++a) add(0, {g.root, static_cast<int>(a), 0, 0});
    for (size_t k = 0; k <= n; ++k) {
        for (size_t q = 0; q < agenda[k].size(); ++q) {
            const Item it = agenda[k][q];
            const CharSequence& seq = g.rules[static_cast<size_t>(it.rule)].alternatives[static_cast<size_t>(it.alt)];
            if (it.dot == static_cast<int>(seq.size())) {  // complete
                for (size_t p = 0; p < agenda[static_cast<size_t>(it.origin)].size(); ++p) {
                    const Item w = agenda[static_cast<size_t>(it.origin)][p];
                    const CharSequence& ws = g.rules[static_cast<size_t>(w.rule)].alternatives[static_cast<size_t>(w.alt)];
                    if (w.dot < static_cast<int>(ws.size()) && ws[static_cast<size_t>(w.dot)].kind == CharElement::Kind::Rule &&
                        ws[static_cast<size_t>(w.dot)].rule == it.rule)
                        add(k, {w.rule, w.alt, w.dot + 1, w.origin});
                }
                continue;
            }
            const CharElement& e = seq[static_cast<size_t>(it.dot)];
            if (e.kind == CharElement::Kind::Rule) {
                const auto& alts = g.rules[static_cast<size_t>(e.rule)].alternatives;
                for (size_t a = 0; a < alts.size(); ++a) add(k, {e.rule, static_cast<int>(a), 0, static_cast<int>(k)});
                // Nullable completions already in this set (Aycock-Horspool): re-advance past them.
                for (const Item& done : chart[k]) {
                    const CharSequence& ds = g.rules[static_cast<size_t>(done.rule)].alternatives[static_cast<size_t>(done.alt)];
                    if (done.rule == e.rule && done.origin == static_cast<int>(k) && done.dot == static_cast<int>(ds.size()))
                        add(k, {it.rule, it.alt, it.dot + 1, it.origin});
                }
            } else if (k < n && inSet(e.ranges, cps[k], cps[k])) {
                add(k + 1, {it.rule, it.alt, it.dot + 1, it.origin});
            }
        }
    }
    EarleyVerdict v;
    const auto& last = chart[n];
    for (const Item& it : last) {
        const CharSequence& seq = g.rules[static_cast<size_t>(it.rule)].alternatives[static_cast<size_t>(it.alt)];
        if (it.dot < static_cast<int>(seq.size()) && seq[static_cast<size_t>(it.dot)].kind == CharElement::Kind::Chars) {
            const auto& r = seq[static_cast<size_t>(it.dot)].ranges;
            if (partial ? inSet(r, plo, phi) : !r.empty()) v.validPrefix = true;
        }
        if (!partial && it.rule == g.root && it.origin == 0 && it.dot == static_cast<int>(seq.size())) {
            v.complete = true;
            v.validPrefix = true;
        }
    }
    return v;
}

}  // namespace dlab::test
