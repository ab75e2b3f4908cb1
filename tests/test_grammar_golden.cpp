// The grammar matcher against llama.cpp's grammar sampler (tests/golden/grammar/, made by
// make_grammar_goldens.py through llama-cpp-python 0.3.36): for llama.cpp's example grammars and
// JSON Schemas converted by llama.cpp, on the default model's 49k vocabulary and Llama 3's 128k
// one, the set of allowed tokens at every step of a fixed token sequence.
//
// Where the two differ on purpose, the difference is classified and counted; anything else fails:
//   control     a control token (<|im_start|> ...): llama.cpp matches its text, we never allow one
//   eog         end-of-generation ids only one side treats as such (llama.cpp counts SmolLM2's
//               <reponame> as one): compared only where both agree it ends generation
//   bad-lead    a token holding a byte F5-FF, which no UTF-8 text contains: llama.cpp takes it as
//               the lead of a 4-byte character, we reject it
//   nul         a token starting with byte 0: llama.cpp rejects every such token, we allow it where
//               the grammar allows U+0000
//   partial     a token ending inside a character under a negated class: llama.cpp rejects it if
//               any completion is excluded, we allow it if some completion is allowed
#include <QtTest>

#include <fstream>
#include <map>

#include <nlohmann/json.hpp>

#include "test_paths.h"
#include "core/error.h"
#include "gguf/gguf_file.h"
#include "grammar/constraint.h"
#include "tokenizer/tokenizer.h"

using namespace dlab;

namespace {

std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

std::vector<char> parseRanges(const std::string& text, int n, bool allowedList) {
    std::vector<char> out(static_cast<size_t>(n), allowedList ? 0 : 1);
    size_t i = 0;
    while (i < text.size()) {
        size_t j = text.find(',', i);
        if (j == std::string::npos) j = text.size();
        const std::string part = text.substr(i, j - i);
        const size_t dash = part.find('-');
        const long lo = std::stol(part.substr(0, dash));
        const long hi = dash == std::string::npos ? lo : std::stol(part.substr(dash + 1));
        for (long k = lo; k <= hi; ++k) out[static_cast<size_t>(k)] = allowedList ? 1 : 0;
        i = j + 1;
    }
    return out;
}

bool endsInsideCharacter(const std::string& b) {
    for (size_t back = 1; back <= 4 && back <= b.size(); ++back) {
        const unsigned char c = static_cast<unsigned char>(b[b.size() - back]);
        if ((c & 0xC0) == 0x80) continue;
        const size_t need = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
        return need > back;
    }
    return false;
}

struct Vocab {
    std::unique_ptr<Tokenizer> tok;
    std::shared_ptr<const TokenBytesTable> table;
};

std::string casesDir() { return test::sourceDir() + "/tests/golden/grammar"; }

}  // namespace

class TestGrammarGolden : public QObject {
    Q_OBJECT
    std::map<std::string, Vocab> vocabs_;
    std::map<std::string, int> totals_;

    Vocab& vocab(const std::string& name) {
        auto it = vocabs_.find(name);
        if (it != vocabs_.end()) return it->second;
        std::string path;
        if (name == "smollm2") path = test::defaultModelPath();
        else if (name == "llama-bpe") path = test::dataDir() + "/tokenizer/ggml-vocab-llama-bpe.gguf";
        if (path.empty()) QTest::qFail("the default model is not installed (scripts/setup.sh installs it)", __FILE__, __LINE__);
        auto file = GgufFile::open(path);
        Vocab v;
        v.tok = Tokenizer::fromGguf(*file);
        v.table = std::make_shared<TokenBytesTable>(*v.tok);
        return vocabs_.emplace(name, std::move(v)).first->second;
    }

private slots:
    void initTestCase() {
        // The long cases (the c, arithmetic and english grammars, whose masks are large) are packed.
        const std::string out = test::scratchDir();
        const std::string cmd = "tar -xJf '" + casesDir() + "/cases-long.tar.xz' -C '" + out + "'";
        QCOMPARE(std::system(cmd.c_str()), 0);
    }

    void sameMasksAsLlamaCpp_data() {
        QTest::addColumn<QString>("file");
        QDir long_(QString::fromStdString(test::scratchDir() + "/cases-long"));
        QStringList names = long_.entryList({"*.json"}, QDir::Files, QDir::Name);
        QVERIFY(names.size() >= 30);
        for (const QString& n : names) QTest::newRow(qPrintable(n)) << long_.filePath(n);
    }
    void sameMasksAsLlamaCpp() {
        QFETCH(QString, file);
        const auto j = nlohmann::json::parse(readFile(file.toStdString()));
        Vocab& v = vocab(j["vocab"].get<std::string>());
        const int n = v.tok->vocabSize();
        QCOMPARE(j["vocab_size"].get<int>(), n);
        const std::string grammarFile = casesDir() + "/" + j["grammar_file"].get<std::string>();
        auto c = Constraint::compile({ConstraintSpec::Kind::Gbnf, readFile(grammarFile), grammarFile}, v.table);
        GrammarAutomaton& a = c->automaton();
        std::vector<char> theirEog(static_cast<size_t>(n), 0);
        for (int id : j["eog"]) theirEog[static_cast<size_t>(id)] = 1;
        const auto tokens = j["tokens"].get<std::vector<int>>();
        const auto& steps = j["steps"];
        QCOMPARE(steps.size(), tokens.size() + 1);
        std::map<std::string, int> explained;
        auto s = a.initial();
        std::vector<uint64_t> mask;
        for (size_t i = 0; i < steps.size(); ++i) {
            const auto& st = steps[i];
            const bool listAllowed = st.contains("allowed");
            const auto theirs = parseRanges(st[listAllowed ? "allowed" : "forbidden"].get<std::string>(), n, listAllowed);
            a.mask(s, mask);
            for (TokenId id = 0; id < n; ++id) {
                const bool ours = maskAllows(mask, id);
                const bool them = theirs[static_cast<size_t>(id)];
                const TokenRole role = v.table->role(id);
                const bool ourEog = role == TokenRole::EndOfGeneration;
                if (ourEog != static_cast<bool>(theirEog[static_cast<size_t>(id)])) {
                    ++explained["eog"];
                    continue;
                }
                if (role == TokenRole::Special) {
                    QVERIFY(!ours);
                    if (them) ++explained["control"];
                    continue;
                }
                if (ours == them) continue;
                const std::string& b = v.table->bytes(id);
                bool badLead = false;
                for (char ch : b) badLead = badLead || static_cast<unsigned char>(ch) >= 0xF5;
                if (badLead && them && !ours) { ++explained["bad-lead"]; continue; }
                if (!b.empty() && b[0] == '\0' && ours && !them) { ++explained["nul"]; continue; }
                if (endsInsideCharacter(b) && ours && !them) { ++explained["partial"]; continue; }
                QFAIL(qPrintable(QString("step %1 (after %2 tokens), token %3 \"%4\": llama.cpp %5, ours %6")
                                     .arg(i).arg(i).arg(id).arg(QString::fromStdString(b).toHtmlEscaped())
                                     .arg(them ? "allows" : "forbids", ours ? "allows" : "forbids")));
            }
            if (i < tokens.size()) {
                s = a.advance(s, tokens[i]);
                QVERIFY2(s != GrammarAutomaton::kDead, qPrintable(QString("token %1 of the sequence left the grammar").arg(i)));
            }
        }
        QString summary;
        for (const auto& [k, count] : explained) {
            summary += QString(" %1=%2").arg(QString::fromStdString(k)).arg(count);
            totals_[k] += count;
        }
        qInfo("%zu steps equal%s", steps.size(), summary.isEmpty() ? " (no differences)" : qPrintable(" but the classified:" + summary));
    }

    // The plain cases/ files are the same cases as in the archive (or shorter texts of them).
    void plainCasesAreConsistent() {
        QDir plain(QString::fromStdString(casesDir() + "/cases"));
        const QStringList names = plain.entryList({"*.json"}, QDir::Files);
        QVERIFY(names.size() >= 20);
        for (const QString& n : names) {
            const auto j = nlohmann::json::parse(readFile(plain.filePath(n).toStdString()));
            QCOMPARE(j["steps"].size(), j["tokens"].size() + 1);
            QVERIFY(QFile::exists(QString::fromStdString(casesDir() + "/" + j["grammar_file"].get<std::string>())));
        }
    }

    void cleanupTestCase() {
        QString summary;
        for (const auto& [k, count] : totals_) summary += QString(" %1=%2").arg(QString::fromStdString(k)).arg(count);
        qInfo("classified differences over all cases:%s", qPrintable(summary));
    }
};

QTEST_APPLESS_MAIN(TestGrammarGolden)
#include "test_grammar_golden.moc"
