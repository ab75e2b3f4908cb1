#include "test_paths.h"

#include <QDir>
#include <QTemporaryDir>

#include <cstdlib>
#include <filesystem>
#include <memory>

namespace dlab::test {

std::string dataDir() { return DLAB_TEST_DATA_DIR; }
std::string sourceDir() { return DLAB_SOURCE_DIR; }
std::string cliPath() { return DLAB_CLI_PATH; }

std::string scratchDir() {
    static std::unique_ptr<QTemporaryDir> dir = std::make_unique<QTemporaryDir>();
    return dir->path().toStdString();
}

std::string defaultModelPath() {
    if (const char* env = std::getenv("DECODING_LAB_MODEL"); env && *env) return env;
    std::string base;
    if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg) base = xdg;
    else if (const char* home = std::getenv("HOME"); home && *home) base = std::string(home) + "/.local/share";
    const std::string path = base + "/decoding-lab/models/SmolLM2-135M-Instruct.Q4_1.gguf";
    return std::filesystem::exists(path) ? path : std::string();
}

}  // namespace dlab::test
