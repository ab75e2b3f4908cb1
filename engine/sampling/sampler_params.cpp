#include "sampling/sampler_params.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "core/error.h"

namespace dlab {

namespace {

std::string num(double x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", x);
    return buf;
}

const std::vector<std::string> kPenalties = {"logit-bias", "repetition", "freq-presence", "no-repeat-ngram"};
const std::vector<std::string> kStageNames = {"logit-bias", "repetition", "freq-presence", "no-repeat-ngram", "dry",
                                              "temperature", "top-k", "top-p", "min-p", "typical", "xtc",
                                              "top-n-sigma", "mirostat", "mirostat-v1", "grammar", "banned-phrases"};

std::string canonicalStage(std::string name) {
    std::replace(name.begin(), name.end(), '_', '-');
    if (name == "temp") return "temperature";
    if (name == "typical-p" || name == "typ-p" || name == "typ") return "typical";
    if (name == "nucleus") return "top-p";
    if (name == "frequency-presence" || name == "frequency" || name == "presence") return "freq-presence";
    if (name == "repeat" || name == "repeat-penalty" || name == "repetition-penalty") return "repetition";
    if (name == "no-repeat-n-gram" || name == "ngram") return "no-repeat-ngram";
    if (name == "top-nsigma" || name == "top-sigma") return "top-n-sigma";
    if (name == "mirostat-v2" || name == "mirostat2") return "mirostat";
    if (name == "mirostat1" || name == "mirostat-1") return "mirostat-v1";
    return name;
}

std::string trim(const std::string& s) {
    const size_t b = s.find_first_not_of(" \t");
    if (b == std::string::npos) return "";
    return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

}  // namespace

std::string stageOrderHelp() {
    return "orders: hf = penalties,temperature,top-k,top-p,min-p (the default); "
           "llama.cpp = penalties,dry,top-n-sigma,top-k,typical,top-p,min-p,xtc,temperature; "
           "mirostat = penalties,temperature,mirostat (Mirostat 2); "
           "mirostat-v1 = penalties,temperature,mirostat-v1 (Mirostat 1); or a comma list of stages: "
           "logit-bias, repetition, freq-presence, no-repeat-ngram, dry, temperature, top-k, top-p, "
           "min-p, typical, xtc, top-n-sigma, mirostat, mirostat-v1, grammar, banned-phrases (\"penalties\" = "
           "the first four; at most one of the two mirostat stages; grammar and banned-phrases run first "
           "when a constraint or banned phrases are set and the order does not place them)";
}

std::vector<std::string> resolveStageOrder(const std::string& order) {
    auto withPenalties = [](std::vector<std::string> rest) {
        std::vector<std::string> out = kPenalties;
        out.insert(out.end(), rest.begin(), rest.end());
        return out;
    };
    if (order == "hf" || order.empty()) return withPenalties({"temperature", "top-k", "top-p", "min-p"});
    if (order == "llama.cpp" || order == "llamacpp")
        return withPenalties({"dry", "top-n-sigma", "top-k", "typical", "top-p", "min-p", "xtc", "temperature"});
    if (order == "mirostat") return withPenalties({"temperature", "mirostat"});
    if (order == "mirostat-v1") return withPenalties({"temperature", "mirostat-v1"});

    std::vector<std::string> out;
    size_t pos = 0;
    while (pos <= order.size()) {
        const size_t comma = order.find(',', pos);
        const std::string raw = trim(order.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos));
        pos = comma == std::string::npos ? order.size() + 1 : comma + 1;
        if (raw.empty()) throw Error("--order has an empty stage name in '" + order + "'; " + stageOrderHelp());
        const std::string name = canonicalStage(raw);
        std::vector<std::string> add;
        if (name == "penalties") add = kPenalties;
        else if (std::find(kStageNames.begin(), kStageNames.end(), name) != kStageNames.end()) add = {name};
        else throw Error("--order: unknown sampler stage '" + raw + "'; " + stageOrderHelp());
        for (const auto& a : add) {
            if (std::find(out.begin(), out.end(), a) != out.end())
                throw Error("--order lists the stage '" + a + "' twice; give each stage once");
            out.push_back(a);
        }
    }
    // Both versions learn the one SamplerState::mirostatMu; two of them would update it twice a step.
    if (std::find(out.begin(), out.end(), "mirostat") != out.end() &&
        std::find(out.begin(), out.end(), "mirostat-v1") != out.end())
        throw Error("--order lists both mirostat (Mirostat 2) and mirostat-v1 (Mirostat 1); they share one mu, "
                    "so give only one of them");
    return out;
}

void SamplerParams::validate() const {
    if (!(temperature >= 0.0f && temperature <= 100.0f))
        throw Error("--temperature must be between 0 and 100 (0 = greedy); got " + std::to_string(temperature));
    if (topK < 0) throw Error("--top-k must be 0 (off) or a positive number of tokens; got " + std::to_string(topK));
    if (!(topP > 0.0f && topP <= 1.0f))
        throw Error("--top-p must be greater than 0 and at most 1 (1 = off); got " + std::to_string(topP));
    if (!(minP >= 0.0f && minP <= 1.0f)) throw Error("--min-p must be between 0 and 1 (0 = off); got " + num(minP));
    if (!(typicalP > 0.0f && typicalP <= 1.0f))
        throw Error("--typical-p must be greater than 0 and at most 1 (1 = off); got " + num(typicalP));
    if (!(repeatPenalty > 0.0f && repeatPenalty <= 10.0f))
        throw Error("--repeat-penalty must be greater than 0 and at most 10 (1 = off); got " + num(repeatPenalty));
    if (!(frequencyPenalty >= -2.0f && frequencyPenalty <= 2.0f))
        throw Error("--frequency-penalty must be between -2 and 2 (0 = off); got " + num(frequencyPenalty));
    if (!(presencePenalty >= -2.0f && presencePenalty <= 2.0f))
        throw Error("--presence-penalty must be between -2 and 2 (0 = off); got " + num(presencePenalty));
    if (penaltyLastN < -1)
        throw Error("--penalty-last-n must be -1 (whole history), 0 (off) or a number of tokens; got " + std::to_string(penaltyLastN));
    if (noRepeatNgram < 0)
        throw Error("--no-repeat-ngram must be 0 (off) or an n-gram size of at least 1; got " + std::to_string(noRepeatNgram));
    for (const auto& [id, bias] : logitBias) {
        if (id < 0) throw Error("--logit-bias: token id must be 0 or more; got " + std::to_string(id));
        if (std::isnan(bias) || bias == std::numeric_limits<float>::infinity())
            throw Error("--logit-bias for token " + std::to_string(id) + " must be a finite number or -inf; got " + num(bias));
    }
    if (!(dryMultiplier >= 0.0f && std::isfinite(dryMultiplier)))
        throw Error("--dry-multiplier must be 0 (off) or a positive number; got " + num(dryMultiplier));
    if (!(dryBase >= 1.0f && std::isfinite(dryBase))) throw Error("--dry-base must be at least 1; got " + num(dryBase));
    if (dryAllowedLength < 0) throw Error("--dry-allowed-length must be 0 or more; got " + std::to_string(dryAllowedLength));
    if (dryPenaltyLastN < -1)
        throw Error("--dry-penalty-last-n must be -1 (whole history), 0 (off) or a number of tokens; got " + std::to_string(dryPenaltyLastN));
    for (const auto& seq : dryBreakers) {
        if (seq.empty()) throw Error("a DRY sequence breaker is empty; give at least one token");
        for (TokenId t : seq)
            if (t < 0) throw Error("a DRY sequence breaker has the token id " + std::to_string(t) + "; ids are 0 or more");
    }
    if (!(xtcProbability >= 0.0f && xtcProbability <= 1.0f))
        throw Error("--xtc-probability must be between 0 and 1 (0 = off); got " + num(xtcProbability));
    if (!(xtcThreshold > 0.0f && xtcThreshold <= 1.0f))
        throw Error("--xtc-threshold must be greater than 0 and at most 1 (above 0.5 removes nothing); got " + num(xtcThreshold));
    if (!(topNSigma >= 0.0f && topNSigma <= 100.0f))
        throw Error("--top-n-sigma must be between 0 and 100 (0 = off); got " + num(topNSigma));
    if (!(mirostatTau >= 0.0f && mirostatTau <= 100.0f))
        throw Error("--mirostat-tau must be between 0 and 100 bits (0 = off); got " + num(mirostatTau));
    if (!(mirostatEta > 0.0f && mirostatEta <= 1.0f))
        throw Error("--mirostat-eta must be greater than 0 and at most 1; got " + num(mirostatEta));
    if (mirostatM < 1 || mirostatM > (1 << 24))
        throw Error("--mirostat-m must be between 1 and 16777216 tokens (llama.cpp uses 100; more than the "
                    "vocabulary uses all of it); got " + std::to_string(mirostatM));

    // A stage switched on must be in the order, or the setting would silently do nothing.
    const auto stages = resolveStageOrder(order);
    auto need = [&](bool on, const char* option, const char* stage, const char* suggestion) {
        if (on && std::find(stages.begin(), stages.end(), stage) == stages.end())
            throw Error(std::string(option) + " is set but the sampler order '" + order + "' has no " + stage +
                        " stage; use --order " + suggestion + " or list " + stage + " in a custom --order");
    };
    need(minP > 0.0f, "--min-p", "min-p", "hf");
    need(typicalP < 1.0f, "--typical-p", "typical", "llama.cpp");
    need(repeatPenalty != 1.0f, "--repeat-penalty", "repetition", "hf");
    need(frequencyPenalty != 0.0f, "--frequency-penalty", "freq-presence", "hf");
    need(presencePenalty != 0.0f, "--presence-penalty", "freq-presence", "hf");
    need(noRepeatNgram > 0, "--no-repeat-ngram", "no-repeat-ngram", "hf");
    need(!logitBias.empty(), "--logit-bias", "logit-bias", "hf");
    need(dryMultiplier > 0.0f, "--dry-multiplier", "dry", "llama.cpp");
    need(xtcProbability > 0.0f, "--xtc-probability", "xtc", "llama.cpp");
    need(topNSigma > 0.0f, "--top-n-sigma", "top-n-sigma", "llama.cpp");
    if (mirostatTau > 0.0f && std::find(stages.begin(), stages.end(), "mirostat") == stages.end() &&
        std::find(stages.begin(), stages.end(), "mirostat-v1") == stages.end())
        throw Error("--mirostat-tau is set but the sampler order '" + order +
                    "' has no mirostat stage; use --order mirostat (Mirostat 2) or --order mirostat-v1 (Mirostat 1), "
                    "or list mirostat or mirostat-v1 in a custom --order");
}

}  // namespace dlab
