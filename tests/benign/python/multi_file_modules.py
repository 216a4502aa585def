# A program in several files: modules beside it in the working
# directory (sent as files), imported by name, a class named as the
# model pleased, and a data file read from the same folder.
import json

from geometry import Rectangle
from helpers import load_config, summarize

cfg = load_config("config.json")
shapes = [Rectangle(w, h) for w, h in cfg["sizes"]]
assert summarize(shapes) == {"count": 2, "area": 26}, summarize(shapes)
assert json.loads(open("config.json").read())["name"] == "demo"
print("OK")
