import multiprocessing as mp
def sq(x): return x*x
if __name__=='__main__':
    import os
    pid=os.fork()
    if pid==0: os._exit(7)
    _,st=os.waitpid(pid,0)
    assert os.WEXITSTATUS(st)==7
    print('OK')
