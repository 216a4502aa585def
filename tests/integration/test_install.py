#!/usr/bin/env python3
"""make install into a scratch prefix: the files land where the docs say,
the installed config passes --check-config, the systemd unit passes
systemd-analyze verify, the installed daemon and CLI run code, a second
install keeps an edited config, and the --help texts name exactly the
options the programs accept."""
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wbtest import ROOT, WARMBOX, WARMBOXD, Tap, UnixHTTPConnection, wait_until  # noqa: E402

t = Tap()
tmp = tempfile.mkdtemp(prefix="warmbox-install-")
prefix, etc, state, units = (os.path.join(tmp, p) for p in ("usr", "etc", "var/lib/warmbox", "etc/systemd/system"))
make = ["make", "-s", "-C", ROOT, "install", "PREFIX=" + prefix, "SYSCONFDIR=" + etc, "STATEDIR=" + state,
        "UNITDIR=" + units, "CREATE_USER=no"]
p = subprocess.run(make, capture_output=True, text=True, timeout=600)
t.ok(p.returncode == 0, "make install PREFIX=... succeeds", p.stderr[-2000:])
want = ["usr/bin/warmboxd", "usr/bin/warmbox", "usr/bin/warmbox-oci", "usr/share/warmbox/profiles/python/profile.json",
        "usr/share/warmbox/profiles/javascript/seccomp.json", "usr/share/warmbox/profiles/build-image.sh",
        "usr/share/doc/warmbox/openapi.yaml", "etc/warmbox/config.json", "etc/systemd/system/warmboxd.service"]
missing = [w for w in want if not os.path.exists(os.path.join(tmp, w))]
t.ok(not missing and os.path.isdir(state), "binaries, profiles, docs, config, unit and state folder installed", missing)
t.is_eq(oct(os.stat(state).st_mode & 0o777), "0o750", "the state folder is 0750")

wbd, wb = os.path.join(prefix, "bin", "warmboxd"), os.path.join(prefix, "bin", "warmbox")
v = subprocess.run([wbd, "--version"], capture_output=True, text=True)
t.ok(v.returncode == 0 and re.match(r"^warmboxd \d+\.\d+\.\d+", v.stdout), "warmboxd --version", v.stdout)
cfg = os.path.join(etc, "warmbox", "config.json")
c = subprocess.run([wbd, "--check-config", cfg], capture_output=True, text=True)
t.ok(c.returncode == 0 and "configuration OK" in c.stdout and prefix in c.stdout + open(cfg).read(),
     "the installed config passes --check-config and points at the installed profiles", c.stdout + c.stderr)

unit = os.path.join(units, "warmboxd.service")
text = open(unit).read()
t.ok(all(k in text for k in ("NoNewPrivileges=yes", "ProtectSystem=strict", "CapabilityBoundingSet=",
                             "ExecReload=/bin/kill -HUP", "User=warmbox", wbd + " --config " + cfg)),
     "the unit runs the installed daemon unprivileged, hardened, with reload", text)
if shutil.which("systemd-analyze"):
    a = subprocess.run(["systemd-analyze", "verify", unit], capture_output=True, text=True, timeout=60)
    bad = [l for l in (a.stdout + a.stderr).splitlines()
           if l.strip() and "warmbox" in l and not re.search(r"user|group|docker\.service", l, re.I)]
    t.ok(not bad, "systemd-analyze verify finds nothing wrong in the unit", bad)
else:
    t.diag("no systemd-analyze here")

# The installed programs run code (own socket and history, same engine).
sock = os.path.join(tmp, "wb.sock")
log = open(os.path.join(tmp, "d.log"), "wb")
d = subprocess.Popen([wbd, "--config", cfg, "--listen", "unix:" + sock, "--store-path", os.path.join(tmp, "h.db")],
                     stdout=log, stderr=subprocess.STDOUT)
for _ in range(200):
    if os.path.exists(sock):
        break
    time.sleep(0.05)


def python_ready():
    # Ready once an engine holds the image and a container of it was
    # checked there (a request before that is told to come back: 503).
    try:
        conn = UnixHTTPConnection(sock, timeout=5)
        conn.request("GET", "/v1/languages")
        body = json.loads(conn.getresponse().read())
        return any(x["language"] == "python" and x["ready"] for x in body["languages"])
    except (OSError, ValueError, KeyError):
        return False


wait_until(python_ready, timeout=60)
r = subprocess.run([wb, "--url", "unix:" + sock, "run", "python", "-c", "print(6*7)"], capture_output=True,
                   text=True, timeout=120)
t.ok(r.returncode == 0 and r.stdout == "42\n", "the installed warmbox runs code through the installed warmboxd",
     r.stdout + r.stderr)
d.terminate()
t.is_eq(d.wait(timeout=60), 0, "the installed daemon stops cleanly")

with open(cfg, "a") as f:
    f.write("\n")
edited = open(cfg).read()
p = subprocess.run(make, capture_output=True, text=True, timeout=600)
t.ok(p.returncode == 0 and open(cfg).read() == edited, "a second install keeps the operator's config")


def long_options_in(text):
    return set(re.findall(r"(?<![\w-])--[a-z][a-z-]+", text))


src = open(os.path.join(ROOT, "daemon", "main.c")).read()
table = {"--" + n for n in re.findall(r'\{"([a-z-]+)", (?:no|required|optional)_argument', src)}
helptext = subprocess.run([WARMBOXD, "--help"], capture_output=True, text=True).stdout
t.is_eq(sorted(long_options_in(helptext)), sorted(table), "warmboxd --help names exactly the options it parses")
for opt in sorted(table - {"--help", "--version"}):
    r = subprocess.run([WARMBOXD, opt] + (["x"] if opt in ("--config", "--listen", "--engine", "--profiles",
                                                            "--store-path", "--check-config", "--print-spec") else [])
                       + ["--bogus-flag"], capture_output=True, text=True, timeout=30)
    if "unrecognized option '--bogus-flag'" not in r.stderr:
        t.ok(False, "warmboxd accepts %s" % opt, r.stderr)
        break
else:
    t.ok(True, "warmboxd accepts every option its help names")
clihelp = subprocess.run([WARMBOX, "--help"], capture_output=True, text=True).stdout
cmds = set(re.findall(r'strcmp \(argv\[i\], "([a-z]+)"\) == 0', open(os.path.join(ROOT, "cli", "warmbox.c")).read()))
t.ok(cmds >= {"run", "languages", "history", "plan", "mcp"} and all("warmbox %s" % c in clihelp for c in cmds),
     "warmbox --help shows every command it has", (cmds, clihelp))
shutil.rmtree(tmp)
t.done()
