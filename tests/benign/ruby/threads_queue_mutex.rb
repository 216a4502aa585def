# Threads: Queue/SizedQueue producer-consumer, Mutex, ConditionVariable, thread-locals, values, timeouts, Thread#kill.
require "timeout"
require "monitor"
def check(cond, msg) = (raise "FAIL: #{msg}" unless cond)

results = Array.new(8) { |i| Thread.new(i) { |n| (1..10_000).sum * n } }.map(&:value)
check results == (0...8).map { 50_005_000 * _1 }, "Thread#value"

count = 0
lock = Mutex.new
ts = 8.times.map { Thread.new { 1000.times { lock.synchronize { count += 1 } } } }
ts.each(&:join)
check count == 8000, "mutex counter #{count}"
check !lock.locked? && lock.try_lock && lock.owned? && lock.unlock, "try_lock"

jobs = Queue.new
done = Queue.new
workers = 4.times.map do
  Thread.new do
    while (j = jobs.pop) != :stop
      done << j * j
    end
  end
end
(1..100).each { jobs << _1 }
4.times { jobs << :stop }
workers.each(&:join)
squares = []
squares << done.pop until done.empty?
check squares.sort == (1..100).map { _1 * _1 }, "worker pool"
check jobs.empty? && jobs.num_waiting.zero?, "queue drained"

sq = SizedQueue.new(2)
producer = Thread.new { 10.times { sq.push(_1) }; sq.close }
consumed = []
while (v = sq.pop)
  consumed << v
end
producer.join
check consumed == (0...10).to_a && sq.closed?, "SizedQueue with close"
check (Queue.new.pop(true) rescue ThreadError) == ThreadError, "non-blocking pop"

cv = ConditionVariable.new
m = Mutex.new
ready = false
waiter = Thread.new { m.synchronize { cv.wait(m) until ready; :woke } }
sleep 0.01
m.synchronize { ready = true; cv.signal }
check waiter.value == :woke, "ConditionVariable"

t = Thread.new { Thread.current[:req] = 42; Thread.current.thread_variable_set(:tv, 7); [Thread.current[:req], Thread.current.thread_variable_get(:tv)] }
check t.value == [42, 7] && Thread.current[:req].nil?, "thread locals"
t = Thread.new { Thread.current.name = "named"; Thread.current.name }
check t.value == "named" && Thread.main == Thread.current && Thread.list.include?(Thread.current), "names/list"
sleeper = Thread.new { sleep 10 }
sleep 0.01
check sleeper.status == "sleep" && sleeper.alive?, "status"
sleeper.kill.join
check !sleeper.alive? && sleeper.status == false, "kill"
check (Timeout.timeout(0.05) { sleep 1 } rescue Timeout::Error) == Timeout::Error, "Timeout"
check Thread.new { sleep 0.01; :late }.join(2)&.value == :late && Thread.new { sleep 1 }.join(0.01).nil?, "join with limit"
th = Thread.new { Thread.stop; :resumed }
sleep 0.01 until th.status == "sleep"
th.wakeup
check th.value == :resumed, "stop/wakeup"
th = Thread.new { begin; sleep; rescue RuntimeError => e; e.message; end }
sleep 0.01 until th.status == "sleep"
th.raise("interrupted")
check th.value == "interrupted", "Thread#raise"
check Thread.new { Thread.pass; Thread.current.priority }.value.is_a?(Integer), "pass/priority"
e = Thread.new { Thread.current.report_on_exception = false; raise ArgumentError, "boom" }
check (e.join rescue $!.class) == ArgumentError, "propagated exception"
mon = Monitor.new
depth = mon.synchronize { mon.synchronize { :reentrant } }
check depth == :reentrant, "Monitor re-entrant"
puts "OK"
