#include "window/help_dialogs.h"

#include <QCoreApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <QtGlobal>

namespace ratelab {
namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("HelpDialogs", text);
}

// The project's licence (the LICENSE file; the Debian package's copyright file says the same).
QString licenceLine() {
    return tr("Licence: Apache License 2.0 (Apache-2.0).");
}

}  // namespace

QString glossaryHtml() {
    return tr(
        "<h3>Counts (per limiter)</h3>"
        "<dl>"
        "<dt><b>fired</b></dt><dd>Requests sent to the limiter. Always "
        "<b>fired = accepted + rejected + errors</b>.</dd>"
        "<dt><b>accepted</b></dt><dd>Requests the limiter allowed.</dd>"
        "<dt><b>rejected</b></dt><dd>Requests the limiter refused (a waiting request counts once, "
        "when it gives up).</dd>"
        "<dt><b>errors</b></dt><dd>Decisions that failed: Redis unreachable, a timeout, a bad "
        "reply.</dd>"
        "<dt><b>let through / refused by on_error</b></dt><dd>Of the errors, those the limiter's "
        "on_error policy counted as let through (<i>open</i>) or refused (<i>closed</i>). They "
        "stay errors: they are not added to accepted or rejected.</dd>"
        "</dl>"
        "<h3>Ratios</h3>"
        "<dl>"
        "<dt><b>accepted ratio</b></dt><dd>accepted / fired (the comparison's <i>Accepted %</i> "
        "is 100 &times; accepted / fired).</dd>"
        "<dt><b>Jain's fairness index</b></dt><dd>Over the n clients' accepted counts "
        "x<sub>i</sub>: (&Sigma;x)&sup2; / (n &middot; &Sigma;x&sup2;). 1 when every client got "
        "the same, 1/n when one client got everything (1 when nobody got anything). The "
        "comparison's <i>Fairness</i> column.</dd>"
        "</dl>"
        "<h3>Latency and waiting</h3>"
        "<dl>"
        "<dt><b>p50 / p99 latency</b></dt><dd>The decision time (one Redis script call) that "
        "half / 99 % of the decisions took at most (the comparison's <i>p50 ms</i> and "
        "<i>p99 ms</i>; the latency histogram shows them all).</dd>"
        "<dt><b>waited ms</b></dt><dd>In <i>wait</i> mode: the time a request spent waiting "
        "for permits before it was allowed or gave up at its timeout.</dd>"
        "</dl>"
        "<h3>Redis's own cost (comparison view)</h3>"
        "<dl>"
        "<dt><b>server time per decision</b></dt><dd>INFO commandstats of the limiters' Redis "
        "nodes since the run started: script usec / script calls (every script call those "
        "nodes ran, other clients' too).</dd>"
        "<dt><b>decisions per Redis core</b></dt><dd>1,000,000 µs / server time per "
        "decision. A server that idles between calls runs each one from cold caches: at a "
        "few dozen decisions per second a call costs several times what it costs under load "
        "(26 µs against 5 µs for the four-algorithm example), so at low rates this is a floor, "
        "not the capacity; <i>ratelab bench</i> measures it under load.</dd>"
        "<dt><b>key memory, keys</b></dt><dd>MEMORY USAGE summed over a limiter's keys (sampled "
        "while running, exact at the end), and how many keys it holds.</dd>"
        "</dl>"
        "<h3>One decision (Step, decision list)</h3>"
        "<dl>"
        "<dt><b>allowed</b></dt><dd>Whether the limiter granted the permits.</dd>"
        "<dt><b>retry_after_ms</b></dt><dd>For a rejection: exactly how long until the same "
        "request would pass; <i>never</i> when it asks for more permits than the limit.</dd>"
        "<dt><b>remaining</b></dt><dd>Permits left after the decision.</dd>"
        "</dl>"
        "<h3>Limits and their words</h3>"
        "<dl>"
        "<dt><b>limit (steady state)</b></dt><dd>The dashed line: what the limiter admits per "
        "time bucket in the long run (its rate, or its strictest rule), times the clients of a "
        "per-client limiter. Bursts may pass it for a while; the average cannot.</dd>"
        "<dt><b>in-flight limit L</b></dt><dd>The concurrency limiter's instead: at most L "
        "requests hold a slot at once. Its timeline draws the requests in flight against L (the "
        "right axis), its releases per step beside its grants, and a diamond where grants never "
        "release; requests that release early let far more than L through in a window.</dd>"
        "<dt><b>scope</b></dt><dd><i>global</i>: one limit shared by every client; <i>per "
        "client</i>: each client has its own state, and its own limit, in Redis.</dd>"
        "<dt><b>window</b></dt><dd>The stretch of time a limiter counts in: a fixed window's "
        "calendar window (the shaded bands, its count written inside), a sliding log's last "
        "<i>window_ms</i>, the sliding counter's current and previous windows.</dd>"
        "<dt><b>interval</b></dt><dd>The token bucket's: each grant comes back to the bucket "
        "once it is <i>interval_ms</i> old.</dd>"
        "<dt><b>available permits</b></dt><dd>The token bucket's (the line on the right axis): "
        "its rate less the permits of the grants still held; for GCRA, the counter and the "
        "leaky bucket, the permits a request could take now.</dd>"
        "<dt><b>burst</b></dt><dd>How many requests may pass at once before the rate applies: "
        "GCRA's <i>burst</i>, the leaky bucket's queue of <i>burst</i> behind the request, a "
        "full token bucket's rate.</dd>"
        "<dt><b>admitted burst</b></dt><dd>The most permits a limiter granted in any interval "
        "of a length (<i>N accepted in 1000 ms here</i>), counted at the times the limiter "
        "decided at; on the run's own clock too when the two differ.</dd>"
        "<dt><b>rule</b></dt><dd>One (limit, window) pair of a sliding log; every rule must "
        "hold. The deciding rule of a refusal is the one with the longest wait, of a grant the "
        "one with the least room left.</dd>"
        "<dt><b>TAT</b></dt><dd>GCRA's theoretical arrival time: when the next request would "
        "be due if requests came exactly at the rate. A request passes while TAT less now stays "
        "within the <b>tolerance</b> (burst × the emission interval period / rate).</dd>"
        "<dt><b>estimate</b></dt><dd>The sliding counter's count: the current window's count "
        "plus the previous window's, weighted by how much of it is still in view.</dd>"
        "<dt><b>water level</b></dt><dd>The leaky bucket's (nginx's excess): the requests "
        "standing in the bucket, draining at the rate; a request passes while the level stays "
        "within burst + 1.</dd>"
        "</dl>"
        "<h3>Why a decision went as it did (Decisions panel, a click on a timeline)</h3>"
        "<dl>"
        "<dt><b>reason</b></dt><dd>What the limiter's script saw: the deciding rule or "
        "window, what stood against the request there, and the outcome.</dd>"
        "<dt><b>headers</b></dt><dd>What a server would send with the answer: "
        "<tt>RateLimit-Policy</tt> and <tt>RateLimit</tt> (the IETF rate-limit headers "
        "draft: quota, window, remaining, reset in seconds) and, for a refusal, "
        "<tt>Retry-After</tt>.</dd>"
        "<dt><b>counterfactual</b></dt><dd>What would have let the request through, each "
        "found by deciding it again on Redis from the same state: the time it passes, and "
        "for each setting alone the nearest value that grants it (<i>rate ≥ 11</i>, "
        "<i>window_ms ≤ 900</i>); for a granted request, how far each setting could go and "
        "still grant it.</dd>"
        "</dl>"
        "<h3>Run history and baseline (View → Runs)</h3>"
        "<dl>"
        "<dt><b>run history</b></dt><dd>The runs since the window opened, newest first (the "
        "last 20 are kept): number, end time, scenario, fired / accepted / rejected / errors "
        "added up over the limiters, clock, and whether Stop ended it early. <i>Save as output "
        "folder…</i> writes what <tt>ratelab run --out</tt> writes (summary.json, "
        "buckets.csv, report.png, report.html), for <tt>ratelab compare</tt>.</dd>"
        "<dt><b>baseline</b></dt><dd>The run (or saved output folder) <i>Compare with</i> "
        "chose. Each timeline draws its accepted and rejected per step as thin dashed lines "
        "(<i>baseline #N accepted / rejected</i>, each its own count, not stacked); a limiter it "
        "lacks says <i>not in baseline #N</i> in its title. The comparison table shows under "
        "each limiter the baseline's figures with <b>Δ</b> = this run − baseline. It "
        "stays for the next runs (run, change, run, compare) until <i>Clear baseline</i>.</dd>"
        "</dl>");
}

QString shortcutsHtml() {
    return tr(
        "<table cellpadding='3'>"
        "<tr><td><b>F5</b></td><td>Start the run</td></tr>"
        "<tr><td><b>Shift+F5</b></td><td>Stop the run</td></tr>"
        "<tr><td><b>F10</b></td><td>Step: send one request</td></tr>"
        "<tr><td><b>F8</b></td><td>Pause the view (then wheel zooms, drag pans)</td></tr>"
        "<tr><td><b>F11</b> or <b>Ctrl+P</b></td><td>Presentation mode on / off</td></tr>"
        "<tr><td><b>→</b> or <b>Space</b> / <b>←</b></td><td>A lesson's next / previous beat "
        "(while a lesson is open: File → Lessons)</td></tr>"
        "<tr><td><b>Ctrl+N</b></td><td>New scenario</td></tr>"
        "<tr><td><b>Ctrl+O</b></td><td>Open a scenario</td></tr>"
        "<tr><td><b>Ctrl+S</b></td><td>Save the scenario (a shipped example: Save "
        "as)</td></tr>"
        "<tr><td><b>Ctrl+Shift+S</b></td><td>Save the scenario as</td></tr>"
        "<tr><td><b>Ctrl+Q</b></td><td>Quit</td></tr>"
        "<tr><td><b>Enter</b> / leaving a field</td><td>Applies an edited limiter field "
        "to a running test</td></tr>"
        "<tr><td>Double-click a run (View → Runs)</td><td>Compare with it: the run "
        "becomes the baseline (dashed lines on the timelines, baseline rows in the "
        "comparison)</td></tr>"
        "</table>");
}

QString aboutHtml() {
    return tr("<h3>ratelab %1</h3>"
              "<p>A visualizer and test bench for distributed rate limiters whose state lives "
              "in Redis.</p>"
              "<p>Built with Qt %2 (running on Qt %3).</p>"
              "<p>%4</p>")
        .arg(QCoreApplication::applicationVersion(), QStringLiteral(QT_VERSION_STR),
             QString::fromLatin1(qVersion()), licenceLine());
}

void showHelpDialog(QWidget* parent, const QString& objectName, const QString& title,
                    const QString& html) {
    auto* dialog = new QDialog(parent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setObjectName(objectName);
    dialog->setWindowTitle(title);
    auto* layout = new QVBoxLayout(dialog);
    auto* text = new QTextBrowser(dialog);
    text->setObjectName(QStringLiteral("helpText"));
    text->setHtml(html);
    layout->addWidget(text);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
    layout->addWidget(buttons);
    dialog->resize(560, 520);
    dialog->show();
}

}  // namespace ratelab
