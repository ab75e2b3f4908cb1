#include "test_paths.h"

#include <QDir>
#include <QTemporaryDir>

#include <cstdlib>
#include <filesystem>
#include <memory>

#include "model/model_locator.h"

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
    const std::string path = modelDirectory() + "/" + kDefaultModelFile;
    return std::filesystem::exists(path) ? path : std::string();
}

}  // namespace dlab::test
