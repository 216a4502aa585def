import os, sys, platform, time, resource, getpass
assert os.getuid() == os.geteuid() and os.getgid() >= 0
assert os.getcwd() == '/tmp' or os.getcwd()
assert platform.machine() and os.uname().sysname == 'Linux'
assert os.cpu_count() >= 1 and resource.getrlimit(resource.RLIMIT_NOFILE)[0] > 0
assert isinstance(os.listdir('/'), list) and 'PATH' in os.environ
assert time.time() > 0 and time.monotonic() > 0 and time.process_time() >= 0
os.umask(0o022); os.nice(0) if hasattr(os, 'nice') else None
assert os.getpid() > 0
print('OK')
