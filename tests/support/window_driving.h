#pragma once

// Driving the real window in tests (tst_window_work, tst_window_fixes, tst_window_edits,
// tst_window_files, tst_window_stepping, tst_window_views): connecting it to the fixture Redis,
// answering its message boxes, typing into its fields, clicking its buttons and tabs, pressing
// its shortcuts. Built into each test that needs it (it needs the widgets).

#include <QMessageBox>
#include <QString>

#include "limiters/limiter_spec.h"
#include "scenario/scenario.h"

QT_BEGIN_NAMESPACE
class QAction;
class QLineEdit;
class QTabWidget;
class QWidget;
QT_END_NAMESPACE

namespace ratelab {
class MainWindow;
class RedisConnection;
}  // namespace ratelab

namespace ratelab::test {

// Points the window's connection bar at REDIS_URL (the fixture) and waits until it is connected.
void connectToFixture(MainWindow& w);

// Clicks `button` of the next message box named `objectName` once it is shown.
void answerMessageBox(const QString& objectName, QMessageBox::StandardButton button);

// Replaces a line edit's text as a user would (focus, select all, type, Enter).
void retype(QLineEdit* edit, const QString& text);

// A mouse click on the toolbar button of `action` (Start, Step, Runs, …) in `w`.
void clickToolButton(MainWindow& w, QAction* action);

// A mouse click on the tab of `tabs` that shows `page`.
void clickTab(QTabWidget* tabs, QWidget* page);

// A key pressed in the window (its shortcuts: F5 Start, F10 Step, …), the window active first.
void pressKey(MainWindow& w, Qt::Key key);

// A token bucket of 10/s (a unique name starting with `prefix`) under 50 requests/s for 1 s, on
// a virtual clock at full speed: a run that ends at once.
Scenario quickBucketScenario(const QString& prefix);

// How many keys `spec`'s limiter owns, read-only (reset would delete them, and a QTRY on
// reset's count would pass on its second try whatever happened).
long long keyCount(RedisConnection& c, const LimiterSpec& spec);

}  // namespace ratelab::test
