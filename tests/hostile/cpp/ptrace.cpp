// Hostile: ask to be traced. Prints "ptrace EPERM" when refused with EPERM, "ptrace OK" when it
// succeeds, else "ptrace <errno name>".
#include <cerrno>
#include <cstring>
#include <iostream>
#include <sys/ptrace.h>

int main() {
    long r = ptrace(PTRACE_TRACEME, 0, nullptr, nullptr);
    int e = errno;
    if (r == 0) std::cout << "ptrace OK\n";
    else if (e == EPERM) std::cout << "ptrace EPERM\n";
    else { const char *name = strerrorname_np(e); std::cout << "ptrace " << (name ? name : std::strerror(e)) << '\n'; }
    return 0;
}
