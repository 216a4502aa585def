#!/usr/bin/env python3
"""docs/openapi.yaml against real responses: every endpoint, the outcomes
of an execution (ok, exit code, timeout, oom, output limit, binary output)
and the errors (400, 401, 404, 413 JSON and HTML, 429), /v1 and Piston.
The exchanges are recorded here and validated by Ajv (JSON Schema 2020-12)
in tests/node/validate_openapi.mjs."""
import hashlib
import http.client
import json
import os
import shutil
import socket
import ssl
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wbtest import ROOT, Daemon, Tap, UnixHTTPConnection, wait_until  # noqa: E402

t = Tap()
NODE_DIR = os.path.join(ROOT, "tests", "node")
SPEC = os.path.join(ROOT, "docs", "openapi.yaml")
tok = {"main": os.urandom(16).hex(), "slow": os.urandom(16).hex()}
work = tempfile.mkdtemp(prefix="warmbox-openapi-")
cfg_path = os.path.join(work, "config.json")
# One exchange goes over HTTPS: a self-signed certificate for 127.0.0.1.
subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                "-keyout", "key.pem", "-out", "cert.pem", "-days", "2", "-subj", "/CN=localhost",
                "-addext", "subjectAltName=IP:127.0.0.1"], cwd=work, capture_output=True, check=True)
s = socket.socket()
s.bind(("127.0.0.1", 0))
HTTPS_PORT = s.getsockname()[1]
s.close()
with open(cfg_path, "w") as f:
    json.dump({"max_body_bytes": 4 * 1048576,
               "tls": {"cert": os.path.join(work, "cert.pem"), "key": os.path.join(work, "key.pem")},
               "tokens": [
        {"name": "main", "sha256": hashlib.sha256(tok["main"].encode()).hexdigest(), "rate": 1000, "burst": 1000,
         "max_concurrent": 16, "role": "operator"},
        {"name": "slow", "sha256": hashlib.sha256(tok["slow"].encode()).hexdigest(), "rate": 0.01, "burst": 1}]}, f)
d = Daemon(extra_args=["--config", cfg_path, "--listen", "https://127.0.0.1:%d" % HTTPS_PORT], wait_ready=False)
exchanges = []


def call(name, method, path, body=None, raw=None, token="main", record=True, https=False):
    if https:
        ctx = ssl.create_default_context(cafile=os.path.join(work, "cert.pem"))
        c = http.client.HTTPSConnection("127.0.0.1", HTTPS_PORT, timeout=120, context=ctx)
    else:
        c = UnixHTTPConnection(d.sock, timeout=120)
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = "Bearer " + tok[token]
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    try:
        c.request(method, path, body=data, headers=headers)
    except (BrokenPipeError, ConnectionResetError):
        pass  # refused before the whole body was read: the answer is waiting
    r = c.getresponse()
    text = r.read().decode("utf-8", "replace")
    c.close()
    ex = {"name": name, "method": method, "path": path, "status": r.status,
          "content_type": r.getheader("Content-Type", ""), "body": text,
          "headers": {k.lower(): v for k, v in r.getheaders()}}
    if body is not None and r.status == 200:
        ex["request"] = body
    if record:
        exchanges.append(ex)
    return r.status, text


wait_until(lambda: all(l["ready"] for l in json.loads(call("", "GET", "/v1/languages", record=False)[1])["languages"]),
           timeout=30)
E = "/v1/executions"
call("exec ok", "POST", E, {"language": "python", "code": "print(42)"})
call("exec ok over HTTPS", "POST", E, {"language": "python", "code": "print(42)"}, https=True)
call("exec exit 7 + stdin + args", "POST", E, {"language": "python", "code": "import sys; print(sys.stdin.read(), sys.argv); sys.exit(7)",
                                               "stdin": "in", "args": ["a"], "timeout_ms": 5000, "memory_mb": 128})
call("exec stdin_base64", "POST", E, {"language": "javascript", "code": "process.stdin.pipe(process.stdout)", "stdin_base64": "AAE="})
call("exec binary stdout", "POST", E, {"language": "python", "code": "import sys; sys.stdout.buffer.write(b'\\xff\\x00')"})
call("exec files out", "POST", E, {"language": "python", "files": [{"name": "in.txt", "content": "x"}],
                                   "code": "open('a.txt', 'w').write('hi'); open('b.bin', 'wb').write(bytes(300))\n"
                                           "open('big', 'wb').write(b'z' * 2000000)"})
call("exec timeout", "POST", E, {"language": "python", "code": "while True: pass", "timeout_ms": 300})
call("exec oom", "POST", E, {"language": "python", "code": "x = bytearray(400 * 1024 * 1024)", "memory_mb": 64})
call("exec output limit", "POST", E, {"language": "python", "code": "import sys\nwhile True: sys.stdout.write('x' * 65536)"})
call("exec compiled", "POST", E, {"language": "c", "code": "#include <stdio.h>\nint main(void){puts(\"hi\");}",
                                   "compile_timeout_ms": 20000})
call("exec compile error", "POST", E, {"language": "c", "code": "int main(void){ return nope; }"})
call("exec filename", "POST", E, {"language": "python", "code": "print(__file__)", "filename": "solve.py"})
call("400 filename", "POST", E, {"language": "python", "code": "1", "filename": ".x.py"})
call("400 compile limits for a language without a compile stage", "POST", E,
     {"language": "python", "code": "1", "compile_timeout_ms": 1000})
call("400 malformed", "POST", E, raw=b"{nope")
call("400 unknown field", "POST", E, {"language": "python", "code": "1", "timeout": 5})
call("400 above the maximum", "POST", E, {"language": "python", "code": "1", "timeout_ms": 10 ** 8})
call("404 language", "POST", E, {"language": "cobol", "code": "1"})
call("413 code", "POST", E, {"language": "python", "code": "#" * (1048576 + 1)})
call("413 body over max_body_bytes (HTML from the HTTP layer)", "POST", E, raw=b"{" + b" " * (5 * 1048576) + b"}")
call("401", "POST", E, {"language": "python", "code": "1"}, token=None)
call("429 first", "POST", E, {"language": "python", "code": "1"}, token="slow", record=False)
call("429", "POST", E, {"language": "python", "code": "1"}, token="slow")
call("languages", "GET", "/v1/languages")
call("pools", "GET", "/v1/pools")
call("engines", "GET", "/v1/engines")
call("healthz", "GET", "/healthz", token=None)
call("readyz", "GET", "/readyz", token=None)
call("metrics", "GET", "/metrics")
call("401 languages", "GET", "/v1/languages", token=None)
call("piston runtimes", "GET", "/api/v2/runtimes")
call("piston execute", "POST", "/api/v2/execute", {"language": "py", "version": "*", "files": [{"content": "print(1)"}],
                                                   "stdin": "", "args": [], "run_timeout": 3000, "run_memory_limit": -1})
call("piston timeout", "POST", "/api/v2/execute", {"language": "python", "files": [{"content": "while 1: pass"}],
                                                   "run_timeout": 300})
call("piston compiled", "POST", "/api/v2/execute", {"language": "gcc", "files": [{"content": "int main(void){return 2;}"}],
                                                    "compile_timeout": 20000, "compile_memory_limit": -1})
call("piston compile error", "POST", "/api/v2/execute", {"language": "c", "files": [{"content": "int main(void){ x }"}]})
call("piston program name", "POST", "/api/v2/execute",
     {"language": "js", "files": [{"name": "my_cool_code.js", "content": "console.log(process.argv)"}]})
call("piston 404", "POST", "/api/v2/execute", {"language": "cobol", "files": [{"content": "x"}]})
call("piston 400", "POST", "/api/v2/execute", {"language": "python", "files": []})
call("piston 401", "POST", "/api/v2/execute", {"language": "python", "files": [{"content": "1"}]}, token=None)

st, text = call("session create 201", "POST", "/v1/sessions", {"language": "python", "idle_ttl_s": 600})
sid = json.loads(text).get("id", "none")
call("session execution", "POST", "/v1/sessions/%s/executions" % sid, {"code": "x = 6\nprint(x * 7)"})
call("session execution, state carried", "POST", "/v1/sessions/%s/executions" % sid,
     {"language": "python", "code": "import threading\nlk = threading.Lock()\nprint(x)"})
call("session get", "GET", "/v1/sessions/" + sid)
call("session list", "GET", "/v1/sessions")
call("session 404 another token's", "GET", "/v1/sessions/" + sid, token="slow")
call("session 400 another language", "POST", "/v1/sessions/%s/executions" % sid, {"language": "c", "code": "1"})
call("session 404 language", "POST", "/v1/sessions", {"language": "cobol"})
call("session delete", "DELETE", "/v1/sessions/" + sid)
call("session 410 deleted", "GET", "/v1/sessions/" + sid)
call("session 410 call", "POST", "/v1/sessions/%s/executions" % sid, {"code": "print(x)"})

# Each case got the status its name says (200 when it names none).
wrong = [(e["name"], e["status"]) for e in exchanges
         if e["status"] != next((int(w) for w in e["name"].split() if w.isdigit() and len(w) == 3), 200)]
t.ok(not wrong, "every case got the status it exercises", wrong)
statuses = sorted({(e["path"], e["status"]) for e in exchanges})
t.diag("recorded %d exchanges: %s" % (len(exchanges), statuses))
if shutil.which("node") and os.path.isdir(os.path.join(NODE_DIR, "node_modules", "ajv")):
    path = os.path.join(os.path.dirname(cfg_path), "exchanges.json")
    with open(path, "w") as f:
        json.dump(exchanges, f)
    p = subprocess.run(["node", os.path.join(NODE_DIR, "validate_openapi.mjs"), SPEC, path],
                       capture_output=True, text=True, timeout=120)
    results = [json.loads(l) for l in p.stdout.splitlines() if l.startswith("{")]
    t.ok(p.returncode == 0 and len(results) == len(exchanges) + 1, "the validator ran", p.stderr[-2000:])
    for r in results:
        ex = next((e for e in exchanges if e["name"] == r["name"]), None)
        t.ok(r["ok"], "openapi: %s%s" % (r["name"], " (%s %s)" % (ex["status"], ex["path"]) if ex else ""),
             {"errors": r["errors"], "body": ex["body"][:500] if ex else None})
else:
    t.ok(False, "ajv and yaml are installed (scripts/setup.sh runs npm ci in tests/node)")
t.is_eq(d.stop(), 0, "daemon exits 0")
os.unlink(cfg_path)
t.done()
