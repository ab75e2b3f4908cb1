#include "grammar/byte_grammar.h"

#include <algorithm>
#include <functional>
#include <map>

#include "core/error.h"
#include "grammar/utf8_sequences.h"

namespace dlab {
namespace {

// The user's rule a helper belongs to ("value-3" -> shown as "a group in 'value'").
std::string describe(const CharGrammar& g, int r) {
    const CharRule& rule = g.rules[static_cast<size_t>(r)];
    if (!rule.helper) return rule.name;
    const size_t dash = rule.name.rfind('-');
    return "(" + rule.name + ", a group or repetition in '" + rule.name.substr(0, dash) + "')";
}

// What the byte grammar leaves out, since it changes no sentence but costs the matcher a closure
// step at every nesting level of every parse state (root ::= [a] root* ("" | []){663} took 0.27 s
// per mask on a 49k vocabulary, root ::= [a] root* (""){663} 0.17 s):
//   - dead alternatives: ones holding an empty character set or a rule that never finishes
//     (loop ::= "q" loop), so no token may start text that can never be completed;
//   - references to rules that match only the empty string (a group of "", an option of one).
struct Simplification {
    std::vector<std::vector<char>> live;  // (n_rules, n_alts) the alternative can match some text
    std::vector<char> emptyOnly;          // (n_rules) every live alternative matches only ""
};

Simplification simplify(const CharGrammar& g) {
    const size_t n = g.rules.size();
    std::vector<char> productive(n, 0);
    auto elementLive = [&](const CharElement& e) {
        return e.kind == CharElement::Kind::Rule ? productive[static_cast<size_t>(e.rule)] != 0 : !e.ranges.empty();
    };
    auto altLive = [&](const CharSequence& alt) { return std::all_of(alt.begin(), alt.end(), elementLive); };
    for (bool grew = true; grew;) {
        grew = false;
        for (size_t r = 0; r < n; ++r)
            if (!productive[r] && std::any_of(g.rules[r].alternatives.begin(), g.rules[r].alternatives.end(), altLive)) {
                productive[r] = 1;
                grew = true;
            }
    }
    Simplification s;
    for (const auto& rule : g.rules) {
        s.live.emplace_back();
        for (const auto& alt : rule.alternatives) s.live.back().push_back(altLive(alt) ? 1 : 0);
    }
    s.emptyOnly.assign(n, 0);
    for (bool grew = true; grew;) {
        grew = false;
        for (size_t r = 0; r < n; ++r) {
            if (s.emptyOnly[r] || !productive[r]) continue;
            const auto& alts = g.rules[r].alternatives;
            bool all = true;
            for (size_t a = 0; a < alts.size() && all; ++a)
                if (s.live[r][a])
                    all = std::all_of(alts[a].begin(), alts[a].end(), [&](const CharElement& e) {
                        return e.kind == CharElement::Kind::Rule && s.emptyOnly[static_cast<size_t>(e.rule)];
                    });
            if (all) { s.emptyOnly[r] = 1; grew = true; }
        }
    }
    return s;
}

}  // namespace

void checkNoLeftRecursion(const CharGrammar& g, const std::string& source) {
    const size_t n = g.rules.size();
    std::vector<char> nullable(n, 0);
    for (bool grew = true; grew;) {
        grew = false;
        for (size_t r = 0; r < n; ++r) {
            if (nullable[r]) continue;
            for (const auto& alt : g.rules[r].alternatives) {
                bool all = true;
                for (const auto& e : alt)
                    if (e.kind == CharElement::Kind::Chars || !nullable[static_cast<size_t>(e.rule)]) { all = false; break; }
                if (all) { nullable[r] = 1; grew = true; break; }
            }
        }
    }
    // Edges r -> s where s can come first in r without a character read before it.
    std::vector<std::vector<int>> first(n);
    for (size_t r = 0; r < n; ++r)
        for (const auto& alt : g.rules[r].alternatives)
            for (const auto& e : alt) {
                if (e.kind == CharElement::Kind::Chars) break;
                first[r].push_back(e.rule);
                if (!nullable[static_cast<size_t>(e.rule)]) break;
            }
    // Iterative DFS (a grammar may have many rules): 0 new, 1 on the path, 2 done.
    std::vector<char> color(n, 0);
    std::vector<int> parent(n, -1);
    for (size_t start = 0; start < n; ++start) {
        if (color[start]) continue;
        std::vector<std::pair<int, size_t>> stack{{static_cast<int>(start), 0}};
        color[start] = 1;
        while (!stack.empty()) {
            auto& [r, i] = stack.back();
            if (i == first[static_cast<size_t>(r)].size()) {
                color[static_cast<size_t>(r)] = 2;
                stack.pop_back();
                continue;
            }
            const int s = first[static_cast<size_t>(r)][i++];
            if (color[static_cast<size_t>(s)] == 1) {
                // The cycle is s ... r -> s; report it from its first user-written rule.
                std::vector<int> cycle;
                for (int x = r; x != s && x >= 0; x = parent[static_cast<size_t>(x)]) cycle.push_back(x);
                cycle.push_back(s);
                std::reverse(cycle.begin(), cycle.end());
                int named = s;
                for (int x : cycle)
                    if (!g.rules[static_cast<size_t>(x)].helper) { named = x; break; }
                std::string path;
                for (int x : cycle) path += describe(g, x) + " -> ";
                path += describe(g, s);
                const CharRule& nr = g.rules[static_cast<size_t>(named)];
                const std::string where = nr.line > 0 ? source + ":" + std::to_string(nr.line) + ":" + std::to_string(nr.column)
                                                      : source;
                throw Error(where + ": rule '" + nr.name + "' is left-recursive: " + path +
                            " can repeat without reading a character; rewrite it with a repetition, "
                            "e.g. expr ::= term (\"+\" term)*");
            }
            if (color[static_cast<size_t>(s)] == 0) {
                color[static_cast<size_t>(s)] = 1;
                parent[static_cast<size_t>(s)] = r;
                stack.push_back({s, 0});
            }
        }
    }
}

ByteGrammar compileByteGrammar(const CharGrammar& g, const std::string& source) {
    checkNoLeftRecursion(g, source);
    ByteGrammar out;
    out.root = g.root;
    const size_t n = g.rules.size();
    out.alternatives.resize(n);
    for (const auto& r : g.rules) out.ruleNames.push_back(r.name);

    // Each rule's alternatives as byte element lists first; sets with several patterns get a
    // helper rule (shared between equal sets).
    std::vector<std::vector<std::vector<ByteElement>>> bodies(n);
    std::map<std::vector<std::pair<uint32_t, uint32_t>>, int> setRules;
    auto setRule = [&](const std::vector<CodepointRange>& ranges, const std::vector<Utf8Pattern>& pats) {
        std::vector<std::pair<uint32_t, uint32_t>> key;
        for (const auto& r : ranges) key.push_back({r.lo, r.hi});
        auto it = setRules.find(key);
        if (it != setRules.end()) return it->second;
        const int id = static_cast<int>(bodies.size());
        std::vector<std::vector<ByteElement>> alts;
        for (const auto& p : pats) {
            std::vector<ByteElement> seq;
            for (const auto& br : p) seq.push_back({ByteElement::Kind::Bytes, br.lo, br.hi, -1});
            alts.push_back(std::move(seq));
        }
        bodies.push_back(std::move(alts));
        out.ruleNames.push_back("[char set " + std::to_string(setRules.size() + 1) + "]");
        setRules.emplace(std::move(key), id);
        return id;
    };
    const Simplification simple = simplify(g);
    for (size_t r = 0; r < n; ++r) {
        const auto& alts = g.rules[r].alternatives;
        for (size_t a = 0; a < alts.size(); ++a) {
            if (!simple.live[r][a]) continue;
            std::vector<ByteElement> seq;
            for (const auto& e : alts[a]) {
                if (e.kind == CharElement::Kind::Rule) {
                    if (!simple.emptyOnly[static_cast<size_t>(e.rule)]) seq.push_back({ByteElement::Kind::Rule, 0, 0, e.rule});
                    continue;
                }
                const auto pats = utf8Patterns(e.ranges);
                if (pats.empty()) {
                    seq.push_back({ByteElement::Kind::Bytes, 1, 0, -1});  // an empty set: matches nothing
                } else if (pats.size() == 1) {
                    for (const auto& br : pats[0]) seq.push_back({ByteElement::Kind::Bytes, br.lo, br.hi, -1});
                } else {
                    seq.push_back({ByteElement::Kind::Rule, 0, 0, setRule(e.ranges, pats)});
                }
            }
            bodies[r].push_back(std::move(seq));
        }
    }
    out.alternatives.resize(bodies.size());
    for (size_t r = 0; r < bodies.size(); ++r) {
        for (auto& seq : bodies[r]) {
            out.alternatives[r].push_back(static_cast<int32_t>(out.elements.size()));
            out.elements.insert(out.elements.end(), seq.begin(), seq.end());
            out.elements.push_back({ByteElement::Kind::End, 1, 0, -1});
        }
    }
    return out;
}

}  // namespace dlab
