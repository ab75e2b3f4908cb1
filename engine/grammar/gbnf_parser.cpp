#include "grammar/gbnf_parser.h"

#include <algorithm>
#include <map>

#include "core/error.h"

namespace dlab {
namespace {

constexpr int kMaxNesting = 128;
constexpr int kMaxRepetition = 10000;
constexpr size_t kMaxElements = 1'000'000;
constexpr size_t kMaxText = 16u << 20;

bool isNameChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
}

class Parser {
public:
    Parser(std::string_view text, const std::string& source) : s_(text), source_(source) {}

    CharGrammar run() {
        if (s_.size() > kMaxText) fail(0, "the grammar is larger than 16 MB");
        skipSpace(true);
        while (pos_ < s_.size()) {
            parseRule();
            skipSpace(true);
        }
        finish();
        return std::move(g_);
    }

private:
    std::string_view s_;
    const std::string& source_;
    size_t pos_ = 0;
    CharGrammar g_;
    std::map<std::string, int, std::less<>> byName_;
    size_t elements_ = 0;
    int depth_ = 0;
    bool nextRuleStarts_ = false;  // a sequence stopped at "name ::=" (after a '|' that ended its line)
    std::map<int, int> helperCount_;  // per user rule, helpers made so far

    [[noreturn]] void fail(size_t at, const std::string& what) const {
        int line = 1, col = 1;
        for (size_t i = 0; i < at && i < s_.size(); ++i) {
            if (s_[i] == '\n') { ++line; col = 1; }
            else if ((static_cast<unsigned char>(s_[i]) & 0xC0) != 0x80) ++col;
        }
        throw Error(source_ + ":" + std::to_string(line) + ":" + std::to_string(col) + ": " + what);
    }
    void position(size_t at, int& line, int& col) const {
        line = 1; col = 1;
        for (size_t i = 0; i < at && i < s_.size(); ++i) {
            if (s_[i] == '\n') { ++line; col = 1; }
            else if ((static_cast<unsigned char>(s_[i]) & 0xC0) != 0x80) ++col;
        }
    }

    bool atEnd() const { return pos_ >= s_.size(); }
    char peek(size_t ahead = 0) const { return pos_ + ahead < s_.size() ? s_[pos_ + ahead] : '\0'; }

    // Spaces, tabs and comments; newlines too when `newlines` (inside groups, after '|' or '::=').
    void skipSpace(bool newlines) {
        while (!atEnd()) {
            const char c = s_[pos_];
            if (c == ' ' || c == '\t' || c == '\r') ++pos_;
            else if (c == '#') { while (!atEnd() && s_[pos_] != '\n') ++pos_; }
            else if (c == '\n' && newlines) ++pos_;
            else if (c == '\\' && peek(1) == '\n') pos_ += 2;  // an escaped line end continues the rule
            else break;
        }
    }

    std::string_view parseName() {
        const size_t b = pos_;
        while (!atEnd() && isNameChar(s_[pos_])) ++pos_;
        return s_.substr(b, pos_ - b);
    }

    int ruleId(std::string_view name, size_t at) {
        auto it = byName_.find(name);
        if (it != byName_.end() && g_.rules[static_cast<size_t>(it->second)].helper) {
            // A helper made for a group took a name the grammar uses itself: the helper yields it.
            CharRule& h = g_.rules[static_cast<size_t>(it->second)];
            const int helperId = it->second;
            byName_.erase(it);
            while (byName_.count(h.name) || h.name == name) h.name += "_";
            byName_.emplace(h.name, helperId);
            it = byName_.end();
        }
        if (it != byName_.end()) return it->second;
        CharRule r;
        r.name = std::string(name);
        position(at, r.usedLine, r.usedColumn);
        g_.rules.push_back(std::move(r));
        const int id = static_cast<int>(g_.rules.size()) - 1;
        byName_.emplace(std::string(name), id);
        return id;
    }

    int helperRule(int owner) {
        CharRule r;
        const int n = ++helperCount_[owner];
        r.name = g_.rules[static_cast<size_t>(owner)].name + "-" + std::to_string(n);
        while (byName_.count(r.name)) r.name += "_";
        r.helper = true;
        r.defined = true;
        g_.rules.push_back(std::move(r));
        const int id = static_cast<int>(g_.rules.size()) - 1;
        byName_.emplace(g_.rules.back().name, id);
        return id;
    }

    void count(size_t n, size_t at) {
        elements_ += n;
        if (elements_ > kMaxElements)
            fail(at, "the grammar expands to more than a million elements (large repetition counts multiply); "
                     "simplify it or lower the counts");
    }

    void parseRule() {
        const size_t start = pos_;
        const std::string_view name = parseName();
        if (name.empty()) {
            const unsigned char c = static_cast<unsigned char>(peek());
            fail(start, c >= 0x20 && c < 0x7f ? std::string("expected a rule name, found '") + static_cast<char>(c) + "'"
                                              : "expected a rule name");
        }
        const int id = ruleId(name, start);
        CharRule& r = g_.rules[static_cast<size_t>(id)];
        if (r.defined) {
            fail(start, "rule '" + std::string(name) + "' is defined twice (first on line " + std::to_string(r.line) + ")");
        }
        r.defined = true;
        position(start, r.line, r.column);
        skipSpace(false);
        if (s_.substr(pos_, 3) != "::=") fail(pos_, "expected '::=' after the rule name '" + std::string(name) + "'");
        pos_ += 3;
        skipSpace(true);
        nextRuleStarts_ = false;
        auto alts = parseAlternatives(id, false);
        g_.rules[static_cast<size_t>(id)].alternatives = std::move(alts);
        if (!atEnd() && peek() != '\n' && !nextRuleStarts_) {
            if (peek() == ')') fail(pos_, "unmatched ')' in rule '" + std::string(name) + "'");
            fail(pos_, "unexpected '" + std::string(1, peek()) + "' in rule '" + std::string(name) + "'");
        }
    }

    std::vector<CharSequence> parseAlternatives(int owner, bool nested) {
        std::vector<CharSequence> alts;
        alts.push_back(parseSequence(owner, nested));
        while (true) {
            if (!nested && peek() == '\n') {  // an alternative may also start a new line with '|'
                const size_t save = pos_;
                skipSpace(true);
                if (peek() != '|') { pos_ = save; break; }
            }
            if (peek() != '|') break;
            ++pos_;
            skipSpace(true);
            alts.push_back(parseSequence(owner, nested));
        }
        return alts;
    }

    // One code point of a literal or class, escapes decoded.
    uint32_t parseChar(size_t& at) {
        at = pos_;
        const unsigned char c = static_cast<unsigned char>(s_[pos_]);
        if (c == '\\') {
            if (pos_ + 1 >= s_.size()) fail(pos_, "the grammar ends inside an escape");
            const char e = s_[pos_ + 1];
            pos_ += 2;
            switch (e) {
                case 'n': return '\n';
                case 'r': return '\r';
                case 't': return '\t';
                case '0': return 0;
                case 'x': return parseHex(2, at);
                case 'u': return parseHex(4, at);
                case 'U': return parseHex(8, at);
                default:
                    if (static_cast<unsigned char>(e) >= 0x20 && static_cast<unsigned char>(e) < 0x7f && !isNameChar(e))
                        return static_cast<uint32_t>(e);  // \" \\ \[ \] \- \^ \. ...
                    fail(at, std::string("unknown escape '\\") + e + "' (use \\n \\r \\t \\\\ \\\" \\xHH \\uHHHH \\UHHHHHHHH)");
            }
        }
        // Decode one UTF-8 code point of the grammar text itself.
        int n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
        if (n == 0 || pos_ + static_cast<size_t>(n) > s_.size()) fail(pos_, "the grammar is not valid UTF-8 here");
        uint32_t cp = n == 1 ? c : n == 2 ? (c & 0x1F) : n == 3 ? (c & 0x0F) : (c & 0x07);
        for (int i = 1; i < n; ++i) {
            const unsigned char d = static_cast<unsigned char>(s_[pos_ + static_cast<size_t>(i)]);
            if ((d & 0xC0) != 0x80) fail(pos_, "the grammar is not valid UTF-8 here");
            cp = (cp << 6) | (d & 0x3F);
        }
        pos_ += static_cast<size_t>(n);
        return cp;
    }

    uint32_t parseHex(int digits, size_t at) {
        uint32_t v = 0;
        for (int i = 0; i < digits; ++i) {
            const char h = peek();
            int d = (h >= '0' && h <= '9') ? h - '0' : (h >= 'a' && h <= 'f') ? h - 'a' + 10 : (h >= 'A' && h <= 'F') ? h - 'A' + 10 : -1;
            if (d < 0) fail(at, "expected " + std::to_string(digits) + " hex digits after this escape");
            v = v * 16 + static_cast<uint32_t>(d);
            ++pos_;
        }
        if (v > kMaxCodepoint) fail(at, "code point beyond U+10FFFF");
        return v;
    }

    CharElement single(uint32_t cp) {
        CharElement e;
        e.ranges.push_back({cp, cp});
        return e;
    }

    CharSequence parseSequence(int owner, bool nested) {
        CharSequence seq;
        size_t lastStart = std::string::npos;  // where the last operand begins in seq
        while (!atEnd()) {
            const size_t at = pos_;
            const char c = peek();
            if (c == '"') {
                ++pos_;
                lastStart = seq.size();
                while (true) {
                    if (atEnd() || peek() == '\n') fail(at, "this string literal is not closed");
                    if (peek() == '"') { ++pos_; break; }
                    size_t cat;
                    seq.push_back(single(parseChar(cat)));
                    count(1, at);
                }
                if (seq.size() == lastStart) lastStart = std::string::npos;  // "" adds nothing to repeat
            } else if (c == '[') {
                ++pos_;
                bool negate = false;
                if (peek() == '^') { negate = true; ++pos_; }
                std::vector<CodepointRange> ranges;
                while (true) {
                    if (atEnd() || peek() == '\n') fail(at, "this character class is not closed with ']'");
                    if (peek() == ']') { ++pos_; break; }
                    size_t cat;
                    const uint32_t lo = parseChar(cat);
                    uint32_t hi = lo;
                    if (peek() == '-' && peek(1) != ']' && pos_ + 1 < s_.size()) {
                        ++pos_;
                        size_t hat;
                        hi = parseChar(hat);
                        if (hi < lo) fail(cat, "the range in this character class runs backwards");
                    }
                    ranges.push_back({lo, hi});
                }
                CharElement e;
                e.ranges = normalizeRanges(std::move(ranges), negate);
                lastStart = seq.size();
                seq.push_back(std::move(e));
                count(1, at);
            } else if (c == '.') {
                ++pos_;
                CharElement e;
                e.ranges.push_back({0, kMaxCodepoint});
                lastStart = seq.size();
                seq.push_back(std::move(e));
                count(1, at);
            } else if (isNameChar(c)) {
                const std::string_view name = parseName();
                size_t save = pos_;
                skipSpace(false);
                if (s_.substr(pos_, 3) == "::=") {
                    if (nested) fail(at, "a group is not closed before rule '" + std::string(name) + "' begins");
                    pos_ = at;  // the next rule begins: this sequence ended at the line break
                    nextRuleStarts_ = true;
                    return seq;
                }
                pos_ = save;
                CharElement e;
                e.kind = CharElement::Kind::Rule;
                e.rule = ruleId(name, at);
                lastStart = seq.size();
                seq.push_back(std::move(e));
                count(1, at);
            } else if (c == '(') {
                ++pos_;
                if (++depth_ > kMaxNesting) fail(at, "groups are nested more than 128 deep");
                skipSpace(true);
                const int sub = helperRule(owner);
                auto alts = parseAlternatives(owner, true);
                g_.rules[static_cast<size_t>(sub)].alternatives = std::move(alts);
                if (peek() != ')') fail(at, "this group is not closed with ')'");
                ++pos_;
                --depth_;
                CharElement e;
                e.kind = CharElement::Kind::Rule;
                e.rule = sub;
                lastStart = seq.size();
                seq.push_back(std::move(e));
                count(1, at);
            } else if (c == '*' || c == '+' || c == '?' || c == '{') {
                if (lastStart == std::string::npos)
                    fail(at, std::string("'") + c + "' must follow something to repeat");
                int lo = 0, hi = -1;  // hi -1 = unbounded
                ++pos_;
                if (c == '+') lo = 1;
                else if (c == '?') hi = 1;
                else if (c == '{') parseBraces(at, lo, hi);
                repeat(owner, seq, lastStart, lo, hi, at);
                lastStart = std::string::npos;
            } else if (c == '<') {
                fail(at, "token references such as <|name|> or <[id]> are not supported; write the token's text as a literal");
            } else {
                break;
            }
            skipSpace(nested);
        }
        return seq;
    }

    int parseInt(size_t at) {
        const size_t b = pos_;
        long v = 0;
        while (peek() >= '0' && peek() <= '9') {
            v = v * 10 + (peek() - '0');
            if (v > kMaxRepetition) fail(at, "repetition counts above 10000 are not supported");
            ++pos_;
        }
        return pos_ == b ? -1 : static_cast<int>(v);
    }

    void parseBraces(size_t at, int& lo, int& hi) {
        skipSpace(false);
        const int a = parseInt(at);
        skipSpace(false);
        if (peek() == '}') {
            if (a < 0) fail(at, "expected a number in {}");
            ++pos_;
            lo = hi = a;
            return;
        }
        if (peek() != ',') fail(at, "expected ',' or '}' in the repetition {m,n}");
        ++pos_;
        skipSpace(false);
        const int b = parseInt(at);
        skipSpace(false);
        if (peek() != '}') fail(at, "expected '}' to close the repetition {m,n}");
        ++pos_;
        lo = a < 0 ? 0 : a;
        hi = b;  // -1: {m,}
        if (hi >= 0 && hi < lo) fail(at, "the repetition {" + std::to_string(lo) + "," + std::to_string(hi) + "} has its maximum below its minimum");
    }

    // Replaces seq[start..] (the operand) by lo copies, then (hi - lo) nested optionals or a star.
    void repeat(int owner, CharSequence& seq, size_t start, int lo, int hi, size_t at) {
        CharElement operand;
        if (seq.size() - start == 1) {
            operand = seq[start];
        } else {
            const int r = helperRule(owner);
            g_.rules[static_cast<size_t>(r)].alternatives = {CharSequence(seq.begin() + static_cast<long>(start), seq.end())};
            operand.kind = CharElement::Kind::Rule;
            operand.rule = r;
        }
        seq.resize(start);
        const size_t extra = static_cast<size_t>(lo) + (hi < 0 ? 2 : static_cast<size_t>(hi - lo) * 2);
        count(extra, at);
        for (int i = 0; i < lo; ++i) seq.push_back(operand);
        CharElement ref;
        ref.kind = CharElement::Kind::Rule;
        if (hi < 0) {  // star ::= operand star |
            const int r = helperRule(owner);
            ref.rule = r;
            g_.rules[static_cast<size_t>(r)].alternatives = {{operand, ref}, {}};
            seq.push_back(ref);
            return;
        }
        // opt_k ::= operand opt_{k-1} | ; built inside out.
        int inner = -1;
        for (int i = 0; i < hi - lo; ++i) {
            const int r = helperRule(owner);
            CharSequence first{operand};
            if (inner >= 0) {
                CharElement in;
                in.kind = CharElement::Kind::Rule;
                in.rule = inner;
                first.push_back(in);
            }
            g_.rules[static_cast<size_t>(r)].alternatives = {first, {}};
            inner = r;
        }
        if (inner >= 0) {
            ref.rule = inner;
            seq.push_back(ref);
        }
    }

    void finish() {
        for (const CharRule& r : g_.rules) {
            if (!r.defined)
                throw Error(source_ + ":" + std::to_string(r.usedLine) + ":" + std::to_string(r.usedColumn) + ": rule '" +
                            r.name + "' is used but never defined");
        }
        auto it = byName_.find("root");
        if (it == byName_.end() || g_.rules[static_cast<size_t>(it->second)].helper)
            throw Error(source_ + ": the grammar has no 'root' rule (generation starts at root ::= ...)");
        g_.root = it->second;
    }
};

}  // namespace

CharGrammar parseGbnf(std::string_view text, const std::string& sourceName) {
    return Parser(text, sourceName).run();
}

std::vector<CodepointRange> normalizeRanges(std::vector<CodepointRange> ranges, bool negate) {
    std::sort(ranges.begin(), ranges.end(), [](const CodepointRange& a, const CodepointRange& b) { return a.lo < b.lo; });
    std::vector<CodepointRange> merged;
    for (const auto& r : ranges) {
        if (!merged.empty() && r.lo <= merged.back().hi + 1) merged.back().hi = std::max(merged.back().hi, r.hi);
        else merged.push_back(r);
    }
    if (!negate) return merged;
    std::vector<CodepointRange> out;
    uint32_t next = 0;
    for (const auto& r : merged) {
        if (r.lo > next) out.push_back({next, r.lo - 1});
        next = r.hi + 1;
    }
    if (next <= kMaxCodepoint) out.push_back({next, kMaxCodepoint});
    return out;
}

}  // namespace dlab
