// paired_calls: sends two recorded command streams to two Redis servers in lockstep, one call
// at a time, alternating between them, so that both servers see the same host at the same
// moments. bench/script_cost.sh uses it to compare two scripts' server time per call without
// the host's slow and fast minutes landing on one side only (two runs seconds apart differ by
// ±20 % on a shared machine; two interleaved runs by a few per cent).
//
// Usage: paired_calls SOCKET_A FILE_A REPLIES_A SOCKET_B FILE_B REPLIES_B
//   FILE_*     one command per line in redis-cli's syntax: words separated by spaces, a word in
//              double quotes may hold \" \\ \n \r \t \a \b and \xHH (MONITOR's notation)
//   REPLIES_*  where each reply goes, one line per reply as redis-cli prints it when its output
//              is not a terminal: an integer as digits, nil as an empty line, an error as
//              "(error) <text>", an array one element per line
// Line i of A and line i of B are sent one after the other, A first on even lines and B first
// on odd ones; the shorter stream ends first. Exit status 0; 2 for bad arguments or input; 1
// when a server cannot be reached or drops the connection; 3 when a reply was an error other
// than NOSCRIPT (both streams are still sent whole).
#include <hiredis/hiredis.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace {

using Command = std::vector<std::string>;

struct ContextFree {
    void operator()(redisContext* context) const { redisFree(context); }
};
struct ReplyFree {
    void operator()(redisReply* reply) const { freeReplyObject(reply); }
};
using Context = std::unique_ptr<redisContext, ContextFree>;
using Reply = std::unique_ptr<redisReply, ReplyFree>;

int hexDigit(char c) {
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

// One line in redis-cli's syntax; nullopt (and `error` set) when a quote is not closed or a
// quoted word runs into the next.
std::optional<Command> parseLine(const std::string& line, std::string& error) {
    Command words;
    size_t i = 0;
    while (true) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r'))
            ++i;
        if (i == line.size())
            return words;
        std::string word;
        if (line[i] != '"') {
            while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r')
                word += line[i++];
            words.push_back(word);
            continue;
        }
        ++i;  // the opening quote
        bool closed = false;
        while (i < line.size()) {
            const char c = line[i++];
            if (c == '"') {
                closed = true;
                break;
            }
            if (c != '\\' || i == line.size()) {
                word += c;
                continue;
            }
            const char escaped = line[i++];
            switch (escaped) {
                case 'n':
                    word += '\n';
                    break;
                case 'r':
                    word += '\r';
                    break;
                case 't':
                    word += '\t';
                    break;
                case 'a':
                    word += '\a';
                    break;
                case 'b':
                    word += '\b';
                    break;
                case 'x':
                    if (i + 1 < line.size() && hexDigit(line[i]) >= 0 &&
                        hexDigit(line[i + 1]) >= 0) {
                        word += static_cast<char>(hexDigit(line[i]) * 16 + hexDigit(line[i + 1]));
                        i += 2;
                    } else {
                        word += 'x';
                    }
                    break;
                default:
                    word += escaped;
            }
        }
        if (!closed) {
            error = "a quoted word is not closed";
            return std::nullopt;
        }
        if (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') {
            error = "a closing quote is followed by more than a space";
            return std::nullopt;
        }
        words.push_back(word);
    }
}

std::optional<std::vector<Command>> readCommands(const std::string& path) {
    std::ifstream in(path);
    if (!in) {
        std::cerr << "paired_calls: cannot read " << path << "\n";
        return std::nullopt;
    }
    std::vector<Command> commands;
    std::string line;
    for (size_t number = 1; std::getline(in, line); ++number) {
        std::string error;
        std::optional<Command> command = parseLine(line, error);
        if (!command) {
            std::cerr << "paired_calls: " << path << ":" << number << ": " << error << "\n";
            return std::nullopt;
        }
        if (!command->empty())
            commands.push_back(std::move(*command));
    }
    return commands;
}

void printReply(std::FILE* out, const redisReply* reply) {
    switch (reply->type) {
        case REDIS_REPLY_INTEGER:
            std::fprintf(out, "%lld\n", reply->integer);
            break;
        case REDIS_REPLY_NIL:
            std::fputc('\n', out);
            break;
        case REDIS_REPLY_ERROR:
            std::fprintf(out, "(error) %.*s\n", int(reply->len), reply->str);
            break;
        case REDIS_REPLY_ARRAY:
            for (size_t i = 0; i < reply->elements; ++i)
                printReply(out, reply->element[i]);
            break;
        default:
            std::fprintf(out, "%.*s\n", int(reply->len), reply->str);
    }
}

struct Side {
    std::string socket;
    std::vector<Command> commands;
    Context context;
    std::FILE* replies = nullptr;
    size_t errors = 0;
};

// Sends one command and waits for its reply; false when the connection failed.
bool call(Side& side, const Command& command) {
    std::vector<const char*> argv;
    std::vector<size_t> lengths;
    for (const std::string& word : command) {
        argv.push_back(word.data());
        lengths.push_back(word.size());
    }
    Reply reply(static_cast<redisReply*>(
        redisCommandArgv(side.context.get(), int(argv.size()), argv.data(), lengths.data())));
    if (!reply) {
        std::cerr << "paired_calls: " << side.socket << ": " << side.context->errstr << "\n";
        return false;
    }
    // NOSCRIPT is part of a recorded stream (the EVALSHA that finds no script is followed by
    // the EVAL that loads it); any other error says the two sides did not run what they should.
    if (reply->type == REDIS_REPLY_ERROR && std::strncmp(reply->str, "NOSCRIPT", 8) != 0)
        ++side.errors;
    printReply(side.replies, reply.get());
    return true;
}

struct FileClose {
    void operator()(std::FILE* file) const { std::fclose(file); }
};

}  // namespace

int main(int argc, char** argv) {
    if (argc != 7) {
        std::cerr << "usage: paired_calls SOCKET_A FILE_A REPLIES_A SOCKET_B FILE_B REPLIES_B\n";
        return 2;
    }
    Side sides[2];
    std::unique_ptr<std::FILE, FileClose> outputs[2];
    for (int k = 0; k < 2; ++k) {
        Side& side = sides[k];
        side.socket = argv[1 + 3 * k];
        std::optional<std::vector<Command>> commands = readCommands(argv[2 + 3 * k]);
        if (!commands)
            return 2;
        side.commands = std::move(*commands);
        outputs[k].reset(std::fopen(argv[3 + 3 * k], "w"));
        if (!outputs[k]) {
            std::cerr << "paired_calls: cannot write " << argv[3 + 3 * k] << "\n";
            return 2;
        }
        side.replies = outputs[k].get();
    }
    // Both inputs are read before either server is reached: a bad line is a bad line.
    for (Side& side : sides) {
        side.context.reset(redisConnectUnix(side.socket.c_str()));
        if (!side.context || side.context->err) {
            std::cerr << "paired_calls: cannot connect to " << side.socket << ": "
                      << (side.context ? side.context->errstr : "out of memory") << "\n";
            return 1;
        }
    }
    const size_t lines = std::max(sides[0].commands.size(), sides[1].commands.size());
    for (size_t i = 0; i < lines; ++i) {
        for (int turn = 0; turn < 2; ++turn) {
            Side& side = sides[(i + turn) % 2];
            if (i < side.commands.size() && !call(side, side.commands[i]))
                return 1;
        }
    }
    int status = 0;
    for (const Side& side : sides) {
        if (side.errors > 0) {
            std::cerr << "paired_calls: " << side.socket << ": " << side.errors
                      << " error replies (other than NOSCRIPT)\n";
            status = 3;
        }
    }
    return status;
}
