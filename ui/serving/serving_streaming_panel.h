#pragma once
// Streaming: one request of the last load run (picked from a list, either mode) as its user sees
// it: with streaming the first text at the time to first token and then every token as it comes,
// without streaming nothing until the whole answer is done. From the request's RequestTimings.
#include <QWidget>

#include "ui/serving/serving_types.h"

QT_BEGIN_NAMESPACE
class QComboBox;
class QLabel;
QT_END_NAMESPACE

namespace dlab::widgets {
class StreamingTimelineView;
}

namespace dlab::ui {

class ServingStreamingPanel : public QWidget {
    Q_OBJECT
public:
    explicit ServingStreamingPanel(QWidget* parent = nullptr);

    void setRun(const ServingLoadPtr& view);
    void clear() { setRun(nullptr); }
    // The request shown: its mode and its index in the trace (-1: none).
    BatchingMode mode() const;
    int requestIndex() const;
    void select(BatchingMode mode, int index);
    const RequestOutcome* shown() const;

    QComboBox* modeCombo() const { return mode_; }
    QComboBox* requestCombo() const { return request_; }
    widgets::StreamingTimelineView* timeline() const { return timeline_; }
    QLabel* summaryLabel() const { return summary_; }

protected:
    void changeEvent(QEvent* e) override;

private:
    void retranslate();
    void fillRequests();
    void showRequest();

    QLabel* modeLabel_ = nullptr;
    QComboBox* mode_ = nullptr;
    QLabel* requestLabel_ = nullptr;
    QComboBox* request_ = nullptr;
    QLabel* intro_ = nullptr;
    widgets::StreamingTimelineView* timeline_ = nullptr;
    QLabel* summary_ = nullptr;
    ServingLoadPtr view_;
};

}  // namespace dlab::ui
