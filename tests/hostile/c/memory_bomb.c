/* Hostile: allocate and touch 10 MB chunks forever, keeping every one of them. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CHUNK (10u << 20)
static void *volatile kept[1 << 20];

int main(void) {
    size_t n = 0;
    int said = 0;
    for (;;) {
        char *p = malloc(CHUNK);
        if (!p) {
            if (!said) { said = 1; ssize_t r = write(1, "malloc NULL\n", 12); (void)r; }
            continue;
        }
        memset(p, 0xA5, CHUNK);
        kept[n++ % (1 << 20)] = p;
    }
}
