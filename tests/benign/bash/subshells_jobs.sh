# Subshells, background jobs, wait (by pid, -n, all), exit statuses, $BASHPID, coproc.
fail() { echo "FAIL: $*" >&2; exit 1; }
v=outer
( v=inner; [[ $v == inner ]] || exit 9 )
(( $? == 0 )) && [[ $v == outer ]] || fail "subshell isolation"
sub=$(echo $BASHPID)
[[ $sub != "$$" ]] || fail "command substitution runs in a subshell"
( exit 3 ); (( $? == 3 )) || fail "subshell exit status"

# several background workers writing their own files, then wait for each
pids=()
for i in 1 2 3 4 5; do
  ( sleep 0.0$i; echo $(( i * i )) > "sq.$i" ) &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || fail "worker $p"; done
sum=0; for i in 1 2 3 4 5; do (( sum += $(cat sq.$i) )); done
(( sum == 55 )) || fail "sum of squares $sum"
rm -f sq.*

# exit status of a background job through wait
( sleep 0.05; exit 7 ) & p=$!
wait $p; (( $? == 7 )) || fail "wait status"

# wait -n: whichever finishes first
sleep 2 & slow=$!
( sleep 0.01; exit 4 ) &
wait -n; (( $? == 4 )) || fail "wait -n"
kill $slow 2>/dev/null; wait $slow 2>/dev/null

# jobs list and plain wait
sleep 0.05 & sleep 0.05 &
[[ $(jobs -p | wc -l) -ge 1 ]] || fail "jobs -p"
wait
[[ -z $(jobs -rp) ]] || fail "all jobs done"

# a background job killed by a signal
sleep 5 & p=$!
kill -TERM $p; wait $p; (( $? == 143 )) || fail "killed job status"

# coproc: talk to a background process over pipes
coproc BC { bc; }
echo '6 * 7' >&"${BC[1]}"
read -r ans <&"${BC[0]}"
[[ $ans == 42 ]] || fail "coproc bc $ans"
exec {BC[1]}>&-
wait $BC_PID
# grouped commands and a background pipeline
{ echo a; echo b; } > grouped.txt
seq 1000 | sort -rn | head -1 > top.txt &
wait $!
[[ $(cat top.txt) == 1000 && $(wc -l < grouped.txt) == 2 ]] || fail "grouping"
rm -f top.txt grouped.txt
echo OK
