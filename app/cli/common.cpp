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
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(path + ": cannot open the file");
    std::ostringstream ss;
    ss << in.rdbuf();
    if (in.bad()) throw Error(path + ": cannot read the file");
    return ss.str();
}

}  // namespace dlab::cli
