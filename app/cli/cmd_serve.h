#pragma once
// The serving issue's commands:
//   serve        an OpenAI-compatible HTTP server on the loaded model (engine/server/)
//   serve-bench  the serving lab's experiments, headless, JSON out (engine/serve/serve_experiments)
#include "args.h"

namespace dlab::cli {

int runServe(Args& args);
int runServeBench(Args& args);

}  // namespace dlab::cli
