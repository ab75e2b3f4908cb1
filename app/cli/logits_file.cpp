#include "logits_file.h"

#include <cmath>
#include <cstdlib>
#include <limits>

#include "core/error.h"
#include "tokenizer/utf8.h"

namespace dlab::cli {

namespace {

// A small reader for exactly the JSON above; other keys are skipped whatever their value.
class Reader {
public:
    Reader(const std::string& text, const std::string& file) : s_(text), file_(file) {}

    [[noreturn]] void fail(const std::string& what) const {
        throw Error(file_ + ": " + what + " at byte " + std::to_string(pos_) +
                    " (expected {\"logits\": [numbers], \"tokens\": [strings], \"history\": [ids], \"prompt_length\": N})");
    }
    void ws() {
        while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\r' || s_[pos_] == '\t')) ++pos_;
    }
    char peek() {
        ws();
        return pos_ < s_.size() ? s_[pos_] : '\0';
    }
    void expect(char c) {
        if (peek() != c) fail(std::string("expected '") + c + "'");
        ++pos_;
    }
    bool atEnd() { return peek() == '\0'; }

    double number() {
        ws();
        for (const auto& [word, value] : {std::pair<const char*, double>{"NaN", std::nan("")},
                                          {"Infinity", std::numeric_limits<double>::infinity()},
                                          {"-Infinity", -std::numeric_limits<double>::infinity()}}) {
            const std::string w = word;
            if (s_.compare(pos_, w.size(), w) == 0) {
                pos_ += w.size();
                return value;
            }
        }
        const char* begin = s_.c_str() + pos_;
        char* end = nullptr;
        const double v = std::strtod(begin, &end);
        if (end == begin) fail("expected a number");
        pos_ += static_cast<size_t>(end - begin);
        return v;
    }

    std::string string() {
        expect('"');
        std::string out;
        while (pos_ < s_.size() && s_[pos_] != '"') {
            char c = s_[pos_++];
            if (c != '\\') {
                out += c;
                continue;
            }
            if (pos_ >= s_.size()) break;
            c = s_[pos_++];
            switch (c) {
                case 'n': out += '\n'; break;
                case 't': out += '\t'; break;
                case 'r': out += '\r'; break;
                case 'b': out += '\b'; break;
                case 'f': out += '\f'; break;
                case 'u': {
                    if (pos_ + 4 > s_.size()) fail("bad \\u escape");
                    unsigned cp = static_cast<unsigned>(std::strtoul(s_.substr(pos_, 4).c_str(), nullptr, 16));
                    pos_ += 4;
                    if (cp >= 0xD800 && cp <= 0xDBFF && s_.compare(pos_, 2, "\\u") == 0) {
                        const unsigned lo = static_cast<unsigned>(std::strtoul(s_.substr(pos_ + 2, 4).c_str(), nullptr, 16));
                        pos_ += 6;
                        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                    }
                    utf8::append(out, static_cast<char32_t>(cp));
                    break;
                }
                default: out += c;  // \" \\ \/
            }
        }
        expect('"');
        return out;
    }

    template <typename F>
    void array(F element) {
        expect('[');
        if (peek() == ']') { ++pos_; return; }
        for (;;) {
            element();
            if (peek() == ',') { ++pos_; continue; }
            expect(']');
            return;
        }
    }

    void skipValue() {
        const char c = peek();
        if (c == '"') string();
        else if (c == '[') array([&] { skipValue(); });
        else if (c == '{') {
            ++pos_;
            if (peek() == '}') { ++pos_; return; }
            for (;;) {
                string();
                expect(':');
                skipValue();
                if (peek() == ',') { ++pos_; continue; }
                expect('}');
                return;
            }
        } else if (s_.compare(pos_, 4, "true") == 0 || s_.compare(pos_, 4, "null") == 0) pos_ += 4;
        else if (s_.compare(pos_, 5, "false") == 0) pos_ += 5;
        else number();
    }

    size_t pos() const { return pos_; }

private:
    const std::string& s_;
    const std::string& file_;
    size_t pos_ = 0;
};

}  // namespace

LogitsFile parseLogitsJson(const std::string& text, const std::string& fileName) {
    Reader r(text, fileName);
    LogitsFile f;
    bool haveLogits = false;
    auto readLogits = [&] {
        haveLogits = true;
        r.array([&] { f.logits.push_back(static_cast<float>(r.number())); });
    };
    if (r.peek() == '[') {
        readLogits();
    } else {
        r.expect('{');
        if (r.peek() != '}') {
            for (;;) {
                const std::string key = r.string();
                r.expect(':');
                if (key == "logits") readLogits();
                else if (key == "tokens") r.array([&] { f.tokens.push_back(r.string()); });
                else if (key == "history")
                    r.array([&] {
                        const double v = r.number();
                        if (!(v >= 0 && v == std::floor(v) && v < 2147483647.0)) r.fail("\"history\" holds token ids (whole numbers, 0 or more)");
                        f.history.push_back(static_cast<TokenId>(v));
                    });
                else if (key == "prompt_length") {
                    const double v = r.number();
                    if (!(v >= 0 && v == std::floor(v))) r.fail("\"prompt_length\" must be a whole number, 0 or more");
                    f.promptLength = static_cast<size_t>(v);
                } else r.skipValue();
                if (r.peek() == ',') { r.expect(','); continue; }
                r.expect('}');
                break;
            }
        } else {
            r.expect('}');
        }
    }
    if (!r.atEnd()) r.fail("unexpected text after the JSON value");
    if (!haveLogits || f.logits.empty()) throw Error(fileName + ": no logits found; give {\"logits\": [numbers...]} with at least one number");
    if (!f.tokens.empty() && f.tokens.size() != f.logits.size())
        throw Error(fileName + ": \"tokens\" has " + std::to_string(f.tokens.size()) + " entries but \"logits\" has " +
                    std::to_string(f.logits.size()) + "; give one token text per logit");
    for (TokenId id : f.history)
        if (static_cast<size_t>(id) >= f.logits.size())
            throw Error(fileName + ": \"history\" has the token id " + std::to_string(id) + ", outside the vocabulary (0.." +
                        std::to_string(f.logits.size() - 1) + ")");
    if (f.promptLength > f.history.size())
        throw Error(fileName + ": \"prompt_length\" is " + std::to_string(f.promptLength) + " but \"history\" has only " +
                    std::to_string(f.history.size()) + " tokens");
    return f;
}

}  // namespace dlab::cli
