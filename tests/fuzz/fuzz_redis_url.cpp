// libFuzzer target: RedisUrl::parse and RedisUrl::toDisplayString (engine/url/redis_url.cpp),
// redis-sentinel:// URLs included (engine/url/sentinel_url.cpp: the same split of the user info
// and the authority, and a second password, the sentinels', in the query).
//
// Input: UTF-8 text, or UTF-16LE code units after a FF FE byte order mark.
// Expected outcomes: a RedisUrl, or an InputError with a non-empty message. Anything else is a
// finding: another exception, a crash or sanitizer report, a hang, a huge allocation, a parsed
// password that shows in toDisplayString(), a display string that does not parse back to the
// same URL (password masked), or an error message that quotes a distinctive password.
#include <QByteArray>
#include <QString>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "input_error.h"
#include "url/redis_url.h"

using namespace ratelab;

namespace {

constexpr size_t kMaxInputBytes = 64 * 1024;

[[noreturn]] void finding(const char* what, const QString& detail) {
    std::fprintf(stderr, "\n=== FUZZ FINDING (redis_url): %s\n%s\n", what,
                 detail.toUtf8().constData());
    std::fflush(stderr);
    std::abort();
}

QString fields(const RedisUrl& url) {
    QString seeds;
    for (const RedisUrl::HostPort& seed : url.seeds) {
        seeds += seed.host + QLatin1Char(':') + QString::number(seed.port) + QLatin1Char(' ');
    }
    return QStringLiteral("transport=%1 host=%2 port=%3 socketPath=%4 db=%5 user=%6 password=%7 "
                          "seeds=%8master=%9")
               .arg(int(url.transport))
               .arg(url.host)
               .arg(url.port)
               .arg(url.socketPath)
               .arg(url.db)
               .arg(url.user, url.password, seeds, url.masterName) +
           QStringLiteral(" sentinelUser=%1 sentinelPassword=%2")
               .arg(url.sentinelUser, url.sentinelPassword);
}

// The password as the input spells it, when the input is scheme://user:password@..., using the
// parser's own reading of the authority (it ends at the first '/', '?' or '#'; the last '@' in
// it ends the user info). Only "distinctive" passwords are returned: ones holding a character
// that no fixed message text contains and appearing once in the input, so that finding one in
// a message cannot be a coincidence.
QString distinctivePassword(const QString& text) {
    const qsizetype separator = text.indexOf(QLatin1String("://"));
    if (separator < 0) {
        return QString();
    }
    const QString rest = text.mid(separator + 3);
    qsizetype end = 0;
    while (end < rest.size() && rest[end] != u'/' && rest[end] != u'?' && rest[end] != u'#') {
        ++end;
    }
    qsizetype at = rest.left(end).lastIndexOf(u'@');
    if (at < 0 && end < rest.size() && rest[end] == u'/' && end > 0 && rest[end - 1] == u'@') {
        at = end - 1;  // unix://user:password@/path
    }
    if (at < 0) {
        return QString();
    }
    const QString info = rest.left(at);
    const qsizetype colon = info.indexOf(u':');
    if (colon < 0) {
        return QString();
    }
    const QString password = info.mid(colon + 1);
    if (password.size() < 6 || text.count(password) != 1) {
        return QString();
    }
    for (const QChar c : password) {
        if (c == u'!' || c == u'~' || c == u'^' || c == u'$' || c == u'|' || c.unicode() >= 0x80) {
            return password;
        }
    }
    return QString();
}

void checkInputError(const InputError& error, const QString& input) {
    if (error.problem().isEmpty() || error.message().isEmpty() ||
        std::string(error.what()).empty()) {
        finding("InputError with an empty message", error.message());
    }
    const QString password = distinctivePassword(input);
    if (!password.isEmpty() && error.message().contains(password)) {
        finding("an error message quotes the password",
                QStringLiteral("input: ") + input + QStringLiteral("\nmessage: ") +
                    error.message() + QStringLiteral("\npassword: ") + password);
    }
}

// The display must not depend on the password at all, so it cannot contain it unless by
// coincidence (a password "6379" or "redis"). `password` is one of the URL's two (the data
// nodes', or a sentinel URL's own).
void checkHidden(const RedisUrl& url, QString RedisUrl::*password, const QString& input) {
    const QString secret = url.*password;
    if (secret.isEmpty()) {
        return;
    }
    const QString display = url.toDisplayString();
    RedisUrl other = url;
    other.*password = QStringLiteral("\x01-another-password-\x02");
    if (other.toDisplayString() != display) {
        finding("toDisplayString() depends on a password", input + QLatin1Char('\n') + display);
    }
    if (display.contains(secret) && !other.toDisplayString().contains(secret)) {
        finding("toDisplayString() shows a password", input + QLatin1Char('\n') + display);
    }
}

void checkUrl(const RedisUrl& url, const QString& input) {
    if (url.port < 1 || url.port > 65535 || url.db < 0 ||
        (url.transport == RedisUrl::Transport::Unix && url.socketPath.isEmpty()) ||
        (url.transport == RedisUrl::Transport::Tcp && url.host.isEmpty()) ||
        (url.isSentinel() && (url.seeds.isEmpty() || url.masterName.isEmpty()))) {
        finding("accepted a URL with a bad field", input + QLatin1Char('\n') + fields(url));
    }
    const QString display = url.toDisplayString();
    checkHidden(url, &RedisUrl::password, input);
    checkHidden(url, &RedisUrl::sentinelPassword, input);
    // The display string parses back to the same URL with the passwords masked as "***".
    RedisUrl expected = url;
    if (!expected.password.isEmpty()) {
        expected.password = QStringLiteral("***");
    }
    if (!expected.sentinelPassword.isEmpty()) {
        expected.sentinelPassword = QStringLiteral("***");
    }
    try {
        const RedisUrl again = RedisUrl::parse(display);
        if (!(again == expected)) {
            finding("toDisplayString() does not parse back to the same URL",
                    QStringLiteral("input: ") + input + QStringLiteral("\ndisplay: ") + display +
                        QStringLiteral("\nexpected: ") + fields(expected) +
                        QStringLiteral("\ngot: ") + fields(again));
        }
    } catch (const InputError& error) {
        finding("toDisplayString() is refused by parse",
                QStringLiteral("input: ") + input + QStringLiteral("\ndisplay: ") + display +
                    QStringLiteral("\nerror: ") + error.message());
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size > kMaxInputBytes) {
        return 0;
    }
    // As the command line gets it: UTF-8 text. Inputs starting with a UTF-16LE byte order mark
    // are read as UTF-16 code units instead, which reaches QStrings a UTF-8 decoder never makes
    // (lone surrogates, as a window's text field could hold).
    QString text;
    if (size >= 2 && data[0] == 0xFF && data[1] == 0xFE) {
        const size_t units = (size - 2) / 2;
        text.resize(static_cast<qsizetype>(units));
        for (size_t i = 0; i < units; ++i) {
            text[static_cast<qsizetype>(i)] =
                QChar(static_cast<char16_t>(data[2 + 2 * i] | (data[3 + 2 * i] << 8)));
        }
    } else {
        text = QString::fromUtf8(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    }
    try {
        RedisUrl url;
        try {
            url = RedisUrl::parse(text);
        } catch (const InputError& error) {
            checkInputError(error, text);
            return 0;
        }
        checkUrl(url, text);
    } catch (const std::exception& e) {
        finding("unexpected exception (not an InputError)", QString::fromUtf8(e.what()));
    } catch (...) {
        finding("unexpected non-std exception", QString());
    }
    return 0;
}
