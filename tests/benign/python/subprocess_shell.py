# Shell-flavoured calls: shell=True with redirections and variables,
# os.system, os.popen, check_output raising CalledProcessError, a
# timeout, Popen with pipes between two tools, and bash itself.
import os
import subprocess

assert os.system("echo one > out.txt && echo two >> out.txt") == 0
with open("out.txt") as f:
    assert f.read() == "one\ntwo\n"
assert os.popen("cat out.txt | tail -n 1").read() == "two\n"
assert subprocess.run("X=5; echo $((X * 2))", shell=True, capture_output=True, text=True).stdout == "10\n"
try:
    subprocess.check_output(["false"])
    raise AssertionError("false succeeded")
except subprocess.CalledProcessError as e:
    assert e.returncode == 1
try:
    subprocess.run(["sleep", "5"], timeout=0.2)
    raise AssertionError("no timeout")
except subprocess.TimeoutExpired:
    pass
p1 = subprocess.Popen(["printf", "3\\n1\\n2\\n"], stdout=subprocess.PIPE)
p2 = subprocess.Popen(["sort", "-n"], stdin=p1.stdout, stdout=subprocess.PIPE, text=True)
p1.stdout.close()
assert p2.communicate()[0] == "1\n2\n3\n"
assert p1.wait() == 0
out = subprocess.check_output(["bash", "-c", "declare -A m=([a]=1); for k in \"${!m[@]}\"; do echo $k; done"],
                              text=True)
assert out == "a\n"
print("OK")
