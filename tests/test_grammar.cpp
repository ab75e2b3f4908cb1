// The grammar engine (engine/grammar/) and its sampler stage: GBNF errors name the line, column and
// rule; UTF-8 patterns are exactly their code point sets; every token mask equals an independent
// Earley recognizer's verdict on that token; JSON Schemas accept and reject what they should; the
// stage's snapshot is exact; beam search and compare honour the constraint.
#include <QtTest>

#include <random>

#include "earley_reference.h"
#include "fake_tokenizer.h"
#include "test_paths.h"
#include "core/error.h"
#include "generate/compare.h"
#include "generate/model_beam_scorer.h"
#include "gguf/tiny_model.h"
#include "grammar/byte_grammar.h"
#include "grammar/constraint.h"
#include "grammar/constraint_cache.h"
#include "grammar/gbnf_parser.h"
#include "grammar/json_schema_grammar.h"
#include "grammar/u64_table.h"
#include "grammar/utf8_sequences.h"
#include "model/backend.h"
#include "model/model.h"
#include "sampling/sampler_chain.h"
#include "sampling/stage_grammar.h"
#include "tokenizer/utf8.h"

using namespace dlab;

namespace {

bool matches(const std::vector<Utf8Pattern>& pats, const std::string& bytes) {
    for (const auto& p : pats) {
        if (p.size() != bytes.size()) continue;
        bool ok = true;
        for (size_t i = 0; i < p.size() && ok; ++i) {
            const auto b = static_cast<uint8_t>(bytes[i]);
            ok = b >= p[i].lo && b <= p[i].hi;
        }
        if (ok) return true;
    }
    return false;
}

bool bit(const std::vector<uint64_t>& m, TokenId id) { return maskAllows(m, id); }

// Tokens cut from texts of the grammar's language at every byte (so many end or start inside a
// UTF-8 character), plus single bytes and a few strangers.
std::vector<std::string> fragmentVocab(const std::vector<std::string>& texts) {
    std::set<std::string> pieces;
    for (const auto& t : texts)
        for (size_t i = 0; i < t.size(); ++i)
            for (size_t len = 1; len <= 4 && i + len <= t.size(); ++len) pieces.insert(t.substr(i, len));
    for (int b = 0x20; b < 0x7F; ++b) pieces.insert(std::string(1, static_cast<char>(b)));
    for (const char* extra : {"\n", "\t", "\xC3", "\xA9", "\xE6\x97", "\xFF", "\xC0\x80", "\xED\xA0\x80"}) pieces.insert(extra);
    std::vector<std::string> out(pieces.begin(), pieces.end());
    out.push_back("<eos>");
    return out;
}

std::shared_ptr<const Constraint> compileFor(const std::string& gbnf, const Tokenizer& tok) {
    return Constraint::compile({ConstraintSpec::Kind::Gbnf, gbnf, "test.gbnf"}, std::make_shared<TokenBytesTable>(tok));
}

const char* kJsonGbnf = "root ::= value\n"
    "value ::= object | array | string | number | (\"true\" | \"false\" | \"null\") ws\n"
    "object ::= \"{\" ws ( string \":\" ws value (\",\" ws string \":\" ws value)* )? \"}\" ws\n"
    "array ::= \"[\" ws ( value (\",\" ws value)* )? \"]\" ws\n"
    "string ::= \"\\\"\" ( [^\"\\\\\\x7F\\x00-\\x1F] | \"\\\\\" ([\"\\\\bfnrt] | \"u\" [0-9a-fA-F]{4}) )* \"\\\"\" ws\n"
    "number ::= (\"-\"? ([0-9] | [1-9] [0-9]{0,15})) (\".\" [0-9]+)? ([eE] [-+]? [0-9]+)? ws\n"
    "ws ::= | \" \" | \"\\n\" [ \\t]{0,20}\n";

std::string tinyPath() { return test::scratchDir() + "/grammar-tiny.gguf"; }

}  // namespace

class TestGrammar : public QObject {
    Q_OBJECT

private slots:
    void parseErrors_data() {
        QTest::addColumn<QByteArray>("gbnf");
        QTest::addColumn<QString>("message");
        QTest::newRow("undefined rule") << QByteArray("root ::= foo") << "test.gbnf:1:10: rule 'foo' is used but never defined";
        QTest::newRow("no ::=") << QByteArray("root := \"a\"") << "test.gbnf:1:6: expected '::=' after the rule name 'root'";
        QTest::newRow("open literal") << QByteArray("root ::= \"abc") << "test.gbnf:1:10: this string literal is not closed";
        QTest::newRow("open class") << QByteArray("root ::= [a-") << "1:10: this character class is not closed";
        QTest::newRow("open group") << QByteArray("root ::= (\"a\"") << "1:10: this group is not closed";
        QTest::newRow("stray paren") << QByteArray("root ::= \"a\" )") << "1:14: unmatched ')'";
        QTest::newRow("no root") << QByteArray("a ::= \"x\"") << "test.gbnf: the grammar has no 'root' rule";
        QTest::newRow("left recursion") << QByteArray("root ::= expr\nexpr ::= expr \"+\" \"1\" | \"1\"")
                                        << "test.gbnf:2:1: rule 'expr' is left-recursive: expr -> expr";
        QTest::newRow("indirect left recursion") << QByteArray("root ::= a\na ::= b \"x\"\nb ::= \"y\"? a")
                                                 << "rule 'a' is left-recursive: a -> b -> a";
        QTest::newRow("nullable star of star") << QByteArray("root ::= ([a]*)*") << "left-recursive";
        QTest::newRow("backwards count") << QByteArray("root ::= \"a\"{5,2}") << "has its maximum below its minimum";
        QTest::newRow("huge count") << QByteArray("root ::= \"a\"{20000}") << "repetition counts above 10000";
        QTest::newRow("deep nesting") << QByteArray("root ::= " + QByteArray(200, '(') + "\"a\"" + QByteArray(200, ')'))
                                      << "1:138: groups are nested more than 128 deep";
        QTest::newRow("nothing to repeat") << QByteArray("root ::= *") << "1:10: '*' must follow something to repeat";
        QTest::newRow("bad escape") << QByteArray("root ::= \"\\q\"") << "unknown escape '\\q'";
        QTest::newRow("bad hex") << QByteArray("root ::= \"\\xZ1\"") << "expected 2 hex digits";
        QTest::newRow("invalid utf-8") << QByteArray("root ::= \"\xff\"") << "1:11: the grammar is not valid UTF-8 here";
        QTest::newRow("defined twice") << QByteArray("root ::= \"a\"\nroot ::= \"b\"") << "2:1: rule 'root' is defined twice (first on line 1)";
        QTest::newRow("token reference") << QByteArray("root ::= <|im_end|>") << "token references";
        {
            QByteArray big = "root ::=";
            for (int i = 0; i < 101; ++i) big += " [a]{10000}";
            QTest::newRow("too large") << big << "more than a million elements";
        }
        QTest::newRow("backwards range") << QByteArray("root ::= [z-a]") << "runs backwards";
        QTest::newRow("group then rule") << QByteArray("root ::= ( \"a\"\nb ::= \"c\" )") << "a group is not closed before rule 'b'";
        QTest::newRow("empty file") << QByteArray("") << "no 'root' rule";
        QTest::newRow("garbage") << QByteArray("::=") << "1:1: expected a rule name, found ':'";
        QTest::newRow("nul byte") << QByteArray("root ::= \"a\"\0", 13) << "unexpected";
    }
    void parseErrors() {
        QFETCH(QByteArray, gbnf);
        QFETCH(QString, message);
        try {
            const CharGrammar g = parseGbnf(std::string_view(gbnf.constData(), static_cast<size_t>(gbnf.size())), "test.gbnf");
            checkNoLeftRecursion(g, "test.gbnf");
            QFAIL("no error");
        } catch (const Error& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(message), e.what());
        }
    }

    void parsesLlamaCppSyntax() {
        // Comments, multi-line groups, '|' starting a line, escapes, ranges, counts, '.', negation.
        const char* g = "# a comment\n"
    "root ::= item (\",\" item){0,3} tail   # trailing comment\n"
    "item ::= [a-zA-Z_] [a-zA-Z0-9_]* | \"\\x41\\u00e9\\U0001F600\" | .\n"
    "tail ::= (\n"
    "    \"!\"\n"
    "  | \"?\"\n"
    "  )?\n"
    "  | \"\\n\"\n";
        const CharGrammar parsed = parseGbnf(g, "g");
        QCOMPARE(parsed.rules[static_cast<size_t>(parsed.root)].name, std::string("root"));
        QVERIFY(parsed.rules.size() > 3);
        // Printing and re-parsing gives the same rules (in another order: rules are numbered by first mention).
        const CharGrammar again = parseGbnf(toGbnf(parsed), "g2");
        auto lines = [](const std::string& text) {
            QStringList l = QString::fromStdString(text).split('\n', Qt::SkipEmptyParts);
            l.sort();
            return l;
        };
        QCOMPARE(lines(toGbnf(again)), lines(toGbnf(parsed)));
    }

    void utf8PatternsAreExactlyTheSet_data() {
        QTest::addColumn<QString>("cls");
        QTest::newRow("ascii") << "[a-z0-9]";
        QTest::newRow("json string char") << "[^\"\\\\\\x7F\\x00-\\x1F]";
        QTest::newRow("any") << ".";
        QTest::newRow("boundaries") << "[\\x7F-\\u0080\\u07FF-\\u0800\\uFFFF-\\U00010000]";
        QTest::newRow("cjk and emoji") << "[\\u4E00-\\u9FFF\\U0001F300-\\U0001F5FF]";
        QTest::newRow("odd ranges") << "[\\u00E9-\\u0A37\\u3041-\\uD7FF\\U0002FFFE-\\U00100001]";
    }
    void utf8PatternsAreExactlyTheSet() {
        QFETCH(QString, cls);
        const CharGrammar g = parseGbnf(("root ::= " + cls).toStdString(), "t");
        const auto& ranges = g.rules[static_cast<size_t>(g.root)].alternatives[0][0].ranges;
        const auto pats = utf8Patterns(ranges);
        for (uint32_t cp = 0; cp <= kMaxCodepoint; ++cp) {
            bool in = false;
            for (const auto& r : ranges) in = in || (cp >= r.lo && cp <= r.hi);
            if (matches(pats, utf8::encode(cp)) != in) QFAIL(qPrintable(QString("U+%1 wrong").arg(cp, 0, 16)));
        }
    }

    // Every token at every step of a random walk: allowed exactly when the Earley reference says
    // the text plus the token is a valid prefix; end of generation exactly when the text is complete.
    void masksEqualEarley_data() {
        QTest::addColumn<QString>("gbnf");
        QTest::addColumn<QStringList>("texts");
        QTest::newRow("json") << QString(kJsonGbnf)
                              << QStringList{"{\"a\": [1, -2.5e3, true], \"café\": {\"x\": null}}", "[\"日本語\\n\", \"\\u00e9\", {}]"};
        QTest::newRow("arithmetic") << QString("root ::= expr\nexpr ::= term ((\"+\" | \"-\") term)*\nterm ::= factor ((\"*\" | \"/\") factor)*\n"
                                               "factor ::= [0-9]+ | \"(\" expr \")\"")
                                    << QStringList{"(1+23)*4-(5/6)", "7*(8-9)"};
        QTest::newRow("unicode classes") << QString("root ::= ([α-ω] | [一-龥]{1,2} | \"€\" | [^a-z\\x00-\\x2F])+ \".\"")
                                         << QStringList{"αβγ一二€ÄÖ.", "ωx龥."};
        QTest::newRow("counts and options") << QString("root ::= \"ab\"{2,3} \"c\"? [0-9]{0,2} \"!\"")
                                            << QStringList{"ababc12!", "ababab!"};
        QTest::newRow("nullable nesting") << QString("root ::= a b\na ::= (\"x\"?)? \"y\"*\nb ::= (\"z\" | ) \"end\"")
                                          << QStringList{"xyyzend", "end"};
        QTest::newRow("any char") << QString("root ::= \"<\" .{0,3} \">\"") << QStringList{"<é日😀>", "<>"};
        // The byte grammar drops groups of nothing and alternatives that match nothing.
        QTest::newRow("empty groups and dead parts")
            << QString("root ::= ([a-c] (\"\"){4} (\"\" | [^\\x00-\\U0010FFFF]) x?){1,4} | \"(\" (\"\")? \")\"\n"
                       "x ::= \"y\" | [^\\x00-\\U0010FFFF] \"z\"")
            << QStringList{"abyccy", "()", "aby"};
    }
    void masksEqualEarley() {
        QFETCH(QString, gbnf);
        QFETCH(QStringList, texts);
        std::vector<std::string> t;
        for (const auto& s : texts) t.push_back(s.toStdString());
        auto vocab = fragmentVocab(t);
        const TokenId eos = static_cast<TokenId>(vocab.size()) - 1;
        test::FakeTokenizer tok(vocab, eos);
        auto c = compileFor(gbnf.toStdString(), tok);
        const CharGrammar& g = c->grammar();
        GrammarAutomaton& a = c->automaton();
        std::mt19937 rng(7);
        std::vector<uint64_t> mask;
        int checked = 0;
        for (int walk = 0; walk < 6; ++walk) {
            std::string text;
            auto s = a.initial();
            for (int step = 0; step < 40; ++step) {
                a.mask(s, mask);
                std::vector<TokenId> allowed;
                for (TokenId id = 0; id < eos; ++id) {
                    const auto v = test::earleyCheck(g, text + vocab[static_cast<size_t>(id)]);
                    if (bit(mask, id) != v.validPrefix)
                        QFAIL(qPrintable(QString("after '%1' token '%2': mask %3, Earley %4")
                                             .arg(QString::fromStdString(text), QString::fromStdString(vocab[static_cast<size_t>(id)]))
                                             .arg(bit(mask, id)).arg(v.validPrefix)));
                    if (v.validPrefix) allowed.push_back(id);
                    ++checked;
                }
                QCOMPARE(bit(mask, eos), test::earleyCheck(g, text).complete);
                QCOMPARE(a.accepting(s), test::earleyCheck(g, text).complete);
                if (allowed.empty()) break;
                // Walk: mostly along the sample texts, sometimes anywhere allowed.
                TokenId next = allowed[rng() % allowed.size()];
                const std::string& target = t[static_cast<size_t>(walk) % t.size()];
                if (walk % 2 == 0 && target.size() > text.size() && target.compare(0, text.size(), text) == 0) {
                    for (TokenId id : allowed)
                        if (target.compare(text.size(), vocab[static_cast<size_t>(id)].size(), vocab[static_cast<size_t>(id)]) == 0 &&
                            rng() % 2) { next = id; break; }
                }
                text += vocab[static_cast<size_t>(next)];
                s = a.advance(s, next);
                QVERIFY(s != GrammarAutomaton::kDead);
            }
        }
        QVERIFY(checked > 1000);
    }

    void deepNestingDoesNotOverflow() {
        test::FakeTokenizer tok({"[", "]", "[[", "]]", "x", "<eos>"}, 5);
        auto c = compileFor("root ::= \"[\" root? \"]\" | \"x\"", tok);
        GrammarAutomaton& a = c->automaton();
        auto s = a.initial();
        const int depth = 50000;
        for (int i = 0; i < depth; ++i) s = a.advance(s, 0);
        std::vector<uint64_t> mask;
        a.mask(s, mask);
        QVERIFY(bit(mask, 0) && bit(mask, 2) && bit(mask, 4) && !bit(mask, 5));
        QVERIFY(bit(mask, 1));  // root? may be empty, so "]" may close the innermost bracket
        for (int i = 0; i < depth; ++i) s = a.advance(s, 1);
        QVERIFY(a.accepting(s));
        a.mask(s, mask);
        QVERIFY(bit(mask, 5) && !bit(mask, 1));
    }

    void emptyGroupsAddNoParses() {
        // Each (\"\") after a nested reference used to be a frame every level returned through:
        // root ::= [a-z] root* (\"\"){663} held 663 frames per level and took 0.1 s per mask.
        test::FakeTokenizer tok({"b", "<eos>"}, 1);
        auto c = compileFor("root ::= [a-z] root* (\"\"){663} (\"\" | [^\\x00-\\U0010FFFF]){9}", tok);
        GrammarAutomaton& a = c->automaton();
        auto s = a.initial();
        std::vector<uint64_t> mask;
        for (int i = 0; i < 40; ++i) {
            s = a.advance(s, 0);
            QVERIFY(s != GrammarAutomaton::kDead);
            a.mask(s, mask);
            QVERIFY(bit(mask, 0) && bit(mask, 1));
        }
        QVERIFY2(a.stats().stackNodes < 200, qPrintable(QString::number(a.stats().stackNodes)));
    }

    void u64TableActsAsAMap() {
        // The matcher's flat hash table against std::map: inserts that grow it, repeated keys,
        // clears (a generation bump, the old entries must vanish) and keys that collide in the low bits.
        U64Table table;
        std::map<uint64_t, int32_t> reference;
        std::mt19937_64 rng(3);
        for (int round = 0; round < 6; ++round) {
            for (int i = 0; i < 5000; ++i) {
                const uint64_t key = (rng() % 3000) << (i % 2 ? 32 : 0);
                const auto value = static_cast<int32_t>(rng() % 1000);
                const auto [got, added] = table.emplace(key, value);
                const auto [it, refAdded] = reference.emplace(key, value);
                QCOMPARE(added, refAdded);
                QCOMPARE(got, it->second);
            }
            QCOMPARE(table.size(), reference.size());
            for (const auto& [k, v] : reference) QCOMPARE(table.find(k), v);
            QCOMPARE(table.find(~0ull), -1);
            table.clear();
            QCOMPARE(table.find(reference.begin()->first), -1);
            reference.clear();
        }
    }

    void textThatCannotEndIsNotAllowed() {
        // 'loop' never ends, so "q" starts no sentence: llama.cpp allows it (and then "qqq..." for
        // ever); the byte grammar leaves such rules out, so the mask forbids it.
        test::FakeTokenizer tok({"a", "q", "w", "<eos>"}, 3);
        auto c = compileFor("root ::= \"a\" | loop | loop \"w\"\nloop ::= \"q\" loop", tok);
        GrammarAutomaton& a = c->automaton();
        std::vector<uint64_t> mask;
        a.mask(a.initial(), mask);
        QVERIFY(bit(mask, 0));
        QVERIFY(!bit(mask, 1) && !bit(mask, 2) && !bit(mask, 3));
    }

    void ambiguousNestingIsRefusedWithASentence() {
        // Every level adds 663 parses (which of the optional "a"s a following "a" is); past 20000 the
        // matcher stops with a sentence instead of slowing down for ever.
        test::FakeTokenizer tok({"b", "a", "<eos>"}, 2);
        auto c = compileFor("root ::= [a-z] root* (\"a\"?){663}", tok);
        GrammarAutomaton& a = c->automaton();
        auto s = a.initial();
        QString message;
        try {
            for (int i = 0; i < 100; ++i) s = a.advance(s, 0);
        } catch (const Error& e) {
            message = e.what();
        }
        QVERIFY2(message.contains("too ambiguous"), qPrintable(message));
    }

    void longOptionalRunsAreRefusedEarly() {
        // After "x" a million optional "ab"s may come next: the matcher stops at 20000 parses while
        // it expands them, not after making a million frames (8 s under the sanitizers).
        test::FakeTokenizer tok({"x", "a", "<eos>"}, 2);
        auto c = compileFor("root ::= \"x\" ((\"ab\"?){999}){999}", tok);
        GrammarAutomaton& a = c->automaton();
        QString message;
        try {
            a.advance(a.initial(), 0);
        } catch (const Error& e) {
            message = e.what();
        }
        QVERIFY2(message.contains("too ambiguous"), qPrintable(message));
        QVERIFY2(a.stats().stackNodes < 50000, qPrintable(QString::number(a.stats().stackNodes)));
    }

    void matcherLimitsAreSentences() {
        // Each '(' opens a frame; a state with too many ambiguous parses is refused with a sentence.
        test::FakeTokenizer tok({"a", "<eos>"}, 1);
        auto c = compileFor("root ::= x*\nx ::= \"a\" | \"a\" \"a\" | \"a\" \"a\" \"a\"", tok);
        GrammarAutomaton& a = c->automaton();
        auto s = a.initial();
        for (int i = 0; i < 200; ++i) s = a.advance(s, 0);  // dedup keeps the parses bounded
        QVERIFY(s != GrammarAutomaton::kDead);
        QVERIFY(a.stats().states < 50);
    }

    void jsonSchemaAcceptsAndRejects_data() {
        QTest::addColumn<QString>("schema");
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("complete");
        QTest::addColumn<bool>("prefix");
        const QString person = "{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\",\"minLength\":1},\"age\":{\"type\":\"integer\",\"minimum\":0},\n"
    "            \"email\":{\"type\":\"string\"},\"tags\":{\"type\":\"array\",\"items\":{\"enum\":[\"a\",\"b\"]},\"maxItems\":2}},\"required\":[\"name\",\"age\"],\"additionalProperties\":false}";
        QTest::newRow("person ok") << person << "{\"name\": \"Ann\", \"age\": 31}" << true << true;
        QTest::newRow("person optional") << person << "{\"name\":\"Ann\",\"age\":0,\"tags\":[\"a\",\"b\"]}" << true << true;
        QTest::newRow("person both optional") << person << "{\"name\":\"Ann\",\"age\":0,\"email\":\"x@y\",\"tags\":[]}" << true << true;
        QTest::newRow("person missing age") << person << "{\"name\":\"Ann\"}" << false << false;
        QTest::newRow("person empty name") << person << "{\"name\":\"\"" << false << false;
        QTest::newRow("person negative") << person << "{\"name\":\"A\",\"age\":-1" << false << false;
        QTest::newRow("person too many tags") << person << "{\"name\":\"A\",\"age\":1,\"tags\":[\"a\",\"b\",\"a\"]" << false << false;
        QTest::newRow("person extra key") << person << "{\"name\":\"A\",\"age\":1,\"x\":1}" << false << false;
        QTest::newRow("person open") << person << "{\"name\": \"An" << false << true;
        const QString defs = "{\"$defs\":{\"node\":{\"type\":\"object\",\"properties\":{\"v\":{\"type\":\"integer\"},\"next\":{\"anyOf\":[{\"$ref\":\"#/$defs/node\"},{\"type\":\"null\"}]}},\"required\":[\"v\",\"next\"]}},\"$ref\":\"#/$defs/node\"}";
        QTest::newRow("recursive ref") << defs << "{\"v\":1,\"next\":{\"v\":2,\"next\":null}}" << true << true;
        QTest::newRow("recursive ref bad") << defs << "{\"v\":1,\"next\":{\"v\":\"x\"" << false << false;
        QTest::newRow("const and enum") << "{\"type\":\"object\",\"properties\":{\"k\":{\"const\":\"fixed\"},\"n\":{\"enum\":[1,2.5,null,\"s\"]}},\"required\":[\"k\",\"n\"]}"
                                        << "{\"k\":\"fixed\",\"n\":2.5}" << true << true;
        QTest::newRow("enum other") << "{\"enum\":[1,2]}" << "3" << false << false;
        QTest::newRow("tuple") << "{\"type\":\"array\",\"prefixItems\":[{\"type\":\"string\"},{\"type\":\"boolean\"}],\"minItems\":2,\"maxItems\":2}"
                               << "[\"x\", false]" << true << true;
        QTest::newRow("min items") << "{\"type\":\"array\",\"items\":{\"type\":\"number\"},\"minItems\":2}" << "[1]" << false << false;
        QTest::newRow("min items ok") << "{\"type\":\"array\",\"items\":{\"type\":\"number\"},\"minItems\":2}" << "[1, 2e-3, 4]" << true << true;
        QTest::newRow("type list") << "{\"type\":[\"string\",\"null\"]}" << "null" << true << true;
        QTest::newRow("escapes and unicode") << "{\"type\":\"string\"}" << "\"a\\\"b\\\\c\\u00e9 日本 😀\"" << true << true;
        QTest::newRow("raw newline in string") << "{\"type\":\"string\"}" << "\"a\nb\"" << false << false;
        QTest::newRow("small int range") << "{\"type\":\"integer\",\"minimum\":-3,\"maximum\":12}" << "12" << true << true;
        QTest::newRow("small int range out") << "{\"type\":\"integer\",\"minimum\":-3,\"maximum\":12}" << "13" << false << false;
        QTest::newRow("date format") << "{\"type\":\"string\",\"format\":\"date\"}" << "\"2026-12-01\"" << true << true;
        QTest::newRow("date format bad") << "{\"type\":\"string\",\"format\":\"date\"}" << "\"2026-13" << false << false;
        QTest::newRow("additional schema") << "{\"type\":\"object\",\"additionalProperties\":{\"type\":\"integer\"}}" << "{\"a\":1,\"b\":2}" << true << true;
        QTest::newRow("optional only") << "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"integer\"},\"b\":{\"type\":\"integer\"}}}" << "{\"b\":2}" << true << true;
        QTest::newRow("optional only none") << "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"integer\"},\"b\":{\"type\":\"integer\"}}}" << "{}" << true << true;
        QTest::newRow("optional only order") << "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"integer\"},\"b\":{\"type\":\"integer\"}}}" << "{\"b\":2,\"a\":1}" << false << false;
        QTest::newRow("bare object") << "{\"type\":\"object\"}" << "{\"x\": [1, {\"y\": null}]}" << true << true;
        QTest::newRow("any value") << "{}" << "[1, {\"x\": \"y\"}]" << true << true;
        QTest::newRow("string lengths") << "{\"type\":\"string\",\"minLength\":2,\"maxLength\":3}" << "\"abcd\"" << false << false;
    }
    void jsonSchemaAcceptsAndRejects() {
        QFETCH(QString, schema);
        QFETCH(QString, text);
        QFETCH(bool, complete);
        QFETCH(bool, prefix);
        test::FakeTokenizer tok({"x", "<eos>"}, 1);
        auto c = Constraint::compile({ConstraintSpec::Kind::JsonSchema, schema.toStdString(), "s.json"}, std::make_shared<TokenBytesTable>(tok));
        GrammarAutomaton& a = c->automaton();
        const auto s = a.advanceBytes(a.initial(), text.toStdString());
        QCOMPARE(s != GrammarAutomaton::kDead, prefix);
        QCOMPARE(s != GrammarAutomaton::kDead && a.accepting(s), complete);
    }

    // Integer bounds become digit patterns: checked against every integer around the bounds.
    void integerRanges_data() {
        QTest::addColumn<qlonglong>("lo");
        QTest::addColumn<qlonglong>("hi");
        QTest::addColumn<bool>("hasLo");
        QTest::addColumn<bool>("hasHi");
        QTest::newRow("years") << 1000LL << 2026LL << true << true;
        QTest::newRow("negative") << -45LL << -7LL << true << true;
        QTest::newRow("across zero") << -3LL << 120LL << true << true;
        QTest::newRow("min only") << 37LL << 0LL << true << false;
        QTest::newRow("max only") << 0LL << 250LL << false << true;
        QTest::newRow("odd digits") << 1886LL << 30999LL << true << true;
        QTest::newRow("single") << 7LL << 7LL << true << true;
        QTest::newRow("zero to nine") << 0LL << 9LL << true << true;
    }
    void integerRanges() {
        QFETCH(qlonglong, lo);
        QFETCH(qlonglong, hi);
        QFETCH(bool, hasLo);
        QFETCH(bool, hasHi);
        std::string schema = "{\"type\":\"integer\"";
        if (hasLo) schema += ",\"minimum\":" + std::to_string(lo);
        if (hasHi) schema += ",\"maximum\":" + std::to_string(hi);
        schema += "}";
        test::FakeTokenizer tok({"x", "<eos>"}, 1);
        auto c = Constraint::compile({ConstraintSpec::Kind::JsonSchema, schema, "i.json"}, std::make_shared<TokenBytesTable>(tok));
        GrammarAutomaton& a = c->automaton();
        auto accepts = [&](const std::string& t) {
            const auto s = a.advanceBytes(a.initial(), t);
            return s != GrammarAutomaton::kDead && a.accepting(s);
        };
        const long long from = (hasLo ? lo : -300) - 300, to = (hasHi ? hi : lo + 3000) + 300;
        for (long long v = from; v <= to; ++v) {
            const bool in = (!hasLo || v >= lo) && (!hasHi || v <= hi);
            if (accepts(std::to_string(v)) != in) QFAIL(qPrintable(QString("%1: %2").arg(v).arg(in ? "rejected" : "accepted")));
        }
        QVERIFY(!accepts("007") || (hasLo && lo > 7));
        QVERIFY(!accepts("-0"));
        if (!hasHi) QVERIFY(accepts("9999999999999999"));
    }

    void jsonSchemaErrors_data() {
        QTest::addColumn<QString>("schema");
        QTest::addColumn<QString>("message");
        QTest::newRow("not json") << "{\"type\": " << "s.json: not valid JSON:";
        QTest::newRow("pattern") << "{\"type\":\"object\",\"properties\":{\"z\":{\"type\":\"string\",\"pattern\":\"^a+$\"}}}"
                                 << "s.json: at /properties/z/pattern: 'pattern' is not supported";
        QTest::newRow("bad ref") << "{\"$ref\":\"#/$defs/missing\"}" << "$ref '#/$defs/missing' points at nothing";
        QTest::newRow("remote ref") << "{\"$ref\":\"http://x/y.json\"}" << "only references into this document";
        QTest::newRow("unknown type") << "{\"type\":\"date\"}" << "at /type: unknown type 'date'";
        QTest::newRow("false") << "false" << "allows no value at all";
        QTest::newRow("required missing") << "{\"type\":\"object\",\"properties\":{},\"required\":[\"a\"]}" << "'a' is required but not among the properties";
        QTest::newRow("bad bounds") << "{\"type\":\"integer\",\"minimum\":5,\"maximum\":1}" << "maximum is below minimum";
        QTest::newRow("big bounds") << "{\"type\":\"integer\",\"maximum\":100000000000000000}" << "/maximum: maximum must have at most 16 digits";
        QTest::newRow("number bounds") << "{\"type\":\"number\",\"minimum\":0}" << "at /minimum: 'minimum' is not supported";
        QTest::newRow("format") << "{\"type\":\"string\",\"format\":\"email\"}" << "format 'email' is not supported";
        QTest::newRow("items count") << "{\"type\":\"array\",\"maxItems\":-1}" << "/maxItems: must be a whole number";
        QTest::newRow("allOf") << "{\"allOf\":[{},{}]}" << "allOf is supported with exactly one schema";
    }
    void jsonSchemaErrors() {
        QFETCH(QString, schema);
        QFETCH(QString, message);
        try {
            checkGrammar({ConstraintSpec::Kind::JsonSchema, schema.toStdString(), "s.json"});
            QFAIL("no error");
        } catch (const Error& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(message), e.what());
        }
    }

    // The grammar stage's snapshot against a brute-force pass over the vocabulary.
    void stageSnapshotIsExact() {
        std::vector<std::string> vocab = fragmentVocab({"{\"key\": [12, true, \"vé\"]}"});
        const TokenId eos = static_cast<TokenId>(vocab.size()) - 1;
        test::FakeTokenizer tok(vocab, eos);
        SamplerParams p;
        p.temperature = 1.0f;
        p.topK = 0;
        p.topP = 1.0f;
        p.constraint = compileFor(kJsonGbnf, tok);
        SamplerChain chain(p, 64);
        std::mt19937 rng(3);
        std::normal_distribution<float> normal(0.0f, 3.0f);
        std::vector<TokenId> history;
        SamplerState state(1);
        GrammarStage reference(p.constraint);
        for (int step = 0; step < 25; ++step) {
            std::vector<float> logits(vocab.size());
            for (float& l : logits) l = normal(rng);
            const SampleResult r = chain.sample(logits, History{history, 0}, state, true);
            QCOMPARE(r.stages.front().stage, std::string("grammar"));
            const StageSnapshot& snap = r.stages.front();
            // Brute force: the mask from the automaton, the mass under softmax(raw).
            GrammarAutomaton& a = p.constraint->automaton();
            std::vector<uint64_t> mask;
            a.mask(reference.stateAfter(history), mask);
            double z = 0, allowedMass = 0;
            const float mx = *std::max_element(logits.begin(), logits.end());
            std::vector<Candidate> forbidden;
            int allowed = 0;
            for (TokenId id = 0; id < static_cast<TokenId>(logits.size()); ++id) {
                const double e = std::exp(static_cast<double>(logits[static_cast<size_t>(id)]) - mx);
                z += e;
                if (bit(mask, id)) { allowedMass += e; ++allowed; }
                else forbidden.push_back({id, logits[static_cast<size_t>(id)], 0.0f});
            }
            std::sort(forbidden.begin(), forbidden.end(), ranksAbove);
            QCOMPARE(snap.kept, allowed);
            QCOMPARE(snap.forbiddenCount, static_cast<int>(forbidden.size()));
            QVERIFY(std::abs(snap.massKept - allowedMass / z) < 1e-5);
            // First in the chain, so what it was given is the raw distribution: the same share.
            QVERIFY(snap.inputMassKept.has_value() && std::abs(*snap.inputMassKept - allowedMass / z) < 1e-5);
            const size_t shown = std::min<size_t>(forbidden.size(), GrammarStage::kForbiddenShown);
            QCOMPARE(snap.forbidden.size(), shown);
            for (size_t i = 0; i < shown; ++i) {
                QCOMPARE(snap.forbidden[i].id, forbidden[i].id);
                const double pi = std::exp(static_cast<double>(forbidden[i].logit) - mx) / z;
                QVERIFY(std::abs(snap.forbidden[i].p - pi) < 1e-6);
            }
            QVERIFY(bit(mask, r.token));
            if (r.token == eos) break;
            history.push_back(r.token);
        }
        // The generated text is a valid prefix; stateAfter names a token that does not fit.
        QVERIFY(a_ok(p.constraint, history));
        std::vector<TokenId> bad = history;
        bad.push_back(static_cast<TokenId>(std::find(vocab.begin(), vocab.end(), "\xFF") - vocab.begin()));
        try {
            reference.stateAfter(bad);
            QFAIL("no error");
        } catch (const Error& e) {
            QVERIFY2(QString(e.what()).contains("does not fit it"), e.what());
        }
    }

    void endOfGenerationOnlyWhenComplete() {
        test::FakeTokenizer tok({"a", "b", "<ctl>", "<eos>"}, 3, {2});
        auto c = compileFor("root ::= \"a\" \"b\"?", tok);
        GrammarAutomaton& a = c->automaton();
        std::vector<uint64_t> m;
        a.mask(a.initial(), m);
        QVERIFY(bit(m, 0) && !bit(m, 1) && !bit(m, 2) && !bit(m, 3));
        auto s = a.advance(a.initial(), 0);
        a.mask(s, m);
        QVERIFY(!bit(m, 0) && bit(m, 1) && !bit(m, 2) && bit(m, 3));  // control tokens never, eos once complete
        s = a.advance(s, 1);
        a.mask(s, m);
        QVERIFY(!bit(m, 0) && !bit(m, 1) && bit(m, 3));
        QCOMPARE(a.advance(a.advance(s, 3), 0), GrammarAutomaton::kDead);
    }

    void cacheReusesCompiledConstraints() {
        test::FakeTokenizer tok({"a", "<eos>"}, 1);
        ConstraintCache cache(std::make_shared<TokenBytesTable>(tok), 2);
        const ConstraintSpec a{ConstraintSpec::Kind::Gbnf, "root ::= \"a\"", "a"}, b{ConstraintSpec::Kind::Gbnf, "root ::= \"a\"*", "b"};
        auto first = cache.get(a);
        QCOMPARE(cache.get(a).get(), first.get());
        cache.get(b);
        cache.get({ConstraintSpec::Kind::AnyJson, "", "j"});  // evicts a
        QVERIFY(cache.get(a).get() != first.get());
        QVERIFY_THROWS_EXCEPTION(Error, cache.get({ConstraintSpec::Kind::Gbnf, "root ::= x", "bad"}));
    }

    // On a real (tiny) model: beam search, sampling and compare keep every output inside the grammar.
    void beamAndCompareHonourTheConstraint() {
        writeTinyModel(TinyModelSpec{}, tinyPath());
        auto model = Model::load(tinyPath());
        auto backend = makeCpuBackend(*model, 1);
        const Tokenizer& tok = model->tokenizer();
        auto constraint = Constraint::compile({ConstraintSpec::Kind::Gbnf, "root ::= \"[\" [0-9a-f ]{1,12} \"]\"", "t"},
                                              std::make_shared<TokenBytesTable>(tok));
        const std::vector<TokenId> prompt = tok.encode("hello there", false, false);
        BeamOptions o;
        o.width = 3;
        o.maxNewTokens = 16;
        o.endTokens = endOfGenerationTokens(tok);
        o.constraint = constraint;
        const BeamResult r = beamSearchModel(*model, *backend, prompt, o, KvType::F32, 256);
        QVERIFY(!r.hypotheses.empty());
        for (const auto& h : r.hypotheses) {
            const auto s = constraint->automaton().advanceBytes(constraint->automaton().initial(), tok.decode(h.tokens));
            QVERIFY2(s != GrammarAutomaton::kDead, tok.decode(h.tokens).c_str());
            if (h.ended) QVERIFY(constraint->automaton().accepting(s));
        }
        CompareOptions co;
        co.maxTokens = 16;
        co.kvType = KvType::F32;
        co.contextLimit = 256;
        co.constraint = constraint;
        std::vector<RunSpec> runs = {parseRunSpec("greedy"), parseRunSpec("greedy:grammar=off"), parseRunSpec("sample:t=1.5,k=0,p=1,seed=4"),
                                     parseRunSpec("beam:k=2")};
        QCOMPARE(runSpecText(runs[1]), std::string("greedy:grammar=off"));
        const CompareResult cr = compareRuns(*model, *backend, prompt, runs, co);
        for (size_t i : {0u, 2u}) {
            const std::string text = tok.decode(cr.runs[i].tokens);
            QVERIFY2(constraint->automaton().advanceBytes(constraint->automaton().initial(), text) != GrammarAutomaton::kDead, text.c_str());
            QVERIFY2(text.front() == '[', text.c_str());
        }
        QVERIFY(tok.decode(cr.runs[1].tokens).rfind("[", 0) != 0);  // the random tiny model does not write brackets on its own
    }

private:
    static bool a_ok(const std::shared_ptr<const Constraint>& c, const std::vector<TokenId>& history) {
        GrammarStage s(c);
        return s.stateAfter(history) != GrammarAutomaton::kDead;
    }
};

QTEST_APPLESS_MAIN(TestGrammar)
#include "test_grammar.moc"
