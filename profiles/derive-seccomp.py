#!/usr/bin/env python3
"""Derive a language's seccomp allowlist by tracing the benign corpus.

    profiles/derive-seccomp.py LANGUAGE [--corpus DIR] [--out FILE]

Every program in tests/benign/LANGUAGE runs on the host under strace, the
way the container runs it: docker-init (tini) starts the profile's argv (the
init built from profiles/init.c, then the bootstrap from profiles/LANGUAGE),
as an unprivileged uid, with the
container's environment, in an empty working folder, and the input frame on
stdin.  The images are built from the host's own interpreter and libraries
(build-image.sh), so the host runs the very binaries the containers run.

The allowlist is the union of
  - every syscall the traces show (successful or not),
  - RUNC_TAIL: what runc's Go runtime may still call between installing the
    filter and execve (runc sets seccomp "as close to execve as possible"),
  - VDSO: the calls the vDSO normally answers without a syscall,
  - ALWAYS: restart_syscall, which traces show or not by timing,
minus NEVER (the calls the security issue forbids whatever a trace says),
with the argument-filtered rules (clone, socket) and clone3 -> ENOSYS written
out by hand below.  Run as root (setpriv drops to the tracing uid).
"""
import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
TRACE_UID = 60999

# runc 1.1 (libcontainer/standard_init_linux.go) after seccomp.InitSeccomp:
# close the init and log pipes; open the exec fifo through /proc/self/fd and
# write to it; getpid; utils.UnsafeCloseFrom (CVE-2024-21626: os.Open of
# /proc/self/fd, fstatfs to check it is procfs, getdents64, close); execve.
# Meanwhile the Go runtime: scheduler futexes and sleeps, the netpoller,
# signal delivery, stack and heap growth.
RUNC_TAIL = [
    "close", "openat", "write", "getpid", "fstatfs", "getdents64", "fstat", "newfstatat",
    "fcntl", "execve",
    "futex", "nanosleep", "sched_yield", "gettid", "tgkill", "rt_sigaction",
    "rt_sigprocmask", "rt_sigreturn", "sigaltstack", "mmap", "munmap", "madvise",
    "epoll_create1", "epoll_ctl", "epoll_pwait", "read", "exit", "exit_group", "clock_gettime",
]

# The vDSO answers these without entering the kernel on the host, so a trace
# never shows them; they become real syscalls where the clock source has no
# vDSO support (some VMs) and under gVisor (its own vDSO: asyncio failed
# there on clock_getres).
VDSO = ["clock_gettime", "clock_getres", "gettimeofday", "time", "getcpu"]

# The kernel's own restart of a sleep a signal interrupted (SIGSTOP and
# SIGCONT, a timer): whether a trace shows it is a matter of timing (a JVM's
# run showed it once in three), and no program asks for it.
ALWAYS = ["restart_syscall"]

# Never allowed, whatever a trace shows (issue 5; DESIGN.md hardening).
NEVER = {
    "ptrace", "mount", "umount", "umount2", "unshare", "setns", "keyctl", "add_key",
    "request_key", "bpf", "perf_event_open", "io_uring_setup", "io_uring_enter",
    "io_uring_register", "userfaultfd", "kexec_load", "kexec_file_load",
    "init_module", "finit_module", "delete_module", "create_module", "reboot",
    "swapon", "swapoff", "pivot_root", "chroot", "process_vm_readv", "process_vm_writev",
    "open_by_handle_at", "name_to_handle_at", "fsopen", "fsmount", "fsconfig",
    "move_mount", "open_tree", "fspick", "lookup_dcookie", "acct", "settimeofday",
    "clock_settime", "adjtimex", "clock_adjtime", "syslog", "quotactl", "vhangup",
    "iopl", "ioperm", "kcmp", "personality", "uselib", "ustat", "sysfs", "_sysctl",
    "nfsservctl", "mbind", "set_mempolicy", "migrate_pages", "move_pages",
    "pidfd_getfd", "seccomp",
    # hand-written rules below
    "clone", "clone3", "socket",
}

CLONE_NS_FLAGS = 0x7E020000  # CLONE_NEWNS|NEWCGROUP|NEWUTS|NEWIPC|NEWUSER|NEWPID|NEWNET
AF_UNIX, AF_INET, AF_INET6 = 1, 2, 10
SOCK_STREAM, SOCK_DGRAM = 1, 2
SOCK_TYPE_MASK = 0xF


def hand_rules(traced):
    rules = [
        {"names": ["clone"], "action": "SCMP_ACT_ALLOW",
         "args": [{"index": 0, "value": CLONE_NS_FLAGS, "valueTwo": 0, "op": "SCMP_CMP_MASKED_EQ"}],
         "comment": "threads and processes, never new namespaces"},
        {"names": ["clone3"], "action": "SCMP_ACT_ERRNO", "errnoRet": 38,
         "comment": "ENOSYS: its flags sit in memory seccomp cannot read; glibc falls back to clone"},
    ]
    if "socket" in traced:
        rules.append({"names": ["socket"], "action": "SCMP_ACT_ALLOW",
                      "args": [{"index": 0, "value": AF_UNIX, "valueTwo": 0, "op": "SCMP_CMP_EQ"}],
                      "comment": "Unix sockets"})
        for family in (AF_INET, AF_INET6):
            for kind in (SOCK_STREAM, SOCK_DGRAM):
                rules.append({"names": ["socket"], "action": "SCMP_ACT_ALLOW",
                              "args": [{"index": 0, "value": family, "valueTwo": 0, "op": "SCMP_CMP_EQ"},
                                       {"index": 1, "value": SOCK_TYPE_MASK, "valueTwo": kind,
                                        "op": "SCMP_CMP_MASKED_EQ"}],
                              "comment": "IP stream and datagram sockets only (no network anyway); "
                                         "raw, packet and netlink sockets are refused"})
    return rules


SYSCALL_LINE = re.compile(r"^\d+\s+([a-z0-9_]+)\(")


def container_argv(profile):
    """The container's command as the daemon builds it (sandbox/body.c):
    with a source file the init reads the frame and runs the stages."""
    argv = list(profile["argv"])
    if "source" not in profile:
        return argv
    cmd = [argv[0], "--source", profile["source"]]
    if profile.get("source_rule") == "java":
        cmd.append("--java")
    if "compile" in profile:
        cmd += ["--compile", str(len(profile["compile"]["argv"]))] + profile["compile"]["argv"]
    return cmd + ["--"] + argv[1:]


def host_path(a, init, bootstrap, build):
    """A path of the image as the host's trace has it."""
    if a == "/warmbox/init":
        return init
    if a == "/build" or a.startswith("/build/"):
        return build + a[len("/build"):]
    if a.startswith("/warmbox/"):
        return bootstrap if bootstrap and os.path.basename(a) == os.path.basename(bootstrap) \
            else os.path.join(os.path.dirname(init), a[len("/warmbox/"):])
    return a


def trace_one(profile, init, bootstrap, code, workdir, build, tracefile):
    argv = [host_path(a, init, bootstrap, build) for a in container_argv(profile)]
    # The init's line with its nonce (and a compile stage's limits), then
    # the frame.  Files out bounded as the daemon sends them, so the init's
    # walk of the working directory is traced too.
    stages = b""
    if "compile" in profile:
        d = profile["limits"]["default"]
        stages = b" %d %d %d" % (d["compile_timeout_ms"], d["compile_output_bytes"], d["timeout_ms"])
    frame = b"w1 " + b"0" * 32 + b" 64 1048576 0" + stages + b"\n" + b"%d\n" % len(code) + code
    # WARMBOX_INIT_TRACE: on the host the init must not kill(-1) as this uid.
    env = {"HOME": "/tmp", "TMPDIR": workdir, "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin",
           "WARMBOX_INIT_TRACE": "1"}
    # The profile's own environment, as the sandbox has it; paths under
    # /tmp are the working folder's here.
    for kv in profile.get("env", []):
        k, _, v = kv.partition("=")
        env[k] = v.replace("/tmp", workdir, 1) if v.startswith("/tmp") else host_path(v, init, bootstrap, build)
    cmd = ["strace", "-f", "-qq", "-o", tracefile, "--",
           "setpriv", "--reuid=%d" % TRACE_UID, "--regid=%d" % TRACE_UID, "--clear-groups",
           "--no-new-privs", "--", "/usr/bin/docker-init", "-s", "--"] + argv
    r = subprocess.run(cmd, input=frame, cwd=workdir, env=env, capture_output=True, timeout=120,
                       preexec_fn=default_signals)
    return r.returncode, r.stdout, r.stderr


def default_signals():
    """Every signal at its default and none blocked, as a container's
    first process has them: a shell's background job ignores SIGINT and
    SIGQUIT, and a program run so behaves otherwise (ruby then raises no
    Interrupt)."""
    for sig in signal.valid_signals():
        if sig not in (signal.SIGKILL, signal.SIGSTOP):
            try:
                signal.signal(sig, signal.SIG_DFL)
            except (OSError, ValueError):
                pass
    signal.pthread_sigmask(signal.SIG_SETMASK, [])


def syscalls_in(tracefile):
    """Names from the trace, leaving out what strace's own child did before
    it became docker-init (setpriv's set-up runs as root, not in a container)."""
    names = set()
    with open(tracefile, errors="replace") as f:
        lines = f.readlines()
    # The traced process execs setpriv, then docker-init: keep what follows
    # the execve of docker-init.
    started = False
    for line in lines:
        if not started:
            if 'execve("/usr/bin/docker-init"' in line:
                started = True
            continue
        m = SYSCALL_LINE.match(line)
        if m:
            names.add(m.group(1))
    return names


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    ap.add_argument("language")
    ap.add_argument("--corpus")
    ap.add_argument("--out")
    ap.add_argument("--every", type=int, default=1,
                    help="trace every Nth program of the corpus only (make test's re-trace of the compiled "
                         "languages, whose compilers make tracing slow)")
    ap.add_argument("--runs", type=int, default=1,
                    help="trace every program this many times (a runtime's threads and timers make "
                         "some calls come and go between runs: the shipped lists are the union of 3)")
    a = ap.parse_args()
    pdir = os.path.join(HERE, a.language)
    with open(os.path.join(pdir, "profile.json")) as f:
        profile = json.load(f)
    corpus = a.corpus or os.path.join(ROOT, "tests", "benign", a.language)
    out = a.out or os.path.join(pdir, profile.get("seccomp", "seccomp.json"))
    bootstraps = [os.path.join(pdir, n) for n in os.listdir(pdir) if n.startswith("bootstrap.")]
    bootstrap = bootstraps[0] if bootstraps else None
    if os.geteuid() != 0:
        sys.exit("derive-seccomp: run as root (setpriv drops to uid %d)" % TRACE_UID)
    for tool in ("strace", "setpriv", "/usr/bin/docker-init"):
        if shutil.which(tool) is None:
            sys.exit("derive-seccomp: %s not found" % tool)

    traced, per_program, failed = set(), {}, []
    with tempfile.TemporaryDirectory(prefix="wb-trace-") as tmp:
        os.chmod(tmp, 0o755)
        boot = None
        if bootstrap:
            boot = os.path.join(tmp, os.path.basename(bootstrap))
            shutil.copy(bootstrap, boot)
            os.chmod(boot, 0o644)
        # TypeScript's compile stage, as the image has it under /warmbox: the
        # translator, the compiler, and its code cache made by this node.
        if a.language == "typescript":
            shutil.copy(os.path.join(pdir, "translate.js"), os.path.join(tmp, "translate.js"))
            shutil.copytree(os.path.join(pdir, "node_modules"), os.path.join(tmp, "node_modules"))
            subprocess.run(["node", "translate.js", "--make-cache", "typescript.cache"], cwd=tmp, check=True)
            subprocess.run(["chmod", "-R", "a+rX", tmp], check=True)
        # javac's class-data archive, as the image has it (build-image.sh).
        if a.language == "java":
            jh = "/usr/lib/jvm/java-17-openjdk-amd64/bin/"
            with open(os.path.join(tmp, "Main.java"), "w") as f:
                f.write("public class Main { public static void main(String[] a) {} }\n")
            subprocess.run([jh + "javac", "-J-XX:ArchiveClassesAtExit=" + os.path.join(tmp, "javac.jsa"),
                            "-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC", "-J-XX:-UsePerfData",
                            "-d", os.path.join(tmp, "jcds"), os.path.join(tmp, "Main.java")],
                           check=True, capture_output=True)
            os.chmod(os.path.join(tmp, "javac.jsa"), 0o644)
        # The language's own modules, beside the bootstrap as in /warmbox.
        if os.path.isdir(os.path.join(pdir, "lib")):
            shutil.copytree(os.path.join(pdir, "lib"), os.path.join(tmp, "lib"),
                            ignore=shutil.ignore_patterns("__pycache__"))
            for dp, dns, fns in os.walk(os.path.join(tmp, "lib")):
                os.chmod(dp, 0o755)
                for n in fns:
                    os.chmod(os.path.join(dp, n), 0o644)
        init = os.path.join(tmp, "init")
        subprocess.run([os.environ.get("CC", "cc"), "-static", "-O2", "-s", "-o", init,
                        os.path.join(HERE, "init.c"), os.path.join(HERE, "java_scan.c")], check=True)
        os.chmod(init, 0o755)
        names = [n for n in sorted(os.listdir(corpus)) if os.path.isfile(os.path.join(corpus, n))]
        for name in names[::max(1, a.every)]:
            path = os.path.join(corpus, name)
            with open(path, "rb") as f:
                code = f.read()
            per_program[name] = set()
            for run in range(a.runs):
                work = tempfile.mkdtemp(dir=tmp)
                os.chmod(work, 0o1777)
                tf = os.path.join(tmp, "%s.%d.trace" % (name, run))
                build = tempfile.mkdtemp(dir=tmp)
                os.chmod(build, 0o1777)
                rc, so, se = trace_one(profile, init, boot, code, work, build, tf)
                if rc != 0 or not so.rstrip().endswith(b"OK"):
                    failed.append((name, rc, se.decode(errors="replace")[-300:]))
                names = syscalls_in(tf)
                per_program[name] |= names
                traced |= names
    if failed:
        for name, rc, err in failed:
            print("derive-seccomp: %s failed on the host (exit %d): %s" % (name, rc, err), file=sys.stderr)
        sys.exit(1)

    allowed = sorted((traced | set(RUNC_TAIL) | set(VDSO) | set(ALWAYS)) - NEVER)
    dropped = sorted(traced & (NEVER - {"clone", "clone3", "socket"}))
    doc = {
        "comment": "warmbox %s allowlist, derived by profiles/derive-seccomp.py %s%s from %d programs "
                   "of tests/benign/%s (traced syscalls + runc's tail before execve + vDSO fallbacks, minus the "
                   "forbidden set). Do not edit by hand; re-run the script."
                   % (a.language, a.language, " --runs %d" % a.runs if a.runs > 1 else "", len(per_program),
                      a.language),
        "defaultAction": "SCMP_ACT_ERRNO",
        "defaultErrnoRet": 1,
        "architectures": ["SCMP_ARCH_X86_64", "SCMP_ARCH_X86", "SCMP_ARCH_X32"],
        "syscalls": [{"names": allowed, "action": "SCMP_ACT_ALLOW"}] + hand_rules(traced),
    }
    with open(out, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    print("derive-seccomp: %s: %d programs, %d syscalls traced, %d allowed; forbidden but traced "
          "(left denied): %s" % (a.language, len(per_program), len(traced), len(allowed),
                                 ", ".join(dropped) or "none"))


if __name__ == "__main__":
    main()
