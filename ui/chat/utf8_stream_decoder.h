#pragma once
// UTF-8 bytes arriving token by token -> text, holding back only the start of a character that
// can still be completed. Everything else is decoded at once, invalid bytes as U+FFFD exactly as
// QString::fromUtf8 decodes them, so the pieces of a stream add up to the whole stream decoded in
// one go (less a held-back tail that never completed). Qt 6.4's stateful QStringDecoder drops the
// byte after an invalid incomplete sequence ("\xE2" then "3" gives "\uFFFD", not "\uFFFD3"), so
// each complete stretch is decoded by QString::fromUtf8 instead.
#include <QByteArray>
#include <QString>

#include <string>

namespace dlab::ui {

class Utf8StreamDecoder {
public:
    QString next(const std::string& piece);
    QByteArray pending() const { return pending_; }   // the held-back bytes (0..3)

    // How many bytes at the end of `b` are a character's valid beginning, still missing
    // continuation bytes: a lead byte (C2–F4) and as many continuation bytes as fit, the second
    // one in its lead's range (E0: A0–BF, ED: 80–9F, F0: 90–BF, F4: 80–8F). 0 otherwise.
    static qsizetype incompleteTail(const QByteArray& b);

private:
    QByteArray pending_;
};

}  // namespace dlab::ui
