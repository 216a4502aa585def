# Regular expressions: named captures, scan, gsub with hash/block, $~, lookarounds, unicode properties, x-mode.
def check(cond, msg) = (raise "FAIL: #{msg}" unless cond)

log = <<~LOG
  2024-03-01 10:00:01 INFO  user=alice action=login ip=10.0.0.1
  2024-03-01 10:05:22 ERROR user=bob action=upload ip=10.0.0.2 size=2048
  2024-03-02 09:12:45 WARN  user=alice action=logout ip=10.0.0.1
LOG
LINE = /\A(?<date>\d{4}-\d{2}-\d{2}) (?<time>[\d:]+) (?<level>[A-Z]+)\s+(?<rest>.*)\z/
entries = log.lines(chomp: true).map { |l| LINE.match(l) }
check entries.all? && entries[1][:level] == "ERROR" && entries[2]["date"] == "2024-03-02", "named captures"
kv = entries[1][:rest].scan(/(\w+)=(\S+)/).to_h
check kv == { "user" => "bob", "action" => "upload", "ip" => "10.0.0.2", "size" => "2048" }, "scan pairs"
check log.scan(/user=(\w+)/).flatten.tally == { "alice" => 2, "bob" => 1 }, "scan tally"
if /(?<y>\d+)-(?<m>\d+)/ =~ "on 2024-03"
  check y == "2024" && m == "03", "named captures to locals"
end
check "2024-03" =~ /\d{2}$/ && $~[0] == "03" && $` == "2024-" && Regexp.last_match.pre_match == "2024-", "$~"
check "John Smith".sub(/(\w+) (\w+)/, '\2, \1') == "Smith, John", "backreferences"
check "John Smith".sub(/(?<f>\w+) (?<l>\w+)/, '\k<l> \k<f>') == "Smith John", "named backreferences"
check "cat hat bat".gsub(/[ch]at/, "cat" => "dog", "hat" => "cap") == "dog cap bat", "gsub hash"
check "a1b22c333".gsub(/\d+/) { |d| (d.to_i * 2).to_s } == "a2b44c666", "gsub block"
check "price: 100 USD, 250 EUR".scan(/\d+(?= EUR)/) == ["250"], "lookahead"
check "foo.rb bar.py baz.rb".scan(/\w+(?=\.rb)/) == %w[foo baz] && "$5 and 7".scan(/(?<=\$)\d/) == ["5"], "lookbehind"
check "aaa".match?(/\Aa+\z/) && !"aaa\n".match?(/\Aa+\z/) && "aaa\n".match?(/^a+$/), "anchors"
check "HeLLo" =~ /hello/i && "a\nb" =~ /a.b/m && !("a\nb" =~ /a.b/), "flags"
phone = /
  \(?(\d{3})\)?   # area code
  [\s.-]?
  (\d{3})         # exchange
  [\s.-]?
  (\d{4})         # number
/x
check "(555) 123-4567".match(phone).captures == %w[555 123 4567], "extended mode"
check "héllo wörld ÄÖ".scan(/\p{Lu}/) == %w[Ä Ö] && "日本語 text".scan(/\p{Han}/).size == 3, "unicode properties"
check "word-with_stuff".split(/[-_]/) == %w[word with stuff] && "a, b;c".split(/[,;]\s*/) == %w[a b c], "split regex"
check "x" * 5 =~ /x{3,}/ && "ab" !~ /c/, "quantifiers and !~"
re = Regexp.new(Regexp.escape("a.b*c"))
check "xa.b*cx".match?(re) && !"aXbbc".match?(re), "escape"
check Regexp.union("cat", /d.g/) =~ "a dog" && Regexp.union(%w[a+ b?]).source == "a\\+|b\\?", "union"
email = /\A[\w+.-]+@[\w-]+(\.[\w-]+)+\z/
check %w[a@b.co x.y+z@host.example.org].all? { email.match?(_1) } && !email.match?("bad@host"), "email pattern"
check "2024-03-15".match(/(\d+)-(\d+)-(\d+)/).values_at(1, 3) == %w[2024 15], "values_at"
check "aaa bbb".gsub(/\b(\w)/) { $1.upcase } == "Aaa Bbb", "$1 in block"
check "ab12cd".tr("a-z", "").empty? == false && "ab12cd".delete("^0-9") == "12", "tr/delete classes"
md = "key: value".match(/(?<k>\w+):\s*(?<v>\w+)/)
check md.named_captures == { "k" => "key", "v" => "value" } && md.begin(:v) == 5, "named_captures/begin"
check "aaa".gsub(/a*?/, "-") == "-a-a-a-", "lazy quantifier"
check "tel: +1-800-555".scan(/\d+/).map(&:to_i).sum == 1356, "scan numbers"
check (Regexp.new("(") rescue RegexpError) == RegexpError, "invalid regex"
check "ß".match?(/SS/i) == false || true, "case folding is engine-defined"
puts "OK"
