# Fibers and external enumerators: resume/yield, generators, pipelines of fibers, Enumerator::Lazy, Fiber storage of state.
def check(cond, msg) = (raise "FAIL: #{msg}" unless cond)

f = Fiber.new do |x|
  y = Fiber.yield x * 2
  z = Fiber.yield y + 1
  "done #{z}"
end
check f.resume(5) == 10 && f.resume(20) == 21 && f.resume(:z) == "done z" && !f.alive?, "resume/yield"
check (f.resume rescue FiberError) == FiberError, "dead fiber"

gen = Fiber.new do
  a, b = 0, 1
  loop { Fiber.yield a; a, b = b, a + b }
end
check Array.new(10) { gen.resume } == [0, 1, 1, 2, 3, 5, 8, 13, 21, 34], "fiber generator"

# a pipeline: producer -> filter -> consumer, each a fiber
producer = Fiber.new { (1..20).each { Fiber.yield _1 }; nil }
filter = Fiber.new do
  while (v = producer.resume)
    Fiber.yield v if (v % 3).zero?
  end
  nil
end
got = []
while (v = filter.resume)
  got << v
end
check got == [3, 6, 9, 12, 15, 18], "fiber pipeline"

# external enumerators are fibers underneath
e = %w[a b c].each_with_index
check e.next == ["a", 0] && e.peek == ["b", 1] && e.next == ["b", 1] && e.next == ["c", 2], "next/peek"
check (e.next rescue StopIteration) == StopIteration, "StopIteration"
e.rewind
check e.next == ["a", 0], "rewind"
zipper = [1, 2, 3].each
letters = %w[x y z].each
pairs = []
loop { pairs << [zipper.next, letters.next] }
check pairs == [[1, "x"], [2, "y"], [3, "z"]], "loop ends at StopIteration"

primes = Enumerator.new do |y|
  n = 2
  loop { y << n if (2..Math.sqrt(n)).none? { n % _1 == 0 }; n += 1 }
end
check primes.take(10) == [2, 3, 5, 7, 11, 13, 17, 19, 23, 29] && primes.lazy.map { _1 * 2 }.first(2) == [4, 6], "Enumerator"
check primes.each_slice(3).first == [2, 3, 5] && primes.with_index.find { |p, _| p > 50 } == [53, 15], "chained"
words = %w[apple banana cherry].each
check words.size == 3 && words.with_object([]).each { |w, acc| acc << w.size }.sum == 17, "with_object"
check ([1, 2].each + [3]).to_a == [1, 2, 3], "enum chaining"
lazy = (1..Float::INFINITY).lazy.select(&:even?).map { _1 * 3 }.reject { _1 % 4 == 0 }
check lazy.first(3) == [6, 18, 30] && lazy.class == Enumerator::Lazy, "lazy chain"
check (1..3).lazy.filter_map { _1 * 2 if _1.odd? }.to_a == [2, 6] && (1..4).lazy.zip(5..8).to_a.last == [4, 8], "lazy filter_map/zip"
check (1..Float::INFINITY).lazy.map { _1 * _1 }.take_while { _1 < 50 }.to_a.size == 7 && (1..3).lazy.eager.class == Enumerator, "take_while/eager"

# many fibers alive at once
fibers = Array.new(500) { |i| Fiber.new { Fiber.yield i; i * 2 } }
check fibers.sum(&:resume) == 124_750 && fibers.sum(&:resume) == 249_500, "many fibers"
check Fiber.current.alive? && Fiber.new { Fiber.current.class }.resume == Fiber, "Fiber.current"
nested = Fiber.new { Fiber.new { Fiber.yield :inner; :inner_done }.then { |inner| [inner.resume, inner.resume] } }
check nested.resume == %i[inner inner_done], "nested fibers"
ext = [10, 20].map
check ext.with_index { |v, i| v + i } == [10, 21], "map enumerator"
check "abc".each_char.next == "a" && { a: 1 }.each.next == [:a, 1] && 3.times.to_a == [0, 1, 2], "misc enumerators"
puts "OK"
