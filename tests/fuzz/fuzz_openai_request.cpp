// libFuzzer target for the server's request reader (server/openai_request): any bytes as the body
// of /v1/completions or /v1/chat/completions (the first byte picks which) must end in a request or
// an ApiError with a status and a sentence, never a crash, a hang or another exception.
#include <cstddef>
#include <cstdint>
#include <string>

#include "openai_request.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    const auto endpoint = (data[0] & 1) ? dlab::server::Endpoint::ChatCompletions : dlab::server::Endpoint::Completions;
    const std::string body(reinterpret_cast<const char*>(data) + 1, size - 1);
    try {
        const dlab::server::ApiRequest r = dlab::server::parseApiRequest(endpoint, body);
        if (r.topLogprobs < 0 || r.topLogprobs > 20 || r.stop.size() > 4 || !(r.temperature >= 0 && r.temperature <= 2)) __builtin_trap();
    } catch (const dlab::server::ApiError& e) {
        if (e.status < 400 || e.status > 599 || std::string(e.what()).empty()) __builtin_trap();
    }
    return 0;
}
