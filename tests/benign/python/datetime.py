import datetime as dt
d=dt.datetime(2024,2,28)+dt.timedelta(days=1)
assert d.day==29 and d.strftime('%Y-%m-%d')=='2024-02-29'
print('OK')
