# Child processes without a shell: Open3 with the ruby binary itself (RbConfig.ruby), IO.popen, spawn/wait, fork, pipes, exit statuses.
require "open3"
require "rbconfig"
def check(cond, msg) = (raise "FAIL: #{msg}" unless cond)
RUBY = RbConfig.ruby
check File.executable?(RUBY), "ruby binary #{RUBY}"

out, err, st = Open3.capture3(RUBY, "--disable-gems", "-e", 'print STDIN.read.upcase; warn "to err"; exit 3', stdin_data: "piped in")
check out == "PIPED IN" && err == "to err\n" && st.exitstatus == 3 && !st.success?, "capture3 #{[out, err, st]}"
out, st = Open3.capture2e(RUBY, "--disable-gems", "-e", '$stdout.sync = true; puts 1; $stderr.puts 2; puts 3')
check out.lines.map(&:chomp).sort == %w[1 2 3] && st.success?, "capture2e"

Open3.popen3(RUBY, "--disable-gems", "-e", 'STDIN.each_line { |l| puts l.to_i * 2; STDOUT.flush }') do |i, o, e, wt|
  i.puts 21
  check o.gets == "42\n", "popen3 interactive"
  i.puts 50
  check o.gets == "100\n", "popen3 second line"
  i.close
  check wt.value.success? && e.read.empty?, "popen3 exit"
end

listing = IO.popen([RUBY, "--disable-gems", "-e", 'puts ARGV.reverse', "a b", "c"], &:read)
check listing == "c\na b\n" && $?.success?, "IO.popen array form keeps arguments"
IO.popen([RUBY, "--disable-gems", "-e", "puts STDIN.read.split.sum(&:to_i)"], "r+") do |io|
  io.write("1 2 3 4")
  io.close_write
  check io.read == "10\n", "IO.popen r+"
end

r, w = IO.pipe
pid = Process.spawn({ "CHILD_VAR" => "spawned" }, RUBY, "--disable-gems", "-e", 'print ENV["CHILD_VAR"]; exit 7', out: w, err: File::NULL)
w.close
_, status = Process.wait2(pid)
check r.read == "spawned" && status.exitstatus == 7 && status.pid == pid, "spawn with env and redirects"
File.write("input.txt", "file input")
pid = spawn(RUBY, "--disable-gems", "-e", 'File.write("out.txt", STDIN.read.reverse)', in: "input.txt", chdir: Dir.pwd)
Process.wait(pid)
check File.read("out.txt") == "tupni elif" && $?.exitstatus == 0, "spawn in:/chdir:"
check system(RUBY, "--disable-gems", "-e", "exit 1") == false && $?.exitstatus == 1, "system"
check system("no-such-program-xyz", exception: false).nil?, "system missing program"
check (system("no-such-program-xyz", exception: true) rescue Errno::ENOENT) == Errno::ENOENT, "system exception: true"
pid = spawn(RUBY, "--disable-gems", "-e", "sleep 5")
Process.kill(:TERM, pid)
_, st = Process.wait2(pid)
check st.signaled? && st.termsig == Signal.list["TERM"], "kill child"

# fork, pipes between parent and child, exit codes, many short children
rd, wr = IO.pipe
child = fork do
  rd.close
  wr.write(Process.pid.to_s)
  wr.close
  exit!(5)
end
wr.close
check rd.read == child.to_s, "fork pid through a pipe"
Process.wait(child)
check $?.exitstatus == 5, "fork exit status"
kids = 10.times.map { |i| fork { exit!(i) } }
codes = kids.map { Process.wait2(_1)[1].exitstatus }
check codes == (0...10).to_a, "many children"
check Process.ppid > 0 && Process.pid != child && Process.respond_to?(:fork), "pids"
detached = Process.detach(fork { exit!(0) })
check detached.value.success?, "detach"
File.delete("input.txt", "out.txt")
puts "OK"
