// decoding-lab-cli grammar: check a GBNF grammar or JSON Schema and print its rules; bench its
// token masks on a model's vocabulary.
#include "cmd_grammar.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "commands.h"
#include "core/error.h"
#include "core/json_writer.h"
#include "generate/chat_prompt.h"
#include "generate/generator.h"
#include "gguf/gguf_file.h"
#include "model/backend.h"
#include "model/kv_cache.h"
#include "grammar/token_trie.h"
#include "tokenizer/token_bytes.h"
#include "tokenizer/tokenizer.h"

namespace dlab::cli {

const char* const kGrammarOptionsHelp =
    "--grammar FILE.gbnf (llama.cpp's GBNF) | --json-schema FILE.json | --json (any JSON object)";

std::optional<ConstraintSpec> readConstraintOption(Args& args, const std::string& command, bool plainJsonFlag) {
    const auto grammar = args.value("--grammar");
    const auto schema = args.value("--json-schema");
    const bool mode = args.flag("--json-mode");
    const bool json = mode || (plainJsonFlag && args.flag("--json"));
    const std::string jsonName = plainJsonFlag ? "--json" : "--json-mode";
    if ((grammar ? 1 : 0) + (schema ? 1 : 0) + (json ? 1 : 0) > 1)
        throw Error(command + ": give at most one of --grammar, --json-schema and " + jsonName);
    if (grammar) return ConstraintSpec{ConstraintSpec::Kind::Gbnf, readTextFile(*grammar), *grammar};
    if (schema) return ConstraintSpec{ConstraintSpec::Kind::JsonSchema, readTextFile(*schema), *schema};
    if (json) return ConstraintSpec{ConstraintSpec::Kind::JsonObject, "", jsonName};
    return std::nullopt;
}

std::shared_ptr<const Constraint> compileConstraint(const ConstraintSpec& spec, const Tokenizer& tok, const std::string& command) {
    try {
        return Constraint::compile(spec, std::make_shared<TokenBytesTable>(tok));
    } catch (const Error& e) {
        throw Error(command + ": " + e.what());
    }
}

namespace {

ConstraintSpec specFrom(Args& args, std::vector<std::string>& pos, const std::string& what) {
    const bool schema = args.flag("--json-schema") || args.flag("--schema");
    const bool anyJson = args.flag("--json-value");
    const bool object = args.flag("--json-object");
    if (anyJson) return {ConstraintSpec::Kind::AnyJson, "", "any JSON"};
    if (object) return {ConstraintSpec::Kind::JsonObject, "", "JSON object"};
    if (pos.size() != 1)
        throw Error("grammar " + what + ": give one grammar file (FILE.gbnf, or FILE.json with --json-schema), or "
                    "--json-value / --json-object");
    const std::string& file = pos[0];
    const bool isSchema = schema || (file.size() > 5 && file.substr(file.size() - 5) == ".json");
    return {isSchema ? ConstraintSpec::Kind::JsonSchema : ConstraintSpec::Kind::Gbnf, readTextFile(file), file};
}

std::unique_ptr<Tokenizer> loadVocab(const std::string& path) {
    auto file = GgufFile::open(path);
    return Tokenizer::fromGguf(*file);
}

}  // namespace

int runGrammarCheckImpl(Args& args) {
    const bool quiet = args.flag("--quiet");
    const auto text = args.value("--text");
    const auto vocabPath = args.value("--vocab");
    std::optional<std::string> model;
    if (text && !vocabPath) model = modelPathOption(args);
    auto pos = args.positionals();
    const ConstraintSpec spec = specFrom(args, pos, "check");
    args.finish();
    std::string gbnf;
    const CharGrammar g = checkGrammar(spec, &gbnf);
    size_t user = 0;
    for (const auto& r : g.rules) user += r.helper ? 0 : 1;
    if (!quiet) std::fputs(toGbnf(g).c_str(), stdout);
    auto summary = [&] {
        std::fprintf(stderr, "[%s: valid; %zu rules (%zu written, %zu for groups and repetitions)]\n",
                     spec.source.c_str(), g.rules.size(), user, g.rules.size() - user);
    };
    if (!text) {
        summary();
        return 0;
    }
    // Walk the text token by token with the vocabulary, as generation would see it.
    auto tok = loadVocab(vocabPath ? *vocabPath : *model);
    auto c = Constraint::compile(spec, std::make_shared<TokenBytesTable>(*tok));
    GrammarAutomaton& a = c->automaton();
    const auto ids = tok->encode(*text, false, false);
    auto s = a.initial();
    std::vector<uint64_t> mask;
    auto count = [&](const std::vector<uint64_t>& m) {
        size_t n = 0;
        for (uint64_t w : m) n += static_cast<size_t>(__builtin_popcountll(w));
        return n;
    };
    for (size_t i = 0; i < ids.size(); ++i) {
        a.mask(s, mask);
        const bool ok = maskAllows(mask, ids[i]);
        if (!quiet)
            std::printf("%4zu  %-24s allowed %6zu  %s\n", i, ("\"" + tok->tokenToPiece(ids[i]) + "\"").c_str(), count(mask),
                        ok ? "ok" : "FORBIDDEN");
        if (!ok) throw Error("grammar check: the text leaves the grammar at token " + std::to_string(i) + " (\"" +
                             tok->tokenToPiece(ids[i]) + "\")");
        s = a.advance(s, ids[i]);
    }
    std::printf("end: %s\n", a.accepting(s) ? "complete (end of generation allowed)" : "incomplete (the grammar wants more)");
    summary();
    return a.accepting(s) ? 0 : 1;
}

namespace {
// Per-token mask time on a token sequence: the first pass over fresh caches (cold) and repeated
// passes over the same automaton (warm: the masks of states seen before are cached).
int runMaskBench(Args& args) {
    const auto text = args.value("--text");
    const auto textFile = args.value("--text-file");
    const auto vocabPath = args.value("--vocab");
    const int reps = static_cast<int>(args.integer("--reps", 5, 1, 1000));
    const bool json = args.flag("--json-out");
    const auto decodePrompt = args.value("--decode-prompt");
    const int decodeReps = static_cast<int>(args.integer("--decode-reps", 7, 1, 1000));
    const int threads = decodePrompt ? threadsOption(args) : 1;
    const BackendOption backendKind = decodePrompt ? backendOption(args) : BackendOption{};
    std::optional<std::string> model;
    if (!vocabPath || decodePrompt) model = modelPathOption(args);
    auto pos = args.positionals();
    const ConstraintSpec spec = specFrom(args, pos, "bench");
    args.finish();
    if (!text && !textFile) throw Error("grammar bench: give --text T or --text-file F (a text the grammar accepts)");
    const std::string sample = text ? *text : readTextFile(*textFile);
    auto tok = loadVocab(vocabPath ? *vocabPath : *model);
    auto table = std::make_shared<TokenBytesTable>(*tok);
    const auto ids = tok->encode(sample, false, false);
    using clock = std::chrono::steady_clock;
    auto us = [](clock::time_point a, clock::time_point b) { return std::chrono::duration<double, std::micro>(b - a).count(); };

    // The vocabulary's token trie is built once and shared by every grammar (as the references
    // report their tokenizer set-up apart): time it on its own.
    const auto tv = clock::now();
    auto trie = TokenTrie::of(table);
    const double vocabSetupMs = us(tv, clock::now()) / 1000.0;
    // Per step, the median over the repetitions; then the median and mean of those over the steps.
    std::vector<double> compileMs;
    std::vector<std::vector<double>> coldAt(ids.size() + 1), warmAt(ids.size() + 1);
    for (int r = 0; r < reps; ++r) {
        auto t0 = clock::now();
        auto c = Constraint::compile(spec, table);
        compileMs.push_back(us(t0, clock::now()) / 1000.0);
        GrammarAutomaton& a = c->automaton();
        std::vector<uint64_t> mask;
        for (int pass = 0; pass < 2; ++pass) {
            auto s = a.initial();
            for (size_t i = 0; i <= ids.size(); ++i) {
                auto t1 = clock::now();
                a.mask(s, mask);
                (pass == 0 ? coldAt : warmAt)[i].push_back(us(t1, clock::now()));
                if (i == ids.size()) break;
                s = a.advance(s, ids[i]);
                if (s == GrammarAutomaton::kDead)
                    throw Error("grammar bench: the text leaves the grammar at token " + std::to_string(i));
            }
        }
    }
    auto median = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        return v.empty() ? 0.0 : v[v.size() / 2];
    };
    auto mean = [](const std::vector<double>& v) {
        double s = 0;
        for (double x : v) s += x;
        return v.empty() ? 0.0 : s / static_cast<double>(v.size());
    };
    std::vector<double> cold, warm;
    for (size_t i = 0; i <= ids.size(); ++i) {
        cold.push_back(median(coldAt[i]));
        warm.push_back(median(warmAt[i]));
    }
    // End to end: greedy chat answers with and without the constraint, alternated in this process
    // (each pair sees the same machine); the unconstrained run gets as
    // many tokens as the constrained answer had, so both decode over the same context lengths.
    std::vector<double> withRate, withoutRate;
    int decodeTokens = 0;
    if (decodePrompt) {
        auto m = Model::load(*model);
        auto backend = openBackend(*m, backendKind, threads);
        auto vocab = std::make_shared<TokenBytesTable>(m->tokenizer());
        const auto prompt = chatPromptTokens(*m, {{"user", *decodePrompt}});
        // Rep 0 runs constrained first (it sets the token count); later reps alternate which goes
        // first, so neither side always follows the other.
        for (int r = 0; r < decodeReps; ++r) {
            for (int k = 0; k < 2; ++k) {
                const int constrained = (r == 0 || r % 2 == 1) ? 1 - k : k;
                GenerateOptions o;
                o.sampler.temperature = 0.0f;
                // The constrained answer ends with end-of-generation: its last forward pass only
                // yields that token. The unconstrained run gets one token more, so both make the
                // same number of decode steps (forward pass + sampling) over the same context lengths.
                o.maxTokens = constrained ? 512 : decodeTokens + 1;
                // A freshly compiled grammar each time: its masks are computed on first use, as for one request.
                if (constrained) o.sampler.constraint = Constraint::compile(spec, vocab);
                KvCache cache(m->hparams(), static_cast<int64_t>(prompt.size()) + 520, KvType::F16);
                const GenerateResult g = generate(*m, *backend, cache, prompt, o, [](TokenId, const std::string&) { return true; });
                if (constrained) decodeTokens = std::max(1, static_cast<int>(g.tokens.size()));
                // Decode steps: a forward pass after every generated token but the last one sampled.
                const size_t steps = g.stop == StopReason::EndOfGeneration ? g.tokens.size() : g.tokens.size() - 1;
                const double rate = g.decodeMs > 0 ? 1000.0 * static_cast<double>(steps) / g.decodeMs : 0.0;
                (constrained ? withRate : withoutRate).push_back(rate);
            }
        }
    }
    if (json) {
        JsonWriter w;
        w.beginObject();
        w.key("engine").value("decoding-lab");
        w.key("grammar").value(spec.source);
        w.key("vocab_size").value(tok->vocabSize());
        w.key("steps").value(static_cast<int64_t>(ids.size() + 1));
        w.key("vocab_setup_ms").value(vocabSetupMs);
        w.key("compile_ms").value(median(compileMs));
        w.key("mask_us_median_cold").value(median(cold));
        w.key("mask_us_mean_cold").value(mean(cold));
        w.key("mask_us_median_warm").value(median(warm));
        w.key("mask_us_mean_warm").value(mean(warm));
        if (decodePrompt) {
            w.key("decode_tokens").value(decodeTokens);
            w.key("decode_tps_constrained").value(median(withRate));
            w.key("decode_tps_unconstrained").value(median(withoutRate));
            w.key("decode_ratio").value(median(withRate) / median(withoutRate));
        }
        w.endObject();
        std::printf("%s\n", w.str().c_str());
    } else {
        std::printf("%s on a %d-token vocabulary, %zu steps, %d repetitions\n", spec.source.c_str(), tok->vocabSize(),
                    ids.size() + 1, reps);
        std::printf("vocabulary set-up (token trie, once per vocabulary): %.2f ms\n", vocabSetupMs);
        std::printf("compile (parse, byte grammar, first state): %.2f ms (median)\n", median(compileMs));
        std::printf("mask per token, fresh caches: median %.1f us, mean %.1f us\n", median(cold), mean(cold));
        std::printf("mask per token, warm caches:  median %.1f us, mean %.1f us\n", median(warm), mean(warm));
        if (decodePrompt)
            std::printf("greedy decode, %d tokens, median of %d alternated runs: %.1f decode steps/s constrained, %.1f unconstrained "
                        "(ratio %.3f)\n", decodeTokens, decodeReps, median(withRate), median(withoutRate),
                        median(withRate) / median(withoutRate));
    }
    return 0;
}

}  // namespace

int runGrammarCheck(Args& args) { return runGrammarCheckImpl(args); }
int runGrammarBench(Args& args) { return runMaskBench(args); }

}  // namespace dlab::cli
