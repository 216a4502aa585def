# bc: arbitrary precision, scale, the math library (-l), functions, bases, big integers.
fail() { echo "FAIL: $*" >&2; exit 1; }
[[ $(echo '2^200' | bc | tr -d '\\\n') == 1606938044258990275541962092341162602522202993782792835301376 ]] || fail "2^200"
[[ $(echo 'scale=10; 1/3' | bc) == .3333333333 ]] || fail "scale"
[[ $(echo 'scale=20; sqrt(2)' | bc) == 1.41421356237309504880 ]] || fail "sqrt"
pi=$(echo 'scale=30; 4*a(1)' | bc -l)
[[ $pi == 3.141592653589793238462643383276 ]] || fail "pi: $pi"
[[ $(echo 'scale=5; e(1)' | bc -l) == 2.71828 ]] || fail "e"
[[ $(echo 'scale=4; s(0)+c(0)' | bc -l) == 1.0000 ]] || fail "sin/cos"
[[ $(echo 'scale=6; l(e(2))' | bc -l) == 1.999999 || $(echo 'scale=6; l(e(2))' | bc -l) == 2.000000 ]] || fail "log"
[[ $(echo 'obase=16; 255' | bc) == FF && $(echo 'ibase=2; 101010' | bc) == 42 ]] || fail "bases"
[[ $(echo '17 % 5; -7 / 2' | bc | paste -sd,) == 2,-3 ]] || fail "integer ops"

fact=$(bc <<'EOT'
define f(n) { if (n <= 1) return 1; return n * f(n - 1); }
f(30)
EOT
)
[[ $fact == 265252859812191058636308480000000 ]] || fail "factorial: $fact"
r=$(bc <<'EOT'
scale = 2
total = 0
for (i = 1; i <= 100; i++) total += i
total
x = 10.456
x / 1
if (x > 10) 1 else 0
EOT
)
[[ $r == $'5050\n10.45\n1' ]] || fail "bc program: $r"
# floating point comparison in shell using bc
avg=$(printf '%s\n' 3.5 4.25 7.75 | paste -sd+ | sed 's/^/scale=3; (/; s/$/)\/3/' | bc)
[[ $avg == 5.166 ]] || fail "average: $avg"
(( $(echo "$avg > 5" | bc) == 1 )) || fail "comparison"
[[ $(printf '%.2f' "$avg") == 5.17 ]] || fail "printf rounding"
echo OK
