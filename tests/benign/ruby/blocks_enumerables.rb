# Blocks, procs, lambdas and Enumerable: yield, closures, custom each, lazy, enumerators, method objects.
require "set"

def check(cond, msg) = (raise "FAIL: #{msg}" unless cond)

def twice = [yield(1), yield(2)]
check twice { _1 * 10 } == [10, 20], "yield"
def maybe_block(&blk) = block_given? ? blk.call(:given) : :none
check maybe_block == :none && maybe_block { |x| x } == :given, "block_given?"

counter = 0
inc = -> { counter += 1 }
3.times { inc.() }
check counter == 3, "closure"
make_adder = ->(n) { ->(x) { x + n } }
check make_adder[5][10] == 15, "curried lambdas"
add = proc { |a, b| (a || 0) + (b || 0) }
check add.call(1) == 1 && add.call(1, 2, 3) == 3 && add.arity == 2, "proc arity leniency"
strict = lambda { |a, b| a + b }
check((strict.call(1) rescue ArgumentError) == ArgumentError, "lambda arity")
compose = method(:Integer) >> ->(x) { x * 2 } >> :to_s.to_proc
check compose.call("21") == "42", "composition"
check [1, 2, 3].map(&10.method(:+)) == [11, 12, 13], "method objects"
check :upcase.to_proc.call("a") == "A", "symbol to_proc"
mul = ->(a, b, c) { a * b * c }.curry
check mul[2][3][4] == 24, "curry"

def early
  [1, 2, 3].each { |x| return x * 100 if x == 2 }
  :never
end
check early == 200, "return from block"
check [1, 2, 3, 4].each_with_object([]) { |x, acc| next if x.odd?; acc << x } == [2, 4], "next"
check [1, 2, 3, 4].each { |x| break x * 7 if x == 3 } == 21, "break value"

class NumberList
  include Enumerable
  def initialize(*n) = @n = n
  def each
    return enum_for(:each) unless block_given?
    @n.each { yield _1 }
    self
  end
end
list = NumberList.new(4, 1, 3, 2)
check list.sort == [1, 2, 3, 4] && list.min == 1 && list.include?(3) && list.sum == 10, "custom Enumerable"
check list.each_slice(2).to_a == [[4, 1], [3, 2]] && list.sort_by { -_1 }.first == 4, "custom Enumerable 2"
check list.each.next == 4 && list.lazy.map { _1 * 2 }.select { _1 > 4 }.to_a == [8, 6], "enum_for/lazy"
check list.reduce(:+) == 10 && list.each_with_index.to_a.last == [2, 3] && list.to_set.size == 4, "reduce/to_set"
check list.chunk_while { |a, b| b == a + 1 }.to_a == [[4], [1], [3], [2]], "chunk_while"
check [1, 2, 4, 5, 7].slice_when { |a, b| b != a + 1 }.to_a == [[1, 2], [4, 5], [7]], "slice_when"
check (1..Float::INFINITY).lazy.map { _1 ** 2 }.select(&:even?).first(3) == [4, 16, 36], "infinite lazy"
check (1..6).each_cons(3).map(&:sum) == [6, 9, 12, 15] && (1..4).flat_map { [_1] * 2 }.size == 8, "cons/flat_map"
check (1..10).find { _1 % 7 == 0 } == 7 && (1..10).take_while { _1 < 4 } == [1, 2, 3] && (1..5).zip(6..10).last == [5, 10], "find/take_while/zip"
check %w[a b c].each.with_index(1).map { |s, i| "#{i}#{s}" } == %w[1a 2b 3c], "with_index offset"
check [3, 1, 2].sort { |a, b| b <=> a } == [3, 2, 1] && [1, 2, 3].sum { _1 * 0.5 } == 3.0, "sort block"
check %w[aa b ccc bb].map(&:size).tally == { 2 => 2, 1 => 1, 3 => 1 }, "tally"
fib = Enumerator.new { |y| a, b = 0, 1; loop { y << a; a, b = b, a + b } }
check fib.take(10) == [0, 1, 1, 2, 3, 5, 8, 13, 21, 34] && fib.lazy.select(&:odd?).first(4) == [1, 1, 3, 5], "Enumerator"
e = [1, 2].each
e.next; e.next
check((begin; e.next; rescue StopIteration; :done; end) == :done, "StopIteration")
check [[1, 2], [3, 4]].map { |a, b| a * b } == [2, 12] && [[1, 2]].map { it = _1; it.sum } == [3], "block destructuring"
check Enumerator.produce(1) { _1 * 3 }.take(4) == [1, 3, 9, 27], "produce"
check [1, 2, 3].each_entry.to_a == [1, 2, 3] && (1..3).inject { |s, x| s * x } == 6, "each_entry/inject"
puts "OK"
