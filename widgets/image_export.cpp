#include "widgets/image_export.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QGraphicsScene>
#include <QImage>
#include <QPainter>
#include <QPixmap>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QWidget>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace dlab::widgets {

namespace {

[[noreturn]] void fail(const char* kind, const QString& path, const QString& reason) {
    throw std::runtime_error(QCoreApplication::translate("ImageExport", "cannot write the %1 file '%2': %3")
                                 .arg(QString::fromLatin1(kind), QFileInfo(path).absoluteFilePath(), reason)
                                 .toStdString());
}

void open(QSaveFile& file, const char* kind) {
    if (!file.open(QIODevice::WriteOnly)) fail(kind, file.fileName(), file.errorString());
}

void commit(QSaveFile& file, const char* kind) {
    const QString reason = file.errorString();
    if (!file.commit()) fail(kind, file.fileName(), file.error() != QFileDevice::NoError ? file.errorString() : reason);
}

void writePng(const QImage& image, const QString& path) {
    if (image.isNull()) fail("PNG", path, QCoreApplication::translate("ImageExport", "the image is empty or too large"));
    QSaveFile file(path);
    open(file, "PNG");
    if (!image.save(&file, "PNG")) {
        file.cancelWriting();
        fail("PNG", path, file.errorString());
    }
    commit(file, "PNG");
}

// Renders `paint` into an SVG of `size` written to `path`.
template <typename Paint>
void writeSvg(const QString& path, const QString& title, const QSize& size, const QRectF& viewBox, Paint paint) {
    QSaveFile file(path);
    open(file, "SVG");
    QSvgGenerator svg;
    svg.setOutputDevice(&file);
    svg.setSize(size);
    svg.setViewBox(viewBox);
    svg.setTitle(title);
    svg.setDescription(QCoreApplication::translate("ImageExport", "Exported from Decoding Lab"));
    {
        QPainter p;
        if (!p.begin(&svg)) {
            file.cancelWriting();
            fail("SVG", path, QCoreApplication::translate("ImageExport", "the SVG painter could not start"));
        }
        paint(p);
    }
    commit(file, "SVG");
}

}  // namespace

void exportWidgetPng(QWidget* widget, const QString& path) {
    if (!widget) fail("PNG", path, QCoreApplication::translate("ImageExport", "there is no view to export"));
    writePng(widget->grab().toImage(), path);
}

void exportWidgetSvg(QWidget* widget, const QString& path, const QString& title) {
    if (!widget) fail("SVG", path, QCoreApplication::translate("ImageExport", "there is no view to export"));
    const QSize size = widget->size();
    writeSvg(path, title, size, QRectF(QPointF(0, 0), size), [&](QPainter& p) { widget->render(&p); });
}

void exportScenePng(QGraphicsScene* scene, const QString& path, double scale) {
    if (!scene) fail("PNG", path, QCoreApplication::translate("ImageExport", "there is no view to export"));
    const QRectF source = scene->sceneRect();
    scale = std::max(1e-3, scale);
    const double pixels = source.width() * source.height() * scale * scale;
    if (pixels > double(kMaxScenePixels)) scale *= std::sqrt(double(kMaxScenePixels) / pixels);
    scale = std::min({scale, 32767.0 / std::max(1.0, source.width()), 32767.0 / std::max(1.0, source.height())});
    const QSize size(std::max(1, int(std::ceil(source.width() * scale))), std::max(1, int(std::ceil(source.height() * scale))));
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    if (image.isNull()) fail("PNG", path, QCoreApplication::translate("ImageExport", "not enough memory for a %1 × %2 image").arg(size.width()).arg(size.height()));
    image.fill(Qt::transparent);
    {
        QPainter p(&image);
        p.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
        scene->render(&p, QRectF(QPointF(0, 0), size), source);
    }
    writePng(image, path);
}

void exportSceneSvg(QGraphicsScene* scene, const QString& path, const QString& title) {
    if (!scene) fail("SVG", path, QCoreApplication::translate("ImageExport", "there is no view to export"));
    const QRectF source = scene->sceneRect();
    const QSize size = source.size().toSize();
    writeSvg(path, title, size, QRectF(QPointF(0, 0), source.size()), [&](QPainter& p) {
        scene->render(&p, QRectF(QPointF(0, 0), source.size()), source);
    });
}

QString withFilterSuffix(const QString& path, const QString& selectedFilter) {
    if (path.isEmpty() || !QFileInfo(path).suffix().isEmpty()) return path;
    static const QRegularExpression pattern(QStringLiteral("\\*\\.([A-Za-z0-9]+)"));
    const QRegularExpressionMatch m = pattern.match(selectedFilter);
    return m.hasMatch() ? path + QLatin1Char('.') + m.captured(1) : path;
}

}  // namespace dlab::widgets
