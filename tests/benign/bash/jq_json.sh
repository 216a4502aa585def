# jq: filters, -r/-c/-n/-s/-e, --arg/--argjson, map/select/group_by/reduce, building JSON, round-trips.
fail() { echo "FAIL: $*" >&2; exit 1; }
cat > data.json <<'EOT'
{"users": [
  {"id": 1, "name": "Alice", "age": 31, "tags": ["admin", "dev"], "team": "core"},
  {"id": 2, "name": "Bob", "age": 25, "tags": ["dev"], "team": "web"},
  {"id": 3, "name": "Carol", "age": 42, "tags": [], "team": "core"},
  {"id": 4, "name": "Dan", "age": 19, "tags": ["intern"], "team": "web", "email": null}
], "meta": {"version": "1.2", "count": 4}}
EOT
[[ $(jq -r '.meta.version' data.json) == 1.2 ]] || fail "path"
[[ $(jq -r '.users[] | select(.age > 30) | .name' data.json | paste -sd,) == Alice,Carol ]] || fail select

# one jq program, many results: one compact line each
mapfile -t got < <(jq -c '
  (.users | length),
  ([.users[].id] | map(. * 10)),
  (reduce .users[] as $u ({}; .[$u.team] += [$u.name])),
  (.users | group_by(.team) | map({team: .[0].team, avg: (map(.age) | add / length)})),
  (.users | sort_by(-.age) | .[0].name),
  ([.users[].tags[]] | unique | join(" ")),
  (.users[0] | [.id, .name] | @csv),
  (.users[3].email // "none"),
  ([.users[] | select(has("email"))] | length),
  ({a: 1, b: 2} | with_entries(.value += 10)),
  ("hi there" | @base64),
  ("a b&c" | @uri),
  ("42" | tonumber + 1),
  ([paths(type == "number")] | length),
  (.users | map(.name | ascii_downcase | test("^[ab]")) | map(select(.)) | length),
  (.users | map(.age) | [min, max, add]),
  ([.users[] | .name | length] | @text),
  (.users | to_entries | map("\(.key):\(.value.name)") | join(",")),
  ([limit(3; range(10; 0; -2))]),
  ({"k": [1, {"x": null}]} | tostring)
' data.json)
expected=(
  '4'
  '[10,20,30,40]'
  '{"core":["Alice","Carol"],"web":["Bob","Dan"]}'
  '[{"team":"core","avg":36.5},{"team":"web","avg":22}]'
  '"Carol"'
  '"admin dev intern"'
  '"1,\"Alice\""'
  '"none"'
  '1'
  '{"a":11,"b":12}'
  '"aGkgdGhlcmU="'
  '"a%20b%26c"'
  '43'
  '9'
  '2'
  '[19,42,117]'
  '"[5,3,5,3]"'
  '"0:Alice,1:Bob,2:Carol,3:Dan"'
  '[10,8,6]'
  '"{\"k\":[1,{\"x\":null}]}"'
)
(( ${#got[@]} == ${#expected[@]} )) || fail "result count ${#got[@]}"
for i in "${!expected[@]}"; do
  [[ ${got[i]} == "${expected[i]}" ]] || fail "result $i: got ${got[i]} want ${expected[i]}"
done

jq -e '.users[] | select(.name == "Zed")' data.json >/dev/null && fail "-e without match"
jq -e '.meta.count == 4' data.json >/dev/null || fail "-e with match"
# --arg / --argjson / -n build new documents safely
doc=$(jq -n --arg name 'O"Reilly <x>' --argjson n 3 '{name: $name, n: $n, list: [range($n)]}')
[[ $(jq -r '"\(.name) \(.list | length)"' <<<"$doc") == 'O"Reilly <x> 3' ]] || fail "--arg quoting"
# slurp a stream of objects; update a file via a temp file
[[ $(printf '{"v":1}\n{"v":2}\n{"v":3}\n' | jq -s 'map(.v) | add') == 6 ]] || fail slurp
jq '.meta.count += 1 | .users |= map(del(.tags))' data.json > data.tmp && mv data.tmp data.json
[[ $(jq -c '[.meta.count, (.users[0] | has("tags"))]' data.json) == '[5,false]' ]] || fail "update"
# a shell array from jq output, and TSV for read
mapfile -t names < <(jq -r '.users[].name' data.json)
[[ ${#names[@]} -eq 4 && ${names[2]} == Carol ]] || fail mapfile
while IFS=$'\t' read -r id name; do last="$id=$name"; done < <(jq -r '.users[] | [.id, .name] | @tsv' data.json)
[[ $last == 4=Dan ]] || fail "@tsv"
# invalid JSON is reported with a non-zero status
if echo '{"a":' | jq . >/dev/null 2>&1; then fail "invalid JSON accepted"; fi
rm -f data.json
echo OK
