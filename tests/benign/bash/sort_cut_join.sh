# Coreutils text tools: sort (keys, numeric, unique, stable), uniq, cut, tr, paste, join, comm, nl, fold, split, expand.
fail() { echo "FAIL: $*" >&2; exit 1; }
cat > emp.csv <<'EOT'
3,carol,sales,5200
1,alice,eng,7000
4,dave,eng,6100
2,bob,sales,4800
5,erin,hr,5000
EOT
cat > dept.csv <<'EOT'
eng,Engineering
hr,Human Resources
sales,Sales
EOT
r=$(sort -t, -k4,4nr emp.csv | head -2 | cut -d, -f2 | paste -sd' ')
[[ $r == "alice dave" ]] || fail "sort by salary: $r"
r=$(sort -t, -k3,3 -k2,2 emp.csv | cut -d, -f2 | paste -sd,)
[[ $r == "alice,dave,erin,bob,carol" ]] || fail "multi-key sort: $r"
r=$(cut -d, -f3 emp.csv | sort | uniq -c | awk '{print $2":"$1}' | paste -sd' ')
[[ $r == "eng:2 hr:1 sales:2" ]] || fail "uniq -c: $r"
[[ $(cut -d, -f3 emp.csv | sort -u | wc -l) == 3 ]] || fail "sort -u"
[[ $(cut -c1-3 <<<"abcdef") == abc ]] || fail "cut -c"

# join needs both files sorted on the join field
sort -t, -k3,3 emp.csv | awk -F, '{print $3","$2}' > by_dept.csv
r=$(join -t, by_dept.csv dept.csv | cut -d, -f2,3 | paste -sd';')
[[ $r == "alice,Engineering;dave,Engineering;erin,Human Resources;bob,Sales;carol,Sales" ]] || fail "join: $r"

# tr: delete, squeeze, translate, classes
[[ $(tr -d '0-9' <<<"a1b2c3") == abc ]] || fail "tr -d"
[[ $(tr -s ' ' <<<"a    b  c") == "a b c" ]] || fail "tr -s"
[[ $(tr '[:lower:]' '[:upper:]' <<<"mixed Case") == "MIXED CASE" ]] || fail "tr classes"
[[ $(echo hello | tr 'a-y' 'b-z') == ifmmp ]] || fail "tr rotate"

# paste columns, comm, nl, fold, expand, tac, rev-like with sed
seq 3 > c1; printf 'x\ny\nz\n' > c2
[[ $(paste -d: c1 c2 | paste -sd' ') == "1:x 2:y 3:z" ]] || fail paste
printf 'a\nb\nc\nd\n' > s1; printf 'b\nd\ne\n' > s2
[[ $(comm -12 s1 s2 | paste -sd,) == b,d && $(comm -23 s1 s2 | paste -sd,) == a,c ]] || fail comm
[[ $(printf 'x\ny\n' | nl -ba -w1 -s. | paste -sd' ') == "1.x 2.y" ]] || fail nl
[[ $(echo abcdefghij | fold -w4 | paste -sd' ') == "abcd efgh ij" ]] || fail fold
[[ $(printf 'a\tb\n' | expand -t4) == "a   b" ]] || fail expand
[[ $(seq 5 | tac | head -1) == 5 ]] || fail tac
[[ $(printf '10\n9\n100\n' | sort -n | paste -sd,) == 9,10,100 ]] || fail "sort -n"
[[ $(printf '1.10\n1.9\n1.2\n' | sort -V | paste -sd,) == 1.2,1.9,1.10 ]] || fail "sort -V"
[[ $(printf '2K\n1M\n3\n' | sort -h | paste -sd,) == 3,2K,1M ]] || fail "sort -h"
seq 10 | split -l 4 - part_
[[ $(ls part_* | wc -l) == 3 && $(cat part_ac | paste -sd,) == 9,10 ]] || fail split
[[ $(seq 10 | shuf --random-source=<(yes) | sort -n | tail -1) == 10 ]] || fail shuf
[[ $(printf 'b\na\n' | sort -c 2>/dev/null; echo $?) == 1 ]] || fail "sort -c"
rm -f emp.csv dept.csv by_dept.csv c1 c2 s1 s2 part_*
echo OK
