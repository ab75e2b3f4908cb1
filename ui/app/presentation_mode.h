#pragma once
// Presentation mode and zoom: one scale for the whole application's font (every widget, the
// painted views included, sizes its text from its font) and a line scale for the painted views
// (thicker bars, markers and outlines). Presentation mode is a zoom of kPresentationScale with
// lines kPresentationLineScale thick, readable from the back of a lecture room on a 1920×1080
// projector; Ctrl+= / Ctrl+- zoom in steps on top of it.
#include <QFont>
#include <QObject>

namespace dlab::ui {

class PresentationMode : public QObject {
    Q_OBJECT
public:
    static constexpr double kPresentationScale = 1.6;
    static constexpr double kPresentationLineScale = 2.0;
    static constexpr double kMinZoom = 0.7;
    static constexpr double kMaxZoom = 3.0;
    static constexpr double kZoomStep = 1.15;

    // The 100 % size is the application's font before the first PresentationMode scaled it.
    explicit PresentationMode(QObject* parent = nullptr);

    bool presenting() const { return presenting_; }
    double zoom() const { return zoom_; }                 // the user's zoom, 1 = 100 %
    double fontScale() const;                             // zoom × (presentation ? kPresentationScale : 1)
    double lineScale() const { return presenting_ ? kPresentationLineScale : 1.0; }
    QFont baseFont() const { return base_; }

public slots:
    void setPresenting(bool on);
    void setZoom(double zoom);   // clamped to [kMinZoom, kMaxZoom]
    void zoomIn() { setZoom(zoom_ * kZoomStep); }
    void zoomOut() { setZoom(zoom_ / kZoomStep); }
    void resetZoom() { setZoom(1.0); }

signals:
    void changed();   // after the application font was set

private:
    void apply();

    QFont base_;
    bool presenting_ = false;
    double zoom_ = 1.0;
};

}  // namespace dlab::ui
