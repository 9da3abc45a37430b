#pragma once

#include <QCommandLineParser>
#include <QList>
#include <QStringList>
#include <functional>

#include "redis/redis_target.h"
#include "scenario/scenario_budget.h"

namespace ratelab::cli {

// Exit codes of the command line (docs/command-line.md, "Exit codes"): stable, scripts
// depend on them.
//   0 done; 1 failed: an expectation of `run` or a lesson's claim did not hold, `compare` found
//   a difference above the tolerance, or out of memory; 2 bad input; 3 Redis unreachable or failed
//   (for `run`: decisions failed that no expectation allows for; for `bench`: any decision failed);
//   4 output failed (an output file or stdout could not be written, where the command would
//   otherwise have exited 0); 130 / 143 / 129 stopped by SIGINT / SIGTERM / SIGHUP (what was
//   measured is still reported).
enum ExitCode : int {
    kDone = 0,
    kFailed = 1,
    kBadInput = 2,
    kRedisFailed = 3,
    kOutputFailed = 4,  // the verdict was 0, but an output file (or stdout) could not be written
    kInterrupted = 130,
    kTerminated = 143,
    kHangUp = 129
};

// Prints "ratelab: <message>" to stderr.
void printError(const QString& message);

// Parses a subcommand's arguments (args[0] is the subcommand). Unknown options, missing
// required options and stray positional arguments are bad input: the message names them.
// Returns false after printing the problem (the caller exits with kBadInput). --help (-h)
// prints the subcommand's usage and options to stdout and ends the process with 0.
bool parseArguments(QCommandLineParser& parser, const QStringList& args,
                    const QStringList& required, int positional = 0);

// The integer value of option --name, from min to max; `fallback` when the option is not
// given. Anything else throws InputError naming the option ("--name: must be an integer from
// MIN to MAX, got \"X\"").
qint64 integerOption(const QCommandLineParser& parser, const QString& name, qint64 fallback,
                     qint64 min, qint64 max);

// --max-memory SIZE ("4GiB", "512MiB", bytes; parseMemorySize): `what` is its help text's
// start. maxMemory() reads it (default scenario_limits::kDefaultMaxMemoryBytes, 1 GiB).
QCommandLineOption maxMemoryOption(const QString& what);
qint64 maxMemory(const QCommandLineParser& parser);

// --tls-ca-cert, --tls-cert and --tls-key: every subcommand that takes --redis takes them.
QList<QCommandLineOption> tlsOptions();

// Where the subcommand talks to Redis: --redis (or REDIS_URL, or a managed local server) with
// the TLS options (or REDIS_TLS_CA_CERT, REDIS_TLS_CERT, REDIS_TLS_KEY). See RedisTarget.
RedisTarget resolveRedisTarget(const QCommandLineParser& parser);

// What SIGINT, SIGTERM or SIGHUP means to a command: stopped (exit 130, 143 or 129), or its
// normal way to end (`watch`: the exit code is the command's own).
enum class OnInterrupt { ExitCode, EndsNormally };

// Runs a command body the way every command runs: installs the signal handlers
// (installInterruptHandlers) and the stdout that remembers why it failed (installStdout) first,
// then maps exceptions to exit codes (InputError -> 2, RedisError -> 3, StdoutFailed -> 4,
// anything an interrupt caused -> 130/143/129), checks that stdout took everything written to
// it (else exit 4 where the body returned 0), and reports a signal that came before the body
// returned with 130/143/129 (`onInterrupt`).
int runGuarded(const std::function<int()>& body, OnInterrupt onInterrupt = OnInterrupt::ExitCode);

// --max-memory SIZE as bytes, the scenarios' default limit when it is not given; an InputError
// names the option for a size it cannot read.
inline qint64 maxMemoryOption(const QCommandLineParser& parser) {
    const QString option = QStringLiteral("max-memory");
    return parser.isSet(option)
               ? parseMemorySize(parser.value(option), QStringLiteral("--max-memory"))
               : scenario_limits::kDefaultMaxMemoryBytes;
}

}  // namespace ratelab::cli
