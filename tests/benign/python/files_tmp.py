import os,tempfile
p=os.path.join(tempfile.gettempdir(),'t.txt')
open(p,'w').write('hello')
assert open(p).read()=='hello'
os.makedirs('/tmp/a/b',exist_ok=True)
os.rename(p,'/tmp/a/b/t2.txt')
assert os.listdir('/tmp/a/b')==['t2.txt']
print('OK')
