#include "json_input.h"

#include <QFile>
#include <QJsonDocument>
#include <algorithm>
#include <cmath>

#include "input_error.h"

namespace ratelab::json_input {
namespace {
constexpr int kMaxQuotedLength = 40;

QString escapedControl(QChar c) {
    return QStringLiteral("\\u%1").arg(c.unicode(), 4, 16, QLatin1Char('0'));
}
}  // namespace

QString quoted(const QString& text) {
    QString out = QStringLiteral("\"");
    for (const QChar c : text.left(kMaxQuotedLength)) {
        if (c == u'"' || c == u'\\') {
            out += QLatin1Char('\\');
            out += c;
        } else if (c.category() == QChar::Other_Control) {
            out += escapedControl(c);
        } else {
            out += c;
        }
    }
    out += text.size() > kMaxQuotedLength ? QStringLiteral("...\"") : QStringLiteral("\"");
    return out;
}

QString printable(const QString& text) {
    const auto unsafe = [](QChar c) {
        return c.category() == QChar::Other_Control && c != u'\n' && c != u'\t';
    };
    if (std::none_of(text.cbegin(), text.cend(), unsafe)) {
        return text;
    }
    QString out;
    out.reserve(text.size() + 16);
    for (const QChar c : text) {
        if (unsafe(c)) {
            out += escapedControl(c);
        } else {
            out += c;
        }
    }
    return out;
}

QString formatNumber(double value) {
    if (std::isnan(value)) {
        return QStringLiteral("NaN");
    }
    if (std::isinf(value)) {
        return value > 0 ? QStringLiteral("infinity") : QStringLiteral("-infinity");
    }
    if (value == std::trunc(value) && std::fabs(value) < 9007199254740992.0) {
        return QString::number(static_cast<qint64>(value));
    }
    return QString::number(value, 'g', QLocale::FloatingPointShortest);
}

QString describe(const QJsonValue& value) {
    switch (value.type()) {
        case QJsonValue::Null:
            return QStringLiteral("null");
        case QJsonValue::Bool:
            return value.toBool() ? QStringLiteral("true (a boolean)")
                                  : QStringLiteral("false (a boolean)");
        case QJsonValue::Double:
            return formatNumber(value.toDouble());
        case QJsonValue::String:
            return quoted(value.toString()) + QStringLiteral(" (a string)");
        case QJsonValue::Array:
            return QStringLiteral("an array");
        case QJsonValue::Object:
            return QStringLiteral("an object");
        case QJsonValue::Undefined:
            break;
    }
    return QStringLiteral("nothing");
}

QString memberPath(const QString& path, const QString& key) {
    bool plain = !key.isEmpty() && !key.front().isDigit();
    for (const QChar c : key) {
        plain = plain && c.unicode() < 0x80 && (c.isLetterOrNumber() || c == u'_');
    }
    return plain ? path + QLatin1Char('.') + key : path + QLatin1Char('[') + quoted(key) + u']';
}

QString oneOf(const QStringList& names) {
    if (names.size() < 2) {
        return names.join(QString());
    }
    return names.mid(0, names.size() - 1).join(QStringLiteral(", ")) + QStringLiteral(" or ") +
           names.last();
}

void refuseUnknownFields(const QJsonObject& object, const QString& path,
                         std::initializer_list<QLatin1String> known) {
    refuseUnknownFields(object, path, std::vector<QLatin1String>(known));
}

void refuseUnknownFields(const QJsonObject& object, const QString& path,
                         const std::vector<QLatin1String>& known) {
    for (auto it = object.begin(); it != object.end(); ++it) {
        if (std::find(known.begin(), known.end(), it.key()) == known.end()) {
            throw InputError(memberPath(path, it.key()), QStringLiteral("unknown field"));
        }
    }
}

QJsonValue required(const QJsonObject& object, const QString& path, QLatin1String key) {
    if (!object.contains(key)) {
        throw InputError(memberPath(path, key), QStringLiteral("missing"));
    }
    return object.value(key);
}

QString readString(const QJsonValue& value, const QString& where) {
    if (!value.isString()) {
        throw InputError(where, QStringLiteral("must be a string, got ") + describe(value));
    }
    return value.toString();
}

void refuseBadNameCharacters(const QString& name, const QString& where) {
    const auto code = [](QChar c) {
        return QStringLiteral("U+") +
               QString::number(c.unicode(), 16).toUpper().rightJustified(4, u'0');
    };
    for (qsizetype i = 0; i < name.size(); ++i) {
        const QChar c = name.at(i);
        if (c.isHighSurrogate() && i + 1 < name.size() && name.at(i + 1).isLowSurrogate()) {
            ++i;  // a pair: one character outside the BMP
        } else if (c.isSurrogate()) {
            throw InputError(where,
                             QStringLiteral("must not contain a lone surrogate, got ") + code(c));
        } else if (c.category() == QChar::Other_Control) {
            throw InputError(where,
                             QStringLiteral("must not contain control characters, got ") + code(c));
        }
    }
}

QString elementPath(const QString& path, qsizetype index) {
    return path + QStringLiteral("[%1]").arg(index);
}

// "line L, column C" of a parse error, counting characters rather than UTF-8 bytes. Qt's offset
// points just past the character that broke the parse (at it for trailing garbage); name that
// character, or the last one before the whitespace Qt skipped, so that the line shown is the one
// to fix.
QString lineColumn(const QByteArray& text, const QJsonParseError& error) {
    const auto isBlank = [&text](qsizetype i) {
        return text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n';
    };
    const qsizetype past = error.error == QJsonParseError::GarbageAtEnd ? 1 : 0;
    qsizetype at = qBound(qsizetype(0), qsizetype(error.offset) + past, text.size()) - 1;
    while (at > 0 && isBlank(at)) {
        --at;
    }
    int line = 1;
    int column = 1;
    for (qsizetype i = 0; i < at; ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else if ((static_cast<uchar>(text[i]) & 0xC0) != 0x80) {
            ++column;
        }
    }
    return QStringLiteral("line %1, column %2").arg(line).arg(column);
}

QJsonObject parseObject(const QByteArray& json) {
    const QString root = QStringLiteral("$");
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError) {
        // Qt refuses a top-level scalar as malformed; say what is really wrong.
        const QByteArray trimmed = json.trimmed();
        if (trimmed.isEmpty()) {
            throw InputError(root, QStringLiteral("expected a JSON object, got an empty text"));
        }
        if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) {
            throw InputError(root, QStringLiteral("expected a JSON object"));
        }
        if (error.error == QJsonParseError::DeepNesting) {
            // Qt's parser stops at its depth limit (1024) without recursing further.
            throw InputError(lineColumn(json, error),
                             QStringLiteral("JSON nested more than 1024 levels deep"));
        }
        throw InputError(lineColumn(json, error),
                         QStringLiteral("malformed JSON: ") + error.errorString());
    }
    if (!document.isObject()) {
        throw InputError(root, QStringLiteral("expected a JSON object, got an array"));
    }
    return document.object();
}

QByteArray readSmallFile(const QString& path, qint64 maxBytes, const QString& what) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        throw InputError(path, QStringLiteral("cannot read the file: ") + file.errorString());
    }
    // A regular file says its size: an oversized one is refused unread, with its size named.
    // Pipes and special files have none; they are read in pieces up to just past the limit.
    if (!file.isSequential() && file.size() > maxBytes) {
        throw InputError(path, QStringLiteral("the file is larger than %1 MiB (%2 bytes); %3")
                                   .arg(maxBytes / (1024 * 1024))
                                   .arg(file.size())
                                   .arg(what));
    }
    QByteArray data;
    while (data.size() <= maxBytes) {
        const QByteArray chunk = file.read(64 * 1024);
        if (chunk.isEmpty()) {
            break;
        }
        data += chunk;
    }
    if (file.error() != QFileDevice::NoError) {
        throw InputError(path, QStringLiteral("cannot read the file: ") + file.errorString());
    }
    if (data.size() > maxBytes) {
        throw InputError(path, QStringLiteral("the file is larger than %1 MiB; %2")
                                   .arg(maxBytes / (1024 * 1024))
                                   .arg(what));
    }
    if (data.trimmed().isEmpty()) {
        throw InputError(path, QStringLiteral("the file is empty; expected a JSON object"));
    }
    return data;
}

}  // namespace ratelab::json_input
