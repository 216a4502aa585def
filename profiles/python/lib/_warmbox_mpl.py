# matplotlib's backend in warmbox's sandboxes (MPLBACKEND=module://_warmbox_mpl,
# set by profiles/python/profile.json).  It draws like Agg, and show() saves
# every open figure, in figure-number order, as a PNG in the working
# directory (as it was when matplotlib loaded): figure-1.png, figure-2.png,
# ... numbered across the program's show() calls; then closes them.  The
# program's files out carry them back, so a chart a model "shows" reaches it
# without the program saving it.  A figure that can't be saved (the disk is
# full, the file size limit) leaves no partial file: it is drawn in memory
# and written under a dot-name (never returned) that is renamed at the end.
import io
import os

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


@_Backend.export
class _BackendWarmbox(_BackendAgg):
    @classmethod
    def show(cls, *args, **kwargs):
        global _shown
        try:
            for manager in sorted(Gcf.get_all_fig_managers(), key=lambda m: m.num):
                _shown += 1
                _save(manager.canvas.figure, "figure-%d.png" % _shown)
        finally:
            Gcf.destroy_all()
