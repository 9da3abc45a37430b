// The window's connection bar with TLS: rediss:// URLs with the CA file from the TLS fields
// connect to the redis_tls fixture; files for a plain URL, unreadable files and a certificate
// the CA did not sign are shown inline, never a crash.
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QtTest>

#include "window/connection_bar.h"
#include "window/tls_fields.h"

using namespace ratelab;

namespace {

QString cert(const QString& name) {
    return qEnvironmentVariable("RATELAB_TLS_DIR") + QLatin1Char('/') + name;
}

QString tlsUrl(int offset) {
    return QStringLiteral("rediss://127.0.0.1:%1")
        .arg(qEnvironmentVariableIntValue("RATELAB_TLS_PORT") + offset);
}

}  // namespace

class TestTlsWindow : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(qEnvironmentVariableIntValue("RATELAB_TLS_PORT") != 0); }

    void connectsWithTheCaFromTheFields() {
        ConnectionBar bar;
        bar.setUseManagedServer(false);
        bar.setUrlText(tlsUrl(0));
        bar.tlsFields()->setFiles(RedisUrl::TlsFiles{cert(QStringLiteral("ca.crt")), {}, {}});
        QSignalSpy ready(&bar, &ConnectionBar::targetReady);
        bar.connectToRedis();
        QVERIFY(ready.wait(20000));
        const RedisUrl url = ready.first().first().value<RedisUrl>();
        QVERIFY(url.tls);
        QCOMPARE(url.tlsFiles.caCert, cert(QStringLiteral("ca.crt")));
        QVERIFY2(bar.statusText().startsWith(QStringLiteral("connected · rediss://127.0.0.1")),
                 qPrintable(bar.statusText()));
    }

    void mutualTlsFromTheFields() {
        ConnectionBar bar;
        bar.setUseManagedServer(false);
        bar.setUrlText(tlsUrl(1));
        bar.tlsFields()->setFiles(RedisUrl::TlsFiles{cert(QStringLiteral("ca.crt")),
                                                     cert(QStringLiteral("client.crt")),
                                                     cert(QStringLiteral("client.key"))});
        QSignalSpy ready(&bar, &ConnectionBar::targetReady);
        bar.connectToRedis();
        QVERIFY(ready.wait(20000));
    }

    // Problems shown in the bar's status, in red, without connecting.
    void inlineErrors_data() {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("ca");
        QTest::addColumn<QString>("messagePart");
        QTest::newRow("files for a plain URL")
            << QStringLiteral("redis://127.0.0.1:6379") << cert(QStringLiteral("ca.crt"))
            << QStringLiteral("need a rediss://");
        QTest::newRow("missing CA file")
            << tlsUrl(0) << cert(QStringLiteral("missing.crt")) << QStringLiteral("no such file");
    }
    void inlineErrors() {
        QFETCH(QString, url);
        QFETCH(QString, ca);
        QFETCH(QString, messagePart);
        ConnectionBar bar;
        bar.setUseManagedServer(false);
        bar.setUrlText(url);
        bar.tlsFields()->setFiles(RedisUrl::TlsFiles{ca, {}, {}});
        bar.connectToRedis();
        QVERIFY2(bar.statusText().contains(messagePart), qPrintable(bar.statusText()));
        QVERIFY(!bar.connected());
    }

    // A certificate the CA did not sign: the probe's error, inline.
    void untrustedCertificateShownInline() {
        ConnectionBar bar;
        bar.setUseManagedServer(false);
        bar.setUrlText(tlsUrl(4));
        bar.tlsFields()->setFiles(RedisUrl::TlsFiles{cert(QStringLiteral("ca.crt")), {}, {}});
        QSignalSpy lost(&bar, &ConnectionBar::targetLost);
        bar.connectToRedis();
        QVERIFY(lost.wait(20000));
        QVERIFY2(bar.statusText().contains(QStringLiteral("not signed by a trusted CA")),
                 qPrintable(bar.statusText()));
    }

    void dialogRefusesUnreadableFiles() {
        TlsDialog dialog(RedisUrl::TlsFiles{cert(QStringLiteral("missing.crt")), {}, {}});
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Rejected));
        auto* error = dialog.findChild<QLabel*>(QStringLiteral("tlsError"));
        QVERIFY(error != nullptr);
        QVERIFY2(error->text().contains(QStringLiteral("no such file")), qPrintable(error->text()));
        dialog.findChild<QLineEdit*>(QStringLiteral("tlsCaCert"))
            ->setText(cert(QStringLiteral("ca.crt")));
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        QCOMPARE(dialog.files().caCert, cert(QStringLiteral("ca.crt")));
    }
};

QTEST_MAIN(TestTlsWindow)
#include "tst_tls_window.moc"
