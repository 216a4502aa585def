# Globs and patterns: *, ?, [..], brace expansion, extglob, nullglob, globstar, dotglob, case statements.
fail() { echo "FAIL: $*" >&2; exit 1; }
mkdir -p g/sub/deep && cd g || fail cd
touch a.txt b.txt c.log data1.csv data2.csv data10.csv .hidden sub/x.txt sub/deep/y.txt
[[ $(echo *.txt) == "a.txt b.txt" ]] || fail "star"
[[ $(echo data?.csv) == "data1.csv data2.csv" ]] || fail "question"
[[ $(echo [ab].*) == "a.txt b.txt" ]] || fail "bracket"
[[ $(echo [!a]*.txt) == "b.txt" ]] || fail "negated bracket"
[[ $(echo *.none) == "*.none" ]] || fail "no match stays literal"
shopt -s nullglob; m=(*.none); (( ${#m[@]} == 0 )) || fail nullglob; shopt -u nullglob
shopt -s dotglob; n=$(echo * | wc -w); shopt -u dotglob
(( n == 8 )) || fail "dotglob $n"
shopt -s globstar; r=$(echo **/*.txt); shopt -u globstar
[[ $r == "a.txt b.txt sub/deep/y.txt sub/x.txt" ]] || fail "globstar: $r"
shopt -s extglob
[[ $(echo !(*.csv|sub)) == "a.txt b.txt c.log" ]] || fail "extglob !()"
[[ $(echo data+([0-9]).csv) == "data1.csv data10.csv data2.csv" ]] || fail "extglob +()"
[[ abc123 == +([a-z])+([0-9]) ]] || fail "extglob match"
v="  x  "; [[ ${v##+( )} == "x  " ]] || fail "extglob in expansion"
shopt -u extglob
cd .. || fail "cd .."

# brace expansion
[[ $(echo {a,b,c}-{1,2}) == "a-1 a-2 b-1 b-2 c-1 c-2" ]] || fail braces
[[ $(echo {1..5}) == "1 2 3 4 5" && $(echo {10..0..5}) == "10 5 0" && $(echo {a..e}) == "a b c d e" ]] || fail sequences
[[ $(echo {01..03}) == "01 02 03" ]] || fail "zero padding"
mkdir -p tree/{src,test}/{main,util}
[[ $(find tree -mindepth 2 -type d | wc -l) == 4 ]] || fail "mkdir with braces"

classify() {
  case $1 in
    *.tar.gz|*.tgz) echo tarball ;;
    *.[ch]) echo c-source ;;
    [0-9]*) echo starts-with-digit ;;
    ?) echo single-char ;;
    "") echo empty ;;
    *) echo other ;;
  esac
}
r=""; for f in x.tar.gz main.c 9lives z "" README; do r+="$(classify "$f") "; done
[[ $r == "tarball c-source starts-with-digit single-char empty other " ]] || fail "case: $r"
# fall-through with ;& and ;;&
ft() { case $1 in a) echo -n A ;& b) echo -n B ;; c) echo -n C ;;& *) echo -n D ;; esac; }
[[ $(ft a) == AB && $(ft c) == CD && $(ft z) == D ]] || fail "case fall-through"
# [[ pattern ]] vs quoted literal
p='*.txt'
[[ file.txt == $p && file.txt != "$p" ]] || fail "pattern vs literal"
shopt -s nocasematch; [[ HELLO == hello ]] || fail nocasematch; shopt -u nocasematch
rm -rf g tree
echo OK
