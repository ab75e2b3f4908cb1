#include "widgets/text_box_lines.h"

#include <QEvent>
#include <QPlainTextEdit>
#include <QTextDocument>
#include <QTextLayout>

#include <cmath>

namespace dlab::widgets {

namespace {

// The height of one laid-out line in `box`'s font, as its document layout makes it.
double lineHeight(const QPlainTextEdit* box) {
    // The widget's font, not the document's: on QEvent::FontChange the filter runs before the box
    // hands its new font to the document.
    QTextLayout layout(QStringLiteral("Xgy"), box->font());
    layout.beginLayout();
    const QTextLine line = layout.createLine();
    layout.endLayout();
    return line.height();
}

class LinesKeeper : public QObject {
public:
    LinesKeeper(QPlainTextEdit* box, int lines) : QObject(box), box_(box), lines_(lines) { apply(); }
    bool eventFilter(QObject* watched, QEvent* e) override {
        if (watched == box_ && (e->type() == QEvent::FontChange || e->type() == QEvent::StyleChange)) apply();
        return false;
    }

private:
    void apply() { box_->setFixedHeight(textBoxHeight(box_, lines_)); }
    QPlainTextEdit* box_;
    int lines_;
};

}  // namespace

int textBoxHeight(const QPlainTextEdit* box, int lines) {
    box->ensurePolished();   // the style sets the frame's width when it polishes the box
    const QMargins m = box->contentsMargins();   // a QFrame's include its frame
    // The document margin is only an offset: the box paints whatever line comes next into the
    // margin below the last one, so the height holds the top margin and whole lines, no more.
    return int(std::floor(lines * lineHeight(box) + box->document()->documentMargin())) + m.top() + m.bottom();
}

void keepTextBoxLines(QPlainTextEdit* box, int lines) {
    box->installEventFilter(new LinesKeeper(box, lines));
}

}  // namespace dlab::widgets
