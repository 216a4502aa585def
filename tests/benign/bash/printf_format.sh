# printf: widths, padding, precision, bases, %q %b %c, argument reuse, -v, table output.
fail() { echo "FAIL: $*" >&2; exit 1; }
[[ $(printf '%05d|%-6s|%6s|' 42 ab cd) == "00042|ab    |    cd|" ]] || fail padding
[[ $(printf '%x %X %o %#x %#o' 255 255 8 255 8) == "ff FF 10 0xff 010" ]] || fail bases
[[ $(printf '%.3f %.2e %g %g' 3.14159 12345.678 0.0001 1e20) == "3.142 1.23e+04 0.0001 1e+20" ]] || fail floats
[[ $(printf '%+d % d %d' 5 5 -5) == "+5  5 -5" ]] || fail signs
[[ $(printf '%.3s' abcdef) == abc ]] || fail "string precision"
[[ $(printf '%*d|%-*d|' 5 1 4 2) == "    1|2   |" ]] || fail "star width"
[[ $(printf '%s,' a b c) == "a,b,c," ]] || fail "format reuse"
[[ $(printf '%s=%s\n' k1 v1 k2 v2 | paste -sd' ') == "k1=v1 k2=v2" ]] || fail "pairs"
[[ $(printf '%b' 'tab\there') == $'tab\there' ]] || fail %b
[[ $(printf '%q' "a b'c") == "a\\ b\\'c" ]] || fail "%q: $(printf '%q' "a b'c")"
[[ $(printf '%c' hello) == h ]] || fail %c
[[ $(printf '%d' "'A") == 65 ]] || fail "char code"
[[ $(printf '\x41\101\u00e9') == "AAé" ]] || fail escapes
[[ $(printf '%%') == % ]] || fail percent
printf -v var '%03d-%s' 7 x
[[ $var == 007-x ]] || fail "printf -v"
[[ $(printf '%d' 0x1F) == 31 ]] || fail "hex input"
if printf '%d' abc >/dev/null 2>&1; then fail "invalid number accepted"; fi
# a formatted table
table=$(printf '%-8s %5s %8s\n' Item Qty Price; printf '%-8s %5d %8.2f\n' apple 3 1.5 pear 12 0.25)
expected='Item       Qty    Price
apple        3     1.50
pear        12     0.25'
[[ $table == "$expected" ]] || fail "table:
$table"
# echo variants
[[ $(echo -n x; echo y) == xy ]] || fail "echo -n"
[[ $(echo -e 'a\nb' | wc -l) == 2 ]] || fail "echo -e"
[[ $(printf '%s\n' "${undefined_var-}" | wc -c) == 1 ]] || fail empty
# /usr/bin/printf (coreutils) agrees with the builtin
[[ $(/usr/bin/printf '%05.1f' 3.14159) == $(printf '%05.1f' 3.14159) ]] || fail "coreutils printf"
echo OK
