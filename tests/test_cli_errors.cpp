// Bad input at the command line: each case exits with code 1 and one clear sentence on stderr,
// never a crash, a hang or a silent success.
#include <QProcess>
#include <QRegularExpression>
#include <QTest>

#include <fstream>

#include "gguf/gguf_writer.h"
#include "cuda/cuda_backend.h"
#include "gguf/tiny_model.h"
#include "test_paths.h"

using namespace dlab;

namespace {

std::string scratch(const std::string& name) { return test::scratchDir() + "/" + name; }

void writeBytes(const std::string& path, const std::vector<uint8_t>& bytes) {
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

// A llama-shaped GGUF with one tensor and the given metadata, for loader errors.
GgufWriter minimalLlama(bool withBlockCount, GgmlType embdType, const std::string& arch = "llama") {
    GgufWriter w;
    w.addString("general.architecture", arch);
    w.addUInt32(arch + ".embedding_length", 64);
    if (withBlockCount) w.addUInt32(arch + ".block_count", 1);
    w.addUInt32(arch + ".attention.head_count", 4);
    w.addUInt32(arch + ".feed_forward_length", 128);
    w.addUInt32(arch + ".context_length", 128);
    const auto& v = tinyVocab();
    w.addString("tokenizer.ggml.model", "gpt2");
    w.addString("tokenizer.ggml.pre", "gpt-2");
    w.addStringArray("tokenizer.ggml.tokens", v.tokens);
    std::vector<int64_t> types(v.types.begin(), v.types.end());
    w.addIntArray("tokenizer.ggml.token_type", GgufValueType::Int32, types);
    w.addStringArray("tokenizer.ggml.merges", v.merges);
    const auto& tr = ggmlTypeTraits(embdType);
    w.addTensor("token_embd.weight", embdType, {256, kTinyVocabSize},
                std::vector<uint8_t>(kTinyVocabSize * (256 / tr.blockSize) * tr.blockBytes));
    return w;
}

struct Run {
    int exitCode;
    QString err;
    QString out;
};

// args[0] == "sh" runs a shell line instead, for arguments QString cannot carry (invalid UTF-8).
Run runCli(const QStringList& args) {
    QProcess p;
    if (!args.isEmpty() && args.front() == "sh") p.start("/bin/sh", args.mid(1));
    else p.start(QString::fromStdString(test::cliPath()), args);
    if (!p.waitForFinished(60000)) {
        p.kill();
        return {-1, "timed out", ""};
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2, QString::fromUtf8(p.readAllStandardError()),
            QString::fromUtf8(p.readAllStandardOutput())};
}

}  // namespace

class TestCliErrors : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        writeTinyModel(TinyModelSpec{}, scratch("tiny.gguf"));
        std::ifstream in(scratch("tiny.gguf"), std::ios::binary);
        std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), {});
        writeBytes(scratch("truncated.gguf"), std::vector<uint8_t>(bytes.begin(), bytes.begin() + bytes.size() * 2 / 3));
        auto magic = bytes;
        magic[0] = 'X';
        writeBytes(scratch("magic.gguf"), magic);
        minimalLlama(false, GgmlType::F32).write(scratch("missing-key.gguf"));
        minimalLlama(true, GgmlType::Q3_K).write(scratch("q3k.gguf"));
        minimalLlama(true, GgmlType::F32, "mamba").write(scratch("mamba.gguf"));
        writeBytes(scratch("not-utf8.txt"), {'a', 0xff, 'b'});
        auto text = [](const std::string& f, const std::string& t) { writeBytes(scratch(f), std::vector<uint8_t>(t.begin(), t.end())); };
        text("undefined.gbnf", "root ::= \"a\" value\n");
        text("leftrec.gbnf", "root ::= expr\nexpr ::= expr \"+\" \"1\" | \"1\"\n");
        text("pattern.json", "{\"type\": \"string\", \"pattern\": \"^a+$\"}");
        text("broken.json", "{\"type\": ");
        text("brackets.gbnf", "root ::= \"[\" [a-z]* \"]\"\n");
    }

    void rejects_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("expected");
        const QString tiny = QString::fromStdString(scratch("tiny.gguf"));
        auto m = [](const std::string& f) { return QString::fromStdString(scratch(f)); };
        QTest::newRow("truncated file") << QStringList{"info", "--model", m("truncated.gguf")} << "truncated";
        QTest::newRow("wrong magic") << QStringList{"info", "--model", m("magic.gguf")} << "not a GGUF file";
        QTest::newRow("missing file") << QStringList{"info", "--model", m("nope.gguf")} << "cannot open";
        QTest::newRow("missing metadata key") << QStringList{"info", "--model", m("missing-key.gguf")} << "'llama.block_count' is missing";
        QTest::newRow("unsupported tensor type") << QStringList{"info", "--model", m("q3k.gguf")} << "type Q3_K is not supported";
        QTest::newRow("unsupported architecture") << QStringList{"info", "--model", m("mamba.gguf")} << "architecture 'mamba' is not supported";
        QTest::newRow("top-p 0") << QStringList{"generate", "--model", tiny, "--prompt", "hi", "--top-p", "0"} << "--top-p must be greater than 0 and at most 1";
        QTest::newRow("top-p 1.5") << QStringList{"generate", "--model", tiny, "--prompt", "hi", "--top-p", "1.5"} << "--top-p must be greater than 0 and at most 1";
        QTest::newRow("top-k -1") << QStringList{"generate", "--model", tiny, "--prompt", "hi", "--top-k", "-1"} << "--top-k must be 0 \\(off\\) or a positive";
        QTest::newRow("temperature -1") << QStringList{"generate", "--model", tiny, "--prompt", "hi", "--temperature", "-1"} << "--temperature must be between 0 and 100";
        QTest::newRow("max-tokens 0") << QStringList{"generate", "--model", tiny, "--prompt", "hi", "--max-tokens", "0"} << "--max-tokens must be between 1";
        QTest::newRow("non-numeric value") << QStringList{"generate", "--model", tiny, "--prompt", "hi", "--top-k", "many"} << "--top-k must be a whole number";
        QTest::newRow("prompt longer than context") << QStringList{"generate", "--model", tiny, "--ctx", "8", "--prompt", "one two three four five six seven eight nine ten"} << "--ctx 8 is too small for the prompt \\(\\d+ tokens\\) and 1 new token; use --ctx \\d+ or more";
        // The message used to read "the prompt has 2 tokens but the context holds only 2 more positions".
        // ("hi" is BOS + 2 tokens on the tiny model.)
        QTest::newRow("prompt as long as the context") << QStringList{"generate", "--model", tiny, "--ctx", "3", "--prompt", "hi"} << "--ctx 3 is too small for the prompt \\(3 tokens\\) and 1 new token; use --ctx 4 or more, or a shorter prompt";
        QTest::newRow("beam: prompt and max-tokens longer than context") << QStringList{"generate", "--model", tiny, "--strategy", "beam", "--ctx", "16", "--max-tokens", "20", "--prompt", "hi"} << "--ctx 16 is too small for the prompt \\(3 tokens\\) and 20 new tokens; use --ctx 23 or more, a shorter prompt or a smaller --max-tokens";
        QTest::newRow("branch: prompt and max-tokens longer than context") << QStringList{"branch", "--model", tiny, "--ctx", "16", "--max-tokens", "20", "--prompt", "hi"} << "branch: --ctx 16 is too small for the prompt \\(3 tokens\\) and 20 new tokens; use --ctx 23";
        QTest::newRow("compare: prompt and max-tokens longer than the default context") << QStringList{"compare", "--model", tiny, "--run", "greedy", "--max-tokens", "200", "--prompt", "hi"} << "compare: the default context \\(128 positions\\) is too small for the prompt \\(3 tokens\\) and 200 new tokens; use --ctx 203";
        // Repeated options: rejected, for values and flags, in either spelling (the second used to be "unknown").
        QTest::newRow("repeated --threads") << QStringList{"generate", "--model", tiny, "--prompt", "hi", "--threads", "1", "--threads", "2"} << "generate: option --threads is given more than once; give it once";
        QTest::newRow("repeated --ctx=N") << QStringList{"generate", "--model", tiny, "--prompt", "hi", "--ctx=16", "--ctx", "32"} << "option --ctx is given more than once";
        QTest::newRow("repeated flag") << QStringList{"info", "--model", tiny, "--json", "--json"} << "info: option --json is given more than once";
        QTest::newRow("repeated sampler option") << QStringList{"branch", "--model", tiny, "--prompt", "hi", "--top-k", "5", "--top-k=6"} << "branch: option --top-k is given more than once";
        QTest::newRow("repeated kv option") << QStringList{"kv", "--preset", "gpt2", "--batch", "2", "--batch", "3"} << "kv: option --batch is given more than once";
        QTest::newRow("make-tiny-model with no layers") << QStringList{"make-tiny-model", "--like", "smollm2-135m", "--layers", "0", "--out", m("x.gguf")} << "make-tiny-model: --layers must be between 1 and 256; got 0";
        QTest::newRow("repeated make-tiny-model option") << QStringList{"make-tiny-model", "--arch", "llama", "--arch", "gpt2", "--out", m("x.gguf")} << "make-tiny-model: option --arch is given more than once";
        // A directory opens as an empty stream on Linux: it must not pass for an empty text.
        const QString dir = QString::fromStdString(test::scratchDir());
        QTest::newRow("tokenize --file DIR") << QStringList{"tokenize", "--model", tiny, "--file", dir} << QRegularExpression::escape(dir + " is a directory, not a text file");
        QTest::newRow("perplexity --file DIR") << QStringList{"perplexity", "--model", tiny, "--file", dir} << QRegularExpression::escape(dir + " is a directory, not a text file");
        QTest::newRow("sample --logits DIR") << QStringList{"sample", "--logits", dir} << QRegularExpression::escape(dir + " is a directory, not a text file");
        QTest::newRow("--model DIR") << QStringList{"info", "--model", dir} << QRegularExpression::escape(dir + ": is a directory, not a GGUF file");
        // branch: checked before the first step (stdout stays empty, see rejects()).
        QTest::newRow("branch --at past the run") << QStringList{"branch", "--model", tiny, "--prompt", "hi", "--max-tokens", "4", "--at", "4"} << "--at must be below --max-tokens \\(4\\)";
        QTest::newRow("branch --token outside the vocabulary") << QStringList{"branch", "--model", tiny, "--prompt", "hi", "--token", "99999999"} << "branch: --token 99999999 is outside the vocabulary \\(0..319\\)";
        QTest::newRow("branch --token not a number") << QStringList{"branch", "--model", tiny, "--prompt", "hi", "--token", "x"} << "--token must be a whole number";
        QTest::newRow("branch --token negative") << QStringList{"branch", "--model", tiny, "--prompt", "hi", "--token", "-1"} << "--token must be between 0 and";
        // 16777216 positions of the default model (SmolLM2-135M, 22.5 KiB each in f16) are 360 GiB: refused
        // before the allocation instead of running into the OOM killer.
        QTest::newRow("generate: KV cache larger than memory") << QStringList{"generate", "--ctx", "16777216", "--prompt", "hi"} << "generate: --ctx 16777216 needs 360.0 GiB of KV cache \\(f16\\) but this machine has [\\d.]+ GiB of memory; use a smaller --ctx";
        QTest::newRow("branch: KV cache larger than memory") << QStringList{"branch", "--ctx", "16777216", "--prompt", "hi"} << "branch: --ctx 16777216 needs 360.0 GiB";
        QTest::newRow("kv past 2^63 bytes") << QStringList{"kv", "--preset", "llama2-7b", "--context", "1073741824", "--batch", "20000"} << "more than 8 EiB";
        QTest::newRow("trace-attention without trace") << QStringList{"generate", "--model", tiny, "--prompt", "hi", "--trace-attention"} << "generate: --trace-attention writes into the trace; give --trace FILE.jsonl too";
        QTest::newRow("trace-attention with beam") << QStringList{"generate", "--model", tiny, "--prompt", "hi", "--strategy", "beam", "--trace", m("t.jsonl"), "--trace-attention"} << "--trace-attention traces greedy and sampled runs, not --strategy beam";
        QTest::newRow("bench --batch bad list") << QStringList{"bench", "--model", tiny, "--batch", "1,0"} << "--batch takes batch sizes between 1 and 256 separated by commas; '0' is not one";
        QTest::newRow("bench --beam bad list") << QStringList{"bench", "--model", tiny, "--beam", "4,0"} << "--beam takes beam widths between 1 and 64 separated by commas; '0' is not one";
        QTest::newRow("bench --beam and --batch") << QStringList{"bench", "--model", tiny, "--beam", "4", "--batch", "4"} << "bench: --batch and --beam are two benchmarks; give one of them";
        QTest::newRow("bench -d with --batch") << QStringList{"bench", "--model", tiny, "-d", "16", "--batch", "2"} << "bench: -d goes with plain pp / tg runs only, not with --batch, --beam or --no-kv-cache";
        QTest::newRow("bench --batch without the cache") << QStringList{"bench", "--model", tiny, "--batch", "2", "--no-kv-cache"} << "bench: --batch measures decoding with the cache; drop --no-kv-cache";
        QTest::newRow("kv-growth --at bad list") << QStringList{"kv-growth", "--model", tiny, "--at", "64,x"} << "--at takes positions between 1 and 1048576 separated by commas; 'x' is not one";
        QTest::newRow("kv-dtypes q8_0 on 16-wide heads") << QStringList{"kv-dtypes", "--model", tiny, "--types", "q8_0"} << "a q8_0 KV cache needs a head size that is a multiple of 32 \\(this model's is 16\\)";
        QTest::newRow("kv-dtypes unknown type") << QStringList{"kv-dtypes", "--model", tiny, "--types", "f16,q5"} << "q5";
        QTest::newRow("kv-evict without --file") << QStringList{"kv-evict", "--model", tiny} << "kv-evict: --file TEXT is required";
        QTest::newRow("kv-evict sinks >= cache") << QStringList{"kv-evict", "--model", tiny, "--file", m("x.txt"), "--sinks", "8", "--cache", "8"} << "kv-evict: --sinks must be smaller than --cache \\(8\\)";
        QTest::newRow("non-UTF-8 prompt file") << QStringList{"tokenize", "--model", tiny, "--file", m("not-utf8.txt")} << "UTF-8";
        QTest::newRow("non-UTF-8 prompt") << QStringList{"sh", "-c", "exec \"$0\" generate --model \"$1\" --prompt \"$(printf 'caf\\351')\"", QString::fromStdString(test::cliPath()), tiny} << "UTF-8";
        // Diverse beam search and the richer run specs (issue 9).
        QTest::newRow("beam groups without beam") << QStringList{"generate", "--model", tiny, "--prompt", "hi", "--beam-groups", "2"} << "generate: --beam-groups and --diversity-penalty need --strategy beam";
        QTest::newRow("diversity penalty without beam") << QStringList{"generate", "--model", tiny, "--prompt", "hi", "--strategy", "greedy", "--diversity-penalty", "1"} << "generate: --beam-groups and --diversity-penalty need --strategy beam";
        QTest::newRow("beams not divisible by groups") << QStringList{"generate", "--model", tiny, "--prompt", "hi", "--strategy", "beam", "--beams", "4", "--beam-groups", "3"} << "generate: the beam width 4 is not divisible by the 3 beam groups; each group keeps width / groups beams, so use a width that is a multiple of 3";
        QTest::newRow("beam groups zero") << QStringList{"generate", "--model", tiny, "--prompt", "hi", "--strategy", "beam", "--beam-groups", "0"} << "generate: --beam-groups must be between 1 and 64; got 0";
        QTest::newRow("diversity penalty negative") << QStringList{"generate", "--model", tiny, "--prompt", "hi", "--strategy", "beam", "--beam-groups", "2", "--diversity-penalty", "-0.5"} << "the diversity penalty must be 0 \\(off\\) or a positive number";
        QTest::newRow("diversity penalty not a number") << QStringList{"generate", "--model", tiny, "--prompt", "hi", "--strategy", "beam", "--diversity-penalty", "much"} << "generate: --diversity-penalty must be a number; got 'much'";
        QTest::newRow("diversity penalty, one group") << QStringList{"generate", "--model", tiny, "--prompt", "hi", "--strategy", "beam", "--diversity-penalty", "0.5"} << "a diversity penalty needs at least 2 beam groups";
        QTest::newRow("beam repeat penalty zero") << QStringList{"generate", "--model", tiny, "--prompt", "hi", "--strategy", "beam", "--repeat-penalty", "0"} << "the beam repetition penalty must be greater than 0";
        QTest::newRow("compare: groups not dividing") << QStringList{"compare", "--model", tiny, "--prompt", "hi", "--run", "beam:k=4,g=3"} << "run 'beam:k=4,g=3': the beam width 4 is not divisible by the 3 beam groups";
        QTest::newRow("compare: dp not a number") << QStringList{"compare", "--model", tiny, "--prompt", "hi", "--run", "beam:k=4,g=2,dp=x"} << "run 'beam:k=4,g=2,dp=x': dp must be a number; got 'x'";
        QTest::newRow("compare: dp one group") << QStringList{"compare", "--model", tiny, "--prompt", "hi", "--run", "beam:dp=1"} << "run 'beam:dp=1': a diversity penalty needs at least 2 beam groups";
        QTest::newRow("compare: greedy temperature") << QStringList{"compare", "--model", tiny, "--prompt", "hi", "--run", "greedy:t=1"} << "run 'greedy:t=1': unknown key 't' for greedy; its keys are freq, grammar, lastn, nrng, pres, rep";
        QTest::newRow("compare: frequency penalty range") << QStringList{"compare", "--model", tiny, "--prompt", "hi", "--run", "sample:freq=5"} << "run 'sample:freq=5': --frequency-penalty must be between -2 and 2";
        QTest::newRow("compare: unknown stage in order") << QStringList{"compare", "--model", tiny, "--prompt", "hi", "--run", "sample:order=top-k+heat"} << "run 'sample:order=top-k\\+heat': --order: unknown sampler stage 'heat'";
        QTest::newRow("compare: mirostat without its order") << QStringList{"compare", "--model", tiny, "--prompt", "hi", "--run", "sample:mirotau=5"} << "--mirostat-tau is set but the sampler order 'hf' has no mirostat stage";
        QTest::newRow("compare: key twice") << QStringList{"compare", "--model", tiny, "--prompt", "hi", "--run", "beam:k=2,k=4"} << "run 'beam:k=2,k=4': the key 'k' is given twice";
        QTest::newRow("compare: top-n negative") << QStringList{"compare", "--model", tiny, "--prompt", "hi", "--run", "greedy", "--top-n", "-1"} << "compare: --top-n must be between 0 and";
        QTest::newRow("compare: trace file unwritable") << QStringList{"compare", "--model", tiny, "--prompt", "hi", "--run", "greedy", "--trace", "/nonexistent-dir/x.jsonl"} << "/nonexistent-dir/x.jsonl: cannot write the trace file";
        QTest::newRow("unknown option") << QStringList{"generate", "--model", tiny, "--prompt", "hi", "--topk", "3"} << "unknown option '--topk'";
        QTest::newRow("unknown command") << QStringList{"frobnicate"} << "unknown command";
        // Constrained decoding: the grammar's own sentence, with the file, line and column.
        QTest::newRow("grammar file missing") << QStringList{"generate", "--model", tiny, "--prompt", "hi", "--grammar", m("none.gbnf")} << "cannot open";
        QTest::newRow("grammar undefined rule") << QStringList{"generate", "--model", tiny, "--prompt", "hi", "--grammar", m("undefined.gbnf")}
                                                << "undefined.gbnf:1:14: rule 'value' is used but never defined";
        QTest::newRow("grammar left recursion") << QStringList{"grammar", "check", m("leftrec.gbnf")} << "leftrec.gbnf:2:1: rule 'expr' is left-recursive";
        QTest::newRow("schema keyword") << QStringList{"generate", "--model", tiny, "--prompt", "hi", "--json-schema", m("pattern.json")}
                                        << "at /pattern: 'pattern' is not supported";
        QTest::newRow("schema not json") << QStringList{"grammar", "check", m("broken.json")} << "broken.json: not valid JSON";
        QTest::newRow("two constraints") << QStringList{"generate", "--model", tiny, "--prompt", "hi", "--json", "--grammar", m("brackets.gbnf")}
                                         << "give at most one of --grammar, --json-schema and --json";
        QTest::newRow("compare json mode") << QStringList{"compare", "--model", tiny, "--prompt", "hi", "--run", "greedy", "--run", "greedy:grammar=maybe"}
                                           << "grammar must be on or off";
        QTest::newRow("text leaves grammar") << QStringList{"grammar", "check", m("brackets.gbnf"), "--model", tiny, "--text", "[ab]c", "--quiet"}
                                             << "the text leaves the grammar at token";
        QTest::newRow("grammar subcommand") << QStringList{"grammar", "lint"} << "say 'grammar check FILE'";
        QTest::newRow("unknown backend") << QStringList{"generate", "--model", tiny, "--prompt", "hi", "--backend", "gpu"}
                                         << "--backend takes auto, cpu or cuda \\(got 'gpu'\\)";
        QTest::newRow("exact matmul on cuda") << QStringList{"kv-dtypes", "--model", tiny, "--exact", "--backend", "cuda"}
                                              << "exact matmul is the CPU's reference mode";
        QTest::newRow("cuda-check --only something else") << QStringList{"cuda-check", "--only", "fast"}
                                                          << "cuda-check: --only takes ops or backend \\(got 'fast'\\)";
        if (!dlab::cudaUnavailableReason().empty()) {   // where a GPU is usable these commands run
            QTest::newRow("cuda without a GPU") << QStringList{"generate", "--model", tiny, "--prompt", "hi", "--backend", "cuda"}
                                                << "the CUDA backend cannot run: ";
            QTest::newRow("parity without a GPU") << QStringList{"parity", "--model", tiny, "--steps", "2"} << "the CUDA backend cannot run: ";
            QTest::newRow("cuda-check without a GPU") << QStringList{"cuda-check"} << "cuda-check|cannot run the CUDA op checks";
        }
        QTest::newRow("detokenize out of range") << QStringList{"detokenize", "--model", tiny, "99999"} << "outside the vocabulary";
        QTest::newRow("vocab-only file cannot generate")
            << QStringList{"generate", "--model", QString::fromStdString(test::dataDir() + "/tokenizer/ggml-vocab-gpt-2.gguf"), "--prompt", "hi"}
            << "vocabulary-only";
    }

    // Each reason the GPU cannot be used, injected into the CLI built on the CUDA emulator: --backend
    // cuda fails with one line naming it, --backend auto runs on the CPU and says why in one line.
    void gpuUnusable_data() {
        QTest::addColumn<QString>("env");   // NAME=VALUE, several with spaces between
        QTest::addColumn<QString>("expected");
        QTest::newRow("no GPU") << "DLAB_CUDA_EMU_DEVICES=0" << "no NVIDIA GPU is visible \\(cudaGetDeviceCount found none\\)";
        QTest::newRow("no driver") << "DLAB_CUDA_EMU_DRIVER=0" << "no NVIDIA driver is installed";
        QTest::newRow("old driver") << "DLAB_CUDA_EMU_DRIVER=12040"
                                    << "the NVIDIA driver supports CUDA 12\\.4, older than this build's CUDA runtime needs; update the driver";
        QTest::newRow("compute capability 7.0")
            << "DLAB_CUDA_EMU_CC=7.0" << "compute capability 7\\.0; the CUDA 13 runtime this build uses needs 7\\.5 \\(Turing\\) or newer";
        QTest::newRow("no code for the GPU")
            << "DLAB_CUDA_EMU_CC=8.0 DLAB_CUDA_EMU_IMAGES=90-real"
            << "compute capability 8\\.0 and this build has no GPU code for it \\(built for [0-9a-z,-]+\\); rebuild with -DCMAKE_CUDA_ARCHITECTURES=80";
        QTest::newRow("out of GPU memory") << "DLAB_CUDA_EMU_MEMORY=64K"
                                           << "cannot allocate \\d+ KiB of GPU memory for the weight token_embd\\.weight \\(64 KiB of 64 KiB free\\).*--backend cpu";
    }
    void gpuUnusable() {
#ifndef DLAB_CLI_EMULATED_PATH
        QSKIP("no CUDA emulator in this build (no CUDA toolkit)");
#else
        QFETCH(QString, env);
        QFETCH(QString, expected);
        const QString tiny = QString::fromStdString(scratch("tiny.gguf"));
        auto run = [&](const QString& backend) {
            QProcess p;
            QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
            for (const QString& kv : env.split(' ')) e.insert(kv.section('=', 0, 0), kv.section('=', 1));
            p.setProcessEnvironment(e);
            p.start(DLAB_CLI_EMULATED_PATH, {"generate", "--model", tiny, "--prompt", "hi", "--max-tokens", "2", "--backend", backend});
            if (!p.waitForFinished(60000)) p.kill();
            return Run{p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2, QString::fromUtf8(p.readAllStandardError()),
                       QString::fromUtf8(p.readAllStandardOutput())};
        };
        const Run cuda = run("cuda");
        QCOMPARE(cuda.exitCode, 1);
        QVERIFY2(cuda.err.contains(QRegularExpression(expected)), qPrintable("stderr was: " + cuda.err));
        QVERIFY2(cuda.err.trimmed().count('\n') == 0, qPrintable("expected one line, got: " + cuda.err));
        QVERIFY(cuda.out.isEmpty());
        const Run automatic = run("auto");
        QCOMPARE(automatic.exitCode, 0);
        const QString first = automatic.err.section('\n', 0, 0);
        QVERIFY2(first.startsWith("using the CPU: ") && first.contains(QRegularExpression(expected)), qPrintable("stderr was: " + automatic.err));
        QVERIFY2(automatic.err.contains("| 2 threads]") || automatic.err.contains("| 1 thread]"), qPrintable(automatic.err));
        QVERIFY(!automatic.out.trimmed().isEmpty());
#endif
    }

    void rejects() {
        QFETCH(QStringList, args);
        QFETCH(QString, expected);
        const Run r = runCli(args);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QRegularExpression(expected)), qPrintable("stderr was: " + r.err));
        QVERIFY2(r.err.trimmed().count('\n') == 0, qPrintable("expected one line, got: " + r.err));
        // Rejected before any output: nothing was generated first and thrown away.
        QVERIFY2(r.out.isEmpty(), qPrintable("stdout was: " + r.out));
    }
};

QTEST_GUILESS_MAIN(TestCliErrors)
#include "test_cli_errors.moc"
