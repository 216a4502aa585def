# Pattern matching: case/in with arrays, hashes, find patterns, guards, pins, alternatives, deconstruct/deconstruct_keys, => and in.
require "json"
def check(cond, msg) = (raise "FAIL: #{msg}" unless cond)

def describe(v)
  case v
  in [] then "empty array"
  in [Integer => only] then "one int #{only}"
  in [Integer, Integer] | [Float, Float] then "pair"
  in [first, *, last] if first == last then "bookends #{first}"
  in {type: "circle", r: Numeric => r} then "circle #{(3.14159 * r * r).round(1)}"
  in {type: "rect", w:, h:} then "rect #{w * h}"
  in {name: String => name, roles: [*, "admin", *]} then "admin #{name}"
  in String if v.empty? then "empty string"
  in String | Symbol => s then "text #{s}"
  in nil then "nil"
  in Float::INFINITY then "infinity"
  in 0.. then "non-negative #{v}"
  else "other"
  end
end
cases = {
  [] => "empty array", [7] => "one int 7", [1, 2] => "pair", [1.0, 2.0] => "pair", [5, "x", 5] => "bookends 5",
  { type: "circle", r: 2 } => "circle 12.6", { type: "rect", w: 3, h: 4 } => "rect 12",
  { name: "ann", roles: %w[dev admin ops] } => "admin ann", "" => "empty string", :sym => "text sym",
  nil => "nil", Float::INFINITY => "infinity", 42 => "non-negative 42", -1 => "other",
}
cases.each { |input, want| got = describe(input); raise "FAIL: #{input.inspect} -> #{got}" unless got == want }

config = { db: { user: "admin", pass: "secret", port: 5432 }, mode: "prod" }
config => { db: { user:, port: } }
check user == "admin" && port == 5432, "rightward assignment"
check (config in { mode: "prod" }) && !(config in { mode: "dev" }), "boolean in"
expected = 5432
check (case config; in { db: { port: ^expected } } then true else false end), "pin"
check (case [1, [2, 3]]; in [a, [b, *rest]] then [a, b, rest] end) == [1, 2, [3]], "nested arrays"
check (case { a: 1, b: 2 }; in { a: 1, **rest } then rest end) == { b: 2 }, "**rest"
check (case { a: 1 }; in { a: 1, **nil } then :exact end) == :exact, "**nil"
check (case [1, 42, "x", :y]; in [*, String => s, *post] then [s, post] end) == ["x", [:y]], "find pattern"
begin
  case 99
  in String then nil
  end
  raise "FAIL: NoMatchingPatternError expected"
rescue NoMatchingPatternError
end
begin
  { a: 1 } => { b: }
  raise "FAIL: key error expected"
rescue NoMatchingPatternKeyError => e
  check e.key == :b, "NoMatchingPatternKeyError#key"
end

class Vec
  attr_reader :x, :y
  def initialize(x, y) = (@x, @y = x, y)
  def deconstruct = [x, y]
  def deconstruct_keys(keys) = { x: x, y: y }
end
check (case Vec.new(0, 5); in [0, y] then "on y axis at #{y}" end) == "on y axis at 5", "deconstruct"
check (case Vec.new(3, 3); in { x:, y: } if x == y then :diagonal end) == :diagonal, "deconstruct_keys with guard"
check (case Vec.new(1, 2); in Vec(x:, y: 2) then x end) == 1 && (case Vec.new(1, 2); in Vec[a, b] then a + b end) == 3, "Const(...) patterns"
Pt = Struct.new(:x, :y)
check (case Pt.new(1, 2); in [x, y] then x + y end) == 3 && (case Pt.new(1, 2); in { x: 1 } then :yes end) == :yes, "Struct patterns"
events = [{ type: :click, x: 1, y: 2 }, { type: :key, code: "a" }, { type: :click, x: 5, y: 5 }, { type: :scroll }]
summary = events.map do |ev|
  case ev
  in { type: :click, x:, y: } then "click@#{x},#{y}"
  in { type: :key, code: /[a-z]/ => c } then "key #{c}"
  in { type: } then "unhandled #{type}"
  end
end
check summary == ["click@1,2", "key a", "click@5,5", "unhandled scroll"], "event dispatch"
json_like = JSON.parse('{"status": "ok", "data": {"items": [{"id": 1}, {"id": 2}]}}', symbolize_names: true)
case json_like
in { status: "ok", data: { items: [*, { id: 2 } => hit, *] } }
  check hit == { id: 2 }, "parsed JSON"
end
check (1 in Integer | Float) && ("s" in String) && !(nil in Integer), "in with alternatives"
puts "OK"
