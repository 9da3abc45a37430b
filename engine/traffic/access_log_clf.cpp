// Combined and common (CLF) access log lines, as nginx and Apache write them:
//   127.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] "GET /a.gif HTTP/1.0" 200 2326 "http://x/"
//   "Mozilla/5.0"

#include <QDate>
#include <QDateTime>
#include <QTimeZone>

#include "json_input.h"
#include "traffic/access_log_line.h"

namespace ratelab::access_log {
namespace {

const QLatin1String kRemoteAddr("remote_addr"), kRemoteUser("remote_user"), kReferer("referer"),
    kUserAgent("user_agent"), kForwardedFor("forwarded_for");

// The text as a message shows it: quoted, cut short, its control characters escaped.
QString shown(QStringView text) {
    return json_input::quoted(text.toString());
}

// Reads a line field by field; each read names what it expected when it fails.
class Cursor {
public:
    explicit Cursor(QStringView line) : line_(line) {}

    [[noreturn]] void fail(const QString& expected) const {
        const QStringView rest = line_.mid(at_);
        throw LineError{QStringLiteral("expected %1, got %2")
                            .arg(expected, rest.isEmpty() ? QStringLiteral("the end of the line")
                                                          : shown(rest))};
    }
    void spaces() {
        while (at_ < line_.size() && line_[at_] == u' ') {
            ++at_;
        }
    }
    bool atEnd() {
        spaces();
        return at_ >= line_.size();
    }
    // Up to the next space.
    QStringView token(const QString& what) {
        spaces();
        const qsizetype from = at_;
        while (at_ < line_.size() && line_[at_] != u' ') {
            ++at_;
        }
        if (at_ == from) {
            fail(what);
        }
        return line_.mid(from, at_ - from);
    }
    // Between `open` and `close`; a quoted field's \" and \\ are escapes.
    QStringView enclosed(QChar open, QChar close, const QString& what) {
        spaces();
        if (at_ >= line_.size() || line_[at_] != open) {
            fail(what);
        }
        const qsizetype from = ++at_;
        while (at_ < line_.size() && line_[at_] != close) {
            at_ += line_[at_] == u'\\' && at_ + 1 < line_.size() ? 2 : 1;
        }
        if (at_ >= line_.size()) {
            fail(what + QStringLiteral(" closed by ") + close);
        }
        return line_.mid(from, at_++ - from);
    }
    bool startsQuoted() {
        spaces();
        return at_ < line_.size() && line_[at_] == u'"';
    }

private:
    QStringView line_;
    qsizetype at_ = 0;
};

bool allDigits(QStringView text) {
    for (const QChar c : text) {
        if (!c.isDigit()) {
            return false;
        }
    }
    return !text.isEmpty();
}

int number(QStringView text) {
    return allDigits(text) ? text.toInt() : -1;
}

}  // namespace

QStringList clfClientFields(AccessLogFormat format) {
    if (format == AccessLogFormat::Common) {
        return {kRemoteAddr, kRemoteUser};
    }
    return {kRemoteAddr, kRemoteUser, kReferer, kUserAgent, kForwardedFor};
}

qint64 clfTimeMs(QStringView text) {
    // dd/Mon/yyyy:HH:mm:ss +hhmm
    static const char* const kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                          "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    if (text.size() != 26 || text[2] != u'/' || text[6] != u'/' || text[11] != u':' ||
        text[14] != u':' || text[17] != u':' || text[20] != u' ' ||
        (text[21] != u'+' && text[21] != u'-')) {
        return -1;
    }
    int month = 0;
    for (int m = 0; m < 12; ++m) {
        if (text.mid(3, 3) == QLatin1String(kMonths[m])) {
            month = m + 1;
        }
    }
    const QDate date(number(text.mid(7, 4)), month, number(text.left(2)));
    const QTime time(number(text.mid(12, 2)), number(text.mid(15, 2)), number(text.mid(18, 2)));
    const int offsetH = number(text.mid(22, 2)), offsetM = number(text.mid(24, 2));
    if (!date.isValid() || !time.isValid() || offsetH < 0 || offsetH > 23 || offsetM < 0 ||
        offsetM > 59) {
        return -1;
    }
    const int offsetS = (text[21] == u'-' ? -1 : 1) * (offsetH * 3600 + offsetM * 60);
    const qint64 ms = QDateTime(date, time, QTimeZone(offsetS)).toMSecsSinceEpoch();
    return ms >= 0 ? ms : -1;
}

Request parseClfLine(QStringView line, const AccessLogOptions& options) {
    const bool combined = options.format == AccessLogFormat::Combined;
    Cursor c(line);
    Request r;
    // A line cut short before its time (or no log line at all) is told by what it lacks first
    // that matters: the time.
    const QString timeExpected = QStringLiteral("[TIME] such as [10/Oct/2000:13:55:36 -0700]");
    const QString cutExpected = timeExpected + QStringLiteral(
                                                   " after the remote address, ident "
                                                   "and user");
    const QStringView host = c.token(QStringLiteral("the remote address"));
    c.token(cutExpected);
    const QStringView user = c.token(cutExpected);
    const QStringView time = c.enclosed(u'[', u']', timeExpected);
    r.tMs = clfTimeMs(time);
    if (r.tMs < 0) {
        throw LineError{QStringLiteral("expected a time such as 10/Oct/2000:13:55:36 -0700 "
                                       "between [ and ], got %1")
                            .arg(shown(time))};
    }
    c.enclosed(u'"', u'"', QStringLiteral("\"REQUEST\" such as \"GET / HTTP/1.1\""));
    const QStringView status = c.token(QStringLiteral("the status"));
    if (status.size() != 3 || !allDigits(status)) {
        throw LineError{
            QStringLiteral("expected a status of three digits, got %1").arg(shown(status))};
    }
    const QStringView bytes = c.token(QStringLiteral("the size in bytes (or -)"));
    if (!allDigits(bytes) && bytes != u'-') {
        throw LineError{
            QStringLiteral("expected the size in bytes (or -), got %1").arg(shown(bytes))};
    }
    QStringView referer, agent, forwarded;
    if (combined) {
        if (c.atEnd()) {
            throw LineError{
                QStringLiteral("expected \"REFERER\" \"USER-AGENT\" after the size, "
                               "got the end of the line (a common log? "
                               "--format common)")};
        }
        referer = c.enclosed(u'"', u'"', QStringLiteral("\"REFERER\""));
        agent = c.enclosed(u'"', u'"', QStringLiteral("\"USER-AGENT\""));
        // nginx's "main" format: "$http_x_forwarded_for" (and any more) after the agent.
        if (c.startsQuoted()) {
            forwarded = c.enclosed(u'"', u'"', QStringLiteral("a quoted field"));
        }
    } else if (!c.atEnd()) {
        c.fail(
            QStringLiteral("the end of the line after the size (a combined log? "
                           "--format combined)"));
    }
    const QString& field = options.clientField;
    if (field.isEmpty() || field == kRemoteAddr) {
        r.client = host.toString();
    } else if (field == kRemoteUser) {
        r.client = user.toString();
    } else if (field == kReferer) {
        r.client = referer.toString();
    } else if (field == kUserAgent) {
        r.client = agent.toString();
    } else {
        // X-Forwarded-For: the client first, then each proxy; "-" when the header was absent.
        const qsizetype comma = forwarded.indexOf(u',');
        const QStringView first = (comma < 0 ? forwarded : forwarded.first(comma)).trimmed();
        r.client = first.isEmpty() || first == u'-' ? host.toString() : first.toString();
    }
    return r;
}

}  // namespace ratelab::access_log
