#pragma once
// A row of controls that wraps onto further lines where the width does not hold it (the Serving
// lab's settings beside the Lessons panel on a 1024-pixel screen), instead of asking the page for
// the whole row's width. Items keep their preferred size, left to right, each line's items centred
// on the line; a label and its box go in as one sub-layout (addLayout) so that they wrap together.
#include <QLayout>
#include <QList>

#include <initializer_list>

namespace dlab::widgets {

class FlowLayout : public QLayout {
public:
    explicit FlowLayout(QWidget* parent = nullptr);
    ~FlowLayout() override;

    void addLayout(QLayout* layout);   // kept together on one line
    // Widgets kept together on one line (a label and its box): a sub-layout of them.
    void addGroup(std::initializer_list<QWidget*> widgets);

    void addItem(QLayoutItem* item) override;
    int count() const override { return int(items_.size()); }
    QLayoutItem* itemAt(int index) const override { return items_.value(index); }
    QLayoutItem* takeAt(int index) override;
    Qt::Orientations expandingDirections() const override { return {}; }
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize minimumSize() const override;   // the widest item: everything else can wrap
    QSize sizeHint() const override;      // every item on one line
    void setGeometry(const QRect& rect) override;

    // Lines the last layout used (tests).
    int lineCount() const { return lines_; }

private:
    int gap() const;
    int arrange(const QRect& rect, bool apply) const;   // the height used
    QList<QLayoutItem*> items_;
    mutable int lines_ = 0;
};

}  // namespace dlab::widgets
