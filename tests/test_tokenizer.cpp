// Tokenizer behaviour beyond the llama.cpp vectors: special-token parsing, BOS/EOS/EOG,
// invalid UTF-8, round trips, the streaming detokenizer, the pre-tokenizer splitter, errors
// for unsupported files, and speed. Expected ids were produced with llama.cpp
// (llama-cpp-python 0.3.36, vocab_only) from the same files by
// tests/data/tokenizer/reference_ids.py.
#include <QtTest>

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <sstream>
#include <thread>

#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include "core/error.h"
#include "gguf/gguf_file.h"
#include "gguf/gguf_writer.h"
#include "test_paths.h"
#include "tokenizer/regex_splitter.h"
#include "tokenizer/tokenizer.h"
#include "tokenizer/utf8.h"

using namespace dlab;

namespace {

struct Loaded {
    std::unique_ptr<GgufFile> file;
    std::unique_ptr<Tokenizer> tok;
};

Loaded load(const std::string& path) {
    Loaded l;
    l.file = GgufFile::open(path);
    l.tok = Tokenizer::fromGguf(*l.file);
    return l;
}

std::string vocabPath(const char* name) { return test::dataDir() + "/tokenizer/ggml-vocab-" + name + ".gguf"; }

const Tokenizer& cached(const std::string& path) {
    static std::map<std::string, Loaded> cache;
    auto it = cache.find(path);
    if (it == cache.end()) it = cache.emplace(path, load(path)).first;
    return *it->second.tok;
}

const Tokenizer* defaultModel() {
    const std::string path = test::defaultModelPath();
    return path.empty() ? nullptr : &cached(path);
}

#define REQUIRE_DEFAULT_MODEL(tok)                                                                  \
    const Tokenizer* tok = defaultModel();                                                          \
    if (!tok) QFAIL("the default model is not installed (scripts/setup.sh installs it)");

QList<int> ids(const std::vector<TokenId>& v) { return QList<int>(v.begin(), v.end()); }
std::string str(const QByteArray& b) { return std::string(b.constData(), static_cast<size_t>(b.size())); }
QByteArray bytes(const std::string& s) { return QByteArray(s.data(), static_cast<qsizetype>(s.size())); }

// A minimal vocabulary file (no tensors) with the given model and pre-tokenizer.
std::unique_ptr<GgufFile> tinyVocab(const std::string& model, const std::string& pre, bool withMerges = true) {
    GgufWriter w;
    w.addString("general.architecture", "llama");
    w.addString("tokenizer.ggml.model", model);
    if (!pre.empty()) w.addString("tokenizer.ggml.pre", pre);
    w.addStringArray("tokenizer.ggml.tokens", {"a", "b", "ab"});
    w.addIntArray("tokenizer.ggml.token_type", GgufValueType::Int32, {1, 1, 1});
    if (withMerges) w.addStringArray("tokenizer.ggml.merges", {"a b"});
    return GgufFile::fromBytes(w.toBytes(), "tiny.gguf");
}

}  // namespace

class TestTokenizer : public QObject {
    Q_OBJECT
private slots:
    // --- the default model (SmolLM2-135M-Instruct: byte-level BPE, pre "smollm") ---

    void defaultModelMetadata() {
        REQUIRE_DEFAULT_MODEL(tok);
        QCOMPARE(tok->modelName(), std::string("gpt2"));
        QCOMPARE(tok->preName(), std::string("smollm"));
        QCOMPARE(tok->vocabSize(), 49152);
        QCOMPARE(tok->bos(), 1);                 // <|im_start|>
        QCOMPARE(tok->eos(), 2);                 // <|im_end|>
        QCOMPARE(tok->addsBosByDefault(), false);
        QCOMPARE(tok->tokenString(0), std::string("<|endoftext|>"));
        QVERIFY(tok->isEndOfGeneration(2));      // eos
        QVERIFY(tok->isEndOfGeneration(0));      // <|endoftext|>
        QVERIFY(!tok->isEndOfGeneration(1));
        QVERIFY(!tok->isEndOfGeneration(4093));  // "user"
        QCOMPARE(tok->tokenType(1), TokenType::Control);
        QCOMPARE(tok->tokenType(4093), TokenType::Normal);
    }

    void parseSpecial_data() {
        QTest::addColumn<bool>("parseSpecial");
        QTest::addColumn<QList<int>>("expected");
        QTest::newRow("parsed") << true << QList<int>{1, 4093, 198, 26843, 665, 17, 2, 198};
        QTest::newRow("plain text") << false
                                    << QList<int>{44, 108, 306, 79, 3738, 108, 46, 4093, 198, 26843, 665, 17,
                                                  44, 108, 306, 79, 486, 108, 46, 198};
    }
    void parseSpecial() {
        REQUIRE_DEFAULT_MODEL(tok);
        QFETCH(bool, parseSpecial);
        QFETCH(QList<int>, expected);
        const std::string text = "<|im_start|>user\nHi there!<|im_end|>\n";
        QCOMPARE(ids(tok->encode(text, false, parseSpecial)), expected);
        // Control tokens print only on request; the plain-text spelling always round-trips.
        const auto encoded = tok->encode(text, false, parseSpecial);
        QCOMPARE(tok->decode(encoded, true), text);
        QCOMPARE(tok->decode(encoded, false), parseSpecial ? std::string("user\nHi there!\n") : text);
    }

    void addBos() {
        REQUIRE_DEFAULT_MODEL(tok);
        QCOMPARE(ids(tok->encode("Hi", true, false)), (QList<int>{1, 26843}));
        QCOMPARE(ids(tok->encode("", true, false)), QList<int>{1});
        QCOMPARE(ids(tok->encode("", false, false)), QList<int>{});
    }

    void invalidUtf8_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("detail");
        QTest::newRow("latin-1") << QByteArray("caf\xE9!") << "invalid byte 0xE9 at offset 3";
        QTest::newRow("stray continuation") << QByteArray("ok \x80") << "invalid byte 0x80 at offset 3";
        QTest::newRow("cut emoji") << QByteArray("\xF0\x9F\xA6") << "byte 0xF0 at offset 0";
        QTest::newRow("surrogate") << QByteArray("x\xED\xA0\x80") << "invalid byte 0xED at offset 1";
    }
    void invalidUtf8() {
        REQUIRE_DEFAULT_MODEL(tok);
        QFETCH(QByteArray, text);
        QFETCH(QString, detail);
        for (bool parseSpecial : {false, true}) {
            try {
                tok->encode(str(text), false, parseSpecial);
                QFAIL("encode accepted invalid UTF-8");
            } catch (const Error& e) {
                const QString msg = QString::fromUtf8(e.what());
                QVERIFY2(msg.startsWith("text is not valid UTF-8") && msg.contains(detail), qPrintable(msg));
            }
        }
    }

    void roundTrip_data() {
        QTest::addColumn<QString>("vocab");   // "default" or a tests/data/tokenizer vocab name
        QTest::addColumn<QByteArray>("text");
        const QList<QByteArray> texts = {
            "Hello, world!",
            "  leading and trailing spaces  ",
            "tabs\tand\nnewlines\r\n\n",
            "Äpfel und Öl für 3,50 €",
            "日本語のテキストと中文",
            "한국어 텍스트",
            "Emoji: 🦙🚀😶‍🌫️👍🏽🇩🇪",
            "Math: ∑ x² ≤ ½ · π",
            "code: for (int i = 0; i < n; ++i) { x += a[i]; }",
            "<|im_start|> looks special but is text",
            "",
        };
        for (const char* vocab : {"default", "gpt-2", "qwen2", "llama-bpe", "deepseek-llm"})
            for (qsizetype i = 0; i < texts.size(); ++i) QTest::addRow("%s/%d", vocab, int(i)) << QString(vocab) << texts[i];
    }
    void roundTrip() {
        QFETCH(QString, vocab);
        QFETCH(QByteArray, text);
        const Tokenizer* tok = nullptr;
        if (vocab == "default") {
            tok = defaultModel();
            if (!tok) QFAIL("the default model is not installed (scripts/setup.sh installs it)");
        } else {
            tok = &cached(vocabPath(qPrintable(vocab)));
        }
        QCOMPARE(bytes(tok->decode(tok->encode(str(text), false, false))), text);
    }

    // SentencePiece: a space is prefixed, and characters without a token become byte tokens.
    void sentencePiece() {
        const Tokenizer& tok = cached(vocabPath("llama-spm"));
        QCOMPARE(tok.modelName(), std::string("llama"));
        QCOMPARE(tok.addsBosByDefault(), true);
        QCOMPARE(ids(tok.encode("Hello world", true, false)), (QList<int>{1, 15043, 3186}));
        QCOMPARE(ids(tok.encode("", true, false)), QList<int>{1});
        QCOMPARE(ids(tok.encode("🦙", false, false)), (QList<int>{29871, 243, 162, 169, 156}));
        QCOMPARE(tok.tokenType(243), TokenType::Byte);
        QCOMPARE(ids(tok.encode("<s>Hi</s>", false, true)), (QList<int>{1, 6324, 2}));
        QCOMPARE(ids(tok.encode("<s>Hi</s>", false, false)), (QList<int>{529, 29879, 29958, 18567, 829, 29879, 29958}));
        // Decoding gives back the text with the prefixed space.
        const std::string text = "Cửa Việt 🦙 日本";
        QCOMPARE(tok.decode(tok.encode(text, false, false)), " " + text);
    }

    // Phi-3: special tokens swallow the spaces after them (rstrip), and text after a special
    // token gets SentencePiece's space prefix again.
    void stripAfterSpecial() {
        const Tokenizer& tok = cached(vocabPath("phi-3"));
        const std::string text = "Hi</s>  there <|user|>\nHi<|end|>";
        QCOMPARE(ids(tok.encode(text, false, true)), (QList<int>{6324, 2, 727, 29871, 32010, 6324, 32007}));
        QCOMPARE(ids(tok.encode(text, false, false)),
                 (QList<int>{6324, 829, 29879, 29958, 29871, 727, 529, 29989, 1792, 29989, 29958, 13, 18567, 29966,
                             29989, 355, 29989, 29958}));
        QVERIFY(tok.isEndOfGeneration(32007));  // <|end|>
        QCOMPARE(tok.eot(), 32007);
    }

    void endOfGenerationByText() {
        const Tokenizer& llama3 = cached(vocabPath("llama-bpe"));
        QCOMPARE(llama3.eot(), 128009);  // <|eot_id|>
        QVERIFY(llama3.isEndOfGeneration(128001) && llama3.isEndOfGeneration(128009));
        QCOMPARE(llama3.addsBosByDefault(), true);
        const Tokenizer& qwen = cached(vocabPath("qwen2"));
        QCOMPARE(qwen.eot(), 151645);  // <|im_end|>
        QVERIFY(qwen.isEndOfGeneration(151643) && qwen.isEndOfGeneration(151645));
        // GPT-2 stores <|endoftext|> as a normal token; it still ends generation and is control.
        const Tokenizer& gpt2 = cached(vocabPath("gpt-2"));
        QVERIFY(gpt2.isEndOfGeneration(50256));
        QCOMPARE(gpt2.tokenType(50256), TokenType::Control);
        QCOMPARE(gpt2.tokenToPiece(50256), std::string());
        QCOMPARE(gpt2.tokenToPiece(50256, true), std::string("<|endoftext|>"));
    }

    void vocabOnlyFile() {
        const auto file = GgufFile::open(vocabPath("gpt-2"));
        QVERIFY(file->tensors().empty());
        QCOMPARE(Tokenizer::fromGguf(*file)->vocabSize(), 50257);
    }

    // --- the streaming detokenizer ---

    void streamingEmoji() {
        REQUIRE_DEFAULT_MODEL(tok);
        // "🦙" is three byte-level tokens: F0 9F | A6 | 99.
        const std::vector<TokenId> toks = tok->encode("🦙 llama", false, false);
        QCOMPARE(ids(toks), (QList<int>{10813, 116, 243, 303, 4130, 81}));
        StreamingDetokenizer stream(*tok);
        QCOMPARE(stream.push(toks[0]), std::string());
        QCOMPARE(stream.push(toks[1]), std::string());
        QCOMPARE(stream.push(toks[2]), std::string("🦙"));
        QCOMPARE(stream.push(toks[3]), std::string(" l"));
        QCOMPARE(stream.push(toks[4]) + stream.push(toks[5]) + stream.flush(), std::string("lama"));
    }

    void streamingNeverSplitsCharacters_data() {
        QTest::addColumn<QString>("vocab");
        QTest::addColumn<QByteArray>("text");
        QTest::newRow("default/mixed") << "default" << QByteArray("日本語😶‍🌫️ and 한국어 🇩🇪!");
        QTest::newRow("llama-spm/bytes") << "llama-spm" << QByteArray("🦙🚀 Äpfel 日本");
        QTest::newRow("qwen2/mixed") << "qwen2" << QByteArray("Emoji 👍🏽 ok ½ ∑");
    }
    void streamingNeverSplitsCharacters() {
        QFETCH(QString, vocab);
        QFETCH(QByteArray, text);
        const Tokenizer* tok = vocab == "default" ? defaultModel() : &cached(vocabPath(qPrintable(vocab)));
        if (!tok) QFAIL("the default model is not installed (scripts/setup.sh installs it)");
        StreamingDetokenizer stream(*tok);
        std::string all;
        for (TokenId id : tok->encode(str(text), false, false)) {
            const std::string piece = stream.push(id);
            QVERIFY2(utf8::firstInvalidOffset(piece) == utf8::npos, "emitted part of a character");
            all += piece;
        }
        all += stream.flush();
        QCOMPARE(bytes(all), (vocab == "llama-spm" ? " " + text : text));
    }

    void streamingFlushReplacesIncompleteTail() {
        const Tokenizer& tok = cached(vocabPath("llama-spm"));
        StreamingDetokenizer stream(tok);
        QCOMPARE(stream.push(243), std::string());  // <0xF0>
        QCOMPARE(stream.push(162), std::string());  // <0x9F>
        QCOMPARE(stream.flush(), std::string("\xEF\xBF\xBD"));
        QCOMPARE(stream.push(15043), std::string(" Hello"));
        // A byte that can never start a character is replaced at once.
        QCOMPARE(stream.push(131), std::string("\xEF\xBF\xBD"));  // <0x80>
    }

    // --- the pre-tokenizer splitter (the \s+(?!\S) rule, and regexes applied in sequence) ---

    void regexSplit_data() {
        QTest::addColumn<QStringList>("regexes");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QStringList>("pieces");
        const QString gpt2 = R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S))";
        // Whitespace before a word leaves its last space to the word.
        QTest::newRow("gpt2 spaces") << QStringList{gpt2} << "a   b" << QStringList{"a", "  ", " b"};
        QTest::newRow("gpt2 trailing") << QStringList{gpt2} << "a   " << QStringList{"a", "   "};
        QTest::newRow("gpt2 newline gap") << QStringList{gpt2} << "x\ny's" << QStringList{"x", "\n", "y", "'s"};
        // A later regex sees one piece at a time: the end of a piece counts as the end of text.
        QTest::newRow("in sequence") << QStringList{R"(\p{N})", gpt2} << "ab  12 c"
                                     << QStringList{"ab", "  ", "1", "2", " c"};
        // \s is llama.cpp's whitespace set: U+3000 and NBSP count, U+180E does not.
        QTest::newRow("unicode spaces") << QStringList{R"(\s+|\S+)"} << QString::fromUtf8("a\u3000\u00A0b\u180Ec")
                                        << QStringList{"a", QString::fromUtf8("\u3000\u00A0"), QString::fromUtf8("b\u180Ec")};
        QTest::newRow("empty matches cut") << QStringList{R"((?=(\d{3})+(?!\d)))"} << "1234567"
                                           << QStringList{"1", "234", "567"};
    }
    void regexSplit() {
        QFETCH(QStringList, regexes);
        QFETCH(QString, text);
        QFETCH(QStringList, pieces);
        std::vector<std::string> patterns;
        for (const QString& r : regexes) patterns.push_back(r.toStdString());
        const RegexSplitter splitter(patterns);
        const std::string utf8Text = text.toStdString();
        QStringList got;
        for (std::string_view p : splitter.split(utf8Text)) got << QString::fromUtf8(p.data(), static_cast<qsizetype>(p.size()));
        QCOMPARE(got, pieces);
    }

    // --- errors ---

    void unsupportedFiles_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("pre");
        QTest::addColumn<bool>("merges");
        QTest::addColumn<QString>("message");
        QTest::newRow("bert") << "bert" << "" << true << "tokenizer.ggml.model 'bert' is not supported";
        QTest::newRow("unknown pre") << "gpt2" << "klingon" << true << "tokenizer.ggml.pre 'klingon' is not a supported";
        QTest::newRow("no merges") << "gpt2" << "gpt-2" << false << "'tokenizer.ggml.merges' is missing";
    }
    void unsupportedFiles() {
        QFETCH(QString, model);
        QFETCH(QString, pre);
        QFETCH(bool, merges);
        QFETCH(QString, message);
        const auto file = tinyVocab(model.toStdString(), pre.toStdString(), merges);
        try {
            Tokenizer::fromGguf(*file);
            QFAIL("no exception");
        } catch (const Error& e) {
            const QString msg = QString::fromUtf8(e.what());
            QVERIFY2(msg.startsWith("tiny.gguf") && msg.contains(message), qPrintable(msg));
        }
    }

    void tinyBpe() {
        const auto file = tinyVocab("gpt2", "gpt-2");
        const auto tok = Tokenizer::fromGguf(*file);
        QCOMPARE(ids(tok->encode("abba", false, false)), (QList<int>{2, 1, 0}));
        QCOMPARE(tok->bos(), -1);  // llama.cpp's default BOS id 11 does not exist here
        QVERIFY_THROWS_EXCEPTION(Error, tok->tokenString(3));
        QVERIFY_THROWS_EXCEPTION(Error, tok->tokenToPiece(-1));
    }

    void concurrentEncode() {
        REQUIRE_DEFAULT_MODEL(tok);
        const std::string text = "Threads share one tokenizer: 日本語 🦙 <|im_start|>user\n";
        const std::vector<TokenId> expected = tok->encode(text, false, true);
        std::vector<std::vector<TokenId>> results(4);
        std::vector<std::thread> threads;
        for (size_t t = 0; t < results.size(); ++t)
            threads.emplace_back([&, t] {
                for (int k = 0; k < 200; ++k) results[t] = tok->encode(text, false, true);
            });
        for (auto& th : threads) th.join();
        for (const auto& r : results) QCOMPARE(r, expected);
    }

    // A special-token id outside the vocabulary is dropped (as llama.cpp does), with one warning that
    // names the key, the id and the vocabulary size, and nothing logged for the keys that are fine.
    void specialIdOutsideTheVocabularyIsWarnedAbout_data() {
        QTest::addColumn<QString>("key");
        QTest::addColumn<qint64>("badId");
        QTest::newRow("BOS 99999") << "tokenizer.ggml.bos_token_id" << 99999LL;
        QTest::newRow("EOS 3 (one past the end)") << "tokenizer.ggml.eos_token_id" << 3LL;
        QTest::newRow("EOS -1") << "tokenizer.ggml.eos_token_id" << -1LL;
    }
    void specialIdOutsideTheVocabularyIsWarnedAbout() {
        QFETCH(QString, key);
        QFETCH(qint64, badId);
        GgufWriter w;
        w.addString("general.architecture", "llama");
        w.addString("tokenizer.ggml.model", "gpt2");
        w.addString("tokenizer.ggml.pre", "gpt-2");
        w.addStringArray("tokenizer.ggml.tokens", {"a", "b", "ab"});
        w.addIntArray("tokenizer.ggml.token_type", GgufValueType::Int32, {1, 1, 1});
        w.addStringArray("tokenizer.ggml.merges", {"a b"});
        w.addUInt32("tokenizer.ggml.unknown_token_id", 1);  // valid: must not be mentioned
        w.addInt64(key.toStdString(), badId);
        const auto file = GgufFile::fromBytes(w.toBytes(), "bad-special.gguf");

        std::ostringstream log;
        const auto previous = spdlog::default_logger();
        auto capture = std::make_shared<spdlog::logger>("capture", std::make_shared<spdlog::sinks::ostream_sink_st>(log));
        capture->set_pattern("%l: %v");
        spdlog::set_default_logger(capture);
        std::unique_ptr<Tokenizer> tok;
        try {
            tok = Tokenizer::fromGguf(*file);
        } catch (...) {
            spdlog::set_default_logger(previous);
            throw;
        }
        spdlog::set_default_logger(previous);

        const QString text = QString::fromStdString(log.str());
        QCOMPARE(text.count('\n'), 1);
        QVERIFY2(text.startsWith("warning: bad-special.gguf: " + key + " is " + QString::number(badId)), qPrintable(text));
        QVERIFY2(text.contains("vocabulary of 3 tokens"), qPrintable(text));
        const TokenId kept = key.contains("bos") ? tok->bos() : tok->eos();
        QVERIFY2(kept >= -1 && kept < 3, qPrintable(QString::number(kept)));
    }

    void noTokenizerInFile() {
        GgufWriter w;
        w.addString("general.architecture", "llama");
        const auto file = GgufFile::fromBytes(w.toBytes(), "weights-only.gguf");
        try {
            Tokenizer::fromGguf(*file);
            QFAIL("no exception");
        } catch (const Error& e) {
            QVERIFY2(QString(e.what()).startsWith("weights-only.gguf") && QString(e.what()).contains("tokenizer.ggml.model"),
                     e.what());
        }
    }

    // --- speed ---

    void tenKilobytesIsFast() {
        REQUIRE_DEFAULT_MODEL(tok);
        std::string text;
        const std::string para =
            "The quick brown fox jumps over the lazy dog, 1234 times; naïve café owners say 'it's fine'.\n"
            "    def f(x):\n        return x ** 2  # squares 日本語 🦙\n";
        while (text.size() < 10 * 1024) text += para;
        double best = 1e9;
        size_t count = 0;
        for (int run = 0; run < 3; ++run) {
            const auto t0 = std::chrono::steady_clock::now();
            count = tok->encode(text, false, false).size();
            best = std::min(best, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
        }
        qInfo("10 KB -> %zu tokens in %.2f ms", count, best);
#if defined(NDEBUG) && !defined(__SANITIZE_ADDRESS__)
        QVERIFY2(best < 50.0, qPrintable(QString("took %1 ms").arg(best)));
#endif
    }
};

QTEST_APPLESS_MAIN(TestTokenizer)
#include "test_tokenizer.moc"
