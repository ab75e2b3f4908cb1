// decoding-lab-cli sample --logits FILE.json [sampler options] [--order hf|llama.cpp|mirostat|mirostat-v1|LIST]
//                         [--top-n N] [--json]
// Applies the sampler chain to one step's logits and prints every stage's distribution.
#include "cmd_sample.h"

#include <cmath>
#include <cstdlib>
#include <limits>
#include <cstdio>

#include "commands.h"
#include "core/error.h"
#include "core/json_writer.h"
#include "logits_file.h"
#include "sampling/dry_breakers.h"
#include "sampling/sampler_chain.h"

namespace dlab::cli {

const char* const kSamplerOptionsHelp = R"(sampler options (each stage is off at its neutral value):
  --temperature X (0.8; 0 = greedy)  --top-k K (40; 0 = off)  --top-p P (0.95; 1 = off)  --seed S (0)
  --min-p P (0)  --typical-p P (1)  --top-n-sigma N (0)
  --repeat-penalty R (1)  --frequency-penalty F (0)  --presence-penalty P (0)  --penalty-last-n N (64; -1 = all)
  --no-repeat-ngram N (0)  --logit-bias ID=BIAS[,ID=BIAS...] (repeatable; BIAS may be -inf)
  --dry-multiplier M (0)  --dry-base B (1.75)  --dry-allowed-length N (2)  --dry-penalty-last-n N (-1 = all)
  --xtc-probability P (0)  --xtc-threshold T (0.1)
  --mirostat-tau T (0; needs --order mirostat or mirostat-v1)  --mirostat-eta E (0.1)
  --mirostat-m M (100; Mirostat 1 only: top tokens that estimate the Zipf exponent)
  --order hf|llama.cpp|mirostat|mirostat-v1|LIST
      hf          = penalties,temperature,top-k,top-p,min-p (default)
      llama.cpp   = penalties,dry,top-n-sigma,top-k,typical,top-p,min-p,xtc,temperature
      mirostat    = penalties,temperature,mirostat     (Mirostat 2)
      mirostat-v1 = penalties,temperature,mirostat-v1  (Mirostat 1)
      LIST        = comma list of: logit-bias repetition freq-presence no-repeat-ngram dry temperature
                    top-k top-p min-p typical xtc top-n-sigma mirostat mirostat-v1
                    ("penalties" = the first four; at most one mirostat stage)
)";

namespace {

float parseBiasValue(const std::string& command, const std::string& text) {
    if (text == "-inf" || text == "-infinity" || text == "-Infinity") return -std::numeric_limits<float>::infinity();
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !std::isfinite(v))
        throw Error(command + ": --logit-bias wants ID=BIAS with a number or -inf as BIAS; got '" + text + "'");
    return static_cast<float>(v);
}

void readLogitBias(Args& args, SamplerParams& params) {
    for (const std::string& list : args.values("--logit-bias")) {
        const std::string* v = &list;
        size_t pos = 0;
        while (pos <= v->size()) {
            const size_t comma = v->find(',', pos);
            const std::string item = v->substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
            pos = comma == std::string::npos ? v->size() + 1 : comma + 1;
            const size_t eq = item.find('=');
            char* end = nullptr;
            const long long id = eq == std::string::npos ? -1 : std::strtoll(item.c_str(), &end, 10);
            if (eq == std::string::npos || eq == 0 || end != item.c_str() + eq || id < 0 || id > 2147483647)
                throw Error(args.command() + ": --logit-bias wants ID=BIAS pairs such as 42=-inf,7=2.5; got '" + item + "'");
            params.logitBias.emplace_back(static_cast<TokenId>(id), parseBiasValue(args.command(), item.substr(eq + 1)));
        }
    }
}

std::string shown(const std::vector<std::string>& tokens, TokenId id) {
    if (tokens.empty()) return "";
    std::string out = "\"";
    for (unsigned char c : tokens[static_cast<size_t>(id)]) {
        if (c == '\n') out += "\\n";
        else if (c == '\t') out += "\\t";
        else if (c == '"') out += "\\\"";
        else if (c < 0x20) { char buf[8]; std::snprintf(buf, sizeof buf, "\\x%02x", c); out += buf; }
        else out += static_cast<char>(c);
    }
    return out + "\"";
}

void printText(const SampleResult& r, const LogitsFile& in, const SamplerChain& chain) {
    std::printf("raw logits: %d tokens, max %.4f, logsumexp %.4f, entropy %.4f nats\n", r.raw.vocab, r.raw.maxLogit,
                r.raw.logSumExp, r.raw.entropy);
    std::printf("order: %s\n", chain.params().order.c_str());
    for (const auto& s : r.stages) {
        std::printf("\n%-16s kept %-7d mass %.4f of raw, %.4f of its input  entropy %.4f nats%s\n", s.stage.c_str(), s.kept,
                    s.massKept, double(s.inputMassKept.value_or(1.0f)), s.entropy, s.changed ? "" : "  (no change)");
        if (!s.changed) continue;
        for (size_t i = 0; i < s.top.size(); ++i)
            std::printf("  %3zu. id %-7d logit %9.4f  p %.4f  %s\n", i + 1, s.top[i].id, s.top[i].logit, s.top[i].p,
                        shown(in.tokens, s.top[i].id).c_str());
    }
    std::printf("\nchosen: id %d %s  p %.4f  (uniform %.6f, seed %llu)\n", r.token, shown(in.tokens, r.token).c_str(),
                r.probability, r.uniform, static_cast<unsigned long long>(chain.params().seed));
}

void printJson(const SampleResult& r, const LogitsFile& in, const SamplerChain& chain) {
    JsonWriter w;
    auto candidate = [&](const Candidate& c) {
        w.beginObject().field("id", c.id);
        if (!in.tokens.empty()) w.field("token", in.tokens[static_cast<size_t>(c.id)]);
        w.field("logit", c.logit).field("p", c.p).endObject();
    };
    w.beginObject();
    w.field("order", chain.params().order);
    w.key("stage_names").beginArray();
    for (const auto& s : chain.stages()) w.value(s->name());
    w.endArray();
    w.key("raw").beginObject().field("vocab", r.raw.vocab).field("max", r.raw.maxLogit).field("logsumexp", r.raw.logSumExp)
        .field("entropy", r.raw.entropy).endObject();
    w.key("stages").beginArray();
    for (const auto& s : r.stages) {
        w.beginObject().field("stage", s.stage).field("changed", s.changed).field("kept", s.kept).field("mass", s.massKept)
            .field("input_mass", s.inputMassKept.value_or(1.0f)).field("entropy", s.entropy);
        w.key("top").beginArray();
        for (const auto& c : s.top) candidate(c);
        w.endArray().endObject();
    }
    w.endArray();
    w.key("chosen").beginObject().field("id", r.token);
    if (!in.tokens.empty()) w.field("token", in.tokens[static_cast<size_t>(r.token)]);
    w.field("p", r.probability).field("uniform", r.uniform).field("seed", chain.params().seed).endObject();
    w.endObject();
    std::printf("%s\n", w.str().c_str());
}

}  // namespace

void readSamplerOptions(Args& args, SamplerParams& p) {
    p.temperature = static_cast<float>(args.number("--temperature", p.temperature));
    p.topK = static_cast<int>(args.integer("--top-k", p.topK, -(1ll << 31), 1ll << 31));
    p.topP = static_cast<float>(args.number("--top-p", p.topP));
    p.seed = static_cast<uint64_t>(args.integer("--seed", static_cast<long long>(p.seed), 0, (1ll << 62)));
    p.minP = static_cast<float>(args.number("--min-p", p.minP));
    p.typicalP = static_cast<float>(args.number("--typical-p", p.typicalP));
    p.topNSigma = static_cast<float>(args.number("--top-n-sigma", p.topNSigma));
    p.repeatPenalty = static_cast<float>(args.number("--repeat-penalty", p.repeatPenalty));
    p.frequencyPenalty = static_cast<float>(args.number("--frequency-penalty", p.frequencyPenalty));
    p.presencePenalty = static_cast<float>(args.number("--presence-penalty", p.presencePenalty));
    p.penaltyLastN = static_cast<int>(args.integer("--penalty-last-n", p.penaltyLastN, -1, 1 << 30));
    p.noRepeatNgram = static_cast<int>(args.integer("--no-repeat-ngram", p.noRepeatNgram, 0, 1 << 16));
    readLogitBias(args, p);
    p.dryMultiplier = static_cast<float>(args.number("--dry-multiplier", p.dryMultiplier));
    p.dryBase = static_cast<float>(args.number("--dry-base", p.dryBase));
    p.dryAllowedLength = static_cast<int>(args.integer("--dry-allowed-length", p.dryAllowedLength, 0, 1 << 16));
    p.dryPenaltyLastN = static_cast<int>(args.integer("--dry-penalty-last-n", p.dryPenaltyLastN, -1, 1 << 30));
    p.xtcProbability = static_cast<float>(args.number("--xtc-probability", p.xtcProbability));
    p.xtcThreshold = static_cast<float>(args.number("--xtc-threshold", p.xtcThreshold));
    p.mirostatTau = static_cast<float>(args.number("--mirostat-tau", p.mirostatTau));
    p.mirostatEta = static_cast<float>(args.number("--mirostat-eta", p.mirostatEta));
    p.mirostatM = static_cast<int>(args.integer("--mirostat-m", p.mirostatM, -(1ll << 31), (1ll << 31) - 1));
    p.order = args.value("--order", p.order);
}

int runSample(Args& args) {
    if (args.flag("--help")) {
        std::printf(
            "usage: decoding-lab-cli sample --logits FILE.json [sampler options] [--top-n N] [--json]\n\n"
            "Runs the sampler chain on one step's logits and prints, after every stage, the survivors (kept),\n"
            "the probability mass they had before the chain, the entropy of what is left and the top N candidates.\n\n"
            "FILE.json: a bare array of logits [2.0, 1.0, -0.5], or\n"
            "  {\"logits\": [...], \"tokens\": [\"a\", \"b\", ...], \"history\": [ids...], \"prompt_length\": N}\n"
            "  tokens: text per id (optional); history: earlier tokens, for the penalties and DRY (optional);\n"
            "  prompt_length: how many of them are the prompt (frequency/presence only count the rest; default 0).\n"
            "  Numbers may be -Infinity (a banned token); NaN is rejected.\n"
            "  DRY sequence breakers come from the token texts: llama.cpp's \\n : \" * whole-token matches.\n\n"
            "%s  --top-n N   candidates listed per stage (default 10)\n  --json      one JSON object instead of text\n",
            kSamplerOptionsHelp);
        return 0;
    }
    const auto file = args.value("--logits");
    SamplerParams params;
    readSamplerOptions(args, params);
    const int topN = static_cast<int>(args.integer("--top-n", 10, 0, 1 << 20));
    const bool json = args.flag("--json");
    args.finish();
    if (!file) throw Error("sample: --logits FILE.json is required (see 'decoding-lab-cli sample --help')");

    const LogitsFile in = parseLogitsJson(readTextFile(*file), *file);
    if (params.dryMultiplier > 0.0f && !in.tokens.empty())
        params.dryBreakers = dryBreakersFromStrings(defaultDryBreakers(), static_cast<int>(in.tokens.size()),
                                                    [&](TokenId id) { return in.tokens[static_cast<size_t>(id)]; });
    SamplerChain chain(params, topN);
    SamplerState state(params.seed);
    const SampleResult r = chain.sample(in.logits, History{in.history, in.promptLength}, state, true);
    if (json) printJson(r, in, chain);
    else printText(r, in, chain);
    return 0;
}

}  // namespace dlab::cli
