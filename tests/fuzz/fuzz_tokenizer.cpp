// libFuzzer target: the byte-level BPE tokenizer of tests/data/tokenizer/ggml-vocab-starcoder.gguf
// (loaded once; DLAB_FUZZ_VOCAB overrides the path). For every input:
//   - invalid UTF-8 may only end in a dlab::Error;
//   - valid UTF-8 must encode (with and without special-token parsing) to in-range ids, and
//     decode(encode(x)) == x, also when the ids are streamed through StreamingDetokenizer.
// The round trip is only owed when every byte of x has its own token: byte-level vocabularies
// may lack some (starcoder has none for 0xF1, a lead byte of planes 4-7), and then llama.cpp,
// which we match, drops the byte.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "gguf/gguf_file.h"
#include "tokenizer/tokenizer.h"

using namespace dlab;

namespace {

std::unique_ptr<GgufFile> gFile;
std::unique_ptr<Tokenizer> gTok;
bool gByteHasToken[256] = {};

[[noreturn]] void failure(const std::string& what, std::string_view input) {
    std::fprintf(stderr, "fuzz_tokenizer: %s (input of %zu bytes)\n", what.c_str(), input.size());
    std::abort();
}

// Strict UTF-8 (RFC 3629): no overlong forms, no surrogates, nothing above U+10FFFF.
bool isValidUtf8(std::string_view s) {
    size_t i = 0;
    while (i < s.size()) {
        const auto c = static_cast<unsigned char>(s[i]);
        size_t n;
        uint32_t cp;
        if (c < 0x80) { ++i; continue; }
        if (c >= 0xC2 && c <= 0xDF) { n = 1; cp = c & 0x1F; }
        else if (c >= 0xE0 && c <= 0xEF) { n = 2; cp = c & 0x0F; }
        else if (c >= 0xF0 && c <= 0xF4) { n = 3; cp = c & 0x07; }
        else return false;
        if (i + n >= s.size()) return false;
        for (size_t k = 1; k <= n; ++k) {
            const auto d = static_cast<unsigned char>(s[i + k]);
            if ((d & 0xC0) != 0x80) return false;
            cp = (cp << 6) | (d & 0x3F);
        }
        if ((n == 2 && cp < 0x800) || (n == 3 && (cp < 0x10000 || cp > 0x10FFFF)) || (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        i += n + 1;
    }
    return true;
}

void checkRoundTrip(std::string_view text, bool parseSpecial) {
    std::vector<TokenId> ids;
    try {
        ids = gTok->encode(text, /*addBos=*/false, parseSpecial);
    } catch (const Error& e) {
        failure(std::string("valid UTF-8 was refused: ") + e.what(), text);
    }
    for (TokenId id : ids)
        if (id < 0 || id >= gTok->vocabSize()) failure("token id " + std::to_string(id) + " is out of range", text);
    // Special tokens parsed from the text must render back to that text.
    const std::string back = gTok->decode(ids, /*renderSpecial=*/parseSpecial);
    if (back != text) failure(std::string("decode(encode(x)) != x with parseSpecial ") + (parseSpecial ? "on" : "off"), text);

    StreamingDetokenizer stream(*gTok, parseSpecial);
    std::string streamed;
    for (TokenId id : ids) streamed += stream.push(id);
    streamed += stream.flush();
    if (streamed != text) failure("streamed detokenization differs from the text", text);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    const char* env = std::getenv("DLAB_FUZZ_VOCAB");
    const std::string path = env && *env ? env : DLAB_FUZZ_VOCAB;
    try {
        gFile = GgufFile::open(path);
        gTok = Tokenizer::fromGguf(*gFile);
        for (TokenId id = 0; id < gTok->vocabSize(); ++id) {
            const std::string piece = gTok->tokenToPiece(id);
            if (piece.size() == 1) gByteHasToken[static_cast<unsigned char>(piece[0])] = true;
        }
        int missing = 0;
        for (bool has : gByteHasToken) missing += has ? 0 : 1;
        std::fprintf(stderr, "fuzz_tokenizer: %s: %d tokens, %d of 256 bytes without a token\n", path.c_str(),
                     gTok->vocabSize(), missing);
    } catch (const Error& e) {
        std::fprintf(stderr, "fuzz_tokenizer: cannot load the vocabulary: %s\n", e.what());
        std::exit(1);
    }
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    if (!isValidUtf8(text)) {
        for (bool special : {false, true}) {
            try {
                gTok->encode(text, false, special);
            } catch (const Error&) {
            }
        }
        return 0;
    }
    bool spellable = true;
    for (unsigned char c : text) spellable = spellable && gByteHasToken[c];
    if (!spellable) {
        for (bool special : {false, true}) gTok->encode(text, false, special);  // must still not fail
        return 0;
    }
    checkRoundTrip(text, false);
    checkRoundTrip(text, true);
    const auto withBos = gTok->encode(text, /*addBos=*/true, false);
    if (gTok->bos() >= 0 && (withBos.empty() || withBos.front() != gTok->bos())) failure("addBos did not add BOS first", text);
    return 0;
}
