# Time: sleep, timeout (124, -s, -k), read -t, SECONDS, time keyword, wait with a deadline, kill -0.
fail() { echo "FAIL: $*" >&2; exit 1; }
start=$EPOCHREALTIME
sleep 0.1
el=$(echo "${EPOCHREALTIME/,/.} - ${start/,/.}" | bc)
(( $(echo "$el >= 0.09" | bc) )) || fail "sleep too short: $el"

timeout 0.1 sleep 5; (( $? == 124 )) || fail "timeout status"
timeout 2 true; (( $? == 0 )) || fail "timeout of a quick command"
timeout -s INT 0.1 sleep 5; (( $? == 124 )) || fail "timeout -s INT"
timeout --preserve-status -s TERM 0.1 sleep 5; (( $? == 143 )) || fail "--preserve-status"
# (TERM at 1 s: the child must have set its trap first, even traced on a
# loaded host, where 0.05 s was sometimes too soon and TERM ended it: 124)
st=$( { timeout -k 0.05 1 bash -c 'trap "" TERM; sleep 3'; echo $?; } 2>/dev/null )
(( st == 137 )) || fail "timeout -k: $st"
r=$(timeout 0.2 bash -c 'echo partial; sleep 5'); [[ $r == partial ]] || fail "output before timeout"

# read -t on a silent pipe times out with status > 128
read -r -t 0.1 line < <(sleep 0.5); (( $? > 128 )) || fail "read -t status"
# the time keyword
TIMEFORMAT=%R
t=$( { time sleep 0.1; } 2>&1 )
(( $(echo "$t >= 0.09" | bc) )) || fail "time: $t"
# SECONDS counts up, and can be reset
SECONDS=100; (( SECONDS >= 100 )) || fail SECONDS
# poll a background job with kill -0 until it finishes, with a deadline
sleep 0.2 & p=$!
deadline=$(( EPOCHSECONDS + 5 ))
while kill -0 $p 2>/dev/null; do
  (( EPOCHSECONDS < deadline )) || fail "deadline"
  sleep 0.05
done
wait $p; (( $? == 0 )) || fail "polled job status"
kill -0 $p 2>/dev/null && fail "job still alive"
# sleep with unit suffixes and fractional values
sleep 0.05s; sleep 0
echo OK
