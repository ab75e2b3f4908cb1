#include "grammar/char_grammar.h"

#include <cstdio>

#include "tokenizer/utf8.h"

namespace dlab {
namespace {

// One code point as it may appear inside "..." (inClass: inside [...]).
std::string escaped(uint32_t cp, bool inClass) {
    char buf[16];
    switch (cp) {
        case '\n': return "\\n";
        case '\r': return "\\r";
        case '\t': return "\\t";
        case '\\': return "\\\\";
        case '"': return inClass ? "\"" : "\\\"";
        case ']': return inClass ? "\\]" : "]";
        case '[': return inClass ? "\\[" : "[";
        case '-': return inClass ? "\\-" : "-";
        case '^': return inClass ? "\\^" : "^";
        default: break;
    }
    if (cp < 0x20 || cp == 0x7F) { snprintf(buf, sizeof buf, "\\x%02X", cp); return buf; }
    if ((cp >= 0xD800 && cp <= 0xDFFF) || (cp >= 0x80 && cp < 0xA0)) { snprintf(buf, sizeof buf, "\\u%04X", cp); return buf; }
    std::string s;
    utf8::append(s, cp);
    return s;
}

std::string setText(const std::vector<CodepointRange>& ranges) {
    if (ranges.size() == 1 && ranges[0].lo == 0 && ranges[0].hi == kMaxCodepoint) return ".";
    if (ranges.empty()) return "[]";
    // Write the shorter of the set and its complement (a set open to the top reads best negated).
    const auto complement = normalizeRanges(ranges, true);
    const bool negate = !complement.empty() && (complement.size() < ranges.size() || ranges.back().hi == kMaxCodepoint);
    const auto& shown = negate ? complement : ranges;
    std::string s = negate ? "[^" : "[";
    for (const auto& r : shown) {
        s += escaped(r.lo, true);
        if (r.hi > r.lo) {
            if (r.hi > r.lo + 1) s += "-";
            s += escaped(r.hi, true);
        }
    }
    return s + "]";
}

}  // namespace

std::string toGbnf(const CharGrammar& g) {
    std::string out;
    auto writeRule = [&](const CharRule& r) {
        out += r.name + " ::= ";
        // Empty alternatives first ("ws ::= | \" \""), as llama.cpp's grammars write them.
        std::vector<const CharSequence*> order;
        for (const auto& alt : r.alternatives)
            if (alt.empty()) order.push_back(&alt);
        for (const auto& alt : r.alternatives)
            if (!alt.empty()) order.push_back(&alt);
        for (size_t a = 0; a < order.size(); ++a) {
            if (a) out += order[a - 1]->empty() ? "| " : " | ";
            const auto& alt = *order[a];
            std::string literal;
            bool first = true;
            auto flush = [&] {
                if (literal.empty()) return;
                if (!first) out += " ";
                out += "\"" + literal + "\"";
                literal.clear();
                first = false;
            };
            for (const auto& e : alt) {
                if (e.kind == CharElement::Kind::Chars && e.ranges.size() == 1 && e.ranges[0].lo == e.ranges[0].hi) {
                    literal += escaped(e.ranges[0].lo, false);
                    continue;
                }
                flush();
                if (!first) out += " ";
                out += e.kind == CharElement::Kind::Rule ? g.rules[static_cast<size_t>(e.rule)].name : setText(e.ranges);
                first = false;
            }
            flush();
        }
        while (!out.empty() && out.back() == ' ') out.pop_back();
        out += "\n";
    };
    if (g.root >= 0) writeRule(g.rules[static_cast<size_t>(g.root)]);
    for (size_t i = 0; i < g.rules.size(); ++i)
        if (static_cast<int>(i) != g.root) writeRule(g.rules[i]);
    return out;
}

}  // namespace dlab
