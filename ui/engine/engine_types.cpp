#include "ui/engine/engine_types.h"

namespace dlab::ui {

QString printableToken(const std::string& piece) {
    QString s = QString::fromUtf8(piece.data(), static_cast<qsizetype>(piece.size()));
    s.replace(QLatin1Char(' '), QChar(0x2423));
    s.replace(QLatin1Char('\n'), QChar(0x21B5));
    s.replace(QLatin1Char('\t'), QChar(0x21E5));
    // Other control characters as their Unicode control pictures (␀ … ␟, ␡): drawn as nothing or
    // as boxes otherwise, and not even allowed in the XML of an SVG export.
    for (QChar& c : s)
        if (c.unicode() < 0x20) c = QChar(0x2400 + c.unicode());
        else if (c.unicode() == 0x7F) c = QChar(0x2421);
    return s.isEmpty() ? QStringLiteral("∅") : s;
}

void registerEngineTypes() {
    qRegisterMetaType<dlab::ui::ModelSummary>();
    qRegisterMetaType<dlab::ui::StepView>();
    qRegisterMetaType<dlab::ui::BranchView>();
    qRegisterMetaType<dlab::ui::ChatTurn>();
    qRegisterMetaType<QList<dlab::ui::ChatTurn>>();
    qRegisterMetaType<dlab::ui::BranchEntry>();
    qRegisterMetaType<QList<dlab::ui::BranchEntry>>();
    qRegisterMetaType<dlab::ui::ChatStats>();
    qRegisterMetaType<dlab::StepTrace>();
    qRegisterMetaType<dlab::SampleResult>();
    qRegisterMetaType<dlab::SamplerParams>();
    qRegisterMetaType<dlab::widgets::DistributionBar>();
    qRegisterMetaType<dlab::widgets::DistributionCutoffs>();
    qRegisterMetaType<dlab::widgets::StagePanel>();
    qRegisterMetaType<dlab::widgets::StripToken>();
    qRegisterMetaType<QList<dlab::widgets::StripToken>>();
}

}  // namespace dlab::ui
