# warmbox bootstrap for Python: reads the input frame
# "<code length>[ <arg length>...]\n<code><args...><stdin...>" from stdin,
# runs the code as __main__ (file name "main.py") with the arguments as
# sys.argv[1:], and leaves the rest of stdin, unread, to the program.
# Exit 125 means a broken frame.
import sys


def _warmbox_fail(msg):
    sys.stderr.write("warmbox: %s\n" % msg)
    sys.exit(125)


def _warmbox_read_frame():
    inp = sys.stdin.buffer
    line = inp.readline(4097)
    if not line.endswith(b"\n"):
        _warmbox_fail("malformed input frame")
    fields = line[:-1].split(b" ")
    if not all(f.isdigit() for f in fields) or len(fields) > 257:
        _warmbox_fail("malformed input frame")
    sizes = [int(f) for f in fields]
    src = inp.read(sizes[0])
    if len(src) != sizes[0]:
        _warmbox_fail("input frame ended early")
    args = []
    for n in sizes[1:]:
        a = inp.read(n)
        if len(a) != n:
            _warmbox_fail("input frame ended early")
        args.append(a.decode("utf-8", "surrogateescape"))
    return src, args


def _warmbox_site_builtins():
    # What `site` adds and -S leaves out, as under `python3 -c`: exit(),
    # quit() (SystemExit with their argument) and help().  Models' code
    # calls exit() all the time.
    import builtins
    import _sitebuiltins
    builtins.exit = _sitebuiltins.Quitter("exit", "Ctrl-D (i.e. EOF)")
    builtins.quit = _sitebuiltins.Quitter("quit", "Ctrl-D (i.e. EOF)")
    builtins.help = _sitebuiltins._Helper()


def _warmbox_main():
    src, args = _warmbox_read_frame()
    _warmbox_site_builtins()
    sys.argv = ["main.py"] + args
    main = type(sys)("__main__")  # a module object, without importing types
    main.__file__ = "main.py"
    main.__builtins__ = __builtins__
    sys.modules["__main__"] = main
    try:
        code = compile(src, "main.py", "exec")
    except (SyntaxError, ValueError) as e:
        import traceback
        traceback.print_exception_only(type(e), e)
        sys.exit(1)
    del src
    try:
        exec(code, main.__dict__)
    except SystemExit:
        raise
    except BaseException as e:
        import traceback
        # Drop this bootstrap's own frame: the trace starts in main.py.
        tb = e.__traceback__.tb_next if e.__traceback__ is not None else None
        traceback.print_exception(type(e), e, tb)
        sys.stderr.flush()
        sys.exit(1)


_warmbox_main()
