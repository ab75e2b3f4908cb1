#pragma once
// Saving what a view shows as a PNG or an SVG: any widget (a chart view, the waterfall, the
// token strip) as it is on screen, or a whole QGraphicsScene (the beam tree: every node, not just
// the part scrolled into view).
//
// Errors: each function throws std::runtime_error with one sentence that names the path and the
// reason ("cannot write the PNG file '/x/tree.png': No such file or directory"), for the GUI to
// show as it is. The file is written through QSaveFile: a failed export leaves no half file.
#include <QString>

QT_BEGIN_NAMESPACE
class QGraphicsScene;
class QWidget;
QT_END_NAMESPACE

namespace dlab::widgets {

// The widget as grab() paints it, at the screen's device-pixel ratio.
void exportWidgetPng(QWidget* widget, const QString& path);
// The widget rendered into an SVG of its size; `title` becomes the SVG's <title>.
void exportWidgetSvg(QWidget* widget, const QString& path, const QString& title);

// The scene's whole sceneRect() (hidden items stay hidden) at `scale` pixels per scene unit. A
// scene too big for that is scaled down to fit kMaxScenePixels; the SVG keeps every detail.
inline constexpr qint64 kMaxScenePixels = 40'000'000;   // 160 MB as ARGB32
void exportScenePng(QGraphicsScene* scene, const QString& path, double scale = 1.0);
void exportSceneSvg(QGraphicsScene* scene, const QString& path, const QString& title);

// A path from a save dialog with the file type it offered: typed without an extension ("tree"),
// it gets the chosen filter's ("PNG image (*.png)" -> "tree.png"); one with an extension stays.
QString withFilterSuffix(const QString& path, const QString& selectedFilter);

}  // namespace dlab::widgets
