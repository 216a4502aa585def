import csv,io
b=io.StringIO()
w=csv.writer(b);w.writerows([[1,'a'],[2,'b,c']])
assert list(csv.reader(io.StringIO(b.getvalue())))==[['1','a'],['2','b,c']]
print('OK')
