#include "grammar/constraint_cache.h"

namespace dlab {

namespace {
constexpr size_t kRenewAfterStates = 200000;
}

std::shared_ptr<const Constraint> ConstraintCache::get(const ConstraintSpec& spec) {
    const std::string key = constraintKindName(spec.kind) + '\n' + spec.text;
    {
        std::lock_guard lock(mutex_);
        auto it = byKey_.find(key);
        // An automaton that has grown large (a long-running server meeting ever new nestings)
        // is dropped, so the next request starts a fresh one instead of reaching its limits.
        if (it != byKey_.end() && it->second->second->automaton().stats().states > kRenewAfterStates) {
            lru_.erase(it->second);
            byKey_.erase(it);
            it = byKey_.end();
        }
        if (it != byKey_.end()) {
            lru_.splice(lru_.begin(), lru_, it->second);
            ++hits_;
            return it->second->second;
        }
    }
    // Compile outside the lock: a slow schema must not hold up requests with cached ones.
    auto compiled = Constraint::compile(spec, vocab_);
    std::lock_guard lock(mutex_);
    auto it = byKey_.find(key);
    if (it != byKey_.end()) return it->second->second;  // another thread compiled it meanwhile
    lru_.emplace_front(key, compiled);
    byKey_[key] = lru_.begin();
    while (lru_.size() > capacity_) {
        byKey_.erase(lru_.back().first);
        lru_.pop_back();
    }
    return compiled;
}

size_t ConstraintCache::hits() const {
    std::lock_guard lock(mutex_);
    return hits_;
}

}  // namespace dlab
