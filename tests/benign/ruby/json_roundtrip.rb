# JSON: parse with symbolize_names, generate/pretty_generate, round-trips, custom to_json, JSON.dump/load, errors, big docs.
require "json"
def check(cond, msg) = (raise "FAIL: #{msg}" unless cond)

doc = {
  "name" => "warmbox", "version" => 1.5, "tags" => %w[sandbox docker], "nested" => { "ok" => true, "none" => nil },
  "unicode" => "héllo ✓ \u2028", "escape" => "quote\" backslash\\ tab\t newline\n", "big" => 2**70, "neg" => -0.5e-10,
}
text = JSON.generate(doc)
back = JSON.parse(text)
check back == doc, "round-trip"
check back["big"] == 1180591620717411303424 && back["big"].is_a?(Integer), "bignum"
check JSON.parse(text, symbolize_names: true)[:nested][:ok] == true, "symbolize_names"
pretty = JSON.pretty_generate(doc)
check pretty.lines.size > 10 && JSON.parse(pretty) == doc && pretty.start_with?("{\n  \"name\"") , "pretty"
check JSON.generate("a" => "\u00e9") == "{\"a\":\"é\"}" && JSON.generate("é", ascii_only: true) == "\"\\u00e9\"", "unicode output"
check JSON.generate([1, nil, true, 2.5, "s"]) == '[1,null,true,2.5,"s"]', "scalars"
check [1, 2].to_json == "[1,2]" && "x".to_json == '"x"' && nil.to_json == "null" && { a: 1 }.to_json == '{"a":1}', "to_json"
check JSON.parse("[]") == [] && JSON.parse('"just a string"') == "just a string" && JSON.parse("3") == 3, "top-level values"

class Item
  attr_reader :id, :name
  def initialize(id, name) = (@id, @name = id, name)
  def to_h = { id: id, name: name }
  def to_json(*a) = to_h.merge(type: "item").to_json(*a)
  def self.from_json(s) = JSON.parse(s, symbolize_names: true).then { new(_1[:id], _1[:name]) }
end
s = [Item.new(1, "a"), Item.new(2, "b")].to_json
check s == '[{"id":1,"name":"a","type":"item"},{"id":2,"name":"b","type":"item"}]', "custom to_json"
check Item.from_json(Item.new(7, "z").to_json).name == "z", "from_json"
Rec = Struct.new(:a, :b)
check JSON.parse(JSON.generate(Rec.new(1, 2).to_h), object_class: Hash) == { "a" => 1, "b" => 2 }, "struct via to_h"

[%({"a": 1,}), "{'a': 1}", "[1, 2", "", "nul"].each do |bad|
  begin
    JSON.parse(bad)
    raise "FAIL: accepted #{bad.inspect}"
  rescue JSON::ParserError
  end
end
check JSON.parse("NaN", allow_nan: true).nan? && (JSON.generate(Float::NAN) rescue JSON::GeneratorError) == JSON::GeneratorError, "NaN"
check JSON.parse('{"a":1}', object_class: Struct.new(:a, keyword_init: true).then { Hash }).is_a?(Hash), "object_class"
check JSON.parse('{"a":{"b":[1,2]}}', max_nesting: 3)["a"]["b"] == [1, 2], "max_nesting ok"
check (JSON.parse("[[[[1]]]]", max_nesting: 2) rescue JSON::NestingError) == JSON::NestingError, "max_nesting exceeded"
check JSON.parse('{"t":"2024-01-01"}', freeze: true).frozen?, "freeze"

# a larger document: generate, write to a file in cwd, read back, query
rows = (1..5000).map { |i| { "id" => i, "name" => "user#{i}", "score" => (i * 37) % 101, "tags" => ["t#{i % 7}"] } }
File.write("big.json", JSON.generate(rows))
loaded = JSON.parse(File.read("big.json"))
check loaded.size == 5000 && loaded.sum { _1["score"] } == rows.sum { _1["score"] }, "big document"
check loaded.group_by { _1["tags"][0] }.keys.size == 7 && File.size("big.json") > 200_000, "query big document"
File.open("lines.jsonl", "w") { |f| rows.first(100).each { f.puts(JSON.generate(_1)) } }
check File.foreach("lines.jsonl").map { JSON.parse(_1)["id"] }.sum == 5050, "JSON lines"
check JSON.load(JSON.dump({ "k" => [1, 2] })) == { "k" => [1, 2] }, "dump/load"
File.delete("big.json", "lines.jsonl")
puts "OK"
