#pragma once
// One decoding configuration of a side-by-side comparison, written as a short string:
//   "greedy"                                      argmax every step
//   "beam:k=4" | "beam:k=4,lp=0.8,es=never"       beam search: width, length penalty, early stopping
//   "sample:t=0.7,p=0.9,k=40,minp=0.05,seed=1"    the sampler chain (t temperature, p top-p, k top-k,
//                                                 minp min-p, rep repeat penalty, seed); unset keys
//                                                 keep SamplerParams' defaults
#include <string>

#include "generate/beam_search.h"
#include "sampling/sampler_params.h"

namespace dlab {

enum class RunKind { Greedy, Sample, Beam };
const char* runKindName(RunKind k);  // "greedy" | "sample" | "beam"

struct RunSpec {
    std::string text;          // the spec as given, used as the run's label
    RunKind kind = RunKind::Greedy;
    SamplerParams sampler;     // greedy and sample runs (greedy: temperature 0)
    int beamWidth = 4;         // beam runs
    double lengthPenalty = 1.0;
    EarlyStopping earlyStopping = EarlyStopping::Heuristic;
};

// Parses and validates a spec. Throws dlab::Error naming the spec and the problem: an unknown
// kind or key, a value that is not a number, or one out of range.
RunSpec parseRunSpec(const std::string& spec);

}  // namespace dlab
