#pragma once
// Compiled constraints by their text, for a server that sees the same schema in request after
// request: the second request reuses the first one's automaton, with its transitions and masks
// already computed. Thread-safe; keeps the most recently used `capacity` constraints.
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "grammar/constraint.h"

namespace dlab {

class ConstraintCache {
public:
    explicit ConstraintCache(std::shared_ptr<const TokenBytesTable> vocab, size_t capacity = 32)
        : vocab_(std::move(vocab)), capacity_(capacity) {}

    // The compiled constraint (throws dlab::Error as Constraint::compile does; failures are not kept).
    std::shared_ptr<const Constraint> get(const ConstraintSpec& spec);
    size_t hits() const;

private:
    std::shared_ptr<const TokenBytesTable> vocab_;
    size_t capacity_;
    mutable std::mutex mutex_;
    std::list<std::pair<std::string, std::shared_ptr<const Constraint>>> lru_;  // most recent first
    std::unordered_map<std::string, decltype(lru_)::iterator> byKey_;
    size_t hits_ = 0;
};

}  // namespace dlab
