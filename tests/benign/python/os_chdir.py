# Changing the working directory: os.chdir into a new folder and back,
# relative paths after it, and a context manager that restores it.
import contextlib
import os

start = os.getcwd()
os.makedirs("work/inner", exist_ok=True)
os.chdir("work")
with open("inner/f.txt", "w") as f:
    f.write("x")
assert os.path.exists(os.path.join(start, "work", "inner", "f.txt"))
os.chdir("..")
assert os.getcwd() == start
with contextlib.chdir("work/inner"):
    assert os.listdir(".") == ["f.txt"]
assert os.getcwd() == start
print("OK")
