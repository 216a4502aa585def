# warmbox bootstrap for Python: reads the input frame
# "[n<program name length> ]<code length>[ <arg length>...][ f<name length>:<size>...]\n"
# "[<program name>]<code><args...><name><content>...<stdin...>" from stdin,
# writes the files into the working directory, runs the code as __main__
# (file name: the program name the client gave, else "main.py": __file__,
# sys.argv[0] and tracebacks say it) with the arguments as sys.argv[1:],
# and leaves the rest of stdin, unread, to the program.  Exit 125 means a
# broken frame, or a file that could not be written.
import sys


def _warmbox_fail(msg):
    sys.stderr.write("warmbox: %s\n" % msg)
    sys.exit(125)


def _warmbox_read_exact(inp, n):
    # A pipe may answer a read with fewer bytes than asked for.
    parts = []
    while n > 0:
        data = inp.read(n)
        if not data:
            _warmbox_fail("input frame ended early")
        parts.append(data)
        n -= len(data)
    return b"".join(parts)


def _warmbox_read_frame():
    # Unbuffered (the raw file under sys.stdin): not one byte past the
    # frame is taken from descriptor 0, so the program finds all of its
    # stdin there, however it reads it (sys.stdin, open(0), os.read(0),
    # a child process that inherits it).
    inp = sys.stdin.buffer.raw
    line = inp.readline(4097)
    if not line.endswith(b"\n"):
        _warmbox_fail("malformed input frame")
    fields = line[:-1].split(b" ")
    name, named = "main.py", False
    if fields[0].startswith(b"n"):
        # The program's own file name, first (checked by the daemon; again
        # here: a plain name, never a path).
        if not fields[0][1:].isdigit() or not 1 <= int(fields[0][1:]) <= 255:
            _warmbox_fail("malformed input frame")
        raw = _warmbox_read_exact(inp, int(fields.pop(0)[1:]))
        if raw in (b".", b"..") or b"/" in raw or b"\0" in raw or raw[:1] in (b".", b"-"):
            _warmbox_fail("the program's file name in the frame is not a plain name")
        name, named = raw.decode("utf-8", "surrogateescape"), True
    if len(fields) > 1 + 256 + 64 or not fields or not fields[0].isdigit():
        _warmbox_fail("malformed input frame")
    src = _warmbox_read_exact(inp, int(fields[0]))
    args, files = [], []
    for f in fields[1:]:
        if f.isdigit() and not files:
            args.append(_warmbox_read_exact(inp, int(f)).decode("utf-8", "surrogateescape"))
            continue
        name_len, _, size = f[1:].partition(b":")
        if not f.startswith(b"f") or not name_len.isdigit() or not size.isdigit():
            _warmbox_fail("malformed input frame")
        file_name = _warmbox_read_exact(inp, int(name_len))
        files.append((file_name, _warmbox_read_exact(inp, int(size))))
    return name, named, src, args, files


def _warmbox_write_files(files):
    # Names were checked by the daemon; checked again here, so that nothing
    # but a new file in the working directory can come of one.
    if not files:
        return
    import os
    for name, content in files:
        if not name or name in (b".", b"..") or b"/" in name or b"\0" in name:
            _warmbox_fail("a file name in the frame is not a plain name")
        try:
            fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
            with open(fd, "wb") as f:
                f.write(content)
        except OSError as e:
            _warmbox_fail("writing a given file: %s" % (e.strerror or e))


def _warmbox_write_program(name, src):
    # The code as a file too, under its own name in the working directory:
    # multiprocessing's spawn and forkserver run the main module again from
    # its file, and programs run their own __file__ again (subprocess with
    # sys.executable).  The daemon lists it to the init as an input, so it
    # is not sent back unless the program changed it.  The code that runs
    # is still the frame's (compiled from memory below).
    import os
    try:
        fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
        with open(fd, "wb") as f:
            f.write(src)
    except OSError as e:
        _warmbox_fail("writing the program's file: %s" % (e.strerror or e))


class _WarmboxNoSelfImport:
    # The program's file must not stand in for a module of its name
    # (random.py importing random, or pandas importing json under json.py):
    # that name is looked up everywhere but the working directory, as when
    # the code was never a file.  Every other import goes its usual way.
    def __init__(self, stem):
        self.stem = stem

    def find_spec(self, fullname, path=None, target=None):
        if fullname != self.stem or path is not None:
            return None
        import importlib.machinery
        import os
        here = os.getcwd()
        elsewhere = [p for p in sys.path if p not in ("", ".", here)]
        return importlib.machinery.PathFinder.find_spec(fullname, elsewhere, target)


def _warmbox_site_builtins():
    # What `site` adds and -S leaves out, as under `python3 -c`: exit(),
    # quit() (SystemExit with their argument) and help().  Models' code
    # calls exit() all the time.
    import builtins
    import _sitebuiltins
    builtins.exit = _sitebuiltins.Quitter("exit", "Ctrl-D (i.e. EOF)")
    builtins.quit = _sitebuiltins.Quitter("quit", "Ctrl-D (i.e. EOF)")
    builtins.help = _sitebuiltins._Helper()


def _warmbox_traceback(name, src):
    # Only on an error (importing traceback costs ~50 ms here), once the
    # program is over: the working directory leaves the path first, so the
    # program's files cannot stand in for the standard library, and
    # tracebacks show the program's source under its name, not a file of
    # that name it was given.
    sys.path[:] = [p for p in sys.path if p not in ("", ".")]
    import linecache
    import traceback
    linecache.cache[name] = (len(src), None, src.decode("utf-8", "replace").splitlines(True), name)
    return traceback


def _warmbox_main():
    name, named, src, args, files = _warmbox_read_frame()
    # An execution of a session: the daemon sends the session's last
    # state as this one file, never written here (_warmbox_session).
    session = [content for n, content in files if n == b".warmbox-session"]
    # A call run as a notebook's cell (E2B's runCode): its settings come as
    # this one file, never written here either (_warmbox_notebook).
    notebook_config = [content for n, content in files if n == b".warmbox-notebook"]
    files = [(n, content) for n, content in files if n not in (b".warmbox-session", b".warmbox-notebook")]
    _warmbox_write_files(files)
    del files
    # Only for a name the frame carries: the daemon then told the init of
    # it (without one a given file has the default name).
    if named:
        _warmbox_write_program(name, src)
        if name.endswith(".py"):
            sys.meta_path.insert(0, _WarmboxNoSelfImport(name[:-3]))
    _warmbox_site_builtins()
    sys.argv = [name] + args
    # As under python3 -c: the working directory first on the path, so a
    # module given in files imports (-I left it out); then, as Debian's
    # site would add them (-S left them out), the data stack's packages, and
    # warmbox's own (the matplotlib backend that turns show() into PNGs).
    sys.path.insert(0, "")
    sys.path.append("/usr/lib/python3/dist-packages")
    sys.path.append(__file__.rpartition("/")[0] + "/lib")  # /warmbox/lib
    main = type(sys)("__main__")  # a module object, without importing types
    main.__file__ = name
    main.__builtins__ = __builtins__
    sys.modules["__main__"] = main
    # Imported only for a cell (ast, json and the rest come with it): before
    # the session's names, so that its environment is there when they import
    # their modules again.
    notebook = None
    if notebook_config:
        import _warmbox_notebook as notebook
        notebook.start(notebook_config[0])
        notebook_config = None
    # A session's names are back before the code runs, and saved after it
    # whatever its end (an exception, sys.exit): as a notebook's kernel
    # keeps what a failing cell had set.
    notes, workdir = [], None
    if session:
        import os
        import _warmbox_session
        workdir = os.getcwd()
        try:
            notes = _warmbox_session.restore(session[0], main.__dict__)
        except BaseException as e:  # the state is the sandbox's: never the program's failure
            notes = ["*\trestore\tthe session's state could not be restored (%s)" % type(e).__name__]
        session = None
    # A cell runs as IPython runs it: a last expression on its own, its
    # value displayed (_warmbox_notebook.compile_cell).  Its compile errors
    # are its error record, a parser out of memory or stack (deep nesting)
    # among them.
    last, shown = None, False
    compile_errors = (SyntaxError, ValueError) if notebook is None else \
        (SyntaxError, ValueError, MemoryError, RecursionError)
    try:
        if notebook is None:
            code = compile(src, name, "exec")
        else:
            code, last, shown = notebook.compile_cell(src, name)
    except compile_errors as e:
        traceback = _warmbox_traceback(name, src)
        if notebook is None:
            sys.stderr.write("".join(traceback.format_exception_only(type(e), e)))
        else:
            notebook.error(e, None, traceback, compiling=True)
        _warmbox_end_session(main, notes, workdir, notebook)
        sys.exit(1)
    try:
        exec(code, main.__dict__)
        if last is not None:
            value = eval(last, main.__dict__)
            if shown:
                notebook.result(value)
    except SystemExit:
        _warmbox_end_session(main, notes, workdir, notebook)
        raise
    except BaseException as e:
        traceback = _warmbox_traceback(name, src)
        # Drop this bootstrap's own frame: the trace starts in the program.
        tb = e.__traceback__.tb_next if e.__traceback__ is not None else None
        if notebook is None:
            traceback.print_exception(type(e), e, tb)
            sys.stderr.flush()
        else:
            # The cell's error record, not stderr: E2B shows it as the
            # execution's error.
            notebook.error(e, tb, traceback)
        _warmbox_end_session(main, notes, workdir, notebook)
        sys.exit(1)
    _warmbox_end_session(main, notes, workdir, notebook)


def _warmbox_end_session(main, notes, workdir, notebook=None):
    # A cell's display first: the figures it left open are closed before
    # the state is saved (not brought back open by the next call).
    if notebook is not None:
        notebook.finish()
    if workdir is None:
        return
    try:
        sys.stdout.flush()
    except BaseException:
        pass
    try:
        import _warmbox_session
        _warmbox_session.save(main.__dict__, notes, workdir)
    except BaseException as e:
        # No state written: the daemon keeps the session's last one.
        try:
            sys.stderr.write("warmbox: the session's state could not be saved (%s)\n" % type(e).__name__)
        except BaseException:
            pass


_warmbox_main()
