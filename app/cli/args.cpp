#include "args.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "core/error.h"

namespace dlab::cli {

namespace {
bool isOption(const std::string& arg, const std::string& name) { return arg == name || arg.rfind(name + "=", 0) == 0; }
}  // namespace

bool Args::flag(const std::string& name) {
    for (size_t i = 0; i < args_.size(); ++i)
        if (args_[i] == name) {
            args_.erase(args_.begin() + static_cast<long>(i));
            rejectRepeat(name);
            return true;
        }
    return false;
}

std::optional<std::string> Args::take(const std::string& name) {
    for (size_t i = 0; i < args_.size(); ++i) {
        if (args_[i] == name) {
            if (i + 1 >= args_.size()) throw Error(command_ + ": option " + name + " needs a value");
            std::string v = args_[i + 1];
            args_.erase(args_.begin() + static_cast<long>(i), args_.begin() + static_cast<long>(i) + 2);
            return v;
        }
        if (args_[i].rfind(name + "=", 0) == 0) {
            std::string v = args_[i].substr(name.size() + 1);
            args_.erase(args_.begin() + static_cast<long>(i));
            return v;
        }
    }
    return std::nullopt;
}

void Args::rejectRepeat(const std::string& name) const {
    for (const std::string& a : args_)
        if (isOption(a, name))
            throw Error(command_ + ": option " + name + " is given more than once; give it once");
}

std::optional<std::string> Args::value(const std::string& name) {
    auto v = take(name);
    if (v) rejectRepeat(name);
    return v;
}

std::string Args::value(const std::string& name, const std::string& fallback) {
    auto v = value(name);
    return v ? *v : fallback;
}

std::vector<std::string> Args::values(const std::string& name) {
    std::vector<std::string> out;
    while (auto v = take(name)) out.push_back(std::move(*v));
    return out;
}

long long Args::integer(const std::string& name, long long fallback, long long min, long long max) {
    auto v = value(name);
    if (!v) return fallback;
    errno = 0;
    char* end = nullptr;
    const long long x = std::strtoll(v->c_str(), &end, 10);
    if (v->empty() || *end != '\0' || errno == ERANGE)
        throw Error(command_ + ": " + name + " must be a whole number; got '" + *v + "'");
    if (x < min || x > max)
        throw Error(command_ + ": " + name + " must be between " + std::to_string(min) + " and " + std::to_string(max) +
                    "; got " + *v);
    return x;
}

double Args::number(const std::string& name, double fallback) {
    auto v = value(name);
    if (!v) return fallback;
    char* end = nullptr;
    const double x = std::strtod(v->c_str(), &end);
    if (v->empty() || *end != '\0' || !std::isfinite(x)) throw Error(command_ + ": " + name + " must be a number; got '" + *v + "'");
    return x;
}

std::vector<std::string> Args::positionals() {
    std::vector<std::string> out, rest;
    for (auto& a : args_) {
        // Negative numbers are positionals too (e.g. detokenize ids are never negative, but be exact).
        if (a.size() > 2 && a.rfind("--", 0) == 0) rest.push_back(a);
        else out.push_back(a);
    }
    args_ = rest;
    return out;
}

void Args::finish() const {
    if (!args_.empty())
        throw Error(command_ + ": unknown option '" + args_.front() + "' (see 'decoding-lab-cli help " + command_ + "')");
}

}  // namespace dlab::cli
