import pandas as pd
open('sales.csv', 'w').write('region,product,units,price\nnorth,a,3,2.5\nsouth,a,5,2.5\nnorth,b,2,10\nsouth,b,1,10\n')
df = pd.read_csv('sales.csv')
df['revenue'] = df.units * df.price
by = df.groupby('region')['revenue'].sum()
assert by['north'] == 27.5 and by['south'] == 22.5
assert df.pivot_table(index='region', columns='product', values='units', aggfunc='sum').loc['south', 'a'] == 5
df.to_csv('out.csv', index=False)
assert pd.read_csv('out.csv').shape == (4, 5)
print('OK')
