# SQLite under a temporary folder of /tmp (tempfile), rollback journal
# and WAL, a backup to a second file, and an in-memory copy read back.
import os
import sqlite3
import tempfile

d = tempfile.mkdtemp()
path = os.path.join(d, "t.db")
con = sqlite3.connect(path)
con.execute("create table kv(k text primary key, v blob)")
con.executemany("insert into kv values(?, ?)", [("k%d" % i, os.urandom(64)) for i in range(200)])
con.commit()
con.execute("pragma journal_mode=wal")
con.execute("update kv set v = x'00' where k = 'k7'")
con.commit()
dst = sqlite3.connect(os.path.join(d, "copy.db"))
con.backup(dst)
assert dst.execute("select count(*) from kv").fetchone()[0] == 200
mem = sqlite3.connect(":memory:")
dst.backup(mem)
assert mem.execute("select v from kv where k = 'k7'").fetchone()[0] == b"\x00"
for c in (mem, dst, con):
    c.close()
print("OK")
