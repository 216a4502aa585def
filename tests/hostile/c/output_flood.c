/* Hostile: write 64 KiB chunks to stdout forever. */
#include <string.h>
#include <unistd.h>

static char chunk[65536];

int main(void) {
    memset(chunk, 'x', sizeof chunk);
    for (;;) {
        ssize_t r = write(1, chunk, sizeof chunk);
        (void)r;
    }
}
