# Argument handling: $0 $# "$@" "$*", set --, shift, getopts (flags, values, errors), long options by hand.
fail() { echo "FAIL: $*" >&2; exit 1; }
[[ $0 == main.sh || $0 == */main.sh ]] || fail "\$0 is $0"
(( $# == 0 )) || fail "no arguments expected, got $#"

parse() {
  local OPTIND opt
  verbose=0 output="" level=1 files=() errors=()
  while getopts ':vo:l:' opt; do
    case $opt in
      v) (( verbose++ )) ;;
      o) output=$OPTARG ;;
      l) level=$OPTARG ;;
      :) errors+=("missing value for -$OPTARG") ;;
      \?) errors+=("unknown -$OPTARG") ;;
    esac
  done
  shift $(( OPTIND - 1 ))
  files=("$@")
}
parse -vv -o out.txt -l3 a.txt "b c.txt"
[[ $verbose == 2 && $output == out.txt && $level == 3 ]] || fail "options: $verbose $output $level"
[[ ${#files[@]} == 2 && ${files[1]} == "b c.txt" ]] || fail "operands: ${files[*]}"
parse -x -o
[[ "${errors[*]}" == "unknown -x missing value for -o" ]] || fail "errors: ${errors[*]}"
parse -- -v
[[ $verbose == 0 && ${files[0]} == -v ]] || fail "-- ends options"

# long options with a case loop
longopts() {
  name="" dry=0 rest=()
  while (( $# )); do
    case $1 in
      --name=*) name=${1#*=} ;;
      --name) name=$2; shift ;;
      --dry-run|-n) dry=1 ;;
      --) shift; rest+=("$@"); break ;;
      -*) echo "bad option $1" >&2; return 2 ;;
      *) rest+=("$1") ;;
    esac
    shift
  done
}
longopts --name=alpha -n x -- --literal
[[ $name == alpha && $dry == 1 && "${rest[*]}" == "x --literal" ]] || fail "long options"
longopts --name beta
[[ $name == beta ]] || fail "--name value"
longopts --bogus 2>/dev/null; (( $? == 2 )) || fail "bad option status"

# set -- replaces the positional parameters; "$@" vs "$*"
set -- "one two" three
(( $# == 2 )) || fail "set --"
IFS=,; joined="$*"; unset IFS
[[ $joined == "one two,three" ]] || fail "\$* with IFS"
count() { echo $#; }
[[ $(count "$@") == 2 && $(count $*) == 3 ]] || fail "word splitting"
shift; [[ $1 == three ]] || fail shift
set --; (( $# == 0 )) || fail "clear"
# arguments through to a child bash
[[ $(bash -c 'echo "$0:$#:$2"' prog a "b c") == "prog:2:b c" ]] || fail "bash -c args"
# ${@:2} slicing, last argument
set -- a b c d
[[ "${@:2:2}" == "b c" && ${!#} == d ]] || fail "slicing"
echo OK
