# Pipelines: word frequencies through tr | sort | uniq -c | sort | head, wc, tee, PIPESTATUS.
fail() { echo "FAIL: $*" >&2; exit 1; }
text='the quick brown fox jumps over the lazy dog
The dog barks; the fox runs.
A quick fox, a lazy dog, and THE end.'

top=$(printf '%s\n' "$text" | tr 'A-Z' 'a-z' | tr -cs 'a-z' '\n' | grep -v '^$' \
      | sort | uniq -c | sort -k1,1nr -k2,2 | head -n 3 | awk '{print $2 "=" $1}' | paste -sd, -)
[[ $top == "the=5,dog=3,fox=3" ]] || fail "top words: $top"

words=$(printf '%s\n' "$text" | wc -w)
lines=$(printf '%s\n' "$text" | wc -l)
[[ $words -eq 24 && $lines -eq 3 ]] || fail "wc: $words words $lines lines"

# tee into a file while the pipeline goes on
n=$(seq 1 100 | tee numbers.txt | awk '$1 % 7 == 0' | wc -l)
[[ $n -eq 14 ]] || fail "multiples of 7: $n"
[[ $(tail -n 1 numbers.txt) == 100 ]] || fail "tee file"

# PIPESTATUS and pipefail
true | false | true
st=("${PIPESTATUS[@]}")
[[ "${st[*]}" == "0 1 0" ]] || fail "PIPESTATUS ${st[*]}"
set -o pipefail
if seq 3 | grep -q nomatch | cat; then fail "pipefail"; fi
set +o pipefail

# a long pipeline of small stages
r=$(seq 1 20 | sed 's/$/x/' | cut -dx -f1 | sort -rn | head -5 | tac | tr '\n' ' ')
[[ $r == "16 17 18 19 20 " ]] || fail "long pipeline: $r"
rm -f numbers.txt
echo OK
