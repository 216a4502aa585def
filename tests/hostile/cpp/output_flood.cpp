// Hostile: write 64 KiB chunks to stdout forever.
#include <iostream>
#include <string>

int main() {
    const std::string chunk(65536, 'x');
    for (;;) {
        std::cout.write(chunk.data(), static_cast<std::streamsize>(chunk.size()));
        std::cout.flush();
    }
}
