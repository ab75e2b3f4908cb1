// The playground's two item models, offscreen, each watched by QAbstractItemModelTester while
// it is exercised:
//  * StageOrderModel: every kind of move (moveStage / moveRows with Qt's destination rule,
//    drag-and-drop through mimeData() + dropMimeData(), a drop on a real QListView), check
//    boxes, setOrder() with unknown and missing names, reset(); order() after each, and
//    orderChanged() exactly when something changed; the order string is one the engine takes.
//  * CandidateTableModel: formatting and raw values per role, styles, header tooltips, and a
//    same-size update that signals only the after-chain columns.
#include <QAbstractItemModelTester>
#include <QtTest>
#include <QtWidgets>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "sampling/sampler_params.h"
#include "ui/playground/candidate_table_model.h"
#include "ui/playground/stage_order_model.h"
#include "widgets/sampler_waterfall.h"

using dlab::ui::CandidateRow;
using dlab::ui::CandidateTableModel;
using dlab::ui::StageOrderModel;

namespace {

// Short names for the data tables: R F T K P M = the default stages in their default order.
QString expand(const QString& letters) {
    static const QHash<QChar, QString> names = {
        {'R', "repetition"}, {'F', "freq-presence"}, {'T', "temperature"},
        {'K', "top-k"},      {'P', "top-p"},         {'M', "min-p"}};
    QStringList out;
    for (QChar c : letters) out << names.value(c);
    return out.join(',');
}

QStringList expandList(const QString& letters) {
    return letters.isEmpty() ? QStringList{} : expand(letters).split(',');
}

QStringList checkedStages(const StageOrderModel& m) {
    QStringList out;
    for (int r = 0; r < m.rowCount(); ++r)
        if (m.index(r).data(Qt::CheckStateRole).toInt() == Qt::Checked) out << m.index(r).data(Qt::UserRole).toString();
    return out;
}

QStringList shownStages(const StageOrderModel& m) {
    QStringList out;
    for (int r = 0; r < m.rowCount(); ++r) out << m.index(r).data(Qt::UserRole).toString();
    return out;
}

QList<CandidateRow> makeRows(int n) {
    QList<CandidateRow> rows;
    for (int i = 0; i < n; ++i) {
        CandidateRow r;
        r.id = 100 + i;
        r.text = QStringLiteral("tok%1").arg(i);
        r.logit = 10.0 - i;
        r.rawP = 0.5 / (i + 1);
        r.removed = i >= 3;
        r.finalP = r.removed ? 0.0 : 0.3;
        r.chosen = i == 1;
        rows << r;
    }
    return rows;
}

}  // namespace

class TestGuiModels : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QLocale::setDefault(QLocale::c()); }

    // ---- StageOrderModel -------------------------------------------------------------------

    void stageDefaults() {
        StageOrderModel m(StageOrderModel::defaultStages());
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(StageOrderModel::defaultStages(), expandList("RFTKPM"));
        QCOMPARE(m.rowCount(), 6);
        QCOMPARE(m.stages(), StageOrderModel::defaultStages());
        QCOMPARE(m.order(), expand("RFTKPM"));
        QCOMPARE(shownStages(m), m.stages());
        for (int r = 0; r < m.rowCount(); ++r) {
            const QModelIndex i = m.index(r);
            QVERIFY(!i.data(Qt::DisplayRole).toString().isEmpty());
            QVERIFY(!i.data(Qt::ToolTipRole).toString().isEmpty());
            QCOMPARE(i.data(Qt::DisplayRole).toString(), dlab::widgets::stageTitle(m.stages()[r]));
            QCOMPARE(i.data(Qt::ToolTipRole).toString(), dlab::widgets::stageExplanation(m.stages()[r]));
            QCOMPARE(i.data(Qt::CheckStateRole).toInt(), int(Qt::Checked));
            QVERIFY(m.isEnabled(m.stages()[r]));
            const Qt::ItemFlags f = m.flags(i);
            QVERIFY(f & Qt::ItemIsSelectable);
            QVERIFY(f & Qt::ItemIsEnabled);
            QVERIFY(f & Qt::ItemIsUserCheckable);
            QVERIFY(f & Qt::ItemIsDragEnabled);
            QVERIFY(!(f & Qt::ItemIsDropEnabled));   // drops go between items, never onto one
        }
        QVERIFY(m.flags({}) & Qt::ItemIsDropEnabled);
        QCOMPARE(m.supportedDropActions(), Qt::DropActions(Qt::MoveAction));
        QCOMPARE(m.mimeTypes(), QStringList{"application/x-dlab-stage"});
        QVERIFY(!m.isEnabled("no-such-stage"));
    }

    // moveStage(from, to): the stage at `from` ends up at row `to`.
    void stageMove_data() {
        QTest::addColumn<int>("from");
        QTest::addColumn<int>("to");
        QTest::addColumn<QString>("expected");   // letters, see expand()
        QTest::addColumn<bool>("changed");
        QTest::newRow("first to last") << 0 << 5 << "FTKPMR" << true;
        QTest::newRow("last to first") << 5 << 0 << "MRFTKP" << true;
        QTest::newRow("down by one") << 2 << 3 << "RFKTPM" << true;
        QTest::newRow("up by one") << 3 << 2 << "RFKTPM" << true;
        QTest::newRow("first down by one") << 0 << 1 << "FRTKPM" << true;
        QTest::newRow("last up by one") << 5 << 4 << "RFTKMP" << true;
        QTest::newRow("down by two") << 1 << 3 << "RTKFPM" << true;
        QTest::newRow("up by three") << 4 << 1 << "RPFTKM" << true;
        QTest::newRow("no-op") << 2 << 2 << "RFTKPM" << false;
        QTest::newRow("from out of range") << -1 << 2 << "RFTKPM" << false;
        QTest::newRow("to out of range") << 0 << 6 << "RFTKPM" << false;
    }

    void stageMove() {
        QFETCH(int, from);
        QFETCH(int, to);
        QFETCH(QString, expected);
        QFETCH(bool, changed);
        StageOrderModel m(StageOrderModel::defaultStages());
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy order(&m, &StageOrderModel::orderChanged);
        QSignalSpy moved(&m, &QAbstractItemModel::rowsMoved);
        QCOMPARE(m.moveStage(from, to), changed);
        QCOMPARE(m.order(), expand(expected));
        QCOMPARE(shownStages(m), expandList(expected));
        QCOMPARE(order.count(), changed ? 1 : 0);
        QCOMPARE(moved.count(), changed ? 1 : 0);
        if (changed) QCOMPARE(m.index(to).data(Qt::UserRole).toString(), StageOrderModel::defaultStages()[from]);
    }

    // moveRows() with Qt's rule: destinationChild is the row (counted before the move) the
    // moved rows are inserted before; what QListView's InternalMove calls.
    void stageMoveRows_data() {
        QTest::addColumn<int>("sourceRow");
        QTest::addColumn<int>("count");
        QTest::addColumn<int>("destinationChild");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<bool>("changed");
        QTest::newRow("first to end") << 0 << 1 << 6 << "FTKPMR" << true;
        QTest::newRow("last to front") << 5 << 1 << 0 << "MRFTKP" << true;
        QTest::newRow("down by one (before row + 2)") << 2 << 1 << 4 << "RFKTPM" << true;
        QTest::newRow("up by one") << 3 << 1 << 2 << "RFKTPM" << true;
        QTest::newRow("before itself") << 2 << 1 << 2 << "RFTKPM" << false;
        QTest::newRow("right after itself") << 2 << 1 << 3 << "RFTKPM" << false;
        QTest::newRow("two rows down") << 0 << 2 << 4 << "TKRFPM" << true;
        QTest::newRow("two rows up") << 3 << 2 << 1 << "RKPFTM" << true;
        QTest::newRow("two rows into themselves") << 1 << 2 << 2 << "RFTKPM" << false;
        QTest::newRow("destination past end") << 0 << 1 << 7 << "RFTKPM" << false;
        QTest::newRow("count past end") << 5 << 2 << 0 << "RFTKPM" << false;
        QTest::newRow("zero count") << 1 << 0 << 4 << "RFTKPM" << false;
    }

    void stageMoveRows() {
        QFETCH(int, sourceRow);
        QFETCH(int, count);
        QFETCH(int, destinationChild);
        QFETCH(QString, expected);
        QFETCH(bool, changed);
        StageOrderModel m(StageOrderModel::defaultStages());
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy order(&m, &StageOrderModel::orderChanged);
        QCOMPARE(m.moveRows({}, sourceRow, count, {}, destinationChild), changed);
        QCOMPARE(m.order(), expand(expected));
        QCOMPARE(order.count(), changed ? 1 : 0);
        // A valid parent is never accepted (a flat list).
        QVERIFY(!m.moveRows(m.index(0), 0, 1, {}, 3));
    }

    // A sequence of moves keeps the check boxes with their stages.
    void stageMoveKeepsChecks() {
        StageOrderModel m(StageOrderModel::defaultStages());
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.setEnabled("top-k", false);
        m.setEnabled("repetition", false);
        QCOMPARE(m.order(), expand("FTPM"));
        QSignalSpy order(&m, &StageOrderModel::orderChanged);
        QVERIFY(m.moveStage(3, 0));   // top-k first (unchecked: order() is the same, the list is not)
        QCOMPARE(order.count(), 1);
        QCOMPARE(m.order(), expand("FTPM"));
        QVERIFY(m.moveStage(5, 1));   // min-p second
        QVERIFY(m.moveStage(2, 5));   // repetition last
        QCOMPARE(shownStages(m), expandList("KMFTPR"));
        QCOMPARE(checkedStages(m), expandList("MFTP"));
        QCOMPARE(m.order(), expand("MFTP"));
        QCOMPARE(order.count(), 3);
        QVERIFY(!m.isEnabled("top-k"));
        QCOMPARE(m.index(0).data(Qt::CheckStateRole).toInt(), int(Qt::Unchecked));
    }

    void stageCheck_data() {
        QTest::addColumn<int>("row");
        QTest::addColumn<QVariant>("value");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<bool>("changed");
        QTest::newRow("uncheck (int)") << 2 << QVariant(int(Qt::Unchecked)) << "RFKPM" << true;
        QTest::newRow("uncheck (enum, as a delegate sends it)") << 0 << QVariant::fromValue(Qt::Unchecked) << "FTKPM" << true;
        QTest::newRow("check a checked one") << 4 << QVariant(int(Qt::Checked)) << "RFTKPM" << false;
        QTest::newRow("uncheck the last") << 5 << QVariant(int(Qt::Unchecked)) << "RFTKP" << true;
    }

    void stageCheck() {
        QFETCH(int, row);
        QFETCH(QVariant, value);
        QFETCH(QString, expected);
        QFETCH(bool, changed);
        StageOrderModel m(StageOrderModel::defaultStages());
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy order(&m, &StageOrderModel::orderChanged);
        QSignalSpy data(&m, &QAbstractItemModel::dataChanged);
        QVERIFY(m.setData(m.index(row), value, Qt::CheckStateRole));
        QCOMPARE(m.order(), expand(expected));
        QCOMPARE(order.count(), changed ? 1 : 0);
        QCOMPARE(data.count(), changed ? 1 : 0);
        if (changed) {
            QCOMPARE(data[0][0].toModelIndex(), m.index(row));
            QCOMPARE(data[0][1].toModelIndex(), m.index(row));
            // Check it again: back to the full order, one more signal.
            QVERIFY(m.setData(m.index(row), int(Qt::Checked), Qt::CheckStateRole));
            QCOMPARE(m.order(), expand("RFTKPM"));
            QCOMPARE(order.count(), 2);
        }
        // Only the check state is editable.
        QVERIFY(!m.setData(m.index(row), "renamed", Qt::DisplayRole));
        QVERIFY(!m.setData(m.index(row), "renamed", Qt::UserRole));
        QCOMPARE(m.index(row).data(Qt::UserRole).toString(), StageOrderModel::defaultStages()[row]);
    }

    void stageSetEnabled() {
        StageOrderModel m(StageOrderModel::defaultStages());
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy order(&m, &StageOrderModel::orderChanged);
        for (const QString& s : StageOrderModel::defaultStages()) m.setEnabled(s, false);
        QCOMPARE(order.count(), 6);
        QCOMPARE(m.order(), QString());
        m.setEnabled("top-p", false);       // already off
        m.setEnabled("no-such-stage", true);  // ignored
        QCOMPARE(order.count(), 6);
        m.setEnabled("top-p", true);
        QCOMPARE(m.order(), QString("top-p"));
        QCOMPARE(order.count(), 7);
        QVERIFY(m.isEnabled("top-p"));
        QVERIFY(!m.isEnabled("top-k"));
    }

    void stageSetOrder_data() {
        QTest::addColumn<QStringList>("stages");
        QTest::addColumn<QStringList>("enabled");
        QTest::addColumn<QString>("expectedStages");
        QTest::addColumn<QString>("expectedOrder");
        QTest::newRow("all, reordered") << expandList("MPKTFR") << expandList("MPKTFR") << "MPKTFR" << "MPKTFR";
        QTest::newRow("some unchecked") << expandList("TKPMRF") << expandList("TPM") << "TKPMRF" << "TPM";
        QTest::newRow("unknown names dropped")
            << QStringList{"top-p", "bogus", "temperature", "dry", "logit-bias"}
            << QStringList{"top-p", "bogus", "temperature", "dry"} << "PTRFKM" << "PT";
        QTest::newRow("missing appended unchecked") << expandList("KT") << expandList("KT") << "KTRFPM" << "KT";
        QTest::newRow("enabled but not listed: appended unchecked") << expandList("P") << expandList("PK") << "PRFTKM" << "P";
        QTest::newRow("duplicates dropped") << expandList("TTKT") << expandList("T") << "TKRFPM" << "T";
        QTest::newRow("empty: defaults, none checked") << QStringList{} << QStringList{} << "RFTKPM" << "";
    }

    void stageSetOrder() {
        QFETCH(QStringList, stages);
        QFETCH(QStringList, enabled);
        QFETCH(QString, expectedStages);
        QFETCH(QString, expectedOrder);
        StageOrderModel m(StageOrderModel::defaultStages());
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy order(&m, &StageOrderModel::orderChanged);
        QSignalSpy reset(&m, &QAbstractItemModel::modelReset);
        m.setOrder(stages, enabled);
        QCOMPARE(m.stages(), expandList(expectedStages));
        QCOMPARE(shownStages(m), expandList(expectedStages));
        QCOMPARE(m.order(), expand(expectedOrder));
        QCOMPARE(checkedStages(m), expandList(expectedOrder));
        QCOMPARE(order.count(), 1);
        QCOMPARE(reset.count(), 1);
        // The same again changes nothing and says nothing.
        m.setOrder(stages, enabled);
        QCOMPARE(order.count(), 1);
        QCOMPARE(reset.count(), 1);
        // A saved list restores exactly.
        StageOrderModel restored(StageOrderModel::defaultStages());
        QStringList on;
        for (const QString& s : m.stages())
            if (m.isEnabled(s)) on << s;
        restored.setOrder(m.stages(), on);
        QCOMPARE(restored.stages(), m.stages());
        QCOMPARE(restored.order(), m.order());
    }

    void stageSetOrderDefaultIsSilent() {
        StageOrderModel m(StageOrderModel::defaultStages());
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy order(&m, &StageOrderModel::orderChanged);
        m.setOrder(StageOrderModel::defaultStages(), StageOrderModel::defaultStages());
        m.reset();
        QCOMPARE(order.count(), 0);
    }

    void stageReset() {
        StageOrderModel m(StageOrderModel::defaultStages());
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(m.moveStage(0, 5));
        m.setEnabled("top-p", false);
        QSignalSpy order(&m, &StageOrderModel::orderChanged);
        QSignalSpy reset(&m, &QAbstractItemModel::modelReset);
        m.reset();
        QCOMPARE(m.stages(), StageOrderModel::defaultStages());
        QCOMPARE(m.order(), expand("RFTKPM"));
        QCOMPARE(order.count(), 1);
        QCOMPARE(reset.count(), 1);
        m.reset();
        QCOMPARE(order.count(), 1);
    }

    // What a drag in a QListView hands the model: mimeData() of the dragged row, then
    // dropMimeData() with the row the drop lands before (-1: below the last item).
    void stageDragDrop_data() {
        QTest::addColumn<int>("dragRow");
        QTest::addColumn<int>("dropRow");
        QTest::addColumn<int>("dropOnItem");   // -1, or the row of the item the drop lands on
        QTest::addColumn<QString>("expected");
        QTest::addColumn<bool>("changed");
        QTest::newRow("first to the end") << 0 << 6 << -1 << "FTKPMR" << true;
        QTest::newRow("first below the last (row -1)") << 0 << -1 << -1 << "FTKPMR" << true;
        QTest::newRow("last to the front") << 5 << 0 << -1 << "MRFTKP" << true;
        QTest::newRow("down by one") << 2 << 4 << -1 << "RFKTPM" << true;
        QTest::newRow("up by one") << 3 << 2 << -1 << "RFKTPM" << true;
        QTest::newRow("above itself") << 2 << 2 << -1 << "RFTKPM" << false;
        QTest::newRow("below itself") << 2 << 3 << -1 << "RFTKPM" << false;
        QTest::newRow("onto an item: before it") << 4 << -1 << 1 << "RPFTKM" << true;
    }

    void stageDragDrop() {
        QFETCH(int, dragRow);
        QFETCH(int, dropRow);
        QFETCH(int, dropOnItem);
        QFETCH(QString, expected);
        QFETCH(bool, changed);
        StageOrderModel m(StageOrderModel::defaultStages());
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        std::unique_ptr<QMimeData> mime(m.mimeData({m.index(dragRow)}));
        QVERIFY(mime);
        QVERIFY(mime->hasFormat("application/x-dlab-stage"));
        const QModelIndex parent = dropOnItem >= 0 ? m.index(dropOnItem) : QModelIndex();
        QVERIFY(m.canDropMimeData(mime.get(), Qt::MoveAction, dropRow, 0, parent));
        QSignalSpy order(&m, &StageOrderModel::orderChanged);
        QVERIFY(m.dropMimeData(mime.get(), Qt::MoveAction, dropRow, 0, parent));
        QCOMPARE(m.order(), expand(expected));
        QCOMPARE(order.count(), changed ? 1 : 0);
    }

    void stageDragDropRefused() {
        StageOrderModel m(StageOrderModel::defaultStages());
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy order(&m, &StageOrderModel::orderChanged);
        std::unique_ptr<QMimeData> mime(m.mimeData({m.index(1)}));
        QVERIFY(!m.canDropMimeData(mime.get(), Qt::CopyAction, 0, 0, {}));
        QVERIFY(!m.dropMimeData(mime.get(), Qt::CopyAction, 0, 0, {}));   // a copy would duplicate a stage
        QMimeData text;
        text.setText("top-k");
        QVERIFY(!m.canDropMimeData(&text, Qt::MoveAction, 0, 0, {}));
        QVERIFY(!m.dropMimeData(&text, Qt::MoveAction, 0, 0, {}));
        QMimeData garbage;
        garbage.setData("application/x-dlab-stage", "\x01\x02");
        QVERIFY(!m.dropMimeData(&garbage, Qt::MoveAction, 0, 0, {}));
        QVERIFY(!m.mimeData({}));
        QCOMPARE(m.order(), expand("RFTKPM"));
        QCOMPARE(order.count(), 0);
    }

    // The drag carries the stage's name: a drop after the list changed still moves that stage.
    void stageDragDropStale() {
        StageOrderModel m(StageOrderModel::defaultStages());
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        std::unique_ptr<QMimeData> mime(m.mimeData({m.index(2)}));   // temperature
        QVERIFY(m.moveStage(0, 5));                                    // FTKPMR
        QVERIFY(m.dropMimeData(mime.get(), Qt::MoveAction, 0, 0, {}));
        QCOMPARE(m.order(), expand("TFKPMR"));
    }

    // Several rows dragged together land together, in their list order.
    void stageDragDropMany() {
        StageOrderModel m(StageOrderModel::defaultStages());
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy order(&m, &StageOrderModel::orderChanged);
        std::unique_ptr<QMimeData> mime(m.mimeData({m.index(3), m.index(1)}));
        QVERIFY(m.dropMimeData(mime.get(), Qt::MoveAction, 0, 0, {}));
        QCOMPARE(m.order(), expand("FKRTPM"));
        QCOMPARE(order.count(), 1);
        mime.reset(m.mimeData({m.index(0), m.index(1)}));
        QVERIFY(m.dropMimeData(mime.get(), Qt::MoveAction, -1, -1, {}));
        QCOMPARE(m.order(), expand("RTPMFK"));
        QCOMPARE(order.count(), 2);
    }

    // A drop on a real QListView: the view turns the drop position into (row, parent) and the
    // model moves the stage. (InternalMove itself needs a drag this view started, which the
    // offscreen platform cannot run; QListView then calls moveRows(), tested above. Here the
    // view is in DragDrop mode, which takes a synthetic QDropEvent.)
    void stageListViewDrop_data() {
        QTest::addColumn<int>("dragRow");
        QTest::addColumn<int>("targetRow");
        QTest::addColumn<bool>("upperHalf");   // of the target row's rectangle
        QTest::addColumn<QString>("expected");
        QTest::newRow("onto the upper half of row 0") << 4 << 0 << true << "PRFTKM";
        QTest::newRow("onto the lower half of row 3") << 0 << 3 << false << "FTKRPM";
        QTest::newRow("onto the lower half of the last row") << 1 << 5 << false << "RTKPMF";
        QTest::newRow("down by one") << 2 << 3 << false << "RFKTPM";
        QTest::newRow("onto itself") << 2 << 2 << true << "RFTKPM";
    }

    void stageListViewDrop() {
        QFETCH(int, dragRow);
        QFETCH(int, targetRow);
        QFETCH(bool, upperHalf);
        QFETCH(QString, expected);
        StageOrderModel m(StageOrderModel::defaultStages());
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QListView view;
        view.setModel(&m);
        view.setDragDropMode(QAbstractItemView::DragDrop);
        view.setDefaultDropAction(Qt::MoveAction);
        view.resize(240, 300);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QRect rect = view.visualRect(m.index(targetRow));
        QVERIFY(rect.isValid());
        const QPoint at(rect.center().x(), upperHalf ? rect.top() + rect.height() / 4 : rect.bottom() - rect.height() / 4);
        std::unique_ptr<QMimeData> mime(m.mimeData({m.index(dragRow)}));
        QDragEnterEvent enter(at, Qt::MoveAction, mime.get(), Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(view.viewport(), &enter);
        QVERIFY(enter.isAccepted());
        QDragMoveEvent move(at, Qt::MoveAction, mime.get(), Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(view.viewport(), &move);
        QVERIFY(move.isAccepted());
        QDropEvent drop(at, Qt::MoveAction, mime.get(), Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(view.viewport(), &drop);
        QVERIFY(drop.isAccepted());
        QCOMPARE(m.order(), expand(expected));
    }

    // The view's check box toggles the stage (the delegate sends a Qt::CheckState).
    void stageListViewCheck() {
        StageOrderModel m(StageOrderModel::defaultStages());
        QListView view;
        view.setModel(&m);
        view.resize(240, 300);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QSignalSpy order(&m, &StageOrderModel::orderChanged);
        const QModelIndex i = m.index(3);
        view.setCurrentIndex(i);
        QTest::keyClick(&view, Qt::Key_Space);   // toggles the current item's check box
        if (order.isEmpty()) QSKIP("this style does not toggle check boxes with the space key");
        QCOMPARE(m.order(), expand("RFTPM"));
        QCOMPARE(order.count(), 1);
    }

    // Whatever the list, order() is an order the engine accepts, resolving to the checked stages.
    void stageOrderAcceptedByEngine_data() {
        QTest::addColumn<QStringList>("stages");
        QTest::addColumn<QStringList>("enabled");
        QTest::newRow("defaults") << StageOrderModel::defaultStages() << StageOrderModel::defaultStages();
        QTest::newRow("reversed") << expandList("MPKTFR") << expandList("MPKTFR");
        QTest::newRow("temperature last") << expandList("RFKPMT") << expandList("RFKPMT");
        QTest::newRow("no penalties") << expandList("TKPMRF") << expandList("TKPM");
        QTest::newRow("one stage") << expandList("PRFTKM") << expandList("P");
    }

    void stageOrderAcceptedByEngine() {
        QFETCH(QStringList, stages);
        QFETCH(QStringList, enabled);
        StageOrderModel m(StageOrderModel::defaultStages());
        m.setOrder(stages, enabled);
        dlab::SamplerParams p;
        p.order = m.order().toStdString();
        try {
            p.validate();
        } catch (const std::exception& e) {
            QFAIL(e.what());
        }
        std::vector<std::string> expected;
        for (const QString& s : checkedStages(m)) expected.push_back(s.toStdString());
        QVERIFY(!expected.empty());
        QCOMPARE(dlab::resolveStageOrder(p.order), expected);
        // Also after moves made in the model.
        QVERIFY(m.moveStage(0, m.rowCount() - 1));
        QVERIFY(m.moveStage(m.rowCount() - 2, 1));
        p.order = m.order().toStdString();
        p.validate();
        expected.clear();
        for (const QString& s : checkedStages(m)) expected.push_back(s.toStdString());
        QCOMPARE(dlab::resolveStageOrder(p.order), expected);
    }

    // A language switch (QEvent::LanguageChange to the application) makes both models re-read
    // their translated texts: the views repaint titles, tooltips and headers.
    void languageChange() {
        StageOrderModel stages(StageOrderModel::defaultStages());
        CandidateTableModel table;
        table.setRows(makeRows(4));
        QSignalSpy stageData(&stages, &QAbstractItemModel::dataChanged);
        QSignalSpy tableData(&table, &QAbstractItemModel::dataChanged);
        QSignalSpy headers(&table, &QAbstractItemModel::headerDataChanged);
        QEvent change(QEvent::LanguageChange);
        QCoreApplication::sendEvent(QCoreApplication::instance(), &change);
        QCOMPARE(stageData.count(), 1);
        QCOMPARE(stageData[0][0].toModelIndex(), stages.index(0));
        QCOMPARE(stageData[0][1].toModelIndex(), stages.index(stages.rowCount() - 1));
        QCOMPARE(headers.count(), 1);
        QCOMPARE(headers[0][1].toInt(), 0);
        QCOMPARE(headers[0][2].toInt(), table.columnCount() - 1);
        QCOMPARE(tableData.count(), 1);
    }

    // ---- CandidateTableModel ---------------------------------------------------------------

    void candidateSizes_data() {
        QTest::addColumn<QList<int>>("sizes");
        QTest::newRow("0") << QList<int>{0};
        QTest::newRow("5") << QList<int>{5};
        QTest::newRow("20") << QList<int>{20};
        QTest::newRow("0 5 20 5 0") << QList<int>{0, 5, 20, 5, 0};
        QTest::newRow("same size twice") << QList<int>{5, 5, 20, 20};
    }

    void candidateSizes() {
        QFETCH(QList<int>, sizes);
        CandidateTableModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(m.rowCount(), 0);
        QCOMPARE(m.columnCount(), 7);
        for (int n : sizes) {
            QSignalSpy reset(&m, &QAbstractItemModel::modelReset);
            const bool resize = n != m.rowCount();
            m.setRows(makeRows(n));
            QCOMPARE(m.rowCount(), n);
            QCOMPARE(m.columnCount(), int(CandidateTableModel::ColumnCount));
            QCOMPARE(m.rows(), makeRows(n));
            QCOMPARE(reset.count(), resize ? 1 : 0);
            QCOMPARE(m.rowCount(m.index(0, 0)), 0);
        }
        m.clear();
        QCOMPARE(m.rowCount(), 0);
    }

    void candidateDisplay_data() {
        QTest::addColumn<double>("logit");
        QTest::addColumn<double>("rawP");
        QTest::addColumn<double>("finalP");
        QTest::addColumn<QString>("logitText");
        QTest::addColumn<QString>("rawText");
        QTest::addColumn<QString>("finalText");
        QTest::newRow("big") << 3.14159 << 0.4531 << 0.9999 << "3.14" << "45.3%" << "100.0%";
        QTest::newRow("small") << -12.0 << 0.0042 << 0.05 << "-12.00" << "0.42%" << "5.00%";
        QTest::newRow("tiny") << 0.004 << 0.0000001 << 0.0 << "0.00" << "<0.01%" << "0%";
        QTest::newRow("banned") << -std::numeric_limits<double>::infinity() << 0.0 << 0.0 << "-∞" << "0%" << "0%";
        QTest::newRow("ten percent") << 1.005 << 0.1 << 0.0999 << "1.00" << "10.0%" << "9.99%";
    }

    void candidateDisplay() {
        QFETCH(double, logit);
        QFETCH(double, rawP);
        QFETCH(double, finalP);
        QFETCH(QString, logitText);
        QFETCH(QString, rawText);
        QFETCH(QString, finalText);
        CandidateTableModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QList<CandidateRow> rows = makeRows(3);
        rows[2] = CandidateRow{42, QStringLiteral("␣the"), logit, rawP, finalP, false, false};
        m.setRows(rows);
        auto cell = [&](int col, int role = Qt::DisplayRole) { return m.index(2, col).data(role); };
        QCOMPARE(cell(CandidateTableModel::RankColumn).toString(), QString("3"));
        QCOMPARE(cell(CandidateTableModel::TokenColumn).toString(), QString("␣the"));
        QCOMPARE(cell(CandidateTableModel::IdColumn).toString(), QString("42"));
        QCOMPARE(cell(CandidateTableModel::LogitColumn).toString(), logitText);
        QCOMPARE(cell(CandidateTableModel::RawPColumn).toString(), rawText);
        QCOMPARE(cell(CandidateTableModel::FinalPColumn).toString(), finalText);
        QCOMPARE(cell(CandidateTableModel::KeptColumn).toString(), QString("✓"));
        // The raw values behind the text.
        QCOMPARE(cell(CandidateTableModel::RankColumn, Qt::UserRole).toInt(), 3);
        QCOMPARE(cell(CandidateTableModel::TokenColumn, Qt::UserRole).toString(), QString("␣the"));
        QCOMPARE(cell(CandidateTableModel::IdColumn, Qt::UserRole).toInt(), 42);
        QCOMPARE(cell(CandidateTableModel::LogitColumn, Qt::UserRole).toDouble(), logit);
        QCOMPARE(cell(CandidateTableModel::RawPColumn, Qt::UserRole).toDouble(), rawP);
        QCOMPARE(cell(CandidateTableModel::FinalPColumn, Qt::UserRole).toDouble(), finalP);
        QCOMPARE(cell(CandidateTableModel::KeptColumn, Qt::UserRole).toBool(), true);
        QCOMPARE(CandidateTableModel::formatPercent(rawP), rawText);
        QCOMPARE(CandidateTableModel::formatLogit(logit), logitText);
    }

    void candidateStyles() {
        CandidateTableModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.setRows(makeRows(5));   // row 1 chosen, rows 3 and 4 removed
        const QColor grey = QGuiApplication::palette().color(QPalette::Disabled, QPalette::Text);
        for (int c = 0; c < m.columnCount(); ++c) {
            QVERIFY(m.index(1, c).data(Qt::FontRole).value<QFont>().bold());
            QVERIFY(!m.index(0, c).data(Qt::FontRole).isValid());
            QCOMPARE(m.index(3, c).data(Qt::ForegroundRole).value<QColor>(), grey);
            QVERIFY(!m.index(0, c).data(Qt::ForegroundRole).isValid());
            QVERIFY(!m.index(1, c).data(Qt::ForegroundRole).isValid());
            const auto align = Qt::Alignment(m.index(0, c).data(Qt::TextAlignmentRole).toInt());
            const bool number = c != CandidateTableModel::TokenColumn && c != CandidateTableModel::KeptColumn;
            QCOMPARE(bool(align & Qt::AlignRight), number);
        }
        QCOMPARE(m.index(3, CandidateTableModel::KeptColumn).data().toString(), QString("removed"));
        QCOMPARE(m.index(3, CandidateTableModel::KeptColumn).data(Qt::UserRole).toBool(), false);
        QVERIFY(m.index(1, CandidateTableModel::KeptColumn).data().toString().startsWith("✓"));
        QVERIFY(!m.index(3, CandidateTableModel::KeptColumn).data(Qt::ToolTipRole).toString().isEmpty());
        QVERIFY(!(m.flags(m.index(0, 0)) & Qt::ItemIsEditable));
    }

    void candidateHeaders() {
        CandidateTableModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QStringList titles;
        for (int c = 0; c < m.columnCount(); ++c) {
            const QString title = m.headerData(c, Qt::Horizontal).toString();
            QVERIFY(!title.isEmpty());
            QVERIFY(!titles.contains(title));
            titles << title;
            const QString tip = m.headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString();
            QVERIFY2(tip.size() > 20 && tip.endsWith('.'), qPrintable(tip));
        }
        QCOMPARE(titles.first(), QString("Rank"));
        QVERIFY(!m.headerData(m.columnCount(), Qt::Horizontal).isValid());
    }

    // A slider move: same tokens, new after-chain values. Only those columns are signalled,
    // plus the style roles of rows whose removed / chosen flag changed.
    void candidateSameSizeUpdate_data() {
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("left");     // expected first signal's columns, -1 = no signal
        QTest::addColumn<int>("right");
        QTest::addColumn<int>("top");
        QTest::addColumn<int>("bottom");
        QTest::addColumn<QList<int>>("restyledRows");
        QTest::newRow("nothing changed") << 0 << -1 << -1 << -1 << -1 << QList<int>{};
        QTest::newRow("p after changed") << 1 << int(CandidateTableModel::FinalPColumn)
                                         << int(CandidateTableModel::FinalPColumn) << 0 << 2 << QList<int>{};
        QTest::newRow("a token removed") << 2 << int(CandidateTableModel::FinalPColumn)
                                         << int(CandidateTableModel::KeptColumn) << 0 << 2 << QList<int>{2};
        QTest::newRow("another token chosen") << 3 << int(CandidateTableModel::KeptColumn)
                                              << int(CandidateTableModel::KeptColumn) << 0 << 1 << QList<int>{0, 1};
        QTest::newRow("a new step, same count") << 4 << int(CandidateTableModel::TokenColumn)
                                                << int(CandidateTableModel::IdColumn) << 0 << 19 << QList<int>{};
    }

    void candidateSameSizeUpdate() {
        QFETCH(int, kind);
        QFETCH(int, left);
        QFETCH(int, right);
        QFETCH(int, top);
        QFETCH(int, bottom);
        QFETCH(QList<int>, restyledRows);
        CandidateTableModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QList<CandidateRow> rows = makeRows(20);
        m.setRows(rows);
        switch (kind) {
        case 1:
            for (int i = 0; i < 3; ++i) rows[i].finalP = 0.05 * (i + 1);
            break;
        case 2:
            rows[0].finalP = 0.6;
            rows[2].finalP = 0.0;
            rows[2].removed = true;
            break;
        case 3:
            rows[1].chosen = false;
            rows[0].chosen = true;
            break;
        case 4:
            for (CandidateRow& r : rows) {
                r.id += 1000;
                r.text += "x";
            }
            break;
        }
        QSignalSpy changed(&m, &QAbstractItemModel::dataChanged);
        QSignalSpy reset(&m, &QAbstractItemModel::modelReset);
        QSignalSpy layout(&m, &QAbstractItemModel::layoutChanged);
        m.setRows(rows);
        QCOMPARE(reset.count(), 0);
        QCOMPARE(layout.count(), 0);
        QCOMPARE(m.rows(), rows);
        QCOMPARE(changed.count(), (left >= 0 ? 1 : 0) + int(restyledRows.size() > 0 ? 1 : 0) +
                                      int(restyledRows.size() == 2 && restyledRows[1] != restyledRows[0] + 1));
        if (left < 0) return;
        const QModelIndex tl = changed[0][0].toModelIndex(), br = changed[0][1].toModelIndex();
        QCOMPARE(tl.column(), left);
        QCOMPARE(br.column(), right);
        QCOMPARE(tl.row(), top);
        QCOMPARE(br.row(), bottom);
        QVERIFY(tl.column() > CandidateTableModel::RankColumn);   // the rank never changes
        if (kind != 4) QVERIFY(tl.column() >= CandidateTableModel::FinalPColumn);
        // Whole rows restyled: only the font and colour roles.
        QList<int> restyled;
        for (int s = 1; s < changed.count(); ++s) {
            const QModelIndex a = changed[s][0].toModelIndex(), b = changed[s][1].toModelIndex();
            QCOMPARE(a.column(), 0);
            QCOMPARE(b.column(), m.columnCount() - 1);
            const auto roles = changed[s][2].value<QList<int>>();
            QCOMPARE(roles, (QList<int>{Qt::FontRole, Qt::ForegroundRole}));
            for (int r = a.row(); r <= b.row(); ++r) restyled << r;
        }
        QCOMPARE(restyled, restyledRows);
    }

    // The playground's sort proxy sorts by the raw values.
    void candidateSortsByRawValue() {
        CandidateTableModel m;
        m.setRows(makeRows(12));
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&m);
        proxy.setSortRole(Qt::UserRole);
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.sort(CandidateTableModel::RawPColumn, Qt::AscendingOrder);
        double last = -1.0;
        for (int r = 0; r < proxy.rowCount(); ++r) {
            const double p = proxy.index(r, CandidateTableModel::RawPColumn).data(Qt::UserRole).toDouble();
            QVERIFY(p >= last);
            last = p;
        }
        QCOMPARE(proxy.index(0, CandidateTableModel::RankColumn).data(Qt::UserRole).toInt(), 12);
    }

    // A table view shows it (an offscreen smoke test: the delegate reads every role).
    void candidateInTableView() {
        CandidateTableModel m;
        QTableView view;
        view.setModel(&m);
        m.setRows(makeRows(20));
        view.resize(600, 400);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QCOMPARE(view.model()->rowCount(), 20);
        view.grab();
        QList<CandidateRow> rows = makeRows(20);
        rows[0].finalP = 0.9;
        m.setRows(rows);
        view.grab();
        m.setRows({});
        view.grab();
    }
};

QTEST_MAIN(TestGuiModels)
#include "test_gui_models.moc"
