// decoding-lab-cli tokenize / detokenize.
#include <cerrno>
#include <cstdio>
#include <cstdlib>

#include "commands.h"
#include "core/error.h"
#include "gguf/gguf_file.h"
#include "tokenizer/tokenizer.h"

namespace dlab::cli {

int runTokenize(Args& args) {
    const std::string path = modelPathOption(args);
    const auto text = args.value("--text");
    const auto file = args.value("--file");
    const bool idsOnly = args.flag("--ids-only");
    const bool noBos = args.flag("--no-bos");
    const bool parseSpecial = args.flag("--parse-special");
    args.finish();
    if (text.has_value() == file.has_value()) throw Error("tokenize: give exactly one of --text T or --file F");

    const std::string input = text ? *text : readTextFile(*file);
    auto gguf = GgufFile::open(path);
    auto tok = Tokenizer::fromGguf(*gguf);
    const auto ids = tok->encode(input, !noBos && tok->addsBosByDefault(), parseSpecial);
    if (idsOnly) {
        std::string line;
        for (size_t i = 0; i < ids.size(); ++i) {
            if (i) line += ' ';  // not (i ? " " : "") + ...: GCC 12 warns (-Wrestrict) on that, falsely
            line += std::to_string(ids[i]);
        }
        std::printf("%s\n", line.c_str());
        return 0;
    }
    for (TokenId id : ids) {
        std::string piece = tok->tokenToPiece(id, true);
        std::string shown;
        for (unsigned char c : piece) {
            if (c == '\n') shown += "\\n";
            else if (c == '\t') shown += "\\t";
            else if (c < 0x20) { char b[8]; std::snprintf(b, sizeof b, "\\x%02x", c); shown += b; }
            else shown += static_cast<char>(c);
        }
        std::printf("%6d  '%s'\n", id, shown.c_str());
    }
    std::printf("%zu tokens\n", ids.size());
    return 0;
}

int runDetokenize(Args& args) {
    const std::string path = modelPathOption(args);
    const bool hideSpecial = args.flag("--no-special");
    const auto words = args.positionals();
    args.finish();
    if (words.empty()) throw Error("detokenize: give at least one token id");
    auto gguf = GgufFile::open(path);
    auto tok = Tokenizer::fromGguf(*gguf);
    std::vector<TokenId> ids;
    for (const auto& w : words) {
        errno = 0;
        char* end = nullptr;
        const long long v = std::strtoll(w.c_str(), &end, 10);
        if (w.empty() || *end != '\0' || errno == ERANGE) throw Error("detokenize: '" + w + "' is not a token id");
        if (v < 0 || v >= tok->vocabSize())
            throw Error("detokenize: token id " + w + " is outside the vocabulary (0.." + std::to_string(tok->vocabSize() - 1) + ")");
        ids.push_back(static_cast<TokenId>(v));
    }
    std::printf("%s\n", tok->decode(ids, !hideSpecial).c_str());
    return 0;
}

}  // namespace dlab::cli
