# A child process that inherits stdin reads it: `wc -l` counts the
# program's input lines.
import subprocess

r = subprocess.run(["wc", "-l"], capture_output=False, stdout=subprocess.PIPE, text=True)
assert r.stdout.strip() == "3", r.stdout
print("OK")
