# matplotlib's backend in warmbox's sandboxes (MPLBACKEND=module://_warmbox_mpl,
# set by profiles/python/profile.json).  It draws like Agg, and show() saves
# every open figure as a PNG in the working directory, figure-1.png,
# figure-2.png, ... (numbered across the program's show() calls), then
# closes them: the program's files out carry them back, so a chart a model
# "shows" reaches it without the program saving it.
from matplotlib._pylab_helpers import Gcf
from matplotlib.backend_bases import _Backend
from matplotlib.backends.backend_agg import _BackendAgg

_shown = 0


@_Backend.export
class _BackendWarmbox(_BackendAgg):
    @classmethod
    def show(cls, *args, **kwargs):
        global _shown
        for manager in Gcf.get_all_fig_managers():
            _shown += 1
            manager.canvas.figure.savefig("figure-%d.png" % _shown, format="png")
        Gcf.destroy_all()
