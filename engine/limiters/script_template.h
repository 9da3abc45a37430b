#pragma once

#include <QString>
#include <QtGlobal>
#include <array>
#include <optional>
#include <string>
#include <vector>

namespace ratelab {

// One key or argument template of a script limiter ("{{{name}}}:{client}", "{now_ms}", "10"):
// literal text and placeholders, filled per call. `{{` and `}}` are literal braces; any other
// brace is a placeholder, and a placeholder this type does not know is refused where the
// template is read (docs/scenarios.md, "Script limiters").
class ScriptTemplate {
public:
    // What a placeholder stands for; Literal is the text between them.
    enum class Slot {
        Literal,
        Name,       // the limiter's name
        Client,     // the request's client, "global" for a global limiter
        NowMs,      // the request's now, integer ms
        NowUs,      // now in µs (the engine's clock counts ms: now_ms × 1000)
        NowS,       // now in seconds with 3 decimals ("1700000000.123")
        Permits,    // the permits asked
        RequestId,  // unique in the run (the request's place in the schedule)
        Uuid,       // a random version-4 UUID, one per call
        Count
    };
    static constexpr int kSlots = int(Slot::Count);
    // The text each placeholder is filled with, indexed by Slot (Literal's unused).
    using Values = std::array<std::string, kSlots>;

    ScriptTemplate() = default;
    // Reads `text`; an InputError at `where` names an unknown placeholder, a lone brace or an
    // unclosed one.
    static ScriptTemplate parse(const QString& text, const QString& where);

    const QString& text() const { return text_; }
    // Whether the template names `slot`.
    bool uses(Slot slot) const;
    // Whether it names anything but {name} and {client}: a key that changes with the time or
    // the request, which no default reset pattern can cover.
    bool variesPerRequest() const;
    // The template's value when it names no placeholder and its text is an integer (a sweepable
    // argument); nothing otherwise.
    std::optional<qint64> integer() const;

    // Appends the filled template to `out`.
    void expand(const Values& values, std::string& out) const;
    std::string expand(const Values& values) const {
        std::string out;
        expand(values, out);
        return out;
    }
    // A SCAN pattern matching every value of the template for any client: the literal text and
    // {name} with their glob characters escaped, {client} as `clientPattern` (taken as it is).
    // Only for templates that do not vary per request.
    std::string globPattern(const std::string& name, const std::string& clientPattern) const;

    bool operator==(const ScriptTemplate& o) const { return text_ == o.text_; }
    bool operator!=(const ScriptTemplate& o) const { return !(*this == o); }

private:
    struct Piece {
        Slot slot = Slot::Literal;
        std::string literal;
    };
    QString text_;
    std::vector<Piece> pieces_;
};

// The placeholders a template may name, as written: "{name}, {client}, … or {uuid}".
QString knownPlaceholders();

}  // namespace ratelab
