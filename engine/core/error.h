#pragma once
// Errors in the engine are exceptions carrying one sentence a person can act on.
// They are caught at the CLI and GUI boundary; the engine never calls exit() or abort().
#include <stdexcept>
#include <string>

namespace dlab {

class Error : public std::runtime_error {
public:
    explicit Error(const std::string& message) : std::runtime_error(message) {}
};

// Thrown when a caller-supplied cancellation callback asked to stop.
class Cancelled : public Error {
public:
    Cancelled() : Error("cancelled") {}
};

}  // namespace dlab
