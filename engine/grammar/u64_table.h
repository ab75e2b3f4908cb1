#pragma once
// A hash table from 64-bit keys to 32-bit values for the grammar matcher's hot paths (interning
// stack frames, the closure's visited set): open addressing with linear probing in one flat
// array, no allocation per entry, and clear() in O(1) by bumping a generation stamp. The
// node-per-entry std::unordered_map spent over half the matcher's time in malloc and free.
// Values are ids, never negative: find() answers -1 for a missing key.
#include <cstdint>
#include <utility>
#include <vector>

namespace dlab {

class U64Table {
public:
    // The value stored under `key`, inserting `value` if the key is new; `.second` says whether it was.
    std::pair<int32_t, bool> emplace(uint64_t key, int32_t value) {
        if ((count_ + 1) * 2 > slots_.size()) grow();
        size_t i = index(key);
        while (slots_[i].stamp == generation_) {
            if (slots_[i].key == key) return {slots_[i].value, false};
            i = (i + 1) & (slots_.size() - 1);
        }
        slots_[i] = {key, value, generation_};
        ++count_;
        return {value, true};
    }
    // The value stored under `key`, or -1.
    int32_t find(uint64_t key) const {
        if (slots_.empty()) return -1;
        for (size_t i = index(key); slots_[i].stamp == generation_; i = (i + 1) & (slots_.size() - 1))
            if (slots_[i].key == key) return slots_[i].value;
        return -1;
    }
    // Empties the table without touching its memory (except once every 4 billion clears).
    void clear() {
        count_ = 0;
        if (++generation_ == 0) {
            for (auto& s : slots_) s.stamp = 0;
            generation_ = 1;
        }
    }
    size_t size() const { return count_; }

private:
    struct Slot {
        uint64_t key = 0;
        int32_t value = 0;
        uint32_t stamp = 0;  // the entry is live when it equals generation_
    };

    size_t index(uint64_t key) const {
        key ^= key >> 33;
        key *= 0xff51afd7ed558ccdull;
        key ^= key >> 33;
        return static_cast<size_t>(key) & (slots_.size() - 1);
    }
    void grow() {
        std::vector<Slot> old = std::move(slots_);
        slots_.assign(old.empty() ? 64 : old.size() * 2, Slot{});
        const uint32_t live = generation_;
        generation_ = 1;
        count_ = 0;
        for (const Slot& s : old)
            if (s.stamp == live) emplace(s.key, s.value);
    }

    std::vector<Slot> slots_;  // (capacity) a power of two, at most half full
    size_t count_ = 0;
    uint32_t generation_ = 1;
};

}  // namespace dlab
