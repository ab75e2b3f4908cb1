#include "model/published_name.h"

#include <filesystem>
#include <regex>

namespace dlab {

std::string publishedModelName(const std::string& path) {
    std::string name = std::filesystem::path(path).filename().string();
    static const std::regex gguf(R"(\.gguf$)", std::regex::icase);
    name = std::regex_replace(name, gguf, "");
    // ggml's type labels as they appear in published file names: Q4_1, Q4_K_M, IQ3_XXS, F16, BF16 …
    static const std::regex quant(R"([.\-_](?:I?Q[0-9]+(?:_[0-9A-Z]+)*|F16|F32|BF16)$)", std::regex::icase);
    const std::string stripped = std::regex_replace(name, quant, "");
    return stripped.empty() ? name : stripped;
}

}  // namespace dlab
