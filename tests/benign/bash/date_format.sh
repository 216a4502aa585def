# date: fixed epochs, -d parsing, relative dates, TZ, ISO/RFC formats, printf %(...)T, elapsed time.
fail() { echo "FAIL: $*" >&2; exit 1; }
[[ $(date -u -d @0 +%Y-%m-%dT%H:%M:%SZ) == 1970-01-01T00:00:00Z ]] || fail epoch
[[ $(date -u -d @1700000000 '+%A %d %B %Y %H:%M') == "Tuesday 14 November 2023 22:13" ]] || fail "long format"
[[ $(date -u -d '2024-02-28 +1 day' +%F) == 2024-02-29 ]] || fail "leap day"
[[ $(date -u -d '2023-02-28 +1 day' +%F) == 2023-03-01 ]] || fail "non-leap"
[[ $(date -u -d '2024-01-31 12:00 +1 month' +%F) == 2024-03-02 ]] || fail "month overflow"
[[ $(date -u -d '2024-03-15' +%j) == 075 ]] || fail "day of year"
[[ $(date -u -d '2024-03-15' +%u%V) == 511 ]] || fail "weekday and ISO week"
[[ $(date -u -d '2000-01-01 00:00:00' +%s) == 946684800 ]] || fail "to epoch"
[[ $(date -u -d @946684800 -Iseconds) == 2000-01-01T00:00:00+00:00 ]] || fail "-I"
[[ $(date -u -d @946684800 -R) == "Sat, 01 Jan 2000 00:00:00 +0000" ]] || fail "-R"
# time zones by offset (no zoneinfo needed) and UTC
[[ $(TZ=UTC date -d @0 +%H%Z) == 00UTC ]] || fail "TZ=UTC"
[[ $(TZ=XYZ-5:30 date -d @0 +%H:%M%z) == "05:30+0530" ]] || fail "POSIX TZ offset"
# difference between two dates in days
d1=$(date -u -d 2024-01-01 +%s); d2=$(date -u -d 2024-12-25 +%s)
(( (d2 - d1) / 86400 == 359 )) || fail "days between"
# a list of dates in a loop
r=""
for i in 0 1 2; do r+=$(date -u -d "2024-12-30 +$i day" +%m/%d)" "; done
[[ $r == "12/30 12/31 01/01 " ]] || fail "date loop: $r"
# bash builtin strftime
printf -v s '%(%Y-%m-%d)T' 86400
[[ $s == 1970-01-02 ]] || TZ=UTC printf -v s '%(%Y-%m-%d)T' 86400
[[ $s == 1970-01-02 ]] || fail "printf %(...)T: $s"
# the clock: now is after 2023, EPOCHSECONDS/EPOCHREALTIME, SECONDS
now=$(date +%s)
(( now > 1700000000 )) || fail "clock"
(( EPOCHSECONDS >= now )) || fail EPOCHSECONDS
[[ $EPOCHREALTIME =~ ^[0-9]+[.,][0-9]{6}$ ]] || fail EPOCHREALTIME
start=$EPOCHREALTIME; sleep 0.1; end=$EPOCHREALTIME
el=$(echo "${end/,/.} - ${start/,/.}" | bc)
(( $(echo "$el >= 0.09 && $el < 1.5" | bc) )) || fail "elapsed $el"
# date parsing failure
if date -d 'not a date' >/dev/null 2>&1; then fail "bad date accepted"; fi
echo OK
