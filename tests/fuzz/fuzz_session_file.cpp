// libFuzzer target: saved session files (session/session_file.h), which File → Open Session…
// reads from wherever a teacher got them. For every input:
//   - parseSessionJson either returns a session or throws a dlab::Error with a one-line message
//     that names the file; it never crashes, hangs or throws anything else;
//   - a session that parses is written back (sessionJson) and parses again to an equal session,
//     whose text is the same again (the writer's output is canonical).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/error.h"
#include "session/session_file.h"

using namespace dlab;

namespace {
[[noreturn]] void failure(const std::string& what) {
    std::fprintf(stderr, "fuzz_session_file: %s\n", what.c_str());
    std::abort();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string input(reinterpret_cast<const char*>(data), size);
    SavedSession session;
    try {
        session = parseSessionJson(input, "fuzz.dlab");
    } catch (const Error& e) {
        const std::string message = e.what();
        if (message.rfind("fuzz.dlab: ", 0) != 0) failure("an error that does not name the file: " + message);
        if (message.find('\n') != std::string::npos) failure("an error of more than one line: " + message);
        return 0;
    }
    std::string text;
    try {
        text = sessionJson(session);
        const SavedSession again = parseSessionJson(text, "fuzz.dlab");
        if (!(again == session)) failure("the written session reads back different: " + text.substr(0, 400));
        if (sessionJson(again) != text) failure("the written text is not canonical: " + text.substr(0, 400));
    } catch (const Error& e) {
        failure(std::string("the written session does not read back: ") + e.what());
    }
    return 0;
}
