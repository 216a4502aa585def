#!/usr/bin/env python3
"""`warmbox repl python` driven through a pty, as a person would use it:
each entry runs in a fresh container with the session's state (a name set
in one entry is used in the next, a function defined in a block is called
later, a name that cannot be kept is said and then missing); the history
shows one container per entry; Ctrl-C while typing drops the entry, and
while an entry runs stops it; Ctrl-D ends the session and leaves with 0."""
import os
import pty
import select
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wbtest import WARMBOX, Daemon, Tap, rows, wait_until  # noqa: E402

t = Tap()
d = Daemon(wait_ready=True)
pid, fd = pty.fork()
if pid == 0:
    os.execv(WARMBOX, [WARMBOX, "--url", "unix:" + d.sock, "repl", "python"])
seen = b""


def read_until(want, timeout=60):
    """Read the pty until want appears after what was read before."""
    global seen
    start = len(seen)
    end = time.time() + timeout
    while time.time() < end:
        if want in seen[start:]:
            return True
        r, _, _ = select.select([fd], [], [], 0.2)
        if r:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
    return want in seen[start:]


def send(text):
    os.write(fd, text.encode())


t.ok(read_until(b">>> "), "the REPL starts a session and prompts", seen[-500:])
t.ok(b"session ses_" in seen and b"fresh container" in seen, "it says it runs each entry in a fresh container")
send("x = 21\n")
t.ok(read_until(b">>> "), "an assignment: no output, the next prompt")
send("print(x * 2)\n")
t.ok(read_until(b"42"), "the next entry sees x: 42", seen[-300:])
send("def double(n):\n    return 2 * n\n\n")
t.ok(read_until(b">>> "), "a block ends at a blank line", seen[-300:])
send("print(double(x) + 1)\n")
t.ok(read_until(b"43"), "a function defined in a block is there in a later entry", seen[-300:])
send("import threading\nlk = threading.Lock()\n")
t.ok(read_until(b"not kept: lk"), "a name that cannot be kept is said", seen[-400:])
send("print(lk)\n")
t.ok(read_until(b"NameError"), "and is missing in the next entry, alone", seen[-400:])
send("print('dropped'")
# The terminal has the line once it echoes it: then Ctrl-C drops it.
read_until(b"print('dropped'")
send("\x03")  # Ctrl-C: the terminal drops the line typed and sends SIGINT
t.ok(read_until(b"KeyboardInterrupt"), "Ctrl-C while typing drops the entry", seen[-300:])
send("print('after', x)\n")
t.ok(read_until(b"after 21"), "and the REPL goes on with the session's state", seen[-300:])
t.ok(b"dropped" not in seen.split(b"KeyboardInterrupt")[-1], "the dropped entry never ran")
earlier = set(d.our_containers("running"))
send("import time; time.sleep(60)\n")
# Ctrl-C only once the entry runs (a container seen running that was not
# before: not the last entry's, which may still be there): earlier, the
# terminal would still hold the line and drop it, as for a typed entry.
t.ok(wait_until(lambda: set(d.our_containers("running")) - earlier, timeout=60), "the long entry runs")
send("\x03")  # Ctrl-C while the entry runs: stopped
t.ok(read_until(b"interrupted: the entry was stopped\r\n>>> ", timeout=30),
     "Ctrl-C while an entry runs stops it, and the prompt comes back", seen[-300:])
t.ok(wait_until(lambda: not d.our_running(), timeout=15), "its container is gone")
send("print('still', x)\n")
t.ok(read_until(b"still 21"), "and the session goes on", seen[-300:])
send("\x04")
_, status = os.waitpid(pid, 0)
t.ok(os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, "Ctrl-D leaves with 0", status)
st, b = d.request("GET", "/v1/sessions")
t.ok(st == 200 and b.get("sessions") == [], "and ends its session", b)
sid = seen.split(b"session ")[1].split()[0].decode()
wait_until(lambda: len(rows(d.db, "SELECT 1 FROM executions WHERE session_id = ? AND status != 'running'",
                             sid)) >= 10, timeout=20)
got = rows(d.db, "SELECT session_seq, container_id FROM executions WHERE session_id = ? ORDER BY session_seq", sid)
t.ok(len(got) == 10 and len({c for _, c in got}) == 10 and [s for s, _ in got] == list(range(1, 11)),
     "the history: 10 entries (one stopped), 10 containers, in order", got)
d.stop()
t.done()
