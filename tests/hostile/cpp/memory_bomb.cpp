// Hostile: allocate and touch 10 MB chunks forever, keeping every one of them.
#include <cstring>
#include <memory>
#include <new>
#include <unistd.h>
#include <vector>

int main() {
    constexpr size_t chunk = 10u << 20;
    std::vector<std::unique_ptr<char[]>> kept;
    kept.reserve(1 << 16);
    bool said = false;
    for (;;) {
        try {
            std::unique_ptr<char[]> p(new char[chunk]);
            std::memset(p.get(), 0xA5, chunk);
            kept.push_back(std::move(p));
        } catch (const std::bad_alloc &) {
            if (!said) { said = true; ssize_t r = write(1, "bad_alloc\n", 10); (void)r; }
        }
    }
}
