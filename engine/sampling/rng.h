#pragma once
// The seeded random source used for sampling. std::mt19937_64 is fully specified by the C++
// standard, so a seed gives the same stream on every platform and standard library; uniform
// doubles are formed from the top 53 bits ((x >> 11) * 2^-53), not with
// std::uniform_real_distribution, whose algorithm the standard leaves open.
#include <cstdint>
#include <random>

namespace dlab {

class SamplingRng {
public:
    explicit SamplingRng(uint64_t seed) : engine_(seed) {}
    // Uniform in [0, 1).
    double uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }

private:
    std::mt19937_64 engine_;
};

}  // namespace dlab
