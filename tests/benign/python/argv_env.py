import sys,os
assert sys.argv[0]=='main.py' and os.environ.get('HOME')=='/tmp'
print('OK')
