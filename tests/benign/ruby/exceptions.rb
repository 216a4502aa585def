# Exceptions: custom hierarchies, rescue ordering, retry, ensure, else, cause, full_message, catch/throw, exit codes.
def check(cond, msg) = (raise "FAIL: #{msg}" unless cond)

class AppError < StandardError
  def initialize(msg = "application failed") = super
end
class ValidationError < AppError
  attr_reader :field
  def initialize(field)
    @field = field
    super("invalid #{field}")
  end
end

def validate(h)
  raise ValidationError, :email unless h[:email]&.include?("@")
  raise ArgumentError, "age must be positive" unless h[:age].to_i.positive?
  :valid
end
r = begin
  validate(email: "nope", age: 3)
rescue ValidationError => e
  [e.class, e.field, e.message]
end
check r == [ValidationError, :email, "invalid email"], "custom exception #{r}"
check (validate(email: "a@b", age: 0) rescue $!.class) == ArgumentError, "rescue modifier"
check AppError.new.message == "application failed" && ValidationError.ancestors.include?(StandardError), "hierarchy"

log = []
result = begin
  log << :body
  Integer("42")
rescue ArgumentError
  log << :rescue
else
  log << :else
  :from_else
ensure
  log << :ensure
end
check log == %i[body else ensure] && result == :from_else, "else/ensure #{log}"

attempts = 0
begin
  attempts += 1
  raise IOError, "flaky" if attempts < 3
rescue IOError
  retry
end
check attempts == 3, "retry"

begin
  begin
    1 / 0
  rescue ZeroDivisionError
    raise AppError, "wrapped"
  end
rescue AppError => e
  check e.cause.is_a?(ZeroDivisionError) && e.message == "wrapped", "cause"
  check e.backtrace.first.include?("main.rb") || e.backtrace.first.include?(__FILE__), "backtrace"
  check e.full_message(highlight: false).include?("wrapped"), "full_message"
end

def deep(n) = n.zero? ? raise(NotImplementedError, "bottom") : deep(n - 1)
e = begin; deep(5); rescue ScriptError => se; se; end
check e.is_a?(NotImplementedError) && !e.is_a?(StandardError), "NotImplementedError is a ScriptError"
rescue_count = 0
[-> { nil.upcase }, -> { [].fetch(3) }, -> { Integer("x") }, -> { {}.fetch(:k) }, -> { raise "plain" }, -> { :a + 1 }].each do |f|
  f.call
rescue NoMethodError, IndexError, ArgumentError, KeyError, RuntimeError
  rescue_count += 1
end
check rescue_count == 6, "multiple rescue classes"
check (begin; {}.fetch(:k); rescue KeyError => ke; ke.key; end) == :k, "KeyError#key"
check (begin; nil.foo; rescue NoMethodError => ne; ne.name; end) == :foo, "NoMethodError#name"

found = catch(:found) do
  [[1, 2], [3, 4]].each { |row| row.each { |x| throw :found, x if x > 2 } }
  nil
end
check found == 3, "catch/throw"

# ensure runs on non-local exit; exceptions from threads; exit code of a child ruby
def with_ensure(flag) = [1].each { |_| begin; return :early; ensure; flag << :ran; end }
flags = []
check with_ensure(flags) == :early && flags == [:ran], "ensure on return"
t = Thread.new { Thread.current.report_on_exception = false; raise "in thread" }
check((t.join rescue $!.message) == "in thread", "thread exception")
err = (raise TypeError.new("typed") rescue $!)
check err.message == "typed" && err.exception.equal?(err) && err.exception("new msg").message == "new msg", "exception method"
begin
  raise Interrupt
rescue Interrupt => i
  check i.is_a?(SignalException) && !i.is_a?(StandardError), "Interrupt"
end
warn "a warning on stderr"
begin
  exit 3
rescue SystemExit => se
  check se.status == 3 && !se.success?, "SystemExit"
end
at_exit { puts "OK" }
