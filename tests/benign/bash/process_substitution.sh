# Process substitution <(...) and >(...), /dev/fd, named pipes, tee to several consumers.
fail() { echo "FAIL: $*" >&2; exit 1; }
r=$(diff <(printf 'a\nb\n') <(printf 'a\nc\n') | grep -c '^[<>]')
[[ $r == 2 ]] || fail "diff of two substitutions"
[[ $(paste -d, <(seq 3) <(seq 4 6) <(seq 7 9) | tail -1) == 3,6,9 ]] || fail "paste three"
[[ $(comm -12 <(printf 'x\ny\nz\n') <(printf 'y\nz\n') | paste -sd,) == y,z ]] || fail comm
[[ $(join <(printf '1 a\n2 b\n') <(printf '1 A\n2 B\n') | tail -1) == "2 b B" ]] || fail join
# a while loop reading from <(...) keeps its variables (no subshell)
total=0
while read -r n; do (( total += n )); done < <(seq 1 100)
(( total == 5050 )) || fail "loop over <(...)"
# the path of a substitution is a /dev/fd entry
p=<(true)
[[ $p == /dev/fd/* ]] || fail "path $p"
# output substitution: tee into several filters at once
seq 1 10 | tee >(awk '{ s += $1 } END { print s }' > sum.txt) >(grep -c . > count.txt) > /dev/null
for _ in $(seq 200); do [[ -s sum.txt && -s count.txt ]] && break; sleep 0.01; done
[[ $(cat sum.txt) == 55 && $(cat count.txt) == 10 ]] || fail "tee >(...)"
# stderr into a substitution
{ echo visible; echo hidden >&2; } 2> >(tr a-z A-Z > err.txt)
for _ in $(seq 200); do [[ -s err.txt ]] && break; sleep 0.01; done
[[ $(cat err.txt) == HIDDEN ]] || fail "2> >(...)"
# a substitution as a file argument for a program that opens it
[[ $(wc -l < <(seq 7)) == 7 && $(cat <(echo direct)) == direct ]] || fail "open /dev/fd"
[[ $(sort -m <(printf '1\n4\n') <(printf '2\n3\n') | paste -sd,) == 1,2,3,4 ]] || fail "sort -m"
# named pipe in the working directory
mkfifo fifo
( seq 5 > fifo ) &
[[ $(paste -sd+ fifo | bc) == 15 ]] || fail fifo
wait
rm -f fifo sum.txt count.txt err.txt
echo OK
