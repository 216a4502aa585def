# YAML (Psych): load/dump, safe_load with permitted classes, anchors and aliases, multi-documents, files, symbols, errors.
require "yaml"
require "date"
def check(cond, msg) = (raise "FAIL: #{msg}" unless cond)

text = <<~YAML
  name: warmbox
  version: 1.5
  enabled: true
  nothing: ~
  ports: [8080, 8443]
  limits:
    memory_mb: 256
    pids: 64
  defaults: &defaults
    retries: 3
    timeout: 10
  prod:
    <<: *defaults
    timeout: 30
  notes: |
    line one
    line two
  folded: >
    folded
    text
  quoted: "tab\\tand unicode \\u00e9"
YAML
cfg = YAML.safe_load(text, aliases: true)
check cfg["name"] == "warmbox" && cfg["version"] == 1.5 && cfg["enabled"] == true && cfg["nothing"].nil?, "scalars"
check cfg["ports"] == [8080, 8443] && cfg["limits"]["pids"] == 64, "collections"
check cfg["prod"] == { "retries" => 3, "timeout" => 30 }, "anchors and merge keys"
check cfg["notes"] == "line one\nline two\n" && cfg["folded"] == "folded text\n" && cfg["quoted"] == "tab\tand unicode é", "block scalars"
check (begin; YAML.safe_load(text); rescue Psych::BadAlias; :refused; end) == :refused, "aliases off by default"
check YAML.safe_load("a: 1", symbolize_names: true) == { a: 1 }, "symbolize_names"
check (YAML.safe_load("d: 2024-03-15") rescue Psych::DisallowedClass) == Psych::DisallowedClass, "dates not permitted by default"
check YAML.safe_load("d: 2024-03-15", permitted_classes: [Date])["d"] == Date.new(2024, 3, 15), "permitted_classes"
check (YAML.safe_load("--- !ruby/object:Object {}\n") rescue Psych::DisallowedClass) == Psych::DisallowedClass, "objects refused"
check YAML.load("x: :sym", permitted_classes: [Symbol]).then { _1["x"] == :sym } , "symbols"

data = { "list" => [1, "two", 3.0, nil, true], "nested" => { "k" => "multi\nline" }, "empty" => [], "str_num" => "123" }
dumped = YAML.dump(data)
check dumped.start_with?("---\n") && YAML.safe_load(dumped) == data, "dump/load round-trip"
check dumped.include?("str_num: '123'"), "strings that look like numbers are quoted"
check [1, 2].to_yaml == "---\n- 1\n- 2\n" && YAML.dump("plain") == "--- plain\n", "to_yaml"
docs = YAML.load_stream("--- 1\n--- [2]\n--- {a: 3}\n")
check docs == [1, [2], { "a" => 3 }], "multi-document"
File.write("conf.yml", YAML.dump(cfg))
check YAML.safe_load_file("conf.yml", aliases: true) == cfg, "file round-trip"
S = Struct.new(:a, :b)
check YAML.unsafe_load(YAML.dump(S.new(1, [2]))) == S.new(1, [2]), "objects with unsafe_load"
begin
  YAML.safe_load("key: [unclosed")
  raise "FAIL: syntax error not raised"
rescue Psych::SyntaxError => e
  check e.line >= 1, "SyntaxError position"
end
check YAML.safe_load("yes: no\non: off").then { _1.values.uniq.size >= 1 }, "yaml 1.1 booleans parse"
check Psych::VERSION.match?(/\A\d/), "Psych version"
File.delete("conf.yml")
puts "OK"
