#pragma once
// The Serve page's copyable client examples, filled with the server's real URL and model id.
// Code, not prose: they stay in English in every language.
#include <QString>

namespace dlab::ui {

// "http://127.0.0.1:8080/v1": the base URL an OpenAI client takes. A server on every address
// (0.0.0.0) is reached from this machine on 127.0.0.1.
QString serveBaseUrl(const QString& host, int port);
QString curlExample(const QString& baseUrl, const QString& modelId);
QString pythonExample(const QString& baseUrl, const QString& modelId);

}  // namespace dlab::ui
