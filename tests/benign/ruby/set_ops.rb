# Set and SortedSet-like usage: union/intersection/difference, subset tests, set of structs, dedup, graph traversal with a visited set.
require "set"
def check(cond, msg) = (raise "FAIL: #{msg}" unless cond)

a = Set[1, 2, 3, 4]
b = Set.new([3, 4, 5])
check (a | b) == Set[1, 2, 3, 4, 5] && (a & b) == Set[3, 4] && (a - b) == Set[1, 2] && (a ^ b) == Set[1, 2, 5], "set algebra"
check Set[1, 2] <= a && Set[1, 2].proper_subset?(a) && a.superset?(Set[4]) && a.disjoint?(Set[9]) && a.intersect?(b), "relations"
s = Set.new
check s.add?(1) && !s.add?(1) && s.size == 1 && s.include?(1) && s === 1, "add?/include?/==="
s.merge([2, 3, 3])
s.delete(1)
check s == Set[2, 3] && s.to_a.sort == [2, 3] && s.frozen? == false, "merge/delete"
check a.select(&:even?).to_set == Set[2, 4] && a.map { _1 * 10 }.to_set.include?(40) && a.group_by(&:odd?).keys.size == 2, "enumerable"
check a.partition(&:odd?).map(&:to_set) == [Set[1, 3], Set[2, 4]] && a.classify(&:odd?) == { true => Set[1, 3], false => Set[2, 4] }, "classify"
check a.divide { |x, y| (x - y).abs == 1 }.size == 1 && Set[1, 3, 5].divide(&:itself).size == 3, "divide"
check Set[[1, 2], [1, 2]].size == 1 && Set["a", :a].size == 2, "element equality"
P = Struct.new(:x, :y)
check Set[P.new(1, 2), P.new(1, 2), P.new(2, 1)].size == 2, "structs in sets"
words = %w[the cat the hat a cat]
check words.to_set.size == 4 && words.uniq.to_set == words.to_set, "dedup"
case 3
when Set[1, 2, 3] then check true, "case/when with ==="
else raise "FAIL: Set#=== in case"
end
f = Set[1, 2].freeze
check (f << 3 rescue FrozenError) == FrozenError, "frozen set"
check Set[3, 1, 2].sort == [1, 2, 3] && Set[3, 1, 2].min == 1 && Set[1, 2].sum == 3, "ordering helpers"
check Set[1, [2, Set[3]]].flatten == Set[1, [2, Set[3]]] && Set[Set[1], Set[2]].flatten == Set[1, 2], "flatten"
check Set[1, 2].inspect.include?("1, 2") && Set[1].hash == Set[1].hash && { Set[1] => :k }[Set[1]] == :k, "inspect/hash"

graph = { a: %i[b c], b: %i[d], c: %i[d e], d: %i[a], e: [] }
visited = Set.new
order = []
stack = [:a]
until stack.empty?
  n = stack.pop
  next unless visited.add?(n)
  order << n
  stack.concat(graph[n].reverse)
end
check order == %i[a b d c e] && visited.size == 5, "DFS with visited set #{order}"
primes = Set.new(2..100)
(2..10).each { |i| primes.subtract((i * i..100).step(i)) }
check primes.size == 25 && primes.max == 97, "sieve with subtract"
check (1..1000).to_set.length == 1000 && Set.new(1..5).filter_map { _1 * 2 if _1.odd? } == [2, 6, 10], "ranges"
check Set[1, 2].compare_by_identity.compare_by_identity?, "compare_by_identity"
puts "OK"
