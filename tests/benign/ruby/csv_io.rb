# CSV: parse with headers and converters, quoting edge cases, generate, write/read files, tables, aggregation.
require "csv"
def check(cond, msg) = (raise "FAIL: #{msg}" unless cond)

data = <<~CSV
  id,name,dept,salary,joined
  1,Alice,eng,7000.50,2019-04-01
  2,"Bob, Jr.",sales,4800,2021-11-15
  3,"Carol ""CJ"" Doe",eng,6100,2020-01-20
  4,Dan,hr,,2022-06-30
CSV
rows = CSV.parse(data, headers: true, converters: :numeric)
check rows.size == 4 && rows.headers == %w[id name dept salary joined], "headers"
check rows[1]["name"] == "Bob, Jr." && rows[2]["name"] == 'Carol "CJ" Doe', "quoted fields"
check rows[0]["salary"] == 7000.5 && rows[1]["id"].is_a?(Integer) && rows[3]["salary"].nil?, "converters"
by_dept = rows.group_by { _1["dept"] }.transform_values { |rs| rs.sum { _1["salary"].to_f } }
check by_dept == { "eng" => 13100.5, "sales" => 4800.0, "hr" => 0.0 }, "aggregate #{by_dept}"
table = CSV.parse(data, headers: true, header_converters: :symbol)
check table[:name].size == 4 && table.by_col[1].first == "Alice" && table.first.to_h[:dept] == "eng", "table/symbol headers"
dated = CSV.parse(data, headers: true, converters: [:date]).map { _1["joined"] }
check dated.all?(Date) && dated.max.year == 2022, "date converter"

out = CSV.generate do |csv|
  csv << %w[k v]
  csv << ["comma", "a,b"]
  csv << ["quote", 'say "hi"']
  csv << ["newline", "line1\nline2"]
  csv << ["nil", nil]
end
check out == %(k,v\ncomma,"a,b"\nquote,"say ""hi"""\nnewline,"line1\nline2"\nnil,\n), "generate quoting: #{out.inspect}"
check CSV.parse(out)[3][1] == "line1\nline2", "embedded newline round-trip"
check ["x", 1, nil, "y z"].to_csv == "x,1,,y z\n" && "a;b;c".parse_csv(col_sep: ";") == %w[a b c], "to_csv/parse_csv"
check CSV.generate_line(%w[a b], col_sep: "\t") == "a\tb\n", "tsv"
check CSV.parse_line("a, b ,c", strip: true) == %w[a b c], "strip"

CSV.open("report.csv", "w", write_headers: true, headers: %w[dept total]) do |csv|
  by_dept.sort.each { |d, t| csv << [d, format("%.2f", t)] }
end
check File.read("report.csv") == "dept,total\neng,13100.50\nhr,0.00\nsales,4800.00\n", "CSV.open write"
totals = CSV.foreach("report.csv", headers: true).map { _1["total"].to_f }
check totals.sum == 17900.5, "CSV.foreach"
check CSV.read("report.csv").size == 4 && CSV.table("report.csv")[:dept].last == "sales", "CSV.read/table"
begin
  CSV.parse(%(a,"unterminated\n))
  raise "FAIL: malformed accepted"
rescue CSV::MalformedCSVError
end
File.delete("report.csv")
puts "OK"
