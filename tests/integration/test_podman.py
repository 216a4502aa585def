#!/usr/bin/env python3
"""Podman as an engine (issue 12).

A root Podman service of our own (wbtest.PodmanService: runc, catatonit)
beside the machine's dockerd: warmboxd detects it, brings it the images,
writes the allowlists it reads from files (the profile's list plus what
catatonit needs), verifies a created container of each profile holds every
hardening setting, and runs code there: hello world, the fork and memory
bombs contained.  A rootless Podman service on this cgroup-v1 host drops
memory, pids and CPU limits while claiming them: warmboxd refuses it, with
a log line and /v1/engines state "refused".  catatonit's system calls are
derived again here (strace) and must all be allowed.
"""
import json
import os
import pwd
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wbtest import ROOT, Daemon, PodmanService, Tap, rows, trusted_dir, wait_until  # noqa: E402

if os.geteuid() != 0 or not shutil.which("podman") or not shutil.which("catatonit"):
    print("1..0 # SKIP needs root, podman and catatonit (scripts/setup.sh installs them)")
    sys.exit(0)

LANGS = ("python", "bash")
t = Tap()
tmp = tempfile.mkdtemp(prefix="warmbox-podman-")
profiles = os.path.join(tmp, "profiles")
os.makedirs(profiles)
for lang in LANGS:
    shutil.copytree(os.path.join(ROOT, "profiles", lang), os.path.join(profiles, lang),
                    ignore=shutil.ignore_patterns("__pycache__"))
seccomp_dir = trusted_dir("seccomp")
# The rootless service reads the allowlists as its own user.
os.chmod(tmp, 0o755)

# ---- catatonit's calls, derived again --------------------------------------
trace = os.path.join(tmp, "catatonit.trace")
subprocess.run(["strace", "-f", "-qq", "-o", trace, "catatonit", "--", "/bin/sh", "-c",
                "sleep 0.1; exit 3"], capture_output=True)
calls = set()
pids = set()
with open(trace) as f:
    lines = f.read().splitlines()
first = lines[0].split()[0] if lines else ""
for line in lines:
    pid, rest = line.split(None, 1)
    # catatonit's own calls: its pid's, up to its child's exec of sh.
    m = re.match(r"([a-z0-9_]+)\(", rest)
    if pid == first and m:
        calls.add(m.group(1))
body_c = open(os.path.join(ROOT, "sandbox", "body.c")).read()
listed = set(re.findall(r'"([a-z0-9_]+)"', body_c.split("sbx_catatonit_syscalls[] = {")[1].split("};")[0]))
py_allowed = set()
for rule in json.load(open(os.path.join(ROOT, "profiles", "python", "seccomp.json")))["syscalls"]:
    if rule["action"] == "SCMP_ACT_ALLOW":
        py_allowed |= set(rule["names"])
missing = sorted(calls - listed - py_allowed - {"execve"})
t.ok(calls and not missing, "every call catatonit makes (%d) is in the python allowlist or "
     "sbx_catatonit_syscalls" % len(calls), missing)

pod = PodmanService()
rootless = None
try:
    t.ok(pod.start(), "a root Podman service answers on its own socket", open(pod.log.name).read()[-2000:])
    cfg = os.path.join(tmp, "engines.json")
    with open(cfg, "w") as f:
        json.dump({"engines": [{"name": "main", "endpoint": "unix:///var/run/docker.sock"},
                               {"name": "pod", "endpoint": "unix://" + pod.sock, "seccomp_dir": seccomp_dir,
                                "weight": 3}],
                   "profiles_dir": profiles, "pools": {"default": {"min_ready": 2, "max_ready": 6}}}, f)
    d = Daemon(extra_args=["--config", cfg], wait_ready=False)

    def engines():
        st, body = d.request("GET", "/v1/engines")
        return {e["name"]: e for e in body.get("engines", [])} if st == 200 else {}

    t.ok(wait_until(lambda: engines().get("pod", {}).get("state") == "up"
                    and engines()["pod"]["images"] == len(LANGS) and engines()["pod"]["ready"] >= 2, timeout=240),
         "Podman is up, holding both images, its pools filling", engines().get("pod"))
    e = engines()["pod"]
    t.ok(e["kind"] == "podman" and e["default_runtime"] == "runc", "/v1/engines: kind podman, runtime runc", e)
    log = d.read_log()
    t.ok(re.search(r"engine pod: the python image sha256:[0-9a-f]{12} came from engine main", log),
         "the python image reached Podman through warmboxd")
    t.ok(re.search(r"engine pod: language bash: .* a container created there holds every hardening setting", log),
         "a bash container created on Podman was inspected and holds every hardening setting")
    files = sorted(os.listdir(seccomp_dir))
    t.ok(len(files) == len(LANGS) and all("catatonit" in f for f in files),
         "warmboxd wrote the allowlists Podman reads (%s)" % files)
    sec = json.load(open(os.path.join(seccomp_dir, [f for f in files if f.startswith("python")][0])))
    names = set(sec["syscalls"][0]["names"])
    t.ok({"signalfd4", "vfork"} <= names, "with catatonit's calls")

    # Run until Podman has served some of each kind.
    def run_until_pod(lang, code, n=12, **kw):
        out = []
        for _ in range(n):
            st, r = d.run(lang, code, **kw)
            eng = rows(d.db, "SELECT engine FROM executions WHERE id = ?", r.get("id", ""))
            out.append((st, r, eng[0][0] if eng else None))
            if sum(1 for x in out if x[2] == "pod") >= 3:
                break
        return out

    out = run_until_pod("python", "import os\nprint('hello', open('/proc/1/cmdline').read().split('\\0')[0])")
    on_pod = [r for st, r, e in out if e == "pod"]
    t.ok(len(on_pod) >= 3, "Podman ran python (%d of %d)" % (len(on_pod), len(out)))
    t.ok(all(r.get("status") == "ok" and r.get("stdout") == "hello /warmbox/init\n" for r in on_pod),
         "hello world on Podman, warmbox's init as PID 1 (no catatonit above it)", on_pod[:2])
    out = run_until_pod("bash", "echo $((6*7)); cat /proc/self/status | grep -c Cap.*0000000000000000")
    t.ok(any(e == "pod" and r.get("stdout") == "42\n5\n" for st, r, e in out),
         "bash on Podman: every capability set empty", [(r.get("stdout"), e) for st, r, e in out][:3])
    bomb = ("import os, time\npids = []\ntry:\n    while True:\n        p = os.fork()\n"
            "        if p == 0:\n            time.sleep(20)\n            os._exit(0)\n        pids.append(p)\n"
            "except OSError as e:\n    print('stopped at', len(pids), e.errno)\n")
    out = run_until_pod("python", bomb, timeout_ms=5000)
    fb = [r for st, r, e in out if e == "pod"]
    t.ok(fb and all(r.get("stdout", "").startswith("stopped at") and int(r["stdout"].split()[2]) < 64
                    for r in fb), "a fork bomb on Podman stops at the pids limit",
         [(r.get("status"), r.get("stdout")) for r in fb])
    out = run_until_pod("python", "chunks = []\nfor i in range(60):\n    chunks.append(b'x' * (10 * 1024 * 1024))\n"
                        "print('no limit')")
    mb = [r for st, r, e in out if e == "pod"]
    # Podman's inspect does not say OOMKilled (Docker's does): the kill
    # shows as exit 137 (SIGKILL), status ok.  The limit holds all the same.
    t.ok(mb and all(r.get("status") == "oom" or r.get("exit_code") == 137
                    or (r.get("exit_code") != 0 and "MemoryError" in r.get("stderr", ""))
                    for r in mb) and not any("no limit" in r.get("stdout", "") for r in mb),
         "a memory bomb (600 MB) on Podman is killed at 256 MB",
         [(r.get("status"), r.get("exit_code"), r.get("stderr", "")[-80:]) for r in mb])
    out = run_until_pod("python", "lines = open('/proc/net/dev').read().splitlines()[2:]\n"
                        "print([l.split(':')[0].strip() for l in lines])")
    t.ok(all(r.get("stdout") == "['lo']\n" for st, r, e in out if e == "pod"),
         "on Podman no network interface but loopback", [r.get("stdout") for st, r, e in out][:3])
    t.is_eq(d.stop(), 0, "warmboxd exits 0")
    left = pod.podman("ps", "-a", "--filter", "label=warmbox.instance=" + d.instance, "-q").stdout.split()
    t.is_eq(left, [], "no container of it is left on Podman")

    # ---- a seccomp_dir others can change: refused ---------------------------
    # Podman reads the allowlist from that folder at each create: whoever
    # can write there could swap in a weaker one.
    unsafe = os.path.join(tmp, "unsafe-seccomp")
    os.makedirs(unsafe)
    os.chmod(unsafe, 0o777)
    cfg = os.path.join(tmp, "unsafe.json")
    with open(cfg, "w") as f:
        json.dump({"engines": [{"name": "main", "endpoint": "unix:///var/run/docker.sock"},
                               {"name": "pod", "endpoint": "unix://" + pod.sock, "seccomp_dir": unsafe}],
                   "profiles_dir": profiles, "pools": {"default": {"min_ready": 1, "max_ready": 2}}}, f)
    d = Daemon(extra_args=["--config", cfg], wait_ready=False)
    t.ok(wait_until(lambda: engines().get("pod", {}).get("state") == "refused", timeout=120),
         "Podman with a seccomp_dir anyone can write is refused", engines().get("pod"))
    why = engines().get("pod", {}).get("refused") or ""
    t.ok("seccomp_dir is not safe" in why and "anyone" in why and "0777" in why, "and why is said", why)
    t.is_eq(os.listdir(unsafe), [], "no allowlist was written there")
    t.ok(d.run("bash", "echo fine")[1].get("stdout") == "fine\n", "main serves meanwhile")
    t.is_eq(d.stop(), 0, "warmboxd exits 0")

    # ---- rootless Podman on cgroup v1: refused -----------------------------
    user = "wbrootless"
    try:
        pwd.getpwnam(user)
    except KeyError:
        subprocess.run(["useradd", "--create-home", "--shell", "/usr/sbin/nologin", user], check=True)
    for f in ("/etc/subuid", "/etc/subgid"):
        text = open(f).read() if os.path.exists(f) else ""
        if not re.search(r"^%s:" % user, text, re.M):
            with open(f, "a") as fh:
                fh.write("%s:300000:65536\n" % user)
    rootless = PodmanService(user=user)
    t.ok(rootless.start(), "a rootless Podman service answers (as %s)" % user,
         open(rootless.log.name).read()[-2000:])
    os.chmod(rootless.runroot, 0o711)
    os.chmod(rootless.runtime_dir, 0o711)
    cfg = os.path.join(tmp, "rootless.json")
    with open(cfg, "w") as f:
        json.dump({"engines": [{"name": "main", "endpoint": "unix:///var/run/docker.sock"},
                               {"name": "rootless", "endpoint": "unix://" + rootless.sock,
                                "seccomp_dir": seccomp_dir}],
                   "profiles_dir": profiles, "pools": {"default": {"min_ready": 1, "max_ready": 2}}}, f)
    d = Daemon(extra_args=["--config", cfg], wait_ready=False)
    t.ok(wait_until(lambda: engines().get("rootless", {}).get("state") == "refused", timeout=240),
         "rootless Podman on cgroup v1 is refused", engines().get("rootless"))
    t.ok(re.search(r"engine rootless \(unix://\S+\) refused: a \w+ container created there: it does not "
                   r"enforce (Memory|PidsLimit|NanoCpus)", d.read_log()),
         "the log says which limit it drops", [x for x in d.read_log().splitlines() if "refused" in x][:2])
    t.ok("enforce" in (engines()["rootless"].get("refused") or ""), "/v1/engines says why",
         engines()["rootless"].get("refused"))
    outs = [d.run("bash", "echo %d" % i) for i in range(4)]
    t.ok(all(r.get("stdout") == "%d\n" % i for i, (st, r) in enumerate(outs)), "main serves meanwhile")
    t.ok(all(x[0] == "main" for x in rows(d.db, "SELECT engine FROM executions")), "and only main ran anything")
    t.is_eq(d.stop(), 0, "warmboxd exits 0")
finally:
    pod.cleanup()
    if rootless:
        rootless.cleanup()
    shutil.rmtree(tmp, ignore_errors=True)
t.done()
