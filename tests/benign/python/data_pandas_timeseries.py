import numpy as np
import pandas as pd
idx = pd.date_range('2024-01-01', periods=48, freq='H')
s = pd.Series(np.arange(48, dtype=float), index=idx)
daily = s.resample('D').mean()
assert list(daily) == [11.5, 35.5]
assert s.rolling(4).mean().iloc[3] == 1.5
df = pd.DataFrame({'t': idx[:3], 'v': [1, 2, 3]}).set_index('t')
assert df.loc['2024-01-01 01:00', 'v'] == 2
print('OK')
