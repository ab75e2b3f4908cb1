#pragma once
// decoding-lab-cli sample: the sampler chain on logits from a JSON file, stage by stage.
// Also the sampler options shared with `generate`.
#include "args.h"
#include "sampling/sampler_params.h"

namespace dlab::cli {

int runSample(Args& args);

// Reads every sampler option (--temperature, --top-k, ..., --order) into `params` (not validated).
void readSamplerOptions(Args& args, SamplerParams& params);

// The sampler options, for help texts.
extern const char* const kSamplerOptionsHelp;

}  // namespace dlab::cli
