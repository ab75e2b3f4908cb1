// decoding-lab-cli serve: the OpenAI-compatible server on the loaded model until Ctrl-C.
#include <cstdio>

#include "cmd_serve.h"
#include "commands.h"
#include "core/error.h"
#include "interrupt.h"
#include "model/backend.h"
#include "model/published_name.h"
#include "serve/serving_loop.h"
#if DLAB_HAS_HTTP
#include "http_server.h"
#endif

namespace dlab::cli {

int runServe(Args& args) {
    const std::string path = modelPathOption(args);
    const int threads = threadsOption(args);
    const BackendOption backendKind = backendOption(args);
    const std::string host = args.value("--host", "127.0.0.1");
    const int port = static_cast<int>(args.integer("--port", 8080, 0, 65535));
    ServingConfig cfg;
    cfg.scheduler.maxBatch = static_cast<int>(args.integer("--max-batch", 8, 1, 256));
    cfg.scheduler.tokenBudget = static_cast<int>(args.integer("--token-budget", 512, 1, 8192));
    cfg.scheduler.prefillChunk = static_cast<int>(args.integer("--prefill-chunk", 256, 1, 8192));
    cfg.scheduler.prefixCache = !args.flag("--no-prefix-cache");
    if (args.flag("--static")) cfg.scheduler.mode = BatchingMode::Static;
    cfg.contextLength = args.integer("--ctx", 2048, 2, 1 << 20);
    cfg.kvType = parseKvType(args.value("--kv-type", "f16"));
    const bool quiet = args.flag("--quiet");
    const bool exact = args.flag("--exact-matmul");
    std::string name = args.value("--name", "");
    args.finish();
    cfg.scheduler.validate();
#if DLAB_HAS_HTTP
    auto model = Model::load(path);
    if (name.empty()) name = publishedModelName(path);   // the id the app's server answers to, too
    cfg.contextLength = std::min<int64_t>(cfg.contextLength, model->hparams().nCtxTrain);
    const int64_t ctx = cfg.contextLength;
    checkKvFitsMemory("serve", model->hparams(), ctx * cfg.scheduler.maxBatch, cfg.kvType);
    auto backend = openBackend(*model, backendKind, threads, exact);
    ServingLoop loop(*model, *backend, cfg);
    server::ServerOptions opt;
    opt.host = host;
    opt.port = port;
    opt.modelId = name;
    server::OpenAiServer http(loop, opt);
    if (!quiet)
        http.onRequest = [](const server::RequestLog& e) {
            std::fprintf(stderr, "%s %s %d%s %d+%d tokens %.0f ms%s%s\n", e.method.c_str(), e.path.c_str(), e.status, e.stream ? " stream" : "",
                         e.promptTokens, e.completionTokens, e.ms, e.finish.empty() ? "" : (" " + e.finish).c_str(),
                         e.error.empty() ? "" : (": " + e.error).c_str());
        };
    const int bound = http.start();
    const bool loopback = host == "127.0.0.1" || host == "localhost" || host == "::1";
    std::fprintf(stderr, "serving %s as '%s' on http://%s:%d/v1 (batch up to %d, %s batching, context %lld); Ctrl-C stops\n",
                 path.c_str(), name.c_str(), host.c_str(), bound, cfg.scheduler.maxBatch, batchingModeName(cfg.scheduler.mode),
                 static_cast<long long>(loop.contextLength()));
    if (!loopback) std::fprintf(stderr, "note: listening on %s, so other machines can reach this server\n", host.c_str());
    std::fflush(stderr);
    loop.run(*installInterruptHandler());
    http.stop();
    std::fprintf(stderr, "stopped\n");
    return 0;
#else
    (void)threads; (void)exact; (void)host; (void)port; (void)quiet; (void)name; (void)path;
    throw Error("this decoding-lab-cli was built without cpp-httplib, so it cannot serve HTTP; install libcpp-httplib-dev and rebuild");
#endif
}

}  // namespace dlab::cli
