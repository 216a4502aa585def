/* Hostile: signal every process it can reach with SIGKILL, then say so. */
#include <signal.h>
#include <stdio.h>

int main(void) {
    kill(-1, SIGKILL);
    puts("still here");
    return 0;
}
