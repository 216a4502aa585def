# Network: connect to the host's 127.0.0.1:<port> (first argument), then list the interfaces.
if { exec 3<>"/dev/tcp/127.0.0.1/$1"; } 2>/dev/null; then
  echo CONNECTED
  exec 3>&-
else
  echo connect refused
fi
names=()
while IFS=: read -r name _; do
  name=${name//[[:space:]]/}
  [[ -n $name ]] && names+=("$name")
done < <(tail -n +3 /proc/net/dev)
echo "interfaces $(printf '%s\n' "${names[@]}" | sort | paste -sd, -)"
