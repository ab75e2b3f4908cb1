#include "ui/serve/serve_page.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QEvent>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSettings>
#include <QShortcut>
#include <QSpinBox>
#include <QTableView>
#include <QTextDocument>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <utility>

#include "ui/app/mnemonic_text.h"
#include "ui/engine/engine_context.h"
#include "ui/serve/request_log_model.h"
#include "ui/serve/serve_controller.h"
#include "ui/serve/serve_examples.h"
#include "widgets/code_font.h"
#include "widgets/text_box_lines.h"
#include "widgets/flow_layout.h"
#include "widgets/number_text.h"

namespace dlab::ui {

namespace {
void registerTypes() {
    qRegisterMetaType<dlab::ui::ServeStartRequest>();
    qRegisterMetaType<dlab::ui::ServeStarted>();
    qRegisterMetaType<dlab::ui::ServeCounters>();
    qRegisterMetaType<dlab::ui::ServeLogEntry>();
}

bool isLoopback(const QString& host) {
    return host == QLatin1String("localhost") || host == QLatin1String("::1") || host.startsWith(QLatin1String("127."));
}

QPlainTextEdit* makeCode(QWidget* parent, const char* name) {
    auto* e = new QPlainTextEdit(parent);
    e->setObjectName(QLatin1String(name));
    e->setReadOnly(true);
    e->setLineWrapMode(QPlainTextEdit::NoWrap);
    e->setFont(widgets::codeFont());
    return e;
}
}  // namespace

ServePage::ServePage(QWidget* parent) : Page(parent) {
    registerTypes();
    build();
    retranslate();
    fitCodeBoxes();
    updateExamples();
    updateEnabled();
}

ServePage::~ServePage() {
    // The window asks the engine to stop before it waits for the engine thread; this is for a page
    // that goes on its own.
    if (controller_ && state_ != State::Idle) controller_->requestStop();
}

QString ServePage::title() const { return tr("Se&rve"); }

QString ServePage::toolTip() const {
    return tr("Serve the loaded model over an OpenAI-compatible HTTP API with continuous batching, and watch its requests");
}

void ServePage::build() {
    auto* layout = new QVBoxLayout(this);
    auto* form = new QGridLayout;
    const auto label = [this](QLabel*& l, QWidget* buddy) {
        l = new QLabel(this);
        l->setBuddy(buddy);
        return l;
    };
    host_ = new QLineEdit(QStringLiteral("127.0.0.1"), this);
    host_->setObjectName(QStringLiteral("serveHost"));
    host_->setMaximumWidth(host_->fontMetrics().averageCharWidth() * 24);
    allowOthers_ = new QCheckBox(this);
    allowOthers_->setObjectName(QStringLiteral("serveAllowOthers"));
    port_ = new QSpinBox(this);
    port_->setObjectName(QStringLiteral("servePort"));
    widgets::markAsIdentifier(port_);   // 8080, not 8,080
    port_->setRange(0, 65535);
    port_->setValue(8080);
    maxBatch_ = new QSpinBox(this);
    maxBatch_->setObjectName(QStringLiteral("serveMaxBatch"));
    maxBatch_->setRange(1, 64);
    maxBatch_->setValue(8);
    context_ = new QSpinBox(this);
    context_->setObjectName(QStringLiteral("serveContext"));
    context_->setRange(16, 32768);
    context_->setSingleStep(256);
    context_->setValue(2048);
    mode_ = new QComboBox(this);
    mode_->setObjectName(QStringLiteral("serveMode"));
    mode_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    mode_->addItem(QString(), false);
    mode_->addItem(QString(), true);
    prefixCache_ = new QCheckBox(this);
    prefixCache_->setObjectName(QStringLiteral("servePrefixCache"));
    prefixCache_->setChecked(true);
    start_ = new QPushButton(this);
    start_->setObjectName(QStringLiteral("serveStart"));
    stop_ = new QPushButton(this);
    stop_->setObjectName(QStringLiteral("serveStop"));

    auto* row1 = new QHBoxLayout;
    row1->addWidget(label(hostLabel_, host_));
    row1->addWidget(host_);
    row1->addWidget(allowOthers_);
    row1->addSpacing(fontMetrics().averageCharWidth() * 2);
    row1->addWidget(label(portLabel_, port_));
    row1->addWidget(port_);
    row1->addStretch(1);
    // The serving settings wrap in a narrow window (a label stays with its box); Start and Stop
    // on the right.
    auto* row2 = new QHBoxLayout;
    auto* settings = new widgets::FlowLayout;
    settings->addGroup({label(maxBatchLabel_, maxBatch_), maxBatch_});
    settings->addGroup({label(contextLabel_, context_), context_});
    settings->addGroup({label(modeLabel_, mode_), mode_});
    settings->addGroup({prefixCache_});
    row2->addLayout(settings, 1);
    row2->addWidget(start_, 0, Qt::AlignBottom);
    row2->addWidget(stop_, 0, Qt::AlignBottom);
    form->addLayout(row1, 0, 0);
    form->addLayout(row2, 1, 0);
    layout->addLayout(form);

    warning_ = new QLabel(this);
    warning_->setObjectName(QStringLiteral("serveWarning"));
    warning_->setWordWrap(true);
    warning_->hide();
    layout->addWidget(warning_);
    statusLabel_ = new QLabel(this);
    statusLabel_->setObjectName(QStringLiteral("serveStatus"));
    statusLabel_->setWordWrap(true);
    statusLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(statusLabel_);

    auto* urlRow = new QHBoxLayout;
    urlTitle_ = new QLabel(this);
    url_ = new QLabel(this);
    url_->setObjectName(QStringLiteral("serveUrl"));
    url_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    urlRow->addWidget(urlTitle_);
    urlRow->addWidget(url_);
    urlRow->addStretch(1);
    layout->addLayout(urlRow);

    auto* examples = new QHBoxLayout;
    const auto codeBox = [this](QGroupBox*& box, QPlainTextEdit*& edit, QToolButton*& copy, const char* name) {
        box = new QGroupBox(this);
        auto* v = new QVBoxLayout(box);
        v->setSizeConstraint(QLayout::SetMinAndMaxSize);   // no taller than the example's text allows
        edit = makeCode(box, name);
        copy = new QToolButton(box);
        v->addWidget(edit, 1);
        auto* h = new QHBoxLayout;
        h->addStretch(1);
        h->addWidget(copy);
        v->addLayout(h);
        QPlainTextEdit* e = edit;
        connect(copy, &QToolButton::clicked, this, [e] { QApplication::clipboard()->setText(e->toPlainText()); });
        return box;
    };
    examples->addWidget(codeBox(curlBox_, curl_, copyCurl_, "serveCurl"), 1);
    examples->addWidget(codeBox(pythonBox_, python_, copyPython_, "servePython"), 1);
    for (QPlainTextEdit* e : {curl_, python_}) e->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    layout->addLayout(examples, 4);

    auto* countersRow = new QHBoxLayout;
    for (QLabel** l : {&served_, &running_, &waiting_, &speed_}) {
        *l = new QLabel(this);
        countersRow->addWidget(*l);
        countersRow->addSpacing(fontMetrics().averageCharWidth() * 3);
    }
    served_->setObjectName(QStringLiteral("serveServed"));
    running_->setObjectName(QStringLiteral("serveRunning"));
    waiting_->setObjectName(QStringLiteral("serveWaiting"));
    speed_->setObjectName(QStringLiteral("serveSpeed"));
    countersRow->addStretch(1);
    layout->addLayout(countersRow);

    logTitle_ = new QLabel(this);
    layout->addWidget(logTitle_);
    log_ = new RequestLogModel(this);
    logView_ = new QTableView(this);
    logView_->setObjectName(QStringLiteral("serveLog"));
    logView_->setModel(log_);
    logView_->verticalHeader()->hide();
    logView_->setSelectionBehavior(QAbstractItemView::SelectRows);
    logView_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    // Columns fit their contents as rows come in (fitLogColumns), the last one takes the rest.
    logView_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    logView_->horizontalHeader()->setStretchLastSection(true);
    logView_->setWordWrap(false);
    fitLogFont();
    layout->addWidget(logView_, 1);

    speedTimer_ = new QTimer(this);
    speedTimer_->setInterval(500);
    connect(speedTimer_, &QTimer::timeout, this, &ServePage::updateCounters);

    connect(start_, &QPushButton::clicked, this, &ServePage::start);
    connect(stop_, &QPushButton::clicked, this, &ServePage::stop);
    connect(allowOthers_, &QCheckBox::toggled, this, [this](bool on) {
        warning_->setVisible(on);
        updateEnabled();
        updateExamples();
        emit settingsChanged();
    });
    connect(host_, &QLineEdit::textChanged, this, [this] {
        updateExamples();
        emit settingsChanged();
    });
    connect(port_, &QSpinBox::valueChanged, this, [this] {
        updateExamples();
        emit settingsChanged();
    });
    for (QSpinBox* s : {maxBatch_, context_}) connect(s, &QSpinBox::valueChanged, this, &Page::settingsChanged);
    connect(mode_, &QComboBox::currentIndexChanged, this, &Page::settingsChanged);
    connect(prefixCache_, &QCheckBox::toggled, this, &Page::settingsChanged);
    connect(frontShortcut(QKeySequence(Qt::Key_F5)), &QShortcut::activated, this, &ServePage::start);
    connect(frontShortcut(QKeySequence(Qt::Key_Escape)), &QShortcut::activated, this, &ServePage::stop);
}

void ServePage::attachEngine(EngineContext* engine) {
    engine_ = engine;
    auto* c = new ServeController(engine);
    controller_ = c;
    connect(this, &ServePage::startRequested, c, &ServeController::start);
    connect(c, &ServeController::started, this, &ServePage::onStarted);
    connect(c, &ServeController::counters, this, &ServePage::onCounters);
    connect(c, &ServeController::requestLogged, this, [this](const ServeLogEntry& e) {
        const bool atEnd = !logView_->verticalScrollBar() || logView_->verticalScrollBar()->value() == logView_->verticalScrollBar()->maximum();
        log_->append(e);
        fitLogColumns();
        if (atEnd) logView_->scrollToBottom();
    });
    connect(c, &ServeController::failed, this, [this](const QString& m) {
        // One sentence on the page (a port in use is an everyday event, not a dialog).
        setStatus([m] { return m; });
    });
    connect(c, &ServeController::stopped, this, &ServePage::onStopped);
}

ServeStartRequest ServePage::request() const {
    ServeStartRequest r;
    r.host = allowOthers_->isChecked() ? QStringLiteral("0.0.0.0") : host_->text().trimmed();
    r.port = port_->value();
    r.maxBatch = maxBatch_->value();
    r.contextLength = context_->value();
    r.staticBatching = mode_->currentData().toBool();
    r.prefixCache = prefixCache_->isChecked();
    return r;
}

QString ServePage::baseUrl() const {
    if (state_ == State::Serving) return serveBaseUrl(server_.host, server_.port);
    const ServeStartRequest r = request();
    QString url = serveBaseUrl(r.host, r.port);
    // Port 0: the port is known once the server listens; until then the examples say where it goes.
    if (r.port == 0) url.replace(QStringLiteral(":0/"), QStringLiteral(":PORT/"));
    return url;
}

void ServePage::start() {
    if (!modelReady_ || state_ != State::Idle || !controller_) return;
    const ServeStartRequest r = request();
    if (r.host.isEmpty()) {
        setStatus([this] { return tr("Give the address to listen on (127.0.0.1 serves this machine only)."); });
        return;
    }
    if (!allowOthers_->isChecked() && !isLoopback(r.host)) {
        const QString host = r.host;
        setStatus([this, host] {
            return tr("%1 is not a loopback address: to let other machines reach the server, tick “%2” instead.")
                .arg(host, withoutMnemonic(allowOthers_->text()));
        });
        return;
    }
    state_ = State::Starting;
    counters_ = {};
    ticks_.clear();
    setStatus([this] { return tr("Starting… (the server starts once the engine has finished the work in front of it)"); });
    updateEnabled();
    controller_->prepareStart();
    emit startRequested(r);
}

void ServePage::stop() {
    if (state_ != State::Starting && state_ != State::Serving) return;
    state_ = State::Stopping;
    setStatus([this] { return tr("Stopping…"); });
    updateEnabled();
    controller_->requestStop();
}

void ServePage::onStarted(const ServeStarted& info) {
    server_ = info;
    if (state_ == State::Stopping) return;   // Stop came first: stopped() follows
    state_ = State::Serving;
    servingSince_.start();
    speedTimer_->start();
    updateExamples();
    updateCounters();
    const ServeStarted s = info;
    setStatus([this, s] {
        return tr("Serving %1 on %2 (%3, batch up to %4, %5 positions per request, prefix cache %6). While it serves, the server "
                  "holds the engine: the other pages' work waits until you stop it.")
            .arg(s.modelId, serveBaseUrl(s.host, s.port),
                 s.staticBatching ? tr("static batching") : tr("continuous batching"))
            .arg(s.maxBatch)
            .arg(s.contextLength)
            .arg(s.prefixCache ? tr("on") : tr("off"));
    });
    updateEnabled();
    emit serverStarted();
    emit engineHoldChanged();
}

QString ServePage::engineHoldNotice() const {
    if (state_ != State::Serving) return {};
    return tr("The server holds the model: stop it on the Serve page to go on here.");
}

void ServePage::onCounters(const ServeCounters& c) {
    counters_.served = c.served;
    counters_.failed = c.failed;
    counters_.generatedTokens = c.generatedTokens;
    counters_.running = c.running;
    counters_.waiting = c.waiting;
    ticks_ += c.ticks;
    updateCounters();
}

void ServePage::onStopped() {
    const bool wasStarted = state_ == State::Serving || (state_ == State::Stopping && servingSince_.isValid());
    const bool failedToStart = state_ == State::Starting;
    state_ = State::Idle;
    speedTimer_->stop();
    servingSince_.invalidate();
    counters_.running = counters_.waiting = 0;
    updateCounters();
    if (std::exchange(stoppedForLoad_, false)) {
        setStatus([this] { return tr("The server stopped to let the new model load."); });
    } else if (!failedToStart) {
        const int served = counters_.served;
        setStatus([this, wasStarted, served] {
            return wasStarted ? tr("Stopped after %n request(s): the port is free and the engine is back for the other pages.", nullptr, served)
                              : tr("Not started.");
        });
    }
    updateExamples();
    updateEnabled();
    emit serverStopped();
    emit engineHoldChanged();
}

double ServePage::tokensPerSecond() const {
    if (state_ != State::Serving || !servingSince_.isValid()) return 0.0;
    const qint64 now = steadyMs();
    const qint64 window = std::min<qint64>(kSpeedWindowMs, std::max<qint64>(1, servingSince_.elapsed()));
    qint64 tokens = 0;
    for (const ServeTick& t : ticks_)
        if (t.atMs > now - window) tokens += t.tokens;
    return 1000.0 * double(tokens) / double(window);
}

void ServePage::updateCounters() {
    const qint64 now = steadyMs();
    while (!ticks_.isEmpty() && ticks_.first().atMs <= now - kSpeedWindowMs) ticks_.removeFirst();
    const QLocale loc;
    // Not the log's row count: the log also lists /v1/models, /health and requests refused before
    // they generated anything (the tour read the two as disagreeing).
    served_->setText(tr("Completions served: %1").arg(counters_.served) +
                     (counters_.failed > 0 ? QLatin1Char(' ') + tr("(%1 cancelled or failed)").arg(counters_.failed) : QString()));
    served_->setToolTip(tr("Completion and chat requests that generated their answer to the end (a stop or the token limit). "
                           "The request log below lists every request, also /v1/models, /health and those refused before "
                           "generating."));
    running_->setText(tr("Running: %1").arg(counters_.running));
    waiting_->setText(tr("Waiting: %1").arg(counters_.waiting));
    const double tps = tokensPerSecond();
    speed_->setText(tr("Decode tokens/s (last %1 s): %2").arg(kSpeedWindowMs / 1000).arg(loc.toString(tps, 'f', 1)));
    speed_->setToolTip(tr("Tokens the decode steps produced in the last %1 seconds, from the serving loop's steps").arg(kSpeedWindowMs / 1000));
    const double shown = state_ == State::Serving ? tps : -1.0;
    if (status_.tokensPerSecond != shown) {
        status_.tokensPerSecond = shown;
        emit statusChanged();
    }
}

void ServePage::fitCodeBoxes() {
    // Room for the Python example's 15 lines where the window has it, 5 at least: the examples
    // come first, the request log takes what they leave (it took it all, and the example
    // scrolled both ways at 1024 × 700). A box stops where its text does (its layout's
    // SetMinAndMaxSize, in build()): beyond that the text stood centred in a taller frame and the
    // log got 130 px at 1920 × 1080.
    // Laid-out lines (widgets::textBoxHeight), not QFontMetrics' rounded line spacing: at
    // presentation mode's 14.4 pt that came 7 px short and the last line scrolled.
    for (QPlainTextEdit* e : {curl_, python_}) {
        e->setMinimumHeight(widgets::textBoxHeight(e, 5));
        e->setMaximumHeight(widgets::textBoxHeight(e, 15) + int(e->document()->documentMargin()) + 4);
    }
}

void ServePage::fitLogFont() {
    logView_->verticalHeader()->setDefaultSectionSize(logView_->fontMetrics().height() + 6);
    logView_->setMinimumHeight(logView_->fontMetrics().lineSpacing() * 5);
    fitLogColumns();
}

void ServePage::fitLogColumns() {
    for (int c = 0; c < RequestLogModel::FinishColumn; ++c) logView_->resizeColumnToContents(c);
}

void ServePage::updateExamples() {
    const QString url = baseUrl();
    const QString id = state_ == State::Serving || !server_.modelId.isEmpty() ? server_.modelId
                                                                               : (engine_ && !engine_->modelName().isEmpty() ? engine_->modelName()
                                                                                                                             : QStringLiteral("decoding-lab"));
    url_->setText(url);
    curl_->setPlainText(curlExample(url, id));
    python_->setPlainText(pythonExample(url, id));
}

void ServePage::updateEnabled() {
    const bool idle = state_ == State::Idle;
    start_->setEnabled(modelReady_ && idle);
    stop_->setEnabled(state_ == State::Starting || state_ == State::Serving);
    for (QWidget* w : std::initializer_list<QWidget*>{allowOthers_, port_, maxBatch_, context_, mode_, prefixCache_}) w->setEnabled(idle);
    host_->setEnabled(idle && !allowOthers_->isChecked());
}

void ServePage::setModelReady(bool ready) {
    modelReady_ = ready;
    server_.modelId.clear();   // the examples name the new model
    status_ = {};
    status_.contextToolTip = tr("The Serve page uses no context of its own");
    emit statusChanged();
    updateExamples();
    updateEnabled();
}

void ServePage::setStatus(std::function<QString()> text) {
    statusText_ = std::move(text);
    statusLabel_->setText(statusText_ ? statusText_() : QString());
}

void ServePage::saveSettings(QSettings& s) const {
    s.setValue(QStringLiteral("serve/host"), host_->text());
    s.setValue(QStringLiteral("serve/allowOthers"), allowOthers_->isChecked());
    s.setValue(QStringLiteral("serve/port"), port_->value());
    s.setValue(QStringLiteral("serve/maxBatch"), maxBatch_->value());
    s.setValue(QStringLiteral("serve/context"), context_->value());
    s.setValue(QStringLiteral("serve/static"), mode_->currentData().toBool());
    s.setValue(QStringLiteral("serve/prefixCache"), prefixCache_->isChecked());
}

void ServePage::restoreSettings(QSettings& s) {
    host_->setText(s.value(QStringLiteral("serve/host"), QStringLiteral("127.0.0.1")).toString());
    // Listening on every address is chosen each time, never restored behind the user's back.
    allowOthers_->setChecked(false);
    port_->setValue(s.value(QStringLiteral("serve/port"), 8080).toInt());
    maxBatch_->setValue(s.value(QStringLiteral("serve/maxBatch"), 8).toInt());
    context_->setValue(s.value(QStringLiteral("serve/context"), 2048).toInt());
    mode_->setCurrentIndex(s.value(QStringLiteral("serve/static"), false).toBool() ? 1 : 0);
    prefixCache_->setChecked(s.value(QStringLiteral("serve/prefixCache"), true).toBool());
}

void ServePage::retranslate() {
    hostLabel_->setText(tr("&Address"));
    host_->setToolTip(tr("The address to listen on: 127.0.0.1 serves this machine only"));
    allowOthers_->setText(tr("Allow other &machines (listen on all addresses)"));
    allowOthers_->setToolTip(tr("Listen on 0.0.0.0, so that other machines on the network can reach the server"));
    warning_->setText(tr("⚠ Other machines on the network can reach this server and use the model: it has no password. "
                         "Untick the box to serve this machine only."));
    portLabel_->setText(tr("&Port"));
    port_->setToolTip(tr("0 picks any free port"));
    port_->setSpecialValueText(tr("any"));
    {
        // Wide enough for the special text as for 65535 (QSpinBox sizes itself for its numbers).
        const QFontMetrics fm = port_->fontMetrics();
        const int extra = fm.horizontalAdvance(port_->specialValueText()) - fm.horizontalAdvance(QStringLiteral("65535"));
        port_->setMinimumWidth(0);
        port_->setMinimumWidth(port_->sizeHint().width() + std::max(0, extra) + fm.averageCharWidth());
    }
    maxBatchLabel_->setText(tr("Max &batch"));
    maxBatch_->setToolTip(tr("Requests decoded together in one step"));
    contextLabel_->setText(tr("C&ontext"));
    context_->setToolTip(tr("Positions per request (prompt and answer), at most the model's trained context"));
    modeLabel_->setText(tr("Batchin&g"));
    mode_->setItemText(0, tr("continuous"));
    mode_->setItemText(1, tr("static"));
    mode_->setToolTip(tr("Continuous: a request joins the batch at the next step. Static: a batch runs until its longest request is done."));
    prefixCache_->setText(tr("Prefix &cache"));
    prefixCache_->setToolTip(tr("Reuse the KV blocks of prompt prefixes that earlier requests computed"));
    start_->setText(tr("Sta&rt"));
    start_->setToolTip(tr("Start the server (F5)"));
    stop_->setText(tr("S&top"));
    stop_->setToolTip(tr("Stop the server; open requests end as cancelled (Esc)"));
    urlTitle_->setText(tr("Base URL:"));
    curlBox_->setTitle(tr("curl"));
    pythonBox_->setTitle(tr("Python (openai package)"));
    copyCurl_->setText(tr("Copy"));
    copyCurl_->setToolTip(tr("Copy the curl command"));
    copyPython_->setText(tr("Copy"));
    copyPython_->setToolTip(tr("Copy the Python example"));
    logTitle_->setText(tr("Requests"));
    log_->retranslate();
    fitLogColumns();
    updateCounters();
    if (statusText_) statusLabel_->setText(statusText_());
    else
        statusLabel_->setText(tr("Start the server to use the loaded model from other programs through the OpenAI API. While it "
                                 "serves, it holds the engine: the other pages' work waits until it stops."));
}

void ServePage::changeEvent(QEvent* e) {
    if (e->type() == QEvent::LanguageChange) retranslate();
    // Presentation mode and zoom: the columns and rows measured at the old font cut the headings
    // ("Tokens (prompt + completion)" 205 px of 288), the examples kept 15 lines of the old size.
    // Once every child has its new font.
    if (e->type() == QEvent::FontChange)
        QTimer::singleShot(0, this, [this] {
            fitLogFont();
            fitCodeBoxes();
        });
    // The window disables its pages while it loads a model; the load waits for the engine, so the
    // server makes way for it.
    if (e->type() == QEvent::EnabledChange && !isEnabled() && (state_ == State::Starting || state_ == State::Serving)) {
        stoppedForLoad_ = true;
        stop();
    }
    Page::changeEvent(e);
}

}  // namespace dlab::ui
