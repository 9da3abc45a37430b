#include "lesson_command.h"

#include <QDir>
#include <QFileInfo>
#include <cstdio>

#include "command_line.h"
#include "input_error.h"
#include "interrupt.h"
#include "json_input.h"
#include "lessons/lesson_check.h"
#include "lessons/lesson_page.h"
#include "output/output_folder.h"
#include "redis/redis_target.h"
#include "run_outputs.h"

namespace ratelab::cli {
namespace {

void withRedisOptions(QCommandLineParser& parser) {
    parser.addOption(
        {QStringLiteral("redis"), QStringLiteral("Redis URL."), QStringLiteral("URL")});
    parser.addOptions(tlsOptions());
}

const QCommandLineOption kShow(QStringLiteral("show"),
                               QStringLiteral("Print every beat's words with their figures."));

// Every file's lesson, read and checked before Redis is touched.
QVector<Lesson> loadLessons(const QStringList& files) {
    QVector<Lesson> lessons;
    for (const QString& file : files) {
        lessons.append(loadLessonFile(file));
    }
    return lessons;
}

// The exit code of checks that ran: 3 when decisions failed (Redis), 1 when a claim did not hold
// (or a signal stopped it: 128 + the signal).
int checksExitCode(const QVector<LessonCheck>& checks) {
    if (interrupted()) {
        std::printf("interrupted by %s: the lessons were checked until then\n",
                    qPrintable(interruptName()));
        return interruptExitCode();
    }
    int code = kDone;
    for (const LessonCheck& check : checks) {
        if (check.errors > 0) {
            return kRedisFailed;
        }
        if (!check.passed()) {
            code = kFailed;
        }
    }
    return code;
}

int check(const QStringList& args) {
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("lessons"), QStringLiteral("Lesson files (JSON)."),
                                 QStringLiteral("FILE..."));
    withRedisOptions(parser);
    parser.addOption(kShow);
    // One or more files: counted first, so that parseArguments reports everything else.
    QCommandLineParser count;
    withRedisOptions(count);
    count.addOption(kShow);
    count.parse(args);
    const int files = std::max<int>(1, int(count.positionalArguments().size()));
    if (!parseArguments(parser, args, {}, files)) {
        return kBadInput;
    }
    return runGuarded([&] {
        const QVector<Lesson> lessons = loadLessons(parser.positionalArguments());
        const RedisTarget target = resolveRedisTarget(parser);
        QVector<LessonCheck> checks;
        for (const Lesson& lesson : lessons) {
            if (interrupted()) {
                break;
            }
            const QVector<LessonFrame> frames = playLesson(lesson, target.url(), &interruptFlag());
            checks.append(checkLessonFrames(lesson, frames));
            std::fputs(qPrintable(lessonCheckText(checks.last())), stdout);
            if (parser.isSet(kShow)) {
                std::fputs(qPrintable(lessonFramesText(frames)), stdout);
            }
            std::fflush(stdout);  // a lesson's verdict as soon as it is known
        }
        const int failed = int(std::count_if(checks.begin(), checks.end(),
                                             [](const LessonCheck& c) { return !c.passed(); }));
        if (failed > 0 && !interrupted()) {
            std::fflush(stdout);
            printError(QStringLiteral("%1 of %2 lessons failed").arg(failed).arg(checks.size()));
        }
        return outputExitCode(checksExitCode(checks), {});
    });
}

int exportPage(const QStringList& args) {
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("lesson"), QStringLiteral("Lesson file (JSON)."),
                                 QStringLiteral("FILE"));
    parser.addOption({QStringLiteral("out"),
                      QStringLiteral("The folder lesson.html goes to (made when missing)."),
                      QStringLiteral("DIR")});
    withRedisOptions(parser);
    if (!parseArguments(parser, args, {QStringLiteral("out")}, 1)) {
        return kBadInput;
    }
    return runGuarded([&] {
        const Lesson lesson = loadLessonFile(parser.positionalArguments().first());
        const QString dir = parser.value(QStringLiteral("out"));
        if (QFileInfo(dir).exists() && !QFileInfo(dir).isDir()) {
            throw InputError(QStringLiteral("--out"),
                             QStringLiteral("%1 is not a folder").arg(json_input::quoted(dir)));
        }
        const RedisTarget target = resolveRedisTarget(parser);
        const QVector<LessonFrame> frames = playLesson(lesson, target.url(), &interruptFlag());
        const LessonCheck result = checkLessonFrames(lesson, frames);
        std::fputs(qPrintable(lessonCheckText(result)), stdout);
        const int verdict = checksExitCode({result});
        if (interrupted()) {
            return verdict;  // a lesson played part of the way is no page
        }
        QStringList failures;
        const QString page = QDir(dir).filePath(QStringLiteral("lesson.html"));
        try {
            if (!QDir().mkpath(dir)) {
                throw InputError(dir, QStringLiteral("cannot make the folder"));
            }
            writeFileAtomically(page, lessonHtml(lesson, frames));
            std::printf("wrote %s\n", qPrintable(QFileInfo(page).absoluteFilePath()));
        } catch (const InputError& e) {
            failures << e.message();
        }
        return outputExitCode(verdict, failures);
    });
}

}  // namespace

int lessonCommand(const QStringList& args) {
    const QString action = args.value(1);
    if (action != QLatin1String("check") && action != QLatin1String("export")) {
        printError(QStringLiteral("lesson: expected \"lesson check\" or \"lesson export\", got %1")
                       .arg(args.size() > 1 ? json_input::quoted(action)
                                            : QStringLiteral("nothing after \"lesson\"")));
        return kBadInput;
    }
    QStringList rest = args.mid(1);
    rest[0] = QStringLiteral("lesson ") + action;
    return action == QLatin1String("check") ? check(rest) : exportPage(rest);
}

}  // namespace ratelab::cli
