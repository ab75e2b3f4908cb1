// Banned phrases (safety/banned_phrases.h) and the "banned-phrases" sampler stage on the tiny
// models' 320-token byte-level BPE vocabulary, where "the" can come as " the", " t" + "he", "t" + "he",
// "t" + "h" + "e" or " " + "t" + "he":
//  * the automaton's answer for each token equals a brute-force search of the output's bytes with
//    the token appended, for every token, in random output states, case-sensitive and not;
//  * the stage's snapshot (forbidden list, p, count) equals that brute force over the vocabulary,
//    with p computed from the raw logits;
//  * sampling thousands of tokens from logits that push towards the phrase never produces it with
//    the ban on (and does without it);
//  * bad phrases give their one sentence.
#include <QTest>

#include <algorithm>
#include <cmath>
#include <random>

#include "core/error.h"
#include "gguf/tiny_model.h"
#include "model/model.h"
#include "safety/banned_phrases.h"
#include "sampling/sampler_chain.h"
#include "sampling/stage_banned_phrases.h"
#include "test_paths.h"

using namespace dlab;

namespace {

const Model& tiny() {
    static std::unique_ptr<Model> m = [] {
        const std::string path = test::scratchDir() + "/banned-tiny.gguf";
        writeTinyModel(TinyModelSpec{}, path);
        return Model::load(path);
    }();
    return *m;
}

std::shared_ptr<const TokenBytesTable> table() {
    static auto t = std::make_shared<const TokenBytesTable>(tiny().tokenizer());
    return t;
}

std::string lower(std::string s) {
    for (char& c : s)
        if (c >= 'A' && c <= 'Z') c = char(c + 32);
    return s;
}

// Whether appending `piece` to `text` makes one of `phrases` appear that was not there before:
// an occurrence that ends inside the appended bytes.
bool bruteForbids(const std::string& text, const std::string& piece, const std::vector<std::string>& phrases, bool ci) {
    const std::string all = ci ? lower(text + piece) : text + piece;
    for (std::string p : phrases) {
        if (ci) p = lower(p);
        for (size_t at = all.find(p); at != std::string::npos; at = all.find(p, at + 1))
            if (at + p.size() > text.size()) return true;
    }
    return false;
}

TokenId tokenOf(const std::string& bytes) {
    const TokenBytesTable& t = *table();
    for (TokenId id = 0; id < t.size(); ++id)
        if (t.role(id) == TokenRole::Text && t.bytes(id) == bytes) return id;
    return -1;
}

std::string textOf(const std::vector<TokenId>& ids) {
    std::string s;
    for (TokenId id : ids) s += table()->bytes(id);
    return s;
}

// Random generated tokens, biased towards the letters of the phrases so the states get deep.
std::vector<TokenId> randomOutput(std::mt19937& rng, const std::string& letters, int n) {
    std::vector<TokenId> candidates;
    const TokenBytesTable& t = *table();
    for (TokenId id = 0; id < t.size(); ++id) {
        if (t.role(id) != TokenRole::Text) continue;
        const std::string& b = t.bytes(id);
        if (std::all_of(b.begin(), b.end(), [&](char c) { return letters.find(c) != std::string::npos; })) candidates.push_back(id);
    }
    std::vector<TokenId> out;
    std::uniform_int_distribution<size_t> pick(0, candidates.size() - 1);
    std::uniform_int_distribution<TokenId> any(0, t.size() - 1);
    for (int i = 0; i < n; ++i) out.push_back(rng() % 4 ? candidates[pick(rng)] : any(rng));
    return out;
}

SamplerParams banOnly(std::shared_ptr<const BannedPhrases> ban) {
    SamplerParams p;
    p.temperature = 1.0f;
    p.topK = 0;
    p.topP = 1.0f;
    p.order = "banned-phrases";
    p.bannedPhrases = std::move(ban);
    return p;
}

}  // namespace

class TestBannedPhrases : public QObject {
    Q_OBJECT
private slots:
    void splitsOfOnePhrase() {
        const auto ban = std::make_shared<BannedPhrases>(std::vector<std::string>{"the"}, table());
        const auto forbids = [&](const std::string& before, const std::string& token) {
            const TokenId id = tokenOf(token);
            if (id < 0) throw Error("the tiny vocabulary has no token '" + token + "'");
            return ban->forbids(ban->stateAfterText(before), id);
        };
        QVERIFY(forbids("", " the"));
        QVERIFY(forbids("t", "he"));
        QVERIFY(forbids(" t", "he"));
        QVERIFY(forbids("th", "e"));
        QVERIFY(forbids("so th", "e"));
        QVERIFY(forbids("tt", "he"));      // the failure link: "tt" ends in "t"
        QVERIFY(!forbids("th", "a"));
        QVERIFY(!forbids("t", "e"));
        QVERIFY(!forbids("", "he"));
        QVERIFY(!forbids("tha", "e"));
        QVERIFY(!forbids("the", "e"));     // already there: only a new occurrence counts
        // Case: exact by default, ASCII-folded on request.
        QVERIFY(!forbids("T", "he"));
        const auto folded = std::make_shared<BannedPhrases>(std::vector<std::string>{"THE"}, table(), true);
        QVERIFY(folded->forbids(folded->stateAfterText("T"), tokenOf("he")));
        QVERIFY(folded->forbids(folded->stateAfterText("t"), tokenOf("he")));
        QVERIFY(folded->forbids(folded->start(), tokenOf(" the")));
        // Tokens without text never complete anything.
        const Tokenizer& tok = tiny().tokenizer();
        QVERIFY(!ban->forbids(ban->stateAfterText("th"), tok.eos()));
        QVERIFY(!ban->forbids(ban->stateAfterText("th"), -1));
        QVERIFY(!ban->forbids(ban->stateAfterText("th"), 100000));
    }

    void findsTheFirstOccurrence() {
        const BannedPhrases ban({"he", "she", "hers"}, table());
        auto m = ban.find("ushers");
        QVERIFY(m);
        QCOMPARE(m->phrase, 1);   // "she" and "he" end at the same byte: the longer one
        QCOMPARE(int(m->begin), 1);
        QCOMPARE(int(m->end), 4);
        QVERIFY(!ban.find("ush"));
    }

    void automatonEqualsBruteForce_data() {
        QTest::addColumn<QStringList>("phrases");
        QTest::addColumn<bool>("ci");
        QTest::newRow("one word") << QStringList{"the"} << false;
        QTest::newRow("overlapping") << QStringList{"he", "she", "hers", "his"} << false;
        QTest::newRow("self-overlapping") << QStringList{"aaa", "abab"} << false;
        QTest::newRow("with spaces") << QStringList{" the end", "in the"} << false;
        QTest::newRow("case-insensitive") << QStringList{"The", "HIS"} << true;
        QTest::newRow("one byte") << QStringList{"e"} << false;
        QTest::newRow("non-ASCII") << QStringList{QString::fromUtf8("é"), QString::fromUtf8("日本")} << true;
    }
    void automatonEqualsBruteForce() {
        QFETCH(QStringList, phrases);
        QFETCH(bool, ci);
        std::vector<std::string> list;
        std::string letters = " ";
        for (const QString& p : phrases) {
            list.push_back(p.toStdString());
            letters += list.back();
            if (ci) letters += lower(list.back());
        }
        const BannedPhrases ban(list, table(), ci);
        std::mt19937 rng(7);
        const TokenBytesTable& t = *table();
        for (int trial = 0; trial < 40; ++trial) {
            const std::vector<TokenId> out = randomOutput(rng, letters, int(rng() % 12));
            const std::string text = textOf(out);
            const auto state = ban.stateAfter(out);
            QCOMPARE(state, ban.stateAfterText(text));
            for (TokenId id = 0; id < t.size(); ++id) {
                const bool expected = t.role(id) == TokenRole::Text && bruteForbids(text, t.bytes(id), list, ci);
                if (ban.forbids(state, id) != expected)
                    QFAIL(qPrintable(QStringLiteral("after '%1', token %2 '%3': automaton %4, brute force %5")
                                         .arg(QString::fromStdString(text))
                                         .arg(id)
                                         .arg(QString::fromStdString(t.bytes(id)))
                                         .arg(ban.forbids(state, id))
                                         .arg(expected)));
            }
        }
    }

    // The stage's snapshot against the brute force over the whole vocabulary.
    void snapshotEqualsBruteForce_data() {
        QTest::addColumn<QStringList>("phrases");
        QTest::addColumn<bool>("ci");
        QTest::newRow("the") << QStringList{"the"} << false;
        QTest::newRow("several") << QStringList{"he", "she", "in the", "ing"} << false;
        QTest::newRow("folded") << QStringList{"THE", "And"} << true;
        QTest::newRow("many forbidden") << QStringList{"e", "t"} << false;
    }
    void snapshotEqualsBruteForce() {
        QFETCH(QStringList, phrases);
        QFETCH(bool, ci);
        std::vector<std::string> list;
        std::string letters = " ";
        for (const QString& p : phrases) {
            list.push_back(p.toStdString());
            letters += list.back() + lower(list.back());
        }
        auto ban = std::make_shared<const BannedPhrases>(list, table(), ci);
        SamplerChain chain(banOnly(ban), 8);
        const TokenBytesTable& t = *table();
        const int n = tiny().hparams().nVocab;
        std::mt19937 rng(11);
        std::normal_distribution<float> normal(0.0f, 3.0f);
        for (int trial = 0; trial < 30; ++trial) {
            const std::vector<TokenId> out = randomOutput(rng, letters, int(rng() % 10));
            const std::vector<TokenId> prompt = {1, 2, 3};   // not part of the output
            std::vector<TokenId> history = prompt;
            history.insert(history.end(), out.begin(), out.end());
            std::vector<float> logits(static_cast<size_t>(n), 0.0f);
            for (float& x : logits) x = normal(rng);
            if (trial % 3 == 0) logits[size_t(rng() % n)] = -std::numeric_limits<float>::infinity();
            SamplerState state(1);
            const SampleResult r = chain.sample(logits, History{history, prompt.size()}, state, true);
            QCOMPARE(int(r.stages.size()), 1);
            const StageSnapshot& s = r.stages[0];

            const std::string text = textOf(out);
            double m = -1e30, sum = 0.0;
            for (float x : logits) m = std::max(m, double(x));
            for (float x : logits) sum += std::exp(double(x) - m);
            const double logZ = m + std::log(sum);
            std::vector<Candidate> expected;
            for (TokenId id = 0; id < n; ++id) {
                const bool f = id < t.size() && t.role(id) == TokenRole::Text && bruteForbids(text, t.bytes(id), list, ci);
                if (f && std::isfinite(logits[size_t(id)])) expected.push_back({id, logits[size_t(id)], 0.0f});
            }
            std::sort(expected.begin(), expected.end(), ranksAbove);
            QCOMPARE(s.forbiddenCount, int(expected.size()));
            expected.resize(std::min(expected.size(), BannedPhrasesStage::kForbiddenShown));
            QCOMPARE(s.forbidden.size(), expected.size());
            for (size_t i = 0; i < expected.size(); ++i) {
                QCOMPARE(s.forbidden[i].id, expected[i].id);
                QCOMPARE(s.forbidden[i].logit, expected[i].logit);
                const double p = std::exp(double(expected[i].logit) - logZ);
                QVERIFY2(std::abs(s.forbidden[i].p - p) <= 1e-6 + 1e-5 * p, qPrintable(QString::number(s.forbidden[i].p) + " vs " + QString::number(p)));
            }
            QCOMPARE(s.changed, s.forbiddenCount > 0);
            // Without candidates in the snapshot the stage sums the survivors itself: the same list.
            SamplerChain bare(banOnly(ban), 0);
            SamplerState state0(1);
            const StageSnapshot s0 = bare.sample(logits, History{history, prompt.size()}, state0, true).stages.at(0);
            QCOMPARE(s0.forbiddenCount, s.forbiddenCount);
            QCOMPARE(s0.forbidden.size(), s.forbidden.size());
            for (size_t i = 0; i < s.forbidden.size(); ++i) {
                QCOMPARE(s0.forbidden[i].id, s.forbidden[i].id);
                QVERIFY(std::abs(s0.forbidden[i].p - s.forbidden[i].p) <= 1e-6f + 1e-5f * s.forbidden[i].p);
            }
            // The survivors are exactly the others.
            size_t survivors = 0;
            for (const Candidate& c : chain.candidates()) {
                QVERIFY(!(c.id < t.size() && t.role(c.id) == TokenRole::Text && bruteForbids(text, t.bytes(c.id), list, ci)));
                ++survivors;
            }
            size_t banned = 0;
            for (TokenId id = 0; id < n; ++id)
                banned += id < t.size() && t.role(id) == TokenRole::Text && bruteForbids(text, t.bytes(id), list, ci);
            QCOMPARE(survivors + banned, size_t(n));
        }
    }

    // Logits that push hard towards t / h / e / " " make "the" within a few tokens without the
    // ban; with it, however the draw splits the phrase, it never appears.
    void neverSampledHoweverTokenized() {
        const TokenBytesTable& t = *table();
        const int n = tiny().hparams().nVocab;
        std::vector<float> logits(size_t(n), 0.0f);
        for (TokenId id = 0; id < t.size(); ++id) {
            const std::string& b = t.bytes(id);
            if (t.role(id) == TokenRole::Text && !b.empty() &&
                std::all_of(b.begin(), b.end(), [](char c) { return c == 't' || c == 'h' || c == 'e' || c == ' '; }))
                logits[size_t(id)] = 6.0f;
        }
        const std::vector<std::string> phrase{"the"};
        for (const bool banned : {false, true}) {
            SamplerParams p = banOnly(banned ? std::make_shared<const BannedPhrases>(phrase, table()) : nullptr);
            if (!banned) p.order = "temperature";
            SamplerChain chain(p, 0);
            int appeared = 0;
            std::vector<int> splits(4, 0);   // how the phrase's last byte came: alone, with 1 or 2 bytes before it in the token
            for (uint64_t seed = 0; seed < 40; ++seed) {
                SamplerState state(seed);
                std::vector<TokenId> history;
                for (int step = 0; step < 60; ++step) {
                    const SampleResult r = chain.sample(logits, History{history, 0}, state, false);
                    const std::string before = textOf(history);
                    history.push_back(r.token);
                    if (bruteForbids(before, t.bytes(r.token), phrase, false)) {
                        ++appeared;
                        const std::string& b = t.bytes(r.token);
                        const size_t at = (before + b).rfind("the");
                        splits[std::min<size_t>(3, at + 3 - before.size())]++;
                    }
                }
                if (banned) QVERIFY2(textOf(history).find("the") == std::string::npos, textOf(history).c_str());
            }
            if (banned) {
                QCOMPARE(appeared, 0);
            } else {
                QVERIFY(appeared > 100);
                // The unbanned runs reach the phrase through more than one split.
                QVERIFY(std::count_if(splits.begin(), splits.end(), [](int k) { return k > 0; }) >= 2);
            }
        }
    }

    void stageIsOffWithoutPhrases() {
        SamplerParams p = banOnly(nullptr);
        SamplerChain chain(p, 4);
        QVERIFY(!chain.stages().front()->enabled());
        auto empty = std::make_shared<const BannedPhrases>(std::vector<std::string>{}, table());
        QVERIFY(empty->empty());
        SamplerChain chain2(banOnly(empty), 4);
        QVERIFY(!chain2.stages().front()->enabled());
        // Set in the params, the chain puts the stage first even when the order does not name it.
        SamplerParams hf;
        hf.bannedPhrases = std::make_shared<const BannedPhrases>(std::vector<std::string>{"x"}, table());
        SamplerChain chain3(hf, 4);
        QCOMPARE(std::string(chain3.stages().front()->name()), std::string("banned-phrases"));
    }

    void badPhrases_data() {
        QTest::addColumn<QByteArrayList>("phrases");
        QTest::addColumn<QString>("message");
        QTest::newRow("empty") << QByteArrayList{"ok", ""} << "banned phrase 2 is empty; a banned phrase needs at least one character";
        QTest::newRow("invalid UTF-8") << QByteArrayList{QByteArray("caf\xC3", 4)}
                                       << QString::fromUtf8("banned phrase 1 (\"caf\xEF\xBF\xBD\") is not valid UTF-8 (invalid byte 0xC3 at offset 3)");
        QTest::newRow("surrogate") << QByteArrayList{"a", "b", QByteArray("\xED\xA0\x80", 3)}
                                   << QString::fromUtf8("banned phrase 3 (\"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\") is not valid UTF-8 (invalid byte 0xED at offset 0)");
        QTest::newRow("too long") << QByteArrayList{QByteArray(65, 'x')}
                                  << QStringLiteral("banned phrase 1 (\"%1…\") is 65 bytes long; a banned phrase may have at most 64 bytes")
                                         .arg(QString(40, QLatin1Char('x')));
        QByteArrayList many;
        for (int i = 0; i < 65; ++i) many << QByteArray::number(i);
        QTest::newRow("too many") << many << "there are 65 banned phrases; at most 64 are allowed";
    }
    void badPhrases() {
        QFETCH(QByteArrayList, phrases);
        QFETCH(QString, message);
        std::vector<std::string> list;
        for (const QByteArray& p : phrases) list.push_back(p.toStdString());
        try {
            BannedPhrases ban(list, table());
            QFAIL("no error");
        } catch (const Error& e) {
            QCOMPARE(QString::fromUtf8(e.what()), message);
        }
    }
};

QTEST_APPLESS_MAIN(TestBannedPhrases)
#include "test_banned_phrases.moc"
