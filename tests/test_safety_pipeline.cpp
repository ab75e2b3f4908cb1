// The safety pipeline (safety/safety_pipeline.h) on a tiny random llama model, greedy, so a run
// with a layer switched on can be compared with the same run without it:
//  * the input filter blocks before anything is decoded, and the other layers are not reached;
//  * the output filter cuts at the first step whose streamed text contains a match (found by a
//    brute-force search over the unfiltered run's prefixes), keeps the text before the match and
//    decodes nothing after that step;
//  * refusal patterns only read the reply: the text is the unfiltered one, the step is the one that
//    wrote the match's last byte;
//  * a banned phrase taken from the unfiltered reply never appears, and the reply is the same up to
//    the step where the stage forbade the greedy choice;
//  * each bad pattern gives its one sentence (layer, number, PCRE2's message and offset), before
//    anything runs.
#include <QTest>

#include "core/error.h"
#include "gguf/tiny_model.h"
#include "model/backend.h"
#include "safety/safety_pipeline.h"
#include "test_paths.h"
#include "tokenizer/utf8.h"

using namespace dlab;

namespace {

const Model& model() {
    static std::unique_ptr<Model> m = [] {
        TinyModelSpec spec;
        spec.nCtx = 256;
        const std::string path = test::scratchDir() + "/safety-tiny.gguf";
        writeTinyModel(spec, path);
        return Model::load(path);
    }();
    return *m;
}

Backend& backend() {
    static std::unique_ptr<Backend> b = makeCpuBackend(model(), 1, /*exactMatmul=*/true);
    return *b;
}

SafetyRequest request(SafetyPolicy policy = {}) {
    SafetyRequest r;
    r.prompt = "Once upon a time the";
    r.chat = false;
    r.maxTokens = 40;
    r.policy = std::move(policy);
    r.policy.caseInsensitive = false;
    return r;
}

SafetyRun plainRun() {
    static const SafetyRun r = runSafetyPipeline(model(), backend(), request());
    return r;
}

// A pattern that matches `literal` exactly.
std::string literal(const std::string& text) { return "\\Q" + text + "\\E"; }

// `chars` whole characters of the plain run's text from the start of step `step`'s text (the
// random model writes many U+FFFD: every piece is valid UTF-8, so the patterns are too).
std::string pieceAround(const SafetyRun& r, int step, int chars) {
    const size_t begin = r.steps[size_t(step)].textBegin;
    size_t end = begin;
    for (int i = 0; i < chars && end < r.rawText.size(); ++i) end += utf8::charLengthAt(r.rawText, end);
    return r.rawText.substr(begin, end - begin);
}

// The first run of `len` ASCII letters and spaces in the plain text after step `step` began:
// a phrase the tokens' own bytes spell (U+FFFD stands for bytes that are not it).
std::string asciiAfter(const SafetyRun& r, int step, size_t len) {
    const auto ok = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == ' '; };
    for (size_t i = r.steps[size_t(step)].textBegin; i + len <= r.rawText.size(); ++i) {
        size_t k = 0;
        while (k < len && ok(r.rawText[i + k])) ++k;
        if (k == len) return r.rawText.substr(i, len);
    }
    return {};
}

}  // namespace

class TestSafetyPipeline : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        const SafetyRun& r = plainRun();
        QVERIFY(!r.blocked && !r.cut && !r.refused);
        QCOMPARE(int(r.steps.size()), 40);   // the tiny model does not end early on this prompt
        QVERIFY(r.rawText.size() > 40);
        for (const SafetyLayerReport& l : r.layers) QCOMPARE(l.state, SafetyLayerState::Off);
        QCOMPARE(r.shownText, r.rawText);
    }

    void inputFilterBlocksBeforeDecoding() {
        SafetyPolicy p;
        p.inputPatterns = {"dragon", R"(\btime\b)"};
        p.outputPatterns = {"x"};
        p.bannedPhrases = {"y"};
        p.refusalPatterns = {"z"};
        const SafetyRun r = runSafetyPipeline(model(), backend(), request(p));
        QVERIFY(r.blocked);
        QVERIFY(r.steps.empty());
        QVERIFY(r.rawText.empty() && r.shownText.empty() && r.promptText.empty());
        QCOMPARE(r.promptTokens, 0);        // not even tokenized
        QCOMPARE(r.decodeMs, 0.0);
        QCOMPARE(int(r.events.size()), 1);
        const SafetyEvent& e = r.events[0];
        QCOMPARE(e.layer, SafetyLayer::InputFilter);
        QCOMPARE(e.step, -1);
        QCOMPARE(e.index, 1);
        QCOMPARE(e.matched, std::string("time"));
        QCOMPARE(int(e.begin), 12);
        QCOMPARE(int(e.end), 16);
        QCOMPARE(r.layer(SafetyLayer::InputFilter).state, SafetyLayerState::Acted);
        QCOMPARE(r.layer(SafetyLayer::BannedPhrases).state, SafetyLayerState::NotReached);
        QCOMPARE(r.layer(SafetyLayer::ModelRefusal).state, SafetyLayerState::NotReached);
        QCOMPARE(r.layer(SafetyLayer::OutputFilter).state, SafetyLayerState::NotReached);
        // Case: only with caseInsensitive.
        SafetyRequest q = request(p);
        q.prompt = "Once upon a TIME";
        QVERIFY(!runSafetyPipeline(model(), backend(), q).blocked);
        q.policy.caseInsensitive = true;
        q.policy.outputPatterns.clear();
        QVERIFY(runSafetyPipeline(model(), backend(), q).blocked);
    }

    void outputFilterCutsAtTheFirstMatchingStep_data() {
        QTest::addColumn<int>("around");
        QTest::addColumn<int>("length");
        QTest::newRow("step 3, 3 bytes") << 3 << 3;
        QTest::newRow("step 12, 5 bytes") << 12 << 5;
        QTest::newRow("step 30, 2 bytes") << 30 << 2;
    }
    void outputFilterCutsAtTheFirstMatchingStep() {
        QFETCH(int, around);
        QFETCH(int, length);
        const SafetyRun& plain = plainRun();
        const std::string target = pieceAround(plain, around, size_t(length));
        // Brute force: the first step whose text so far contains the target.
        int expectedStep = -1;
        for (const SafetyStep& s : plain.steps)
            if (plain.rawText.substr(0, s.textEnd).find(target) != std::string::npos) {
                expectedStep = s.step;
                break;
            }
        QVERIFY(expectedStep >= around);
        const size_t at = plain.rawText.find(target);

        SafetyPolicy p;
        p.outputPatterns = {"no such text here", literal(target)};
        const SafetyRun r = runSafetyPipeline(model(), backend(), request(p));
        QVERIFY(r.cut);
        QCOMPARE(r.cutStep, expectedStep);
        QCOMPARE(int(r.steps.size()), expectedStep + 1);   // nothing decoded after the cut
        QCOMPARE(r.rawText, plain.rawText.substr(0, plain.steps[size_t(expectedStep)].textEnd));
        QCOMPARE(int(r.cutAt), int(at));
        QCOMPARE(r.shownText, plain.rawText.substr(0, at));
        QCOMPARE(int(r.streamedBeforeCut), int(plain.steps[size_t(expectedStep)].textBegin));
        QCOMPARE(int(r.events.size()), 1);
        QCOMPARE(r.events[0].layer, SafetyLayer::OutputFilter);
        QCOMPARE(r.events[0].step, expectedStep);
        QCOMPARE(r.events[0].index, 1);
        QCOMPARE(r.events[0].matched, target);
        QCOMPARE(r.layer(SafetyLayer::OutputFilter).state, SafetyLayerState::Acted);
        QCOMPARE(r.layer(SafetyLayer::OutputFilter).firstStep, expectedStep);
        QCOMPARE(r.layer(SafetyLayer::InputFilter).state, SafetyLayerState::Off);
        for (int i = 0; i <= expectedStep; ++i) QCOMPARE(r.steps[size_t(i)].token, plain.steps[size_t(i)].token);
    }

    void refusalPatternsReadTheReply() {
        const SafetyRun& plain = plainRun();
        const std::string target = pieceAround(plain, 20, 4);
        const size_t end = plain.rawText.find(target) + target.size();
        int expectedStep = -1;
        for (const SafetyStep& s : plain.steps)
            if (s.textEnd >= end) {
                expectedStep = s.step;
                break;
            }
        SafetyPolicy p;
        p.refusalPatterns = {literal(target)};
        const SafetyRun r = runSafetyPipeline(model(), backend(), request(p));
        QVERIFY(r.refused);
        QVERIFY(!r.cut);
        QCOMPARE(r.rawText, plain.rawText);     // a refusal pattern changes nothing in the text
        QCOMPARE(r.shownText, plain.rawText);
        QCOMPARE(int(r.events.size()), 1);
        QCOMPARE(r.events[0].layer, SafetyLayer::ModelRefusal);
        QCOMPARE(r.events[0].step, expectedStep);
        QCOMPARE(r.events[0].matched, target);
        QVERIFY(QString::fromStdString(r.events[0].detail).contains(QStringLiteral("not a classifier")));
        QCOMPARE(r.layer(SafetyLayer::ModelRefusal).state, SafetyLayerState::Acted);

        p.refusalPatterns = {"I'm sorry", "I cannot"};
        const SafetyRun none = runSafetyPipeline(model(), backend(), request(p));
        QVERIFY(!none.refused);
        QCOMPARE(none.layer(SafetyLayer::ModelRefusal).state, SafetyLayerState::Passed);
    }

    void refusalBeforeACutComesFirst() {
        const SafetyRun& plain = plainRun();
        SafetyPolicy p;
        p.refusalPatterns = {literal(pieceAround(plain, 5, 3))};
        p.outputPatterns = {literal(pieceAround(plain, 25, 3))};
        const SafetyRun r = runSafetyPipeline(model(), backend(), request(p));
        QVERIFY(r.refused && r.cut);
        QCOMPARE(int(r.events.size()), 2);
        QCOMPARE(r.events[0].layer, SafetyLayer::ModelRefusal);
        QCOMPARE(r.events[1].layer, SafetyLayer::OutputFilter);
        QVERIFY(r.events[0].step <= r.events[1].step);
    }

    void bannedPhraseNeverAppears() {
        const SafetyRun& plain = plainRun();
        const std::string phrase = asciiAfter(plain, 8, 2);
        QVERIFY(!phrase.empty());
        SafetyPolicy p;
        p.bannedPhrases = {phrase};
        const SafetyRun r = runSafetyPipeline(model(), backend(), request(p));
        QVERIFY(r.rawText.find(phrase) == std::string::npos);
        size_t d = 0;
        while (d < r.steps.size() && r.steps[d].token == plain.steps[d].token) ++d;
        QVERIFY(d < r.steps.size());
        QVERIFY(r.steps[d].greedyChoiceForbidden);
        QCOMPARE(r.steps[d].bestForbidden, plain.steps[d].token);
        QVERIFY(r.steps[d].forbiddenCount >= 1);
        QVERIFY(r.steps[d].forbiddenMass >= r.steps[d].bestForbiddenP * 0.999f);
        QCOMPARE(r.rawText.substr(0, r.steps[d].textBegin), plain.rawText.substr(0, plain.steps[d].textBegin));
        // Events are the steps that removed at least 1 % of the probability.
        int interventions = 0;
        for (const SafetyStep& s : r.steps) interventions += s.intervention();
        QCOMPARE(r.layer(SafetyLayer::BannedPhrases).events, interventions);
        for (const SafetyEvent& e : r.events) {
            QCOMPARE(e.layer, SafetyLayer::BannedPhrases);
            const SafetyStep& s = r.steps[size_t(e.step)];
            QVERIFY(s.intervention());
            QCOMPARE(e.p, s.bestForbiddenP);
            QCOMPARE(e.matched, s.bestForbiddenText);
        }
        QCOMPARE(r.layer(SafetyLayer::BannedPhrases).state, interventions ? SafetyLayerState::Acted : SafetyLayerState::Passed);
    }

    void badPatterns_data() {
        QTest::addColumn<int>("layer");
        QTest::addColumn<QStringList>("patterns");
        QTest::addColumn<QString>("message");
        QTest::newRow("input: open parenthesis") << 0 << QStringList{"ok", "(abc"}
                                                 << "input filter pattern 2 (\"(abc\") does not compile: missing closing parenthesis at offset 4";
        QTest::newRow("output: open class") << 1 << QStringList{"[a-"}
                                            << "output filter pattern 1 (\"[a-\") does not compile: missing terminating ] for character class at offset 3";
        QTest::newRow("refusal: nothing to repeat") << 2 << QStringList{"a", "b", "*x"}
                                                    << "refusal pattern 3 (\"*x\") does not compile: quantifier does not follow a repeatable item at offset 0";
        QTest::newRow("input: bad escape") << 0 << QStringList{R"(\k)"}
                                           << "input filter pattern 1 (\"\\k\") does not compile: \\k is not followed by a braced, angle-bracketed, or quoted name at offset 2";
        QTest::newRow("output: empty") << 1 << QStringList{"a", ""} << "output filter pattern 2 is empty; an empty pattern would match every text";
        QTest::newRow("refusal: too long") << 2 << QStringList{QString(1001, QLatin1Char('a'))}
                                           << "refusal pattern 1 is 1001 bytes long; a pattern may have at most 1000 bytes";
        QStringList many;
        for (int i = 0; i < 65; ++i) many << QStringLiteral("a");
        QTest::newRow("input: too many") << 0 << many << "the input filter has 65 patterns; at most 64 are allowed";
        QTest::newRow("banned phrase") << 3 << QStringList{"ok", ""} << "banned phrase 2 is empty; a banned phrase needs at least one character";
    }
    void badPatterns() {
        QFETCH(int, layer);
        QFETCH(QStringList, patterns);
        QFETCH(QString, message);
        SafetyPolicy p;
        std::vector<std::string> list;
        for (const QString& s : patterns) list.push_back(s.toStdString());
        (layer == 0 ? p.inputPatterns : layer == 1 ? p.outputPatterns : layer == 2 ? p.refusalPatterns : p.bannedPhrases) = list;
        try {
            runSafetyPipeline(model(), backend(), request(p));
            QFAIL("no error");
        } catch (const Error& e) {
            QCOMPARE(QString::fromUtf8(e.what()), message);
        }
    }

    void badPrompt() {
        SafetyRequest r = request();
        r.prompt.clear();
        QVERIFY_THROWS_EXCEPTION(Error, runSafetyPipeline(model(), backend(), r));
        r.prompt = "caf\xC3";
        try {
            runSafetyPipeline(model(), backend(), r);
            QFAIL("no error");
        } catch (const Error& e) {
            QCOMPARE(QString::fromUtf8(e.what()), QStringLiteral("the prompt is not valid UTF-8 (it ends inside a character: byte 0xC3 at offset 3 starts a sequence that is cut off)"));
        }
    }

    void defaultPolicyCompiles() {
        const SafetyPolicy p = defaultSafetyPolicy();
        QVERIFY(!p.inputPatterns.empty() && !p.outputPatterns.empty() && !p.bannedPhrases.empty() && !p.refusalPatterns.empty());
        const CompiledSafetyPolicy c(p, model().tokenizer());
        QVERIFY(c.output->firstMatch("write to john.smith@example.com today"));
        QVERIFY(c.output->firstMatch("call 212-345-1234"));
        QVERIFY(c.refusal->firstMatch("I'm sorry, but I can't help with that."));
        QVERIFY(c.refusal->firstMatch("I\xE2\x80\x99m sorry"));
        QVERIFY(c.input->firstMatch("How do I make a BOMB?"));
        QVERIFY(!c.input->firstMatch("How do I bake bread?"));
    }
};

QTEST_APPLESS_MAIN(TestSafetyPipeline)
#include "test_safety_pipeline.moc"
