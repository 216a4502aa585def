# Struct, Comparable, equality and hashing: keyword_init, value objects, <=>, clamp, between?, eql?/hash in Hash keys.
def check(cond, msg) = (raise "FAIL: #{msg}" unless cond)

Point = Struct.new(:x, :y) do
  def +(other) = Point.new(x + other.x, y + other.y)
  def dist2 = x * x + y * y
  def to_s = "(#{x}, #{y})"
end
a = Point.new(1, 2)
b = Point.new(3, 4)
check (a + b) == Point.new(4, 6) && (a + b).to_s == "(4, 6)", "struct methods"
check a.to_a == [1, 2] && a.to_h == { x: 1, y: 2 } && Point.members == %i[x y], "to_a/to_h/members"
check a == Point.new(1, 2) && a.eql?(Point.new(1, 2)) && a.hash == Point.new(1, 2).hash, "value equality"
visits = { a => 1 }
visits[Point.new(1, 2)] += 1
check visits.size == 1 && visits[a] == 2, "struct as hash key"
x, y = *b
check x == 3 && y == 4 && b[0] == 3 && b[:y] == 4 && b["x"] == 3, "destructure/index"
b.x = 10
check b.x == 10 && b.dig(:x) == 10, "setters"
check (Point.new(1, 2, 3) rescue ArgumentError) == ArgumentError, "too many args"
check Point.new(1).y.nil?, "missing members nil"

Person = Struct.new(:name, :age, keyword_init: true)
pe = Person.new(name: "Ann", age: 30)
check pe.name == "Ann" && pe.inspect.include?("name=\"Ann\""), "keyword_init"
frozen = Point.new(0, 0).freeze
check (begin; frozen.x = 5; rescue FrozenError; :refused; end) == :refused, "frozen struct"

class Version
  include Comparable
  attr_reader :parts
  def initialize(s) = @parts = s.split(".").map(&:to_i)
  def <=>(other) = parts <=> other.parts
  def to_s = parts.join(".")
end
vs = %w[1.10.0 1.2.9 1.2.10 0.9].map { Version.new(_1) }
check vs.sort.map(&:to_s) == %w[0.9 1.2.9 1.2.10 1.10.0], "Comparable sort"
check vs.max.to_s == "1.10.0" && Version.new("1.2") < Version.new("1.10") && Version.new("2.0") == Version.new("2.0"), "operators"
check Version.new("1.5").between?(Version.new("1.0"), Version.new("2.0")), "between?"
check Version.new("3.0").clamp(Version.new("1.0"), Version.new("2.0")).to_s == "2.0", "clamp"
check 15.clamp(1, 10) == 10 && 5.clamp(..3) == 3, "Integer clamp"

class Money
  attr_reader :cents, :currency
  def initialize(cents, currency) = (@cents, @currency = cents, currency)
  def ==(o) = o.is_a?(Money) && cents == o.cents && currency == o.currency
  alias eql? ==
  def hash = [cents, currency].hash
  def coerce(n) = [Money.new(n, currency), self]
  def +(o) = Money.new(cents + (o.is_a?(Money) ? o.cents : o), currency)
end
check [Money.new(5, :eur), Money.new(5, :eur), Money.new(5, :usd)].uniq.size == 2, "eql?/hash for uniq"
check (Money.new(100, :eur) + 50).cents == 150 && (Money.new(1, :eur) + Money.new(2, :eur)).cents == 3, "operator overloading"
check !(Money.new(1, :eur) == 1) && !Money.new(1, :eur).equal?(Money.new(1, :eur)), "identity vs equality"
check 1 == 1.0 && !1.eql?(1.0) && 1.equal?(1) && "a".eql?("a") && !"a".equal?("a".dup), "numeric equality"
check [[2, "b"], [1, "z"], [2, "a"]].sort == [[1, "z"], [2, "a"], [2, "b"]], "array <=>"
check (Point.new(1, 2) <=> Point.new(1, 3)).nil?, "struct without <=>"
S3 = Struct.new(:a, :b, :c)
check S3.new(*%w[x y z]).each.to_a == %w[x y z] && S3.new(1, 2, 3).sum == 6 && S3.new(1, 2, 3).select(&:odd?) == [1, 3], "struct Enumerable"
check S3.new(1, 2, 3).deconstruct_keys([:a]) == { a: 1 }, "deconstruct_keys"
puts "OK"
