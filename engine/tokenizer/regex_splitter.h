#pragma once
// Splits text with a sequence of regexes, the way llama.cpp's unicode_regex_split does:
// every regex splits each current piece into its matches and the gaps between them (both kept),
// and the next regex only ever sees one piece at a time, so a lookahead such as \s+(?!\S)
// treats the end of a piece as the end of the text.
//
// Patterns are PCRE2 (UTF + UCP). Before compiling, a few classes are pinned to llama.cpp's
// meaning rather than PCRE2's: \s is exactly llama.cpp's whitespace set, \d is ASCII 0-9,
// \p{Lu}/\p{Ll}/\p{Lt}/\p{Lm}/\p{Lo} mean any letter (llama.cpp collapses them into \p{L}),
// and a character class spelled with non-ASCII ranges never matches non-ASCII whitespace
// (llama.cpp rewrites such whitespace to \v before running std::wregex).
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace dlab {

class RegexSplitter {
public:
    // Throws dlab::Error naming the pattern if PCRE2 rejects it.
    explicit RegexSplitter(const std::vector<std::string>& patterns);
    ~RegexSplitter();
    RegexSplitter(const RegexSplitter&) = delete;
    RegexSplitter& operator=(const RegexSplitter&) = delete;

    // Consecutive non-empty pieces that together are exactly text (which must be valid UTF-8).
    std::vector<std::string_view> split(std::string_view text) const;

    // The pattern as compiled (after the rewrites above); exposed for tests.
    static std::string rewritePattern(const std::string& pattern);

private:
    struct Compiled;
    std::vector<std::unique_ptr<Compiled>> regexes_;
};

}  // namespace dlab
