# Signals: Signal.trap for USR1/USR2/TERM/INT, Process.kill to self and children, at_exit ordering, Signal.list, timeouts with sleep.
require "timeout"
def check(cond, msg) = (raise "FAIL: #{msg}" unless cond)

got = Queue.new
old = Signal.trap("USR1") { got << :usr1 }
check old == "DEFAULT" || old.nil? || old == "SYSTEM_DEFAULT", "previous handler #{old.inspect}"
Process.kill("USR1", Process.pid)
check Timeout.timeout(2) { got.pop } == :usr1, "USR1 delivered"
Signal.trap(:USR2) { |signo| got << signo }
Process.kill(:USR2, Process.pid)
check Timeout.timeout(2) { got.pop } == Signal.list["USR2"], "USR2, handler gets signo"
Signal.trap("USR1", "IGNORE")
Process.kill("USR1", Process.pid)
sleep 0.02
check got.empty?, "ignored signal"
Signal.trap("USR1", "DEFAULT")

begin
  Process.kill("INT", Process.pid)
  sleep 1
  raise "FAIL: no Interrupt"
rescue Interrupt
end
check Signal.list.values_at("KILL", "TERM", "HUP") == [9, 15, 1] && Signal.signame(15) == "TERM", "Signal.list"

# a child with its own TERM handler exits cleanly; a child without one is terminated
rd, wr = IO.pipe
pid = fork do
  rd.close
  Signal.trap("TERM") { wr.write("cleaned up"); wr.close; exit!(0) }
  wr.write("R")
  wr.flush
  sleep 5
  exit!(1)
end
wr.close
check rd.read(1) == "R", "child ready"
Process.kill("TERM", pid)
_, st = Process.wait2(pid)
check st.exitstatus == 0 && rd.read == "cleaned up", "child TERM handler"
pid = fork { sleep 5 }
Process.kill(:KILL, pid)
_, st = Process.wait2(pid)
check st.signaled? && st.termsig == 9 && st.exitstatus.nil?, "SIGKILL child"
check (Process.kill(0, pid) rescue Errno::ESRCH) == Errno::ESRCH, "reaped child is gone"
check Process.kill(0, Process.pid) == 1, "signal 0 probes"

# SIGCHLD and SIGPIPE
chld = Queue.new
Signal.trap("CHLD") { chld << :chld }
Process.wait(fork { exit!(0) })
check Timeout.timeout(2) { chld.pop } == :chld, "SIGCHLD"
Signal.trap("CHLD", "DEFAULT")
r, w = IO.pipe
r.close
check (w.write("x") rescue Errno::EPIPE) == Errno::EPIPE, "EPIPE instead of dying"
check (Timeout.timeout(0.05) { sleep 2 } rescue :timed_out) == :timed_out, "Timeout with sleep"
order = []
at_exit { puts "OK" if order == %i[second first] }
at_exit { order << :first }
at_exit { order << :second }
