/* Unix-domain sockets: socketpair (stream, datagram, seqpacket) with a child process, passing a
 * descriptor with SCM_RIGHTS, socket options, shutdown, and a named socket in the working directory. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "check failed: %s (line %d): %s\n", #c, __LINE__, strerror(errno)); exit(1); } } while (0)

static void send_fd(int sock, int fd) {
    char byte = 'F';
    struct iovec iov = {&byte, 1};
    union { char buf[CMSG_SPACE(sizeof(int))]; struct cmsghdr align; } u;
    struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf, .msg_controllen = sizeof u.buf};
    struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET; c->cmsg_type = SCM_RIGHTS; c->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(c), &fd, sizeof fd);
    CHECK(sendmsg(sock, &msg, 0) == 1);
}
static int recv_fd(int sock) {
    char byte;
    struct iovec iov = {&byte, 1};
    union { char buf[CMSG_SPACE(sizeof(int))]; struct cmsghdr align; } u;
    struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf, .msg_controllen = sizeof u.buf};
    CHECK(recvmsg(sock, &msg, MSG_CMSG_CLOEXEC) == 1 && byte == 'F');
    struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
    CHECK(c && c->cmsg_type == SCM_RIGHTS);
    int fd; memcpy(&fd, CMSG_DATA(c), sizeof fd);
    return fd;
}

static void *client(void *arg) {
    const char *path = arg;
    int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0); CHECK(s >= 0);
    struct sockaddr_un a = {.sun_family = AF_UNIX}; strcpy(a.sun_path, path);
    CHECK(connect(s, (struct sockaddr *)&a, sizeof a) == 0);
    CHECK(send(s, "ping", 4, 0) == 4);
    char buf[8] = {0}; CHECK(recv(s, buf, 4, MSG_WAITALL) == 4 && memcmp(buf, "pong", 4) == 0);
    close(s);
    return NULL;
}

int main(void) {
    /* stream socketpair with a child that sums the numbers it is sent */
    int sv[2]; CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
    fflush(stdout);
    pid_t pid = fork(); CHECK(pid >= 0);
    if (pid == 0) {
        close(sv[0]);
        long sum = 0, v; ssize_t r;
        while ((r = recv(sv[1], &v, sizeof v, MSG_WAITALL)) == sizeof v && v != 0) sum += v;
        if (send(sv[1], &sum, sizeof sum, 0) != sizeof sum) _exit(1);
        /* then receive a descriptor and write through it */
        int fd = recv_fd(sv[1]);
        if (write(fd, "via passed fd", 13) != 13) _exit(2);
        _exit(0);
    }
    close(sv[1]);
    for (long i = 1; i <= 10000; i++) CHECK(send(sv[0], &i, sizeof i, 0) == sizeof i);
    long zero = 0; CHECK(send(sv[0], &zero, sizeof zero, 0) == sizeof zero);   /* the end marker */
    long sum = 0; CHECK(recv(sv[0], &sum, sizeof sum, MSG_WAITALL) == sizeof sum && sum == 50005000L);
    int p[2]; CHECK(pipe(p) == 0);
    send_fd(sv[0], p[1]); close(p[1]);
    char buf[64] = {0}; ssize_t got = 0, r;
    while ((r = read(p[0], buf + got, sizeof buf - 1 - (size_t)got)) > 0) got += r;
    CHECK(got == 13 && strcmp(buf, "via passed fd") == 0);
    int st; CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0);
    CHECK(shutdown(sv[0], SHUT_RDWR) == 0);
    close(sv[0]); close(p[0]);

    /* datagrams keep their boundaries; seqpacket too */
    int types[2] = {SOCK_DGRAM, SOCK_SEQPACKET};
    for (int t = 0; t < 2; t++) {
        CHECK(socketpair(AF_UNIX, types[t] | SOCK_CLOEXEC, 0, sv) == 0);
        CHECK(send(sv[0], "one", 3, 0) == 3 && send(sv[0], "three", 5, 0) == 5);
        CHECK(recv(sv[1], buf, sizeof buf, 0) == 3 && recv(sv[1], buf, sizeof buf, 0) == 5);
        CHECK(send(sv[1], "x", 1, MSG_DONTWAIT) == 1);
        CHECK(recv(sv[0], buf, sizeof buf, MSG_DONTWAIT) == 1);
        CHECK(recv(sv[0], buf, sizeof buf, MSG_DONTWAIT) == -1 && errno == EAGAIN);
        close(sv[0]); close(sv[1]);
    }

    /* socket options */
    CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
    int sz = 0; socklen_t len = sizeof sz;
    CHECK(getsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &sz, &len) == 0 && sz > 0);
    int want = 65536; CHECK(setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &want, sizeof want) == 0);
    int type; len = sizeof type; CHECK(getsockopt(sv[0], SOL_SOCKET, SO_TYPE, &type, &len) == 0 && type == SOCK_STREAM);
    struct ucred cred; len = sizeof cred;
    CHECK(getsockopt(sv[0], SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0 && cred.pid == getpid() && cred.uid == getuid());
    struct timeval tv = {0, 10000}; CHECK(setsockopt(sv[0], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv) == 0);
    CHECK(recv(sv[0], buf, 1, 0) == -1 && (errno == EAGAIN || errno == EWOULDBLOCK));
    close(sv[0]); close(sv[1]);

    /* a named socket in the working directory: server here, client in a thread */
    const char *path = "server.sock";
    unlink(path);
    int srv = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0); CHECK(srv >= 0);
    struct sockaddr_un a = {.sun_family = AF_UNIX}; strcpy(a.sun_path, path);
    CHECK(bind(srv, (struct sockaddr *)&a, sizeof a) == 0 && listen(srv, 4) == 0);
    struct sockaddr_un bound; len = sizeof bound;
    CHECK(getsockname(srv, (struct sockaddr *)&bound, &len) == 0 && strcmp(bound.sun_path, path) == 0);
    pthread_t th; pthread_create(&th, NULL, client, (void *)path);
    int c = accept4(srv, NULL, NULL, SOCK_CLOEXEC); CHECK(c >= 0);
    CHECK(recv(c, buf, 4, MSG_WAITALL) == 4 && memcmp(buf, "ping", 4) == 0);
    CHECK(send(c, "pong", 4, MSG_NOSIGNAL) == 4);
    pthread_join(th, NULL);
    close(c); close(srv); CHECK(unlink(path) == 0);
    puts("OK");
    return 0;
}
