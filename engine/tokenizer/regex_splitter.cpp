#include "tokenizer/regex_splitter.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "core/error.h"
#include "tokenizer/utf8.h"

namespace dlab {
namespace {

// llama.cpp's whitespace (unicode_set_whitespace), as the inside of a character class.
constexpr const char* kAsciiSpace = R"(\t\n\x0B\f\r )";
constexpr const char* kWideSpace = R"(\x{85}\x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000})";

std::string spaceSet() { return std::string(kAsciiSpace) + kWideSpace; }

// Length of the escape starting at p[i] == '\\' (\p{..}, \x{..} or a plain two-char escape).
size_t escapeLength(const std::string& p, size_t i) {
    if (i + 1 >= p.size()) return 1;
    const char c = p[i + 1];
    if ((c == 'p' || c == 'P' || c == 'x') && i + 2 < p.size() && p[i + 2] == '{') {
        const size_t close = p.find('}', i + 3);
        if (close != std::string::npos) return close - i + 1;
    }
    return 2;
}

// Rewrites one escape; inClass says whether it sits inside [...].
std::string bracketed(const char* open, const std::string& body) {
    std::string s(open);
    s += body;
    s += ']';
    return s;
}

std::string rewriteEscape(const std::string& esc, bool inClass) {
    if (esc == "\\s") return inClass ? spaceSet() : bracketed("[", spaceSet());
    if (esc == "\\S" && !inClass) return bracketed("[^", spaceSet());
    if (esc == "\\d") return inClass ? "0-9" : "[0-9]";
    if (esc == "\\D" && !inClass) return "[^0-9]";
    if (esc == "\\p{Lu}" || esc == "\\p{Ll}" || esc == "\\p{Lt}" || esc == "\\p{Lm}" || esc == "\\p{Lo}") return "\\p{L}";
    return esc;
}

// Rewrites a whole character class p[start..end] (inclusive brackets).
std::string rewriteClass(const std::string& p, size_t start, size_t end) {
    std::string body;
    bool wide = false;
    for (size_t i = start + 1; i < end;) {
        if (p[i] == '\\') {
            const size_t n = escapeLength(p, i);
            body += rewriteEscape(p.substr(i, n), true);
            i += n;
            continue;
        }
        if (static_cast<uint8_t>(p[i]) >= 0x80) wide = true;
        body += p[i++];
    }
    const std::string cls = bracketed("[", body);
    const bool negated = !body.empty() && body[0] == '^';
    if (!wide || negated) return cls;
    std::string guarded = "(?:(?![";
    guarded += kWideSpace;
    guarded += "])";
    guarded += cls;
    guarded += ')';
    return guarded;
}

struct MatchState {
    pcre2_match_data* data = nullptr;
    pcre2_match_context* context = nullptr;
    pcre2_jit_stack* jitStack = nullptr;

    MatchState() {
        data = pcre2_match_data_create(1, nullptr);
        context = pcre2_match_context_create(nullptr);
        jitStack = pcre2_jit_stack_create(32 * 1024, 4 * 1024 * 1024, nullptr);
        if (context && jitStack) pcre2_jit_stack_assign(context, nullptr, jitStack);
    }
    ~MatchState() {
        pcre2_jit_stack_free(jitStack);
        pcre2_match_context_free(context);
        pcre2_match_data_free(data);
    }
};

// One per thread: the JIT stack and match data may not be shared between threads.
MatchState& matchState() {
    thread_local MatchState state;
    return state;
}

}  // namespace

struct RegexSplitter::Compiled {
    std::string pattern;
    pcre2_code* code = nullptr;
    ~Compiled() { pcre2_code_free(code); }
};

std::string RegexSplitter::rewritePattern(const std::string& p) {
    std::string out;
    for (size_t i = 0; i < p.size();) {
        if (p[i] == '\\') {
            const size_t n = escapeLength(p, i);
            out += rewriteEscape(p.substr(i, n), false);
            i += n;
            continue;
        }
        if (p[i] == '[') {
            size_t j = i + 1;
            if (j < p.size() && p[j] == '^') ++j;
            if (j < p.size() && p[j] == ']') ++j;  // a leading ']' is literal
            while (j < p.size() && p[j] != ']') j += p[j] == '\\' ? escapeLength(p, j) : 1;
            if (j >= p.size()) return p;  // unbalanced: let PCRE2 report it
            out += rewriteClass(p, i, j);
            i = j + 1;
            continue;
        }
        out += p[i++];
    }
    return out;
}

RegexSplitter::RegexSplitter(const std::vector<std::string>& patterns) {
    for (const std::string& pattern : patterns) {
        auto c = std::make_unique<Compiled>();
        c->pattern = pattern;
        const std::string rewritten = rewritePattern(pattern);
        int err = 0;
        PCRE2_SIZE errOffset = 0;
        c->code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(rewritten.data()), rewritten.size(),
                                PCRE2_UTF | PCRE2_UCP | PCRE2_DOLLAR_ENDONLY, &err, &errOffset, nullptr);
        if (!c->code) {
            PCRE2_UCHAR msg[256];
            pcre2_get_error_message(err, msg, sizeof msg);
            throw Error("pre-tokenizer regex '" + pattern + "' does not compile (" +
                        reinterpret_cast<const char*>(msg) + " at offset " + std::to_string(errOffset) + ")");
        }
        pcre2_jit_compile(c->code, PCRE2_JIT_COMPLETE);  // falls back to the interpreter if unavailable
        regexes_.push_back(std::move(c));
    }
}

RegexSplitter::~RegexSplitter() = default;

std::vector<std::string_view> RegexSplitter::split(std::string_view text) const {
    std::vector<std::string_view> pieces;
    if (text.empty()) return pieces;
    pieces.push_back(text);

    MatchState& ms = matchState();
    std::vector<std::string_view> next;
    std::vector<size_t> cuts;
    for (const auto& re : regexes_) {
        next.clear();
        next.reserve(pieces.size() * 2);
        for (std::string_view piece : pieces) {
            const auto* subject = reinterpret_cast<PCRE2_SPTR>(piece.data());
            const size_t len = piece.size();
            cuts.clear();
            cuts.push_back(0);
            size_t offset = 0;
            uint32_t options = 0;
            while (offset <= len) {
                int rc = pcre2_match(re->code, subject, len, offset, options | PCRE2_NO_UTF_CHECK, ms.data, ms.context);
                if (rc == PCRE2_ERROR_JIT_STACKLIMIT)
                    rc = pcre2_match(re->code, subject, len, offset, options | PCRE2_NO_UTF_CHECK | PCRE2_NO_JIT,
                                     ms.data, ms.context);
                if (rc == PCRE2_ERROR_NOMATCH) {
                    if (options == 0 || offset >= len) break;
                    // An empty match here and no longer one: move on by one character.
                    const size_t n = utf8::validSequenceLength(piece, offset);
                    offset += n > 0 ? n : 1;
                    options = 0;
                    continue;
                }
                if (rc < 0) {
                    PCRE2_UCHAR msg[256];
                    pcre2_get_error_message(rc, msg, sizeof msg);
                    throw Error("pre-tokenizer regex '" + re->pattern + "' failed to match (" +
                                reinterpret_cast<const char*>(msg) + ")");
                }
                const PCRE2_SIZE* ov = pcre2_get_ovector_pointer(ms.data);
                const size_t start = ov[0], end = ov[1];
                if (start != cuts.back()) cuts.push_back(start);
                if (end != cuts.back()) cuts.push_back(end);
                // After an empty match, first try for a non-empty one at the same place.
                options = start == end ? (PCRE2_NOTEMPTY_ATSTART | PCRE2_ANCHORED) : 0;
                offset = end;
            }
            if (cuts.back() != len) cuts.push_back(len);
            for (size_t k = 1; k < cuts.size(); ++k) next.push_back(piece.substr(cuts[k - 1], cuts[k] - cuts[k - 1]));
        }
        pieces.swap(next);
    }
    return pieces;
}

}  // namespace dlab
