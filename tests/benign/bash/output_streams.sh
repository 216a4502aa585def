# Output: many lines to stdout, stderr messages, exec redirection of stdout, tee, SIGPIPE, merged streams.
fail() { echo "FAIL: $*" >&2; exit 1; }
# a few thousand lines straight to stdout (about 100 KB)
for (( i = 1; i <= 3000; i++ )); do printf 'line %05d %s\n' "$i" "payload-payload-payload"; done
seq 1 2000 | awk '{ printf "row %d,%d\n", $1, $1 * $1 }'
echo "progress: half way" >&2
printf 'warning: %s\n' "to stderr with printf" 1>&2
echo "both to stdout and a file" | tee tee.txt
[[ $(cat tee.txt) == "both to stdout and a file" ]] || fail tee
# save stdout, send it to a file for a while, restore it
exec 3>&1 1> captured.txt
echo "this goes to the file"
seq 3
exec 1>&3 3>&-
[[ $(wc -l < captured.txt) == 4 ]] || fail "exec redirection"
# stdout is still fine after restoring
echo "back on stdout"
# yes | head: the writer dies of SIGPIPE without noise
r=$(yes hello | head -n 1000 | wc -l)
[[ $r == 1000 ]] || fail "yes | head"
r=$(seq 1 1000000 | head -1)
[[ $r == 1 ]] || fail "SIGPIPE on a long seq"
# stderr and stdout merged in order into a pipe
r=$( { echo a; echo b >&2; echo c; } 2>&1 | paste -sd,)
[[ $r == a,b,c ]] || fail "2>&1 order: $r"
# /dev/null both ways, and cat of a file written by >>
: > log.txt
for w in alpha beta gamma; do echo "$w" >> log.txt; done
cat log.txt
[[ $(cat /dev/null | wc -c) == 0 ]] || fail /dev/null
rm -f captured.txt log.txt tee.txt
echo OK
