# matplotlib's backend in warmbox's sandboxes (MPLBACKEND=module://_warmbox_mpl,
# set by profiles/python/profile.json).  It draws like Agg, and show() saves
# every open figure, in figure-number order, as a PNG in the working
# directory (as it was when matplotlib loaded): figure-1.png, figure-2.png,
# ... numbered across the program's show() calls; then closes them.  The
# program's files out carry them back, so a chart a model "shows" reaches it
# without the program saving it.  A figure that can't be saved (the disk is
# full, the file size limit) leaves no partial file: it is drawn in memory
# and written under a dot-name (never returned) that is renamed at the end.
#
# In a notebook's cell (_warmbox_notebook.active: E2B's runCode) no file is
# written: each figure show() finds becomes a display record of its own (its
# repr, as Jupyter's text, and its PNG), and the figures still open when the
# cell ends are shown the same way (show_open_figures), as Jupyter's inline
# backend does.
import io
import os
import sys

from matplotlib._pylab_helpers import Gcf
from matplotlib.backend_bases import _Backend
from matplotlib.backends.backend_agg import _BackendAgg

_dir = os.getcwd()
_shown = 0


def _save(figure, name):
    buf = io.BytesIO()
    figure.savefig(buf, format="png")
    tmp = os.path.join(_dir, "." + name + ".part")
    try:
        with open(tmp, "wb") as f:
            f.write(buf.getbuffer())
        os.replace(tmp, os.path.join(_dir, name))
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _notebook():
    # Set by the bootstrap before the program runs; never imported here (a
    # plain call has no such module).
    notebook = sys.modules.get("_warmbox_notebook")
    return notebook if notebook is not None and notebook.active else None


def show_open_figures():
    """At a notebook cell's end: the figures the cell left open, shown as
    by show(), if this is still matplotlib's backend (a cell that chose
    Agg and savefig shows nothing, as under Jupyter)."""
    import matplotlib
    notebook = _notebook()
    if notebook is None or not Gcf.get_all_fig_managers() or matplotlib.get_backend() != "module://" + __name__:
        return
    try:
        for manager in sorted(Gcf.get_all_fig_managers(), key=lambda m: m.num):
            try:
                notebook.show_figure(manager.canvas.figure)
            except Exception:
                pass  # the cell is over: a figure that cannot be drawn is left out
    finally:
        Gcf.destroy_all()


@_Backend.export
class _BackendWarmbox(_BackendAgg):
    @classmethod
    def show(cls, *args, **kwargs):
        global _shown
        notebook = _notebook()
        try:
            for manager in sorted(Gcf.get_all_fig_managers(), key=lambda m: m.num):
                if notebook is not None:
                    notebook.show_figure(manager.canvas.figure)
                    continue
                _shown += 1
                _save(manager.canvas.figure, "figure-%d.png" % _shown)
        finally:
            Gcf.destroy_all()
