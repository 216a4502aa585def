# Strings and symbols: interpolation, formatting, slicing, case, split/join, heredocs, encodings, symbols.
def check(cond, msg) = (raise "FAIL: #{msg}" unless cond)

s = "Hello, World"
check s.length == 12 && s.upcase == "HELLO, WORLD" && s.swapcase == "hELLO, wORLD", "case"
check s[0, 5] == "Hello" && s[-5..] == "World" && s[/W\w+/] == "World", "slicing"
check s.sub("World", "Ruby") == "Hello, Ruby" && s.tr("lo", "01") == "He001, W1r0d", "sub/tr"
check s.center(16, "*") == "**Hello, World**" && "7".rjust(3, "0") == "007", "padding"
check "a,b,,c".split(",") == ["a", "b", "", "c"] && "a b  c".split == %w[a b c], "split"
check %w[x y z].join("-") == "x-y-z", "join"
check "  trim  ".strip == "trim" && "xxhixx".delete("x") == "hi" && "aaabbb".squeeze == "ab", "strip/delete/squeeze"
check "snake_case_name".split("_").map.with_index { |w, i| i.zero? ? w : w.capitalize }.join == "snakeCaseName", "camelize"
check "ruby" * 3 == "rubyrubyruby" && "abc".reverse == "cba" && "abc".succ == "abd", "repeat/reverse/succ"
check "hello world".each_char.tally.max_by { |_, n| n } == ["l", 3], "tally"
check "%05.2f|%-4s|%x|%08b" % [3.14159, "ab", 255, 5] == "03.14|ab  |ff|00000101", "format"
check format("%<name>s is %<age>d", name: "Ann", age: 30) == "Ann is 30", "named format"
check "line1\nline2\r\nline3".lines.map(&:chomp) == %w[line1 line2 line3], "lines"
check "abc".start_with?("ab") && "abc".end_with?("bc") && "abc".include?("b"), "predicates"
check "The Cat".casecmp?("the cat") && ("a" <=> "b") == -1, "compare"
check "hello"[1..3] == "ell" && "hello".index("l") == 2 && "hello".rindex("l") == 3, "index"
check "%s and %p" % ["str", "str"] == 'str and "str"', "%p"

text = <<~TEXT
  Dear #{"Ann"},
    indented line
  Total: #{1 + 2}
TEXT
check text == "Dear Ann,\n  indented line\nTotal: 3\n", "squiggly heredoc"
raw = <<~'RAW'
  no #{interpolation} here\n
RAW
check raw == "no \#{interpolation} here\\n\n", "raw heredoc"

# encodings and unicode
u = "héllo wörld ✓"
check u.length == 13 && u.bytesize == 17 && u.encoding == Encoding::UTF_8, "utf-8 sizes"
check u.upcase == "HÉLLO WÖRLD ✓", "unicode upcase"
check "e\u0301".unicode_normalize(:nfc) == "\u00e9", "normalize"
check "caf\xC3".dup.force_encoding("UTF-8").valid_encoding? == false, "invalid bytes"
check "café".encode("ISO-8859-1").bytes.last == 0xE9, "transcode"
check "\u{1F600}".codepoints == [0x1F600] && [97, 98].pack("U*") == "ab", "codepoints/pack"
check "naïve".unpack("C*").size == 6, "unpack"
check "🇫🇷a".each_grapheme_cluster.to_a.size == 2, "graphemes"

# symbols
sym = :status
check sym.to_s == "status" && "status".to_sym.equal?(sym) && :"with space".inspect == ':"with space"', "symbols"
check %w[a b].map(&:upcase) == %w[A B] && :size.to_proc.call("abc") == 3, "symbol to_proc"
check %w[apple Banana cherry].sort_by(&:downcase) == %w[apple Banana cherry], "sort_by symbol"
check sym.length == 6 && sym.upcase == :STATUS && (:a <=> :b) == -1, "symbol methods"
# mutation, slices assignment, string building
buf = +""
buf << "ab" << "cd"
buf[1, 2] = "XY"
buf.insert(0, ">")
buf.concat("!", "?")
check buf == ">aXYd!?", "mutation #{buf}"
check "Ruby is fun".scan(/\w+/).map(&:length) == [4, 2, 3], "scan"
check "2024-03-15".tr("-", "/") == "2024/03/15" && "hello world".count("lo") == 5, "tr/count"
puts "OK"
