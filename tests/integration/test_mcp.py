#!/usr/bin/env python3
"""`warmbox mcp` end to end: the official MCP TypeScript SDK client (npm
@modelcontextprotocol/sdk) spawns it over stdio against a real warmboxd;
then the protocol edges by hand (parse errors, unknown methods, batches,
notifications, ids kept, the daemon down as a tool error)."""
import base64
import json
import os
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wbtest import WARMBOX, Daemon, Tap, node_client_ready, node_steps, read_lines, wait_until  # noqa: E402

t = Tap()
d = Daemon()


def text_of(res):
    return "".join(c.get("text", "") for c in (res or {}).get("content", []))


if node_client_ready("@modelcontextprotocol"):
    rc, res, stderr = node_steps("mcp_client.mjs", WARMBOX, "unix:" + d.sock)
    t.ok(rc == 0 and res.get("closed") is True, "the SDK client ran every step and closed", stderr[-2000:])
    t.ok(res.get("server", {}).get("info", {}).get("name") == "warmbox"
         and "tools" in res.get("server", {}).get("caps", {}), "initialize: serverInfo and the tools capability")
    t.is_eq(res.get("ping"), {}, "ping")
    tools = res.get("tools") or []
    schema = tools[0].get("inputSchema", {}) if tools else {}
    t.ok(len(tools) == 1 and tools[0]["name"] == "execute_code" and schema.get("required") == ["language", "code"]
         and set(schema["properties"]["language"].get("enum", [])) >= {"python", "javascript"}
         and {"stdin", "files", "timeout_ms"} <= set(schema["properties"]),
         "tools/list: execute_code with the daemon's languages", tools)
    r = res.get("python")
    t.ok(r and r.get("isError") is False and "exit status 0" in text_of(r) and "hello" in text_of(r),
         "python with stdin: text content with the status and stdout", r)
    r = res.get("state_set")
    t.ok(r and r.get("isError") is False and "not kept for the next call: lk" in text_of(r),
         "a session per client: a name that cannot be kept is named in the result", r)
    r = res.get("state_use")
    t.ok(r and r.get("isError") is False and "42" in text_of(r),
         "state across two tool calls: the second sees x from the first", r)
    desc = tools[0].get("description", "") if tools else ""
    t.ok("State persists between calls" in desc and "do not" in desc,
         "the tool's description tells the model what persists and what does not", desc)
    r = res.get("progress") or {}
    ticks = [p for p in r.get("progress", []) if "tick 1" in p.get("message", "")]
    t.ok(ticks and "tick 2" not in ticks[0].get("message", "") and "tick 2" in text_of(r.get("result")),
         "progress notifications carry the output while the run lasts (tick 1 on its own, before the result)",
         r)
    r = res.get("exit")
    t.ok(r and r.get("isError") is False and "exit status 4" in text_of(r) and "bad" in text_of(r),
         "a non-zero exit is a result (the program failed, not the sandbox), stderr shown", r)
    r = res.get("files")
    t.ok(r and r.get("isError") is False and "42" in text_of(r), "files: a CSV given in files is read", r)
    r = res.get("chart") or {}
    imgs = [c for c in r.get("content", []) if c.get("type") == "image"]
    png = base64.b64decode(imgs[0]["data"]) if imgs else b""
    t.ok(r.get("isError") is False and len(imgs) == 1 and imgs[0].get("mimeType") == "image/png"
         and png.startswith(b"\x89PNG\r\n\x1a\n") and struct.unpack(">II", png[16:24]) == (16, 22),
         "a chart the program wrote reaches the SDK as an image content block (PNG, 16x22)", r)
    t.ok("chart.png" in text_of(r) and "total 42" in text_of(r),
         "and the text lists it, with a text file's content", text_of(r))
    r = res.get("bad_file")
    t.ok(r and r.get("isError") is True and "files[0].name" in text_of(r),
         "files: a bad name is a tool error saying why", r)
    r = res.get("timeout")
    t.ok(r and r.get("isError") is True and "timed out" in text_of(r), "a timeout is a tool error", r)
    r = res.get("big")
    t.ok(r and "showing the first 1000 of 5001 bytes" in text_of(r) and len(text_of(r)) < 1400,
         "output to the model is capped (--max-output 1000), and the cut is said", len(text_of(r or {})))
    r = res.get("unknown_lang")
    t.ok(r and r.get("isError") is True and "unknown language" in text_of(r), "an unknown language is a tool error", r)
    r = res.get("missing")
    t.ok(r and r.get("isError") is True and "code" in text_of(r), "missing arguments are a tool error", r)
    r = res.get("parallel") or [{}, {}, None]
    t.ok("a" in text_of(r[0]) and "b" in text_of(r[1]) and r[2] == {},
         "two calls run at once and a ping is answered meanwhile", r)
    r = res.get("unknown_tool")
    t.ok(isinstance(r, dict) and r.get("code") == -32602, "an unknown tool is a JSON-RPC error (-32602)", r)
    r = res.get("cancel")
    t.ok(isinstance(r, dict) and r.get("aborted"), "a call can be cancelled", r)
    t.ok(wait_until(lambda: not d.our_running(), timeout=10),
         "the cancelled run's container is gone (not left to its 30 s sleep)")
else:
    t.ok(False, "@modelcontextprotocol/sdk is installed (scripts/setup.sh runs npm ci in tests/node)")


# ---- by hand ----------------------------------------------------------------
def session(lines, url=None, answers=0):
    """The lines sent; with answers, stdin closes only once that many have
    come (the end of input abandons the calls still running)."""
    p = subprocess.Popen([WARMBOX, "--url", url or "unix:" + d.sock, "mcp"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    for line in lines:
        p.stdin.write((line if isinstance(line, str) else json.dumps(line)).encode() + b"\n")
        p.stdin.flush()
    head = read_lines(p.stdout, answers) if answers else b""
    out, err = p.communicate(timeout=60)
    out = head + out
    return p.returncode, [json.loads(l) for l in out.decode().splitlines() if l.strip()], err.decode()


rc, msgs, err = session([
    "{oops",
    [{"jsonrpc": "2.0", "id": 1, "method": "ping"}],
    {"jsonrpc": "2.0", "id": "s-1", "method": "initialize",
     "params": {"protocolVersion": "2024-11-05", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}},
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
    {"jsonrpc": "2.0", "id": 7, "method": "resources/list"},
    {"jsonrpc": "2.0", "id": 8, "method": "tools/call", "params": "nope"},
    {"jsonrpc": "1.0", "id": 9, "method": "ping"},
    {"jsonrpc": "2.0", "id": 10, "method": "ping"},
])
by_id = {json.dumps(m.get("id")): m for m in msgs}
t.ok(rc == 0, "stdin closed: exit 0", err)
t.ok(any(m.get("id") is None and m.get("error", {}).get("code") == -32700 for m in msgs), "not JSON: -32700, id null")
t.ok(any(m.get("id") is None and m.get("error", {}).get("code") == -32600 and "batch" in m["error"]["message"]
         for m in msgs), "a batch: -32600")
init = by_id.get('"s-1"', {}).get("result", {})
t.ok(init.get("protocolVersion") == "2024-11-05", "an older protocol version the client asks for is kept", init)
t.is_eq(by_id.get("7", {}).get("error", {}).get("code"), -32601, "an unknown method: -32601")
t.is_eq(by_id.get("8", {}).get("error", {}).get("code"), -32602, "params not an object: -32602")
t.is_eq(by_id.get("9", {}).get("error", {}).get("code"), -32600, "jsonrpc other than 2.0: -32600")
t.is_eq(by_id.get("10", {}).get("result"), {}, "ping answered with its id")
t.is_eq(len(msgs), 7, "the notification got no answer (7 answers for 8 messages)")

rc, msgs, err = session([{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                          "params": {"name": "execute_code", "arguments": {"language": "python", "code": "print(1)"}}}],
                        url="unix:/nonexistent/warmbox.sock", answers=1)
r = msgs[0].get("result", {}) if msgs else {}
t.ok(r.get("isError") is True and "unavailable" in text_of(r), "the daemon unreachable: a tool error, not a crash", msgs)

# A session that ended under the client (here deleted; idle or a restart
# alike): the next call runs in a new one and says so.
p = subprocess.Popen([WARMBOX, "--url", "unix:" + d.sock, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                     stderr=subprocess.PIPE)


def tool_call(i, code):
    p.stdin.write(json.dumps({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {
        "name": "execute_code", "arguments": {"language": "python", "code": code}}}).encode() + b"\n")
    p.stdin.flush()
    return json.loads(p.stdout.readline()).get("result", {})


r1 = tool_call(1, "y = 5\nprint(y)")
st, listed = d.request("GET", "/v1/sessions")
held = [x["id"] for x in listed.get("sessions", []) if x["language"] == "python"]
for sid in held:
    d.request("DELETE", "/v1/sessions/" + sid)
r2 = tool_call(2, "print(y)")
p.stdin.close()
p.wait(timeout=30)
t.ok("5" in text_of(r1) and held and "had ended" in text_of(r2) and "NameError" in text_of(r2),
     "the session ended under the client: the next call runs in a new one, and the result says so", (r1, r2))

t.is_eq(d.stop(), 0, "daemon exits 0")
log = d.read_log()
t.ok("sleep(30)" not in log and "olleh" not in log, "no code or stdin in the daemon's log")
t.done()
