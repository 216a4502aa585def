// Hostile: signal every process it can reach with SIGKILL, then say so.
#include <csignal>
#include <iostream>

int main() {
    kill(-1, SIGKILL);
    std::cout << "still here" << std::endl;
    return 0;
}
