#pragma once
// Command-line options of one subcommand: "--name value", "--name=value" and "--flag".
// Every accessor removes what it reads; finish() rejects anything left over, so a typo is an
// error instead of being silently ignored. An option given twice is an error too ("--threads is
// given twice"), for every option: "last one wins" would hide a mistake in a long command line.
// Options meant to repeat (compare's --run, --logit-bias) are read with values().
#include <optional>
#include <string>
#include <vector>

namespace dlab::cli {

class Args {
public:
    Args(std::string command, std::vector<std::string> args) : command_(std::move(command)), args_(std::move(args)) {}

    bool flag(const std::string& name);
    std::optional<std::string> value(const std::string& name);
    std::string value(const std::string& name, const std::string& fallback);
    // Every occurrence of a repeatable option, in command-line order.
    std::vector<std::string> values(const std::string& name);
    // Integer / float options, range-checked: "--top-k must be between 0 and 1000000; got -1".
    long long integer(const std::string& name, long long fallback, long long min, long long max);
    double number(const std::string& name, double fallback);
    // Remaining arguments that do not start with "--" (call after reading all options).
    std::vector<std::string> positionals();
    // Throws if an unknown option remains.
    void finish() const;

    const std::string& command() const { return command_; }

private:
    // Removes and returns the value of the first occurrence of `name`.
    std::optional<std::string> take(const std::string& name);
    // Throws if `name` still occurs (after the first one was taken).
    void rejectRepeat(const std::string& name) const;

    std::string command_;
    std::vector<std::string> args_;
};

}  // namespace dlab::cli
