#pragma once

namespace ratelab::cli {

// Overwrites the password of every --redis URL in the process's own argv (what ps and
// /proc/<pid>/cmdline show) with "***", once the arguments have been copied. User info
// without ':' (refused by the URL parser as a password-looking user name) is masked whole.
void hidePasswordsInArgv(int argc, char** argv);

}  // namespace ratelab::cli
