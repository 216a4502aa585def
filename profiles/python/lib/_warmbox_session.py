# A session's Python state, from one sandbox to the next (bootstrap.py
# imports this only for an execution of a session).
#
# restore(blob, namespace) puts the global names that the session's last
# call left back into the program's namespace before its code runs: modules
# are imported again by name, every other value is unpickled (cloudpickle:
# functions and classes the program defined travel by value).  save(namespace)
# after the code, whatever its end (an exception, sys.exit), writes them to
# .warmbox-state in the working directory, where the sandbox's init reads
# it into its report (profiles/init.c), and names what could not be carried
# in .warmbox-notes: open files, sockets, generators, threads, locks ...
# are dropped, never carried half; the next call raises NameError for each.
#
# The blob is this module's own format, opaque to warmboxd, which keeps it
# in memory only; it is as untrusted as the sandbox that wrote it, and it
# is only ever read by a sandbox of the same session.
import sys

_MAGIC = b"warmbox-session-1\n"
_NOTES_MAX = 4000


def _pickler():
    import cloudpickle
    return cloudpickle


def _rebind(value, namespace, seen):
    # A function the program defined reads its globals from the namespace
    # it runs in, as it did when it was defined: unpickled, it would read a
    # copy frozen at the last call's end (a later `rate = 2` unseen).
    import types
    if isinstance(value, types.FunctionType) and value.__module__ == "__main__" \
            and value.__globals__ is not namespace:
        f = types.FunctionType(value.__code__, namespace, value.__name__, value.__defaults__, value.__closure__)
        f.__kwdefaults__ = value.__kwdefaults__
        f.__qualname__ = value.__qualname__
        f.__annotations__ = value.__annotations__
        f.__dict__.update(value.__dict__)
        f.__doc__ = value.__doc__
        return f
    if isinstance(value, type) and value.__module__ == "__main__" and id(value) not in seen:
        seen.add(id(value))
        for k, v in list(vars(value).items()):
            if isinstance(v, (types.FunctionType, staticmethod, classmethod)):
                inner = v.__func__ if isinstance(v, (staticmethod, classmethod)) else v
                new = _rebind(inner, namespace, seen)
                if new is not inner:
                    setattr(value, k, type(v)(new) if isinstance(v, (staticmethod, classmethod)) else new)
            elif isinstance(v, property):
                setattr(value, k, property(*(_rebind(g, namespace, seen) if g else None
                                             for g in (v.fget, v.fset, v.fdel)), v.__doc__))
    return value


def restore(blob, namespace):
    """The names of the last call into namespace; a list of notes (what
    could not be restored)."""
    notes = []
    if not blob:
        return notes
    if not blob.startswith(_MAGIC):
        return ["*\trestore\tthe session's state is not this bootstrap's: nothing restored"]
    import importlib
    import pickle
    try:
        modules, values = pickle.loads(blob[len(_MAGIC):])
    except Exception as e:
        return ["*\trestore\tthe session's state could not be read (%s): nothing restored" % type(e).__name__]
    for name, module in modules.items():
        try:
            namespace[name] = importlib.import_module(module)
        except Exception as e:
            notes.append("%s\tmodule %s\tnot importable again: %s" % (name, module, type(e).__name__))
    try:
        loaded = pickle.loads(values)
    except Exception as e:
        notes.append("*\trestore\tthe session's values could not be restored (%s)" % type(e).__name__)
        return notes
    seen = set()
    for name, value in loaded.items():
        namespace[name] = _rebind(value, namespace, seen)
    return notes


def _carried_names(namespace, notes):
    import io
    import types
    modules, values = {}, {}
    for name, value in list(namespace.items()):
        if name.startswith("__") and name.endswith("__"):
            continue
        if isinstance(value, io.IOBase):
            # cloudpickle would turn an open file into a copy of its
            # content: never carried half.
            notes.append("%s\t%s\tan open file is not carried" % (name, type(value).__name__))
            continue
        if isinstance(value, types.ModuleType):
            if not value.__name__.startswith("_warmbox"):
                modules[name] = value.__name__
            continue
        values[name] = value
    return modules, values


def _why(value, error):
    try:
        text = str(error).splitlines()[0][:120]
    except BaseException:
        text = ""
    return "%s\t%s" % (type(value).__name__, text or type(error).__name__)


def save(namespace, notes, workdir):
    """Write .warmbox-state and .warmbox-notes into workdir (the working
    directory the program began in) for the init to report."""
    import os
    import pickle
    cloudpickle = _pickler()
    modules, values = _carried_names(namespace, notes)
    try:
        data = cloudpickle.dumps(values, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:
        # One at a time, to name what cannot go; the rest together again
        # (values that share an object keep sharing it).
        keep = {}
        for name, value in values.items():
            try:
                cloudpickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
                keep[name] = value
            except BaseException as e:
                notes.append("%s\t%s" % (name, _why(value, e)))
        try:
            data = cloudpickle.dumps(keep, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as e:
            notes.append("*\tthe values together\t%s" % type(e).__name__)
            data = cloudpickle.dumps({}, protocol=pickle.HIGHEST_PROTOCOL)
    blob = _MAGIC + pickle.dumps((modules, data), protocol=pickle.HIGHEST_PROTOCOL)
    _write(os.path.join(workdir, ".warmbox-state"), blob)
    # One line per note, "name<TAB>kind<TAB>why"; cut at a whole line.
    text = b""
    for n in notes:
        line = n.replace("\n", " ").encode("utf-8", "replace")[:400].decode("utf-8", "ignore").encode() + b"\n"
        if len(text) + len(line) > _NOTES_MAX:
            break
        text += line
    if text:
        _write(os.path.join(workdir, ".warmbox-notes"), text)
    else:
        try:
            os.unlink(os.path.join(workdir, ".warmbox-notes"))
        except OSError:
            pass


def _write(name, data):
    import os
    # Never through a link the program left under that name.
    try:
        os.unlink(name)
    except OSError:
        pass
    try:
        fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        with open(fd, "wb") as f:
            f.write(data)
    except OSError as e:
        sys.stderr.write("warmbox: the session's state could not be written: %s\n" % (e.strerror or e))
        try:
            os.unlink(name)
        except OSError:
            pass
