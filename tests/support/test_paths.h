#pragma once
// Where test suites find their data, the CLI binary and the installed default model.
#include <string>

namespace dlab::test {

std::string dataDir();             // tests/data in the source tree
std::string sourceDir();           // repository root
std::string cliPath();             // built decoding-lab-cli
std::string scratchDir();          // a per-process temporary directory, created on first use
// The default model (DECODING_LAB_MODEL, else the set-up location); empty if it is not installed.
std::string defaultModelPath();

}  // namespace dlab::test
