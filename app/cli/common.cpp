#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "commands.h"
#include "core/error.h"
#include "model/model_locator.h"

namespace dlab::cli {

std::string modelPathOption(Args& args) { return resolveModelPath(args.value("--model", "")); }

int threadsOption(Args& args) {
    const int hw = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    return static_cast<int>(args.integer("--threads", std::min(hw, 8), 1, 256));
}

std::string readTextFile(const std::string& path) {
    // On Linux a directory opens as a stream that reads as empty: it would pass for an empty text.
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) throw Error(path + " is a directory, not a text file");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(path + ": cannot open the file");
    std::ostringstream ss;
    ss << in.rdbuf();
    if (in.bad()) throw Error(path + ": cannot read the file");
    return ss.str();
}

void checkPromptFitsContext(const std::string& command, size_t promptTokens, int64_t nCtx, bool ctxGiven, int64_t newTokens) {
    const int64_t needed = static_cast<int64_t>(promptTokens) + newTokens;
    if (needed <= nCtx) return;
    const std::string what = ctxGiven ? "--ctx " + std::to_string(nCtx) : "the default context (" + std::to_string(nCtx) + " positions)";
    throw Error(command + ": " + what + " is too small for the prompt (" + std::to_string(promptTokens) + " tokens) and " +
                std::to_string(newTokens) + (newTokens == 1 ? " new token" : " new tokens") + "; use --ctx " +
                std::to_string(needed) + " or more, " + (newTokens > 1 ? "a shorter prompt or a smaller --max-tokens" : "or a shorter prompt"));
}

}  // namespace dlab::cli
