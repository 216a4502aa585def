# warmbox bootstrap for Python: reads the input frame "<length>\n<code><stdin...>"
# from stdin, runs the code as __main__ (file name "main.py") and leaves the
# rest of stdin, unread, to the program.  Exit 125 means a broken frame.
import sys


def _warmbox_read_code():
    inp = sys.stdin.buffer
    line = inp.readline(32)
    try:
        n = int(line)
    except ValueError:
        n = -1
    if n < 0:
        sys.stderr.write("warmbox: malformed input frame\n")
        sys.exit(125)
    src = inp.read(n)
    if len(src) != n:
        sys.stderr.write("warmbox: input frame ended early\n")
        sys.exit(125)
    return src


def _warmbox_main():
    src = _warmbox_read_code()
    sys.argv = ["main.py"] + sys.argv[1:]
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
