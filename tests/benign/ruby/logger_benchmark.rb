# Logging and measuring: Logger to a file and StringIO with formatters and levels, Benchmark.realtime/measure, Etc and process info.
require "logger"
require "benchmark"
require "stringio"
require "etc"
def check(cond, msg) = (raise "FAIL: #{msg}" unless cond)

sio = StringIO.new
log = Logger.new(sio, progname: "app", level: :info)
log.formatter = proc { |sev, time, prog, msg| "#{sev[0]} #{time.utc.year > 2000} #{prog}: #{msg}\n" }
log.debug("hidden")
log.info("started")
log.warn { "lazy #{1 + 1}" }
log.error(RuntimeError.new("boom"))
check sio.string == "I true app: started\nW true app: lazy 2\nE true app: boom\n", "formatter/levels: #{sio.string.inspect}"
check log.info? && !log.debug? && log.level == Logger::INFO, "level predicates"

file_log = Logger.new("app.log")
file_log.info("to file")
file_log.add(Logger::FATAL, "fatal one")
file_log.close
content = File.read("app.log")
check content.start_with?("# Logfile created") && content.include?("INFO -- : to file") && content.include?("FATAL -- : fatal one"), "file logger"
check Logger.new(nil).info("discarded") == true, "null logger"
stderr_log = Logger.new($stderr, level: :warn)
stderr_log.warn("a warning on stderr")

t = Benchmark.realtime { 200_000.times.sum }
check t > 0 && t < 1.5, "realtime #{t}"
tms = Benchmark.measure { (1..300_000).map { _1 * 2 }.sum }
check tms.real >= 0 && tms.utime + tms.stime >= 0 && tms.format("%r").start_with?("("), "measure"
report = StringIO.new
$stdout = report
Benchmark.bm(6) do |x|
  x.report("map:") { (1..20_000).map { _1 + 1 } }
  x.report("each:") { s = 0; (1..20_000).each { s += _1 } }
end
$stdout = STDOUT
check report.string.lines.size == 3 && report.string.include?("map:"), "bm report"

check Etc.nprocessors >= 1 && Etc.uname[:sysname] == "Linux", "Etc.nprocessors/uname"
pw = Etc.getpwuid(Process.uid) rescue nil
check pw.nil? || pw.uid == Process.uid, "getpwuid"
check Process.uid >= 0 && Process.euid == Process.uid && Process.gid >= 0, "ids"
check Process.getrlimit(:NOFILE).all? { _1.is_a?(Integer) } && Process.getrlimit(:NPROC)[0] > 0, "rlimits"
check Process.clock_gettime(Process::CLOCK_REALTIME, :millisecond) > 1_600_000_000_000, "realtime clock"
check Dir.pwd == File.expand_path(".") && ENV.fetch("LANG", "") == "C.UTF-8" && Encoding.default_external == Encoding::UTF_8, "env/encoding"
check ENV["HOME"] && ENV.to_h.is_a?(Hash) && ENV.key?("PATH"), "ENV"
ENV["MY_VAR"] = "set"
check ENV.delete("MY_VAR") == "set" && ENV["MY_VAR"].nil?, "ENV mutation"
check RUBY_VERSION >= "3.1" && RUBY_PLATFORM.include?("linux") && RUBY_ENGINE == "ruby", "ruby constants"
check File.read("/proc/self/status").include?("VmRSS") && File.read("/proc/loadavg").split.size == 5, "/proc"
File.delete("app.log")
puts "OK"
