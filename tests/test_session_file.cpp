// Saved sessions (engine/session/session_file.h), without Qt in the code under test:
//  * a realistic session — real steps of a generation session on a tiny model, a branch with a
//    forced token, the sampler's logit bias and DRY breakers, a page payload — is written and read
//    back equal, field for field; so are traces with attention weights from generate();
//  * every bad file gives one line that names the file and the JSON path of the bad field
//    (a table of mutations of a good file, a truncated and an empty one, a deep one, …);
//  * a save that fails (the session does not check out, the disk refuses the bytes mid-write, the
//    target is a folder) leaves the previous file as it was and no temporary file behind.
// DLAB_SESSION_SEED_DIR=dir writes a small real session there (tests/fuzz/corpus/session_file).
#include <QTest>

#include <sys/resource.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "generate/generator.h"
#include "generate/session.h"
#include "gguf/tiny_model.h"
#include "grammar/constraint.h"
#include "model/backend.h"
#include "model/kv_cache.h"
#include "model/model.h"
#include "session/session_file.h"
#include "test_paths.h"

using namespace dlab;
using Json = nlohmann::json;
namespace fs = std::filesystem;

namespace {

const std::vector<TokenId> kPrompt = {316, 84, 104, 101, 32, 113, 117, 105, 99, 107, 32, 98, 114, 111, 119, 110, 32, 102, 111, 120};

std::string readAll(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

void writeAll(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

// The sampler the realistic session runs: every kind of setting a spec cannot hold is set too.
SamplerParams richSampler() {
    SamplerParams p;
    p.temperature = 0.9f;
    p.topK = 30;
    p.topP = 0.95f;
    p.minP = 0.02f;
    p.repeatPenalty = 1.1f;
    p.dryMultiplier = 0.5f;
    p.dryBreakers = {{32}, {46, 32}};
    p.logitBias = {{101, -std::numeric_limits<float>::infinity()}, {32, 1.5f}};
    p.order = "llama.cpp";
    p.seed = 7;
    return p;
}

// What the playground records of a step: its trace, its settings and the raw logits its views read.
SavedStep record(const Session& s, const StepTrace& t, bool forced = false) {
    return SavedStep{t, s.samplerParams(), savedRawLogits(s.logits(t.step), t.stages), forced};
}

// A real session on the tiny model: `steps` steps, then a branch at `forkAt` with the last stage's
// second candidate and `after` more steps on it. traceTopN bounds the candidates per stage.
SavedSession realSession(const Model& model, Backend& backend, int steps, int forkAt, int after, int traceTopN = 64) {
    const Tokenizer& tok = model.tokenizer();
    SessionOptions options;
    options.sampler = richSampler();
    options.traceTopN = traceTopN;
    Session session(model, backend, kPrompt, options);
    SavedBranch first;
    for (int i = 0; i < steps; ++i) first.steps.push_back(record(session, session.step()));

    SavedBranch second;
    second.id = 1;
    second.parent = 0;
    second.forkStep = forkAt;
    second.steps.assign(first.steps.begin(), first.steps.begin() + forkAt);
    const StepTrace& replaced = first.steps[static_cast<size_t>(forkAt)].trace;
    const Candidate other = replaced.stages.back().top.at(1);
    const BranchId id = session.branch(forkAt, other.id);
    const SampleResult r = session.resample(forkAt, session.samplerParams());
    StepTrace forced = replaced;   // the step's own distribution, with the other token taken
    forced.seq = id;
    forced.chosen = other.id;
    forced.text = tok.tokenToPiece(other.id, true);
    forced.chosenProbability = other.p;
    forced.raw = r.raw;
    forced.stages = r.stages;
    forced.kv = kvTraceStats(session.kvStats(), forced.pos);
    forced.forwardMs = 0.0;
    second.steps.push_back(record(session, forced, true));
    for (int i = 0; i < after; ++i) second.steps.push_back(record(session, session.step()));

    SavedSession s;
    s.model = {"session-tiny.gguf", "llama", model.hparams().nVocab, tok.bos()};
    s.prompt = tok.decode(kPrompt, true);
    s.promptTokens = kPrompt;
    s.sampler = richSampler();
    s.branches = {first, second};
    s.currentBranch = 1;
    s.pagePayload = R"({"bars":20,"note":"für 课堂"})";
    for (TokenId t : shownTokenIds(s)) s.tokens.push_back(savedToken(tok, t));
    return s;
}

// Field by field, so a failure names what differs (then the whole, which is the same fields).
void compareSessions(const SavedSession& a, const SavedSession& b) {
    QCOMPARE(a.format, b.format);
    QCOMPARE(a.version, b.version);
    QCOMPARE(a.page, b.page);
    QVERIFY(a.model == b.model);
    QCOMPARE(a.prompt, b.prompt);
    QVERIFY(a.promptTokens == b.promptTokens);
    QVERIFY(a.sampler == b.sampler);
    QCOMPARE(a.branches.size(), b.branches.size());
    for (size_t i = 0; i < a.branches.size(); ++i) {
        const SavedBranch& x = a.branches[i];
        const SavedBranch& y = b.branches[i];
        QCOMPARE(x.id, y.id);
        QCOMPARE(x.parent, y.parent);
        QCOMPARE(x.forkStep, y.forkStep);
        QCOMPARE(x.steps.size(), y.steps.size());
        for (size_t j = 0; j < x.steps.size(); ++j) {
            const StepTrace& t = x.steps[j].trace;
            const StepTrace& u = y.steps[j].trace;
            const QByteArray where = QByteArray("branch ") + QByteArray::number(int(i)) + " step " + QByteArray::number(int(j));
            QVERIFY2(t.chosen == u.chosen && t.text == u.text && t.chosenProbability == u.chosenProbability, where);
            QVERIFY2(t.raw == u.raw && t.kv == u.kv && t.attention == u.attention, where);
            QVERIFY2(t.forwardMs == u.forwardMs && t.sampleMs == u.sampleMs && t.phase == u.phase && t.pos == u.pos, where);
            QCOMPARE(t.stages.size(), u.stages.size());
            for (size_t k = 0; k < t.stages.size(); ++k) {
                QCOMPARE(t.stages[k].stage, u.stages[k].stage);
                QVERIFY2(t.stages[k] == u.stages[k], where + " stage " + QByteArray::fromStdString(t.stages[k].stage));
            }
            QVERIFY2(x.steps[j].sampler == y.steps[j].sampler, where);
            QVERIFY2(x.steps[j].rawLogits == y.steps[j].rawLogits, where);
            QCOMPARE(x.steps[j].forced, y.steps[j].forced);
        }
    }
    QCOMPARE(a.currentBranch, b.currentBranch);
    QVERIFY(a.tokens == b.tokens);
    QCOMPARE(a.pagePayload, b.pagePayload);
    QVERIFY(a == b);
}

// No ".name.*.tmp" left beside `path`.
int temporaries(const std::string& path) {
    int n = 0;
    const fs::path p(path);
    for (const auto& e : fs::directory_iterator(p.parent_path()))
        if (e.path().filename().string().rfind("." + p.filename().string() + ".", 0) == 0) ++n;
    return n;
}

}  // namespace

class TestSessionFile : public QObject {
    Q_OBJECT

    std::unique_ptr<Model> model_;
    std::unique_ptr<Backend> backend_;
    SavedSession session_;      // realSession(6 steps, branch at 3, 2 more)
    std::string goodText_;      // its document

    std::string path(const char* name) const { return test::scratchDir() + "/" + name; }

private slots:
    void initTestCase() {
        const std::string file = test::scratchDir() + "/session-tiny.gguf";
        writeTinyModel(TinyModelSpec{}, file);
        model_ = Model::load(file);
        backend_ = makeCpuBackend(*model_, 2);
        session_ = realSession(*model_, *backend_, 6, 3, 2);
        goodText_ = sessionJson(session_);
        if (const char* dir = std::getenv("DLAB_SESSION_SEED_DIR"); dir && *dir)
            writeSessionFile(std::string(dir) + "/tiny-session.dlab", realSession(*model_, *backend_, 2, 1, 1, 3));
    }

    void roundTripIsExact() {
        // Sanity: the session is what it claims, a real one.
        QCOMPARE(session_.branches.size(), size_t(2));
        QCOMPARE(session_.branches[1].steps.size(), size_t(6));
        QVERIFY(session_.branches[1].steps[3].forced);
        QVERIFY(!session_.branches[0].steps[0].trace.stages.empty());
        QCOMPARE(session_.branches[0].steps[0].trace.phase, Phase::Prefill);
        QVERIFY(session_.branches[0].steps[2].rawLogits.size() >= size_t(kSavedRawLogits));
        // The replay sees the step's best logits where the session had them.
        const std::vector<float> replay = replayLogits(session_.branches[0].steps[2]);
        QCOMPARE(replay.size(), size_t(kTinyVocabSize));
        for (const TokenLogit& t : session_.branches[0].steps[2].rawLogits) QCOMPARE(replay[size_t(t.id)], t.logit);

        const std::string file = path("round-trip.dlab");
        writeSessionFile(file, session_);
        const SavedSession back = readSessionFile(file);
        compareSessions(back, session_);
        // And the file is the writer's text, once more.
        QCOMPARE(sessionJson(back), readAll(file));
    }

    // Sessions saved before each stage's share of its input was recorded still open: the share is
    // then absent (the waterfall says its ratio is by raw p), everything else as saved.
    void sessionsWithoutInputShareOpen() {
        Json doc = Json::parse(goodText_);
        int removed = 0;
        for (Json& branch : doc["branches"])
            for (Json& step : branch["steps"])
                for (Json& stage : step["stages"]) removed += int(stage.erase("inputMassKept"));
        QVERIFY(removed > 0);   // the writer records it
        const SavedSession back = parseSessionJson(doc.dump(), "old.dlab");
        SavedSession want = session_;
        for (auto& branch : want.branches)
            for (auto& step : branch.steps)
                for (auto& stage : step.trace.stages) stage.inputMassKept.reset();
        compareSessions(back, want);
    }

    void attentionRoundTrips() {
        // generate() with the attention recorded: every StepTrace field, the weights and blocks too.
        KvCache cache(model_->hparams(), 64, KvType::F16, 8);
        GenerateOptions o;
        o.maxTokens = 3;
        o.sampler.temperature = 0.0f;
        o.traceAttention = true;
        SavedBranch b;
        o.onTrace = [&](const StepTrace& t) { b.steps.push_back(SavedStep{t, o.sampler, {}, false}); };
        generate(*model_, *backend_, cache, kPrompt, o);
        QCOMPARE(b.steps.size(), size_t(3));
        QVERIFY(!b.steps[1].trace.attention.empty());
        SavedSession s = session_;
        b.id = 5;
        s.branches = {b};
        s.currentBranch = 5;
        s.tokens.clear();
        for (TokenId t : shownTokenIds(s)) s.tokens.push_back(savedToken(model_->tokenizer(), t));
        const std::string file = path("attention.dlab");
        writeSessionFile(file, s);
        compareSessions(readSessionFile(file), s);
    }

    void grammarStepsRoundTrip() {
        // A constrained run: the grammar stage's forbidden list and the constraint's text are saved
        // with each step and read back (the constraint as its spec, to be compiled by the replayer).
        KvCache cache(model_->hparams(), 64, KvType::F16, 8);
        GenerateOptions o;
        o.maxTokens = 4;
        o.sampler.temperature = 0.0f;
        const ConstraintSpec spec{ConstraintSpec::Kind::Gbnf, "root ::= \"[\" [a-z ]+ \"]\"", "brackets.gbnf"};
        o.sampler.constraint = Constraint::compile(spec, std::make_shared<TokenBytesTable>(model_->tokenizer()));
        SavedBranch b;
        o.onTrace = [&](const StepTrace& t) {
            SamplerParams plain = o.sampler;
            plain.constraint.reset();
            b.steps.push_back(SavedStep{t, plain, {}, false, spec});
        };
        generate(*model_, *backend_, cache, kPrompt, o);
        QCOMPARE(b.steps.size(), size_t(4));
        QCOMPARE(b.steps[1].trace.stages.front().stage, std::string("grammar"));
        QVERIFY(b.steps[1].trace.stages.front().forbiddenCount > 0);
        QVERIFY(!b.steps[1].trace.stages.front().forbidden.empty());
        SavedSession s = session_;
        b.id = 6;
        s.branches = {b};
        s.currentBranch = 6;
        s.tokens.clear();
        for (TokenId t : shownTokenIds(s)) s.tokens.push_back(savedToken(model_->tokenizer(), t));
        const std::string file = path("grammar.dlab");
        writeSessionFile(file, s);
        const SavedSession back = readSessionFile(file);
        compareSessions(back, s);
        QVERIFY(back.branches[0].steps[1].constraint == spec);
        QVERIFY(back.branches[0].steps[1].trace == b.steps[1].trace);
    }

    void badFilesNameTheField_data() {
        QTest::addColumn<QString>("op");         // set | remove | unlist (the token at pointer leaves the table) | text
        QTest::addColumn<QString>("pointer");    // a JSON pointer into the good document
        QTest::addColumn<QString>("value");      // JSON; $RAW0 / $TOKEN0 are filled in
        QTest::addColumn<QString>("expected");   // part of the one-line message
        const auto row = [](const char* name, const char* op, const char* ptr, const char* value, const char* expected) {
            QTest::newRow(name) << op << ptr << value << expected;
        };
        row("wrong format", "set", "/format", R"("something-else")", R"(not a Decoding Lab session file (its "format" is "something-else")");
        row("no format", "remove", "/format", "", R"(not a Decoding Lab session file (it has no "format" field))");
        row("newer version", "set", "/version", "2", "written by a newer Decoding Lab (session format version 2");
        row("version as text", "set", "/version", R"("1")", R"(version must be a whole number between 1 and 2147483647 (got "1"))");
        row("p as text", "set", "/branches/0/steps/3/stages/1/top/0/p", R"("x")",
            R"(branches[0].steps[3].stages[1].top[0].p must be a number between 0 and 1 (got "x"))");
        row("p above 1", "set", "/branches/1/steps/4/p", "1.5", "branches[1].steps[4].p must be a number between 0 and 1 (got 1.5)");
        row("candidate outside the vocabulary", "set", "/branches/0/steps/1/stages/0/top/2/id", "320",
            "branches[0].steps[1].stages[0].top[2].id must be a whole number between 0 and 319 (got 320)");
        row("token without a label", "unlist", "/promptTokens/0", "", R"(promptTokens[0] is token 316, which has no entry in "tokens")");
        row("input share above 1", "set", "/branches/0/steps/1/stages/0/inputMassKept", "1.5",
            "branches[0].steps[1].stages[0].inputMassKept must be a number between 0 and 1 (got 1.5)");
        row("negative kept", "set", "/branches/0/steps/0/stages/0/kept", "-1", "branches[0].steps[0].stages[0].kept must be a whole number between 0 and 320 (got -1)");
        row("non-finite max logit", "set", "/branches/0/steps/2/raw/maxLogit", "null", "branches[0].steps[2].raw.maxLogit must be a number");
        row("negative time", "set", "/branches/0/steps/5/forwardMs", "-3", "branches[0].steps[5].forwardMs must be a number of at least 0 (got -3)");
        row("unknown phase", "set", "/branches/0/steps/0/phase", R"("middle")", R"(branches[0].steps[0].phase must be "prefill" or "decode" (got "middle"))");
        row("steps out of order", "set", "/branches/0/steps/1/step", "5", "branches[0].steps[1].step must be 1 (a branch lists its steps in order");
        row("missing prompt", "remove", "/prompt", "", "prompt is missing (it must be a string)");
        row("missing kv figure", "remove", "/branches/1/steps/2/kv/bytesInUse", "", "branches[1].steps[2].kv.bytesInUse is missing");
        row("negative vocabulary", "set", "/model/vocab", "-5", "model.vocab must be a whole number between 1 and");
        row("bad hex", "set", "/tokens/0/bytes", R"("zz")", "tokens[0].bytes must be a string of hex digit pairs");
        row("token table out of order", "set", "/tokens/1/id", "$TOKEN0", "tokens[1].id is $TOKEN0, not above the entry before it");
        row("unknown parent", "set", "/branches/1/parent", "9", "branches[1].parent is 9, which is not the id of an earlier branch");
        row("fork step past the parent", "set", "/branches/1/forkStep", "6", "branches[1].forkStep must be a whole number between 0 and 5 (got 6)");
        row("current branch missing", "set", "/currentBranch", "7", "currentBranch must be the id of one of the branches (got 7)");
        row("sampler spec unreadable", "set", "/sampler/spec", R"("sample:t=hot")", "sampler.spec is not a sampler setting this app reads: run 'sample:t=hot'");
        row("sampler spec of another kind", "set", "/branches/0/steps/0/sampler/spec", R"("greedy")", "branches[0].steps[0].sampler.spec must be a sample spec");
        row("logit bias of +inf-like size", "set", "/sampler/logitBias/1/bias", "1e300", "sampler.logitBias[1].bias must be a number (a float) or null");
        row("stages not an array", "set", "/branches/0/steps/0/stages", "{}", "branches[0].steps[0].stages must be an array of at most 64 entries (got an object)");
        row("raw logit listed twice", "set", "/branches/0/steps/0/rawLogits/1/id", "$RAW0", "branches[0].steps[0].rawLogits[1].id is token $RAW0 again");
        row("payload not an object", "set", "/pagePayload", "[1]", "pagePayload must be an object (got an array of 1 entry)");
        row("prompt without tokens", "set", "/promptTokens", "[]", "promptTokens must be an array of at least one token id");
        row("a document, not an object", "text", "", "[]", "the document must be an object (got an array of 0 entries)");
        row("truncated", "text", "", "$HALF", "not a complete JSON document: it ends too early, at line ");
        row("empty", "text", "", "", "not a complete JSON document: it ends too early, at line 1, column 1 (the file is damaged, or not a session file)");
        row("not JSON", "text", "", "the quick brown fox", "not a complete JSON document: it stops being JSON at line 1, column 2 (the file is damaged, or not a session file)");
        row("not JSON on line 3", "text", "", "{\n  \"format\": 1,\n  oops", "it stops being JSON at line 3, column 3");
        row("too deep", "text", "", "$DEEP", "the JSON nests deeper than 100 levels");
        row("a number no double holds", "text", "", R"({"format":"decoding-lab-session","version":1e400})", "a number in it is too large for any value of a session file");
        row("too many steps", "set", "/branches/1/steps", "$MANY", "branches[1].steps takes the session past 100000 steps");
    }

    void badFilesNameTheField() {
        QFETCH(QString, op);
        QFETCH(QString, pointer);
        QFETCH(QString, value);
        QFETCH(QString, expected);
        const Json good = Json::parse(goodText_);
        // Ids the rows refer to: the first listed ones.
        const QString raw0 = QString::number(session_.branches[0].steps[0].rawLogits[0].id);
        const QString token0 = QString::number(session_.tokens[0].id);
        for (QString* s : {&value, &expected}) {
            s->replace("$RAW0", raw0);
            s->replace("$TOKEN0", token0);
        }
        std::string text;
        if (op == "text") {
            if (value == "$HALF") text = goodText_.substr(0, goodText_.size() / 2);
            else if (value == "$DEEP") text = std::string(200, '[') + std::string(200, ']');
            else text = value.toStdString();
        } else {
            Json doc = good;
            const Json::json_pointer ptr(pointer.toStdString());
            if (op == "remove") doc.at(ptr.parent_pointer()).erase(ptr.back());
            else if (op == "unlist") {
                Json& table = doc["tokens"];
                const int id = doc.at(ptr).get<int>();
                for (size_t i = table.size(); i-- > 0;)
                    if (table[i]["id"] == id) table.erase(i);
            }
            else if (value == "$MANY") doc[ptr] = Json::array(), doc[ptr].get_ref<Json::array_t&>().resize(kMaxSessionSteps, nullptr);
            else doc[ptr] = Json::parse(value.toStdString());
            text = doc.dump();
        }
        try {
            parseSessionJson(text, "lesson.dlab");
            QFAIL("the bad document was read");
        } catch (const Error& e) {
            const QString message = QString::fromUtf8(e.what());
            QVERIFY2(message.startsWith("lesson.dlab: "), qPrintable(message));
            QVERIFY2(message.contains(expected), qPrintable(message + "\n  expected: " + expected));
            QVERIFY2(!message.contains('\n'), qPrintable(message));
        }
    }

    void readingNamesTheFile_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("expected");
        QTest::newRow("missing") << "missing" << "the file does not exist";
        QTest::newRow("folder") << "folder" << "is a folder, not a session file";
        QTest::newRow("too large") << "large" << "more than a session file may hold (512 MB)";
    }

    void readingNamesTheFile() {
        QFETCH(QString, kind);
        QFETCH(QString, expected);
        std::string file = path("no-such.dlab");
        if (kind == "folder") {
            file = path("a-folder.dlab");
            fs::create_directories(file);
        } else if (kind == "large") {
            file = path("large.dlab");
            writeAll(file, "{");
            fs::resize_file(file, uintmax_t(kMaxSessionFileBytes) + 1);   // sparse: no disk used
        }
        try {
            readSessionFile(file);
            QFAIL("read");
        } catch (const Error& e) {
            const QString message = QString::fromUtf8(e.what());
            QVERIFY2(message.startsWith(QString::fromStdString(file) + ": ") && message.contains(expected), qPrintable(message));
        }
        if (kind == "large") fs::remove(file);
    }

    void failedSaveKeepsThePreviousFile_data() {
        QTest::addColumn<QString>("how");
        QTest::addColumn<QString>("expected");
        QTest::newRow("the session does not check out") << "invalid" << R"(has no entry in "tokens")";
        QTest::newRow("the disk refuses the bytes mid-write") << "full" << "writing failed";
        QTest::newRow("a folder is in the way") << "folder" << "cannot replace what is there";
        QTest::newRow("the folder does not exist") << "nofolder" << "the folder does not take a new file";
    }

    void failedSaveKeepsThePreviousFile() {
        QFETCH(QString, how);
        QFETCH(QString, expected);
        std::string file = path("keep.dlab");
        SavedSession small = session_;
        small.branches.resize(1);
        small.currentBranch = 0;
        small.branches[0].steps.resize(1);
        small.tokens.clear();
        for (TokenId t : shownTokenIds(small)) small.tokens.push_back(savedToken(model_->tokenizer(), t));
        writeSessionFile(file, small);
        const std::string before = readAll(file);

        SavedSession next = session_;
        if (how == "invalid") next.tokens.erase(next.tokens.begin() + 3);
        if (how == "folder") {
            file = path("in-the-way.dlab");
            fs::create_directories(file + "/inside");
        }
        if (how == "nofolder") file = path("no/such/folder/x.dlab");
        struct rlimit old {};
        if (how == "full") {
            // The file size limit makes write() fail with EFBIG part of the way in (SIGXFSZ ignored).
            std::signal(SIGXFSZ, SIG_IGN);
            getrlimit(RLIMIT_FSIZE, &old);
            struct rlimit limit {4096, old.rlim_max};
            QVERIFY(setrlimit(RLIMIT_FSIZE, &limit) == 0);
        }
        QString message;
        try {
            writeSessionFile(file, next);
        } catch (const Error& e) {
            message = QString::fromUtf8(e.what());
        }
        if (how == "full") setrlimit(RLIMIT_FSIZE, &old);
        QVERIFY2(message.contains(expected), qPrintable(message));
        QVERIFY2(!message.contains('\n'), qPrintable(message));
        if (how == "invalid" || how == "full") {
            QVERIFY2(message.startsWith(QString::fromStdString(file)) || how == "invalid", qPrintable(message));
            QCOMPARE(readAll(file), before);                  // the previous file, byte for byte
            QVERIFY(readSessionFile(file) == small);
        }
        if (how == "folder") QVERIFY(fs::is_directory(file + "/inside"));
        if (how != "nofolder") QCOMPARE(temporaries(file), 0);
    }
};

QTEST_APPLESS_MAIN(TestSessionFile)
#include "test_session_file.moc"
