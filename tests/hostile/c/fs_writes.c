/* Hostile: try to create files on the read-only root filesystem. Prints "<path> refused" when open()
 * fails (the reason goes to stderr) or "<path> WRITTEN" when it succeeds; then "done". */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(void) {
    const char *paths[] = {"/etc/warmbox_pwned", "/usr/bin/warmbox_pwned", "/warmbox_pwned"};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        int fd = open(paths[i], O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0) {
            fprintf(stderr, "%s: %s\n", paths[i], strerror(errno));
            printf("%s refused\n", paths[i]);
        } else {
            ssize_t r = write(fd, "pwned\n", 6); (void)r;
            close(fd);
            printf("%s WRITTEN\n", paths[i]);
        }
        fflush(stdout);
    }
    puts("done");
    return 0;
}
