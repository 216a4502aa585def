# Python running the ordinary tools, as agents' code does: ls, a shell
# pipeline, grep, sed, awk, sort, uniq, wc, head, split, find, xargs,
# cat, cut, tr, date, env, file tests with test/[.
import os
import subprocess

with open("data.txt", "w") as f:
    f.write("b 2\na 1\nc 3\na 1\n")
r = subprocess.run(["ls", "-la"], capture_output=True, text=True, check=True)
assert "data.txt" in r.stdout, r.stdout
assert subprocess.run("echo hi | wc -c", shell=True, capture_output=True, text=True).stdout.strip() == "3"
assert subprocess.check_output(["sh", "-c", "sort data.txt | uniq | head -n 2"], text=True) == "a 1\nb 2\n"
assert subprocess.check_output(["grep", "-c", "a", "data.txt"], text=True).strip() == "2"
assert subprocess.check_output(["sed", "-n", "s/^c /C=/p", "data.txt"], text=True) == "C=3\n"
assert subprocess.check_output(["awk", "{s += $2} END {print s}", "data.txt"], text=True).strip() == "7"
assert subprocess.check_output("cut -d' ' -f1 data.txt | tr a-z A-Z | sort -u | paste -sd,", shell=True,
                               text=True).strip() == "A,B,C"
subprocess.run(["split", "-l", "2", "data.txt", "part-"], check=True)
assert sorted(n for n in os.listdir(".") if n.startswith("part-")) == ["part-aa", "part-ab"]
found = subprocess.check_output(["find", ".", "-name", "part-*", "-type", "f"], text=True).split()
assert sorted(found) == ["./part-aa", "./part-ab"], found
assert subprocess.check_output("ls part-* | xargs cat | wc -l", shell=True, text=True).strip() == "4"
assert subprocess.run(["test", "-f", "data.txt"]).returncode == 0
assert subprocess.run(["[", "-d", "nope", "]"]).returncode == 1
assert subprocess.check_output(["date", "-u", "-d", "@0", "+%Y"], text=True).strip() == "1970"
assert "HOME=/tmp" in subprocess.check_output(["env"], text=True)
r = subprocess.run(["sh", "-c", "exit 3"])
assert r.returncode == 3
r = subprocess.run(["ls", "no-such-file"], capture_output=True, text=True)
assert r.returncode != 0 and "No such file" in r.stderr, r
print("OK")
