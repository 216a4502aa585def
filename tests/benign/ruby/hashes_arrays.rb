# Hashes and arrays: default values, transformations, grouping, sorting, nesting, dig, destructuring.
def check(cond, msg) = (raise "FAIL: #{msg}" unless cond)

h = { "apple" => 3, "banana" => 5, "cherry" => 2 }
check h.sort_by { |_, v| -v }.first == ["banana", 5], "sort_by value"
check h.select { |_, v| v > 2 }.keys == %w[apple banana], "select"
check h.transform_values { _1 * 10 }["cherry"] == 20, "transform_values"
check h.map { |k, v| [k.to_sym, v] }.to_h.key?(:apple), "to_h"
check h.sum { |_, v| v } == 10 && h.min_by(&:last) == ["cherry", 2], "sum/min_by"
check h.to_a.transpose == [%w[apple banana cherry], [3, 5, 2]], "transpose"
check h.invert[5] == "banana" && h.key(2) == "cherry", "invert/key"
check h.reject { |k, _| k.start_with?("a") }.size == 2 && h.count { |_, v| v.odd? } == 2, "reject/count"
merged = h.merge({ "apple" => 1, "date" => 7 }) { |_, old, new| old + new }
check merged == { "apple" => 4, "banana" => 5, "cherry" => 2, "date" => 7 }, "merge with block"
check h.filter_map { |k, v| k.upcase if v > 2 } == %w[APPLE BANANA], "filter_map"
check h.each_with_object({}) { |(k, v), acc| acc[v] = k } == { 3 => "apple", 5 => "banana", 2 => "cherry" }, "each_with_object"

counts = Hash.new(0)
"the cat and the hat".split.each { counts[_1] += 1 }
check counts["the"] == 2 && counts["zzz"] == 0, "default value"
groups = Hash.new { |hash, key| hash[key] = [] }
%w[ant bee cat ape bat].each { |w| groups[w[0]] << w }
check groups == { "a" => %w[ant ape], "b" => %w[bee bat], "c" => %w[cat] }, "default proc"

nested = { user: { profile: { langs: ["ruby", "c"] } } }
check nested.dig(:user, :profile, :langs, 0) == "ruby" && nested.dig(:user, :nope, :x).nil?, "dig"
check({ a: 1, b: 2 }.slice(:a) == { a: 1 } && { a: 1, b: 2 }.except(:a) == { b: 2 }, "slice/except")
check({ b: 1, a: 2 }.sort.to_h.keys == [:a, :b] && { a: nil, b: 1 }.compact == { b: 1 }, "sort/compact")
check({ a: 1 }.fetch(:b, "dflt") == "dflt" && ({ a: 1 }.fetch(:b) rescue :missing) == :missing, "fetch")
check({ "x" => 1 }.any? { |k, _| k == "x" } && { a: 1 }.frozen? == false, "any?")

a = [5, 3, 8, 1, 9, 2]
check a.sort == [1, 2, 3, 5, 8, 9] && a.max(2) == [9, 8] && a.minmax == [1, 9], "sort/max/minmax"
check a.partition(&:even?) == [[8, 2], [5, 3, 1, 9]], "partition"
check a.each_slice(2).map(&:sum) == [8, 9, 11] && a.each_cons(2).count { |x, y| y > x } == 2, "slices"
check a.group_by { _1 % 3 } == { 2 => [5, 8, 2], 0 => [3, 9], 1 => [1] }, "group_by"
check a.zip(a.rotate).first == [5, 3] && a.rotate(-1).first == 2, "zip/rotate"
check [[1, [2, [3, [4]]]]].flatten == [1, 2, 3, 4] && [[1, [2, [3]]]].flatten(1) == [1, [2, [3]]], "flatten"
check [3, 1, 3, 2, 1].uniq == [3, 1, 2] && [1, 2, 3] & [2, 3, 4] == [2, 3] && [1, 2] | [2, 3] == [1, 2, 3], "set ops"
check [1, 2, 3, 4].combination(2).count == 6 && [1, 2, 3].permutation.count == 6 && [1, 2].product([3, 4]).size == 4, "combinatorics"
check (1..10).step(3).to_a == [1, 4, 7, 10] && Array.new(3) { _1 * _1 } == [0, 1, 4], "ranges/new"
check a.bsearch { |x| x >= 4 }.nil? || true, "bsearch on unsorted is allowed"
check a.sort.bsearch { |x| x >= 4 } == 5, "bsearch"
b = a.dup
b.push(10).unshift(0)
b.delete_if(&:odd?)
check b == [0, 8, 2, 10] && b.pop == 10 && b.shift == 0 && b == [8, 2], "mutation"
first, (second, third), *rest = [1, [2, 3], 4, 5]
check [first, second, third, rest] == [1, 2, 3, [4, 5]], "destructuring"
check a.sum.fdiv(a.size).round(2) == 4.67 && a.inject(:*) == 2160, "sum/inject"
check [["a", 1], ["b", 2]].each_with_index.map { |(k, v), i| "#{i}#{k}#{v}" } == %w[0a1 1b2], "nested block args"
check %w[b a c].sort!.frozen? == false && [1, nil, 2].compact.sum == 3 && [4, 5].cycle.first(5) == [4, 5, 4, 5, 4], "misc"
big = (1..100_000).to_a.shuffle(random: Random.new(1))
check big.sort.last == 100_000 && big.sum == 5_000_050_000, "big array"
puts "OK"
