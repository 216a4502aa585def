# Writing files and reading them back: text, binary, CSV, JSON, pickle,
# appends, pathlib, an atomic replace, a folder tree, and a large file.
import csv
import json
import os
import pathlib
import pickle

pathlib.Path("notes.txt").write_text("line 1\nline 2\n", encoding="utf-8")
with open("notes.txt", "a") as f:
    f.write("line 3\n")
assert pathlib.Path("notes.txt").read_text().splitlines() == ["line 1", "line 2", "line 3"]
with open("blob.bin", "wb") as f:
    f.write(bytes(range(256)) * 4)
assert open("blob.bin", "rb").read()[255:257] == b"\xff\x00"
with open("rows.csv", "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=["name", "score"])
    w.writeheader()
    w.writerows([{"name": "a", "score": 1}, {"name": "b", "score": 2}])
with open("rows.csv", newline="") as f:
    assert [r["name"] for r in csv.DictReader(f)] == ["a", "b"]
json.dump({"k": [1, 2, {"z": None}]}, open("d.json", "w"))
assert json.load(open("d.json")) == {"k": [1, 2, {"z": None}]}
pickle.dump({"s": {1, 2}}, open("d.pkl", "wb"))
assert pickle.load(open("d.pkl", "rb")) == {"s": {1, 2}}
with open("cfg.tmp", "w") as f:
    f.write("v=2")
os.replace("cfg.tmp", "cfg.ini")
assert open("cfg.ini").read() == "v=2" and not os.path.exists("cfg.tmp")
os.makedirs("out/a/b", exist_ok=True)
pathlib.Path("out/a/b/c.txt").write_text("deep")
assert [str(p) for p in pathlib.Path("out").rglob("*.txt")] == ["out/a/b/c.txt"]
with open("big.dat", "wb") as f:
    for _ in range(16):
        f.write(os.urandom(1 << 20))
assert os.path.getsize("big.dat") == 16 << 20
os.remove("big.dat")
print("OK")
