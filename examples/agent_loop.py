#!/usr/bin/env python3
"""A minimal agent loop that runs a model's code in warmbox.

The "model" here is scripted (no API key or network needed): given a CSV,
it writes a program with a bug that reads it, reads the traceback warmbox
returns, fixes the program (which also draws a chart, chart.png), and
answers. The chart comes back in the result's files and is shown to the
model as an image: in the tool result (Anthropic style), or in a user
message after it (OpenAI style: tool messages carry text only). Swap
ScriptedModel for a real client call; the tool definition and the loop stay
the same.

    examples/agent_loop.py [--style openai|anthropic] [--url unix:/run/warmbox/warmbox.sock]

WARMBOX_URL and WARMBOX_TOKEN are read as the warmbox CLI reads them.
Python standard library only.
"""
import argparse
import base64
import http.client
import json
import os
import socket
import sys
import urllib.parse

# ---- the tool, as both function-calling styles want it (docs/agents.md) ----
PARAMETERS = {
    "type": "object",
    "properties": {
        "language": {"type": "string", "enum": ["python", "javascript"],
                     "description": "The language of the code"},
        "code": {"type": "string", "description": "The complete program; it runs as the main file"},
        "stdin": {"type": "string", "description": "Text fed to the program's standard input"},
        "files": {"type": "array", "maxItems": 64,
                  "description": ("Files the program finds in its working directory, e.g. a CSV to parse "
                                  "(plain names, no '/'; 16 MiB in all)"),
                  "items": {"type": "object",
                            "properties": {"name": {"type": "string"}, "content": {"type": "string"},
                                           "encoding": {"type": "string", "enum": ["utf8", "base64"]}},
                            "required": ["name", "content"]}},
        "timeout_ms": {"type": "integer", "minimum": 1,
                       "description": "Wall-clock limit in milliseconds (default: the language's)"},
    },
    "required": ["language", "code"],
    "additionalProperties": False,
}
DESCRIPTION = ("Run a complete program in a fresh, isolated sandbox (no network, read-only filesystem "
               "except /tmp, CPU, memory and time limits) and return its exit status, stdout and stderr, "
               "and the files it wrote to its working directory (images are shown to you). "
               "Nothing persists between calls: send the whole program each time.")
OPENAI_TOOL = {"type": "function", "function": {"name": "execute_code", "description": DESCRIPTION,
                                                "parameters": PARAMETERS}}
ANTHROPIC_TOOL = {"name": "execute_code", "description": DESCRIPTION, "input_schema": PARAMETERS}

MAX_OUTPUT = 16384  # bytes of each stream shown to the model


# ---- warmbox -----------------------------------------------------------------
class UnixConnection(http.client.HTTPConnection):
    def __init__(self, path, timeout):
        super().__init__("localhost", timeout=timeout)
        self.path = path

    def connect(self):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(self.timeout)
        self.sock.connect(self.path)


IMAGE_TYPES = ((b"\x89PNG\r\n\x1a\n", "image/png"), (b"\xff\xd8\xff", "image/jpeg"), (b"GIF8", "image/gif"))


def execute_code(url, args):
    """Run one tool call; returns (text for the model, is_error, images as
    [(media type, base64)])."""
    body = {k: args[k] for k in ("language", "code", "stdin", "files", "timeout_ms") if k in args}
    if url.startswith("unix:"):
        conn = UnixConnection(url[5:], timeout=120)
    else:
        u = urllib.parse.urlparse(url)
        conn = http.client.HTTPConnection(u.hostname, u.port or 80, timeout=120)
    headers = {"Content-Type": "application/json"}
    if os.environ.get("WARMBOX_TOKEN"):
        headers["Authorization"] = "Bearer " + os.environ["WARMBOX_TOKEN"]
    try:
        conn.request("POST", "/v1/executions", json.dumps(body), headers)
        r = conn.getresponse()
        res = json.loads(r.read() or b"{}")
    except (OSError, ValueError) as e:
        return "warmbox is unavailable: %s" % e, True, []
    finally:
        conn.close()
    if r.status != 200:
        return "warmbox refused to run the code (HTTP %d): %s" % (
            r.status, res.get("error", {}).get("message", "no reason given")), True, []
    parts = ["exit status %s" % res["exit_code"] if res["status"] == "ok" else "the run ended: %s" % res["status"]]
    for name in ("stdout", "stderr"):
        data = res[name]
        raw = base64.b64decode(data) if res[name + "_encoding"] == "base64" else data.encode()
        shown = raw[:MAX_OUTPUT].decode("utf-8", "replace")
        parts.append("--- %s ---\n%s" % (name, shown) if raw else "%s: (empty)" % name)
        if len(raw) > MAX_OUTPUT:
            parts.append("[%s cut: first %d of %d bytes]" % (name, MAX_OUTPUT, len(raw)))
    images = []
    for f in res.get("files") or []:
        if f["content"] is None:
            parts.append("file %s: %d bytes (not returned: past the output limit)" % (f["name"], f["size"]))
            continue
        raw = base64.b64decode(f["content"]) if f["encoding"] == "base64" else f["content"].encode()
        kind = next((t for magic, t in IMAGE_TYPES if raw.startswith(magic)), None)
        if kind:
            images.append((kind, base64.b64encode(raw).decode()))
            parts.append("file %s: %d bytes, %s (shown as an image)" % (f["name"], f["size"], kind))
        else:
            parts.append("--- file %s ---\n%s" % (f["name"], raw[:MAX_OUTPUT].decode("utf-8", "replace")))
    return "\n".join(parts), res["status"] != "ok", images


# ---- a scripted "model" ---------------------------------------------------------
READ = "import csv, statistics\nxs = [float(r['x']) for r in csv.DictReader(open('data.csv'))]\n"
BUGGY = READ + "print(statistics.median(xs) + undefined_name)\n"
# A chart with the standard library only (a real model would use matplotlib):
# one grey bar per value, as a PNG.
CHART = """import struct, zlib
w, h = 10 * len(xs), int(max(xs)) * 10
rows = b''.join(b'\\x00' + bytes(128 if h - y <= xs[x // 10] * 10 else 255 for x in range(w)) for y in range(h))
def chunk(t, d): return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d))
open('chart.png', 'wb').write(b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 0, 0, 0, 0))
                              + chunk(b'IDAT', zlib.compress(rows)) + chunk(b'IEND', b''))
"""
FIXED = READ + "print(statistics.median(xs))\n" + CHART
# The user's attachment, handed to the program as a file in its working directory.
DATA = {"name": "data.csv", "content": "x\n3\n1\n4\n1\n5\n9\n2\n6\n"}


class ScriptedModel:
    """Answers like a chat model with tools: first a buggy program, then a
    fixed one once it has seen a traceback, then the answer from stdout."""

    def next(self, transcript):
        results = [m for m in transcript if m["role"] == "tool"]
        if not results:
            return {"tool": {"language": "python", "code": BUGGY, "files": [DATA]}}
        last = results[-1]["content"]
        if "Traceback" in last or "Error" in last:
            return {"tool": {"language": "python", "code": FIXED, "files": [DATA]}}
        stdout = last.split("--- stdout ---\n", 1)[-1].split("\n", 1)[0]
        chart = " (chart: chart.png)" if "chart.png" in last and "shown as an image" in last else ""
        return {"answer": "The median is %s.%s" % (stdout.strip(), chart)}


# ---- the loop, in either message style -------------------------------------------
def run(style, url, max_turns=6):
    model, transcript, messages = ScriptedModel(), [], []
    messages.append({"role": "user", "content": "What is the median of column x in the attached data.csv? "
                                                "Use the tool; the file is in its working directory."})
    for turn in range(max_turns):
        step = model.next(transcript)
        if "answer" in step:
            messages.append({"role": "assistant", "content": step["answer"]})
            return step["answer"], messages
        call_id = "call_%d" % turn
        args = step["tool"]
        if style == "openai":
            messages.append({"role": "assistant", "content": None, "tool_calls": [
                {"id": call_id, "type": "function",
                 "function": {"name": "execute_code", "arguments": json.dumps(args)}}]})
            # What a real loop does with the model's message:
            call = messages[-1]["tool_calls"][0]
            text, is_error, images = execute_code(url, json.loads(call["function"]["arguments"]))
            messages.append({"role": "tool", "tool_call_id": call["id"], "content": text})
            if images:
                messages.append({"role": "user", "content": [
                    {"type": "image_url", "image_url": {"url": "data:%s;base64,%s" % img}} for img in images]})
        else:
            messages.append({"role": "assistant", "content": [
                {"type": "tool_use", "id": call_id, "name": "execute_code", "input": args}]})
            block = messages[-1]["content"][0]
            text, is_error, images = execute_code(url, block["input"])
            content = [{"type": "text", "text": text}] + [
                {"type": "image", "source": {"type": "base64", "media_type": kind, "data": data}}
                for kind, data in images]
            messages.append({"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": block["id"], "content": content, "is_error": is_error}]})
        transcript.append({"role": "tool", "content": text, "is_error": is_error})
        print("--- tool call %d (%s) ---\n%s\n" % (turn + 1, "error" if is_error else "ok", text))
    return None, messages


def main():
    ap = argparse.ArgumentParser(description="A scripted agent loop against warmbox.")
    ap.add_argument("--style", choices=("openai", "anthropic"), default="openai")
    ap.add_argument("--url", default=os.environ.get("WARMBOX_URL") or "unix:/run/warmbox/warmbox.sock")
    ap.add_argument("--print-tool", action="store_true", help="print the tool definition and exit")
    a = ap.parse_args()
    if a.print_tool:
        print(json.dumps(OPENAI_TOOL if a.style == "openai" else ANTHROPIC_TOOL, indent=2))
        return 0
    answer, messages = run(a.style, a.url)
    images = [part for m in messages if isinstance(m["content"], list) for part in m["content"]
              for part in (part.get("content") if part.get("type") == "tool_result" else [part])
              if part.get("type") in ("image", "image_url")]
    print("images shown to the model:", len(images))
    print("answer:", answer)
    return 0 if answer else 1


if __name__ == "__main__":
    sys.exit(main())
