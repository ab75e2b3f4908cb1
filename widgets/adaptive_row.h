#pragma once
// Widgets side by side where the width holds them all, one above the other where it does not
// (the KV page's two compression experiments beside the Lessons panel on a 1024-pixel screen).
// The row asks only for its widest child's minimum width, so a narrow window stacks it instead of
// scrolling sideways; its minimum height is that of the arrangement it has now.
#include <QWidget>

QT_BEGIN_NAMESPACE
class QBoxLayout;
QT_END_NAMESPACE

namespace dlab::widgets {

class AdaptiveRow : public QWidget {
    Q_OBJECT
public:
    explicit AdaptiveRow(QWidget* parent = nullptr);

    void addWidget(QWidget* widget, int stretch = 0, Qt::Alignment alignment = {});
    bool stacked() const;
    // The width below which the row stacks: its children's minimum widths side by side.
    int sideBySideWidth() const;

    QSize minimumSizeHint() const override;

protected:
    void resizeEvent(QResizeEvent* e) override;
    bool event(QEvent* e) override;   // a child's size hint changed (fonts, texts, polish): arrange again

private:
    void arrange(int width);
    QBoxLayout* layout_;
};

}  // namespace dlab::widgets
