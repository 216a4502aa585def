import tempfile,shutil,os
d=tempfile.mkdtemp()
open(os.path.join(d,'x'),'w').write('1')
shutil.copytree(d,d+'2')
shutil.rmtree(d)
assert os.listdir(d+'2')==['x']
print('OK')
