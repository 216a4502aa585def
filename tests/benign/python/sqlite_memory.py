import sqlite3
c=sqlite3.connect(':memory:')
c.execute('create table t(x)');c.executemany('insert into t values(?)',[(i,) for i in range(10)])
assert c.execute('select sum(x) from t').fetchone()[0]==45
print('OK')
