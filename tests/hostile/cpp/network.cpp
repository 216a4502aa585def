// Hostile: reach the host. argv[1] is a TCP port listening on the host's 127.0.0.1: connect to it
// ("connect refused" or "CONNECTED"); list the interfaces in /proc/net/dev ("interfaces a,b,...",
// sorted); open packet and raw ICMP sockets ("raw refused" or "RAW OPENED" for each). Reasons go
// to stderr.
#include <algorithm>
#include <arpa/inet.h>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <netinet/in.h>
#include <string>
#include <sys/socket.h>
#include <unistd.h>
#include <vector>

int main(int argc, char **argv) {
    int port = argc > 1 ? std::atoi(argv[1]) : 0;
    int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (s < 0) {
        std::cerr << "socket: " << std::strerror(errno) << '\n';
        std::cout << "connect refused\n";
    } else {
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_port = htons(static_cast<uint16_t>(port));
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (connect(s, reinterpret_cast<sockaddr *>(&a), sizeof a) < 0) {
            std::cerr << "connect 127.0.0.1:" << port << ": " << std::strerror(errno) << '\n';
            std::cout << "connect refused\n";
        } else {
            std::cout << "CONNECTED\n";
        }
        close(s);
    }

    std::vector<std::string> names;
    std::ifstream dev("/proc/net/dev");
    if (!dev) std::cerr << "/proc/net/dev: " << std::strerror(errno) << '\n';
    std::string line;
    for (int lineno = 1; std::getline(dev, line); lineno++) {
        if (lineno <= 2) continue;                     // two header lines
        auto colon = line.find(':');
        if (colon == std::string::npos) continue;
        auto start = line.find_first_not_of(' ');
        names.push_back(line.substr(start, colon - start));
    }
    std::sort(names.begin(), names.end());
    std::cout << "interfaces ";
    for (size_t i = 0; i < names.size(); i++) std::cout << (i ? "," : "") << names[i];
    std::cout << '\n';

    struct { int family, type, proto; const char *what; } raws[] = {
        {AF_PACKET, SOCK_RAW, 0, "AF_PACKET"}, {AF_INET, SOCK_RAW, IPPROTO_ICMP, "AF_INET raw ICMP"}};
    for (auto &r : raws) {
        int fd = socket(r.family, r.type, r.proto);
        if (fd < 0) { std::cerr << r.what << ": " << std::strerror(errno) << '\n'; std::cout << "raw refused\n"; }
        else { std::cout << "RAW OPENED\n"; close(fd); }
    }
    return 0;
}
