#include "limiters/script_template.h"

#include <QStringList>

#include "input_error.h"
#include "redis/redis_scan.h"

namespace ratelab {
namespace {

struct Named {
    const char* name;
    ScriptTemplate::Slot slot;
};
constexpr Named kPlaceholders[] = {
    {"name", ScriptTemplate::Slot::Name},
    {"client", ScriptTemplate::Slot::Client},
    {"now_ms", ScriptTemplate::Slot::NowMs},
    {"now_us", ScriptTemplate::Slot::NowUs},
    {"now_s", ScriptTemplate::Slot::NowS},
    {"permits", ScriptTemplate::Slot::Permits},
    {"request_id", ScriptTemplate::Slot::RequestId},
    {"uuid", ScriptTemplate::Slot::Uuid},
};

}  // namespace

QString knownPlaceholders() {
    QStringList names;
    for (const Named& p : kPlaceholders) {
        names << QStringLiteral("{%1}").arg(QLatin1String(p.name));
    }
    const QString last = names.takeLast();
    return names.join(QStringLiteral(", ")) + QStringLiteral(" or ") + last;
}

ScriptTemplate ScriptTemplate::parse(const QString& text, const QString& where) {
    ScriptTemplate t;
    t.text_ = text;
    const std::string utf8 = text.toStdString();
    std::string literal;
    const auto flush = [&] {
        if (!literal.empty()) {
            t.pieces_.push_back({Slot::Literal, literal});
            literal.clear();
        }
    };
    for (std::size_t i = 0; i < utf8.size(); ++i) {
        const char c = utf8[i];
        if (c == '}') {
            if (i + 1 < utf8.size() && utf8[i + 1] == '}') {
                literal += '}';
                ++i;
                continue;
            }
            throw InputError(where, QStringLiteral("%1: a lone '}' at character %2; a literal "
                                                   "brace is written '}}'")
                                        .arg(text)
                                        .arg(i + 1));
        }
        if (c != '{') {
            literal += c;
            continue;
        }
        if (i + 1 < utf8.size() && utf8[i + 1] == '{') {
            literal += '{';
            ++i;
            continue;
        }
        const std::size_t close = utf8.find('}', i + 1);
        if (close == std::string::npos) {
            throw InputError(where, QStringLiteral("%1: '{' at character %2 is not closed; a "
                                                   "literal brace is written '{{'")
                                        .arg(text)
                                        .arg(i + 1));
        }
        const std::string name = utf8.substr(i + 1, close - i - 1);
        const Named* found = nullptr;
        for (const Named& p : kPlaceholders) {
            if (name == p.name) {
                found = &p;
            }
        }
        if (found == nullptr) {
            throw InputError(where,
                             QStringLiteral("%1: unknown placeholder {%2}; expected %3 (a literal "
                                            "brace is written '{{' or '}}', a hash tag \"{{%2}}\")")
                                 .arg(text, QString::fromStdString(name), knownPlaceholders()));
        }
        flush();
        t.pieces_.push_back({found->slot, {}});
        i = close;
    }
    flush();
    return t;
}

bool ScriptTemplate::uses(Slot slot) const {
    for (const Piece& piece : pieces_) {
        if (piece.slot == slot) {
            return true;
        }
    }
    return false;
}

bool ScriptTemplate::variesPerRequest() const {
    for (const Piece& piece : pieces_) {
        if (piece.slot != Slot::Literal && piece.slot != Slot::Name && piece.slot != Slot::Client) {
            return true;
        }
    }
    return false;
}

std::optional<qint64> ScriptTemplate::integer() const {
    if (pieces_.size() != 1 || pieces_[0].slot != Slot::Literal) {
        return std::nullopt;
    }
    bool ok = false;
    const qint64 value = text_.toLongLong(&ok);
    // Only the plain decimal form ("10", "-3"): "+10" or " 10" would not be written back as is.
    if (!ok || QString::number(value) != text_) {
        return std::nullopt;
    }
    return value;
}

void ScriptTemplate::expand(const Values& values, std::string& out) const {
    for (const Piece& piece : pieces_) {
        out += piece.slot == Slot::Literal ? piece.literal : values[std::size_t(piece.slot)];
    }
}

std::string ScriptTemplate::globPattern(const std::string& name,
                                        const std::string& clientPattern) const {
    std::string out;
    for (const Piece& piece : pieces_) {
        switch (piece.slot) {
            case Slot::Literal:
                out += escapeGlob(piece.literal);
                break;
            case Slot::Name:
                out += escapeGlob(name);
                break;
            case Slot::Client:
                out += clientPattern;
                break;
            default:
                out += '*';  // not reached for a template that does not vary per request
                break;
        }
    }
    return out;
}

}  // namespace ratelab
