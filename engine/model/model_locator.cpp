#include "model/model_locator.h"

#include <cstdlib>
#include <filesystem>

#include "core/error.h"

namespace dlab {

std::string modelDirectory() {
    std::string base;
    if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg) base = xdg;
    else if (const char* home = std::getenv("HOME"); home && *home) base = std::string(home) + "/.local/share";
    else base = ".";
    return base + "/decoding-lab/models";
}

std::string resolveModelPath(const std::string& explicitPath) {
    if (!explicitPath.empty()) return explicitPath;
    if (const char* env = std::getenv("DECODING_LAB_MODEL"); env && *env) return env;
    const std::string path = modelDirectory() + "/" + kDefaultModelFile;
    if (!std::filesystem::exists(path))
        throw Error("no model given and the default model is not installed at " + path +
                    "; run ./scripts/setup.sh or pass --model PATH");
    return path;
}

}  // namespace dlab
