#pragma once
// A scroll area for one row of content that may be wider than the room: it scrolls sideways only
// and asks its layout for the content's whole minimum height (plus the scroll bar), so the row is
// never cut at the bottom, only scrolled. Used for the sampler waterfall in one row.
#include <QScrollArea>

namespace dlab::widgets {

class RowScrollArea : public QScrollArea {
    Q_OBJECT
public:
    explicit RowScrollArea(QWidget* parent = nullptr);
    void setRowWidget(QWidget* w);   // takes ownership, like setWidget()

    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

protected:
    bool eventFilter(QObject* watched, QEvent* e) override;
};

}  // namespace dlab::widgets
