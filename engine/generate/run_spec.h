#pragma once
// One decoding configuration of a side-by-side comparison, written as a short string
// "KIND[:key=value,key=value,...]":
//   greedy   argmax every step, after the penalties:
//            rep freq pres lastn nrng
//   beam     beam search (beam_search.h): k width, lp length penalty, es early stopping
//            (true|false|never), g groups (diverse beam search), dp diversity penalty, rep repetition
//            penalty and nrng no-repeat-n-gram size (both over the whole history, as HF)
//   sample   the sampler chain (SamplerParams), every numeric setting:
//            t temperature, k top-k, p top-p, minp min-p, typ typical-p, rep repeat penalty,
//            freq / pres frequency / presence penalty, lastn penalty-last-n, nrng no-repeat-n-gram,
//            dry / drybase / dryallow / drylastn DRY multiplier / base / allowed length / last n,
//            xtcp / xtct XTC probability / threshold, nsigma top-n-sigma, mirotau / miroeta / mirom
//            Mirostat tau / eta / m, order (hf, llama.cpp, mirostat, mirostat-v1, or stage names
//            joined by '+': order=top-k+temperature), seed
// Every kind also takes grammar=on|off: whether the comparison's constraint (--grammar,
// --json-schema, --json) applies to it (on by default).
// Unset keys keep SamplerParams' / BeamOptions' defaults (greedy: temperature 0). Examples:
//   "beam:k=4,g=2,dp=0.5"  "sample:t=0.7,p=0.9,k=40,minp=0.05,seed=1"  "greedy:rep=1.3,nrng=3"
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
    int beamWidth = 4;         // beam runs: k
    double lengthPenalty = 1.0;                              // lp
    EarlyStopping earlyStopping = EarlyStopping::Heuristic;  // es
    int beamGroups = 1;                                      // g (width % g == 0)
    double diversityPenalty = 0.0;                           // dp (> 0 needs g > 1)
    float beamRepeatPenalty = 1.0f;                          // rep for beam runs
    int beamNoRepeatNgram = 0;                               // nrng for beam runs
    // grammar=on|off (every kind): whether the comparison's constraint (CompareOptions::constraint)
    // applies to this run, so one comparison can show a run with and without it.
    bool constrained = true;
};

// Parses and validates a spec. Throws dlab::Error naming the spec and the problem: an unknown
// kind or key, a value that is not a number, or one out of range (the sampler's and beam
// search's own checks, e.g. a width not divisible by the groups).
RunSpec parseRunSpec(const std::string& spec);

// The canonical text of a spec: its kind and only the keys whose value differs from the kind's
// default, in a fixed order, numbers in their shortest exact form. parseRunSpec(runSpecText(s))
// gives back every field of s (but `text`); runSpecText of that gives the same string again.
std::string runSpecText(const RunSpec& spec);

// The beam search a beam spec stands for (width, length penalty, early stopping, groups,
// diversity penalty, repetition penalty, no-repeat-n-gram); maxNewTokens, endTokens, nBest and
// the recording options are left for the caller.
BeamOptions beamOptionsOf(const RunSpec& spec);

}  // namespace dlab
