// Hostile: copy this program into the working directory (/tmp, mounted noexec) as "x" and execute
// the copy. Prints "exec EACCES" when execve fails with EACCES, "exec <errno name>" for another
// error, or "EXECUTED" (from the copy) when it runs.
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <system_error>
#include <unistd.h>

namespace fs = std::filesystem;
static const char *errname(int e) { const char *n = strerrorname_np(e); return n ? n : std::strerror(e); }

int main(int argc, char **argv) {
    if (argc > 1 && std::string(argv[1]) == "--copied") { std::cout << "EXECUTED" << std::endl; return 0; }
    fs::path target = fs::current_path() / "x";
    std::error_code ec;
    fs::copy_file("/proc/self/exe", target, fs::copy_options::overwrite_existing, ec);
    if (ec) { std::cout << "copy " << ec.message() << std::endl; return 1; }
    fs::permissions(target, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                    fs::perms::others_read | fs::perms::others_exec, ec);
    std::string path = target.string();
    char *args[] = {path.data(), const_cast<char *>("--copied"), nullptr};
    char *envp[] = {const_cast<char *>("PATH=/usr/bin:/bin"), nullptr};
    std::cout.flush();
    execve(path.c_str(), args, envp);
    std::cout << "exec " << errname(errno) << std::endl;
    return 0;
}
