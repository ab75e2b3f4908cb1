#pragma once
// llama.cpp's tokenizer test-vector files: <vocab>.gguf.inp holds cases separated by
// "\n__ggml_vocab_test__\n" (a trailing separator ends the last one); <vocab>.gguf.out holds one
// line of expected ids per case.
#include <QByteArray>
#include <QList>
#include <QString>

namespace dlab::test {

QByteArray readFile(const QString& path);  // empty if unreadable
QList<QByteArray> splitVocabCases(const QByteArray& raw);

}  // namespace dlab::test
