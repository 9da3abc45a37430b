// libFuzzer target: parseLimiterSpecJson (engine/limiters/limiter_spec_parser.cpp).
//
// Expected outcomes: a valid LimiterSpec, or an InputError with a non-empty message. Anything
// else is a finding: another exception, a crash or sanitizer report, a hang, a huge allocation,
// or a spec that does not round-trip through limiterSpecToJson (as a QJsonObject and as the
// JSON text a saved file would hold).
#include <QByteArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "input_error.h"
#include "limiters/limiter_spec.h"

using namespace ratelab;

namespace {

constexpr size_t kMaxInputBytes = 64 * 1024;

[[noreturn]] void finding(const char* what, const QByteArray& detail) {
    std::fprintf(stderr, "\n=== FUZZ FINDING (limiter_spec): %s\n%s\n", what, detail.constData());
    std::fflush(stderr);
    std::abort();
}

void checkInputError(const InputError& error, const char* stage) {
    if (error.problem().isEmpty() || error.message().isEmpty() ||
        std::string(error.what()).empty()) {
        finding(stage,
                QByteArrayLiteral("InputError with an empty message: ") + error.message().toUtf8());
    }
}

QByteArray describeSpec(const LimiterSpec& spec) {
    return QJsonDocument(limiterSpecToJson(spec)).toJson(QJsonDocument::Compact);
}

void checkSpec(const LimiterSpec& spec) {
    if (spec.name.isEmpty() || spec.name.contains(u'{') || spec.name.contains(u'}')) {
        finding("accepted a bad name", describeSpec(spec));
    }
    if (spec.capacity() < 1) {
        finding("accepted a spec with capacity < 1", describeSpec(spec));
    }
    if (spec.type == LimiterType::SlidingWindow &&
        (spec.rules.isEmpty() || spec.rules.size() > spec_limits::kMaxRules)) {
        finding("accepted a bad number of rules", describeSpec(spec));
    }
}

void checkRoundTrip(const LimiterSpec& spec) {
    const QJsonObject json = limiterSpecToJson(spec);
    // 1. Through the QJsonObject (what the window's editors do).
    try {
        const LimiterSpec again = parseLimiterSpec(json);
        if (again != spec) {
            finding("round trip through QJsonObject changed the spec",
                    describeSpec(spec) + "\n  became\n" + describeSpec(again));
        }
    } catch (const InputError& error) {
        finding("limiterSpecToJson output is refused by parseLimiterSpec",
                describeSpec(spec) + "\n  error: " + error.message().toUtf8());
    }
    // 2. Through the JSON text (what saving and reopening a file does).
    const QByteArray text = QJsonDocument(json).toJson(QJsonDocument::Indented);
    try {
        const LimiterSpec again = parseLimiterSpecJson(text);
        if (again != spec) {
            finding("round trip through JSON text changed the spec",
                    text + "\n  became\n" + describeSpec(again));
        }
    } catch (const InputError& error) {
        finding("the JSON text of limiterSpecToJson is refused by parseLimiterSpecJson",
                text + "\n  error: " + error.message().toUtf8());
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size > kMaxInputBytes) {
        return 0;
    }
    const QByteArray json(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    try {
        LimiterSpec spec;
        try {
            spec = parseLimiterSpecJson(json);
        } catch (const InputError& error) {
            checkInputError(error, "parseLimiterSpecJson");
            return 0;
        }
        checkSpec(spec);
        checkRoundTrip(spec);
    } catch (const std::exception& e) {
        finding("unexpected exception (not an InputError)", QByteArray(e.what()));
    } catch (...) {
        finding("unexpected non-std exception", QByteArray());
    }
    return 0;
}
