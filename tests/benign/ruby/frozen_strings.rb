# frozen_string_literal: true
# Frozen string literals and immutability: FrozenError, +"" and dup, freeze of containers, Ractor.make_shareable, object identity.
def check(cond, msg) = (raise "FAIL: #{msg}" unless cond)

lit = "literal"
check lit.frozen? && "literal".equal?(lit), "literals are frozen and deduplicated"
check (lit << "x" rescue FrozenError) == FrozenError, "mutating a literal"
err = begin; lit.upcase!; rescue FrozenError => e; e; end
check err.is_a?(FrozenError) && err.receiver.equal?(lit), "FrozenError#receiver"
m = +"mutable"
m << " string"
check m == "mutable string" && !m.frozen?, "unary plus"
d = lit.dup
d << "!"
check d == "literal!" && lit == "literal", "dup is mutable"
check "#{lit} interpolated".frozen? == false, "interpolated strings are not frozen"
check String.new("x").frozen? == false && lit.upcase.frozen? == false && (-m).frozen?, "new strings and -@"
check (-"dedup").equal?(-"dedup".dup), "String#-@ deduplicates"
buf = String.new(capacity: 1024)
100.times { buf << "ab" }
check buf.size == 200, "capacity buffer"
check :sym.frozen? && 1.frozen? && nil.frozen? && 1.5.frozen? && (1..2).frozen?, "immediates are frozen"

CONFIG = { name: "app", tags: %w[a b] }.freeze
check CONFIG.frozen? && !CONFIG[:tags].frozen?, "shallow freeze"
check (begin; CONFIG[:new] = 1; rescue FrozenError; :refused; end) == :refused, "frozen hash"
CONFIG[:tags] << "c"
check CONFIG[:tags].size == 3, "inner array still mutable"
deep = Ractor.make_shareable({ list: [+"x", { inner: +"y" }] })
check deep.frozen? && deep[:list].frozen? && deep[:list][0].frozen? && deep[:list][1][:inner].frozen? && Ractor.shareable?(deep), "deep freeze"
def deep_freeze(o)
  case o
  when Hash then o.each { |k, v| deep_freeze(k); deep_freeze(v) }
  when Array then o.each { deep_freeze(_1) }
  end
  o.freeze
end
df = deep_freeze({ a: [+"s", [+"t"]] })
check df[:a][1][0].frozen?, "manual deep freeze"

class Point
  attr_reader :x, :y
  def initialize(x, y)
    @x, @y = x, y
    freeze
  end
  def with(x: @x, y: @y) = Point.new(x, y)
end
pt = Point.new(1, 2)
check pt.frozen? && (pt.instance_variable_set(:@x, 5) rescue FrozenError) == FrozenError, "frozen object"
check pt.with(y: 9).y == 9 && pt.y == 2, "copy-on-write"
check pt.dup.frozen? == false || pt.dup.frozen?, "dup of frozen object"
check pt.clone.frozen? && !pt.clone(freeze: false).frozen?, "clone keeps frozen state"
arr = [1, 2, 3].freeze
check arr.map { _1 * 2 }.frozen? == false && (arr.push(4) rescue FrozenError) == FrozenError, "frozen array"
check "abc".object_id == "abc".object_id && "a".encoding == Encoding::UTF_8, "same object"
s = "é"
check s.bytes == [0xC3, 0xA9] && s.b.frozen? == false, "b() copies"
puts "OK"
