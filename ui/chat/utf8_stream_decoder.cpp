#include "ui/chat/utf8_stream_decoder.h"

namespace dlab::ui {

QString Utf8StreamDecoder::next(const std::string& piece) {
    pending_.append(piece.data(), static_cast<qsizetype>(piece.size()));
    const qsizetype keep = incompleteTail(pending_);
    const QString text = QString::fromUtf8(pending_.first(pending_.size() - keep));
    pending_ = pending_.right(keep);
    return text;
}

qsizetype Utf8StreamDecoder::incompleteTail(const QByteArray& b) {
    for (qsizetype back = 1; back <= 3 && back <= b.size(); ++back) {
        const auto c = static_cast<unsigned char>(b[b.size() - back]);
        if ((c & 0xC0) == 0x80) continue;  // a continuation byte: look further back
        const int need = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 1;
        if (need <= back) return 0;       // complete, or not a lead byte at all
        if (back >= 2) {                  // the second byte must fit its lead, or no character can follow
            const auto second = static_cast<unsigned char>(b[b.size() - back + 1]);
            const unsigned char lo = c == 0xE0 ? 0xA0 : c == 0xF0 ? 0x90 : 0x80;
            const unsigned char hi = c == 0xED ? 0x9F : c == 0xF4 ? 0x8F : 0xBF;
            if (second < lo || second > hi) return 0;
        }
        return back;
    }
    return 0;
}

}  // namespace dlab::ui
