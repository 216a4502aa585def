# pandas to and from SQLite, the way a model moves a DataFrame into SQL.
import sqlite3

import pandas as pd

df = pd.DataFrame({"region": ["n", "s", "n", "e"], "amount": [1.0, 2.0, 3.0, 4.0]})
con = sqlite3.connect("analysis.db")
df.to_sql("sales", con, index=False)
out = pd.read_sql_query("select region, sum(amount) as total from sales group by region order by region", con)
assert list(out["region"]) == ["e", "n", "s"] and list(out["total"]) == [4.0, 4.0, 2.0], out
con.close()
print("OK")
