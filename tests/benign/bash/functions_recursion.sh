# Functions: locals, return codes, recursion, namerefs, output capture, dynamic scope, FUNCNAME.
fail() { echo "FAIL: $*" >&2; exit 1; }
fact() { local n=$1; if (( n <= 1 )); then echo 1; else echo $(( n * $(fact $((n - 1))) )); fi; }
[[ $(fact 20) == 2432902008176640000 ]] || fail factorial

# recursion without subshells, result through a global
hanoi_moves=0
hanoi() { local n=$1 from=$2 to=$3 via=$4; (( n == 0 )) && return; hanoi $((n-1)) $from $via $to; (( hanoi_moves++ )); hanoi $((n-1)) $via $to $from; }
hanoi 10 A C B
(( hanoi_moves == 1023 )) || fail "hanoi $hanoi_moves"

is_even() { (( $1 % 2 == 0 )); }
is_even 4 && ! is_even 7 || fail "return status"
status_of() { return "$1"; }
status_of 42; (( $? == 42 )) || fail "explicit return"

x=global
shadow() { local x=local; inner; }
inner() { echo "$x"; }
[[ $(shadow) == local && $(inner) == global ]] || fail "dynamic scope"

# nameref: a function filling the caller's array
split_words() { local -n out=$1; read -r -a out <<<"$2"; }
split_words got "one two three"
[[ ${#got[@]} -eq 3 && ${got[1]} == two ]] || fail nameref

# variadic arguments, "$@" preserving spaces
count_args() { echo $#; }
args=("a b" c "" d)
[[ $(count_args "${args[@]}") == 4 && $(count_args ${args[@]}) == 4 ]] || fail "\$@ quoting"
where() { echo "${FUNCNAME[0]}<-${FUNCNAME[1]}"; }
caller_fn() { where; }
[[ $(caller_fn) == "where<-caller_fn" ]] || fail FUNCNAME

# functions defined at run time, listed and removed
eval 'gen_fn() { echo generated; }'
[[ $(gen_fn) == generated ]] || fail eval
declare -F gen_fn >/dev/null || fail "declare -F"
unset -f gen_fn
declare -F gen_fn >/dev/null && fail "unset -f"
# a function piping into another
upper() { tr a-z A-Z; }
numbered() { local i=0 l; while IFS= read -r l; do echo "$((++i)):$l"; done; }
[[ $(printf 'x\ny\n' | upper | numbered | paste -sd' ') == "1:X 2:Y" ]] || fail "function pipeline"
echo OK
