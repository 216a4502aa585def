// Hostile: a fork bomb. Every process forks forever; the first time any of them sees fork fail
// with EAGAIN (the process limit), "fork EAGAIN" is written once (a flag in shared memory makes it
// once for the whole bomb), and everybody keeps trying.
#include <atomic>
#include <cerrno>
#include <cstring>
#include <new>
#include <sys/mman.h>
#include <unistd.h>

int main() {
    void *mem = mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    static std::atomic<int> fallback[2];
    std::atomic<int> *said = mem == MAP_FAILED ? fallback : new (mem) std::atomic<int>[2]{};
    for (;;) {
        pid_t p = fork();
        if (p < 0) {
            int e = errno;
            if (e == EAGAIN) {
                if (!said[0].exchange(1)) { ssize_t r = write(1, "fork EAGAIN\n", 12); (void)r; }
            } else if (!said[1].exchange(1)) {
                const char *name = strerrorname_np(e);
                if (!name) name = "?";
                ssize_t r = write(1, "fork other ", 11); r = write(1, name, std::strlen(name)); r = write(1, "\n", 1); (void)r;
            }
        }
    }
}
