import pandas as pd
df = pd.DataFrame({'city': ['Oslo', 'Lima'], 'temp': [3.5, 19.0]})
df.to_excel('t.xlsx', index=False)
back = pd.read_excel('t.xlsx')
assert back.equals(df)
print('OK')
