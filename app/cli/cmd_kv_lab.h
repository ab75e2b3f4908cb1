#pragma once
// The KV explorer's measurements on the command line (the app's KV page runs the same engine code):
//   kv-growth  per-step time with the cache, with the cache and the attention-weight request, and
//              without the cache (recompute every prefix), per step or at chosen positions;
//   kv-dtypes  KL divergence of f16 / q8_0 caches from an f32 cache on the same greedy text;
//   kv-evict   perplexity and KL of sink + window eviction against plain window eviction.
#include "args.h"

namespace dlab::cli {

int runKvGrowth(Args& args);
int runKvDtypes(Args& args);
int runKvEvict(Args& args);

}  // namespace dlab::cli
