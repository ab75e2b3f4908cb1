#include "generate/run_spec.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <vector>

#include "core/error.h"

namespace dlab {

const char* runKindName(RunKind k) {
    switch (k) {
        case RunKind::Greedy: return "greedy";
        case RunKind::Sample: return "sample";
        case RunKind::Beam: return "beam";
    }
    return "?";
}

namespace {

[[noreturn]] void fail(const std::string& spec, const std::string& what) {
    throw Error("run '" + spec + "': " + what +
                " (write greedy, greedy:rep=1.2, beam:k=4,lp=1.0,es=false, beam:k=4,g=2,dp=0.5 or "
                "sample:t=0.7,p=0.9,k=40,minp=0.05,rep=1.1,seed=1)");
}

double number(const std::string& spec, const std::string& key, const std::string& value) {
    const char* begin = value.c_str();
    char* end = nullptr;
    const double v = std::strtod(begin, &end);
    if (value.empty() || end != begin + value.size() || !std::isfinite(v))
        fail(spec, key + " must be a number; got '" + value + "'");
    return v;
}

// Parsed as a float directly, so the shortest text of a float reads back as that float.
float floatNumber(const std::string& spec, const std::string& key, const std::string& value) {
    const char* begin = value.c_str();
    char* end = nullptr;
    const float v = std::strtof(begin, &end);
    if (value.empty() || end != begin + value.size() || !std::isfinite(v))
        fail(spec, key + " must be a number; got '" + value + "'");
    return v;
}

long long integer(const std::string& spec, const std::string& key, const std::string& value, long long lo, long long hi) {
    long long v = 0;
    const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
    if (value.empty() || ec != std::errc() || ptr != value.data() + value.size())
        fail(spec, key + " must be a whole number; got '" + value + "'");
    if (v < lo || v > hi) fail(spec, key + " must be between " + std::to_string(lo) + " and " + std::to_string(hi) + "; got " + value);
    return v;
}

template <typename T>
std::string shortest(T v) {
    char buf[64];
    const auto res = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, res.ptr);
}

// One key of a kind: how to set it from text and how to write it back.
struct Key {
    std::string name;
    std::function<void(RunSpec&, const std::string& spec, const std::string& value)> set;
    std::function<std::string(const RunSpec&)> get;
};

Key samplerFloat(const std::string& name, float SamplerParams::*m) {
    return {name, [name, m](RunSpec& r, const std::string& s, const std::string& v) { r.sampler.*m = floatNumber(s, name, v); },
            [m](const RunSpec& r) { return shortest(r.sampler.*m); }};
}

Key samplerInt(const std::string& name, int SamplerParams::*m, long long lo, long long hi) {
    return {name,
            [name, m, lo, hi](RunSpec& r, const std::string& s, const std::string& v) {
                r.sampler.*m = static_cast<int>(integer(s, name, v, lo, hi));
            },
            [m](const RunSpec& r) { return std::to_string(r.sampler.*m); }};
}

Key specInt(const std::string& name, int RunSpec::*m, long long lo, long long hi) {
    return {name,
            [name, m, lo, hi](RunSpec& r, const std::string& s, const std::string& v) { r.*m = static_cast<int>(integer(s, name, v, lo, hi)); },
            [m](const RunSpec& r) { return std::to_string(r.*m); }};
}

Key specDouble(const std::string& name, double RunSpec::*m) {
    return {name, [name, m](RunSpec& r, const std::string& s, const std::string& v) { r.*m = number(s, name, v); },
            [m](const RunSpec& r) { return shortest(r.*m); }};
}

Key specFloat(const std::string& name, float RunSpec::*m) {
    return {name, [name, m](RunSpec& r, const std::string& s, const std::string& v) { r.*m = floatNumber(s, name, v); },
            [m](const RunSpec& r) { return shortest(r.*m); }};
}

constexpr long long kBig = 1LL << 30;

Key grammarKey() {
    return {"grammar",
            [](RunSpec& r, const std::string& s, const std::string& v) {
                if (v != "on" && v != "off") fail(s, "grammar must be on or off; got '" + v + "'");
                r.constrained = v == "on";
            },
            [](const RunSpec& r) { return std::string(r.constrained ? "on" : "off"); }};
}

// The penalties greedy decoding and sampling share.
std::vector<Key> penaltyKeys() {
    return {samplerFloat("rep", &SamplerParams::repeatPenalty), samplerFloat("freq", &SamplerParams::frequencyPenalty),
            samplerFloat("pres", &SamplerParams::presencePenalty), samplerInt("lastn", &SamplerParams::penaltyLastN, -1, kBig),
            samplerInt("nrng", &SamplerParams::noRepeatNgram, 0, kBig)};
}

// Every key of a kind, in canonical order (the order runSpecText writes them).
const std::vector<Key>& keysOf(RunKind kind) {
    static const std::vector<Key> greedy = [] {
        std::vector<Key> keys = penaltyKeys();
        keys.push_back(grammarKey());
        return keys;
    }();
    static const std::vector<Key> beam = {
        specInt("k", &RunSpec::beamWidth, 1, 64),
        specDouble("lp", &RunSpec::lengthPenalty),
        {"es", [](RunSpec& r, const std::string&, const std::string& v) { r.earlyStopping = parseEarlyStopping(v); },
         [](const RunSpec& r) { return std::string(earlyStoppingName(r.earlyStopping)); }},
        specInt("g", &RunSpec::beamGroups, 1, 64),
        specDouble("dp", &RunSpec::diversityPenalty),
        specFloat("rep", &RunSpec::beamRepeatPenalty),
        specInt("nrng", &RunSpec::beamNoRepeatNgram, 0, kBig),
        grammarKey(),
    };
    static const std::vector<Key> sample = [] {
        std::vector<Key> keys = {
            samplerFloat("t", &SamplerParams::temperature), samplerInt("k", &SamplerParams::topK, 0, 1 << 24),
            samplerFloat("p", &SamplerParams::topP), samplerFloat("minp", &SamplerParams::minP),
            samplerFloat("typ", &SamplerParams::typicalP)};
        for (Key& k : penaltyKeys()) keys.push_back(std::move(k));
        for (Key k : {samplerFloat("dry", &SamplerParams::dryMultiplier), samplerFloat("drybase", &SamplerParams::dryBase),
                      samplerInt("dryallow", &SamplerParams::dryAllowedLength, 0, kBig),
                      samplerInt("drylastn", &SamplerParams::dryPenaltyLastN, -1, kBig),
                      samplerFloat("xtcp", &SamplerParams::xtcProbability), samplerFloat("xtct", &SamplerParams::xtcThreshold),
                      samplerFloat("nsigma", &SamplerParams::topNSigma), samplerFloat("mirotau", &SamplerParams::mirostatTau),
                      samplerFloat("miroeta", &SamplerParams::mirostatEta),
                      samplerInt("mirom", &SamplerParams::mirostatM, 1, 1 << 24)})
            keys.push_back(std::move(k));
        // A custom order is a comma list, but commas separate the spec's settings: '+' joins stages here.
        keys.push_back({"order",
                        [](RunSpec& r, const std::string& s, const std::string& v) {
                            if (v.empty()) fail(s, "order needs a value: hf, llama.cpp, mirostat, mirostat-v1 or stages joined by '+'");
                            std::string o = v;
                            std::replace(o.begin(), o.end(), '+', ',');
                            resolveStageOrder(o);  // throws for an unknown stage
                            r.sampler.order = o;
                        },
                        [](const RunSpec& r) {
                            std::string o = r.sampler.order;
                            std::replace(o.begin(), o.end(), ',', '+');
                            return o;
                        }});
        keys.push_back({"seed",
                        [](RunSpec& r, const std::string& s, const std::string& v) {
                            r.sampler.seed = static_cast<uint64_t>(integer(s, "seed", v, 0, (1LL << 62)));
                        },
                        [](const RunSpec& r) { return std::to_string(r.sampler.seed); }});
        keys.push_back(grammarKey());
        return keys;
    }();
    switch (kind) {
        case RunKind::Greedy: return greedy;
        case RunKind::Beam: return beam;
        case RunKind::Sample: break;
    }
    return sample;
}

std::string keyList(RunKind kind) {
    std::vector<std::string> names;
    for (const Key& k : keysOf(kind)) names.push_back(k.name);
    std::sort(names.begin(), names.end());
    std::string out;
    for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
    return out;
}

// A spec of `kind` with nothing set.
RunSpec defaultsOf(RunKind kind) {
    RunSpec r;
    r.kind = kind;
    if (kind == RunKind::Greedy) r.sampler.temperature = 0.0f;
    return r;
}

}  // namespace

BeamOptions beamOptionsOf(const RunSpec& r) {
    BeamOptions o;
    o.width = r.beamWidth;
    o.lengthPenalty = r.lengthPenalty;
    o.earlyStopping = r.earlyStopping;
    o.groups = r.beamGroups;
    o.diversityPenalty = r.diversityPenalty;
    o.repeatPenalty = r.beamRepeatPenalty;
    o.noRepeatNgram = r.beamNoRepeatNgram;
    return o;
}

RunSpec parseRunSpec(const std::string& spec) {
    const size_t colon = spec.find(':');
    const std::string kind = spec.substr(0, colon);
    RunKind k = RunKind::Greedy;
    if (kind == "greedy") k = RunKind::Greedy;
    else if (kind == "sample") k = RunKind::Sample;
    else if (kind == "beam") k = RunKind::Beam;
    else fail(spec, "unknown kind '" + kind + "'; use greedy, sample or beam");
    RunSpec r = defaultsOf(k);
    r.text = spec;

    const auto& keys = keysOf(r.kind);
    if (colon != std::string::npos) {
        const std::string list = spec.substr(colon + 1);
        if (list.empty()) fail(spec, "nothing after ':'; drop the ':' or give key=value settings");
        std::vector<std::string> seen;
        size_t at = 0;
        while (at <= list.size()) {
            const size_t comma = std::min(list.find(',', at), list.size());
            const std::string item = list.substr(at, comma - at);
            const size_t eq = item.find('=');
            if (item.empty()) fail(spec, "empty setting between commas");
            if (eq == std::string::npos) fail(spec, "setting '" + item + "' needs a value (key=value)");
            const std::string key = item.substr(0, eq);
            const auto it = std::find_if(keys.begin(), keys.end(), [&](const Key& x) { return x.name == key; });
            if (it == keys.end()) fail(spec, "unknown key '" + key + "' for " + kind + "; its keys are " + keyList(r.kind));
            if (std::find(seen.begin(), seen.end(), key) != seen.end()) fail(spec, "the key '" + key + "' is given twice; give it once");
            seen.push_back(key);
            try {
                it->set(r, spec, item.substr(eq + 1));
            } catch (const Error& e) {
                const std::string msg = e.what();
                if (msg.rfind("run '", 0) == 0) throw;
                fail(spec, msg);
            }
            at = comma + 1;
        }
    }
    try {
        r.sampler.validate();
        if (r.kind == RunKind::Beam) beamOptionsOf(r).validate();
    } catch (const Error& e) {
        fail(spec, e.what());
    }
    return r;
}

std::string runSpecText(const RunSpec& spec) {
    const RunSpec defaults = defaultsOf(spec.kind);
    std::string out = runKindName(spec.kind);
    char sep = ':';
    for (const Key& k : keysOf(spec.kind)) {
        const std::string v = k.get(spec);
        if (v == k.get(defaults)) continue;
        out += sep + k.name + "=" + v;
        sep = ',';
    }
    return out;
}

}  // namespace dlab
