# Archives agents make and read: zipfile (deflated), tarfile (gzip),
# shutil.make_archive and unpack_archive.
import os
import shutil
import tarfile
import zipfile

os.makedirs("proj/sub", exist_ok=True)
for n in ("proj/a.txt", "proj/sub/b.txt"):
    with open(n, "w") as f:
        f.write(n * 100)
with zipfile.ZipFile("p.zip", "w", zipfile.ZIP_DEFLATED) as z:
    for root, _, files in os.walk("proj"):
        for n in files:
            z.write(os.path.join(root, n))
with zipfile.ZipFile("p.zip") as z:
    assert sorted(z.namelist()) == ["proj/a.txt", "proj/sub/b.txt"]
    assert z.read("proj/a.txt") == b"proj/a.txt" * 100
    assert z.testzip() is None
with tarfile.open("p.tar.gz", "w:gz") as t:
    t.add("proj")
with tarfile.open("p.tar.gz") as t:
    t.extractall("untar")
assert open("untar/proj/sub/b.txt").read() == "proj/sub/b.txt" * 100
shutil.make_archive("again", "zip", "proj")
shutil.unpack_archive("again.zip", "unzipped")
assert os.path.exists("unzipped/sub/b.txt")
print("OK")
