/* Hostile: reach the host. argv[1] is a TCP port listening on the host's 127.0.0.1: connect to it
 * ("connect refused" or "CONNECTED"); list the interfaces in /proc/net/dev ("interfaces a,b,...",
 * sorted); open packet and raw ICMP sockets ("raw refused" or "RAW OPENED" for each). Reasons go
 * to stderr. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int cmpstr(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int main(int argc, char **argv) {
    int port = argc > 1 ? atoi(argv[1]) : 0;
    int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (s < 0) {
        fprintf(stderr, "socket: %s\n", strerror(errno));
        puts("connect refused");
    } else {
        struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((unsigned short)port)};
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (connect(s, (struct sockaddr *)&a, sizeof a) < 0) {
            fprintf(stderr, "connect 127.0.0.1:%d: %s\n", port, strerror(errno));
            puts("connect refused");
        } else {
            puts("CONNECTED");
        }
        close(s);
    }

    char *names[256]; int n = 0;
    FILE *f = fopen("/proc/net/dev", "r");
    if (f) {
        char line[512]; int lineno = 0;
        while (fgets(line, sizeof line, f) && n < 256) {
            if (++lineno <= 2) continue;                 /* two header lines */
            char *colon = strchr(line, ':');
            if (!colon) continue;
            *colon = 0;
            char *name = line; while (*name == ' ') name++;
            names[n++] = strdup(name);
        }
        fclose(f);
    } else {
        fprintf(stderr, "/proc/net/dev: %s\n", strerror(errno));
    }
    qsort(names, (size_t)n, sizeof names[0], cmpstr);
    fputs("interfaces ", stdout);
    for (int i = 0; i < n; i++) printf("%s%s", i ? "," : "", names[i]);
    putchar('\n');

    struct { int family, type, proto; const char *what; } raws[] = {
        {AF_PACKET, SOCK_RAW, 0, "AF_PACKET"}, {AF_INET, SOCK_RAW, IPPROTO_ICMP, "AF_INET raw ICMP"}};
    for (int i = 0; i < 2; i++) {
        int r = socket(raws[i].family, raws[i].type, raws[i].proto);
        if (r < 0) { fprintf(stderr, "%s: %s\n", raws[i].what, strerror(errno)); puts("raw refused"); }
        else { puts("RAW OPENED"); close(r); }
    }
    return 0;
}
