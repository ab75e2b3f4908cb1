#include "http_server.h"

#include <httplib.h>

#include <cerrno>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <random>
#include <sstream>

#include "core/error.h"
#include "core/stopwatch.h"
#include "generate/chat_prompt.h"
#include "grammar/constraint_cache.h"
#include "openai_response.h"

namespace dlab::server {

namespace {

using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

// One shared random source for response ids and for the seed of a request that gave none.
uint64_t randomWord() {
    static std::mutex m;
    static std::mt19937_64 rng(std::random_device{}());
    std::lock_guard lock(m);
    return rng();
}

std::string randomId(const char* prefix) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%s%016llx%08llx", prefix, static_cast<unsigned long long>(randomWord()),
                  static_cast<unsigned long long>(randomWord() & 0xffffffffu));
    return buf;
}

void sendError(httplib::Response& res, int status, const json& body) {
    res.status = status;
    res.set_content(wire(body), "application/json");
}

// The request as the scheduler takes it. Throws ApiError (400) for a prompt the model cannot take.
ServeRequest toServeRequest(const ApiRequest& a, const Model& model, const ServingLoop& loop, ConstraintCache& constraints) {
    ServeRequest r;
    try {
        if (a.endpoint == Endpoint::ChatCompletions) {
            r.prompt = chatPromptTokens(model, a.messages);
        } else if (a.promptText) {
            const Tokenizer& tok = model.tokenizer();
            r.prompt = tok.encode(*a.promptText, tok.addsBosByDefault(), true);
        } else {
            r.prompt = a.promptTokens;
        }
    } catch (const Error& e) {
        throw ApiError(400, e.what(), a.endpoint == Endpoint::ChatCompletions ? "messages" : "prompt");
    }
    const int64_t ctx = loop.contextLength();
    const int64_t room = ctx - static_cast<int64_t>(r.prompt.size());
    r.maxTokens = a.maxTokens ? *a.maxTokens
                              : (a.endpoint == Endpoint::Completions ? 16 : static_cast<int>(std::clamp<int64_t>(room, 1, 512)));
    r.sampler.temperature = a.temperature;
    r.sampler.topK = a.topK;
    r.sampler.topP = a.topP;
    r.sampler.minP = a.minP;
    r.sampler.presencePenalty = a.presencePenalty;
    r.sampler.frequencyPenalty = a.frequencyPenalty;
    r.sampler.logitBias = a.logitBias;
    for (const auto& [id, bias] : a.logitBias)
        if (id >= model.hparams().nVocab)
            throw ApiError(400, "'logit_bias' names token " + std::to_string(id) + ", outside the vocabulary of " +
                                    std::to_string(model.hparams().nVocab) + " tokens", "logit_bias");
    r.sampler.seed = a.seed ? *a.seed : randomWord();
    if (a.constraint) {
        try {
            r.sampler.constraint = constraints.get(*a.constraint);
        } catch (const Error& e) {
            throw ApiError(400, e.what(), a.constraint->kind == ConstraintSpec::Kind::Gbnf ? "grammar" : "response_format");
        }
    }
    r.stop = a.stop;
    r.logprobs = a.logprobs;
    r.topLogprobs = a.topLogprobs;
    try {
        loop.check(r);
    } catch (const Error& e) {
        const std::string msg = e.what();
        throw ApiError(400, msg, msg.find("context") != std::string::npos ? "max_tokens" : "", "invalid_request_error",
                       msg.find("context holds") != std::string::npos ? "context_length_exceeded" : "");
    }
    return r;
}

TokenOut tokenOut(const Model& model, const ServeEvent& e) {
    TokenOut t;
    t.piece = model.tokenizer().tokenToPiece(e.token, true);
    t.logprob = e.chosen.logprob;
    for (const TokenLogprob& alt : e.top) t.top.emplace_back(model.tokenizer().tokenToPiece(alt.token, true), alt.logprob);
    return t;
}

const char* openAiFinish(FinishReason r) { return r == FinishReason::Length ? "length" : "stop"; }

// The local port of a socket, or -1.
int localPort(int fd) {
    sockaddr_storage addr{};
    socklen_t alen = sizeof addr;
    if (getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &alen) != 0) return -1;
    return addr.ss_family == AF_INET    ? ntohs(reinterpret_cast<sockaddr_in*>(&addr)->sin_port)
           : addr.ss_family == AF_INET6 ? ntohs(reinterpret_cast<sockaddr_in6*>(&addr)->sin6_port)
                                        : -1;
}

// Debian's cpp-httplib 0.11 is compiled with a listen backlog of 5 (CPPHTTPLIB_LISTEN_BACKLOG),
// and a burst of clients overflows it: Linux then drops or resets connections. The library keeps
// its socket private, so find the listening socket on our port and listen() on it again with a
// deeper queue (Linux takes a second listen() as a new backlog).
void deepenListenBacklog(int port) {
    for (int fd = 3; fd < 4096; ++fd) {
        int accepting = 0;
        socklen_t len = sizeof accepting;
        if (getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &accepting, &len) != 0 || !accepting) continue;
        if (localPort(fd) == port) ::listen(fd, 1024);
    }
}

// A client that keeps its connection open between requests (HTTP keep-alive: Python's openai
// client, browsers) has a server thread waiting for its next request, and cpp-httplib 0.11 looks
// at whether the server is stopping only when that wait ends: its keep-alive timeout, 5 s. The
// library keeps those sockets private as well, so at stop() find the connected sockets on our
// port (the server's side of each connection) and shut down their reading side: the waiting
// threads read the end of the connection at once and close it as usual (a FIN, nothing cut off),
// and stop() returns without waiting out the timeout.
void shutdownConnections(int port) {
    for (int fd = 3; fd < 4096; ++fd) {
        int accepting = 1;
        socklen_t len = sizeof accepting;
        if (getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &accepting, &len) != 0 || accepting) continue;
        if (localPort(fd) != port) continue;
        sockaddr_storage peer{};
        socklen_t plen = sizeof peer;
        if (getpeername(fd, reinterpret_cast<sockaddr*>(&peer), &plen) == 0) ::shutdown(fd, SHUT_RD);
    }
}

// Whether a socket listens on `port` (any address): /proc/net/tcp and tcp6 list this machine's
// sockets with their state, 0A being LISTEN.
bool someoneListensOn(int port) {
    for (const char* file : {"/proc/net/tcp", "/proc/net/tcp6"}) {
        std::ifstream in(file);
        std::string line;
        std::getline(in, line);  // the header
        while (std::getline(in, line)) {
            std::istringstream fields(line);
            std::string slot, local, remote, state;
            fields >> slot >> local >> remote >> state;
            const size_t colon = local.rfind(':');
            if (state == "0A" && colon != std::string::npos && std::stoi(local.substr(colon + 1), nullptr, 16) == port) return true;
        }
    }
    return false;
}

// cpp-httplib binds with SO_REUSEPORT, so a second server on a port already served would share it
// silently (the kernel would split the clients between the two). A plain bind first tells.
bool portInUse(const std::string& host, int port) {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE;
    addrinfo* found = nullptr;
    if (getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found) != 0) return false;  // httplib reports it
    bool inUse = false;
    for (addrinfo* a = found; a; a = a->ai_next) {
        const int fd = ::socket(a->ai_family, a->ai_socktype, a->ai_protocol);
        if (fd < 0) continue;
        if (::bind(fd, a->ai_addr, a->ai_addrlen) != 0 && errno == EADDRINUSE) inUse = true;
        ::close(fd);
    }
    freeaddrinfo(found);
    // A plain bind also fails while the connections of a server that stopped here wind down
    // (FIN_WAIT, TIME_WAIT: up to a minute); those do not keep a new server from the port (it binds
    // with SO_REUSEPORT like them), only a socket that listens there does.
    return inUse && someoneListensOn(port);
}

}  // namespace

OpenAiServer::OpenAiServer(ServingLoop& loop, ServerOptions options) : loop_(loop), options_(std::move(options)) {
    if (options_.modelId.empty()) options_.modelId = "decoding-lab";
    if (options_.port < 0 || options_.port > 65535)
        throw Error("the port must be between 0 and 65535 (got " + std::to_string(options_.port) + ")");
    if (options_.connections < 1) throw Error("the server needs at least 1 connection");
    constraints_ = std::make_unique<ConstraintCache>(std::make_shared<TokenBytesTable>(loop_.model().tokenizer()));
}

OpenAiServer::~OpenAiServer() { stop(); }

void OpenAiServer::log(const RequestLog& entry) {
    if (!onRequest) return;
    std::lock_guard lock(logMutex_);
    onRequest(entry);
}

int OpenAiServer::start() {
    if (running_) return port_;
    http_ = std::make_unique<httplib::Server>();
    const int connections = options_.connections;
    http_->new_task_queue = [connections] { return new httplib::ThreadPool(static_cast<size_t>(connections)); };
    http_->set_payload_max_length(8u << 20);
    routes();
    if (options_.port != 0 && portInUse(options_.host, options_.port))
        throw Error("cannot listen on " + options_.host + ":" + std::to_string(options_.port) +
                    ": the port is in use (another server?); stop it or choose another --port");
    const int port = options_.port == 0 ? http_->bind_to_any_port(options_.host) : (http_->bind_to_port(options_.host, options_.port) ? options_.port : -1);
    if (port < 0)
        throw Error("cannot listen on " + options_.host + ":" + std::to_string(options_.port) +
                    ": the port is in use or the address is not this machine's (try another --port)");
    port_ = port;
    deepenListenBacklog(port_);
    running_ = true;
    listener_ = std::thread([this] { http_->listen_after_bind(); });
    return port_;
}

void OpenAiServer::stop() {
    if (!http_) return;
    running_ = false;
    http_->stop();
    shutdownConnections(port_);   // idle keep-alive connections: see shutdownConnections()
    if (listener_.joinable()) listener_.join();
    http_.reset();
}

void OpenAiServer::routes() {
    httplib::Server& s = *http_;
    s.Get("/health", [this](const httplib::Request&, httplib::Response& res) {
        res.set_content(wire({{"status", "ok"}, {"running", loop_.running()}, {"waiting", loop_.waiting()}}), "application/json");
    });
    s.Get("/v1/models", [this](const httplib::Request&, httplib::Response& res) {
        const json list = {{"object", "list"},
                           {"data", json::array({{{"id", options_.modelId}, {"object", "model"}, {"created", 0}, {"owned_by", "decoding-lab"}}})}};
        res.set_content(wire(list), "application/json");
    });
    s.Get("/v1/models/(.+)", [this](const httplib::Request& req, httplib::Response& res) {
        if (req.matches[1] != options_.modelId)
            return sendError(res, 404, errorBody("The model '" + std::string(req.matches[1]) + "' does not exist; this server serves '" + options_.modelId + "'",
                                                 "invalid_request_error", "model", "model_not_found"));
        res.set_content(wire({{"id", options_.modelId}, {"object", "model"}, {"created", 0}, {"owned_by", "decoding-lab"}}), "application/json");
    });

    const auto generate = [this](Endpoint endpoint) {
        return [this, endpoint](const httplib::Request& req, httplib::Response& res) {
            const auto t0 = Clock::now();
            RequestLog entry;
            entry.method = req.method;
            entry.path = req.path;
            ApiRequest api;
            ServeRequest request;
            try {
                api = parseApiRequest(endpoint, req.body);
                if (api.model != options_.modelId)
                    throw ApiError(404, "The model '" + api.model + "' does not exist; this server serves '" + options_.modelId + "'", "model",
                                   "invalid_request_error", "model_not_found");
                request = toServeRequest(api, loop_.model(), loop_, *constraints_);
            } catch (const ApiError& e) {
                sendError(res, e.status, errorBody(e));
                entry.status = e.status;
                entry.error = e.what();
                entry.ms = msSince(t0);
                log(entry);
                return;
            }
            entry.stream = api.stream;
            entry.promptTokens = static_cast<int>(request.prompt.size());
            const ResponseHead head{randomId(endpoint == Endpoint::ChatCompletions ? "chatcmpl-" : "cmpl-"),
                                    std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count(),
                                    options_.modelId};
            const bool wantLogprobs = api.logprobs || api.topLogprobs > 0;
            std::shared_ptr<RequestStream> stream = loop_.submit(std::move(request));
            const Model& model = loop_.model();

            if (!api.stream) {
                std::string text;
                std::vector<TokenOut> tokens;
                for (bool cancelled = false;;) {
                    std::optional<ServeEvent> e = stream->next(std::chrono::milliseconds(500));
                    if (!e) {
                        if (!running_ && cancelled) {
                            // Stopping, and the loop no longer answers (it stopped before this
                            // request reached it): nothing will come.
                            entry.status = 503;
                            entry.error = "the server is stopping";
                            sendError(res, 503, errorBody(entry.error, "server_unavailable", "", ""));
                            break;
                        }
                        if (!running_) {
                            stream->cancel();
                            cancelled = true;
                        }
                        continue;
                    }
                    if (e->kind == ServeEvent::Kind::Token) {
                        text += e->text;
                        if (wantLogprobs) tokens.push_back(tokenOut(model, *e));
                        continue;
                    }
                    text += e->tail;
                    entry.completionTokens = e->timings.generatedTokens;
                    entry.finish = finishReasonName(e->reason);
                    if (e->reason == FinishReason::Error || e->reason == FinishReason::Cancelled) {
                        const bool stopping = e->reason == FinishReason::Cancelled;
                        entry.status = stopping ? 503 : 500;
                        entry.error = stopping ? "the server is stopping" : e->error;
                        sendError(res, entry.status, errorBody(entry.error, stopping ? "server_unavailable" : "server_error", "", ""));
                    } else {
                        const Usage usage{e->timings.promptTokens, e->timings.generatedTokens};
                        const json body = endpoint == Endpoint::ChatCompletions
                                              ? chatBody(head, text, tokens, wantLogprobs, openAiFinish(e->reason), usage)
                                              : completionBody(head, text, tokens, wantLogprobs, openAiFinish(e->reason), usage);
                        res.set_content(wire(body), "application/json");
                        entry.status = 200;
                    }
                    break;
                }
                entry.ms = msSince(t0);
                log(entry);
                return;
            }

            // Streaming: one SSE event per token (text and log-probabilities), then the finish,
            // the usage if asked, and [DONE]. A failed write means the client is gone: cancel.
            res.set_header("Cache-Control", "no-cache");
            auto logged = std::make_shared<RequestLog>(entry);
            logged->status = 200;  // the status line goes out with the first event
            res.set_chunked_content_provider(
                "text/event-stream",
                [this, stream, head, endpoint, wantLogprobs, includeUsage = api.includeUsage, logged](size_t, httplib::DataSink& sink) {
                    const Model& model = loop_.model();
                    const auto send = [&](const json& j) {
                        const std::string line = "data: " + wire(j) + "\n\n";
                        return sink.write(line.data(), line.size());
                    };
                    bool first = true;
                    for (;;) {
                        std::optional<ServeEvent> e = stream->next(std::chrono::milliseconds(1000));
                        if (!e) {
                            // Nothing for a second (queued behind a full batch): an SSE comment
                            // keeps the connection alive and tells whether the client is still there.
                            static const char ping[] = ": waiting for a batch slot\n\n";
                            if (!running_ || !sink.write(ping, sizeof ping - 1)) {
                                stream->cancel();
                                return false;
                            }
                            continue;
                        }
                        if (e->kind == ServeEvent::Kind::Token) {
                            ++logged->completionTokens;
                            const std::vector<TokenOut> tokens = wantLogprobs ? std::vector<TokenOut>{tokenOut(model, *e)} : std::vector<TokenOut>{};
                            if (e->text.empty() && tokens.empty()) continue;
                            const json chunk = endpoint == Endpoint::ChatCompletions ? chatChunk(head, e->text, tokens, wantLogprobs, nullptr, first)
                                                                                     : completionChunk(head, e->text, tokens, wantLogprobs, nullptr);
                            first = false;
                            if (!send(chunk)) {
                                stream->cancel();
                                return false;
                            }
                            continue;
                        }
                        logged->completionTokens = e->timings.generatedTokens;
                        logged->finish = finishReasonName(e->reason);
                        logged->status = 200;
                        if (e->reason == FinishReason::Error || e->reason == FinishReason::Cancelled) {
                            logged->error = e->reason == FinishReason::Cancelled ? "the server is stopping" : e->error;
                            send(errorBody(logged->error, e->reason == FinishReason::Cancelled ? "server_unavailable" : "server_error", "", ""));
                        } else {
                            const json last = endpoint == Endpoint::ChatCompletions
                                                  ? chatChunk(head, e->tail, {}, wantLogprobs, openAiFinish(e->reason), first)
                                                  : completionChunk(head, e->tail, {}, wantLogprobs, openAiFinish(e->reason));
                            send(last);
                            if (includeUsage) send(usageChunk(head, endpoint, {e->timings.promptTokens, e->timings.generatedTokens}));
                        }
                        static const char done[] = "data: [DONE]\n\n";
                        sink.write(done, sizeof done - 1);
                        sink.done();
                        return true;
                    }
                },
                [this, stream, logged, t0](bool success) {
                    if (!success) {
                        stream->cancel();
                        logged->finish = "cancelled";
                        logged->error = "the client closed the connection";
                    }
                    logged->ms = msSince(t0);
                    log(*logged);
                });
        };
    };
    s.Post("/v1/completions", generate(Endpoint::Completions));
    s.Post("/v1/chat/completions", generate(Endpoint::ChatCompletions));

    s.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
        if (!res.body.empty()) return;
        const std::string what = res.status == 404
                                     ? "no route " + req.method + " " + req.path +
                                           "; this server has POST /v1/completions, POST /v1/chat/completions, GET /v1/models and GET /health"
                                     : "the request could not be served (HTTP " + std::to_string(res.status) + ")";
        res.set_content(wire(errorBody(what, "invalid_request_error", "", "")), "application/json");
    });
    s.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr ep) {
        std::string what = "internal error";
        try {
            std::rethrow_exception(ep);
        } catch (const std::exception& e) {
            what = e.what();
        } catch (...) {
        }
        sendError(res, 500, errorBody(what, "server_error", "", ""));
    });
}

}  // namespace dlab::server
