#!/usr/bin/env python3
"""An engine that degrades under too many starts: a Unix-socket proxy in
front of the Docker socket that holds each `POST /containers/{id}/start`
for PENALTY x max(0, n - KNEE)^2 seconds (at most CAP) when n starts stay
in flight through it all along.  As n moves, so does the pace: the hold is
work that progresses at 1 / hold(n) per second for the n of each moment
(so a start that arrived first is slowed by those that came after it, as
on an engine whose starts contend for one lock or CPU, and a burst's
starts finish together rather than in arrival order).  Everything else passes
through byte for byte (the hijacked attach too), but for a "Connection:
close" on each plain request, so that every request comes through here.  So with many
starts at once the engine completes fewer per second, as an overloaded one
would, and a start limiter has something to gain over naive parallelism.

    slow_engine.py LISTEN_SOCK [UPSTREAM_SOCK] [--knee 4] [--penalty 0.02] [--cap 5]

Prints "ready" once listening; stops on SIGTERM.  A thread pair per
connection (plain blocking sockets: simple, and exact about half-closes).
"""
import argparse
import os
import re
import signal
import socket
import sys
import threading
import time

START = re.compile(rb"^POST (/v[0-9.]+)?/containers/[^/ ]+/start[ ?]")
lock = threading.Lock()
in_flight = 0


def copy(src, dst):
    """Bytes from src to dst until src's EOF, then half-close dst."""
    try:
        while True:
            data = src.recv(65536)
            if not data:
                break
            dst.sendall(data)
    except OSError:
        pass
    try:
        dst.shutdown(socket.SHUT_WR)
    except OSError:
        pass


def serve(client, args):
    global in_flight
    upstream = None
    counted = False
    try:
        # The first request's head decides: a start is held, then passed on.
        head = b""
        while b"\r\n\r\n" not in head and len(head) < 65536:
            data = client.recv(65536)
            if not data:
                return
            head += data
        if START.match(head):
            with lock:
                in_flight += 1
            counted = True
            done = 0.0
            while True:
                hold = min(args.cap, args.penalty * max(0, in_flight - args.knee) ** 2)
                if hold <= 0:
                    break
                tick = min(0.01, (1 - done) * hold)
                time.sleep(tick)
                done += tick / hold
                if done >= 0.999:
                    break
        if not re.search(rb"(?im)^upgrade:", head):
            # One request per connection (the engine closes after its
            # answer), so every request's head passes through here.
            end = head.index(b"\r\n\r\n")
            first = re.sub(rb"(?im)^connection:[^\r\n]*\r\n", b"", head[:end + 2])
            head = first + b"Connection: close\r\n\r\n" + head[end + 4:]
        upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        upstream.connect(args.upstream)
        upstream.sendall(head)
        back = threading.Thread(target=copy, args=(upstream, client), daemon=True)
        back.start()
        copy(client, upstream)
        back.join()
    except OSError:
        pass
    finally:
        if counted:
            with lock:
                in_flight -= 1
        for s in (client, upstream):
            if s is not None:
                s.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("listen")
    ap.add_argument("upstream", nargs="?", default="/var/run/docker.sock")
    ap.add_argument("--knee", type=int, default=4)
    ap.add_argument("--penalty", type=float, default=0.02)
    ap.add_argument("--cap", type=float, default=5.0)
    args = ap.parse_args()
    if os.path.exists(args.listen):
        os.unlink(args.listen)
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind(args.listen)
    srv.listen(512)

    def stop(*_):
        try:
            os.unlink(args.listen)
        except OSError:
            pass
        os._exit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    print("ready", flush=True)
    while True:
        client, _ = srv.accept()
        threading.Thread(target=serve, args=(client, args), daemon=True).start()


if __name__ == "__main__":
    main()
    sys.exit(0)
