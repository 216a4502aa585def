# SQLite on disk in the working directory, as agents' data code does it:
# a file database, a table, inserts in a transaction, a query, an index,
# a second connection that sees the commit, and WAL mode.
import os
import sqlite3

con = sqlite3.connect("sales.db")
con.execute("create table sales(region text, amount real)")
with con:
    con.executemany("insert into sales values(?, ?)",
                    [("north", 10.5), ("south", 7.25), ("north", 2.0), ("east", 1.0)])
con.execute("create index by_region on sales(region)")
rows = con.execute("select region, sum(amount) from sales group by region order by region").fetchall()
assert rows == [("east", 1.0), ("north", 12.5), ("south", 7.25)], rows
other = sqlite3.connect("sales.db")
assert other.execute("select count(*) from sales").fetchone()[0] == 4
assert con.execute("pragma journal_mode=wal").fetchone()[0] == "wal"
with con:
    con.execute("insert into sales values('west', 3.0)")
assert other.execute("select count(*) from sales").fetchone()[0] == 5
other.close()
con.execute("vacuum")
con.close()
assert os.path.getsize("sales.db") > 0
print("OK")
