// Tiny random-weights models: llama.cpp's tensor names, shapes and metadata types, a consistent
// vocabulary, deterministic weights, and the make-tiny-model CLI subcommand.
#include <QProcess>
#include <QtTest>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <set>

#include "core/error.h"
#include "gguf/gguf_file.h"
#include "gguf/gguf_writer.h"
#include "gguf/tiny_model.h"
#include "test_paths.h"

using namespace dlab;

namespace {

std::unique_ptr<GgufFile> build(const TinyModelSpec& s) {
    return GgufFile::fromBytes(buildTinyModel(s).toBytes(), "tiny-" + s.arch + ".gguf");
}

// name -> shape that llama.cpp's loader asks for (llama-model.cpp / models/<arch>.cpp).
std::map<std::string, std::vector<int64_t>> expectedTensors(const TinyModelSpec& s) {
    const int64_t e = s.nEmbd, v = kTinyVocabSize, ff = s.nFf;
    const int64_t kv = s.arch == "gpt2" ? e : e / s.nHead * s.nHeadKv;
    std::map<std::string, std::vector<int64_t>> m;
    m["token_embd.weight"] = {e, v};
    m["output_norm.weight"] = {e};
    if (!s.tiedOutput) m["output.weight"] = {e, v};
    if (s.arch == "gpt2") {
        m["position_embd.weight"] = {e, s.nCtx};
        m["output_norm.bias"] = {e};
    }
    for (int l = 0; l < s.nLayer; ++l) {
        const std::string p = "blk." + std::to_string(l) + ".";
        m[p + "attn_norm.weight"] = {e};
        m[p + "ffn_norm.weight"] = {e};
        m[p + "attn_output.weight"] = {e, e};
        m[p + "ffn_up.weight"] = {e, ff};
        m[p + "ffn_down.weight"] = {ff, e};
        if (s.arch == "gpt2") {
            m[p + "attn_norm.bias"] = {e};
            m[p + "ffn_norm.bias"] = {e};
            m[p + "attn_qkv.weight"] = {e, 3 * e};
            m[p + "attn_qkv.bias"] = {3 * e};
            m[p + "attn_output.bias"] = {e};
            m[p + "ffn_up.bias"] = {ff};
            m[p + "ffn_down.bias"] = {e};
        } else {
            m[p + "attn_q.weight"] = {e, e};
            m[p + "attn_k.weight"] = {e, kv};
            m[p + "attn_v.weight"] = {e, kv};
            m[p + "ffn_gate.weight"] = {e, ff};
            if (s.arch == "qwen2") {
                m[p + "attn_q.bias"] = {e};
                m[p + "attn_k.bias"] = {kv};
                m[p + "attn_v.bias"] = {kv};
            }
        }
    }
    return m;
}

void stats(const GgufTensor& t, double& mean, double& stddev) {
    const float* x = reinterpret_cast<const float*>(t.data);
    const int64_t n = t.elements();
    double s = 0, s2 = 0;
    for (int64_t k = 0; k < n; ++k) s += x[k], s2 += double(x[k]) * x[k];
    mean = s / n;
    stddev = std::sqrt(std::max(0.0, s2 / n - mean * mean));
}

QString typeRowName(GgmlType t) { return QString::fromStdString(ggmlTypeName(t)); }

}  // namespace

Q_DECLARE_METATYPE(dlab::GgmlType)

class TestGgufTinyModel : public QObject {
    Q_OBJECT

private slots:
    void layout_data() {
        QTest::addColumn<QString>("arch");
        QTest::addColumn<GgmlType>("type");
        QTest::addColumn<bool>("tied");
        for (const char* arch : {"llama", "qwen2", "gpt2"})
            for (GgmlType t : tinyModelWeightTypes())
                for (bool tied : {false, true})
                    QTest::addRow("%s %s%s", arch, qPrintable(typeRowName(t)), tied ? " tied" : "") << arch << t << tied;
    }
    void layout() {
        QFETCH(QString, arch);
        QFETCH(GgmlType, type);
        QFETCH(bool, tied);
        TinyModelSpec s;
        s.arch = arch.toStdString();
        s.weightType = type;
        s.tiedOutput = tied;
        auto f = build(s);
        const std::string a = s.arch + ".";

        // llama.cpp reads hparams with exact type checks: integers uint32, floats float32.
        QCOMPARE(f->getString("general.architecture"), s.arch);
        for (const char* key : {"context_length", "embedding_length", "block_count", "feed_forward_length",
                                "attention.head_count", "attention.head_count_kv", "vocab_size"})
            QCOMPARE(f->find(a + key) ? f->find(a + key)->type : GgufValueType::String, GgufValueType::UInt32);
        QCOMPARE(f->getInt(a + "context_length"), int64_t(s.nCtx));
        QCOMPARE(f->getInt(a + "embedding_length"), int64_t(s.nEmbd));
        QCOMPARE(f->getInt(a + "block_count"), int64_t(s.nLayer));
        QCOMPARE(f->getInt(a + "feed_forward_length"), int64_t(s.nFf));
        QCOMPARE(f->getInt(a + "attention.head_count"), int64_t(s.nHead));
        QCOMPARE(f->getInt(a + "attention.head_count_kv"), int64_t(s.arch == "gpt2" ? s.nHead : s.nHeadKv));
        QCOMPARE(f->getInt(a + "vocab_size"), int64_t(kTinyVocabSize));
        if (s.arch == "gpt2") {
            QCOMPARE(f->find(a + "attention.layer_norm_epsilon")->type, GgufValueType::Float32);
            QVERIFY(!f->has(a + "rope.dimension_count"));
        } else {
            QCOMPARE(f->find(a + "attention.layer_norm_rms_epsilon")->type, GgufValueType::Float32);
            QCOMPARE(f->find(a + "rope.freq_base")->type, GgufValueType::Float32);
            QCOMPARE(f->getInt(a + "rope.dimension_count"), int64_t(s.nEmbd / s.nHead));
        }

        // Tokenizer metadata (llama.cpp: token_type must be int32, ids uint32).
        QCOMPARE(f->getString("tokenizer.ggml.model"), std::string("gpt2"));
        QCOMPARE(f->getString("tokenizer.ggml.pre"), std::string("gpt-2"));
        QCOMPARE(f->getArray("tokenizer.ggml.tokens", GgufValueType::String).strings, tinyVocab().tokens);
        QCOMPARE(f->getArray("tokenizer.ggml.token_type", GgufValueType::Int32).arrayType, GgufValueType::Int32);
        QCOMPARE(f->getArray("tokenizer.ggml.token_type", GgufValueType::Int32).arrayCount, uint64_t(kTinyVocabSize));
        QCOMPARE(f->getArray("tokenizer.ggml.merges", GgufValueType::String).strings, tinyVocab().merges);
        QCOMPARE(f->find("tokenizer.ggml.bos_token_id")->type, GgufValueType::UInt32);
        QCOMPARE(f->getInt("tokenizer.ggml.eos_token_id"), int64_t(tinyVocab().endOfText));
        QCOMPARE(f->getBool("tokenizer.ggml.add_bos_token", false), s.arch == "llama");
        QVERIFY(f->getString("tokenizer.chat_template").find("<|im_start|>") != std::string::npos);

        // Exactly the tensors llama.cpp asks for, with its shapes; 2-D weights in the chosen type.
        const auto expected = expectedTensors(s);
        QCOMPARE(f->tensors().size(), expected.size());
        for (const auto& [name, shape] : expected) {
            const GgufTensor* t = f->findTensor(name);
            QVERIFY2(t, name.c_str());
            QCOMPARE(t->shape, shape);
            const bool quantizable = shape.size() == 2 && name != "position_embd.weight";
            QCOMPARE(t->type, quantizable ? type : GgmlType::F32);
        }
    }

    // Norms near 1, biases near 0, matrices with the documented spread (F32 weights).
    void weightStatistics() {
        for (const char* arch : {"llama", "qwen2", "gpt2"}) {
            TinyModelSpec s;
            s.arch = arch;
            auto f = build(s);
            double mean = 0, sd = 0;
            stats(f->tensor("output_norm.weight"), mean, sd);
            QVERIFY2(std::abs(mean - 1.0) < 0.05 && sd > 0.05 && sd < 0.15, arch);
            stats(f->tensor("token_embd.weight"), mean, sd);
            QVERIFY2(std::abs(mean) < 0.01 && std::abs(sd - 0.15) < 0.01, arch);
            stats(f->tensor("blk.1.ffn_down.weight"), mean, sd);
            QVERIFY2(std::abs(mean) < 0.01 && std::abs(sd - 0.08) < 0.01, arch);
            for (const auto& t : f->tensors()) {
                const float* x = reinterpret_cast<const float*>(t.data);
                for (int64_t k = 0; k < t.elements(); ++k) QVERIFY(std::isfinite(x[k]) && std::abs(x[k]) < 2.0f);
            }
        }
    }

    void deterministic() {
        TinyModelSpec s;
        s.arch = "qwen2";
        s.seed = 42;
        const auto a = buildTinyModel(s).toBytes();
        QVERIFY(a == buildTinyModel(s).toBytes());
        s.seed = 43;
        QVERIFY(a != buildTinyModel(s).toBytes());

        // Each tensor has its own stream: the tied variant shares token_embd and every block.
        s.seed = 42;
        auto untied = build(s);
        s.tiedOutput = true;
        auto tied = build(s);
        for (const auto& t : tied->tensors()) {
            const GgufTensor& u = untied->tensor(t.name);
            QCOMPARE(u.nbytes, t.nbytes);
            QVERIFY2(std::memcmp(u.data, t.data, t.nbytes) == 0, t.name.c_str());
        }
    }

    void vocabularyIsConsistent() {
        const TinyVocab& v = tinyVocab();
        QCOMPARE(int(v.tokens.size()), kTinyVocabSize);
        QCOMPARE(v.types.size(), v.tokens.size());
        QCOMPARE(std::set<std::string>(v.tokens.begin(), v.tokens.end()).size(), v.tokens.size());  // llama.cpp asserts this
        QCOMPARE(v.tokens[32], std::string("\xc4\xa0"));    // ' ' -> U+0120 'Ġ'
        QCOMPARE(v.tokens[10], std::string("\xc4\x8a"));    // '\n' -> U+010A 'Ċ'
        QCOMPARE(v.tokens['A'], std::string("A"));
        QCOMPARE(v.tokens[0xAD], std::string("\xc5\x83"));  // soft hyphen is remapped too (U+0143)
        const std::set<std::string> tokens(v.tokens.begin(), v.tokens.end());
        for (const auto& m : v.merges) {
            const size_t sp = m.find(' ', 1);
            QVERIFY2(sp != std::string::npos, m.c_str());
            QVERIFY2(tokens.count(m.substr(0, sp)) && tokens.count(m.substr(sp + 1)), m.c_str());
            QVERIFY2(tokens.count(m.substr(0, sp) + m.substr(sp + 1)), m.c_str());
        }
        for (int32_t id : {v.endOfText, v.imStart, v.imEnd, v.pad}) QCOMPARE(v.types[size_t(id)], 3);
        QCOMPARE(v.tokens[size_t(v.endOfText)], std::string("<|endoftext|>"));
        QCOMPARE(v.tokens[size_t(v.imEnd)], std::string("<|im_end|>"));
    }

    void badSpec_data() {
        QTest::addColumn<int>("which");
        QTest::addColumn<QString>("expected");
        QTest::newRow("unknown arch") << 0 << "architecture 'mamba' is not supported";
        QTest::newRow("unsupported type") << 1 << "weight type Q4_0 is not supported";
        QTest::newRow("heads do not divide n_embd") << 2 << "not a multiple of n_head";
        QTest::newRow("kv heads do not divide heads") << 3 << "not a multiple of n_head_kv";
        QTest::newRow("zero layers") << 4 << "positive";
        QTest::newRow("odd head size") << 5 << "even";
    }
    void badSpec() {
        QFETCH(int, which);
        QFETCH(QString, expected);
        TinyModelSpec s;
        switch (which) {
            case 0: s.arch = "mamba"; break;
            case 1: s.weightType = GgmlType::Q4_0; break;
            case 2: s.nHead = 5; break;
            case 3: s.nHeadKv = 3; break;
            case 4: s.nLayer = 0; break;
            case 5: s.nEmbd = 12; s.nHead = 4; break;
        }
        try {
            buildTinyModel(s);
            QFAIL("no dlab::Error was thrown");
        } catch (const dlab::Error& e) {
            QVERIFY2(QString(e.what()).contains(expected), e.what());
        }
    }

    void writesToDisk() {
        TinyModelSpec s;
        s.arch = "gpt2";
        const std::string path = dlab::test::scratchDir() + "/tiny-gpt2.gguf";
        writeTinyModel(s, path);
        auto f = GgufFile::open(path);
        QCOMPARE(f->tensors().size(), expectedTensors(s).size());
        try {
            writeTinyModel(s, dlab::test::scratchDir() + "/no/such/dir/x.gguf");
            QFAIL("no dlab::Error was thrown");
        } catch (const dlab::Error& e) {
            QVERIFY2(QString(e.what()).contains("x.gguf: cannot create"), e.what());
        }
    }

    // decoding-lab-cli make-tiny-model ... (skipped until main() dispatches the subcommand).
    void cliSubcommand() {
        if (!std::filesystem::exists(dlab::test::cliPath())) QSKIP("decoding-lab-cli is not built");
        const std::string out = dlab::test::scratchDir() + "/cli-tiny.gguf";
        QProcess p;
        p.start(QString::fromStdString(dlab::test::cliPath()),
                {"make-tiny-model", "--arch", "qwen2", "--out", QString::fromStdString(out), "--seed", "5", "--tied"});
        QVERIFY(p.waitForFinished(60000));
        const QString output = p.readAllStandardOutput() + p.readAllStandardError();
        if (!std::filesystem::exists(out) && !output.contains("make-tiny-model"))
            QSKIP("decoding-lab-cli does not dispatch make-tiny-model yet");
        QVERIFY2(p.exitCode() == 0, qPrintable(output));
        auto f = GgufFile::open(out);
        TinyModelSpec s;
        s.arch = "qwen2";
        s.seed = 5;
        s.tiedOutput = true;
        QVERIFY(f->fileSize() == buildTinyModel(s).toBytes().size());
        QVERIFY(!f->findTensor("output.weight"));

        // --layers: the default model's shape with 2 layers (what gpu_check.sh's sanitizer runs use).
        p.start(QString::fromStdString(dlab::test::cliPath()),
                {"make-tiny-model", "--like", "smollm2-135m", "--layers", "2", "--out", QString::fromStdString(out)});
        QVERIFY(p.waitForFinished(60000));
        QVERIFY2(p.exitCode() == 0, qPrintable(p.readAllStandardError()));
        TinyModelSpec two = smollm2_135mShape();
        two.nLayer = 2;
        auto f2 = GgufFile::open(out);
        QCOMPARE(f2->fileSize(), buildTinyModel(two).toBytes().size());
        QVERIFY(f2->findTensor("blk.1.attn_q.weight"));
        QVERIFY(!f2->findTensor("blk.2.attn_q.weight"));

        p.start(QString::fromStdString(dlab::test::cliPath()),
                {"make-tiny-model", "--arch", "llama", "--out", QString::fromStdString(out), "--type", "q2_k"});
        QVERIFY(p.waitForFinished(60000));
        QVERIFY(p.exitCode() != 0);
        const QString err = p.readAllStandardError();
        QVERIFY2(err.contains("make-tiny-model") && err.contains("q2_k"), qPrintable(err));
    }
};

QTEST_GUILESS_MAIN(TestGgufTinyModel)
#include "test_gguf_tiny_model.moc"
