import subprocess, sys
r = subprocess.run([sys.executable, '-I', '-S', '-c', 'import sys; print(sys.stdin.read().upper())'],
                   input=b'piped', capture_output=True, timeout=10)
assert r.returncode == 0 and r.stdout.strip() == b'PIPED', r
p = subprocess.Popen([sys.executable, '-I', '-S', '-c', 'import sys; sys.exit(3)'])
assert p.wait() == 3
print('OK')
