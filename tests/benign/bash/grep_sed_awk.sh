# grep (-E -c -o -v -n -i -w -r -l), sed (substitute, addresses, in-place, hold space), awk (fields, arrays, printf, functions).
fail() { echo "FAIL: $*" >&2; exit 1; }
cat > access.log <<'EOT'
10.0.0.1 - - [01/Mar/2024:10:00:01] "GET /index.html HTTP/1.1" 200 512
10.0.0.2 - - [01/Mar/2024:10:00:02] "POST /api/login HTTP/1.1" 401 64
10.0.0.1 - - [01/Mar/2024:10:00:03] "GET /api/items HTTP/1.1" 200 2048
10.0.0.3 - - [01/Mar/2024:10:00:04] "GET /missing HTTP/1.1" 404 0
10.0.0.2 - - [01/Mar/2024:10:00:05] "POST /api/login HTTP/1.1" 200 128
EOT
[[ $(grep -c '" 200 ' access.log) == 3 ]] || fail "grep -c"
[[ $(grep -v '" 200 ' access.log | wc -l) == 2 ]] || fail "grep -v"
[[ $(grep -oE '/api/[a-z]+' access.log | sort -u | paste -sd,) == /api/items,/api/login ]] || fail "grep -o"
[[ $(grep -n missing access.log | cut -d: -f1) == 4 ]] || fail "grep -n"
[[ $(grep -iw 'get' access.log | wc -l) == 3 ]] || fail "grep -iw"
grep -qE '^10\.0\.0\.[0-9]+ ' access.log || fail "grep -q"
grep -q nothing-like-this access.log && fail "grep no match"
mkdir -p tree/sub; echo needle > tree/sub/x.txt; echo hay > tree/y.txt
[[ $(grep -rl needle tree) == tree/sub/x.txt ]] || fail "grep -rl"
[[ $(grep -F '[01/' access.log | wc -l) == 5 ]] || fail "grep -F"
[[ $(grep -cE '" [0-9]{3} [0-9]+$' access.log) == 5 ]] || fail "grep -E repetition"

# sed
[[ $(sed 's/10\.0\.0\.\([0-9]\)/host\1/' access.log | head -1 | cut -d' ' -f1) == host1 ]] || fail "sed backreference"
[[ $(sed -n '2,3p' access.log | wc -l) == 2 ]] || fail "sed -n range"
[[ $(sed -E 's/^([^ ]+) .*" ([0-9]{3}) .*/\2 \1/' access.log | sed -n '/^404/p') == "404 10.0.0.3" ]] || fail "sed -E"
[[ $(sed '/login/d' access.log | wc -l) == 3 ]] || fail "sed d"
printf 'a\nb\nc\n' > abc.txt
sed -i 's/b/B/; 1i\
first' abc.txt
[[ $(paste -sd, abc.txt) == first,a,B,c ]] || fail "sed -i: $(paste -sd, abc.txt)"
[[ $(printf '1\n2\n3\n' | sed -n '1!G;h;$p' | paste -sd,) == 3,2,1 ]] || fail "sed hold space"
[[ $(echo "a.b.c" | sed 's/\./-/2') == "a.b-c" ]] || fail "sed nth occurrence"
[[ $(echo "hello world" | sed 's/\w\+/[&]/g') == "[hello] [world]" ]] || fail "sed &"

# awk
r=$(awk '{ bytes[$1] += $NF; hits[$1]++ } END { for (ip in bytes) printf "%s %d %d\n", ip, hits[ip], bytes[ip] }' access.log | sort | paste -sd';')
[[ $r == "10.0.0.1 2 2560;10.0.0.2 2 192;10.0.0.3 1 0" ]] || fail "awk aggregate: $r"
r=$(awk -F'"' '{ split($2, req, " "); print req[1] }' access.log | sort | uniq -c | awk '{printf "%s=%s ", $2, $1}')
[[ $r == "GET=3 POST=2 " ]] || fail "awk split: $r"
r=$(awk 'function sq(x) { return x * x } BEGIN { s = 0; for (i = 1; i <= 10; i++) s += sq(i); printf "%d %.3f %s\n", s, sqrt(2), toupper(substr("hello", 2, 3)) }')
[[ $r == "385 1.414 ELL" ]] || fail "awk functions: $r"
r=$(echo "a,b;c d" | awk -F'[,; ]' '{ print NF, $3 }')
[[ $r == "4 c" ]] || fail "awk regex FS"
r=$(printf 'x 1\ny 2\nx 3\n' | awk -v key=x '$1 == key { t += $2 } END { print t }')
[[ $r == 4 ]] || fail "awk -v"
r=$(echo "foo123bar45" | awk '{ n = gsub(/[0-9]+/, "#"); print n, $0 }')
[[ $r == "2 foo#bar#" ]] || fail "awk gsub"
r=$(awk 'BEGIN { OFS = "|" } { $1 = $1; print }' <<<"a b  c")
[[ $r == "a|b|c" ]] || fail "awk OFS"
r=$(awk 'BEGIN { n = split("c a b", arr); asort(arr); print arr[1] arr[2] arr[3] }')
[[ $r == abc ]] || fail "gawk asort"
r=$(awk 'BEGIN { printf "%s\n", strftime("%Y-%m-%d", 86400 * 365, 1) }')
[[ $r == 1971-01-01 ]] || fail "gawk strftime: $r"
awk 'NR % 2 { print > "odd.txt" } !(NR % 2) { print > "even.txt" }' access.log
[[ $(wc -l < odd.txt) == 3 && $(wc -l < even.txt) == 2 ]] || fail "awk output files"
rm -rf access.log abc.txt tree odd.txt even.txt
echo OK
