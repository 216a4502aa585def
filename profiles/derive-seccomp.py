#!/usr/bin/env python3
"""Derive a language's seccomp allowlist by tracing the benign corpus.

    profiles/derive-seccomp.py LANGUAGE [--corpus DIR]... [--out FILE] [--why]

Every program in tests/benign/LANGUAGE (and tests/benign/LANGUAGE-stdlib,
the standard library's own tests, where it exists) runs on the host under
strace, the way the container runs it: docker-init (tini) starts the
profile's argv (the init built from profiles/init.c, then the bootstrap from
profiles/LANGUAGE), as an unprivileged uid, with the container's
environment, in namespaces of its own (pids, IPC with its own /dev/shm, a
network with only lo, and mounts: an empty working folder is mounted at
/tmp, so the host's /tmp is neither read nor written, and /etc/passwd and
/etc/group are the image's), with the input frame (the
program's files and stdin too: NAME.files/, NAME.stdin) on stdin.  The
images are built from the host's own interpreter and libraries
(build-image.sh), so the host runs the very binaries the containers run.

The allowlist is the union of
  - every syscall the traces show (successful or not),
  - RUNC_TAIL: what runc's Go runtime may still call between installing the
    filter and execve (runc sets seccomp "as close to execve as possible"),
  - VDSO: the calls the vDSO normally answers without a syscall,
  - ALWAYS: restart_syscall, which traces show or not by timing,
minus NEVER (the calls the security issue forbids whatever a trace says)
and STDLIB_PROBES seen only in the standard library's tests, with the
argument-filtered rules (clone, socket) and clone3 -> ENOSYS written out by
hand below.  --why prints, for each call the shipped list lacks, the
programs that traced it.  --add unites the result with the list shipped
now (a call, or a socket family, that another machine's trace showed
stays: a trace depends a little on the host it runs on).  Run as root (setpriv drops to the tracing uid).
"""
import argparse
import hashlib
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

# Allowed only with the arguments a hand-written rule below names.
ARGS_FILTERED = {"prlimit64"}

# What a language's own regression tests (tests/benign/LANGUAGE-stdlib)
# call only to probe privileges a sandbox never has: changing ids and
# groups, capabilities (dropped), an executable memory file (memfd_create:
# a way around the noexec /tmp).  The suites expect EPERM there (their
# cases skip or are left out, profiles/README.md); traced in the programs
# written as agents write them, a call is allowed as any other.
STDLIB_PROBES = {
    "setuid", "setgid", "setreuid", "setregid", "setresuid", "setresgid", "setgroups", "setfsuid",
    "setfsgid", "capget", "capset", "memfd_create",
}

CLONE_NS_FLAGS = 0x7E020000  # CLONE_NEWNS|NEWCGROUP|NEWUTS|NEWIPC|NEWUSER|NEWPID|NEWNET
AF_UNIX, AF_INET, AF_INET6 = 1, 2, 10
SOCK_STREAM, SOCK_DGRAM = 1, 2
IPPROTO_TCP, IPPROTO_UDP = 6, 17
SOCK_TYPE_MASK = 0xF


def hand_rules(traced, families):
    """clone and clone3 always; socket for the address families the traces
    show it made (AF_UNIX alone when only Unix sockets were seen: glibc's
    name service asks nscd's socket before /etc/passwd, as `ls -l` and
    tarfile do), IP ones for stream and datagram types only."""
    rules = [
        {"names": ["clone"], "action": "SCMP_ACT_ALLOW",
         "args": [{"index": 0, "value": CLONE_NS_FLAGS, "valueTwo": 0, "op": "SCMP_CMP_MASKED_EQ"}],
         "comment": "threads and processes, never new namespaces"},
        {"names": ["clone3"], "action": "SCMP_ACT_ERRNO", "errnoRet": 38,
         "comment": "ENOSYS: its flags sit in memory seccomp cannot read; glibc falls back to clone"},
    ]
    if "prlimit64" in traced:
        rules.append({"names": ["prlimit64"], "action": "SCMP_ACT_ALLOW",
                      "args": [{"index": 0, "value": 0, "valueTwo": 0, "op": "SCMP_CMP_EQ"}],
                      "comment": "the caller's own limits only (pid 0): another process's, the "
                                 "init's above all, are out of reach (RLIMIT_CPU would end it)"})
    if "socket" not in traced:
        return rules
    if "AF_UNIX" in families:
        rules.append({"names": ["socket"], "action": "SCMP_ACT_ALLOW",
                      "args": [{"index": 0, "value": AF_UNIX, "valueTwo": 0, "op": "SCMP_CMP_EQ"}],
                      "comment": "Unix sockets"})
    for family, name in ((AF_INET, "AF_INET"), (AF_INET6, "AF_INET6")):
        if name not in families:
            continue
        # The protocol too: the default (0), or TCP for a stream and UDP
        # for a datagram; any other (SCTP, MPTCP, ICMP) would reach kernel
        # code, or load a module, no program here needs.
        for kind, proto in ((SOCK_STREAM, 0), (SOCK_STREAM, IPPROTO_TCP), (SOCK_DGRAM, 0), (SOCK_DGRAM, IPPROTO_UDP)):
            rules.append({"names": ["socket"], "action": "SCMP_ACT_ALLOW",
                          "args": [{"index": 0, "value": family, "valueTwo": 0, "op": "SCMP_CMP_EQ"},
                                   {"index": 1, "value": SOCK_TYPE_MASK, "valueTwo": kind,
                                    "op": "SCMP_CMP_MASKED_EQ"},
                                   {"index": 2, "value": proto, "valueTwo": 0, "op": "SCMP_CMP_EQ"}],
                          "comment": "IP stream (TCP) and datagram (UDP) sockets only (no network anyway); "
                                     "raw, packet and netlink sockets and other protocols are refused"})
    return rules


SYSCALL_LINE = re.compile(r"^\d+\s+([a-z0-9_]+)\(")
SOCKET_FAMILY = re.compile(r"^\d+\s+socket\((AF_[A-Z0-9]+|\d+)")


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


def program_inputs(path):
    """A corpus program's stdin (NAME.stdin) and files (NAME.files/), as
    tests/benign/test_benign.py sends them."""
    base = os.path.splitext(path)[0]
    stdin, files = b"", []
    if os.path.exists(base + ".stdin"):
        with open(base + ".stdin", "rb") as f:
            stdin = f.read()
    if os.path.isdir(base + ".files"):
        for n in sorted(os.listdir(base + ".files")):
            with open(os.path.join(base + ".files", n), "rb") as f:
                files.append((n.encode(), f.read()))
    return stdin, files


def input_frame(profile, code, stdin, files):
    """The container's stdin as the daemon writes it (exec/exec.c
    write_frame, sched_frame_build): the init's line with its nonce (and a
    compile stage's limits) and one line per input file, then the frame.
    Files out bounded as the daemon sends them, so the init's walk of the
    working directory is traced too."""
    stages = b""
    if "compile" in profile:
        d = profile["limits"]["default"]
        stages = b" %d %d %d" % (d["compile_timeout_ms"], d["compile_output_bytes"], d["timeout_ms"])
    # The program's own file, where the bootstrap writes one, is an input
    # too, and its name is in the frame (exec/exec.c program_name).
    program = profile.get("program_file", "").encode()
    inputs = files + ([(program, code)] if program else [])
    head = b"w1 " + b"0" * 32 + b" 64 1048576 %d" % len(inputs) + stages + b"\n"
    for name, content in inputs:
        head += hashlib.sha256(content).hexdigest().encode() + b" " + name + b"\n"
    fields = ([b"n%d" % len(program)] if program else []) + [b"%d" % len(code)] + \
        [b"f%d:%d" % (len(n), len(c)) for n, c in files]
    return head + b" ".join(fields) + b"\n" + program + code + b"".join(n + c for n, c in files) + stdin


def trace_one(profile, init, bootstrap, frame, workdir, build, tracefile):
    """One traced run, as a container runs it, with the working folder
    mounted at /tmp in a mount namespace of its own: the program sees /tmp
    as its working directory, HOME and TMPDIR, as in a sandbox, and nothing
    it writes under /tmp reaches the host's /tmp (nor does a file there
    change what it does)."""
    argv = [host_path(a, init, bootstrap, build) for a in container_argv(profile)]
    # WARMBOX_INIT_TRACE: on the host the init must not kill(-1) as this uid.
    env = {"HOME": "/tmp", "TMPDIR": "/tmp", "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin",
           "WARMBOX_INIT_TRACE": "1"}
    # The profile's own environment, as the sandbox has it.
    for kv in profile.get("env", []):
        k, _, v = kv.partition("=")
        env[k] = v if v.startswith("/tmp") else host_path(v, init, bootstrap, build)
    trace = ["strace", "-f", "-qq", "-o", tracefile, "--",
             "setpriv", "--reuid=%d" % TRACE_UID, "--regid=%d" % TRACE_UID, "--clear-groups",
             "--no-new-privs", "--", "/usr/bin/docker-init", "-s", "--"] + argv
    # The image's /etc/passwd and /etc/group (build-image.sh), with the
    # tracing uid as its "sandbox-<uid>" user: who the program is, as in a sandbox.
    etc = os.path.dirname(tracefile)
    with open(os.path.join(etc, "passwd"), "w") as f:
        f.write("root:x:0:0:root:/root:/nonexistent\nnobody:x:65534:65534:nobody:/nonexistent:/nonexistent\n"
                "sandbox-%d:x:%d:%d:sandbox:/tmp:/nonexistent\n" % (TRACE_UID, TRACE_UID, TRACE_UID))
    with open(os.path.join(etc, "group"), "w") as f:
        f.write("root:x:0:\nnogroup:x:65534:\nsandbox-%d:x:%d:\n" % (TRACE_UID, TRACE_UID))
    # Namespaces of its own as a sandbox has them, so that a corpus program
    # reaches nothing of the host's but its files: pids (what it leaves
    # running ends with the trace), IPC and /dev/shm, and a network with
    # only lo.  The set-up happens before strace starts: it is not in the
    # trace.
    cmd = ["unshare", "--mount", "--propagation", "private", "--pid", "--fork", "--mount-proc", "--ipc", "--net",
           "--", "sh", "-c",
           'ip link set lo up && mount -t tmpfs -o nosuid,nodev,size=64m tmpfs /dev/shm'
           ' && mount --bind "$0" /tmp && mount --bind "$1/passwd" /etc/passwd && mount --bind "$1/group" /etc/group'
           # (cd sets PWD, which no sandbox has: Go's Getwd would read it
           # instead of calling getcwd)
           ' && cd /tmp && unset PWD OLDPWD && shift && exec "$@"', workdir, etc] + trace
    r = subprocess.run(cmd, input=frame, env=env, capture_output=True, timeout=300,
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
    """Names from the trace, and the address families of its socket calls,
    leaving out what strace's own child did before it became docker-init
    (setpriv's set-up runs as root, not in a container)."""
    names, families = set(), set()
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
        m = SOCKET_FAMILY.match(line)
        if m:
            families.add(m.group(1))
    return names, families


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    ap.add_argument("language")
    ap.add_argument("--corpus", action="append",
                    help="a corpus folder (repeatable); default tests/benign/LANGUAGE and, where it exists, "
                         "tests/benign/LANGUAGE-stdlib (the standard library's own tests)")
    ap.add_argument("--out")
    ap.add_argument("--every", type=int, default=1,
                    help="trace every Nth program of the corpus only (make test's re-trace of the compiled "
                         "languages, whose compilers make tracing slow)")
    ap.add_argument("--runs", type=int, default=1,
                    help="trace every program this many times (a runtime's threads and timers make "
                         "some calls come and go between runs: the shipped lists are the union of 3)")
    ap.add_argument("--why", action="store_true",
                    help="print, for every call the result allows that the shipped list does not, the "
                         "programs whose traces show it (what profiles/README.md's table of additions says)")
    ap.add_argument("--add", action="store_true",
                    help="unite the result with the list shipped now: every call and socket family it allows "
                         "stays (a trace on another machine may show what this one's does not)")
    a = ap.parse_args()
    pdir = os.path.join(HERE, a.language)
    with open(os.path.join(pdir, "profile.json")) as f:
        profile = json.load(f)
    corpora = a.corpus or [d for d in (os.path.join(ROOT, "tests", "benign", a.language),
                                        os.path.join(ROOT, "tests", "benign", a.language + "-stdlib"))
                           if os.path.isdir(d)]
    out = a.out or os.path.join(pdir, profile.get("seccomp", "seccomp.json"))
    bootstraps = [os.path.join(pdir, n) for n in os.listdir(pdir) if n.startswith("bootstrap.")]
    bootstrap = bootstraps[0] if bootstraps else None
    if os.geteuid() != 0:
        sys.exit("derive-seccomp: run as root (setpriv drops to uid %d)" % TRACE_UID)
    for tool in ("strace", "setpriv", "/usr/bin/docker-init"):
        if shutil.which(tool) is None:
            sys.exit("derive-seccomp: %s not found" % tool)

    traced, families, per_program, failed = set(), set(), {}, []
    # Not under /tmp: each run has its working folder mounted there.
    with tempfile.TemporaryDirectory(prefix="wb-trace-", dir="/var/tmp") as tmp:
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
        # (NAME.stdin is a program's input, NAME.files/ its files: not programs)
        paths = [os.path.join(c, n) for c in corpora for n in sorted(os.listdir(c))
                 if os.path.isfile(os.path.join(c, n)) and not n.endswith(".stdin")]
        for path in paths[::max(1, a.every)]:
            name = os.path.relpath(path, os.path.join(ROOT, "tests", "benign"))
            with open(path, "rb") as f:
                code = f.read()
            stdin, files = program_inputs(path)
            frame = input_frame(profile, code, stdin, files)
            per_program[name] = set()
            for run in range(a.runs):
                work = tempfile.mkdtemp(dir=tmp)
                os.chmod(work, 0o1777)
                tf = os.path.join(tmp, "%s.%d.trace" % (name.replace("/", "_"), run))
                build = tempfile.mkdtemp(dir=tmp)
                os.chmod(build, 0o1777)
                rc, so, se = trace_one(profile, init, boot, frame, work, build, tf)
                # A corpus program ends by printing OK; the standard library's
                # own tests by regrtest's verdict.
                if rc != 0 or not so.rstrip().endswith((b"OK", b"Tests result: SUCCESS")):
                    failed.append((name, rc, se.decode(errors="replace")[-300:]))
                seen, fams = syscalls_in(tf)
                per_program[name] |= seen
                traced |= seen
                families |= fams
    if failed:
        for name, rc, err in failed:
            print("derive-seccomp: %s failed on the host (exit %d): %s" % (name, rc, err), file=sys.stderr)
        sys.exit(1)

    # Probes seen only in the standard library's own tests stay denied.
    written = set().union(*[seen for n, seen in per_program.items() if not n.split("/")[0].endswith("-stdlib")])
    probes = sorted((traced - written) & STDLIB_PROBES)
    traced -= set(probes)
    if a.add:
        with open(os.path.join(pdir, profile.get("seccomp", "seccomp.json"))) as f:
            before = json.load(f)["syscalls"]
        traced |= set(before[0]["names"]) - NEVER
        for rule in before:
            if rule["names"] == ["prlimit64"] and rule["action"] == "SCMP_ACT_ALLOW":
                traced.add("prlimit64")
            if rule["names"] == ["socket"] and rule["action"] == "SCMP_ACT_ALLOW":
                traced.add("socket")
                families.add({AF_UNIX: "AF_UNIX", AF_INET: "AF_INET", AF_INET6: "AF_INET6"}[rule["args"][0]["value"]])
    allowed = sorted((traced | set(RUNC_TAIL) | set(VDSO) | set(ALWAYS)) - NEVER - ARGS_FILTERED)
    dropped = sorted(traced & (NEVER - {"clone", "clone3", "socket"}))
    doc = {
        "comment": "warmbox %s allowlist, derived by profiles/derive-seccomp.py %s%s from %d programs "
                   "of %s (traced syscalls + runc's tail before execve + vDSO fallbacks, minus the "
                   "forbidden set%s). Do not edit by hand; re-run the script."
                   % (a.language, a.language, (" --runs %d" % a.runs if a.runs > 1 else "") + (" --add" if a.add else ""),
                      len(per_program),
                      " and ".join(os.path.relpath(c, ROOT) for c in corpora),
                      ", united with the list shipped before" if a.add else ""),
        "defaultAction": "SCMP_ACT_ERRNO",
        "defaultErrnoRet": 1,
        "architectures": ["SCMP_ARCH_X86_64", "SCMP_ARCH_X86", "SCMP_ARCH_X32"],
        "syscalls": [{"names": allowed, "action": "SCMP_ACT_ALLOW"}] + hand_rules(traced, families),
    }
    if a.why:
        shipped_path = os.path.join(pdir, profile.get("seccomp", "seccomp.json"))
        with open(shipped_path) as f:
            shipped = {n for r in json.load(f)["syscalls"] for n in r["names"] if r["action"] == "SCMP_ACT_ALLOW"}
        for call in sorted(set(allowed) - shipped) + (["socket"] if "socket" in traced and "socket" not in shipped
                                                      else []):
            users = sorted(n for n, seen in per_program.items() if call in seen)
            print("derive-seccomp: new: %-16s %s" % (call, ", ".join(users) or "(runc's tail, vDSO)"))
    with open(out, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    print("derive-seccomp: %s: %d programs, %d syscalls traced, %d allowed; forbidden but traced "
          "(left denied): %s; probes of the standard library's tests (left denied): %s"
          % (a.language, len(per_program), len(traced), len(allowed), ", ".join(dropped) or "none",
             ", ".join(probes) or "none"))


if __name__ == "__main__":
    main()
