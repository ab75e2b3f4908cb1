#include "ui/playground/constraint_box.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QShortcut>
#include <QSignalBlocker>
#include <QToolButton>
#include <QVBoxLayout>

#include "widgets/code_font.h"
#include "widgets/palette_colors.h"

namespace dlab::ui {

namespace {

const char* kindKey(ConstraintBox::Kind k) {
    switch (k) {
    case ConstraintBox::Kind::AnyJson: return "json";
    case ConstraintBox::Kind::JsonSchema: return "json-schema";
    case ConstraintBox::Kind::Gbnf: return "gbnf";
    default: return "none";
    }
}

QString folderOf(ConstraintBox::Kind k) {
    return k == ConstraintBox::Kind::JsonSchema ? QStringLiteral(":/schemas") : QStringLiteral(":/grammars");
}

bool hasText(ConstraintBox::Kind k) { return k == ConstraintBox::Kind::JsonSchema || k == ConstraintBox::Kind::Gbnf; }

QString readFile(const QString& path, bool* ok) {
    QFile f(path);
    *ok = f.open(QIODevice::ReadOnly);
    return *ok ? QString::fromUtf8(f.readAll()) : QString();
}

}  // namespace

ConstraintBox::ConstraintBox(QWidget* parent) : QGroupBox(parent) {
    setObjectName(QStringLiteral("constraintBox"));
    auto* layout = new QVBoxLayout(this);
    auto* grid = new QGridLayout;
    kindCombo_ = new QComboBox(this);
    kindCombo_->setObjectName(QStringLiteral("constraintKindCombo"));
    for (Kind k : {Kind::None, Kind::AnyJson, Kind::JsonSchema, Kind::Gbnf}) kindCombo_->addItem(QString(), QString::fromLatin1(kindKey(k)));
    exampleLabel_ = new QLabel(this);
    exampleCombo_ = new QComboBox(this);
    exampleCombo_->setObjectName(QStringLiteral("constraintExampleCombo"));
    exampleLabel_->setBuddy(exampleCombo_);
    openButton_ = new QPushButton(this);
    openButton_->setObjectName(QStringLiteral("constraintOpenButton"));
    // Narrow rows: the controls panel is as wide as its widest row (the sampler's sliders).
    grid->addWidget(kindCombo_, 0, 0, 1, 2);
    grid->addWidget(exampleLabel_, 1, 0);
    grid->addWidget(exampleCombo_, 1, 1);
    grid->setColumnStretch(1, 1);
    layout->addLayout(grid);

    textEdit_ = new QPlainTextEdit(this);
    textEdit_->setObjectName(QStringLiteral("constraintText"));
    textEdit_->setFont(widgets::codeFont());
    textEdit_->setLineWrapMode(QPlainTextEdit::NoWrap);
    textEdit_->setTabChangesFocus(true);
    // A few lines: the whole of a short grammar, a schema scrolls (the controls panel is tall enough).
    textEdit_->setMinimumHeight(textEdit_->fontMetrics().lineSpacing() * 4 + 8);
    textEdit_->setMaximumHeight(textEdit_->fontMetrics().lineSpacing() * 9 + 8);
    textEdit_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    layout->addWidget(textEdit_);
    auto* applyRow = new QHBoxLayout;
    applyButton_ = new QPushButton(this);
    applyButton_->setObjectName(QStringLiteral("constraintApplyButton"));
    grammarToggle_ = new QToolButton(this);
    grammarToggle_->setObjectName(QStringLiteral("constraintGrammarToggle"));
    grammarToggle_->setCheckable(true);
    grammarToggle_->setAutoRaise(true);
    grammarToggle_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    grammarToggle_->setArrowType(Qt::RightArrow);
    applyRow->addWidget(grammarToggle_);
    applyRow->addStretch(1);
    applyRow->addWidget(openButton_);
    applyRow->addWidget(applyButton_);
    layout->addLayout(applyRow);

    statusLabel_ = new QLabel(this);
    statusLabel_->setObjectName(QStringLiteral("constraintStatus"));
    statusLabel_->setWordWrap(true);
    statusLabel_->setTextFormat(Qt::PlainText);
    statusLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    statusLabel_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);   // wraps to the panel's width
    layout->addWidget(statusLabel_);

    grammarView_ = new QPlainTextEdit(this);
    grammarView_->setObjectName(QStringLiteral("constraintGrammarView"));
    grammarView_->setReadOnly(true);
    grammarView_->setFont(widgets::codeFont());
    grammarView_->setLineWrapMode(QPlainTextEdit::NoWrap);
    grammarView_->setMinimumHeight(grammarView_->fontMetrics().lineSpacing() * 4 + 8);
    grammarView_->setMaximumHeight(grammarView_->fontMetrics().lineSpacing() * 12 + 8);
    grammarView_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    grammarView_->hide();
    layout->addWidget(grammarView_);

    compareCheck_ = new QCheckBox(this);
    compareCheck_->setObjectName(QStringLiteral("compareUnconstrainedCheck"));
    layout->addWidget(compareCheck_);

    connect(kindCombo_, &QComboBox::activated, this, [this] {
        fillExamples();
        if (hasText(kind()) && exampleCombo_->count() > 0) loadExample(0);
        else {
            textEdit_->clear();
            source_.clear();
        }
        apply();
    });
    connect(exampleCombo_, &QComboBox::activated, this, [this](int index) {
        loadExample(index);
        apply();
    });
    connect(openButton_, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open a grammar or a JSON Schema"), QString(),
                                                          tr("GBNF grammars and JSON Schemas (*.gbnf *.json);;All files (*)"));
        if (!path.isEmpty()) openFile(path);
    });
    connect(applyButton_, &QPushButton::clicked, this, &ConstraintBox::apply);
    connect(textEdit_, &QPlainTextEdit::textChanged, this, &ConstraintBox::updateApply);
    for (const QKeySequence& keys : {QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter)}) {
        auto* s = new QShortcut(keys, textEdit_);
        s->setContext(Qt::WidgetShortcut);
        connect(s, &QShortcut::activated, this, &ConstraintBox::apply);
        applyShortcuts_ << s;
    }
    connect(grammarToggle_, &QToolButton::toggled, this, [this](bool on) {
        grammarToggle_->setArrowType(on ? Qt::DownArrow : Qt::RightArrow);
        updateVisibility();
    });
    connect(compareCheck_, &QCheckBox::toggled, this, &ConstraintBox::compareChanged);
    retranslate();
    fillExamples();
    updateVisibility();
    showStatusText();
}

ConstraintBox::Kind ConstraintBox::kind() const {
    const QString k = kindCombo_->currentData().toString();
    if (k == QLatin1String("json")) return Kind::AnyJson;
    if (k == QLatin1String("json-schema")) return Kind::JsonSchema;
    if (k == QLatin1String("gbnf")) return Kind::Gbnf;
    return Kind::None;
}

ConstraintSpec::Kind ConstraintBox::specKind() const {
    switch (kind()) {
    case Kind::AnyJson: return ConstraintSpec::Kind::AnyJson;
    case Kind::JsonSchema: return ConstraintSpec::Kind::JsonSchema;
    default: return ConstraintSpec::Kind::Gbnf;
    }
}

void ConstraintBox::setKind(Kind k) {
    kindCombo_->setCurrentIndex(kindCombo_->findData(QString::fromLatin1(kindKey(k))));
    fillExamples();
    if (hasText(k) && exampleCombo_->count() > 0) loadExample(0);
    else {
        textEdit_->clear();
        source_.clear();
    }
    apply();
}

QStringList ConstraintBox::examples(Kind k) {
    if (!hasText(k)) return {};
    return QDir(folderOf(k)).entryList({k == Kind::JsonSchema ? QStringLiteral("*.json") : QStringLiteral("*.gbnf")}, QDir::Files, QDir::Name);
}

void ConstraintBox::fillExamples() {
    const QSignalBlocker block(exampleCombo_);
    exampleCombo_->clear();
    for (const QString& name : examples(kind())) exampleCombo_->addItem(name, folderOf(kind()) + QLatin1Char('/') + name);
}

bool ConstraintBox::selectExample(const QString& fileName) {
    const int i = exampleCombo_->findText(fileName);
    if (i < 0) return false;
    exampleCombo_->setCurrentIndex(i);
    loadExample(i);
    apply();
    return true;
}

void ConstraintBox::loadExample(int index) {
    const QString path = exampleCombo_->itemData(index).toString();
    bool ok = false;
    const QString text = readFile(path, &ok);
    const QSignalBlocker block(textEdit_);
    textEdit_->setPlainText(text);
    source_ = QFileInfo(path).fileName();
    sourceText_ = text;
}

bool ConstraintBox::openFile(const QString& path) {
    bool ok = false;
    const QString text = readFile(path, &ok);
    if (!ok) {
        status_ = {};
        status_.error = tr("Could not read %1.").arg(QDir::toNativeSeparators(path));
        showStatusText();
        return false;
    }
    const Kind k = path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive) ? Kind::JsonSchema : Kind::Gbnf;
    kindCombo_->setCurrentIndex(kindCombo_->findData(QString::fromLatin1(kindKey(k))));
    fillExamples();
    const QString name = QFileInfo(path).fileName();
    {
        const QSignalBlocker block(exampleCombo_);
        exampleCombo_->addItem(name, path);
        exampleCombo_->setCurrentIndex(exampleCombo_->count() - 1);
    }
    {
        const QSignalBlocker block(textEdit_);
        textEdit_->setPlainText(text);
    }
    source_ = name;
    sourceText_ = text;
    apply();
    return true;
}

void ConstraintBox::setText(const QString& text, const QString& source) {
    {
        const QSignalBlocker block(textEdit_);
        textEdit_->setPlainText(text);
    }
    if (!source.isEmpty()) source_ = source;
    sourceText_ = text;
    apply();
}

ConstraintChoice ConstraintBox::choice() const {
    ConstraintChoice c;
    const Kind k = kind();
    c.on = k != Kind::None;
    if (!c.on) return c;
    c.spec.kind = specKind();
    if (hasText(k)) {
        c.spec.text = appliedText_.toStdString();
        c.spec.source = (source_.isEmpty() ? (k == Kind::JsonSchema ? QStringLiteral("schema") : QStringLiteral("grammar")) : source_).toStdString();
    } else {
        c.spec.source = "any JSON";
    }
    return c;
}

void ConstraintBox::apply() {
    appliedText_ = hasText(kind()) ? textEdit_->toPlainText() : QString();
    // Text edited after it was loaded is no longer the file: errors and the status say so.
    const QString edited = tr(" (edited)");
    if (!source_.isEmpty() && appliedText_ != sourceText_ && !source_.endsWith(edited)) source_ += edited;
    waiting_ = kind() != Kind::None;
    status_ = {};
    updateVisibility();
    updateApply();
    showStatusText();
    emit choiceChanged(choice());
}

bool ConstraintBox::compareUnconstrained() const { return compareCheck_->isChecked(); }
void ConstraintBox::setCompareUnconstrained(bool on) { compareCheck_->setChecked(on); }

void ConstraintBox::showStatus(const ConstraintStatus& status) {
    status_ = status;
    waiting_ = false;
    grammarView_->setPlainText(status.gbnf);
    updateVisibility();
    showStatusText();
}

QString ConstraintBox::statusText() const { return statusLabel_->text(); }

void ConstraintBox::showStatusText() {
    QString text;
    const bool error = !status_.error.isEmpty();
    if (error)
        text = tr("Not in force: %1").arg(status_.error) + QLatin1Char('\n') + tr("The playground runs without a constraint.");
    else if (kind() == Kind::None)
        text = tr("Off: the model may write anything. A constraint forbids, at every step, each token that would "
                  "break a grammar or a JSON Schema.");
    else if (waiting_)
        text = tr("Compiling…");
    else if (status_.on)
        text = tr("%1 in force: %n rule(s), compiled for this model's vocabulary in %2 ms.", nullptr, status_.rules)
                   .arg(status_.description, QLocale().toString(status_.compileMs, status_.compileMs < 1.0 ? 'g' : 'f', status_.compileMs < 1.0 ? 2 : 1));
    else
        text = tr("Takes effect once a model is loaded.");
    statusLabel_->setText(text);
    QPalette pal = palette();
    if (error) pal.setColor(QPalette::WindowText, widgets::hasDarkBase(pal) ? QColor(0xff, 0x6b, 0x6b) : QColor(0xc0, 0x1c, 0x28));
    statusLabel_->setPalette(pal);
}

void ConstraintBox::updateVisibility() {
    const Kind k = kind();
    const bool text = hasText(k);
    exampleLabel_->setVisible(text);
    exampleCombo_->setVisible(text);
    openButton_->setVisible(text);
    textEdit_->setVisible(text);
    applyButton_->setVisible(text);
    // The grammar a schema or "any JSON" became; a GBNF grammar is its own text.
    const bool generated = (k == Kind::JsonSchema || k == Kind::AnyJson) && status_.on;
    grammarToggle_->setVisible(generated);
    grammarView_->setVisible(generated && grammarToggle_->isChecked());
    compareCheck_->setVisible(k != Kind::None);
}

void ConstraintBox::updateApply() { applyButton_->setEnabled(hasText(kind()) && textEdit_->toPlainText() != appliedText_); }

void ConstraintBox::retranslate() {
    setTitle(tr("Constraint"));
    setToolTip(tr("Constrained decoding: the sampler chain's first stage forbids every token that would not fit the "
                  "grammar, so the output always parses"));
    const QStringList names{tr("None"), tr("Any JSON value"), tr("JSON Schema"), tr("GBNF grammar")};
    for (int i = 0; i < kindCombo_->count() && i < names.size(); ++i) kindCombo_->setItemText(i, names[i]);
    kindCombo_->setToolTip(tr("What the output must be: anything, any JSON value, JSON that matches a schema, or "
                              "text that a GBNF grammar (llama.cpp's format) accepts"));
    exampleLabel_->setText(tr("Example"));
    exampleCombo_->setToolTip(tr("Examples that come with the app, and the files you opened"));
    openButton_->setText(tr("Open file…"));
    openButton_->setToolTip(tr("Open a .gbnf grammar or a .json JSON Schema"));
    textEdit_->setToolTip(tr("Edit the grammar or schema, then Apply (Ctrl+Return)"));
    applyButton_->setText(tr("Apply"));
    applyButton_->setToolTip(tr("Compile the edited text and use it from the current step on (Ctrl+Return)"));
    for (QShortcut* s : applyShortcuts_) s->setWhatsThis(tr("Constraint: apply the edited grammar or schema"));
    grammarToggle_->setText(tr("Grammar"));
    grammarToggle_->setToolTip(tr("The GBNF grammar the engine made of the schema: what the mask is computed from"));
    compareCheck_->setText(tr("Compare with unconstrained"));
    compareCheck_->setToolTip(tr("Generate the same prompt with the same settings and seed but no constraint, "
                                 "step by step beside the constrained text"));
    showStatusText();
}

void ConstraintBox::saveSettings(QSettings& s) const {
    s.setValue(QStringLiteral("constraint/kind"), QString::fromLatin1(kindKey(kind())));
    s.setValue(QStringLiteral("constraint/example"), exampleCombo_->currentData().toString());
    s.setValue(QStringLiteral("constraint/text"), appliedText_);
    s.setValue(QStringLiteral("constraint/source"), source_);
    s.setValue(QStringLiteral("constraint/compare"), compareCheck_->isChecked());
}

void ConstraintBox::restoreSettings(QSettings& s) {
    {
        const QSignalBlocker block(compareCheck_);
        compareCheck_->setChecked(s.value(QStringLiteral("constraint/compare"), false).toBool());
    }
    const int k = kindCombo_->findData(s.value(QStringLiteral("constraint/kind"), QStringLiteral("none")).toString());
    kindCombo_->setCurrentIndex(std::max(0, k));
    fillExamples();
    const QString example = s.value(QStringLiteral("constraint/example")).toString();
    int e = exampleCombo_->findData(example);
    if (e < 0 && !example.isEmpty() && !example.startsWith(QLatin1Char(':'))) {
        exampleCombo_->addItem(QFileInfo(example).fileName(), example);   // a file the user had opened
        e = exampleCombo_->count() - 1;
    }
    if (e >= 0) exampleCombo_->setCurrentIndex(e);
    {
        const QSignalBlocker block(textEdit_);
        textEdit_->setPlainText(s.value(QStringLiteral("constraint/text")).toString());
    }
    source_ = s.value(QStringLiteral("constraint/source")).toString();
    sourceText_ = textEdit_->toPlainText();   // as saved (its name says "(edited)" if it was)
    if (kind() != Kind::None) apply();
    else {
        appliedText_.clear();
        updateVisibility();
        updateApply();
        showStatusText();
    }
}

void ConstraintBox::changeEvent(QEvent* e) {
    if (e->type() == QEvent::LanguageChange) retranslate();
    else if (e->type() == QEvent::PaletteChange) showStatusText();
    QGroupBox::changeEvent(e);
}

}  // namespace dlab::ui
