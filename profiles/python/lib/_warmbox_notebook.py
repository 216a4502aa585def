# A call run as a notebook's cell (E2B's runCode, which runs its code as a
# Jupyter cell): bootstrap.py imports this only when the frame carries the
# file .warmbox-notebook (JSON, {"env": {"NAME": "VALUE", ...}}; never
# written to disk), and then:
#
#   - the env is applied to os.environ before the code runs;
#   - the cell's last statement, if it is an expression, is evaluated on its
#     own, and its value (unless None, or the line ends with ';') becomes the
#     main result, as IPython's displayhook would show it;
#   - matplotlib's figures, shown (plt.show()) or left open at the cell's end,
#     become results of their own instead of figure-N.png files
#     (_warmbox_mpl asks this module's `active`);
#   - an exception becomes an error record instead of a traceback on stderr.
#
# The records go, once the cell is over, to .warmbox-display in the working
# directory, one JSON object a line, in the order they were made:
#   {"type": "result", "is_main_result": true|false, "text": ..., ["html",
#    "markdown", "latex", "svg", "png" (base64), "json"]: ...}
#   {"type": "error", "name": ..., "value": ..., "traceback": ...}
# The sandbox's init reads that file into its report (a dot-file, never sent
# back as a file of the program's).
import sys

active = False

DISPLAY_FILE = ".warmbox-display"
DISPLAY_MAX = 8 * 1024 * 1024
_DROPPED = {"type": "result", "is_main_result": False, "text": "[display output past 8 MiB dropped]"}

_records = []
_workdir = None

# IPython's formatters, by the key E2B's result names them with, and the type
# a method must answer with to count (anything else is ignored, as IPython's
# _check_return does: an object whose __getattr__ answers every name).
_REPR_METHODS = (
    ("html", "_repr_html_", str),
    ("markdown", "_repr_markdown_", str),
    ("latex", "_repr_latex_", str),
    ("svg", "_repr_svg_", str),
    ("png", "_repr_png_", (bytes, str)),
    ("json", "_repr_json_", (dict, list)),
)


def start(blob):
    """Notebook mode on for this call; the frame's .warmbox-notebook applied
    (a malformed one is ignored: the cell still runs as a cell)."""
    global active, _workdir
    import os
    active = True
    # The working directory the cell began in: where the records go, even if
    # the cell moves elsewhere (as the session's state).
    _workdir = os.getcwd()
    try:
        import json
        config = json.loads(blob) if blob.strip() else {}
        env = config.get("env") if isinstance(config, dict) else None
    except Exception:
        env = None
    if not isinstance(env, dict):
        return
    for name, value in env.items():
        if not isinstance(name, str) or not isinstance(value, str):
            continue
        if not name or "=" in name or "\0" in name or "\0" in value:
            continue
        try:
            os.environ[name] = value
        except Exception:  # a lone surrogate the OS's encoding refuses
            pass


def compile_cell(src, name):
    """(code of every statement but a last expression, code of that
    expression or None, whether its value is shown): a cell as IPython runs
    it.  Raises what compile() would."""
    import ast
    tree = compile(src, name, "exec", ast.PyCF_ONLY_AST)
    last, shown = None, False
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        node = tree.body.pop()
        expr = ast.Expression(node.value)
        # The expression's nodes keep their own positions (tracebacks name
        # its line); anything without one gets its parent's.
        ast.fix_missing_locations(ast.copy_location(expr, node))
        last = compile(expr, name, "eval")
        shown = not _quiet(src, node)
    return compile(tree, name, "exec"), last, shown


def _quiet(src, node):
    # IPython shows nothing for a last line ending with ';' ("plt.plot(x);").
    # After the last expression, the source holds only what follows it on its
    # line and the lines after: blanks, comments, the ';' if any.  Positions
    # are in UTF-8 bytes, as the source almost always is.
    lines = src.splitlines()
    if node.end_lineno is None or node.end_lineno > len(lines):
        return False
    rest = lines[node.end_lineno - 1][node.end_col_offset:]
    return rest.lstrip(b" \t\f\\").startswith(b";")


def _text(s):
    # JSON's \u escapes cannot carry a lone surrogate to the daemon: '?' then.
    try:
        s.encode("utf-8")
        return s
    except UnicodeEncodeError:
        return s.encode("utf-8", "replace").decode("utf-8")


def _pretty(value, seen):
    # IPython's text for an object without a __repr__ of its own drops
    # repr's "object": [<matplotlib.lines.Line2D at 0x7f...>], also inside
    # a list, a tuple or a dict (its pretty printer's other ways, line
    # breaks and cuts, are not copied).
    kind = type(value)
    if kind.__repr__ is object.__repr__:
        module = getattr(kind, "__module__", None)
        qualname = getattr(kind, "__qualname__", kind.__name__)
        return "<%s at 0x%x>" % (qualname if module in (None, "builtins") else module + "." + qualname, id(value))
    if kind not in (list, tuple, dict):
        return repr(value)
    if id(value) in seen:
        return {list: "[...]", tuple: "(...)", dict: "{...}"}[kind]
    seen.add(id(value))
    try:
        if kind is dict:
            return "{" + ", ".join(_pretty(k, seen) + ": " + _pretty(v, seen) for k, v in value.items()) + "}"
        items = [_pretty(v, seen) for v in value]
        if kind is list:
            return "[" + ", ".join(items) + "]"
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
    finally:
        seen.discard(id(value))


def _plain(value):
    text = repr(value)
    if " object at 0x" in text:  # rare: the walk only then
        try:
            text = _pretty(value, set())
        except Exception:  # deep nesting, say: repr's text then
            pass
    # E2B's server answers runCode("'hi'") with text "hi": a repr in quotes
    # loses its outer pair.
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        text = text[1:-1]
    return _text(text)


def _png_base64(data):
    if isinstance(data, str):  # already base64, as IPython takes it
        return _text(data)
    import base64
    return base64.b64encode(data).decode("ascii")


def _rich(value, record):
    if isinstance(value, type):  # a class's _repr_html_ is its instances'
        return
    for key, method, kind in _REPR_METHODS:
        try:
            f = getattr(value, method, None)
            if f is None or not callable(f):
                continue
            data = f()
            if isinstance(data, tuple) and len(data) == 2:  # (data, metadata)
                data = data[0]
            if data is None or not isinstance(data, kind):
                continue
            if key == "png":
                data = _png_base64(data)
            elif key == "json":
                import json
                json.dumps(data, allow_nan=False)  # only what the daemon can read
            else:
                data = _text(data)
            record[key] = data
        except Exception:  # a failing formatter only loses its own key
            continue


def result(value):
    """The cell's last expression's value, displayed as its main result."""
    if value is None:
        return
    import builtins
    builtins._ = value
    record = {"type": "result", "is_main_result": True, "text": _plain(value)}
    _rich(value, record)
    # A Figure as the value: its picture too, as Jupyter's inline backend
    # registers a PNG formatter for it.
    figure = sys.modules.get("matplotlib.figure")
    if figure is not None and isinstance(value, figure.Figure) and "png" not in record:
        try:
            png = figure_png(value)
            if png is not None:
                record["png"] = png
        except Exception:
            pass
    _records.append(record)


def figure_png(figure):
    """A matplotlib figure as base64 PNG; None for an empty one (no axes,
    no lines), which Jupyter shows as its text alone."""
    if not figure.axes and not figure.lines:
        return None
    import io
    buf = io.BytesIO()
    figure.savefig(buf, format="png")
    return _png_base64(buf.getvalue())


def show_figure(figure):
    """A figure shown (plt.show(), or open at the cell's end): a result of
    its own.  Raises what savefig raises."""
    record = {"type": "result", "is_main_result": False, "text": _text(repr(figure))}
    png = figure_png(figure)
    if png is not None:
        record["png"] = png
    _records.append(record)


def error(e, tb, traceback, compiling=False):
    """The cell's exception as its error record (tb: from the program's
    first frame; traceback: the module, its linecache holding the program's
    source).  An error in compiling has only the exception's own lines, as a
    plain call's stderr shows them."""
    try:
        if compiling:
            lines = traceback.format_exception_only(type(e), e)
        else:
            # Frames of this module (a failing __repr__ reached through
            # result()) are the sandbox's, not the program's.
            while tb is not None and tb.tb_frame.f_globals.get("__name__") == __name__:
                tb = tb.tb_next
            lines = traceback.format_exception(type(e), e, tb)
    except BaseException:  # an exception whose own str() fails, say
        lines = ["%s\n" % type(e).__name__]
    try:
        value = str(e)
    except BaseException:
        value = ""
    _records.append({"type": "error", "name": _text(type(e).__name__), "value": _text(value),
                     "traceback": _text("".join(lines))})


def finish():
    """The cell is over, whatever its end: figures still open are shown (as
    Jupyter's inline backend flushes them), then the records are written.
    Never raises: the display is not the cell's outcome."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BaseException:
            pass
    try:
        mpl = sys.modules.get("_warmbox_mpl")
        if mpl is not None:
            mpl.show_open_figures()
    except BaseException:
        pass
    try:
        _write()
    except BaseException:
        pass


def _write():
    import json
    import os
    out, size, dropped = [], 0, False
    room = DISPLAY_MAX - len(json.dumps(_DROPPED)) - 1
    for record in _records:
        try:
            line = json.dumps(record) + "\n"
        except Exception:
            dropped = True
            continue
        if size + len(line) > room:
            # Too big for what is left: dropped, but a smaller record after
            # it (the main result after a huge figure) still goes.
            dropped = True
            continue
        out.append(line)
        size += len(line)
    if dropped:
        out.append(json.dumps(_DROPPED) + "\n")
    data = "".join(out).encode("ascii")
    final = os.path.join(_workdir, DISPLAY_FILE)
    tmp = os.path.join(_workdir, DISPLAY_FILE + ".part")
    # Under a dot-name first, renamed once whole: never half a file under
    # the real name.  Never through a link the program left there.
    try:
        os.unlink(tmp)
    except OSError:
        pass
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        with open(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, final)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
