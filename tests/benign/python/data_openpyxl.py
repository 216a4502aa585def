from openpyxl import Workbook, load_workbook
wb = Workbook()
ws = wb.active
ws.title = 'data'
ws.append(['name', 'score'])
for row in [('ada', 3), ('bob', 4)]:
    ws.append(row)
ws['D1'] = '=SUM(B2:B3)'
wb.save('scores.xlsx')
back = load_workbook('scores.xlsx')['data']
assert [c.value for c in back[2]][:2] == ['ada', 3] and back['D1'].value == '=SUM(B2:B3)'
print('OK')
