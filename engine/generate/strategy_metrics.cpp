#include "generate/strategy_metrics.h"

#include <algorithm>
#include <set>

namespace dlab {

namespace {
std::set<std::vector<TokenId>> ngrams(const std::vector<TokenId>& t, int n) {
    std::set<std::vector<TokenId>> out;
    if (n < 1 || static_cast<int>(t.size()) < n) return out;
    for (size_t i = 0; i + n <= t.size(); ++i) out.emplace(t.begin() + static_cast<long>(i), t.begin() + static_cast<long>(i) + n);
    return out;
}
}  // namespace

int sharedPrefixLength(const std::vector<TokenId>& a, const std::vector<TokenId>& b) {
    const size_t n = std::min(a.size(), b.size());
    size_t i = 0;
    while (i < n && a[i] == b[i]) ++i;
    return static_cast<int>(i);
}

double ngramOverlap(const std::vector<TokenId>& a, const std::vector<TokenId>& b, int n) {
    if (a.empty() && b.empty()) return 1.0;
    if (a.empty() || b.empty()) return 0.0;
    const int use = std::min<int>({n, static_cast<int>(a.size()), static_cast<int>(b.size())});
    const auto A = ngrams(a, use), B = ngrams(b, use);
    size_t common = 0;
    for (const auto& g : A) common += B.count(g);
    const size_t all = A.size() + B.size() - common;
    return all == 0 ? 1.0 : static_cast<double>(common) / static_cast<double>(all);
}

PairwiseSimilarity pairwiseSimilarity(const std::vector<std::vector<TokenId>>& seqs) {
    PairwiseSimilarity s;
    double overlap = 0.0, prefix = 0.0, fraction = 0.0;
    for (size_t i = 0; i < seqs.size(); ++i)
        for (size_t j = i + 1; j < seqs.size(); ++j) {
            ++s.pairs;
            overlap += ngramOverlap(seqs[i], seqs[j]);
            const int shared = sharedPrefixLength(seqs[i], seqs[j]);
            prefix += shared;
            const size_t shorter = std::min(seqs[i].size(), seqs[j].size());
            fraction += shorter == 0 ? 1.0 : static_cast<double>(shared) / static_cast<double>(shorter);
            if (seqs[i] != seqs[j]) s.allIdentical = false;
        }
    if (s.pairs > 0) {
        s.meanOverlap = overlap / s.pairs;
        s.meanSharedPrefix = prefix / s.pairs;
        s.meanSharedPrefixFraction = fraction / s.pairs;
    }
    return s;
}

double pooledDistinctN(const std::vector<std::vector<TokenId>>& seqs, int n) {
    std::set<std::vector<TokenId>> seen;
    size_t total = 0;
    for (const auto& t : seqs) {
        if (n < 1 || static_cast<int>(t.size()) < n) continue;
        for (size_t i = 0; i + n <= t.size(); ++i) {
            seen.emplace(t.begin() + static_cast<long>(i), t.begin() + static_cast<long>(i) + n);
            ++total;
        }
    }
    return total == 0 ? 0.0 : static_cast<double>(seen.size()) / static_cast<double>(total);
}

}  // namespace dlab
