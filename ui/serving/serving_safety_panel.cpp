#include "ui/serving/serving_safety_panel.h"

#include <QCheckBox>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPainter>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QTextBrowser>
#include <QVBoxLayout>

#include "core/error.h"
#include "widgets/adaptive_row.h"
#include "widgets/palette_colors.h"
#include "widgets/text_box_lines.h"

namespace dlab::ui {

namespace {

constexpr int kAccentWidth = 5;   // px of the card's state bar

QString quoted(const std::string& text) {
    //: Quotation marks around a quoted piece of text (a pattern's match, a token).
    return ServingSafetyPanel::tr("“%1”").arg(QString::fromUtf8(text.data(), qsizetype(text.size())));
}

QString percent(float p) {
    const QLocale loc;
    return ServingSafetyPanel::tr("%1 %").arg(loc.toString(100.0 * p, 'f', p >= 0.1f ? 0 : 1));
}

QColor actedColor(const QPalette& pal) { return widgets::hasDarkBase(pal) ? QColor(0xf5, 0x9e, 0x0b) : QColor(0xb4, 0x53, 0x09); }
QColor passedColor(const QPalette& pal) { return widgets::hasDarkBase(pal) ? QColor(0x4a, 0xde, 0x80) : QColor(0x15, 0x80, 0x3d); }
QColor cutColor(const QPalette& pal) { return widgets::hasDarkBase(pal) ? QColor(0xf8, 0x71, 0x71) : QColor(0xb9, 0x1c, 0x1c); }

std::vector<std::string> lines(const QPlainTextEdit* edit) {
    std::vector<std::string> out;
    for (const QString& line : edit->toPlainText().split(QLatin1Char('\n')))
        if (!line.trimmed().isEmpty()) out.push_back(line.toStdString());
    return out;
}

void setLines(QPlainTextEdit* edit, const std::vector<std::string>& list) {
    QStringList l;
    for (const std::string& s : list) l << QString::fromStdString(s);
    edit->setPlainText(l.join(QLatin1Char('\n')));
}

QString escaped(const std::string& raw, size_t begin, size_t end) {
    if (end <= begin) return {};
    return QString::fromUtf8(raw.data() + begin, qsizetype(end - begin)).toHtmlEscaped();
}

// Two parts of a text with a space between, none after full-width punctuation (Chinese).
QString joined(const QString& a, const QString& b) {
    if (a.isEmpty()) return b;
    return a.back().unicode() >= 0x3000 || b.isEmpty() || b.front().unicode() >= 0x3000 ? a + b : a + QLatin1Char(' ') + b;
}

// The layers' column: it asks for the height its texts need at its width, and may shrink to a few
// lines (then it scrolls), so the reply below keeps its own minimum.
class LayersArea : public QScrollArea {
public:
    using QScrollArea::QScrollArea;
    QSize sizeHint() const override {
        const QWidget* w = widget();
        if (!w || !w->layout()) return QScrollArea::sizeHint();
        const int width = viewport()->width();
        const int need = w->layout()->hasHeightForWidth() ? w->layout()->heightForWidth(width) : w->sizeHint().height();
        return {QScrollArea::sizeHint().width(), need};
    }
    QSize minimumSizeHint() const override { return {QScrollArea::minimumSizeHint().width(), fontMetrics().lineSpacing() * 3}; }
};

}  // namespace

// ---------------------------------------------------------------------------------------------
// SafetyLayerCard

SafetyLayerCard::SafetyLayerCard(SafetyLayer layer, QWidget* parent) : QWidget(parent), layer_(layer) {
    setObjectName(QStringLiteral("safetyLayer%1").arg(int(layer) + 1));
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(kAccentWidth + 8, 6, 8, 6);
    grid->setVerticalSpacing(2);
    title_ = new QLabel(this);
    QFont bold = title_->font();
    bold.setBold(true);
    title_->setFont(bold);
    status_ = new QLabel(this);
    status_->setObjectName(objectName() + QStringLiteral("Status"));
    status_->setFont(bold);
    status_->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    what_ = new QLabel(this);
    what_->setWordWrap(true);
    detail_ = new QLabel(this);
    detail_->setObjectName(objectName() + QStringLiteral("Detail"));
    detail_->setWordWrap(true);
    detail_->setTextFormat(Qt::PlainText);
    grid->addWidget(title_, 0, 0);
    grid->addWidget(status_, 0, 1);
    grid->addWidget(what_, 1, 0, 1, 2);
    grid->addWidget(detail_, 2, 0, 1, 2);
    grid->setColumnStretch(0, 1);
    setAutoFillBackground(false);
    clearState();
}

void SafetyLayerCard::setTexts(const QString& title, const QString& what) {
    title_->setText(title);
    what_->setText(what);
}

void SafetyLayerCard::setState(SafetyLayerState state, const QString& status, const QString& detail) {
    state_ = state;
    hasState_ = true;
    status_->setText(status);
    detail_->setText(detail);
    detail_->setVisible(!detail.isEmpty());
    recolor();
}

void SafetyLayerCard::clearState() {
    hasState_ = false;
    state_ = SafetyLayerState::Off;
    status_->clear();
    detail_->clear();
    detail_->hide();
    recolor();
}

QColor SafetyLayerCard::accent() const {
    if (!hasState_) return palette().color(QPalette::Mid);
    switch (state_) {
        case SafetyLayerState::Acted: return actedColor(palette());
        case SafetyLayerState::Passed: return passedColor(palette());
        case SafetyLayerState::Off:
        case SafetyLayerState::NotReached: return palette().color(QPalette::Disabled, QPalette::WindowText);
    }
    return palette().color(QPalette::Mid);
}

void SafetyLayerCard::recolor() {
    QPalette p = status_->palette();
    p.setColor(QPalette::WindowText, accent());
    status_->setPalette(p);
    // What the layer is: quieter than its result, still easy to read.
    QPalette w = what_->palette();
    w.setColor(QPalette::WindowText, widgets::mix(palette().color(QPalette::WindowText), palette().color(QPalette::Window), 0.3));
    what_->setPalette(w);
    update();
}

void SafetyLayerCard::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    const QRect r = rect().adjusted(0, 0, -1, -1);
    painter.setPen(palette().color(QPalette::Mid));
    painter.setBrush(widgets::mix(palette().color(QPalette::Window), palette().color(QPalette::Base), 0.5));
    painter.drawRect(r);
    painter.fillRect(QRect(r.left() + 1, r.top() + 1, kAccentWidth, r.height() - 1), accent());
}

void SafetyLayerCard::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::PaletteChange) recolor();
}

// ---------------------------------------------------------------------------------------------
// ServingSafetyPanel

ServingSafetyPanel::ServingSafetyPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->setObjectName(QStringLiteral("safetySplitter"));
    splitter->setChildrenCollapsible(false);
    layout->addWidget(splitter, 1);

    // Left: what goes in.
    auto* scroll = new QScrollArea(splitter);
    scroll->setObjectName(QStringLiteral("safetySettingsArea"));
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* settings = new QWidget(scroll);
    auto* form = new QVBoxLayout(settings);
    form->setContentsMargins(0, 0, 6, 0);
    intro_ = new QLabel(settings);
    intro_->setObjectName(QStringLiteral("safetyIntro"));
    intro_->setWordWrap(true);
    form->addWidget(intro_);
    const auto editor = [&](const char* name, int rows) {
        auto* e = new QPlainTextEdit(settings);
        e->setObjectName(QLatin1String(name));
        e->setTabChangesFocus(true);
        e->setLineWrapMode(QPlainTextEdit::NoWrap);
        widgets::keepTextBoxLines(e, rows);   // whole lines in every language's font
        connect(e, &QPlainTextEdit::textChanged, this, &ServingSafetyPanel::settingsChanged);
        return e;
    };
    promptLabel_ = new QLabel(settings);
    promptLabel_->setWordWrap(true);
    // A line more than the examples fill: a box exactly as tall as its text still scrolls (the
    // document's margins) and cut the example prompt's and refusal patterns' last line.
    prompt_ = editor("safetyPrompt", 3);
    prompt_->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    promptLabel_->setBuddy(prompt_);
    form->addWidget(promptLabel_);
    form->addWidget(prompt_);
    const char* names[kSafetyLayers] = {"safetyInputFilter", "safetyBannedPhrases", "safetyRefusalPatterns", "safetyOutputFilter"};
    for (int i = 0; i < kSafetyLayers; ++i) {
        listLabels_[size_t(i)] = new QLabel(settings);
        listLabels_[size_t(i)]->setWordWrap(true);
        lists_[size_t(i)] = editor(names[i], SafetyLayer(i) == SafetyLayer::ModelRefusal ? 4 : 3);
        listLabels_[size_t(i)]->setBuddy(lists_[size_t(i)]);
        form->addWidget(listLabels_[size_t(i)]);
        form->addWidget(lists_[size_t(i)]);
    }
    // The case option and the length side by side where the column holds both, one above the
    // other where it does not (German beside the Lessons panel at 1024 px scrolled sideways).
    auto* options = new widgets::AdaptiveRow(settings);
    options->setObjectName(QStringLiteral("safetyOptions"));
    ignoreCase_ = new QCheckBox(options);
    ignoreCase_->setObjectName(QStringLiteral("safetyIgnoreCase"));
    ignoreCase_->setChecked(true);
    auto* length = new QWidget(options);
    auto* lengthLayout = new QHBoxLayout(length);
    lengthLayout->setContentsMargins(0, 0, 0, 0);
    maxTokens_ = new QSpinBox(length);
    maxTokens_->setObjectName(QStringLiteral("safetyMaxTokens"));
    maxTokens_->setRange(1, 512);
    maxTokens_->setValue(96);
    maxTokensLabel_ = new QLabel(length);
    maxTokensLabel_->setBuddy(maxTokens_);
    lengthLayout->addWidget(maxTokensLabel_);
    lengthLayout->addWidget(maxTokens_);
    options->addWidget(ignoreCase_, 1);
    options->addWidget(length, 0, Qt::AlignLeft);
    form->addWidget(options);
    auto* buttons = new QHBoxLayout;
    examples_ = new QPushButton(settings);
    examples_->setObjectName(QStringLiteral("safetyExamples"));
    runButton_ = new QPushButton(settings);
    runButton_->setObjectName(QStringLiteral("safetyRun"));
    runButton_->setDefault(true);
    buttons->addWidget(examples_);
    buttons->addStretch(1);
    buttons->addWidget(runButton_);
    form->addLayout(buttons);
    form->addStretch(1);
    scroll->setWidget(settings);

    // Right: the layers top to bottom (in a short window they scroll), then the reply.
    auto* result = new QWidget(splitter);
    auto* right = new QVBoxLayout(result);
    right->setContentsMargins(6, 0, 0, 0);
    right->setSpacing(4);
    layersArea_ = new LayersArea(result);
    layersArea_->setObjectName(QStringLiteral("safetyLayersArea"));
    layersArea_->setWidgetResizable(true);
    layersArea_->setFrameShape(QFrame::NoFrame);
    layersArea_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    layers_ = new QWidget(layersArea_);
    auto* column = new QVBoxLayout(layers_);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(0);
    for (int i = 0; i < kSafetyLayers; ++i) {
        cards_[size_t(i)] = new SafetyLayerCard(SafetyLayer(i), layers_);
        column->addWidget(cards_[size_t(i)]);
        if (i + 1 < kSafetyLayers) {
            arrows_[size_t(i)] = new QLabel(QStringLiteral("↓"), layers_);
            arrows_[size_t(i)]->setAlignment(Qt::AlignHCenter);
            column->addWidget(arrows_[size_t(i)]);
        }
    }
    column->addStretch(1);
    layersArea_->setWidget(layers_);
    layersArea_->viewport()->installEventFilter(this);   // a splitter move changes its width
    right->addWidget(layersArea_);
    replyLabel_ = new QLabel(result);
    replyLabel_->setWordWrap(true);
    right->addWidget(replyLabel_);
    reply_ = new QTextBrowser(result);
    reply_->setObjectName(QStringLiteral("safetyReply"));
    reply_->setOpenLinks(false);
    // Eight lines: the reply is the result; with six, the layers' texts after a run left it four
    // visible lines at 1024 × 700 and cut its key line (the output filter's match) in half.
    reply_->setMinimumHeight(reply_->fontMetrics().lineSpacing() * 8);
    // Its size hint does not count: the layers above get what they need first, the reply the rest.
    reply_->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Ignored);
    right->addWidget(reply_, 1);
    summary_ = new QLabel(result);
    summary_->setObjectName(QStringLiteral("safetySummary"));
    summary_->setWordWrap(true);
    right->addWidget(summary_);

    splitter->addWidget(scroll);
    splitter->addWidget(result);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);

    connect(runButton_, &QPushButton::clicked, this, &ServingSafetyPanel::runRequested);
    connect(examples_, &QPushButton::clicked, this, &ServingSafetyPanel::restoreExamples);
    connect(ignoreCase_, &QCheckBox::toggled, this, &ServingSafetyPanel::settingsChanged);
    connect(maxTokens_, &QSpinBox::valueChanged, this, &ServingSafetyPanel::settingsChanged);
    restoreExamples();
    retranslate();
}

SafetyPolicy ServingSafetyPanel::policy() const {
    SafetyPolicy p;
    p.inputPatterns = lines(lists_[size_t(SafetyLayer::InputFilter)]);
    p.bannedPhrases = lines(lists_[size_t(SafetyLayer::BannedPhrases)]);
    p.refusalPatterns = lines(lists_[size_t(SafetyLayer::ModelRefusal)]);
    p.outputPatterns = lines(lists_[size_t(SafetyLayer::OutputFilter)]);
    p.caseInsensitive = ignoreCase_->isChecked();
    return p;
}

void ServingSafetyPanel::setPolicy(const SafetyPolicy& p) {
    setLines(lists_[size_t(SafetyLayer::InputFilter)], p.inputPatterns);
    setLines(lists_[size_t(SafetyLayer::BannedPhrases)], p.bannedPhrases);
    setLines(lists_[size_t(SafetyLayer::ModelRefusal)], p.refusalPatterns);
    setLines(lists_[size_t(SafetyLayer::OutputFilter)], p.outputPatterns);
    ignoreCase_->setChecked(p.caseInsensitive);
}

void ServingSafetyPanel::restoreExamples() {
    prompt_->setPlainText(QString::fromStdString(defaultSafetyPrompt()));
    setPolicy(defaultSafetyPolicy());
}

SafetyRequest ServingSafetyPanel::request() const {
    SafetyRequest r;
    r.prompt = prompt_->toPlainText().trimmed().toStdString();
    if (r.prompt.empty()) throw Error(tr("Write a prompt first: it is what goes through the layers.").toStdString());
    r.policy = policy();
    r.maxTokens = maxTokens_->value();
    checkSafetyPolicy(r.policy);
    return r;
}

void ServingSafetyPanel::setBusy(bool busy) {
    busy_ = busy;
    updateEnabled();
}

void ServingSafetyPanel::setModelReady(bool ready) {
    modelReady_ = ready;
    updateEnabled();
}

void ServingSafetyPanel::updateEnabled() { runButton_->setEnabled(modelReady_ && !busy_); }

void ServingSafetyPanel::clear() { showRun(nullptr); }

void ServingSafetyPanel::showRun(const ServingSafetyPtr& run) {
    run_ = run;
    redraw();
}

QString ServingSafetyPanel::replyHtml(const SafetyRun& r, const QPalette& pal, QList<int>* marked) {
    const QColor acted = actedColor(pal);
    const QColor mark = widgets::mix(pal.color(QPalette::Base), acted, 0.3);
    const QColor cut = cutColor(pal);
    if (r.blocked) {
        // Nothing was decoded: the prompt, with what the input filter matched.
        const SafetyEvent& e = r.events.front();
        const std::string& prompt = r.request.prompt;
        return QStringLiteral("<p>%1</p><p style=\"white-space: pre-wrap\">%2<span style=\"color: %3; font-weight: bold; "
                              "text-decoration: underline\">%4</span>%5</p>")
            .arg(tr("Nothing was decoded. The input filter matched in the prompt:").toHtmlEscaped(), escaped(prompt, 0, e.begin), cut.name(),
                 escaped(prompt, e.begin, e.end), escaped(prompt, e.end, prompt.size()));
    }
    QString html = QStringLiteral("<p style=\"white-space: pre-wrap\">");
    const size_t shownEnd = r.cut ? r.cutAt : r.rawText.size();
    size_t at = 0;
    const auto text = [&](size_t from, size_t to) {
        // The part up to the cut as it is, the part from the cut on struck through.
        QString out;
        if (from < shownEnd) out += escaped(r.rawText, from, std::min(to, shownEnd));
        if (to > shownEnd) {
            const size_t a = std::max(from, shownEnd);
            if (a == shownEnd && r.cut)
                out += QStringLiteral("<span style=\"color: %1; font-weight: bold\"> ✂ %2 </span>")
                           .arg(cut.name(), tr("cut at step %1").arg(r.cutStep).toHtmlEscaped());
            out += QStringLiteral("<span style=\"color: %1; text-decoration: line-through\">%2</span>").arg(cut.name(), escaped(r.rawText, a, to));
        }
        return out;
    };
    for (const SafetyStep& s : r.steps) {
        if (s.endOfGeneration) continue;
        if (s.textBegin > at) html += text(at, s.textBegin);
        const QString piece = text(s.textBegin, s.textEnd);
        if (s.intervention()) {
            html += QStringLiteral("<span style=\"background-color: %1\">%2</span><sup style=\"color: %3\">%4</sup>")
                        .arg(mark.name(), piece, acted.name())
                        .arg(s.step);
            if (marked) marked->append(s.step);
        } else {
            html += piece;
        }
        at = std::max(at, s.textEnd);
    }
    if (at < r.rawText.size()) html += text(at, r.rawText.size());
    if (r.cut && shownEnd >= r.rawText.size())   // a match that ends the text exactly: the marker still shows
        html += QStringLiteral("<span style=\"color: %1; font-weight: bold\"> ✂ %2</span>").arg(cut.name(), tr("cut at step %1").arg(r.cutStep).toHtmlEscaped());
    html += QStringLiteral("</p>");
    // What the ban took at each marked step.
    QStringList notes;
    for (const SafetyStep& s : r.steps) {
        if (!s.intervention()) continue;
        notes << QStringLiteral("<sup style=\"color: %1\">%2</sup> %3")
                     .arg(acted.name())
                     .arg(s.step)
                     .arg(tr("the model wanted %1 (%2); the ban removed %n token(s) holding %3 of the probability", nullptr, s.forbiddenCount)
                              .arg(quoted(s.bestForbiddenText), percent(s.bestForbiddenP), percent(s.forbiddenMass))
                              .toHtmlEscaped());
    }
    if (!notes.isEmpty()) html += QStringLiteral("<p>") + notes.join(QStringLiteral("<br>")) + QStringLiteral("</p>");
    return html;
}

void ServingSafetyPanel::redraw() {
    marked_.clear();
    markedCut_ = -1;
    if (!run_) {
        for (SafetyLayerCard* c : cards_) c->clearState();
        fitLayers();
        reply_->clear();
        reply_->setPlaceholderText(tr("Run the prompt: the reply appears here, with each step where the ban acted numbered and "
                                      "the part the output filter withheld struck through."));
        summary_->clear();
        return;
    }
    const SafetyRun& r = *run_;
    const QLocale loc;
    for (SafetyLayerCard* card : cards_) {
        const SafetyLayer layer = card->layer();
        const SafetyLayerReport& rep = r.layer(layer);
        QString status, detail;
        std::vector<const SafetyEvent*> events;
        for (const SafetyEvent& e : r.events)
            if (e.layer == layer) events.push_back(&e);
        switch (rep.state) {
            case SafetyLayerState::Off:
                status = layer == SafetyLayer::BannedPhrases ? tr("off: no phrases") : tr("off: no patterns");
                break;
            case SafetyLayerState::NotReached:
                status = tr("not reached");
                detail = tr("The request was blocked before this layer.");
                break;
            case SafetyLayerState::Passed:
                status = tr("passed");
                switch (layer) {
                    case SafetyLayer::InputFilter: detail = tr("No pattern matched the prompt: the model reads it."); break;
                    case SafetyLayer::BannedPhrases:
                        detail = tr("At no step did the ban remove 1 % or more of the probability.");
                        break;
                    case SafetyLayer::ModelRefusal: detail = tr("No refusal pattern matched the reply: by these patterns, the model did not refuse."); break;
                    case SafetyLayer::OutputFilter: detail = tr("No pattern matched the reply as it streamed."); break;
                }
                break;
            case SafetyLayerState::Acted: {
                const SafetyEvent& e = *events.front();
                status = layer == SafetyLayer::InputFilter ? tr("acted before decoding") : tr("acted at step %1").arg(rep.firstStep);
                switch (layer) {
                    case SafetyLayer::InputFilter:
                        detail = tr("Pattern %1 matched %2 in the prompt: the request was blocked and nothing was decoded.")
                                     .arg(e.index + 1)
                                     .arg(quoted(e.matched));
                        break;
                    case SafetyLayer::BannedPhrases: {
                        QStringList items;
                        for (size_t i = 0; i < events.size() && i < 2; ++i)
                            items << tr("step %1: the model wanted %2 (%3)").arg(events[i]->step).arg(quoted(events[i]->matched), percent(events[i]->p));
                        //: Between the items of a list inside a sentence.
                        const QString separator = tr("; ");
                        detail = joined(tr("At %n step(s) the ban removed 1 % or more of the probability:", nullptr, int(events.size())),
                                        items.join(separator));
                        if (events.size() > 2) detail = joined(detail, tr("(and %n more)", nullptr, int(events.size() - 2)));
                        break;
                    }
                    case SafetyLayer::ModelRefusal:
                        detail = tr("Refusal pattern %1 matched %2 at step %3: the model's own words, recognised by a pattern, not by a classifier.")
                                     .arg(e.index + 1)
                                     .arg(quoted(e.matched))
                                     .arg(e.step);
                        break;
                    case SafetyLayer::OutputFilter: {
                        detail = tr("Pattern %1 matched %2 at step %3: the reply was cut there and nothing after it was generated.")
                                     .arg(e.index + 1)
                                     .arg(quoted(e.matched))
                                     .arg(e.step);
                        const int seen = r.streamedBeforeCut > r.cutAt
                                             ? int(QString::fromUtf8(r.rawText.data() + r.cutAt, qsizetype(r.streamedBeforeCut - r.cutAt)).size())
                                             : 0;
                        if (seen > 0) detail = joined(detail, tr("A stream had already sent %n character(s) of the match.", nullptr, seen));
                        markedCut_ = e.step;
                        break;
                    }
                }
                break;
            }
        }
        card->setState(rep.state, status, detail);
    }
    fitLayers();
    reply_->setHtml(replyHtml(r, palette(), &marked_));
    if (r.blocked) {
        summary_->setText(tr("Blocked by the input filter: the model read nothing, and the user sees only the refusal the server sends."));
    } else {
        const QString words = QString::fromStdString(r.shownText);
        summary_->setText(tr("%n step(s) decoded in %1 ms; the user is shown %2 of the %3 characters the model wrote.", nullptr, int(r.steps.size()))
                              .arg(loc.toString(r.decodeMs, 'f', 0))
                              .arg(words.size())
                              .arg(QString::fromStdString(r.rawText).size()));
    }
}

void ServingSafetyPanel::retranslate() {
    intro_->setText(tr("A request passes four layers on its way through a server. Each is shown here for what it is: two lists of "
                       "patterns, a ban enforced while the model decodes, and the model's own words. Edit the lists and run."));
    promptLabel_->setText(tr("&Prompt (sent through the model's chat template)"));
    listLabels_[size_t(SafetyLayer::InputFilter)]->setText(tr("1. &Input filter: regular expressions, one per line"));
    listLabels_[size_t(SafetyLayer::BannedPhrases)]->setText(tr("2. &Banned phrases: plain text, one per line"));
    listLabels_[size_t(SafetyLayer::ModelRefusal)]->setText(tr("3. &Refusal patterns: regular expressions, one per line"));
    listLabels_[size_t(SafetyLayer::OutputFilter)]->setText(tr("4. &Output filter: regular expressions, one per line"));
    ignoreCase_->setText(tr("I&gnore case"));
    ignoreCase_->setToolTip(tr("Patterns match either case; banned phrases match ASCII letters in either case"));
    maxTokensLabel_->setText(tr("&Max tokens"));
    examples_->setText(tr("E&xamples"));
    examples_->setToolTip(tr("Put the lesson's prompt and lists back"));
    runButton_->setText(tr("Run (F5)"));
    runButton_->setToolTip(tr("Run the prompt through the four layers on the loaded model (greedy)"));
    cards_[size_t(SafetyLayer::InputFilter)]->setTexts(
        tr("1  Input filter"), tr("Regular expressions over the prompt. A match blocks the request before the model reads it."));
    cards_[size_t(SafetyLayer::BannedPhrases)]->setTexts(
        tr("2  Banned phrases"),
        tr("A sampler stage: at every step it removes each token that would complete a phrase, however the phrase is split into tokens."));
    cards_[size_t(SafetyLayer::ModelRefusal)]->setTexts(
        tr("3  The model's own refusal"),
        tr("No filter at all: the model's own words. The refusal patterns only recognise them in the reply, a pattern match, not a classifier."));
    cards_[size_t(SafetyLayer::OutputFilter)]->setTexts(
        tr("4  Output filter"),
        tr("Regular expressions over the reply after every token. At the first match the reply is cut; what was streamed before stays sent."));
    replyLabel_->setText(tr("What the model wrote (numbers: steps where the ban acted; struck through: withheld by the output filter)"));
    redraw();
}

void ServingSafetyPanel::fitLayers() {
    // The layers never take more than their texts need at this width; the reply the rest.
    layersArea_->setMaximumHeight(layersArea_->sizeHint().height());
    layersArea_->updateGeometry();
}

void ServingSafetyPanel::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    fitLayers();
}

bool ServingSafetyPanel::eventFilter(QObject* watched, QEvent* e) {
    if (watched == layersArea_->viewport() && e->type() == QEvent::Resize) fitLayers();
    return QWidget::eventFilter(watched, e);
}

void ServingSafetyPanel::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::LanguageChange) retranslate();
    if (e->type() == QEvent::PaletteChange) redraw();
}

}  // namespace dlab::ui
