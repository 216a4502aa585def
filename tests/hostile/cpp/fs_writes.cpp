// Hostile: try to create files on the read-only root filesystem. Prints "<path> refused" when the
// open fails (the reason goes to stderr) or "<path> WRITTEN" when it succeeds; then "done".
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>

int main() {
    for (const char *path : {"/etc/warmbox_pwned", "/usr/bin/warmbox_pwned", "/warmbox_pwned"}) {
        errno = 0;
        std::ofstream out(path, std::ios::trunc);
        if (!out.is_open()) {
            std::cerr << path << ": " << std::strerror(errno) << '\n';
            std::cout << path << " refused" << std::endl;
        } else {
            out << "pwned\n";
            out.close();
            std::cout << path << " WRITTEN" << std::endl;
        }
    }
    std::cout << "done" << std::endl;
    return 0;
}
