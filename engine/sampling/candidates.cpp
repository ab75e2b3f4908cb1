#include "sampling/candidates.h"

#include <algorithm>

namespace dlab {

void selectTop(const Candidate* first, size_t n, size_t k, std::vector<Candidate>& out) {
    out.clear();
    k = std::min(k, n);
    if (k == 0) return;
    out.assign(first, first + k);
    // A max-heap under ranksAbove keeps the worst of the k best at the front.
    std::make_heap(out.begin(), out.end(), ranksAbove);
    Candidate worst = out.front();
    for (size_t i = k; i < n; ++i) {
        const Candidate& c = first[i];
        if (c.logit < worst.logit) continue;  // the common case: one compare per candidate
        if (!ranksAbove(c, worst)) continue;
        std::pop_heap(out.begin(), out.end(), ranksAbove);
        out.back() = c;
        std::push_heap(out.begin(), out.end(), ranksAbove);
        worst = out.front();
    }
    std::sort_heap(out.begin(), out.end(), ranksAbove);  // best first
}

void CandidateArray::reset(std::span<const float> logits, SamplerState* state) {
    const size_t n = logits.size();
    items_.resize(n);
    for (size_t i = 0; i < n; ++i) items_[i] = {static_cast<TokenId>(i), logits[i], 0.0f};
    vocab_ = static_cast<int>(n);
    sortedPrefix_ = 0;
    identity_ = true;
    probsValid_ = false;
    changed_ = false;
    state_ = state;
}

void CandidateArray::truncate(size_t n) {
    if (n >= items_.size()) return;
    // Dropping only -inf items leaves the distribution as it was.
    for (size_t i = n; i < items_.size() && !changed_; ++i)
        if (items_[i].logit != -std::numeric_limits<float>::infinity()) changed_ = true;
    items_.resize(n);
    sortedPrefix_ = std::min(sortedPrefix_, n);
    identity_ = false;
    probsValid_ = false;
}

void CandidateArray::dropFront(size_t k) {
    if (k == 0) return;
    k = std::min(k, items_.size());
    for (size_t i = 0; i < k && !changed_; ++i)
        if (items_[i].logit != -std::numeric_limits<float>::infinity()) changed_ = true;
    items_.erase(items_.begin(), items_.begin() + static_cast<std::ptrdiff_t>(k));
    sortedPrefix_ = sortedPrefix_ > k ? sortedPrefix_ - k : 0;
    identity_ = false;
    probsValid_ = false;
}

void CandidateArray::sortTop(size_t k) {
    const size_t n = items_.size();
    k = std::min(k, n);
    if (sortedPrefix_ >= k) return;
    if (k == n) {
        std::sort(items_.begin(), items_.end(), ranksAbove);
    } else if (k <= 4096 && k * 8 <= n) {
        selectTop(items_.data(), n, k, scratch_);
        // Move the selected set to the front (it is exactly what ranks at or above the k-th),
        // then put it in order.
        const Candidate kth = scratch_.back();
        std::partition(items_.begin(), items_.end(),
                       [&](const Candidate& c) { return c.id == kth.id || ranksAbove(c, kth); });
        std::copy(scratch_.begin(), scratch_.end(), items_.begin());
    } else {
        std::nth_element(items_.begin(), items_.begin() + static_cast<std::ptrdiff_t>(k), items_.end(), ranksAbove);
        std::sort(items_.begin(), items_.begin() + static_cast<std::ptrdiff_t>(k), ranksAbove);
    }
    sortedPrefix_ = k;
    identity_ = false;
}

void CandidateArray::keepTop(size_t k) {
    const size_t n = items_.size();
    if (k >= n) return;
    size_t finite = 0;
    for (const auto& c : items_) finite += c.logit != -std::numeric_limits<float>::infinity();
    if (sortedPrefix_ < k) {
        if (k <= 4096 && k * 8 <= n) {
            selectTop(items_.data(), n, k, scratch_);
            std::copy(scratch_.begin(), scratch_.end(), items_.begin());
        } else {
            sortTop(k);
        }
    }
    items_.resize(k);
    sortedPrefix_ = k;
    identity_ = false;
    probsValid_ = false;
    changed_ = changed_ || finite > k;  // the k best hold every finite item when finite <= k
}

float CandidateArray::maxLogit() const {
    if (sortedPrefix_ > 0) return items_[0].logit;
    float m = -std::numeric_limits<float>::infinity();
    for (const auto& c : items_) m = std::max(m, c.logit);
    return m;
}

double CandidateArray::softmax() {
    const float m = maxLogit();
    if (m == -std::numeric_limits<float>::infinity()) {
        for (auto& c : items_) c.p = 0.0f;
        probsValid_ = true;
        return -std::numeric_limits<double>::infinity();
    }
    double sum = 0.0;
    for (auto& c : items_) {
        const float e = std::exp(c.logit - m);  // exp(-inf) = 0
        c.p = e;
        sum += e;
    }
    const float inv = static_cast<float>(1.0 / sum);
    for (auto& c : items_) c.p *= inv;
    probsValid_ = true;
    return double(m) + std::log(sum);
}

}  // namespace dlab
