# Indexed and associative arrays: slicing, appending, deletion, keys, mapfile, sorting.
fail() { echo "FAIL: $*" >&2; exit 1; }
a=(alpha "beta gamma" delta)
a+=(epsilon)
[[ ${#a[@]} -eq 4 ]] || fail "length ${#a[@]}"
[[ ${a[1]} == "beta gamma" ]] || fail "element with space"
[[ "${a[*]:1:2}" == "beta gamma delta" ]] || fail "slice"
[[ ${a[-1]} == epsilon ]] || fail "negative index"
unset 'a[0]'
[[ "${!a[*]}" == "1 2 3" ]] || fail "indices after unset: ${!a[*]}"
a=("${a[@]}")
[[ ${a[0]} == "beta gamma" ]] || fail "reindex"

sparse=([5]=five [10]=ten)
[[ ${#sparse[@]} -eq 2 && ${sparse[10]} == ten ]] || fail "sparse"

declare -A color=([apple]=red [banana]=yellow [grape]=purple)
color[lime]=green
[[ ${#color[@]} -eq 4 ]] || fail "assoc size"
[[ -v color[apple] && ! -v color[cherry] ]] || fail "assoc -v"
unset 'color[banana]'
keys=$(printf '%s\n' "${!color[@]}" | sort | paste -sd' ')
[[ $keys == "apple grape lime" ]] || fail "keys: $keys"

# counting with an associative array
declare -A count=()
for w in a b a c b a; do count[$w]=$(( ${count[$w]:-0} + 1 )); done
[[ ${count[a]} -eq 3 && ${count[b]} -eq 2 && ${count[c]} -eq 1 ]] || fail "counts"

# mapfile / readarray
mapfile -t lines < <(printf 'one\ntwo\nthree\n')
[[ ${#lines[@]} -eq 3 && ${lines[2]} == three ]] || fail "mapfile"

# sort an array through sort(1)
nums=(42 7 19 3 88)
IFS=$'\n' sorted=($(sort -n <<<"${nums[*]}")); unset IFS
[[ "${sorted[*]}" == "3 7 19 42 88" ]] || fail "sorted: ${sorted[*]}"

# pattern substitution over every element, and declare -p round-trip
b=(x.txt y.txt z.log)
c=("${b[@]/%.txt/.md}")
[[ "${c[*]}" == "x.md y.md z.log" ]] || fail "per-element substitution"
saved=$(declare -p color)
unset color
eval "$saved"
[[ ${color[grape]} == purple ]] || fail "declare -p round-trip"
echo OK
