#include "ui/serve/serve_examples.h"

namespace dlab::ui {

QString serveBaseUrl(const QString& host, int port) {
    QString h = host;
    if (h == QLatin1String("0.0.0.0") || h.isEmpty()) h = QStringLiteral("127.0.0.1");
    if (h.contains(QLatin1Char(':')) && !h.startsWith(QLatin1Char('['))) h = QLatin1Char('[') + h + QLatin1Char(']');
    return QStringLiteral("http://%1:%2/v1").arg(h).arg(port);
}

QString curlExample(const QString& baseUrl, const QString& modelId) {
    return QStringLiteral("curl %1/chat/completions \\\n"
                          "  -H \"Content-Type: application/json\" \\\n"
                          "  -d '{\"model\": \"%2\",\n"
                          "       \"messages\": [{\"role\": \"user\", \"content\": \"Say hello.\"}],\n"
                          "       \"max_tokens\": 32}'")
        .arg(baseUrl, modelId);
}

QString pythonExample(const QString& baseUrl, const QString& modelId) {
    return QStringLiteral("from openai import OpenAI\n"
                          "\n"
                          "client = OpenAI(\n"
                          "    base_url=\"%1\",\n"
                          "    api_key=\"none\",\n"
                          ")\n"
                          "stream = client.chat.completions.create(\n"
                          "    model=\"%2\",\n"
                          "    messages=[{\"role\": \"user\", \"content\": \"Say hello.\"}],\n"
                          "    max_tokens=32,\n"
                          "    stream=True,\n"
                          ")\n"
                          "for chunk in stream:\n"
                          "    text = chunk.choices[0].delta.content or \"\"\n"
                          "    print(text, end=\"\", flush=True)")
        .arg(baseUrl, modelId);
}

}  // namespace dlab::ui
