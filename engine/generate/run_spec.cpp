#include "generate/run_spec.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <map>

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
                " (write greedy, beam:k=4,lp=1.0,es=false or sample:t=0.7,p=0.9,k=40,minp=0.05,rep=1.1,seed=1)");
}

double number(const std::string& spec, const std::string& key, const std::string& value) {
    const char* begin = value.c_str();
    char* end = nullptr;
    const double v = std::strtod(begin, &end);
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

using Setter = std::function<void(RunSpec&, const std::string& value)>;

std::map<std::string, Setter> settersFor(RunKind kind, const std::string& spec) {
    if (kind == RunKind::Beam)
        return {
            {"k", [spec](RunSpec& r, const std::string& v) { r.beamWidth = static_cast<int>(integer(spec, "k", v, 1, 64)); }},
            {"lp", [spec](RunSpec& r, const std::string& v) { r.lengthPenalty = number(spec, "lp", v); }},
            {"es", [](RunSpec& r, const std::string& v) { r.earlyStopping = parseEarlyStopping(v); }},
        };
    if (kind == RunKind::Sample)
        return {
            {"t", [spec](RunSpec& r, const std::string& v) { r.sampler.temperature = static_cast<float>(number(spec, "t", v)); }},
            {"p", [spec](RunSpec& r, const std::string& v) { r.sampler.topP = static_cast<float>(number(spec, "p", v)); }},
            {"k", [spec](RunSpec& r, const std::string& v) { r.sampler.topK = static_cast<int>(integer(spec, "k", v, 0, 1 << 24)); }},
            {"minp", [spec](RunSpec& r, const std::string& v) { r.sampler.minP = static_cast<float>(number(spec, "minp", v)); }},
            {"rep", [spec](RunSpec& r, const std::string& v) { r.sampler.repeatPenalty = static_cast<float>(number(spec, "rep", v)); }},
            {"seed", [spec](RunSpec& r, const std::string& v) {
                 r.sampler.seed = static_cast<uint64_t>(integer(spec, "seed", v, 0, (1LL << 62)));
             }},
        };
    return {};
}

std::string keyList(const std::map<std::string, Setter>& setters) {
    std::string out;
    for (const auto& [k, s] : setters) out += (out.empty() ? "" : ", ") + k;
    return out;
}

}  // namespace

RunSpec parseRunSpec(const std::string& spec) {
    RunSpec r;
    r.text = spec;
    const size_t colon = spec.find(':');
    const std::string kind = spec.substr(0, colon);
    if (kind == "greedy") r.kind = RunKind::Greedy;
    else if (kind == "sample") r.kind = RunKind::Sample;
    else if (kind == "beam") r.kind = RunKind::Beam;
    else fail(spec, "unknown kind '" + kind + "'; use greedy, sample or beam");
    if (r.kind == RunKind::Greedy) r.sampler.temperature = 0.0f;

    const auto setters = settersFor(r.kind, spec);
    if (colon != std::string::npos) {
        const std::string list = spec.substr(colon + 1);
        if (r.kind == RunKind::Greedy) fail(spec, "greedy takes no settings");
        if (list.empty()) fail(spec, "nothing after ':'; drop the ':' or give key=value settings");
        size_t at = 0;
        while (at <= list.size()) {
            const size_t comma = std::min(list.find(',', at), list.size());
            const std::string item = list.substr(at, comma - at);
            const size_t eq = item.find('=');
            if (item.empty()) fail(spec, "empty setting between commas");
            if (eq == std::string::npos) fail(spec, "setting '" + item + "' needs a value (key=value)");
            const std::string key = item.substr(0, eq);
            const auto it = setters.find(key);
            if (it == setters.end())
                fail(spec, "unknown key '" + key + "' for " + kind + "; its keys are " + keyList(setters));
            try {
                it->second(r, item.substr(eq + 1));
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
    } catch (const Error& e) {
        fail(spec, e.what());
    }
    return r;
}

}  // namespace dlab
